"""Check-in and no-shows: who came, and the next round seated for them.

A player is present once the desk ticks him (staff) or he opens the desk's check-in QR on
his phone after signing in with his own code. The *next round* is the earliest round whose
every table is still its seating draft (no judge has started a protocol, as
`seating_web.SEATING_REASON` marks it): its seated players who are not present are its
*no-shows*, the present players not seated in it its *reserves*.

Two ways to fix a no-show, each one call, one transaction, with the access check and an
audit entry inside:

* `replace`: a reserve takes the no-show's seat, nothing else moves (one action per
  no-show; the page offers the reserve that costs the seating's metrics least);
* `reseat`: the round is seated again for those present: the no-shows leave, reserves come
  in (those with the fewest games first), and a local search moves players between tables
  and seats to keep seating.md's metrics as good as they can be over the whole stage — the
  pairs' meetings (Σ m², the largest m) and the seats (how often a player sat in a seat) —
  while every rule holds: players of one club never at one table (when the seating keeps
  them apart), pinned players at their table, nobody absent seated.

Both write each changed table as a new seating draft revision of its game, so the blank
protocols (`formats/pdf.py`, which print the games' newest revisions) follow the new
seating, and the round may still be re-published by the seating page.
"""

from __future__ import annotations

import datetime as dt
import random
import secrets
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Final

import msgspec
from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from mafiatab.domain.problems import Word, translate_clause
from mafiatab.services.errors import NotFound, PermissionDenied, StateError, Unreadable
from mafiatab.services.invariants import removed_players
from mafiatab.services.revision_log import whole
from mafiatab.services.store import (
    Store,
    account_players,
    advance_head,
    aware,
    record_audit,
    require_role,
    tournament_row,
    user_row,
)
from mafiatab.storage import models as db
from mafiatab.storage.models import DRAFT, HEAD_JUDGE, ORGANIZER, PLAYER
from mafiatab.texts.refusals import DAY

STAFF: Final = frozenset({ORGANIZER, HEAD_JUDGE})
#: the reason of a seating draft revision (the seating page's own, services/seating_web.py)
SEATING_REASON: Final = "seating"
DESK, QR = "desk", "qr"
TABLE_SIZE: Final = 10
#: local-search moves per re-seating (about a second on one core)
SEARCH_MOVES: Final = 30_000
#: the largest tournament the check-in page handles at once
MAX_PLAYERS: Final = 1000
#: how many times a search checks its best seating against the metrics at the start
CHECKS: Final = 40
#: a hard rule broken weighs more than any metric can
HARD: Final = 10**9


@dataclass(frozen=True, slots=True)
class Presence:
    player: str
    method: str
    by: str
    at: dt.datetime


@dataclass(frozen=True, slots=True)
class SeatingMetrics:
    """seating.md's metrics over a stage's games (each game's newest revision), plus the
    hard rules: clubs at one table, pinned players elsewhere, absent players seated."""

    max_meetings: int
    pairs_at_max: int
    sum_sq: int
    seat_cells_off: int
    seat_group_cells_off: int
    club_clashes: int
    pins_broken: int
    absent_seated: int

    @property
    def hard(self) -> int:
        return self.club_clashes + self.pins_broken + self.absent_seated

    def as_json(self) -> dict[str, int]:
        return {f: getattr(self, f) for f in self.__slots__}


@dataclass(slots=True)
class Table:
    number: int
    game: str
    revision: int
    seats: list[str]  # player ids by seat (seat 1 first)


@dataclass(slots=True)
class NoShow:
    player: str
    table: int
    seat: int
    #: the reserve who would take his seat at the least cost (None: nobody fits)
    suggested: str | None


@dataclass(slots=True)
class RoundPlan:
    """The next round as the check-in page shows it."""

    stage: str
    round: int
    tables: list[Table]
    no_shows: list[NoShow]
    reserves: list[str]
    metrics: SeatingMetrics
    separate_clubs: bool
    pins: dict[str, int] = field(default_factory=dict)
    #: the tables whose game has started (their seating stays; the others may change)
    started: list[int] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class Reseated:
    stage: str
    round: int
    before: SeatingMetrics
    after: SeatingMetrics
    changed_tables: list[int]
    dropped_tables: list[int]
    came_in: list[str]
    left: list[str]


