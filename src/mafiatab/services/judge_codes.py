"""Each table judge's sign-in for a round: a new short code per judge who signs
in with codes, to print on the blank protocol of his table and show the head judge once.

A judge named at seating time ("… judge: Ivanov") gets an account by that name that has
no password and no code: nobody could sign in as him. Such an account, holding roles in
this tournament only, becomes this tournament's code account when its first code is
issued, so the name on the seating is the one the code opens. An account with a password
(or the organizer right, or roles elsewhere) gets no code: it signs in as it always did.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from sqlalchemy import select

from mafiatab.services.accounts import AccountError
from mafiatab.services.errors import ServiceError
from mafiatab.services.rights import AccountRef, Act, TournamentRef, decide, require
from mafiatab.services.store import Store, tournament_row
from mafiatab.storage import models as db
from mafiatab.storage.models import JUDGE

if TYPE_CHECKING:
    from mafiatab.services.access import Access
    from mafiatab.services.games import Games


@dataclass(frozen=True, slots=True)
class TableCode:
    """A table of the round: its judge and his new code (None: none was made, `why`)."""

    table: int
    game: str
    judge: str | None
    code: str | None = None
    #: "password" (he signs in with his password), "no_judge", or a refusal's text
    why: str = ""


class JudgeCodes:
    """Codes for the table judges of a round, over the access service's code issuing."""

    def __init__(self, store: Store, games: Games, access: Access) -> None:
        self.store = store
        self.games = games
        self.access = access

    def _code_account(self, tournament: int, user: str, *, actor: str) -> bool:
        """Whether `user` signs in by codes of this tournament (making a name-only
        account of this tournament its code account). A code opens the whole account, so
        the rights model decides whether the actor may issue one for it
        (`services.rights`: no right and no role elsewhere, every role here one he
        gives); an account beyond that signs in as it always did."""
        with self.store.write() as s:
            t = tournament_row(s, tournament)
            require(s, actor, Act.MANAGE, TournamentRef(t.id))
            u = s.scalar(select(db.User).where(db.User.name == user))
            if u is None or u.code_tournament_id == t.id:
                return True
            if u.password_hash is not None or u.code_tournament_id is not None:
                return False
            if decide(s, actor, Act.ISSUE_CODE, AccountRef(user, t.id, JUDGE)) is not None:
                return False
            u.code_tournament_id = t.id
            return True

    def issue_for_round(self, tournament: int, stage: str | None, rnd: int, *, actor: str,
                        lang: str = "ru") -> list[TableCode]:
        """A code for each table judge of the round who signs in with codes (staff only,
        asked first: the list names the round's judges). `stage` None: the form named no
        round (refused after the role is checked)."""
        with self.store.read() as s:
            require(s, actor, Act.MANAGE, TournamentRef(tournament_row(s, tournament).id))
        if stage is None:
            raise ServiceError("bad_input", field="round")
        out = []
        for g in self.games.overview(tournament):
            if g.stage != stage or g.round != rnd:
                continue
            if not g.judge:
                out.append(TableCode(g.table, g.code, None, why="no_judge"))
                continue
            if not self._code_account(tournament, g.judge, actor=actor):
                out.append(TableCode(g.table, g.code, g.judge, why="password"))
                continue
            try:
                code = self.access.create_code(tournament, g.judge, JUDGE, actor=actor)
            except AccountError as e:
                out.append(TableCode(g.table, g.code, g.judge, why=e.message(lang)))
            else:
                out.append(TableCode(g.table, g.code, g.judge, code))
        return out


__all__ = ["JudgeCodes", "TableCode"]
