"""A stored tournament's standings: computed from the confirmed revisions by the core's one
standings function, kept (the process's one cache) until the tournament's public stamp
changes, each player's points explained clause by clause, and the recorded lots.

Hundreds of phones poll the standings. The stamp (`stamp`: the newest public audit entry
and the number of games) is read from the database at most once per `STAMP_MAX_AGE`
(`fresh_stamp`), and forgotten after every write through this process's `Store`, so a
confirmation shows on the next poll while writes by other processes (the CLI, a second
server) show within that second.
"""

from __future__ import annotations

import datetime as dt
import threading
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Final, Literal

from sqlalchemy import func, select

from mafiatab.domain import protocol as model
from mafiatab.domain.lots import draw_lots, record_draws, redraw_lots
from mafiatab.domain.problems import ProtocolRefused
from mafiatab.domain.standings import (
    GameExplanation,
    Row,
    Standings,
    compute_standings,
    explain_player,
)
from mafiatab.services.access import STAFF
from mafiatab.services.clock import utcnow
from mafiatab.services.errors import PermissionDenied, ServiceError
from mafiatab.services.gc_pause import gc_paused
from mafiatab.services.reads import require_published, staff_in
from mafiatab.services.store import Store, record_audit, require_role, tournament_row
from mafiatab.services.tournament_file import profile_for
from mafiatab.services.tournaments import Tournaments
from mafiatab.services.web_support import MAIN_PARTS, PRIVATE_ACTIONS, STAMP_MAX_AGE
from mafiatab.storage import models as db

#: a tournament's public stamp: (its newest public audit entry, its number of games)
Stamp = tuple[int, int]
#: the server's audit actions that change who a tournament's players are
IDENTITY_ACTIONS: Final = ("merge_players", "split_players")
#: the longest reason of a lot drawn again
LOT_REASON_MAX: Final = 500
#: the longest seed of a drawing of lots
LOT_SEED_MAX: Final = 200


@dataclass(frozen=True, slots=True)
class LotRecord:
    """One drawing of lots as recorded: its number, seed, the groups and the order each
    was drawn in, who drew it and when; a redraw names the drawing it replaces and why,
    and a replaced drawing the one that replaced it. `by` and `at` are None for a lot
    recorded before they were kept (an imported file's)."""

    number: int
    seed: str
    draws: tuple[model.LotDraw, ...]
    by: str | None
    at: dt.datetime | None
    reason: str | None = None
    replaces: int | None = None
    replaced_by: int | None = None


def lot_records(stored: Sequence[Any]) -> list[LotRecord]:
    """The tournament's stored draws (`tournaments.lot_draws`) as drawings, oldest first:
    the draws one drawing made share its number (an old draw without one is a drawing of
    its own)."""
    groups: dict[int, list[dict[str, Any]]] = {}
    for i, d in enumerate(stored):
        n = d.get("n") if isinstance(d.get("n"), int) else -(i + 1)
        groups.setdefault(n, []).append(d)
    records: list[LotRecord] = []
    for k, (n, items) in enumerate(sorted(groups.items(), key=lambda kv: abs(kv[0])), 1):
        first = items[0]
        at = first.get("at")
        records.append(LotRecord(
            number=n if n > 0 else k, seed=str(first["seed"]),
            draws=tuple(model.LotDraw(seed=d["seed"], group=list(d["group"]),
                                      order=list(d["order"])) for d in items),
            by=first.get("by"), at=dt.datetime.fromisoformat(at) if isinstance(at, str) else None,
            reason=first.get("reason"), replaces=first.get("replaces")))
    replaced = {r.replaces: r.number for r in records if r.replaces is not None}
    return [LotRecord(r.number, r.seed, r.draws, r.by, r.at, r.reason, r.replaces,
                      replaced.get(r.number)) for r in records]