# --- refusals (their words: the catalogue's `day` section) --------------------------------


class DayNotFound(NotFound):
    """A key, player or round that is not there (404)."""

    texts: ClassVar[Mapping[str, tuple[str, str]]] = DAY


class DayRefused(StateError):
    """A change the round's state or its rules refuse (409)."""

    texts: ClassVar[Mapping[str, tuple[str, str]]] = DAY


# --- the seating arithmetic (pure) -------------------------------------------------------


SEAT_GROUPS: Final = [(0, 1), (2, 3), (4, 5), (6, 7), (8, 9), (0, 1, 2, 3, 4), (5, 6, 7, 8, 9)]
#: seat (0-based) -> the seat groups it belongs to (its pair of seats and its half)
_GROUPS_OF: Final = [tuple(g for g, grp in enumerate(SEAT_GROUPS) if s in grp)
                     for s in range(TABLE_SIZE)]
#: the cost of a pair meeting more often than the stage's seating already has any pair
MAX_PENALTY: Final = 1000


def _off(count: int, total: int, parts: int) -> bool:
    return not total // parts <= count <= -(-total // parts)


def stage_metrics(rounds: Sequence[Sequence[Sequence[str]]], clubs: Mapping[str, str | None],
                  separate_clubs: bool, pins: Mapping[str, int],
                  absent: frozenset[str] = frozenset(), checked_round: int | None = None
                  ) -> SeatingMetrics:
    """The metrics of a stage's seating: `rounds[r][t]` = the players of table t + 1 by
    seat. S1/S2 are counted against each player's own number of games (a player with byes
    plays fewer). Pins and absences are checked in `checked_round` (an index) only."""
    meet: Counter[tuple[str, str]] = Counter()
    seat: Counter[tuple[str, int]] = Counter()
    games: Counter[str] = Counter()
    clashes = pins_broken = absent_seated = 0
    for r, tables in enumerate(rounds):
        for t, players in enumerate(tables):
            for s, p in enumerate(players):
                seat[p, s] += 1
                games[p] += 1
                if r == checked_round:
                    if p in pins and pins[p] != t + 1:
                        pins_broken += 1
                    if p in absent:
                        absent_seated += 1
            for i, a in enumerate(players):
                for b in players[i + 1:]:
                    meet[min(a, b), max(a, b)] += 1
                    if separate_clubs and clubs.get(a) and clubs.get(a) == clubs.get(b):
                        clashes += 1
    values = list(meet.values()) or [0]
    mx = max(values)
    seat_off = sum(1 for p, n in games.items() for s in range(TABLE_SIZE)
                   if _off(seat[p, s], n, TABLE_SIZE))
    group_off = sum(1 for p, n in games.items() for grp in SEAT_GROUPS
                    if _off(sum(seat[p, s] for s in grp), n * len(grp), TABLE_SIZE))
    return SeatingMetrics(mx, values.count(mx), sum(v * v for v in values), seat_off, group_off,
                          clashes, pins_broken, absent_seated)


def absent_of(tables: Sequence[Table], present: set[str]) -> frozenset[str]:
    return frozenset(p for tb in tables for p in tb.seats if p not in present)


