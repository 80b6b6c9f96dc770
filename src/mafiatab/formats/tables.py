"""The rows that the spreadsheets hold, shared by XLSX and CSV: the standings, and every
player's points in every game with each part in its own column.

Numbers are `Decimal`s rounded half up to two places (scoring.md 7): the writers put
them in as numbers, so a spreadsheet sums and sorts them. A row per game is exact before
rounding; summed after rounding it may differ from the standings' total by 0.01 where Ci
or K divide, which is why the standings sheet carries its own totals.
"""

from __future__ import annotations

from collections.abc import Iterable
from decimal import Decimal

from mafiatab import i18n
from mafiatab.domain.points import Hundredths, to_decimal
from mafiatab.domain.protocol import Tournament
from mafiatab.domain.scoring import (
    BEST_MOVE,
    COMPENSATION,
    EXTRA,
    PENALTY,
    PROTOCOL,
    PU_EXTRA,
    PU_PROTOCOL,
    WILL,
    WILL_PROTOCOL,
    WIN,
)
from mafiatab.domain.standings import Row, Standings, explain_games
from mafiatab.formats.labels import w
from mafiatab.rules import PROFILES
from mafiatab.rules.profile import RuleProfile

Cell = str | int | Decimal | None

STANDINGS_KEYS = ("place", "player_id", "player", "games", "wins", "wins_don_sheriff",
                  "first_killed", "main", "extra", "total", "best_move", "compensation",
                  "penalties", "lot")
#: the point columns of the standings (numbers with two places)
STANDINGS_POINTS = frozenset({"main", "extra", "total", "best_move", "compensation",
                              "penalties"})
PART_KINDS = (WIN, COMPENSATION, BEST_MOVE, EXTRA, PU_EXTRA, WILL, PROTOCOL, WILL_PROTOCOL,
              PU_PROTOCOL, PENALTY)
GAME_KEYS = ("game", "stage", "round", "table", "seat", "player_id", "player", "role",
             "result", *PART_KINDS, "game_total")


def _header(key: str, lang: str) -> str:
    """Standings columns read as on the screen; a game's parts as in an explanation."""
    if key in ("player_id", "game", "stage", "round", "table", "result", "game_total", "role"):
        return w(key, lang)
    if key == "seat":
        return "Место" if lang == "ru" else "Seat"
    return i18n.t(key, lang)


def _part_header(key: str, lang: str) -> str:
    return i18n.pick(i18n.PART, key, lang) if key in PART_KINDS else _header(key, lang)


def num(value: Hundredths) -> Decimal:
    """Points as a number rounded to two places."""
    return to_decimal(value)


def lot_marks(s: Standings, lang: str) -> dict[str, str]:
    """The lot column of every printout and export: "нужен" for players a lot must still
    separate, "по жребию" for those whose place a recorded lot decided (FIIM 8.8.5,
    FSM 8.7.6), nothing for the rest. A place was decided by the lot when a neighbour has
    the same values in every criterion of the profile's order of places."""
    criteria = PROFILES[s.rules].tie_breakers.value

    def key(r: Row) -> tuple[object, ...]:
        return tuple(getattr(r, c) for c in criteria)

    marks: dict[str, str] = {}
    rows = s.rows
    for i, r in enumerate(rows):
        if r.lot_needed:
            marks[r.player] = i18n.t("lot_needed", lang)
        elif any(0 <= j < len(rows) and key(rows[j]) == key(r) for j in (i - 1, i + 1)):
            marks[r.player] = i18n.t("by_lot", lang)
    return marks


def standings_table(s: Standings, lang: str) -> tuple[list[str], list[list[Cell]]]:
    """The header and one row per player, in the standings' order."""
    rows: list[list[Cell]] = []
    lots = lot_marks(s, lang)
    for r in s.rows:
        rows.append([r.place, r.player, r.nickname, r.games, r.wins, r.wins_don_sheriff,
                     r.first_killed, num(r.main), num(r.extra), num(r.total), num(r.best_move),
                     num(r.compensation), num(r.penalties), lots.get(r.player, "")])
    return [_header(k, lang) for k in STANDINGS_KEYS], rows


def games_table(t: Tournament, p: RuleProfile, lang: str,
                stages: Iterable[str] | None = None) -> tuple[list[str], list[list[Cell]]]:
    """One row per player per game: where, who, and each part of his points."""
    names = {pl.id: pl.nickname for pl in t.players}
    stage_names = {st.id: st.name for st in t.stages}
    rows: list[list[Cell]] = []
    for pid, e in explain_games(t, p, stages):
        parts: dict[str, Hundredths] = {}
        for part in e.parts:
            parts[part.kind] = parts.get(part.kind, 0) + part.points
        rows.append([e.game, stage_names.get(e.stage, e.stage), e.round, e.table, e.seat, pid,
                     names.get(pid, pid), i18n.pick(i18n.ROLE, e.role, lang),
                     i18n.pick(i18n.RESULT, e.result, lang),
                     *(num(parts[k]) if k in parts else None for k in PART_KINDS),
                     num(e.total)])
    return [_part_header(k, lang) for k in GAME_KEYS], rows
