"""A tournament's games -> ranked rows: K, Ci over their distances, every tie-breaker, lots.

This is the one implementation of standings: the CLI, the web app, exports and the API
all call `compute_standings`. It is a pure function of the tournament and the profile,
recomputed and never patched, because K and Ci depend on every game (scoring.md 2 and 5).
`explain_player` uses the very same tally, so an explanation always adds up to the row.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from fractions import Fraction
from math import lcm
from operator import attrgetter
from typing import Any

from mafiatab.domain.points import Hundredths
from mafiatab.domain.protocol import DON, SHERIFF, Game, Seat, Stage, TeamEntry, Tournament
from mafiatab.domain.scoring import (
    BEST_MOVE,
    COMPENSATION,
    PENALTY,
    WIN,
    GameScore,
    Part,
    score_game,
)
from mafiatab.rules.profile import Distance, RuleProfile

DON_SHERIFF = frozenset({DON, SHERIFF})  # tie-breaker 3 (FIIM 8.8.3, FSM 8.7.4)


@dataclass(slots=True)
class Row:
    """One player's line of the standings. Point values in hundredths, exact."""

    player: str
    nickname: str
    games: int = 0
    wins: int = 0
    wins_don_sheriff: int = 0
    first_killed: int = 0
    main: Hundredths = 0
    extra: Hundredths = 0
    best_move: Hundredths = 0
    compensation: Hundredths = 0
    penalties: Hundredths = 0
    place: int = 0
    lot_needed: bool = False

    @property
    def total(self) -> Hundredths:
        return self.main + self.extra

    def add(self, other: Row) -> None:
        """Add another line's counts and points to this one (`SUMMED`): the one way lines
        are added up (a team's line is its members' lines added, `domain.teams`)."""
        for name in SUMMED:
            setattr(self, name, getattr(self, name) + getattr(other, name))


#: the fields of a `Row` that add up over lines: all but who it is and its place
SUMMED: tuple[str, ...] = tuple(f.name for f in fields(Row)
                                if f.name not in ("player", "nickname", "place", "lot_needed"))


@dataclass(slots=True)
class Coefficient:
    """FIIM 8.7: the difficulty coefficient K and where it comes from."""

    applies: bool
    k: Fraction
    games: int  # N
    heavy_side: str | None  # "red" / "black"
    heavy_wins: int  # n
    clause: str
    reason: str = ""


@dataclass(slots=True)
class CompensationRate:
    """Ci of one player over one distance: i, B and the resulting value (hundredths)."""

    distance: str
    games: int
    i: int
    b: int
    ci: Fraction
    clause: str


@dataclass(slots=True)
class Standings:
    tournament: str
    rules: str
    stages: list[str]
    rows: list[Row]
    k: Coefficient
    ci: dict[tuple[str, str], CompensationRate] = field(default_factory=dict)
    #: the exhibition players' lines: their games and points, never a place (place 0)
    exhibition: list[Row] = field(default_factory=list)


def seated_by_stage(t: Tournament) -> dict[str, list[str]]:
    """Stage id -> the player of every seat of its games (one pass over the seats that
    the distances, B's game counts and the standings' game counts all read)."""
    out: dict[str, list[str]] = {}
    for g in t.games:
        bucket = out.get(g.stage)
        if bucket is None:
            bucket = out[g.stage] = []
        bucket += [s.player for s in g.seats]
    return out


def participant_count(t: Tournament, p: RuleProfile) -> int:
    """The participants the rules count (FIIM 8.7): the number the file gives, else the
    players listed, exhibition players only when the profile counts them
    (`exhibition_are_participants`)."""
    if t.participants is not None:
        return t.participants
    if p.exhibition_are_participants.value:
        return len(t.players)
    return sum(1 for pl in t.players if not pl.exhibition)


