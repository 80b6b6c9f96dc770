"""A tournament's games: a new game's first draft (a table seated before the game, or a
protocol entered whole), which judge sits at which table, and reading the protocols'
revisions and the round overview. The protocol's later steps (save, submit, return,
confirm) are `services.protocols`.

Seating: a table's ten players entered (or imported) before the game are stored as the
game's first *draft* revision with the roles and the result still blank, so the judge's
form opens on it and nothing else has to know about "seating".
"""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError

from mafiatab.domain import protocol as model
from mafiatab.domain.problems import Problem, ProtocolRefused
from mafiatab.domain.validation import validate_game
from mafiatab.formats.tournament_json import read_tournament
from mafiatab.services.access import STAFF, grant_in
from mafiatab.services.accounts import account_key
from mafiatab.services.errors import NotFound, ServiceError
from mafiatab.services.reads import require_published, staff_in
from mafiatab.services.rights import AccountRef, Act, require
from mafiatab.services.roster import RosterError
from mafiatab.services.store import (
    StaleRevision,
    Store,
    game_row,
    profile_of,
    record_audit,
    require_role,
    revision_row,
    roles_in,
    table_id,
    tournament_row,
    user_row,
)
from mafiatab.services.tournaments import (
    RevisionInfo,
    Tournaments,
    encode_game,
    protocol_dict,
    record_conflict,
    revision_info,
)
from mafiatab.services.web_support import GameStatus, seating_game_id
from mafiatab.storage import models as db
from mafiatab.storage.models import DRAFT, JUDGE, Assignment


