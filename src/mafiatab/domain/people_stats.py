"""A person's figures across tournaments: what a person's page and a club's page show.

Two steps, both pure:

1. `digest(t, profile)`: one tournament's facts per player id (every game with its points
   as the standings count them, K and Ci included; the seat, the role, the result; who sat
   with whom; the place). This is the expensive step (it scores the tournament once), and
   it depends on the tournament alone, so a service can keep it until the tournament
   changes, whatever happens to the identities of its players.
2. `person_stats(person, lines)`: a person's figures from the digests of the tournaments
   he played, each with the map from that tournament's player ids to persons (the
   identities, which a merge or a split changes). Cheap: it only adds up.

Points stay exact (hundredths as `int` or `Fraction`, as the standings give them).
Best-move accuracy is the share of the seats a first killed named that were black: every
named seat could have been one (so "possible" is the number of seats named).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction

from mafiatab.domain.points import Hundredths
from mafiatab.domain.progress import Rate
from mafiatab.domain.protocol import BLACK_ROLES, DRAW, RESULTS, ROLES, SEATS, TEAM_OF, Tournament
from mafiatab.domain.provenance import import_source
from mafiatab.domain.published import places, published_table
from mafiatab.domain.ratings import Model, RatedGame, WhatIf, WhatIfSeat
from mafiatab.domain.scoring import COMPENSATION
from mafiatab.domain.standings import compute_standings, explain_games
from mafiatab.rules.profile import RuleProfile

#: how many partners and opponents a page lists
TOP_N = 10


@dataclass(frozen=True, slots=True)
class GameLine:
    """One game of one player, as the standings count it."""

    game: str
    stage: str
    stage_kind: str
    round: int
    table: int
    seat: int
    role: str
    result: str
    won: bool
    points: Hundredths
    first_killed: bool
    ci: Hundredths
    #: seats the first killed named (best move) and how many of them were black
    named: int
    guessed: int
    #: the game's ten seats as (player id, team), shared by its ten lines
    table_seats: tuple[tuple[str, str], ...]


@dataclass(frozen=True, slots=True)
class PlayerDigest:
    player: str
    place: int
    total: Hundredths
    games: tuple[GameLine, ...]
    #: an imported table's figures as published: games and wins (None: not published)
    published_games: int | None = None
    published_wins: int | None = None


@dataclass(frozen=True, slots=True)
class TournamentDigest:
    name: str
    rules: str
    #: date of the first dated game ("" when none)
    date: str
    players: Mapping[str, PlayerDigest]
    #: results imported as another system published them: the source's file name
    #: (None: the tournament was played here, its standings are mafiatab's own)
    imported: str | None = None
    #: where results recorded by another system come from, a published table's or
    #: game records' (domain/provenance.py; None: played here)
    source: str | None = None


def _plain(value: Hundredths) -> Hundredths:
    """A whole Fraction as an int: most games' points are whole hundredths, and adding
    ints is what keeps a person's page quick."""
    if isinstance(value, Fraction) and value.denominator == 1:
        return value.numerator
    return value


