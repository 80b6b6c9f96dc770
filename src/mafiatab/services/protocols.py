"""A protocol's way from the judge's hands to the standings: each step one call.

    draft --submit--> submitted --confirm--> confirmed
      ^                   |
      +---- returned <----+  (the head judge sends it back, with a reason)

Each step here (`save_draft`, `submit`, `send_back`, `confirm`) is one write transaction
that checks who asks, keeps the stored game log and puts the protocol in step with it
(`domain.paper.reconcile`: a protocol never contradicts its log), validates once where the
step needs it, writes one revision (two for a submit that carries the form: the draft and
the submission) and its audit entries, and commits once. The page, the JSON API and the
live screen call these and nothing else, so they behave the same.

A head judge's correction (`correct`) is a step of its own: on a submitted protocol he
(or the organizer) changes it with a reason; it stays submitted, in the queue, and carries
a `Correction` mark (who, when, why, what changed) that the page, the printout and the
exports show beside what the table judge wrote. A save never sets or drops these marks:
they come from the stored protocol. Staff change a submitted protocol only this way (a
plain save would make it a draft of theirs, out of the queue, with nothing marked).

Four eyes (`confirmer_must_differ`, set by the organizer): nobody confirms a protocol
that he submitted or corrected since it was last a draft.

Who may do what:
* organizers and head judges edit any protocol, and alone confirm and return;
* a judge edits and submits only his own table's protocol, while it is a draft or was
  returned, and not after the tournament ended; his save keeps the approvals (FSM 8.4.3)
  of the revision it is based on, whatever he sent.

Two saves of one protocol at once: a save names the revision it was based on; when that
is no longer the newest it is refused with a `ConflictError` (who saved what, when), and
the refused protocol is kept in the audit log. One exception, for the form's autosave
crossing its own submit: when every revision after the base is the same user's own draft,
his newer typing goes on top. A revision of anybody else in between (a head judge's
correction) is never overwritten that way.

What the judge typed and the form could not read (`domain.typed`) is kept with the draft:
a save that says nothing of it keeps its base's, and a submit is refused while any is left.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import hashlib
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, Final

import msgspec
from sqlalchemy import select
from sqlalchemy.orm import Session
from sqlalchemy.orm.attributes import set_committed_value

from mafiatab.domain import protocol as model
from mafiatab.domain.paper import reconcile
from mafiatab.domain.problems import Problem, ProtocolRefused
from mafiatab.domain.typed import MAX_FIELDS, MAX_TEXT, RawField, bounded, problems_of
from mafiatab.domain.typed import from_json as typed_from_json
from mafiatab.domain.typed import to_json as typed_to_json
from mafiatab.domain.validation import validate_game
from mafiatab.rules.profile import RuleProfile
from mafiatab.services.errors import (
    ConflictError,
    PermissionDenied,
    ServiceError,
    StateError,
)
from mafiatab.services.invariants import game_problems
from mafiatab.services.revision_log import split, whole
from mafiatab.services.store import (
    StaleRevision,
    Store,
    advance_head,
    aware,
    game_row,
    profile_of,
    record_audit,
    require_role,
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
    revision_info,
)
from mafiatab.storage import models as db
from mafiatab.storage.models import (
    CONFIRMED,
    DRAFT,
    HEAD_JUDGE,
    JUDGE,
    ORGANIZER,
    RETURNED,
    SUBMITTED,
    Assignment,
    WebSettings,
)

#: who confirms and returns protocols, and edits any of them
CONFIRMERS: Final = frozenset({ORGANIZER, HEAD_JUDGE})
#: states in which the judge of a table may still change its protocol
JUDGE_EDITABLE: Final = (DRAFT, RETURNED)


@dataclass(slots=True)
class _Scene:
    """What one step reads before it decides, all in its own transaction."""

    t: db.Tournament
    roles: set[str]
    row: db.Game
    head: db.ProtocolRevision
    head_game: model.Game
    judge: str | None
    finished: bool

    @property
    def staff(self) -> bool:
        return bool(self.roles & CONFIRMERS)


class SubmitRefused(ProtocolRefused):
    """A submit refused with every problem; `saved`: the draft the form's protocol was
    kept as (None when the submit carried no protocol)."""

    def __init__(self, problems: list[Problem], saved: RevisionInfo | None) -> None:
        super().__init__(problems)
        self.saved = saved


@dataclass(frozen=True, slots=True)
class Checked:
    """A protocol as the step would store it (in step with its log), and its problems."""

    game: model.Game
    problems: list[Problem]

    @property
    def errors(self) -> list[Problem]:
        return [p for p in self.problems if not p.warning]


@dataclass(frozen=True, slots=True)
class Queued:
    """A save the protocol form queued on the phone: the phone's id of it (unique per game)
    and the phone's own id. Sent twice (an answer lost in a hall's Wi-Fi), it is applied
    once; it goes on top of the judge's newer drafts only when they came from this phone."""

    id: str
    device: str | None = None