def distances(t: Tournament, p: RuleProfile,
              seated: dict[str, list[str]] | None = None) -> dict[str, str]:
    """Stage id -> the compensation distance it belongs to (scoring.md 5)."""
    out: dict[str, str] = {}
    if p.comp_distance.value is Distance.QUAL_SEMI_TOGETHER:
        for st in t.stages:
            out[st.id] = "qualification+semifinal" if st.kind != "final" else st.id
        return out
    # FSM 8.6.2, 8.6.5: consecutive stages while the number of participants is unchanged
    if seated is None:
        seated = seated_by_stage(t)
    current: str | None = None
    current_count = -1
    # exhibition players are no participants of the standings (unless the profile counts them)
    aside = frozenset() if p.exhibition_are_participants.value else t.exhibition
    for st in t.stages:
        count = len(set(seated.get(st.id, ())) - aside)
        if count == 0:
            out[st.id] = st.id  # no games yet: nothing to compensate
            continue
        if current is None or count != current_count:
            current, current_count = st.id, count
        out[st.id] = current
    return out


def pays_compensation(stage: Stage | None, p: RuleProfile) -> bool:
    if stage is None:
        return False
    if stage.compensation is not None:
        return stage.compensation
    return stage.kind in p.comp_paying_stage_kinds.value


def coefficient_k(t: Tournament, p: RuleProfile) -> Coefficient:
    """FIIM 8.7: K = 1 + (N/2 - n)/(N/2) over all the tournament's games."""
    limit = p.k_max_participants
    clause = limit.clause
    if limit.value is None:
        return Coefficient(False, Fraction(1), 0, None, 0, clause, "not_in_rules")
    if participant_count(t, p) > limit.value:
        return Coefficient(False, Fraction(1), 0, None, 0, clause, "too_many_participants")
    n_games = len(t.games)
    red = sum(1 for g in t.games if g.result == "red")
    black = sum(1 for g in t.games if g.result == "black")
    if red == black:
        return Coefficient(False, Fraction(1), n_games, None, red,
                           p.k_equal_wins_no_heavy_side.clause, "equal_wins")
    heavy, n = ("red", red) if red < black else ("black", black)
    half = Fraction(n_games, 2)
    k = 1 + (half - n) / half
    return Coefficient(True, k, n_games, heavy, n, p.k_formula.clause)


