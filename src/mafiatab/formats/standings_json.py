"""The standings output `mafiatab.standings/1` (docs/tournament-file.md).

Written through the typed records below, which are also what `mafiatab schema standings`
describes: the document and its schema come from one definition."""

from __future__ import annotations

import json
from typing import Any

import msgspec

from mafiatab.domain.points import to_json_number
from mafiatab.domain.standings import Row, Standings

FORMAT = "mafiatab.standings/1"


class StandingsRow(msgspec.Struct, kw_only=True):
    """One player's line; points rounded half up to two places (ranking used the exact
    values)."""

    place: int
    player: str
    nickname: str
    games: int
    wins: int
    wins_don_sheriff: int
    first_killed: int
    main: float
    extra: float
    total: float
    best_move: float
    compensation: float
    penalties: float
    #: shares its place with players no criterion and no recorded lot separates
    lot_needed: bool


class ExhibitionRow(msgspec.Struct, kw_only=True):
    """An exhibition player's line: he played, his games counted for everybody else, and
    he has no place."""

    player: str
    nickname: str
    games: int
    wins: int
    main: float
    extra: float
    total: float


class StandingsDocument(msgspec.Struct, kw_only=True):
    """The standings of a tournament (of the stages listed); `exhibition` only when there
    are exhibition players."""

    format: str
    tournament: str
    rules: str
    stages: list[str]
    standings: list[StandingsRow]
    exhibition: list[ExhibitionRow] | msgspec.UnsetType = msgspec.UNSET


def standings_document(s: Standings) -> StandingsDocument:
    return StandingsDocument(
        format=FORMAT, tournament=s.tournament, rules=s.rules, stages=list(s.stages),
        standings=[
            StandingsRow(
                place=r.place, player=r.player, nickname=r.nickname, games=r.games,
                wins=r.wins, wins_don_sheriff=r.wins_don_sheriff,
                first_killed=r.first_killed, main=to_json_number(r.main),
                extra=to_json_number(r.extra), total=to_json_number(r.total),
                best_move=to_json_number(r.best_move),
                compensation=to_json_number(r.compensation),
                penalties=to_json_number(r.penalties), lot_needed=r.lot_needed)
            for r in s.rows
        ],
        exhibition=[_line(r) for r in s.exhibition] if s.exhibition else msgspec.UNSET)


def _line(r: Row) -> ExhibitionRow:
    return ExhibitionRow(player=r.player, nickname=r.nickname, games=r.games, wins=r.wins,
                         main=to_json_number(r.main), extra=to_json_number(r.extra),
                         total=to_json_number(r.total))


def standings_to_dict(s: Standings) -> dict[str, Any]:
    out: dict[str, Any] = msgspec.to_builtins(standings_document(s))
    return out


def dumps_standings(s: Standings) -> str:
    return json.dumps(standings_to_dict(s), ensure_ascii=False, indent=1) + "\n"
