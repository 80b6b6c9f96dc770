"""What must hold across a tournament's games, not inside one protocol.

One protocol can be right on its own and still make the record wrong at the seams: a
player typed at a table he was not seated at plays twice in a round, the player really
seated there vanishes from the standings; a player removed from the tournament is scored
in a later game. `check_tournament` reads the whole record at once and names every such
problem with its rule, round, table and seat:

* a player plays at most one game per round of a stage (tournament rule; seating.md's
  first hard constraint);
* the players of a game are those seated at its table, or a replacement on record (the
  check-in desk's or the protocol form's, with who, when and why);
* a player removed from the tournament (FIIM 7.3; FSM 8.1.1 "снять игрока с турнира") is
  neither seated nor recorded in a round after the game of his removal;
* a withdrawn player plays no game after the last round he played before withdrawing.

Pure: the services gather the record (`services.invariants`), a file brings its own.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, Protocol

from mafiatab.domain.problems import Problem, Word
from mafiatab.rules import federation_prefixes
from mafiatab.rules.profile import RuleProfile

ONE_GAME_A_ROUND: Final = "tournament rule: one game a round"
SEATED_PLAYS: Final = "tournament rule: the seated player plays"
WITHDRAWN_PLAYS_NO_MORE: Final = "tournament rule: a withdrawn player plays no more"
#: the codes of the problems this module finds
CODES: Final = frozenset({"twice_in_round", "not_seated_here", "removed_plays",
                          "withdrawn_plays"})

#: where a game stands in the tournament: (the stage's place, the round)
Point = tuple[int, int]


class SeatLike(Protocol):
    @property
    def seat(self) -> int: ...
    @property
    def player(self) -> str: ...


class PenaltyLike(Protocol):
    @property
    def kind(self) -> str: ...
    @property
    def rule(self) -> str | None: ...


class ScoresLike(Protocol):
    @property
    def penalties(self) -> Sequence[PenaltyLike]: ...


class Game(Protocol):
    """What the check reads of a game: a protocol (`domain.protocol.Game`), or a reader's
    lighter record of the same fields (the services read only these of each protocol)."""

    @property
    def id(self) -> str: ...
    @property
    def stage(self) -> str: ...
    @property
    def round(self) -> int: ...
    @property
    def table(self) -> int: ...
    @property
    def seats(self) -> Sequence[SeatLike]: ...
    @property
    def scores(self) -> Mapping[int, ScoresLike]: ...
    @property
    def log(self) -> Sequence[Any] | None: ...


def _player_at(game: Game, seat: int) -> str:
    return next((s.player for s in game.seats if s.seat == seat), "")


@dataclass(frozen=True, slots=True)
class Replacement:
    """A player put in another's seat after the seating, on record: who did it, when
    (ISO time) and why."""

    game: str
    seat: int
    before: str
    after: str
    by: str = ""
    at: str = ""
    reason: str = ""


@dataclass(frozen=True, slots=True)
class Withdrawal:
    """A withdrawn player and the last round he may play: (stage id, round), None when
    he had played nothing before he withdrew."""

    player: str
    last: tuple[str, int] | None = None


def removal_rule(rule: str | None) -> str:
    """A penalty's `rule` as a bare clause number ("FIIM 7.3" and "7.3" alike)."""
    text = (rule or "").strip()
    # federations' names (every registered one, in every language) as a penalty's `rule`
    # may carry them before the clause number
    for prefix in (*federation_prefixes(), "п."):
        if text.upper().startswith(prefix.upper()):
            text = text[len(prefix):].strip()
    return text


def removed_from_tournament(game: Game, profile: RuleProfile) -> list[int]:
    """The seats this game removes from the tournament: a disqualification whose rule is
    the profile's removal clause, or a log's `disqualify` marked `tournament`."""
    clause = profile.removal_from_tournament.value
    seats: set[int] = set()
    if clause is not None:
        for seat, sc in game.scores.items():
            if any(p.kind == "disqualification" and removal_rule(p.rule) == clause
                   for p in sc.penalties):
                seats.add(seat)
        for event in game.log or []:
            if (isinstance(event, dict) and event.get("type") == "disqualify"
                    and event.get("tournament") is True and isinstance(event.get("seat"), int)):
                seats.add(event["seat"])
    return sorted(seats)


def seated_players(seating: Mapping[str, Sequence[str]],
                   replacements: Iterable[Replacement]) -> dict[str, list[str]]:
    """Each seated game's players by seat (seat 1 first) once the replacements on record,
    in their order, are applied; a replacement of somebody no longer in that seat (the
    round was seated again since) changes nothing."""
    out = {code: list(players) for code, players in seating.items()}
    for r in replacements:
        row = out.get(r.game)
        if row is not None and 1 <= r.seat <= len(row) and row[r.seat - 1] == r.before:
            row[r.seat - 1] = r.after
    return out