class StandingsBoard:
    """Standings, their cache and stamps, explanations and lots (over the `Store`)."""

    def __init__(self, store: Store, tournaments: Tournaments) -> None:
        self.store = store
        self.tournaments = tournaments
        self._cache: dict[tuple[int, tuple[str, ...] | None], tuple[Stamp, Standings]] = {}
        self._lock = threading.Lock()
        self._stamps: dict[int, tuple[float, Stamp]] = {}
        store.on_write(self.forget_stamps)

    def compute(self, tournament: int, stages: Iterable[str] | None = None) -> Standings:
        """Standings from the confirmed revisions, by the core's one function."""
        t = self.tournaments.tournament(tournament)
        profile, problems = profile_for(t)
        if problems:
            raise ProtocolRefused(problems)
        with gc_paused():
            return compute_standings(t, profile, stages)

    def cached(self, tournament: int, stages: Iterable[str] | None = None) -> Standings:
        """`compute()`, kept until the tournament's `stamp` changes: every confirmation,
        lot or setting writes an audit entry, so a newer entry means recompute."""
        key = (tournament, tuple(stages) if stages is not None else None)
        stamp = self.stamp(tournament)
        with self._lock:
            hit = self._cache.get(key)
        if hit is not None and hit[0] == stamp:
            return hit[1]
        result = self.compute(tournament, key[1])
        with self._lock:
            self._cache[key] = (stamp, result)
        return result

    def explain(self, tournament: int, player: str,
                stages: Iterable[str] | None = None) -> list[GameExplanation]:
        """Every confirmed game of a player with each part of his points and its clause."""
        t = self.tournaments.tournament(tournament)
        profile, _ = profile_for(t)
        return explain_player(t, profile, player, stages)

    def view(self, tournament: int, stages: Iterable[str] | None = None, *,
             actor: str | None) -> tuple[list[Row] | None, bool]:
        """The standings' rows as this reader may see them (None: hidden from him, the
        standings closed), and whether the extras are hidden from him; staff see all."""
        with self.store.read() as s:
            t = tournament_row(s, tournament)
            staff = staff_in(s, t, actor)
            web = s.get(db.WebSettings, t.id)
            finished = bool(web and web.finished)
            hidden = bool(web and web.standings_hidden) and not finished and not staff
            extras_hidden = bool(t.hide_extras_until_end) and not finished and not staff
        rows = None if hidden else self.cached(tournament, stages).rows
        return rows, extras_hidden

    def stream_variant(self, tournament: int, *, actor: str | None) -> Literal["staff", "public"]:
        """Which standings stream the reader gets: the staff a bare "re-read" (their own
        table shows what the public's may not), anyone else the public table itself."""
        with self.store.read() as s:
            return "staff" if staff_in(s, tournament_row(s, tournament), actor) else "public"

    def player_games(self, tournament: int, player: str, stages: Iterable[str] | None = None,
                     *, actor: str | None) -> tuple[list[GameExplanation], bool]:
        """A player's confirmed games explained, as this reader may see them, and whether
        the extras are hidden from him: staff always; anyone else while the standings are
        published (else `PermissionDenied`), with only the main points while the extras
        are not."""
        with self.store.read() as s:
            t = tournament_row(s, tournament)
            staff = require_published(s, t, actor, extras=False, action="read_standings")
            web = s.get(db.WebSettings, t.id)
            extras_hidden = (bool(t.hide_extras_until_end) and not (web and web.finished)
                             and not staff)
        games = self.explain(tournament, player, stages)
        if extras_hidden:
            for g in games:
                g.parts = [x for x in g.parts if x.kind in MAIN_PARTS]
        return games, extras_hidden

    # --- stamps ---
    def forget_stamps(self) -> None:
        """After every write through this process the next read of the stamps goes to the
        database, so a confirmation shows on the next poll, not a second later."""
        with self._lock:
            self._stamps.clear()

    def stamp(self, tournament: int) -> Stamp:
        """Changes whenever what the public sees of the tournament may change: its newest
        audit entry other than private work (drafts, submissions, accounts), or the
        server's newest merge or split of identities (a player's name and club come from
        his identity), and its number of games (a seated table counts in "games
        confirmed: n of m")."""
        with self.store.read() as s:
            ours = (db.AuditEntry.tournament_id == tournament) & db.AuditEntry.action.not_in(
                PRIVATE_ACTIONS)
            identities = db.AuditEntry.tournament_id.is_(None) & db.AuditEntry.action.in_(
                IDENTITY_ACTIONS)
            last = s.scalar(select(func.max(db.AuditEntry.id)).where(ours | identities)) or 0
            games = s.scalar(select(func.count()).select_from(db.Game)
                             .where(db.Game.tournament_id == tournament)) or 0
            return last, games

    def recent_stamp(self, tournament: int) -> Stamp | None:
        """The stamp read from the database less than `STAMP_MAX_AGE` seconds ago, without
        touching the database (None: read it with `fresh_stamp`)."""
        with self._lock:
            hit = self._stamps.get(tournament)
        if hit is not None and time.monotonic() - hit[0] < STAMP_MAX_AGE:
            return hit[1]
        return None

    def last_stamp(self, tournament: int) -> Stamp | None:
        """The stamp last read from the database, however old (None: never read)."""
        with self._lock:
            hit = self._stamps.get(tournament)
        return None if hit is None else hit[1]

    def fresh_stamp(self, tournament: int) -> Stamp:
        """`recent_stamp`, or the database's stamp, remembered for `STAMP_MAX_AGE`."""
        stamp = self.recent_stamp(tournament)
        if stamp is None:
            stamp = self.stamp(tournament)
            with self._lock:
                self._stamps[tournament] = (time.monotonic(), stamp)
        return stamp

    # --- lots ---
    def lots(self, tournament: int, *, actor: str | None) -> list[LotRecord]:
        """Every drawing of lots, oldest first, with its seed, who and when: the
        tournament's staff's record (the head judge's overview, the API)."""
        with self.store.read() as s:
            t = tournament_row(s, tournament)
            require_role(s, t, actor or "", STAFF, "manage")
            return lot_records(list(t.lot_draws or []))

    def published_lots(self, tournament: int, *, actor: str | None) -> list[LotRecord]:
        """The drawings the standings page shows this reader: staff every one; anyone
        else only while the standings and their extras are published (a tie in the total
        would tell what is hidden), else none."""
        with self.store.read() as s:
            t = tournament_row(s, tournament)
            try:
                require_published(s, t, actor, extras=True, action="read_standings")
            except PermissionDenied:
                return []
            return lot_records(list(t.lot_draws or []))

    def record_lot(self, tournament: int, seed: str, *, actor: str) -> list[model.LotDraw]:
        """A recorded draw among the players who need one (FIIM 8.8.5, FSM 8.7.6), with
        who drew it and when; audited. A blank seed is refused after the role is checked."""
        with self.store.read() as s:
            t = tournament_row(s, tournament)
            require_role(s, t, actor, STAFF, "manage")
            known = len(lot_records(list(t.lot_draws or [])))
        seed = seed.strip()
        if not seed:
            raise ServiceError("bad_input", field="seed")
        draws = draw_lots(self.compute(tournament).rows, seed)
        if not draws:
            return []
        self._write_lot(tournament, draws, actor=actor, action="lots", detail={"seed": seed},
                        known=known)
        return draws

    def redraw_lot(self, tournament: int, seed: str, *, actor: str, reason: str,
                   number: int | None = None) -> LotRecord:
        """A drawing of lots corrected: its groups drawn again with a new seed, recorded
        with the reason, who and when, beside the drawing it replaces (`number`: which;
        default the newest one not yet replaced); audited as `lot_redraw`."""
        with self.store.read() as s:
            t = tournament_row(s, tournament)
            require_role(s, t, actor, STAFF, "manage")
            records = lot_records(list(t.lot_draws or []))
        reason, seed = reason.strip(), seed.strip()
        if not seed or len(seed) > LOT_SEED_MAX:
            raise ServiceError("bad_input", field="seed")
        if not reason:
            raise ServiceError("lot_reason_needed")
        if len(reason) > LOT_REASON_MAX:
            raise ServiceError("lot_reason_long", limit=LOT_REASON_MAX)
        open_ = [r for r in records if r.replaced_by is None]
        old = next((r for r in reversed(open_) if number is None or r.number == number), None)
        if old is None:
            raise ServiceError("no_such_lot", number=number or 0)
        draws = redraw_lots(self.compute(tournament).rows, old.draws, seed)
        n = self._write_lot(tournament, draws, actor=actor, action="lot_redraw",
                            detail={"seed": seed, "reason": reason, "replaces": old.number,
                                    "before": [list(d.order) for d in old.draws]},
                            known=len(records), extra={"reason": reason, "replaces": old.number})
        with self.store.read() as s:
            stored = lot_records(list(tournament_row(s, tournament).lot_draws or []))
        return next(r for r in stored if r.number == n)

    def _write_lot(self, tournament: int, draws: list[model.LotDraw], *, actor: str,
                   action: str, detail: dict[str, Any], known: int,
                   extra: dict[str, Any] | None = None) -> int:
        """Store a drawing (its draws replace what the old lots said of those players) and
        its audit entry, in one transaction that checks the asker again; its number.
        `known`: the drawings there were when this one was drawn; another drawing stored
        since (a second head judge at the same moment) refuses this one."""
        at = utcnow()
        with self.store.write() as s:
            row = tournament_row(s, tournament)
            require_role(s, row, actor, STAFF, "manage")
            stored = list(row.lot_draws or [])
            number = len(lot_records(stored)) + 1
            if number != known + 1:
                raise ServiceError("lot_changed")
            core = model.Tournament(
                format="mafiatab.tournament/1", name=row.name, rules=row.rules, players=[],
                stages=[], games=[], lots=list(row.lots or []),
                lot_draws=[model.LotDraw(seed=d["seed"], group=list(d["group"]),
                                         order=list(d["order"])) for d in stored])
            record_draws(core, draws)
            row.lots = list(core.lots)
            row.lot_draws = [*stored, *({"seed": d.seed, "group": list(d.group),
                                         "order": list(d.order), "n": number, "by": actor,
                                         "at": at.isoformat(), **(extra or {})}
                                        for d in draws)]
            record_audit(s, actor, row.id, action, {
                **detail, "number": number, "draws": [list(d.order) for d in draws]})
        return number


__all__ = ["LOT_REASON_MAX", "LotRecord", "Stamp", "StandingsBoard", "lot_records"]
