"""The screens of the tournament day: the stream overlay and the hall's screen.

Use cases, each one transaction with its access check and audit entry:

* the overlay link: the head judge (or the organizer) makes a per-tournament key and can
  revoke it; only its sha256 is stored, like the judges' sign-in codes, so a leaked
  database gives no working link. A new key replaces the old one (one link is live).
* the roles delay: how long after the deal the stream may show the roles (None: only at
  the game's end). It is the streamer's: it applies only to a reader holding the live
  overlay key; a keyless reader (anyone, while the standings are public) sees the roles
  only at the game's end, as every other public path. It is applied here, on the server,
  when the overlay's state is built: before it has passed the state holds no role, nor
  anything that gives roles away (the don's and the sheriff's checks, each black player's
  aim in a shot), so no page, JSON or event stream can carry them, whatever the browser
  does.
* the hall screen's announcements, typed by the organizer.

`overlay_state` reads the game's newest revision (the live log, docs/gamelog.md) and
replays it once through the game-log engine, noting each event's night or day, so that
the overlay shows only what happened at the table: who speaks, the nominations, the
vote's count, who left and how, fouls, the best move and the result.

`ScreenService` is composed over the `Store` (and reads through `Access`, `Tournaments`,
`Games` and the standings); it keeps no state but a small cache of deal times.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
import json
import secrets
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final, Literal, NamedTuple

from sqlalchemy import select
from sqlalchemy.orm import Session

from mafiatab.domain.gamelog_engine import GameReplay
from mafiatab.domain.gamelog_events import parse_events
from mafiatab.domain.gamelog_state import Phase, Step
from mafiatab.domain.standings import Row
from mafiatab.services import live_log
from mafiatab.services.access import STAFF, Access
from mafiatab.services.games import Games
from mafiatab.services.photos import Photo, PhotoNotFound, Photos
from mafiatab.services.standings import StandingsBoard
from mafiatab.services.store import Store, game_row, record_audit, require_role, tournament_row
from mafiatab.services.tournaments import PermissionDenied, ServiceError, Tournaments
from mafiatab.services.web_support import GameStatus
from mafiatab.storage import models as db

#: the longest roles delay a head judge may set (a long final: four hours)
MAX_ROLES_DELAY: Final = 4 * 3600
#: the longest announcements text the hall screen takes
MAX_ANNOUNCEMENTS: Final = 2000
#: events whose content gives roles away until the roles are shown
SECRET_EVENTS: Final = frozenset({"don_check", "sheriff_check"})


def _utcnow() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


def _aware(value: dt.datetime) -> dt.datetime:
    return value if value.tzinfo is not None else value.replace(tzinfo=dt.UTC)


class ScreenRefused(ServiceError):
    """A screen setting out of its bounds (the value is refused, nothing is written)."""

    def __init__(self, what: str, limit: int) -> None:
        self.what = what
        self.limit = limit
        super().__init__(what, limit=limit)


def key_digest(key: str) -> str:
    return hashlib.sha256(key.strip().encode("utf-8")).hexdigest()


@dataclass(frozen=True, slots=True)
class Screens:
    """A tournament's screen settings as the pages read them."""

    roles_delay: int | None
    announcements: list[str]
    overlay_link: bool
    overlay_made_at: dt.datetime | None


@dataclass(frozen=True, slots=True)
class HallTable:
    table: int
    game: str
    #: (seat, nickname), seat 1 first
    seats: list[tuple[int, str]]


@dataclass(frozen=True, slots=True)
class Hall:
    """What the hall's screen shows: only what the public may see, whoever asks (the
    screen hangs in the hall, so a signed-in organizer's laptop shows no more)."""

    tournament: str
    #: the stage being played (its name), and its last round whose tables are all confirmed
    stage: str | None
    after_round: int
    #: None while the standings are hidden (closed standings)
    rows: list[Row] | None
    extras_hidden: bool
    #: the next round to be played: stage name, round number, its tables
    next_stage: str | None
    next_round: int | None
    tables: list[HallTable]
    announcements: list[str]


class OverlayVersion(NamedTuple):
    """The overlay's version (see `ScreenService.overlay_version`)."""

    head: int
    confirmed: int
    roles_delay: int | None
    digest: str | None
    hidden: bool
    revealed: bool

    @property
    def access(self) -> tuple[str | None, bool]:
        """The part that decides who may watch: a listener is checked again when it
        changes (a new or revoked link, the standings closed or opened)."""
        return self.digest, self.hidden