class Games:
    """A tournament's games and their judges, and reading their revisions (one
    transaction each, over the `Store`)."""

    def __init__(self, store: Store, tournaments: Tournaments) -> None:
        self.store = store
        self.tournaments = tournaments

    # --- a new game ---
    def add_game(self, tournament: int, game: model.Game, *, actor: str,
                 reason: str | None = None) -> RevisionInfo:
        """A new game of the tournament with `game` as its first draft (staff only): its
        stage must exist; its round and table are made when missing. A game of that id
        that exists already is a `ConflictError` (someone entered it first)."""
        text = encode_game(game)
        try:
            with self.store.write() as s:
                t = tournament_row(s, tournament)
                require_role(s, t, actor, STAFF, "save")
                stage_id = s.scalar(select(db.Stage.id).where(
                    db.Stage.tournament_id == t.id, db.Stage.code == game.stage))
                if stage_id is None:
                    raise ProtocolRefused([Problem("unknown_stage", game.id, None, "stage",
                                                   "format 1", {"value": game.stage})])
                table = table_id(s, stage_id, game.round, game.table)
                if s.scalar(select(db.Game.id).where(db.Game.tournament_id == t.id,
                                                     db.Game.code == game.id)) is not None:
                    raise StaleRevision()
                position = s.scalar(select(func.coalesce(func.max(db.Game.position) + 1, 0))
                                    .where(db.Game.tournament_id == t.id)) or 0
                with s.begin_nested():
                    row = db.Game(tournament_id=t.id, table_id=table, code=game.id,
                                  position=position, head_revision=1, confirmed_revision=0)
                    s.add(row)
                    s.flush()
                author = user_row(s, actor)
                rev = db.ProtocolRevision(game_id=row.id, number=1, state=DRAFT,
                                          protocol=text, author_id=author.id, reason=reason,
                                          changes={})
                s.add(rev)
                s.flush()
                record_audit(s, actor, t.id, "save", {"game": game.id, "revision": 1})
                return revision_info(s, game.id, rev)
        except StaleRevision as stale:
            raise self._conflict(tournament, game, actor) from stale
        except IntegrityError as e:  # two first saves of one new game
            try:
                conflict = self._conflict(tournament, game, actor)
            except NotFound:
                raise e from None
            raise conflict from e

    def _conflict(self, tournament: int, game: model.Game, actor: str) -> Exception:
        return record_conflict(self.store, tournament, game.id, 0, actor,
                               protocol_dict(encode_game(game)), "save")

    def enter_seating(self, tournament: int, stage: str, rnd: int, table: int,
                      players: Sequence[str], *, actor: str,
                      judge: str | None = None) -> RevisionInfo:
        """A table's seating (ten players by seat) as the game's first draft, with roles
        and result left for the judge; optionally the table's judge."""
        game = model.Game(id=seating_game_id(stage, rnd, table), stage=stage, round=rnd,
                          table=table, seats=[model.Seat(seat=i + 1, player=p, role="")
                                              for i, p in enumerate(players)],
                          result="", judge=judge)
        with self.store.write():  # one transaction: a judge refused seats nothing either
            info = self.add_game(tournament, game, actor=actor, reason="seating")
            if judge:
                self.assign_judge(tournament, game.id, judge, actor=actor)
        return info

    def enter_seating_lines(self, tournament: int, lines: Sequence[Sequence[str]], *,
                            actor: str) -> int:
        """The set-up form's seating, one table a line: stage, round, table, ten players
        by seat, an optional judge. The staff's (asked first); a line that is no table's,
        or one that seats a withdrawn player, refuses the whole form (nothing seated).
        Returns the count."""
        with self.store.write() as s:
            t = tournament_row(s, tournament)
            require_role(s, t, actor, STAFF, "save")
            withdrawn = set(s.scalars(select(db.Participant.code).where(
                db.Participant.tournament_id == t.id, db.Participant.withdrawn.is_(True))))
            for x in lines:
                if len(x) < 13 or not all(v.isascii() and v.isdecimal() and len(v) <= 4
                                          for v in x[1:3]):
                    raise ServiceError("seating_line", line=" ".join(x)[:80])
                gone = [p for p in x[3:13] if p in withdrawn]
                if gone:
                    raise RosterError("withdrawn_seated", players=", ".join(gone))
            for x in lines:
                self.enter_seating(tournament, x[0], int(x[1]), int(x[2]), x[3:13], actor=actor,
                                   judge=x[13] if len(x) > 13 else None)
        return len(lines)

    def import_seating(self, tournament: int, data: bytes, *, actor: str) -> int:
        """Seating from a format-1 file: each of its games' stage, round, table and
        players by seat (roles, results and scores in it are ignored). Returns the count.
        The staff's, asked before the file is read."""
        with self.store.read() as s:
            require_role(s, tournament_row(s, tournament), actor, STAFF, "save")
        t, problems = read_tournament(data)
        if t is None:
            raise ProtocolRefused(problems)
        for g in t.games:
            players = [s.player for s in sorted(g.seats, key=lambda x: x.seat)]
            self.enter_seating(tournament, g.stage, g.round, g.table, players, actor=actor,
                               judge=g.judge)
        return len(t.games)

    # --- judges ---
    def assign_judge(self, tournament: int, game: str, judge: str, *, actor: str) -> None:
        """Make `judge` the judge of the game's table (and a judge of the tournament)."""
        judge = account_key(judge)
        with self.store.write() as s:
            t = tournament_row(s, tournament)
            require_role(s, t, actor, STAFF, "manage")
            game_row(s, t.id, game)
            if not roles_in(s, t.id, judge) & {JUDGE, *STAFF}:  # a judge's role is given
                require(s, actor, Act.GRANT_ROLE, AccountRef(judge, t.id, JUDGE))
            grant_in(s, t.id, judge, JUDGE)
            row = s.scalar(select(Assignment).where(Assignment.tournament_id == t.id,
                                                    Assignment.game_code == game))
            if row is None:
                s.add(Assignment(tournament_id=t.id, game_code=game, user_name=judge))
            else:
                row.user_name = judge
            record_audit(s, actor, t.id, "assign_judge", {"game": game, "judge": judge})

    def judge_of(self, tournament: int, game: str) -> str | None:
        with self.store.read() as s:
            return s.scalar(select(Assignment.user_name).where(
                Assignment.tournament_id == tournament, Assignment.game_code == game))

    # --- reading ---
    def revisions(self, tournament: int, game: str) -> list[RevisionInfo]:
        """Every revision of a game's protocol, oldest first."""
        with self.store.read() as s:
            row = game_row(s, tournament, game)
            revs = s.scalars(select(db.ProtocolRevision)
                             .where(db.ProtocolRevision.game_id == row.id)
                             .order_by(db.ProtocolRevision.number))
            return [revision_info(s, game, r) for r in revs]

    def head(self, tournament: int, game: str) -> RevisionInfo:
        """The newest revision of a game's protocol (what a judge edits next)."""
        with self.store.read() as s:
            row = game_row(s, tournament, game)
            return revision_info(s, game, revision_row(s, row.id, row.head_revision))

    def confirmed(self, tournament: int, game: str) -> RevisionInfo | None:
        """The newest confirmed revision of a game, or None."""
        with self.store.read() as s:
            row = game_row(s, tournament, game)
            if not row.confirmed_revision:
                return None
            return revision_info(s, game, revision_row(s, row.id, row.confirmed_revision))

    def readable(self, tournament: int, game: str, *,
                 actor: str | None) -> tuple[RevisionInfo, bool]:
        """The protocol of a game as this reader may see it, and whether its extras are
        hidden from him: staff and the table's own judge read the newest revision (a game
        going on: with its roles); anyone else only the confirmed one, while the
        standings are published (else `PermissionDenied`; none confirmed: `NotFound`)."""
        with self.store.read() as s:
            t = tournament_row(s, tournament)
            row = game_row(s, tournament, game)
            staff = staff_in(s, t, actor)
            own = actor is not None and JUDGE in roles_in(s, t.id, actor) and s.scalar(
                select(Assignment.user_name).where(Assignment.tournament_id == t.id,
                                                   Assignment.game_code == game)) == actor
            if not (staff or own):
                require_published(s, t, actor, extras=False, action="read_game")
            number = row.head_revision if staff or own else row.confirmed_revision
            if not number:
                raise NotFound("no_game", game=game)
            info = revision_info(s, game, revision_row(s, row.id, number))
            web = s.get(db.WebSettings, t.id)
            extras_hidden = bool(t.hide_extras_until_end) and not (web and web.finished)
            return info, extras_hidden and not staff

    def overview(self, tournament: int) -> list[GameStatus]:
        """Every game with its newest revision's state, in stage, round, table order.

        Public, no actor: the seating grid and how far each game has got are what the hall
        screen, the overlay and the standings' progress show anyone, and no protocol's
        content is read here (that is `readable`'s, which checks). It carries the account
        names of each table's judge and of the newest revision's author too; the public
        pages do not show them."""
        rev = db.ProtocolRevision
        with self.store.read() as s:
            tournament_row(s, tournament)
            judges = {code: name for code, name in s.execute(
                select(Assignment.game_code, Assignment.user_name)
                .where(Assignment.tournament_id == tournament))}
            rows = s.execute(
                select(db.Game.code, db.Stage.code, db.Round.number, db.GameTable.number,
                       rev.state, db.Game.head_revision, db.Game.confirmed_revision,
                       db.User.name)
                .join(db.GameTable, db.GameTable.id == db.Game.table_id)
                .join(db.Round, db.Round.id == db.GameTable.round_id)
                .join(db.Stage, db.Stage.id == db.Round.stage_id)
                .join(rev, (rev.game_id == db.Game.id) & (rev.number == db.Game.head_revision))
                .join(db.User, db.User.id == rev.author_id)
                .where(db.Game.tournament_id == tournament)
                .order_by(db.Stage.position, db.Round.number, db.GameTable.number))
            return [GameStatus(code, stage, rnd, table, state, head, conf, author,
                               judges.get(code))
                    for code, stage, rnd, table, state, head, conf, author in rows]

    def listed(self, tournament: int, *, actor: str | None) -> list[GameStatus]:
        """Every table's protocol state as this reader may see it: staff every game; a
        judge his own tables and the confirmed games; anyone else the confirmed games,
        while the standings are published (else `PermissionDenied`)."""
        with self.store.read() as s:
            t = tournament_row(s, tournament)
            staff = staff_in(s, t, actor)
            judge = actor is not None and JUDGE in roles_in(s, t.id, actor)
            if not (staff or judge):
                require_published(s, t, actor, extras=False, action="read_games")
        rows = self.overview(tournament)
        if staff:
            return rows
        return [g for g in rows if g.confirmed_revision or (actor and g.judge == actor)]

    def tables_of(self, tournament: int, *, actor: str) -> list[GameStatus]:
        """The judge's list: the games he is the judge of (staff: every game); a
        judge's or staff's only (`PermissionDenied` for anyone else)."""
        with self.store.read() as s:
            t = tournament_row(s, tournament)
            staff = bool(require_role(s, t, actor, STAFF | {JUDGE}, "judge") & STAFF)
        return [g for g in self.overview(tournament) if staff or g.judge == actor]

    def status(self, tournament: int, game: str) -> GameStatus:
        for st in self.overview(tournament):
            if st.code == game:
                return st
        raise NotFound("no_game", game=game)

    def check(self, tournament: int, game: model.Game) -> list[Problem]:
        """Every rule problem of a protocol being typed (what submitting would refuse)."""
        t, players, stages = self.tournaments.context(tournament)
        profile, problems = profile_of(t)
        return problems + validate_game(game, profile, {p.id for p in players},
                                        {st.id for st in stages})


__all__ = ["Games"]