class _Search:
    """The cost of one round's seating given the stage's other rounds: the meetings and
    seats it adds (Σ of what each pair and seat had before: minimizing it minimizes the
    stage's Σ m² and spreads the seats), and the hard rules at HARD each."""

    def __init__(self, others: Sequence[Sequence[Sequence[str]]], clubs: Mapping[str, str | None],
                 separate_clubs: bool, pins: Mapping[str, int], games: Mapping[str, int],
                 max_meetings: int = 0) -> None:
        self.meet: Counter[tuple[str, str]] = Counter()
        self.seat: Counter[tuple[str, int]] = Counter()
        self.group: Counter[tuple[str, int]] = Counter()
        for tables in others:
            for players in tables:
                for s, p in enumerate(players):
                    self.seat[p, s] += 1
                    for g in _GROUPS_OF[s]:
                        self.group[p, g] += 1
                for i, a in enumerate(players):
                    for b in players[i + 1:]:
                        self.meet[min(a, b), max(a, b)] += 1
        self.clubs = {p: c for p, c in clubs.items() if c} if separate_clubs else {}
        self.pins = pins
        self.games = games
        #: the largest meeting count the round may make without a penalty
        self.max_meetings = max_meetings
        self._pairs: dict[tuple[str, str], int] = {}

    def pair(self, a: str, b: str) -> int:
        hit = self._pairs.get((a, b))
        if hit is not None:
            return hit
        m = self.meet.get((min(a, b), max(a, b)), 0)
        cost = 2 * m + (MAX_PENALTY if m + 1 > self.max_meetings else 0)
        club = self.clubs.get(a)
        if club is not None and club == self.clubs.get(b):
            cost += HARD
        self._pairs[a, b] = self._pairs[b, a] = cost
        return cost

    def placed(self, p: str, table: int, s: int) -> int:
        cost = 4 * self.seat.get((p, s), 0) + self.games.get(p, 0)
        for g in _GROUPS_OF[s]:
            cost += 2 * self.group.get((p, g), 0)
        if p in self.pins and self.pins[p] != table + 1:
            cost += HARD
        return cost

    def table(self, players: Sequence[str], t: int) -> int:
        cost = sum(self.placed(p, t, s) for s, p in enumerate(players))
        for i, a in enumerate(players):
            for b in players[i + 1:]:
                cost += self.pair(a, b)
        return cost

    def total(self, tables: Sequence[Sequence[str]]) -> int:
        return sum(self.table(ps, t) for t, ps in enumerate(tables))