class ScreenService:
    """The overlay's and the hall screen's use cases (see the module's text), over the
    `Store` and the services whose public reads they combine."""

    def __init__(self, store: Store, access: Access, tournaments: Tournaments, games: Games,
                 standings: StandingsBoard, photos: Photos,
                 clock: Callable[[], dt.datetime] = _utcnow) -> None:
        self.store = store
        self.access = access
        self.tournaments = tournaments
        self.games = games
        self.standings = standings
        self.photos = photos
        #: the time the roles delay is measured by (tests move it)
        self.clock = clock
        #: (tournament, game) -> (the last revision read, the deal's time then)
        self._dealt: dict[tuple[int, str], tuple[int, dt.datetime | None]] = {}
        self._dealt_lock = threading.Lock()

    def now(self) -> dt.datetime:
        return self.clock()

    # --- settings ---
    def screens(self, tournament: int) -> Screens:
        with self.store.read() as s:
            t = tournament_row(s, tournament)
            row = s.get(db.ScreenSettings, t.id)
            if row is None:
                return Screens(None, [], False, None)
            lines = [x.strip() for x in (row.announcements or "").splitlines() if x.strip()]
            return Screens(row.roles_delay, lines, row.overlay_digest is not None,
                           row.overlay_made_at)

    def settings(self, tournament: int, *, actor: str) -> Screens:
        """The screen settings as the head judge's page shows them (staff only)."""
        with self.store.read() as s:
            require_role(s, tournament_row(s, tournament), actor, STAFF, "manage")
        return self.screens(tournament)

    @staticmethod
    def _settings_row(s: Session, tid: int) -> db.ScreenSettings:
        row = s.get(db.ScreenSettings, tid)
        if row is None:
            row = db.ScreenSettings(tournament_id=tid, announcements="")
            s.add(row)
        return row

    def make_overlay_key(self, tournament: int, *, actor: str) -> str:
        """A new overlay key (shown to the caller once); the old link stops working."""
        key = secrets.token_urlsafe(24)
        with self.store.write() as s:
            t = tournament_row(s, tournament)
            require_role(s, t, actor, STAFF, "manage")
            row = self._settings_row(s, t.id)
            row.overlay_digest = key_digest(key)
            row.overlay_made_at = self.now()
            record_audit(s, actor, t.id, "overlay_link", {"made": True})
        return key

    def revoke_overlay_key(self, tournament: int, *, actor: str) -> None:
        with self.store.write() as s:
            t = tournament_row(s, tournament)
            require_role(s, t, actor, STAFF, "manage")
            row = self._settings_row(s, t.id)
            row.overlay_digest = None
            row.overlay_made_at = None
            record_audit(s, actor, t.id, "overlay_link", {"made": False})

    def overlay_key_ok(self, tournament: int, key: str | None) -> bool:
        """Whether `key` is the tournament's live overlay key (compared in constant time)."""
        if not key or len(key) > 200:
            return False
        with self.store.read() as s:
            row = s.get(db.ScreenSettings, tournament)
            digest = row.overlay_digest if row is not None else None
        return digest is not None and hmac.compare_digest(digest, key_digest(key))

    def set_roles_delay(self, tournament: int, seconds: int | None, *, actor: str) -> None:
        """How long after the deal the stream sees the roles (None: at the game's end)."""
        if seconds is not None and not 0 <= seconds <= MAX_ROLES_DELAY:
            raise ScreenRefused("roles_delay", MAX_ROLES_DELAY)
        with self.store.write() as s:
            t = tournament_row(s, tournament)
            require_role(s, t, actor, STAFF, "manage")
            self._settings_row(s, t.id).roles_delay = seconds
            record_audit(s, actor, t.id, "roles_delay", {"seconds": seconds})

    def set_announcements(self, tournament: int, text: str, *, actor: str) -> None:
        """The hall screen's announcements (one a line); the organizer or the head judge."""
        text = text.replace("\r\n", "\n").strip()
        if len(text) > MAX_ANNOUNCEMENTS:
            raise ScreenRefused("announcements", MAX_ANNOUNCEMENTS)
        with self.store.write() as s:
            t = tournament_row(s, tournament)
            require_role(s, t, actor, STAFF, "manage")
            self._settings_row(s, t.id).announcements = text
            record_audit(s, actor, t.id, "announcements", {"lines": len(text.splitlines())})

    def hall_version(self, tournament: int) -> tuple[int, int]:
        """The public stamp: every confirmation, setting, announcement or seated table."""
        return self.standings.stamp(tournament)

    def hall(self, tournament: int) -> Hall:
        """The hall screen's content (public: see `Hall`)."""
        t, players, stages = self.tournaments.context(tournament)
        names = {p.id: p.nickname for p in players}
        stage_names = {st.id: st.name for st in stages}
        order = {st.id: i for i, st in enumerate(stages)}
        vis = self.access.visibility(tournament)
        games = self.games.overview(tournament)
        rounds: dict[tuple[int, str, int], list[GameStatus]] = {}
        for g in games:
            rounds.setdefault((order.get(g.stage, 99), g.stage, g.round), []).append(g)
        next_key = next((k for k in sorted(rounds)
                         if not all(g.confirmed_revision for g in rounds[k])), None)
        tables: list[HallTable] = []
        if next_key is not None:
            for g in sorted(rounds[next_key], key=lambda x: x.table):
                seats = sorted(self.games.head(tournament, g.code).game_struct().seats,
                               key=lambda x: x.seat)
                tables.append(HallTable(g.table, g.code,
                                        [(x.seat, names.get(x.player, x.player)) for x in seats]))
        current = next_key[1] if next_key else (max(rounds)[1] if rounds else None)
        after = 0
        for key in sorted(rounds):
            if key[1] == current and all(g.confirmed_revision for g in rounds[key]):
                after = key[2]
        rows = None if vis.standings_hidden else self.standings.cached(tournament).rows
        return Hall(t.name, stage_names.get(current or "", current), after, rows,
                    vis.extras_hidden, stage_names.get(next_key[1]) if next_key else None,
                    next_key[2] if next_key else None, tables,
                    self.screens(tournament).announcements)

    # --- who may see the overlay ---
    def require_watch(self, tournament: int, *, key: str | None,
                      user: str | None) -> Literal["key", "public", "staff"]:
        """The reader's grant to watch the overlay (see `watch_grant`); `PermissionDenied`
        when nothing lets him: what the overlay's stream asks before it opens."""
        grant = self.watch_grant(tournament, key=key, user=user)
        if grant is None:
            raise PermissionDenied("not_allowed", user=user or "-", action="overlay",
                                   tournament=str(tournament), roles=sorted(STAFF))
        return grant

    def photo(self, tournament: int, player: str, *, key: str | None,
              user: str | None) -> Photo:
        """A player's photo for whoever may watch the overlay (its key, the public
        standings, staff) or may change the photo (staff, the player himself); else
        `PermissionDenied`; `PhotoNotFound` when he has none."""
        if self.watch_grant(tournament, key=key, user=user) is None and not (
                user is not None and self.photos.may_change(tournament, player, actor=user)):
            raise PermissionDenied("not_allowed", user=user or "-", action="read",
                                   tournament=str(tournament), roles=sorted(STAFF | {"player"}))
        with self.store.read() as s:
            row = s.scalar(select(db.PlayerPhoto).where(
                db.PlayerPhoto.tournament_id == tournament, db.PlayerPhoto.player_code == player))
            if row is None:
                raise PhotoNotFound("no_photo", player=player)
            return Photo(row.player_code, row.image, row.digest)

    def watch_grant(self, tournament: int, *, key: str | None,
                    user: str | None) -> Literal["key", "public", "staff"] | None:
        """What lets a reader watch the overlay (None: nothing does): its live key, the
        public standings, or, only when neither, a staff role, which rests on the reader's
        signed-in session (a stream on that grant re-checks it before every event)."""
        if self.overlay_key_ok(tournament, key):
            return "key"
        if not self.access.visibility(tournament).standings_hidden:
            return "public"
        if user is not None and self.access.roles_of(tournament, user) & STAFF:
            return "staff"
        return None

    # --- the game's version and deal time ---
    def overlay_version(self, tournament: int, code: str) -> OverlayVersion:
        """What changes whenever the overlay may change: the game's newest and confirmed
        revisions, the roles delay, the link's key, the public switch, and whether the
        delay has passed (two cheap reads, for the push hub's probe)."""
        with self.store.read() as s:
            row = game_row(s, tournament, code)
            settings = s.get(db.ScreenSettings, tournament)
            web = s.get(db.WebSettings, tournament)
            delay = settings.roles_delay if settings is not None else None
            digest = settings.overlay_digest if settings is not None else None
            hidden = bool(web and web.standings_hidden and not web.finished)
            head, confirmed = row.head_revision, row.confirmed_revision
        reveal = self.reveal_at(tournament, code, delay)
        return OverlayVersion(head, confirmed, delay, digest, hidden,
                              reveal is not None and self.now() >= reveal)

    def dealt_at(self, tournament: int, code: str) -> dt.datetime | None:
        """When the game's roles were stored: the first revision of the newest unbroken
        run of revisions whose ten seats all have a role (the live screen's deal, or a
        protocol typed with the roles). A revision without roles ends a run, so a game
        replayed after an appeal (a new seating draft) is dealt anew.

        Revisions are only ever added, so each call reads only those added since the last
        one (the push hub asks every second)."""
        with self._dealt_lock:
            checked, found = self._dealt.get((tournament, code), (0, None))
        rev = db.ProtocolRevision
        with self.store.read() as s:
            row = game_row(s, tournament, code)
            for number, text, at in s.execute(
                    select(rev.number, rev.protocol, rev.created_at)
                    .where(rev.game_id == row.id, rev.number > checked).order_by(rev.number)):
                seats = json.loads(text).get("seats") or []
                dealt = len(seats) == 10 and all(x.get("role") for x in seats)
                found = (found or _aware(at)) if dealt else None
                checked = number
        with self._dealt_lock:
            self._dealt[(tournament, code)] = (checked, found)
        return found

    def reveal_at(self, tournament: int, code: str, delay: int | None) -> dt.datetime | None:
        """When the roles may be shown to the stream (None: only at the game's end)."""
        if delay is None:
            return None
        dealt = self.dealt_at(tournament, code)
        return None if dealt is None else dealt + dt.timedelta(seconds=delay)

    # --- the overlay's state ---
    def overlay_state(self, tournament: int, code: str, *, key: str | None = None,
                      user: str | None = None, verified: bool = False,
                      keyed: bool = False) -> dict[str, Any]:
        """What the stream may show of a game now (codes, no words; see the module).

        The roles delay is the streamer's: only a reader with the live key sees the roles
        once it has passed; any other reader (the public standings, staff by role) sees
        them, and the checks, only when the game is over.

        `verified`: the caller has just checked `watch_grant` for its reader, and `keyed`
        says whether that grant was the key (the push stream renders once for all its
        listeners of one grant and checks each of them itself)."""
        if not verified:
            keyed = self.require_watch(tournament, key=key, user=user) == "key"
        live = live_log.load(self.games, tournament, code)
        _t, players, stages = self.tournaments.context(tournament)
        names = {p.id: p.nickname for p in players}
        stage_names = {st.id: st.name for st in stages}
        game = live.game
        seats = sorted(game.seats, key=lambda x: x.seat)
        delay = self.screens(tournament).roles_delay if keyed else None
        reveal = self.reveal_at(tournament, code, delay)
        now = self.now()
        out: dict[str, Any] = {
            "game": code, "stage": stage_names.get(game.stage, game.stage),
            "round": game.round, "table": game.table, "revision": live.revision.number,
            "dealt": live.dealt, "ended": live.ended, "result": None, "end_clause": None,
            "phase": None, "speaker": None, "candidates": [], "nominations": [],
            "vote": None, "lift": None, "departures": [], "checks": [], "best_move": None,
            "time": None, "reveal_at": reveal.isoformat() if reveal else None,
        }
        # a game is over when the log ends it, or when its protocol has a result (the live
        # screen leaves the result empty while the game goes on)
        ended = live.ended or bool(game.result)
        out["ended"] = ended
        revealed = ended or (reveal is not None and now >= reveal)
        out["roles_shown"] = bool(revealed and live.dealt)
        seat_rows: list[dict[str, Any]] = [
            {"seat": st.seat, "player": st.player, "name": names.get(st.player, st.player),
             "role": st.role if out["roles_shown"] else None, "fouls": 0, "out": None,
             "out_phase": None, "nominated": False, "speaking": False}
            for st in seats]
        by_seat = {r["seat"]: r for r in seat_rows}
        out["seats"] = seat_rows
        roles = live_log.roles_of(game)
        if roles is None or not live.dealt:
            return out
        state, phases = _replay_with_phases(game.log or [], roles, live)
        if live.ended:
            # the log is over: settle its last day (the only nominee leaves, ...), as the
            # protocol's facts do
            state.finish(len(phases))
        step = state.next_step()
        daytime = state.phase.kind == "day" and not ended
        out["phase"] = {"kind": state.phase.kind, "number": state.phase.number}
        if step.step in (Step.SPEECHES, Step.DEFENCE, Step.LAST_WORDS) and step.seat is not None:
            out["speaker"] = step.seat
        elif step.step is Step.LAST_WORDS and step.last_words:
            out["speaker"] = step.last_words[0]
        if step.step in (Step.VOTE, Step.DEFENCE, Step.LIFT):
            out["candidates"] = list(step.candidates)
        # the day's nominations, while the day goes on
        out["nominations"] = list(state.nominations) if daytime else []
        for seat in out["nominations"]:
            if seat in by_seat:
                by_seat[seat]["nominated"] = True
        if out["speaker"] in by_seat:
            by_seat[out["speaker"]]["speaking"] = True
        for seat, n in state.fouls.items():
            if seat in by_seat:
                by_seat[seat]["fouls"] = n
        for d in state.departures:
            if d.seat in by_seat:
                by_seat[d.seat]["out"] = d.how
                by_seat[d.seat]["out_phase"] = {"kind": d.phase.kind, "number": d.phase.number}
            out["departures"].append({"seat": d.seat, "how": d.how,
                                      "phase": {"kind": d.phase.kind, "number": d.phase.number}})
        log = list(game.log or [])
        # the vote shown is today's, or at night the one of the day before (day n, night n)
        last_day = state.phase.number
        for i, ev in enumerate(log[:len(phases)]):
            kind = ev.get("type")
            ph = phases[i]
            if ev.get("time") is not None:
                out["time"] = str(ev["time"])
            if kind in ("vote", "lift") and ph.kind == "day" and ph.number == last_day:
                if kind == "vote":
                    out["vote"] = {"phase": ph.number, "counts": _counts(ev)}
                    out["lift"] = None
                else:
                    voters = ev.get("voters")
                    out["lift"] = len(voters) if isinstance(voters, list) else ev.get("count")
            if kind == "best_move":
                out["best_move"] = {"seat": ev.get("seat"), "seats": list(ev.get("seats") or [])}
            if kind in SECRET_EVENTS and out["roles_shown"]:
                answer = ev.get("sheriff") if kind == "don_check" else ev.get("black")
                if answer is None and isinstance(ev.get("target"), int):
                    role = roles.get(ev["target"], "")
                    answer = role == "sheriff" if kind == "don_check" else role in ("black", "don")
                out["checks"].append({"night": ph.number, "kind": kind,
                                      "target": ev.get("target"), "answer": answer})
        if ended:
            out["result"] = game.result or state.result
            out["end_clause"] = state.end_reason.clause if state.end_reason else None
        return out


def _counts(event: dict[str, Any]) -> dict[str, int]:
    votes = event.get("votes")
    if isinstance(votes, dict):
        return {str(c): len(v) if isinstance(v, list) else 0 for c, v in votes.items()}
    counts = event.get("counts")
    if isinstance(counts, dict):
        return {str(c): int(n) for c, n in counts.items() if isinstance(n, int)}
    return {}


def _replay_with_phases(log: list[Any], roles: dict[int, str],
                        live: live_log.LiveGame) -> tuple[GameReplay, list[Phase]]:
    """The game replayed once, with the night or day in which each event came (the
    events up to the first illegal one: the live screen stores no illegal event)."""
    events, _problems = parse_events(log, live.revision.game)
    state = GameReplay(roles, live.profile, live.revision.game)
    phases: list[Phase] = []
    for i, event in enumerate(events):
        before = state.phase
        if state.apply(event, i):
            break
        phases.append(before)
    return state, phases


__all__ = ["MAX_ANNOUNCEMENTS", "MAX_ROLES_DELAY", "Hall", "HallTable", "OverlayVersion",
           "ScreenRefused", "ScreenService", "Screens", "key_digest"]