def digest(t: Tournament, p: RuleProfile) -> TournamentDigest:
    """Every player's games and points in the tournament (one scoring of it)."""
    kinds = {s.id: s.kind for s in t.stages}
    rows = {r.player: r for r in compute_standings(t, p).rows}
    games = {g.id: g for g in t.games}
    lines: dict[str, list[GameLine]] = defaultdict(list)
    seats_of: dict[str, tuple[tuple[str, str], ...]] = {}
    for player, e in explain_games(t, p):
        g = games[e.game]
        fk = g.first_killed == e.seat
        named = len(g.best_move) if fk else 0
        guessed = sum(1 for seat in g.best_move if g.role_of(seat) in BLACK_ROLES) if fk else 0
        team = TEAM_OF[e.role]
        seated = seats_of.get(g.id)
        if seated is None:
            seated = seats_of[g.id] = tuple((s.player, TEAM_OF[s.role]) for s in g.seats)
        ci = _plain(sum((x.points for x in e.parts if x.kind == COMPENSATION), start=0))
        lines[player].append(GameLine(
            e.game, e.stage, kinds.get(e.stage, ""), e.round, e.table, e.seat, e.role,
            e.result, e.result != DRAW and team == e.result, _plain(e.total), fk, ci, named,
            guessed, seated))
    date = next((g.date for g in t.games if g.date), "")
    table = published_table(t.other) if not t.games else None
    if table is not None:
        # no protocols: the published table is the tournament's result, as published
        place = places(table)
        return TournamentDigest(t.name, t.rules, date or "", {
            r.player: PlayerDigest(r.player, place[r.player], _plain(r.total or 0), (),
                                   r.games, r.counts.get("wins"))
            for r in table.rows}, table.source or "—", import_source(t.other))
    players = {}
    for pid, row in rows.items():
        players[pid] = PlayerDigest(pid, row.place, _plain(row.total), tuple(lines.get(pid, ())))
    return TournamentDigest(t.name, t.rules, date or "", players,
                            source=import_source(t.other))


@dataclass(frozen=True, slots=True)
class Played:
    """One tournament of a person: its id, its digest, the person's player id in it, and
    every player id of it mapped to a person."""

    tournament: int
    digest: TournamentDigest
    code: str
    person_of: Mapping[str, int]


@dataclass(slots=True)
class Tally:
    """Games, wins and points of some slice of a person's games."""

    games: int = 0
    wins: int = 0
    points: Hundredths = 0

    @property
    def rate(self) -> Rate:
        return Rate(self.games, self.wins)

    def add(self, line: GameLine) -> None:
        self.games += 1
        self.wins += line.won
        self.points += line.points


@dataclass(slots=True)
class Mate:
    """Another person met at the table: games with him (same team) and against him."""

    person: int
    together: Tally = field(default_factory=Tally)
    against: Tally = field(default_factory=Tally)


@dataclass(frozen=True, slots=True)
class TournamentLine:
    tournament: int
    name: str
    date: str
    rules: str
    place: int
    players: int
    total: Hundredths
    games: tuple[GameLine, ...]
    #: imported as published (the source's file name; None: played here)
    imported: str | None = None
    #: games as the published table counts them (an imported tournament's)
    published_games: int | None = None
    #: where the results come from when another system recorded them (None: played here)
    source: str | None = None

    @property
    def game_count(self) -> int:
        """Games played: the protocols', or as published for an imported tournament."""
        if self.imported is not None:
            return self.published_games or 0
        return len(self.games)


@dataclass(slots=True)
class PersonStats:
    person: int
    tournaments: list[TournamentLine]
    all: Tally
    by_role: dict[str, Tally]
    by_seat: dict[int, Tally]
    first_killed: int
    ci: Hundredths
    best_move_made: int
    named: int
    guessed: int
    partners: list[Mate]
    opponents: list[Mate]
    #: the imported tournaments' figures as published (no protocols: no role, seat or
    #: table behind them, so they are kept apart from `all`)
    imported: Tally = field(default_factory=Tally)

    @property
    def accuracy(self) -> Fraction | None:
        """Guessed blacks over the seats named (None: never named any)."""
        return Fraction(self.guessed, self.named) if self.named else None


def _top(mates: Iterable[Mate], key: str, n: int) -> list[Mate]:
    chosen = [m for m in mates if getattr(m, key).games]
    chosen.sort(key=lambda m: (-getattr(m, key).games, -getattr(m, key).wins, m.person))
    return chosen[:n]