def optimise_round(start: list[list[str]], bench: list[str], search: _Search, *,
                   fixed: frozenset[str] = frozenset(), moves: int = SEARCH_MOVES,
                   seed: int = 0,
                   admissible: Callable[[list[list[str]]], bool] | None = None
                   ) -> list[list[str]]:
    """Local search (simulated annealing, the best seen kept) from `start`: swap two
    players of two tables, two seats of one table, or a seated player with one of `bench`
    (who then sits out). Players in `fixed` keep their seat. The search follows the
    weighted cost, each move priced by its change alone (nine pairs, not a table's 45); a
    seating becomes the answer only when `admissible` accepts it (the service asks that no
    metric be worse than at the start). Deterministic for a seed; never worse than `start`."""
    rng = random.Random(seed)
    cur = [list(t) for t in start]
    bench = list(bench)
    total = search.total(cur)
    best, best_total = [list(t) for t in cur], total
    movable = [(t, s) for t, ps in enumerate(cur) for s, p in enumerate(ps) if p not in fixed]
    if not movable:
        return best
    pair, placed = search.pair, search.placed

    def change(t: int, s: int, new: str) -> int:
        """The cost change of `new` taking seat s of table t (its neighbours stay)."""
        row = cur[t]
        old = row[s]
        d = placed(new, t, s) - placed(old, t, s)
        for i, q in enumerate(row):
            if i != s:
                d += pair(new, q) - pair(old, q)
        return d

    temp0 = 4.0
    # the lowest-cost seating seen, and the best one `admissible` accepted: the check (the
    # stage's metrics recomputed) runs a few dozen times per search, not on every step down
    low, low_total, checked = [list(t) for t in cur], total, True
    every = max(1, moves // CHECKS)

    def check() -> None:
        nonlocal best, best_total, checked
        if not checked and low_total < best_total and (admissible is None or admissible(low)):
            best, best_total = [list(t) for t in low], low_total
        checked = True

    for k in range(moves):
        if k % every == 0:
            check()
        temp = temp0 * (1 - k / moves) + 0.01
        t1, s1 = movable[rng.randrange(len(movable))]
        a = cur[t1][s1]
        if bench and rng.random() < 0.15:
            j = rng.randrange(len(bench))
            delta = change(t1, s1, bench[j])
            if not (delta <= 0 or rng.random() < _accept(delta, temp)):
                continue
            cur[t1][s1], bench[j] = bench[j], a
        else:
            t2, s2 = movable[rng.randrange(len(movable))]
            if (t1, s1) == (t2, s2):
                continue
            b = cur[t2][s2]
            if t1 == t2:
                delta = (placed(b, t1, s1) + placed(a, t1, s2)
                         - placed(a, t1, s1) - placed(b, t1, s2))
            else:
                delta = change(t1, s1, b) + change(t2, s2, a)
            if not (delta <= 0 or rng.random() < _accept(delta, temp)):
                continue
            cur[t1][s1], cur[t2][s2] = b, a
        total += delta
        if total < low_total:
            low, low_total, checked = [list(t) for t in cur], total, False
    check()
    return best


def _accept(delta: int, temp: float) -> float:
    import math

    return math.exp(-delta / temp) if delta < 50 * temp else 0.0


# --- the service -----------------------------------------------------------------------------


_GAME = msgspec.json.Decoder(dict[str, Any])


def _seats_of(protocol: str) -> list[str]:
    seats = _GAME.decode(protocol).get("seats", [])
    ordered = sorted((s for s in seats if isinstance(s, dict)), key=lambda s: s.get("seat", 0))
    return [str(s.get("player", "")) for s in ordered]


@dataclass(slots=True)
class _StageGames:
    """A stage's games by round, as their newest revisions seat them."""

    rounds: dict[int, dict[int, Table]]
    states: dict[int, bool]  # round -> every table is still its seating draft
    #: round -> the tables whose game has started (a revision other than its seating)
    started: dict[int, set[int]] = field(default_factory=dict)

    def some_open(self, rnd: int) -> bool:
        """Whether a table of the round is still at its seating."""
        return len(self.started.get(rnd, ())) < len(self.rounds.get(rnd, {}))


class CheckinService:
    """Check-in, the desk's QR key and the next round's no-shows (see the module)."""

    def __init__(self, store: Store) -> None:
        self.store = store

    # --- presence ---
    def presence(self, tournament: int) -> dict[str, Presence]:
        """Who is present, by player id (anyone may ask: the page shows it to staff)."""
        with self.store.read() as s:
            tournament_row(s, tournament)
            return self._presence(s, tournament)

    @staticmethod
    def _presence(s: Session, tid: int) -> dict[str, Presence]:
        return {r.player_code: Presence(r.player_code, r.method, r.by_user, aware(r.at))
                for r in s.scalars(select(db.CheckIn).where(db.CheckIn.tournament_id == tid))}

    def set_present(self, tournament: int, player: str, present: bool | None, *,
                    actor: str) -> bool:
        """The desk ticks (or unticks) a player. Staff only; audited. Returns the new state.
        `present` None: the request said neither (refused after the asker is checked)."""
        with self.store.write() as s:
            t = tournament_row(s, tournament)
            require_role(s, t, actor, STAFF, "check_in")
            if present is None:
                raise Unreadable("bad_input", field="present")
            self._participant(s, t.id, player)
            self._mark(s, t.id, player, present, DESK, actor)
        return present

    def check_in_by_qr(self, tournament: int, key: str, *, actor: str) -> str:
        """The player signed in on his phone opened the desk's QR link: he is present.
        Returns his player id. Refused for a wrong or old key and for an account that is
        not a player of the tournament."""
        with self.store.write() as s:
            t = tournament_row(s, tournament)
            row = s.get(db.CheckInKey, t.id)
            if row is None or not secrets.compare_digest(row.key.encode(), key.encode()[:64]):
                raise DayNotFound("no_checkin_key", tournament=t.name)
            players = sorted(account_players(s, t.id, actor))
            if not players:
                raise PermissionDenied("not_allowed", user=actor, action="check_in",
                                       tournament=t.name, roles=[PLAYER])
            player = players[0]
            self._mark(s, t.id, player, True, QR, actor)
        return player

    def _mark(self, s: Session, tid: int, player: str, present: bool, method: str,
              actor: str) -> None:
        row = s.scalar(select(db.CheckIn).where(db.CheckIn.tournament_id == tid,
                                                db.CheckIn.player_code == player))
        if present and row is None:
            s.add(db.CheckIn(tournament_id=tid, player_code=player, method=method,
                             by_user=actor))
            record_audit(s, actor, tid, "check_in", {"player": player, "method": method})
        elif not present and row is not None:
            s.delete(row)
            record_audit(s, actor, tid, "check_out", {"player": player})

    def _may_play(self, s: Session, tid: int) -> set[str]:
        """The players present who may be seated: a player removed from the tournament
        (FIIM 7.3, FSM 8.1.1) counts as a no-show, ticked at the desk or not."""
        t = tournament_row(s, tid)
        return set(self._presence(s, tid)) - set(removed_players(s, t))

    @staticmethod
    def _participant(s: Session, tid: int, player: str) -> None:
        if s.scalar(select(db.Participant.id).where(db.Participant.tournament_id == tid,
                                                    db.Participant.code == player)) is None:
            raise DayNotFound("no_player", player=player)

    def desk_key(self, tournament: int, *, actor: str, new: bool = False) -> str:
        """The tournament's check-in key (made on first use, or anew: the old QR then
        stops working). Staff only."""
        with self.store.write() as s:
            t = tournament_row(s, tournament)
            require_role(s, t, actor, STAFF, "check_in")
            row = s.get(db.CheckInKey, t.id)
            if row is None or new:
                key = secrets.token_urlsafe(16)
                if row is None:
                    s.add(db.CheckInKey(tournament_id=t.id, key=key))
                else:
                    row.key, row.made_at = key, dt.datetime.now(dt.UTC)
                record_audit(s, actor, t.id, "checkin_key", {"new": row is not None})
                return key
            return row.key

    # --- the next round ---
    def next_round(self, tournament: int, *, actor: str,
                   pins: Mapping[str, int] | None = None) -> RoundPlan | None:
        """The earliest round still wholly at its seating, with its no-shows (and the
        reserve suggested for each) and reserves; None when no round waits. Staff only."""
        with self.store.read() as s:
            t = tournament_row(s, tournament)
            require_role(s, t, actor, STAFF, "check_in")
            return self._plan(s, t.id, dict(pins or {}))

    def _plan(self, s: Session, tid: int, pins: dict[str, int]) -> RoundPlan | None:
        found = self._next(s, tid)
        if found is None:
            return None
        stage, number, games = found
        clubs = self._clubs(s, tid)
        present = self._may_play(s, tid)
        players = self._players(s, tid)
        tables = [games.rounds[number][k] for k in sorted(games.rounds[number])]
        started = games.started.get(number, set())
        waiting = [tb for tb in tables if tb.number not in started]
        seated = {p for tb in tables for p in tb.seats}
        others = [self._grid(games.rounds[r]) for r in sorted(games.rounds) if r != number]
        separate = self._separated(games, clubs)
        played = self._played(games, number)
        rounds = [self._grid(games.rounds[r]) for r in sorted(games.rounds)]
        index = sorted(games.rounds).index(number)
        metrics = stage_metrics(rounds, clubs, separate, pins, absent_of(waiting, present), index)
        search = _Search(others, clubs, separate, pins, played, metrics.max_meetings)
        # reserves with the fewest games of the stage first (as `reseat` brings them in)
        reserves = sorted((p for p in players if p in present and p not in seated),
                          key=lambda p: (played.get(p, 0), players.index(p)))
        # a player at a started table plays (ticked or not): no-shows are at the others
        absent = absent_of(waiting, present)
        no_shows: list[NoShow] = []
        taken: set[str] = set()
        for tb in waiting:
            row = list(tb.seats)
            for i, p in enumerate(tb.seats):
                if p in absent:
                    probe = Table(tb.number, tb.game, tb.revision, row)
                    best = self._best_reserve(probe, i, [r for r in reserves if r not in taken],
                                              search)
                    if best is not None:
                        taken.add(best)
                        row[i] = best
                    no_shows.append(NoShow(p, tb.number, i + 1, best))
        return RoundPlan(stage, number, tables, no_shows, reserves, metrics, separate, pins,
                         sorted(started))

    @staticmethod
    def _best_reserve(tb: Table, seat: int, reserves: Sequence[str], search: _Search
                      ) -> str | None:
        best: tuple[int, str] | None = None
        for r in reserves:
            trial = list(tb.seats)
            trial[seat] = r
            cost = search.table(trial, tb.number - 1)
            if cost < HARD and (best is None or cost < best[0]):
                best = (cost, r)
        return best[1] if best else None

    def replace(self, tournament: int, stage: str, rnd: int, absent: str, reserve: str, *,
                actor: str, pins: Mapping[str, int] | None = None) -> Table:
        """The reserve takes the no-show's seat in the round (nothing else moves). Refused
        when the round has started, the absent player is present or not seated in it, the
        reserve is absent or seated already, or the swap breaks a rule (a club at one
        table, a pin). Staff only; audited."""
        pins = dict(pins or {})
        with self.store.write() as s:
            t = tournament_row(s, tournament)
            require_role(s, t, actor, STAFF, "check_in")
            games = self._round_open(s, t.id, stage, rnd)
            removed = removed_players(s, t)
            if reserve in removed:
                # his nickname and the clause in the reader's words (the API keeps codes)
                nick = s.scalar(select(db.Player.nickname).join(
                    db.Participant, db.Participant.player_id == db.Player.id).where(
                    db.Participant.tournament_id == t.id, db.Participant.code == reserve))
                clause = removed[reserve]
                raise DayRefused("removed", player=Word(reserve, nick or reserve, nick or reserve),
                                 clause=Word(clause, translate_clause(clause, "ru"),
                                             translate_clause(clause, "en")))
            present = set(self._presence(s, t.id)) - set(removed)
            if absent in present:
                raise DayRefused("present", player=absent)
            if reserve not in present:
                raise DayRefused("not_present", player=reserve)
            tables = games.rounds[rnd]
            where = [(tb, i) for tb in tables.values() for i, p in enumerate(tb.seats) if p == absent]
            if not where:
                raise DayNotFound("not_seated", player=absent, round=rnd)
            if any(reserve in tb.seats for tb in tables.values()):
                raise DayRefused("seated", player=reserve, round=rnd)
            tb, i = where[0]
            if tb.number in games.started.get(rnd, set()):
                raise DayRefused("table_started", table=tb.number)
            clubs = self._clubs(s, t.id)
            separate = self._separated(games, clubs)
            trial = list(tb.seats)
            trial[i] = reserve
            search = _Search([], clubs, separate, pins, {})
            if search.table(trial, tb.number - 1) >= HARD:
                raise DayRefused("breaks_rule", player=reserve, table=tb.number)
            self._write_table(s, t.id, tb, trial, actor)
            record_audit(s, actor, t.id, "replace_no_show", {
                "stage": stage, "round": rnd, "table": tb.number, "seat": i + 1,
                "absent": absent, "reserve": reserve, "game": tb.game})
            tb.seats = trial
            return tb

    def reseat(self, tournament: int, stage: str, rnd: int, *, actor: str,
               pins: Mapping[str, int] | None = None, seed: int = 0,
               moves: int = SEARCH_MOVES) -> Reseated:
        """Seat the round again for those present (see the module). Tables that cannot be
        filled any more (fewer than ten present per table) are dropped from the end.
        Staff only; one transaction; audited with the metrics before and after."""
        pins = dict(pins or {})
        with self.store.write() as s:
            t = tournament_row(s, tournament)
            require_role(s, t, actor, STAFF, "check_in")
            games = self._round_open(s, t.id, stage, rnd)
            present = self._may_play(s, t.id)
            players = self._players(s, t.id)
            clubs = self._clubs(s, t.id)
            separate = self._separated(games, clubs)
            tables = [games.rounds[rnd][k] for k in sorted(games.rounds[rnd])]
            # started tables keep their seating and players; the others are re-seated
            # among themselves (and the reserves), the stage's metrics counted whole
            started = games.started.get(rnd, set())
            waiting = [tb for tb in tables if tb.number not in started]
            order = sorted(games.rounds)
            index = order.index(rnd)
            others = [self._grid(games.rounds[r]) for r in order if r != rnd]
            played = self._played(games, rnd)
            seated = [p for tb in tables for p in tb.seats]
            movable_seated = [p for tb in waiting for p in tb.seats]
            absent = absent_of(waiting, present)
            before_rounds = [self._grid(games.rounds[r]) for r in order]
            before = stage_metrics(before_rounds, clubs, separate, pins, absent, index)
            reserves = sorted((p for p in players if p in present and p not in set(seated)),
                              key=lambda p: (played.get(p, 0), players.index(p)))
            keep = len(waiting)
            while keep and (sum(1 for p in movable_seated if p not in absent) + len(reserves)
                            < keep * TABLE_SIZE):
                keep -= 1
            if keep == 0:
                raise DayRefused("too_few_present", round=rnd, present=len(present))
            kept, gone = waiting[:keep], waiting[keep:]
            search = _Search(others, clubs, separate, pins, played, before.max_meetings)
            # start: every table of the round by number (a started one as it is, a dropped
            # one empty), each no-show's seat given to the next reserve
            bench = list(reserves)
            start: list[list[str]] = []
            overflow: list[str] = [p for tb in gone for p in tb.seats if p not in absent]
            for tb in tables:
                if tb.number in started:
                    start.append(list(tb.seats))
                    continue
                if tb in gone:
                    start.append([])
                    continue
                row = list(tb.seats)
                for i, p in enumerate(tb.seats):
                    if p not in absent:
                        continue
                    pool = overflow or bench
                    # the reserve the page would suggest for this seat, else the first
                    probe = Table(tb.number, tb.game, tb.revision, row)
                    pick = self._best_reserve(probe, i, pool, search) or pool[0]
                    pool.remove(pick)
                    row[i] = pick
                start.append(row)
            bench = overflow + bench
            fixed = frozenset(p for p in pins if p in {q for r in start for q in r}) | {
                p for tb in tables if tb.number in started for p in tb.seats}

            def metrics_of(seating: list[list[str]]) -> SeatingMetrics:
                grid = [seating if r == rnd else self._grid(games.rounds[r]) for r in order]
                return stage_metrics(grid, clubs, separate, pins, absent, index)

            first = metrics_of(start)

            def admissible(seating: list[list[str]]) -> bool:
                m = metrics_of(seating)
                if first.hard:  # the start breaks a rule: anything that keeps them all
                    return m.hard == 0
                return (m.hard == 0 and m.sum_sq <= first.sum_sq
                        and m.max_meetings <= max(first.max_meetings, before.max_meetings)
                        and m.seat_cells_off <= first.seat_cells_off
                        and m.seat_group_cells_off <= first.seat_group_cells_off)

            best = optimise_round(start, bench, search, fixed=fixed, moves=moves, seed=seed,
                                  admissible=admissible)
            if metrics_of(best).hard:
                raise DayRefused("breaks_rule", player="", table=0)
            changed: list[int] = []
            for tb, new in zip(tables, best, strict=True):
                if tb in kept and new != tb.seats:
                    self._write_table(s, t.id, tb, new, actor)
                    changed.append(tb.number)
                elif tb.number in started:
                    assert new == tb.seats  # fixed: the search never moves them
            dropped = [tb.number for tb in gone]
            for tb in gone:
                s.execute(delete(db.Game).where(db.Game.tournament_id == t.id,
                                                db.Game.code == tb.game))
            after_rounds = [self._grid(games.rounds[r]) if r != rnd else best for r in order]
            after = stage_metrics(after_rounds, clubs, separate, pins, absent, index)
            best = [r for r in best if r]  # the dropped tables' empty rows
            now = {p for r in best for p in r}
            result = Reseated(stage, rnd, before, after, changed, dropped,
                              sorted(now - set(seated)), sorted(set(seated) - now))
            record_audit(s, actor, t.id, "reseat_round", {
                "stage": stage, "round": rnd, "absent": sorted(absent),
                "came_in": result.came_in, "left": result.left, "changed_tables": changed,
                "dropped_tables": dropped, "before": before.as_json(),
                "after": after.as_json()})
            return result

    # --- reading the stage ---
    def _next(self, s: Session, tid: int) -> tuple[str, int, _StageGames] | None:
        for stage in s.scalars(select(db.Stage.code).where(db.Stage.tournament_id == tid)
                               .order_by(db.Stage.position)):
            games = self._stage_games(s, tid, stage)
            for number in sorted(games.rounds):
                if games.some_open(number):
                    return stage, number, games
        return None

    def _round_open(self, s: Session, tid: int, stage: str, rnd: int) -> _StageGames:
        games = self._stage_games(s, tid, stage)
        if rnd not in games.rounds:
            raise DayNotFound("no_round", stage=stage, round=rnd)
        if not games.some_open(rnd):
            raise DayRefused("round_started", stage=stage, round=rnd)
        return games

    @staticmethod
    def _stage_games(s: Session, tid: int, stage: str) -> _StageGames:
        rev = db.ProtocolRevision
        rows = s.execute(
            select(db.Game.code, db.Round.number, db.GameTable.number, db.Game.head_revision,
                   rev.state, rev.reason, rev.protocol)
            .join(db.GameTable, db.GameTable.id == db.Game.table_id)
            .join(db.Round, db.Round.id == db.GameTable.round_id)
            .join(db.Stage, db.Stage.id == db.Round.stage_id)
            .join(rev, (rev.game_id == db.Game.id) & (rev.number == db.Game.head_revision))
            .where(db.Game.tournament_id == tid, db.Stage.code == stage))
        out = _StageGames({}, {})
        for code, rnd, table, head, state, reason, protocol in rows:
            out.rounds.setdefault(rnd, {})[table] = Table(table, code, head, _seats_of(protocol))
            waiting = state == DRAFT and reason == SEATING_REASON
            out.states[rnd] = out.states.get(rnd, True) and waiting
            if not waiting:
                out.started.setdefault(rnd, set()).add(table)
        return out

    @staticmethod
    def _grid(tables: Mapping[int, Table]) -> list[list[str]]:
        return [list(tables[k].seats) for k in sorted(tables)]

    @staticmethod
    def _played(games: _StageGames, skip: int) -> dict[str, int]:
        out: Counter[str] = Counter()
        for r, tables in games.rounds.items():
            if r != skip:
                for tb in tables.values():
                    out.update(tb.seats)
        return dict(out)

    @staticmethod
    def _separated(games: _StageGames, clubs: Mapping[str, str | None]) -> bool:
        """Whether the stage's seating keeps clubs apart: no table of it seats two
        players of one club (then a change must not either)."""
        for tables in games.rounds.values():
            for tb in tables.values():
                named = [clubs.get(p) for p in tb.seats if clubs.get(p)]
                if len(named) != len(set(named)):
                    return False
        return True

    @staticmethod
    def _players(s: Session, tid: int) -> list[str]:
        return list(s.scalars(select(db.Participant.code)
                              .where(db.Participant.tournament_id == tid)
                              .order_by(db.Participant.position)))

    @staticmethod
    def _clubs(s: Session, tid: int) -> dict[str, str | None]:
        return {code: club for code, club in s.execute(
            select(db.Participant.code, db.Player.club)
            .join(db.Player, db.Player.id == db.Participant.player_id)
            .where(db.Participant.tournament_id == tid))}

    @staticmethod
    def _write_table(s: Session, tid: int, tb: Table, seats: Sequence[str], actor: str) -> None:
        """The table's new seating as a new seating draft revision of its game."""
        row = s.scalar(select(db.Game).where(db.Game.tournament_id == tid,
                                             db.Game.code == tb.game))
        if row is None:
            raise NotFound("no_game", game=tb.game)
        head = s.scalar(select(db.ProtocolRevision).where(
            db.ProtocolRevision.game_id == row.id,
            db.ProtocolRevision.number == row.head_revision))
        assert head is not None
        data = _GAME.decode(whole(s, head))
        old = {int(x.get("seat", 0)): x for x in data.get("seats", []) if isinstance(x, dict)}
        data["seats"] = [{**old.get(i + 1, {}), "seat": i + 1, "player": p}
                         for i, p in enumerate(seats)]
        number = advance_head(s, row, row.head_revision)
        author = user_row(s, actor)
        s.add(db.ProtocolRevision(game_id=row.id, number=number, state=DRAFT,
                                  protocol=msgspec.json.encode(data).decode(),
                                  author_id=author.id, reason=SEATING_REASON,
                                  changes={"seats": {"from": list(tb.seats), "to": list(seats)}}))
        s.flush()


__all__ = ["CheckinService", "DayNotFound", "DayRefused", "NoShow", "Presence",
           "Reseated", "RoundPlan", "SeatingMetrics", "Table", "optimise_round", "stage_metrics"]
