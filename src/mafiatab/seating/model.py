"""Seating problem model: the request, the result, and the checks that refuse impossible input.

Pure (no I/O). Players, rounds and tables are 0-based inside the package; the CLI and the
JSON format translate to the 1-based numbers organizers see.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Final

from mafiatab import i18n
from mafiatab.domain.problems import Problem, Refused, Word
from mafiatab.texts.seating import SEATING_REQUEST


def _n(n: int, word: str, lang: str = "ru") -> str:
    """A count with its word in the form the number asks for (`2 стола`, `5 игроков`)."""
    return i18n.count(n, word, lang)


def counted(n: int, word: str) -> Word:
    """A count as a refusal's parameter: the number for the API, `2 стола` / `2 tables`
    for people."""
    return Word(str(n), _n(n, word), _n(n, word, "en"))

TABLE_SIZE = 10


class InfeasibleRequest(Refused):
    """A request that no seating can satisfy; the message says why (shown to the organizer):
    a code of the catalogue's `seating_request` section and its parameters."""

    def __init__(self, code: str, **params: Any) -> None:
        super().__init__([Problem(code, params=params, texts=SEATING_REQUEST)])
        self.reason_ru = self.message("ru")
        self.reason_en = self.message("en")

    def reason(self, lang: str) -> str:
        return self.reason_en if lang == "en" else self.reason_ru


def require_generator() -> None:
    """Refuse, in words with the install command, when the generator's extra
    (`mafiatab[seating]`: numba and OR-Tools) is not installed; checked before the search's
    modules are imported, so the rest of mafiatab works without them."""
    from mafiatab import extras

    if extras.missing("seating"):
        raise InfeasibleRequest("seating_not_installed",
                                command=extras.install_command("seating"))


#: the kinds of rule that keep two players apart (or bring them together); a hard rule's
#: breaches are counted per kind, so a refusal names the rule
CLUB: Final = "club"
TEAM: Final = "team"
PAIR: Final = "pair"
#: a judge's conflict keeps a player away from the table that judge judges
CONFLICT: Final = "conflict"
PIN: Final = "pin"
ROUND: Final = "round"  # a player twice in a round, or not R games: never the organizer's doing


@dataclass(frozen=True)
class PairRule:
    """Two players and what to do when they share a table: `hard` never lets them (the
    seating is refused when it cannot be met), otherwise every game they share costs
    `weight` (positive: keep them apart when it is cheap; negative: bring them together)."""

    a: int
    b: int
    hard: bool
    weight: int = 0
    rule: str = PAIR


@dataclass(frozen=True)
class GroupRule:
    """Players of one group (a club, a team) kept apart: any two members sharing a table
    is a pair rule of the group's kind."""

    rule: str
    members: dict[int, str]
    hard: bool
    weight: int = 0


@dataclass(frozen=True)
class SeatingRequest:
    """What the organizer asks for.

    `clubs[p]` is a club id (players sharing one must never share a table), `pins[p]` the table
    player p must sit at whenever p plays, `availability[p]` the rounds p can come to (players
    not listed can come to every round). `groups` keeps clubs or teams apart as hard or soft
    rules, `pairs` two named players; `forbidden[p]` the tables p must never sit at (the
    tables of judges he has a conflict with).
    """

    players: int
    games: int
    tables: int
    rounds: int
    seed: int = 0
    clubs: dict[int, str] = field(default_factory=dict)
    pins: dict[int, int] = field(default_factory=dict)
    availability: dict[int, frozenset[int]] = field(default_factory=dict)
    groups: tuple[GroupRule, ...] = ()
    pairs: tuple[PairRule, ...] = ()
    forbidden: dict[int, frozenset[int]] = field(default_factory=dict)

    @property
    def byes_per_round(self) -> int:
        return self.players - TABLE_SIZE * self.tables

    def available(self, player: int, rnd: int) -> bool:
        avail = self.availability.get(player)
        return avail is None or rnd in avail

    def all_groups(self) -> list[GroupRule]:
        """`clubs` (the hard club rule of the command line) and the other groups."""
        extra = [GroupRule(CLUB, dict(self.clubs), True)] if self.clubs else []
        return extra + list(self.groups)

    def pair_rules(self) -> dict[tuple[int, int], tuple[str | None, int]]:
        """(a, b) with a < b → (the hard rule's kind or None, the soft weight per shared
        game): every group and pair rule folded into one table."""
        out: dict[tuple[int, int], tuple[str | None, int]] = {}

        def add(a: int, b: int, hard: bool, weight: int, rule: str) -> None:
            if a == b:
                return
            key = (min(a, b), max(a, b))
            kind, w = out.get(key, (None, 0))
            out[key] = (kind or (rule if hard else None), w + (0 if hard else weight))

        for g in self.all_groups():
            by: dict[str, list[int]] = {}
            for p, name in g.members.items():
                by.setdefault(name, []).append(p)
            for ps in by.values():
                for i, a in enumerate(ps):
                    for b in ps[i + 1:]:
                        add(a, b, g.hard, g.weight, g.rule)
        for r in self.pairs:
            add(r.a, r.b, r.hard, r.weight, r.rule)
        return out

    @property
    def constrained(self) -> bool:
        return bool(self.clubs or self.pins or self.availability or self.groups or self.pairs
                    or self.forbidden)