def person_stats(person: int, played: Sequence[Played], top: int = TOP_N) -> PersonStats:
    """A person's figures over the tournaments he played (see the module's text)."""
    tournaments: list[TournamentLine] = []
    everything = Tally()
    by_role = {r: Tally() for r in ROLES}
    by_seat = {s: Tally() for s in SEATS}
    mates: dict[int, Mate] = {}
    first_killed = made = named = guessed = 0
    ci: Hundredths = 0
    imported = Tally()
    for pl in played:
        mine = pl.digest.players.get(pl.code)
        if mine is None:  # registered, never played
            continue
        tournaments.append(TournamentLine(pl.tournament, pl.digest.name, pl.digest.date,
                                          pl.digest.rules, mine.place,
                                          len(pl.digest.players), mine.total, mine.games,
                                          pl.digest.imported, mine.published_games,
                                          pl.digest.source))
        if pl.digest.imported is not None:
            imported.games += mine.published_games or 0
            imported.wins += mine.published_wins or 0
            imported.points += mine.total
        for line in mine.games:
            everything.add(line)
            by_role[line.role].add(line)
            if line.seat in by_seat:
                by_seat[line.seat].add(line)
            if line.first_killed:
                first_killed += 1
                ci += line.ci
                if line.named:
                    made += 1
                    named += line.named
                    guessed += line.guessed
            team = TEAM_OF[line.role]
            for other, their_team in line.table_seats:
                who = pl.person_of.get(other)
                if who is None or who == person or other == pl.code:
                    continue
                mate = mates.get(who)
                if mate is None:
                    mate = mates[who] = Mate(who)
                (mate.together if their_team == team else mate.against).add(line)
    tournaments.sort(key=lambda x: (x.date, x.tournament))
    return PersonStats(person, tournaments, everything, by_role, by_seat, first_killed, ci,
                       made, named, guessed, _top(mates.values(), "together", top),
                       _top(mates.values(), "against", top), imported)


@dataclass(slots=True)
class ClubStats:
    members: int
    tournaments: int
    all: Tally
    by_role: dict[str, Tally]
    #: the members' imported results as published (kept apart from `all`, as a person's)
    imported: Tally = field(default_factory=Tally)


def club_totals(members: Sequence[PersonStats]) -> ClubStats:
    """A club's totals: its members' games added up (a game two members played counts
    for each of them)."""
    everything = Tally()
    by_role = {r: Tally() for r in ROLES}
    imported = Tally()
    seen: set[int] = set()
    for m in members:
        seen.update(t.tournament for t in m.tournaments)
        imported.games += m.imported.games
        imported.wins += m.imported.wins
        imported.points += m.imported.points
        everything.games += m.all.games
        everything.wins += m.all.wins
        everything.points += m.all.points
        for r in ROLES:
            by_role[r].games += m.by_role[r].games
            by_role[r].wins += m.by_role[r].wins
            by_role[r].points += m.by_role[r].points
    return ClubStats(len(members), len(seen), everything, by_role, imported)


def next_game_what_if(model: Model, game: RatedGame) -> WhatIf:
    """The "what if" of a game played after everything `model` has rated: its chance, and
    each player's rating after each result. The model itself is left as it was (each trial
    works on a copy)."""
    def trial() -> Model:
        return model.copy()

    probe = trial()
    p_red = probe.predict(game)
    involved = [s.person for s in game.seats]
    before = {r.person: r.rating for r in probe.ratings(involved)}
    after: dict[str, dict[str, float]] = {s.person: {} for s in game.seats}
    for result in RESULTS:
        m = trial()
        m.rate_batch([replace(game, result=result)])
        for r in m.ratings(involved):
            after[r.person][result] = r.rating
    return WhatIf(game.tournament, game.game, p_red, tuple(
        WhatIfSeat(s.person, s.role, before[s.person], after[s.person]) for s in game.seats))


__all__ = ["TOP_N", "ClubStats", "GameLine", "Mate", "PersonStats", "Played", "PlayerDigest",
           "Tally", "TournamentDigest", "TournamentLine", "club_totals", "digest",
           "next_game_what_if", "person_stats"]