class Protocols:
    """The protocol steps over a `Store` (composed, not inherited)."""

    def __init__(self, store: Store) -> None:
        self.store = store

    # --- reading --------------------------------------------------------------------
    def check(self, tournament: int, code: str, game: model.Game, *, actor: str) -> Checked:
        """What submitting this protocol would meet (one read transaction): the protocol
        kept in step with the stored log, and every problem."""
        with self.store.read() as s:
            scene = self._scene(s, tournament, code, actor)
            self._may_edit(scene, actor, "save")
            return self._checked(s, scene, self._placed(scene, game))

    def profile(self, tournament: int) -> RuleProfile:
        """The tournament's rules (with its switched readings): the clauses the form's
        typing problems cite. One read of the tournament's row."""
        with self.store.read() as s:
            return profile_of(tournament_row(s, tournament))[0]

    def may_edit(self, tournament: int, code: str, actor: str) -> bool:
        try:
            self.require_may(tournament, code, actor, "save")
        except PermissionDenied:
            return False
        return True

    def require_may(self, tournament: int, code: str, actor: str, action: str) -> None:
        """Refused (`PermissionDenied`) unless `actor` may `action` the game's protocol
        now: "save" (edit it: its judge while it is his, staff always), "replace" (a
        seated player, as "save"), or "correct" (staff). What a form asks when what was
        sent could not be read, so that a refusal for the role comes before one for the
        content; staff are asked before the game is looked up."""
        with self.store.read() as s:
            if action == "correct":
                require_role(s, tournament_row(s, tournament), actor, CONFIRMERS, action)
            scene = self._scene(s, tournament, code, actor)
            self._may_edit(scene, actor, action)

    def four_eyes_refusal(self, tournament: int, code: str, actor: str) -> ServiceError | None:
        """Why four eyes would refuse `actor` confirming the submitted protocol now (the
        page says so before he tries), or None."""
        with self.store.read() as s:
            scene = self._scene(s, tournament, code, actor)
            if not scene.t.confirmer_must_differ or scene.head.state != SUBMITTED:
                return None
            try:
                _four_eyes(s, scene, actor)
            except PermissionDenied as refused:
                return refused
            return None

    # --- the steps ------------------------------------------------------------------
    def save_draft(self, tournament: int, code: str, game: model.Game, *, actor: str,
                   base_revision: int, own_autosave: bool = False,
                   reason: str | None = None, drop_log: bool = False,
                   typed: Mapping[str, RawField] | None = None,
                   queued: Queued | None = None) -> RevisionInfo:
        """A new draft of the game's protocol based on `base_revision`.

        Refused (`ProtocolRefused`, nothing stored) when it contradicts its log; rule
        problems of a draft are the submit's to refuse. `own_autosave`: the form's
        autosave, which may go on top of the same user's own newer drafts. `drop_log`:
        remove the game's log instead of keeping it (a head judge's correction of the
        log; audited as `drop_log`). `typed`: the fields that could not be read, as typed,
        with their problems (None: the base revision's stay). `queued`: a save the
        phone queued; one already applied answers the revision it made.
        """
        conflict: ConflictError | None = None
        written: tuple[RevisionInfo, model.Game, db.Tournament] | None = None
        try:
            with self.store.write() as s:
                scene = self._scene(s, tournament, code, actor)
                done = _applied(s, scene, queued, actor)
                if done is not None:
                    return done
                self._may_edit(scene, actor, "save")
                if scene.head.state == SUBMITTED:  # staff: `correct`, marked and in the queue
                    raise StateError("correct_instead", game=code)
                if drop_log and not scene.staff:
                    raise PermissionDenied("not_allowed", user=actor, action="save",
                                           tournament=scene.t.name, roles=sorted(CONFIRMERS))
                base = self._base(s, scene, base_revision, actor, own_autosave, queued)
                placed = self._placed(scene, game)
                if base is None:
                    conflict = self._conflict(s, scene, base_revision, actor, placed, "save")
                else:
                    stored = scene.head_game
                    if drop_log:
                        placed = msgspec.structs.replace(placed, log=None, other={
                            k: v for k, v in placed.other.items() if k != "live"})
                        stored = msgspec.structs.replace(stored, log=None)
                        if scene.head_game.log is not None:
                            record_audit(s, actor, scene.t.id, "drop_log", {
                                "game": code, "log": scene.head_game.log})
                    kept, problems = reconcile(placed, stored, self._profile(scene))
                    if problems:
                        raise ProtocolRefused(problems)
                    info = self._write_draft(s, scene, kept, base, actor, reason, typed)
                    _remember(s, scene, queued, info.number, actor)
                    written = (info, kept, scene.t)
        except StaleRevision:  # lost a race in the very last instant: say who won
            raise self._lost_race(tournament, code, base_revision, actor, game, "save") from None
        if written is None:
            assert conflict is not None
            raise conflict
        # the record's problems beside the kept draft, as `check` finds them: read after
        # the commit, as the draft refuses nothing for them (its submit does), so that the
        # tournament-wide check (most of a save's work) never holds the write lock that
        # the other tables' saves wait for
        info, kept, t = written
        with self.store.read() as s:  # the tournament's row as the write read it
            problems = game_problems(s, t, kept)
        return dataclasses.replace(info, problems=[p for p in problems if not p.warning])

    def save_live(self, tournament: int, code: str,
                  build: Callable[[model.Game, RuleProfile], model.Game | None], *,
                  actor: str, base_revision: int) -> RevisionInfo:
        """A batch of the live screen's taps as one new draft, in one transaction with its
        access check: `build` makes the protocol to store from the head's (its log
        replayed and its facts filled by the caller, `services.live_log`), or returns None
        when there is nothing new (a batch sent twice), and then the head comes back.
        Its refusals (`ServiceError`, `Refused`) leave nothing stored. The revision comes
        with the record's problems, as `save_draft` gives them."""
        conflict: ConflictError | None = None
        try:
            with self.store.write() as s:
                scene = self._scene(s, tournament, code, actor)
                self._may_edit(scene, actor, "save")
                if scene.head.state == SUBMITTED:  # staff: `correct`, marked and in the queue
                    raise StateError("correct_instead", game=code)
                game = build(scene.head_game, self._profile(scene))
                if game is None:
                    info = revision_info(s, code, scene.head)
                    return dataclasses.replace(info, problems=[
                        p for p in game_problems(s, scene.t, scene.head_game) if not p.warning])
                placed = self._placed(scene, game)
                base = self._base(s, scene, base_revision, actor, False)
                if base is None:
                    conflict = self._conflict(s, scene, base_revision, actor, placed, "save")
                else:
                    info = self._write_draft(s, scene, placed, base, actor, None)
                    return dataclasses.replace(info, problems=[
                        p for p in game_problems(s, scene.t, placed) if not p.warning])
        except StaleRevision:  # lost a race in the very last instant: say who won
            raise self._lost_race(tournament, code, base_revision, actor, None, "save") from None
        assert conflict is not None
        raise conflict

    def submit(self, tournament: int, code: str, *, actor: str, base_revision: int | None,
               game: model.Game | None = None, own_autosave: bool = False,
               typed: Mapping[str, RawField] | None = None,
               queued: Queued | None = None) -> RevisionInfo:
        """Submit the protocol for confirmation: the newest draft, or `game` (the form's
        protocol, saved as a draft in the same step, with `typed` as `save_draft` keeps
        it). Refused with every problem, a value that could not be read among them; a
        refused form's protocol is still kept as a draft (`SubmitRefused.saved`).
        `queued`: a submit the phone queued; one already applied answers its revision."""
        conflict: ConflictError | None = None
        refused: SubmitRefused | None = None
        saved: RevisionInfo | None = None
        try:
            with self.store.write() as s:
                scene = self._scene(s, tournament, code, actor)
                done = _applied(s, scene, queued, actor)
                if done is not None:
                    return done
                self._may_edit(scene, actor, "submit")
                want = scene.row.head_revision if base_revision is None else base_revision
                base = self._base(s, scene, want, actor, own_autosave, queued)
                if base is None:
                    conflict = self._conflict(s, scene, want, actor,
                                              self._placed(scene, game) if game else None,
                                              "submit")
                else:
                    if scene.head.state not in (DRAFT, RETURNED) and game is None:
                        raise StateError("bad_state", game=code, action="submit",
                                         state=scene.head.state)
                    if scene.head.state == SUBMITTED:  # a changed one: `correct`, marked
                        raise StateError("correct_instead", game=code)
                    sent = self._placed(scene, game) if game is not None else scene.head_game
                    checked = self._checked(s, scene, sent)
                    contradictions = [p for p in checked.errors
                                      if p.code.startswith("log_")]
                    if contradictions:
                        raise ProtocolRefused(checked.problems)
                    unread = problems_of(_typed(scene, base, s) if typed is None or game is None
                                         else typed)
                    if game is not None:
                        saved = self._write_draft(s, scene, checked.game, base, actor, None,
                                                  typed)
                        base = saved.number
                        scene.head = revision_row(s, scene.row.id, base)
                    if checked.errors or unread:
                        refused = SubmitRefused(unread + checked.problems, saved)
                    else:
                        step = self._write_step(s, scene, base, actor, "submit", SUBMITTED,
                                                None, checked.game)
                        _remember(s, scene, queued, step.number, actor)
                        return step
        except StaleRevision:
            raise self._lost_race(tournament, code, base_revision or 0, actor, game,
                                  "submit") from None
        if refused is not None:
            raise refused
        assert conflict is not None
        raise conflict

    def correct(self, tournament: int, code: str, game: model.Game, *, actor: str,
                reason: str, base_revision: int, unread: Sequence[Problem] = ()
                ) -> RevisionInfo:
        """The head judge's (or organizer's) correction of a submitted protocol, with its
        reason: a new *submitted* revision (still waiting for confirmation) marked with
        who, when, why and what changed. Refused when the protocol is not submitted, the
        reason is blank, nothing changed, or the result breaks a rule (every problem).
        `unread`: what the form could not read; any refuses the correction (after the
        role is checked) with those problems."""
        conflict: ConflictError | None = None
        try:
            with self.store.write() as s:
                # the role first: an outsider learns nothing of the game
                require_role(s, tournament_row(s, tournament), actor, CONFIRMERS, "correct")
                scene = self._scene(s, tournament, code, actor)
                if unread:
                    raise ProtocolRefused(list(unread))
                if base_revision != scene.row.head_revision:
                    conflict = self._conflict(s, scene, base_revision, actor,
                                              self._placed(scene, game), "correct")
                else:
                    if scene.head.state != SUBMITTED:
                        raise StateError("bad_state", game=code, action="correct",
                                         state=scene.head.state)
                    why = " ".join(reason.split())
                    if not why:
                        raise ServiceError("correction_reason_needed", game=code)
                    if len(why) > MAX_REASON:
                        raise ServiceError("correction_reason_long", game=code, n=MAX_REASON)
                    checked = self._checked(s, scene, self._placed(scene, game))
                    if checked.errors:
                        raise ProtocolRefused(checked.problems)
                    changes = diff_dicts(_parse(encode_game(scene.head_game)),
                                         _parse(encode_game(checked.game)))
                    if not changes:
                        raise ServiceError("correction_no_change", game=code)
                    mark = model.Correction(
                        by=actor, at=dt.datetime.now(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
                        reason=why, changes=[model.Change(path=path, old=_json(old),
                                                          new=_json(new))
                                             for path, (old, new) in _flat(changes)])
                    marked = msgspec.structs.replace(
                        checked.game, corrections=[*scene.head_game.corrections, mark])
                    return self._write_step(s, scene, base_revision, actor, "correct",
                                            SUBMITTED, why, marked)
        except StaleRevision:
            raise self._lost_race(tournament, code, base_revision, actor, game,
                                  "correct") from None
        assert conflict is not None
        raise conflict

    def send_back(self, tournament: int, code: str, *, actor: str, reason: str,
                  base_revision: int | None = None) -> RevisionInfo:
        """Return a submitted protocol to its judge, with the reason (which the judge
        sees on his tables and in the form, and the audit log keeps)."""
        return self._decide(tournament, code, actor, base_revision, "return", RETURNED,
                            reason)

    def confirm(self, tournament: int, code: str, *, actor: str,
                base_revision: int | None = None, reason: str | None = None) -> RevisionInfo:
        """Confirm a submitted protocol: from now the standings count it. Refused when it
        breaks a rule or contradicts its log."""
        return self._decide(tournament, code, actor, base_revision, "confirm", CONFIRMED,
                            reason)

    # --- inside a transaction -------------------------------------------------------
    def _scene(self, s: Session, tournament: int, code: str, actor: str) -> _Scene:
        t = tournament_row(s, tournament)
        row = game_row(s, t.id, code)
        head = revision_row(s, row.id, row.head_revision)
        settings = s.get(WebSettings, t.id)
        judge = s.scalar(select(Assignment.user_name).where(
            Assignment.tournament_id == t.id, Assignment.game_code == code))
        return _Scene(t, roles_in(s, t.id, actor), row, head, decode_game(whole(s, head)),
                      judge, bool(settings and settings.finished))

    @staticmethod
    def _may_edit(scene: _Scene, actor: str, action: str) -> None:
        if scene.staff:
            return
        if (JUDGE in scene.roles and not scene.finished and scene.judge == actor
                and scene.head.state in JUDGE_EDITABLE):
            return
        raise PermissionDenied("not_allowed", user=actor, action=action,
                               tournament=scene.t.name, roles=[JUDGE, *sorted(CONFIRMERS)])

    @staticmethod
    def _profile(scene: _Scene) -> RuleProfile:
        return profile_of(scene.t)[0]

    @staticmethod
    def _placed(scene: _Scene, game: model.Game) -> model.Game:
        """The protocol where the stored game is: its id, stage, round and table come from
        the database, never from the sender, and so do the head judge's correction
        marks (`correct` adds them, nothing removes them); a judge's approvals and the game's video
        (staff set it, `services.video`) from the base."""
        h = scene.head_game
        placed = msgspec.structs.replace(game, id=h.id, stage=h.stage, round=h.round,
                                         table=h.table, corrections=h.corrections)
        if scene.staff:
            return placed
        scores = {seat: msgspec.structs.replace(
            sc, approved=bool(seat in h.scores and h.scores[seat].approved))
            for seat, sc in placed.scores.items()}
        return msgspec.structs.replace(placed, limits_approved=h.limits_approved,
                                       scores=scores, video=h.video)

    def _checked(self, s: Session, scene: _Scene, game: model.Game) -> Checked:
        """The protocol in step with the stored log, and its problems: the log's first
        (a contradiction stops there), then every rule's, checked once."""
        profile, problems = profile_of(scene.t)
        kept, log_problems = reconcile(game, scene.head_game, profile)
        if log_problems:
            return Checked(game, problems + log_problems)
        players = set(s.scalars(select(db.Participant.code)
                                .where(db.Participant.tournament_id == scene.t.id)))
        stages = set(s.scalars(select(db.Stage.code).where(db.Stage.tournament_id == scene.t.id)))
        return Checked(kept, problems + validate_game(kept, profile, players, stages)
                       + game_problems(s, scene.t, kept))

    @staticmethod
    def _base(s: Session, scene: _Scene, base: int, actor: str, own_autosave: bool,
              queued: Queued | None = None) -> int | None:
        """The revision to build on, or None: a conflict. A queued save from a phone goes
        on top of newer drafts only when the same phone made them all."""
        head = scene.row.head_revision
        if base == head:
            return base
        if not own_autosave or not 0 < base < head:
            return None
        later = s.execute(
            select(db.ProtocolRevision.number, db.ProtocolRevision.state, db.User.name)
            .join(db.User, db.User.id == db.ProtocolRevision.author_id)
            .where(db.ProtocolRevision.game_id == scene.row.id,
                   db.ProtocolRevision.number > base)).all()
        if not all(state == DRAFT and name == actor for _n, state, name in later):
            return None
        if queued is not None:
            mine = set(s.scalars(select(db.QueuedSave.revision).where(
                db.QueuedSave.game_id == scene.row.id, db.QueuedSave.revision > base,
                db.QueuedSave.device == queued.device)))
            if queued.device is None or any(n not in mine for n, _s, _a in later):
                return None
        return head

    def _write_draft(self, s: Session, scene: _Scene, game: model.Game, base: int, actor: str,
                     reason: str | None, typed: Mapping[str, RawField] | None = None
                     ) -> RevisionInfo:
        text = encode_game(game)
        if typed is not None and not bounded(typed):
            raise ServiceError("typed_too_long", fields=MAX_FIELDS, limit=MAX_TEXT)
        kept_typed = _typed(scene, base, s) if typed is None else typed
        author = user_row(s, actor)
        number = advance_head(s, scene.row, base)
        previous = scene.head if scene.head.number == base else revision_row(s, scene.row.id, base)
        changes = diff_dicts(_parse(whole(s, previous)), _parse(text))
        # the head moved first: a lost race stores no event row either
        rev = db.ProtocolRevision(game_id=scene.row.id, number=number, state=DRAFT,
                                  author_id=author.id, reason=reason, changes=changes,
                                  typed=typed_to_json(kept_typed) or None,
                                  **split(s, scene.row.id, text, DRAFT, previous))
        s.add(rev)
        s.flush()
        record_audit(s, actor, scene.t.id, "save", {"game": scene.row.code, "revision": number})
        set_committed_value(scene.row, "head_revision", number)
        return revision_info(s, scene.row.code, rev)

    @staticmethod
    def _write_step(s: Session, scene: _Scene, base: int, actor: str, action: str,
                    state: str, reason: str | None, game: model.Game) -> RevisionInfo:
        author = user_row(s, actor)
        number = advance_head(s, scene.row, base, confirmed=state == CONFIRMED)
        text = encode_game(game)
        changes = diff_dicts(_parse(whole(s, scene.head)), _parse(text))
        rev = db.ProtocolRevision(game_id=scene.row.id, number=number, state=state,
                                  protocol=text, author_id=author.id, reason=reason,
                                  changes=changes)
        s.add(rev)
        s.flush()
        detail: dict[str, Any] = {"game": scene.row.code, "revision": number}
        if reason:
            detail["reason"] = reason
        record_audit(s, actor, scene.t.id, action, detail)
        return revision_info(s, scene.row.code, rev)

    def _decide(self, tournament: int, code: str, actor: str, base_revision: int | None,
                action: str, state: str, reason: str | None) -> RevisionInfo:
        conflict: ConflictError | None = None
        try:
            with self.store.write() as s:
                # the role first: an outsider learns nothing of the game (not even that
                # there is none), and the route leaves the check to this one
                require_role(s, tournament_row(s, tournament), actor, CONFIRMERS, action)
                scene = self._scene(s, tournament, code, actor)
                base = scene.row.head_revision if base_revision is None else base_revision
                if base != scene.row.head_revision:
                    conflict = self._conflict(s, scene, base, actor, None, action)
                else:
                    if scene.head.state != SUBMITTED:
                        raise StateError("bad_state", game=code, action=action,
                                         state=scene.head.state)
                    game = scene.head_game
                    if state == RETURNED:
                        if not (reason and reason.strip()):
                            raise ServiceError("reason_needed", game=code)
                        reason = reason.strip()
                    else:
                        checked = self._checked(s, scene, game)
                        if checked.errors:
                            raise ProtocolRefused(checked.problems)
                        game = checked.game
                        if scene.t.confirmer_must_differ:
                            _four_eyes(s, scene, actor)
                    return self._write_step(s, scene, base, actor, action, state, reason, game)
        except StaleRevision:
            raise self._lost_race(tournament, code, base_revision or 0, actor, None,
                                  action) from None
        assert conflict is not None
        raise conflict

    @staticmethod
    def _conflict(s: Session, scene: _Scene, base: int, actor: str, yours: model.Game | None,
                  action: str) -> ConflictError:
        """Say who saved after `base`, keeping the refused protocol in the audit log (in
        this step's transaction, which then writes nothing else)."""
        head = scene.head
        author = s.get(db.User, head.author_id)
        sent = _parse(encode_game(yours)) if yours is not None else None
        entry = record_audit(s, actor, scene.t.id, "conflict", {
            "game": scene.row.code, "action": action, "base": base,
            "head": scene.row.head_revision, "protocol": sent})
        s.flush()
        return ConflictError(game=scene.row.code, base=base, head=scene.row.head_revision,
                             author=author.name if author else "?",
                             at=aware(head.created_at), yours=sent, audit_id=entry.id)

    def _lost_race(self, tournament: int, code: str, base: int, actor: str,
                   yours: model.Game | None, action: str) -> ConflictError:
        with self.store.write() as s:
            scene = self._scene(s, tournament, code, actor)
            return self._conflict(s, scene, base, actor, yours, action)


def _parse(text: str) -> Any:
    return json.loads(text, parse_float=Decimal)


def _key(queued: Queued, actor: str) -> str:
    """A queued save's stored id: the phone's id within its author's (another user's phone
    making the same id is another save, and never learns of this one)."""
    return hashlib.sha256(f"{actor}\n{queued.id}".encode()).hexdigest()


def _applied(s: Session, scene: _Scene, queued: Queued | None, actor: str
             ) -> RevisionInfo | None:
    """The revision a queued save of `actor` already made, or None: a new one."""
    if queued is None:
        return None
    number = s.scalar(select(db.QueuedSave.revision).where(
        db.QueuedSave.game_id == scene.row.id, db.QueuedSave.client_id == _key(queued, actor)))
    if number is None:
        return None
    return revision_info(s, scene.row.code, revision_row(s, scene.row.id, number))


def _remember(s: Session, scene: _Scene, queued: Queued | None, number: int,
              actor: str) -> None:
    """Keep a queued save's id with the revision it made, in the same transaction."""
    if queued is not None:
        s.add(db.QueuedSave(game_id=scene.row.id, client_id=_key(queued, actor),
                            device=queued.device[:100] if queued.device else None,
                            revision=number))


#: the longest reason of a correction (characters)
MAX_REASON: Final = 1000
_ENCODER: Final = msgspec.json.Encoder(decimal_format="number")


def _json(value: Any) -> str | None:
    """A changed value as its exact JSON text (a correction's `Change`)."""
    return None if value is None else _ENCODER.encode(value).decode("utf-8")


def _flat(changes: dict[str, list[Any]]) -> list[tuple[str, tuple[Any, Any]]]:
    """A revision's changes with an object that appeared or went (a seat's first extra:
    `scores.6` from nothing) spelt out field by field (`scores.6.extra`), so that each
    reads as one value in words."""
    out: list[tuple[str, tuple[Any, Any]]] = []

    def walk(path: str, old: Any, new: Any) -> None:
        if isinstance(old, dict) or isinstance(new, dict):
            a = old if isinstance(old, dict) else {}
            b = new if isinstance(new, dict) else {}
            for key in [*a, *(k for k in b if k not in a)]:
                if a.get(key) != b.get(key):
                    walk(f"{path}.{key}", a.get(key), b.get(key))
        else:
            out.append((path, (old, new)))

    for path, (old, new) in changes.items():
        walk(path, old, new)
    return out


def _four_eyes(s: Session, scene: _Scene, actor: str) -> None:
    """Refuse `actor` confirming a protocol he submitted or corrected: the author of the
    submission under the submitted revisions on top, and the correction marks added since
    (another submitted revision on top, a game's video, corrects nothing)."""
    rev = db.ProtocolRevision
    run = list(s.scalars(select(rev).where(rev.game_id == scene.row.id,
                                           rev.number <= scene.row.head_revision)
                         .order_by(rev.number.desc())))
    first = run[0]
    for row in run:
        if row.state != SUBMITTED:
            break
        first = row
    submitter = s.get(db.User, first.author_id)
    if submitter is not None and submitter.name == actor:
        raise PermissionDenied("same_confirmer", game=scene.row.code, author=actor)
    before = len(decode_game(whole(s, first)).corrections)
    if any(c.by == actor for c in scene.head_game.corrections[before:]):
        raise PermissionDenied("corrector_confirms", game=scene.row.code, author=actor)


def _typed(scene: _Scene, base: int, s: Session) -> dict[str, RawField]:
    """What the draft `base` keeps of the typing that could not be read (a submitted,
    returned or confirmed revision keeps none)."""
    rev = scene.head if scene.head.number == base else revision_row(s, scene.row.id, base)
    return typed_from_json(rev.typed) if rev.state == DRAFT else {}


def returned_reason(revisions: list[RevisionInfo]) -> tuple[str, str, dt.datetime] | None:
    """The reason, who and when of the newest return, while the protocol has not been
    submitted again since (what the judge needs to see)."""
    for info in reversed(revisions):
        if info.state == RETURNED:
            return info.reason or "", info.author, info.at
        if info.state in (SUBMITTED, CONFIRMED):
            return None
    return None


__all__ = ["CONFIRMERS", "Checked", "JUDGE_EDITABLE", "MAX_REASON", "Protocols", "SubmitRefused",
           "profile_of", "returned_reason"]