@dataclass
class Seating:
    """rounds[r][t] is the list of 10 players of table t in round r, in seat order."""

    players: int
    games: int
    rounds: list[list[list[int]]]


def mean_meetings(players: int, games: int) -> float:
    """μ = 9R/(N-1): the average number of games a pair shares."""
    return (TABLE_SIZE - 1) * games / (players - 1)


def default_tables(players: int, games: int) -> int:
    """The most tables per round that give a whole number of rounds (fewest byes per round)."""
    for t in range(players // TABLE_SIZE, 0, -1):
        if (players * games) % (TABLE_SIZE * t) == 0:
            return t
    return 0


def build_request(
    players: int,
    games: int,
    tables: int | None = None,
    seed: int = 0,
    clubs: dict[int, str] | None = None,
    pins: dict[int, int] | None = None,
    availability: dict[int, frozenset[int]] | None = None,
    groups: tuple[GroupRule, ...] = (),
    pairs: tuple[PairRule, ...] = (),
    forbidden: dict[int, frozenset[int]] | None = None,
) -> SeatingRequest:
    """Check the numbers and the constraints; raise InfeasibleRequest with the reason."""
    if players < TABLE_SIZE:
        raise InfeasibleRequest("seating_too_few_players",
                                need=counted(TABLE_SIZE, "player"), players=players)
    if games < 1:
        raise InfeasibleRequest("seating_no_games")
    if tables is None:
        tables = default_tables(players, games)
    if tables < 1 or tables * TABLE_SIZE > players:
        raise InfeasibleRequest("seating_tables_unfilled", tables=counted(tables, "table"),
                                size=counted(TABLE_SIZE, "seat"), players=players)
    seats = players * games
    if seats % (TABLE_SIZE * tables) != 0:
        raise InfeasibleRequest("seating_not_multiple", players=counted(players, "player"),
                                games=counted(games, "game"), seats=counted(seats, "seat"),
                                multiple=TABLE_SIZE * tables, tables=tables)
    rounds = seats // (TABLE_SIZE * tables)
    req = SeatingRequest(
        players=players,
        games=games,
        tables=tables,
        rounds=rounds,
        seed=seed,
        clubs=dict(clubs or {}),
        pins=dict(pins or {}),
        availability={p: frozenset(r) for p, r in (availability or {}).items()},
        groups=tuple(groups),
        pairs=tuple(pairs),
        forbidden={p: frozenset(t) for p, t in (forbidden or {}).items() if t},
    )
    _check_constraints(req)
    return req


def _check_constraints(req: SeatingRequest) -> None:
    """Necessary conditions, each with a reason an organizer understands."""
    n, g, t = req.players, req.rounds, req.tables
    for p in list(req.clubs) + list(req.pins) + list(req.availability):
        if not 0 <= p < n:
            raise InfeasibleRequest("seating_no_such_player", player=p + 1, n=n)
    for p, tb in req.pins.items():
        if not 0 <= tb < t:
            raise InfeasibleRequest("seating_pin_table", player=p + 1, table=tb + 1, tables=t)
    for p, rounds in req.availability.items():
        bad = [r for r in rounds if not 0 <= r < g]
        if bad:
            raise InfeasibleRequest("seating_avail_round", player=p + 1, round=bad[0] + 1,
                                    rounds=g)
        if len(rounds) < req.games:
            raise InfeasibleRequest("seating_avail_few", player=p + 1,
                                    rounds=counted(len(rounds), "round"),
                                    games=counted(req.games, "game"))
    for r in range(g):
        here = sum(1 for p in range(n) if req.available(p, r))
        if here < TABLE_SIZE * t:
            raise InfeasibleRequest("seating_round_few", round=r + 1,
                                    here=counted(here, "player"), need=TABLE_SIZE * t)
    # Pins: at most 10 per table in a round.
    for tb in range(t):
        pinned = [p for p, x in req.pins.items() if x == tb]
        for r in range(g):
            at_table = [p for p in pinned if req.available(p, r)]
            if len(at_table) > TABLE_SIZE and req.byes_per_round == 0:
                k = len(at_table)
                raise InfeasibleRequest("seating_pinned_many", table=tb + 1,
                                        pinned=counted(k, "player"), size=TABLE_SIZE)
    for p, tables in req.forbidden.items():
        if not 0 <= p < n:
            raise InfeasibleRequest("seating_no_such_player", player=p + 1, n=n)
        if p in req.pins and req.pins[p] in tables:
            raise InfeasibleRequest("seating_pin_forbidden", player=p + 1,
                                    table=req.pins[p] + 1)
        if all(x in tables for x in range(t)):
            raise InfeasibleRequest("seating_all_forbidden", player=p + 1)
    # Two players who must not meet, both pinned to one table (with no byes both play it).
    for (a, b), (kind, _w) in req.pair_rules().items():
        if kind is None or req.byes_per_round or a not in req.pins:
            continue
        if req.pins.get(b) == req.pins[a]:
            raise InfeasibleRequest("seating_pinned_apart", first=a + 1, second=b + 1,
                                    rule=rule_word(kind), table=req.pins[a] + 1)
    # A hard group: at most one member per table in a round.
    for grp in req.all_groups():
        if not grp.hard:
            continue
        members: dict[str, list[int]] = {}
        for p, name in grp.members.items():
            if not 0 <= p < n:
                raise InfeasibleRequest("seating_no_such_player", player=p + 1, n=n)
            members.setdefault(name, []).append(p)
        for name, ps in members.items():
            group = group_word(grp.rule, name)
            if req.byes_per_round == 0 and len(ps) > t:
                raise InfeasibleRequest("seating_group_too_big", group=group,
                                        rule=rule_word(grp.rule),
                                        members=counted(len(ps), "player"),
                                        tables=counted(t, "table"))
            if len(ps) * req.games > t * g:
                raise InfeasibleRequest("seating_group_no_fit", group=group,
                                        rule=rule_word(grp.rule),
                                        members=counted(len(ps), "player"),
                                        games=counted(req.games, "game"),
                                        places=counted(t * g, "seat"),
                                        rounds=counted(g, "round"), tables=counted(t, "table"))
            for r in range(g):
                must = [p for p in ps if req.byes_per_round == 0 and req.available(p, r)]
                if len(must) > t:
                    raise InfeasibleRequest("seating_group_round", group=group, round=r + 1,
                                            rule=rule_word(grp.rule),
                                            members=counted(len(must), "player"),
                                            tables=counted(t, "table"))


def rule_word(kind: str) -> Word:
    """A hard rule's name, as a refusal's parameter."""
    from mafiatab.texts.seating import RULE_NAMES

    ru, en = RULE_NAMES[kind]
    return Word(kind, ru, en)


def breaches_word(by_rule: dict[str, int]) -> Word:
    """«одноклубники за одним столом — 3; …»: the hard rules a seating breaks, as a
    refusal's parameter (its code lists the rules' kinds)."""
    from mafiatab.texts.seating import RULE_BREACHES

    items = sorted((k, v) for k, v in by_rule.items() if v)
    ru = "; ".join(RULE_BREACHES[k][0].format(n=v) for k, v in items)
    en = "; ".join(RULE_BREACHES[k][1].format(n=v) for k, v in items)
    return Word(",".join(k for k, _v in items), ru, en)


def group_word(kind: str, name: str) -> Word:
    """«клуба «Полночь»» / "club 'Midnight'": the group a refusal speaks of."""
    from mafiatab.texts.seating import GROUP_OF

    ru, en = GROUP_OF[kind]
    return Word(name, ru.format(name=name), en.format(name=name))


def sum_sq_lower_bound(players: int, games: int, tables: int, rounds: int) -> int:
    """The bound of seating.md: Σm² = 2·ΣC(m,2) + Σm with ΣC(m,2) ≥ C(rounds,2)·ω(T).

    ω is only stated for N = 10T (no byes); with byes the bound is only Σm (every m ≤ 1).
    """
    omega = {2: 40, 3: 36, 4: 32, 5: 25, 6: 24, 7: 21, 8: 16, 9: 9}
    total = players * games * (TABLE_SIZE - 1) // 2
    if players != TABLE_SIZE * tables:
        return total
    w = omega.get(tables, 0)
    return 2 * math.comb(rounds, 2) * w + total