def check_tournament(games: Sequence[Game], profile: RuleProfile, *,
                     stages: Sequence[str] = (),
                     seating: Mapping[str, Sequence[str]] | None = None,
                     replacements: Sequence[Replacement] = (),
                     withdrawals: Sequence[Withdrawal] = (),
                     names: Mapping[str, str] | None = None) -> list[Problem]:
    """Every problem of the record as a whole (see the module), each on the game, seat
    and field it is about, in the games' order.

    `games`: the protocols as recorded; `stages`: stage ids in the tournament's order;
    `seating`: game id -> players by seat as the seating placed them (a game missing
    from it has no seating on record, a file's game: its protocol is its seating);
    `replacements`: in the order they were made; `names`: player id -> nickname for the
    words (the API keeps the id).
    """
    order = {code: i for i, code in enumerate(stages)}
    names = {} if names is None else names
    expected = seated_players(seating or {}, replacements)

    def point(g: Game) -> Point:
        return (order.get(g.stage, len(order)), g.round)

    def who(player: str) -> Word:
        nick = names.get(player, player)
        return Word(player, nick, nick)

    def placed(g: Game, seat: int, player: str) -> bool:
        """Whether the seating on record put `player` in this seat of `g`."""
        row = expected.get(g.id)
        return row is not None and 1 <= seat <= len(row) and row[seat - 1] == player

    problems: list[Problem] = []

    def add(code: str, g: Game, at_seat: int, clause: str, **params: Any) -> None:
        problems.append(Problem(code, g.id, at_seat, "player", clause,
                                {"round": g.round, "table": g.table, "seat": at_seat,
                                 **params}))

    # removals: the earliest game that removed each player
    removed: dict[str, tuple[Point, Game]] = {}
    for g in games:
        for seat in removed_from_tournament(g, profile):
            player = _player_at(g, seat)
            if player and (player not in removed or point(g) < removed[player][0]):
                removed[player] = (point(g), g)
    last_round = {w.player: (order.get(w.last[0], len(order)), w.last[1])
                  if w.last is not None else None for w in withdrawals}
    first_at: dict[tuple[str, int, str], tuple[Game, int]] = {}
    told: set[tuple[str, int, str]] = set()
    for g in games:
        here = point(g)
        seated = expected.get(g.id)
        for s in sorted(g.seats, key=lambda x: x.seat):
            player = s.player
            if not player:
                continue
            if seated is not None and 1 <= s.seat <= len(seated) and seated[s.seat - 1] != player:
                add("not_seated_here", g, s.seat, SEATED_PLAYS,
                    seated=who(seated[s.seat - 1]), player=who(player))
            key = (g.stage, g.round, player)
            if key in first_at:
                other, other_seat = first_at[key]
                if other.id != g.id:
                    # where the seating put him, his record is right: the other is wrong
                    if key not in told and not placed(other, other_seat, player):
                        told.add(key)
                        add("twice_in_round", other, other_seat, ONE_GAME_A_ROUND,
                            player=who(player), other_table=g.table, other_seat=s.seat)
                    if not placed(g, s.seat, player):
                        add("twice_in_round", g, s.seat, ONE_GAME_A_ROUND, player=who(player),
                            other_table=other.table, other_seat=other_seat)
                    elif placed(other, other_seat, player) and key not in told:
                        # seated at both tables: the seating itself is wrong, say it at both
                        told.add(key)
                        for a, a_seat, b, b_seat in ((other, other_seat, g, s.seat),
                                                     (g, s.seat, other, other_seat)):
                            add("twice_in_round", a, a_seat, ONE_GAME_A_ROUND,
                                player=who(player), other_table=b.table, other_seat=b_seat)
            else:
                first_at[key] = (g, s.seat)
            if player in removed and here > removed[player][0]:
                gone = removed[player][1]
                add("removed_plays", g, s.seat, profile.removal_from_tournament.clause,
                    player=who(player), removed_in=gone.id, removed_round=gone.round,
                    removed_table=gone.table)
            if player in last_round:
                last = last_round[player]
                if last is None or here > last:
                    add("withdrawn_plays", g, s.seat, WITHDRAWN_PLAYS_NO_MORE,
                        player=who(player))
    return problems


def problems_of_game(problems: Iterable[Problem], game: str) -> list[Problem]:
    """The problems that name this game (what a step on it must answer for)."""
    return [p for p in problems if p.game == game]


__all__ = ["CODES", "Game", "ONE_GAME_A_ROUND", "Replacement", "SEATED_PLAYS",
           "WITHDRAWN_PLAYS_NO_MORE", "Withdrawal", "check_tournament", "problems_of_game",
           "removal_rule", "removed_from_tournament", "seated_players"]