def compensation_rates(p: RuleProfile, scored: Sequence[GameScore], dist: dict[str, str],
                       seated: dict[str, list[str]] | None = None
                       ) -> dict[tuple[str, str], CompensationRate]:
    """(player, distance) -> Ci, for every player first killed as red at least once.
    `seated`: the players of each stage's seats (`seated_by_stage`), if already known."""
    games: dict[tuple[str, str], int] = {}
    first: dict[tuple[str, str], int] = {}
    for gs in scored:
        d = dist.get(gs.game.stage, gs.game.stage)
        if gs.ci_counted and gs.first_killed_player is not None:
            key = (gs.first_killed_player, d)
            first[key] = first.get(key, 0) + 1
        if gs.night_killed_ci_counted and gs.night_killed_player is not None:
            key = (gs.night_killed_player, d)
            first[key] = first.get(key, 0) + 1
    per_distance: dict[str, Counter[str]] = {}
    if first:
        if seated is None:
            seated = {}
            for gs in scored:
                seated.setdefault(gs.game.stage, []).extend([s.player for s in gs.game.seats])
        by_distance: dict[str, list[str]] = {}
        for stage, players in seated.items():
            by_distance.setdefault(dist.get(stage, stage), []).extend(players)
        per_distance = {d: Counter(players) for d, players in by_distance.items()}
    for key in first:
        games[key] = per_distance[key[1]][key[0]]
    pct = p.comp_b_percent.value
    minimum = p.comp_b_minimum.value
    cap = p.comp_max.value
    out: dict[tuple[str, str], CompensationRate] = {}
    for key, i in first.items():
        played = games[key]
        # B = 40% of the games, rounded to the nearest whole (never a tie: 0.4*g is k/5)
        b = max((2 * pct * played + 100) // 200, minimum)
        ci = Fraction(cap * i, b) if i <= b else Fraction(cap)
        out[key] = CompensationRate(key[1], played, i, b, ci, p.comp_b_percent.clause)
    return out


def team_compensation_rates(p: RuleProfile, scored: Sequence[GameScore],
                            dist: Mapping[str, str], seated: Mapping[str, list[str]],
                            teams: Sequence[TeamEntry]
                            ) -> dict[tuple[str, str], CompensationRate]:
    """Ci per team (the profile's `comp_per_team`, a team marathon's option): the rules'
    formula Ci = 0.4 · i / B (Ci = 0.4 when i > B), with i the first-night kills that the
    rules count (`ci_counted`) of every member of the team on the distance, and B = 40% of
    the games the team's members played there, rounded, at least the rules' minimum. Every
    member first killed is paid the team's Ci; a player in no team keeps his own.

    Returns the same (player, distance) -> rate map as `compensation_rates`, so the
    standings and their explanation pay and explain it the one way."""
    own = compensation_rates(p, scored, dict(dist), dict(seated))
    team_of = {m: x.id for x in teams for m in x.members}
    kills: Counter[tuple[str, str]] = Counter()
    for (player, d), rate in own.items():
        if player in team_of:
            kills[team_of[player], d] += rate.i
    games: Counter[tuple[str, str]] = Counter()
    for stage, players in seated.items():
        d = dist.get(stage, stage)
        for player in players:
            if player in team_of:
                games[team_of[player], d] += 1
    pct, minimum, cap = p.comp_b_percent.value, p.comp_b_minimum.value, p.comp_max.value
    out = dict(own)
    for player, d in own:
        team = team_of.get(player)
        if team is None:
            continue
        i, played = kills[team, d], games[team, d]
        b = max((2 * pct * played + 100) // 200, minimum)
        ci = Fraction(cap * i, b) if i <= b else Fraction(cap)
        out[player, d] = CompensationRate(d, played, i, b, ci, p.comp_per_team.clause)
    return out


@dataclass(slots=True)
class _Context:
    profile: RuleProfile
    scored: list[GameScore]
    k: Coefficient
    ci: dict[tuple[str, str], CompensationRate]
    dist: dict[str, str]
    seated: dict[str, list[str]]


def _context(t: Tournament, p: RuleProfile) -> _Context:
    stage_by_id = {s.id: s for s in t.stages}
    pays = {sid: pays_compensation(st, p) for sid, st in stage_by_id.items()}
    scored = [score_game(g, p, pays.get(g.stage, False)) for g in t.games]
    seated = seated_by_stage(t)
    dist = distances(t, p, seated)
    if p.comp_per_team.value and t.teams:
        ci = team_compensation_rates(p, scored, dist, seated, t.teams)
    else:
        ci = compensation_rates(p, scored, dist, seated)
    return _Context(p, scored, coefficient_k(t, p), ci, dist, seated)


def _in_scope(g: Game, scope: frozenset[str] | None) -> bool:
    return scope is None or g.stage in scope


def compute_standings(t: Tournament, p: RuleProfile,
                      stages: Iterable[str] | None = None) -> Standings:
    """The standings of the games in `stages` (default: all), ranked (scoring.md 6)."""
    scope = frozenset(stages) if stages is not None else None
    ctx = _context(t, p)
    names = {pl.id: pl.nickname for pl in t.players}
    rows: dict[str, Row] = {}
    k = ctx.k
    don_sheriff = DON_SHERIFF
    win_points = p.win_points.value
    # games and wins are counted over plain lists of players, once at the end
    played: list[str] = []
    for stage, players in ctx.seated.items():
        if scope is None or stage in scope:
            played += players
    winners: list[Seat] = []
    heavy_winners: list[str] = []
    first_night: list[str] = []
    paid: list[tuple[str, Fraction]] = []
    for gs in ctx.scored:
        g = gs.game
        if scope is not None and g.stage not in scope:
            continue
        seats = g.seats
        win_roles = gs.win_roles
        if win_roles:
            won = [s for s in seats if s.role in win_roles]
            winners += won
            if k.applies and g.result == k.heavy_side:
                heavy_winners += [s.player for s in won]
        if gs.parts:
            for seat, parts in gs.parts.items():
                pid = g.player_at(seat)
                row = rows.get(pid)
                if row is None:
                    row = rows[pid] = Row(pid, names.get(pid, pid))
                for part in parts:
                    row.extra += part.points
                    if part.kind == BEST_MOVE:
                        row.best_move += part.points
                    elif part.kind == PENALTY:
                        row.penalties += part.points
        if gs.night_killed_player is not None:
            first_night.append(gs.night_killed_player)
        fk_player = gs.first_killed_player
        if fk_player is not None:
            if gs.first_night_death:
                first_night.append(fk_player)
            share = gs.ci_share
            if share:
                ci = ctx.ci[(fk_player, ctx.dist.get(g.stage, g.stage))].ci
                paid.append((fk_player, ci if share == 1 else ci * share))
    for pid, n in Counter(played).items():
        row = rows.get(pid)
        if row is None:
            row = rows[pid] = Row(pid, names.get(pid, pid))
        row.games = n
    for pid, n in Counter(first_night).items():
        rows[pid].first_killed = n
    for pid, ci in paid:
        rows[pid].compensation += ci
    heavy = Counter(heavy_winners)
    for pid, n in Counter([s.player for s in winners]).items():
        row = rows[pid]
        row.wins = n
        row.main += (n - heavy.get(pid, 0)) * win_points
    for pid, n in Counter([s.player for s in winners if s.role in don_sheriff]).items():
        rows[pid].wins_don_sheriff = n
    # K and Ci divide: added once per player, so the sums above stay in integers
    for pid, n in heavy.items():
        rows[pid].main += n * win_points * k.k
    for row in rows.values():
        if row.compensation:
            row.main += row.compensation
    # exhibition players' games count for everybody else; they themselves are not ranked
    aside = t.exhibition
    shown = sorted((r for r in rows.values() if r.player in aside), key=attrgetter("player"))
    ranked = rank([r for r in rows.values() if r.player not in aside], t.lots,
                  p.tie_breakers.value)
    stage_ids = [s.id for s in t.stages if scope is None or s.id in scope]
    return Standings(t.name, t.rules, stage_ids, ranked, k, ctx.ci, shown)


@dataclass(frozen=True, slots=True)
class Metric:
    """A standings metric a profile's `tie_breakers` may name, and its direction (as
    Tabbycat's standings metrics: each knows whether more is better; the profile gives
    only their precedence)."""

    name: str
    value: Callable[[Row], Hundredths]
    higher_is_better: bool = True


#: every metric a rule profile may rank by, by the name its `tie_breakers` uses
METRICS: dict[str, Metric] = {m.name: m for m in (
    Metric("total", attrgetter("total")),
    Metric("main", attrgetter("main")),
    Metric("extra", attrgetter("extra")),
    Metric("wins", attrgetter("wins")),
    Metric("wins_don_sheriff", attrgetter("wins_don_sheriff")),
    Metric("first_killed", attrgetter("first_killed")),
    Metric("penalties", attrgetter("penalties")),
    Metric("best_move", attrgetter("best_move")),
    Metric("games", attrgetter("games"), higher_is_better=False),
)}


def ranking_key(precedence: Sequence[str]) -> Callable[[Row], tuple[Hundredths, ...]]:
    """The sort key of a profile's `tie_breakers`: larger is better in every place (a
    metric where less is better is negated). Raises KeyError for an unknown metric."""
    metrics = [(METRICS[name].value, METRICS[name].higher_is_better) for name in precedence]

    def key(row: Row) -> tuple[Hundredths, ...]:
        return tuple(value(row) if higher else -value(row) for value, higher in metrics)
    return key


def _whole(keys: list[tuple[Hundredths, ...]]) -> list[tuple[int, ...]]:
    """The same keys in whole numbers, in the same order: a column holding Fractions (K
    and Ci divide totals) is multiplied by the least common multiple of its
    denominators, exactly, so that sorting compares ints rather than Fractions."""
    if not keys:
        return []
    columns: list[list[int]] = []
    for column in zip(*keys, strict=True):
        # `type(v) is int`: isinstance against Fraction goes through the numbers ABCs
        dens = {v.denominator for v in column if type(v) is not int}
        if not dens:
            columns.append(list(column))
            continue
        m = lcm(*dens)
        columns.append([v * m if type(v) is int else v.numerator * (m // v.denominator)
                        for v in column])
    return list(zip(*columns, strict=True))


def rank(rows: list[Row], lots: Sequence[str], precedence: Sequence[str]) -> list[Row]:
    """Order rows by the profile's `tie_breakers` (total, then its tie-breakers); a
    recorded lot orders a tied group only when it names every player of the group
    (FIIM 8.8.5, FSM 8.7.6); others share the place."""
    key_of = ranking_key(precedence)
    rows.sort(key=attrgetter("player"))
    keys = _whole([key_of(r) for r in rows])
    order = sorted(range(len(rows)), key=keys.__getitem__, reverse=True)
    rows[:] = [rows[i] for i in order]
    keys = [keys[i] for i in order]
    lot_index = {pid: i for i, pid in enumerate(lots)}
    out: list[Row] = []
    i = 0
    while i < len(rows):
        j = i + 1
        key = keys[i]
        while j < len(rows) and keys[j] == key:
            j += 1
        group = rows[i:j]
        place = i + 1
        if len(group) == 1:
            group[0].place, group[0].lot_needed = place, False
        elif all(r.player in lot_index for r in group):
            group.sort(key=lambda r: lot_index[r.player])
            for offset, r in enumerate(group):
                r.place, r.lot_needed = place + offset, False
        else:
            for r in group:
                r.place, r.lot_needed = place, True
        out.extend(group)
        i = j
    return out


# --- explanation ---------------------------------------------------------------------


@dataclass(slots=True)
class ExplainedPart:
    kind: str
    points: Hundredths
    clause: str
    detail: dict[str, Any]


@dataclass(slots=True)
class GameExplanation:
    game: str
    stage: str
    round: int
    table: int
    seat: int
    role: str
    result: str
    parts: list[ExplainedPart]

    @property
    def total(self) -> Hundredths:
        return sum((x.points for x in self.parts), start=0)


def explain_player(t: Tournament, p: RuleProfile, player: str,
                   stages: Iterable[str] | None = None,
                   game: str | None = None) -> list[GameExplanation]:
    """Every part of one player's points, game by game, with its clause."""
    return [e for pid, e in explain_games(t, p, stages, game, player)]


def explain_games(t: Tournament, p: RuleProfile, stages: Iterable[str] | None = None,
                  game: str | None = None,
                  player: str | None = None) -> list[tuple[str, GameExplanation]]:
    """Every part of every player's points (or one player's), game by game, in one pass:
    the exports write a row per player per game without scoring the tournament again for
    each player."""
    scope = frozenset(stages) if stages is not None else None
    ctx = _context(t, p)
    k = ctx.k
    out: list[tuple[str, GameExplanation]] = []
    for gs in ctx.scored:
        g = gs.game
        if not _in_scope(g, scope) or (game is not None and g.id != game):
            continue
        for r in gs.seat_results():
            if player is not None and r.player != player:
                continue
            parts: list[ExplainedPart] = []
            for part in r.parts:
                parts.append(_explain_part(part, k, g))
            if r.ci_share:
                rate = ctx.ci[(r.player, ctx.dist.get(g.stage, g.stage))]
                clause = p.comp_share_on_red_win.clause if r.ci_share != 1 else (
                    p.comp_max.clause)
                parts.append(ExplainedPart(COMPENSATION, rate.ci * r.ci_share,
                                           clause.split(" (")[0],
                                           {"i": rate.i, "b": rate.b, "games": rate.games,
                                            "share": str(r.ci_share),
                                            "distance": rate.distance,
                                            "ci": rate.ci}))
            out.append((r.player, GameExplanation(g.id, g.stage, g.round, g.table, r.seat,
                                                  r.role, g.result, parts)))
    return out


def _explain_part(part: Part, k: Coefficient, g: Game) -> ExplainedPart:
    if part.kind == WIN and k.applies and g.result == k.heavy_side:
        return ExplainedPart(WIN, part.points * k.k, k.clause,
                             {"k": k.k, "games": k.games, "heavy_wins": k.heavy_wins,
                              "heavy_side": k.heavy_side, "base": part.points})
    return ExplainedPart(part.kind, part.points, part.clause, part.detail)
