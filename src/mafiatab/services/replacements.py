"""A player put in another's seat after the seating, on record (who, when, why).

The protocol form shows each seat's seated player; it has no free choice of players. A
player who cannot play (he fell ill, he left) is replaced by this one call: the access
check (staff, or the table's judge while he may edit the protocol), the reason, the
tournament-wide invariants with the new player in the seat (`services.invariants`: not a
player of another table of the round, not removed from the tournament, not withdrawn),
a new draft revision of the protocol with the new player, and the audit entry that the
invariants read as the replacement on record — in one transaction. The check-in desk's
replacement of a no-show (`services.checkin.replace`) is the other way in, before the
game starts.
"""

from __future__ import annotations

from typing import Final

import msgspec
from sqlalchemy import select

from mafiatab.domain.problems import ProtocolRefused
from mafiatab.services.errors import ConflictError, NotFound, PermissionDenied, ServiceError
from mafiatab.services.invariants import game_problems
from mafiatab.services.protocols import CONFIRMERS, JUDGE_EDITABLE
from mafiatab.services.revision_log import split, whole
from mafiatab.services.store import (
    Store,
    advance_head,
    aware,
    game_row,
    record_audit,
    revision_row,
    roles_in,
    tournament_row,
    user_row,
)
from mafiatab.services.tournaments import (
    RevisionInfo,
    decode_game,
    diff_dicts,
    encode_game,
    protocol_dict,
    revision_info,
)
from mafiatab.storage import models as db
from mafiatab.storage.models import DRAFT, JUDGE

#: the reason of a replacement's revision (its own reason is in the audit entry)
REPLACEMENT_REASON: Final = "replacement"
#: the longest reason kept
MAX_REASON: Final = 500


class Replacements:
    """Recorded replacements of a seat's player (see the module)."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def replace(self, tournament: int, code: str, seat: int, player: str, *, reason: str,
                actor: str, base_revision: int | None = None) -> RevisionInfo:
        """Put `player` in `seat` of game `code`, for `reason`; a new draft revision based
        on `base_revision` (None: the newest). Refused when the actor may not edit the
        protocol, without a reason, for an unknown player or seat, and when the player
        may not play this game (the invariants' problem names the rule)."""
        why = " ".join(reason.split())[:MAX_REASON]
        with self.store.write() as s:
            t = tournament_row(s, tournament)
            row = game_row(s, t.id, code)
            head = revision_row(s, row.id, row.head_revision)
            roles = roles_in(s, t.id, actor)
            judge = s.scalar(select(db.Assignment.user_name).where(
                db.Assignment.tournament_id == t.id, db.Assignment.game_code == code))
            settings = s.get(db.WebSettings, t.id)
            finished = bool(settings and settings.finished)
            if not (roles & CONFIRMERS or (JUDGE in roles and judge == actor and not finished
                                           and head.state in JUDGE_EDITABLE)):
                raise PermissionDenied("not_allowed", user=actor, action="replace",
                                       tournament=t.name, roles=[JUDGE, *sorted(CONFIRMERS)])
            if base_revision is not None and base_revision != row.head_revision:
                author = s.get(db.User, head.author_id)
                entry = record_audit(s, actor, t.id, "conflict", {
                    "game": code, "action": "replace", "base": base_revision,
                    "head": row.head_revision, "protocol": None})
                s.flush()
                raise ConflictError(game=code, base=base_revision, head=row.head_revision,
                                    author=author.name if author else "?",
                                    at=aware(head.created_at), yours=None, audit_id=entry.id)
            if not 1 <= seat <= 10:
                raise ServiceError("replacement_seat", game=code, seat=seat)
            if not why:
                raise ServiceError("replacement_reason", game=code, seat=seat)
            if s.scalar(select(db.Participant.id).where(
                    db.Participant.tournament_id == t.id,
                    db.Participant.code == player)) is None:
                raise NotFound("replacement_player", game=code, player=player)
            text = whole(s, head)
            game = decode_game(text)
            seats = sorted(game.seats, key=lambda x: x.seat)
            before = next((x.player for x in seats if x.seat == seat), "")
            if before == player:
                raise ServiceError("replacement_same", game=code, seat=seat)
            new = msgspec.structs.replace(game, seats=[
                msgspec.structs.replace(x, player=player) if x.seat == seat else x
                for x in seats])
            record_audit(s, actor, t.id, "replace_player", {
                "game": code, "seat": seat, "before": before, "after": player,
                "reason": why})
            s.flush()
            problems = [p for p in game_problems(s, t, new) if p.seat == seat]
            if problems:
                raise ProtocolRefused(problems)  # the transaction, audit entry too, rolls back
            new_text = encode_game(new)
            number = advance_head(s, row, row.head_revision)
            author = user_row(s, actor)
            rev = db.ProtocolRevision(
                game_id=row.id, number=number, state=DRAFT, author_id=author.id,
                reason=REPLACEMENT_REASON,
                changes=diff_dicts(protocol_dict(text), protocol_dict(new_text)),
                **split(s, row.id, new_text, DRAFT, head))
            s.add(rev)
            s.flush()
            return revision_info(s, code, rev)


__all__ = ["MAX_REASON", "REPLACEMENT_REASON", "Replacements"]
