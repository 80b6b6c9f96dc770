"""A published standings table (CSV with a header row) into format 1.

Federations and clubs publish a tournament's table, not its protocols: a place, a
nickname, the total, often main and extra points, the games played, sometimes a column
per game. Format 1 is made of protocols, so what such a table can give it is the players
(nickname, club, the number of participants) and the published results themselves, which
the tournament keeps as the optional field `published_results` (docs/importers.md):
exactly as published (numbers as text, never floats), one row per player, with the
column names they came from. No game can be made up from a table: the report says so.

Every value is checked against today's scales of the chosen rules (the rule profile's
numbers, see `Scales`): points in hundredths, main points between 0 and what the games
played can give, extras within what a game can give, `total = main + extra`, per-game
points that add up to the total, places in the order of the totals. A table that breaks
them is refused with every problem listed; `lenient` keeps such values as published,
each marked (`marks` of the row, and a `marked` line of the report), for historical
tables kept under the scales of their time.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from typing import Any, Final

from mafiatab.domain.problems import Problem, Refused
from mafiatab.domain.protocol import Player, Tournament
from mafiatab.formats.crosswalk import Crosswalk, PlayerIds
from mafiatab.formats.import_report import ImportReport
from mafiatab.formats.import_report import ru_number as R
from mafiatab.rules import get_profile
from mafiatab.rules.profile import ExtraLimits, RuleProfile
from mafiatab.texts.files import FILES

FIELD: Final = "published_results"
SYSTEM: Final = "csv"
HUNDREDTH: Final = Decimal("0.01")

#: header words (normalised: lower case, ё as е, dots as spaces) -> the column's meaning
ALIASES: Final[dict[str, tuple[str, ...]]] = {
    "place": ("место", "м", "№", "#", "n", "no", "place", "rank", "pos", "position", "позиция"),
    "nickname": ("игрок", "ник", "никнейм", "псевдоним", "участник", "имя", "nickname",
                 "nick", "player", "name"),
    "club": ("клуб", "club"),
    "id": ("id", "ид", "id игрока", "player id"),
    "total": ("итого", "итог", "всего", "сумма", "баллы", "очки", "total", "points",
              "score", "sum", "σ", "∑"),
    "main": ("основные", "основной", "основной балл", "основные баллы", "осн", "main",
             "main points", "base"),
    "extra": ("доп", "допы", "доп баллы", "дополнительные", "дополнительные баллы",
              "extra", "extras", "extra points", "bonus"),
    "games": ("игры", "игр", "кол-во игр", "количество игр", "сыграно", "games", "played",
              "gp"),
    "wins": ("победы", "побед", "wins", "w"),
    "best_move": ("лх", "лучший ход", "best move", "bm"),
    "compensation": ("ci", "компенсация", "комп", "compensation"),
    "penalties": ("штрафы", "штраф", "penalties", "penalty"),
    "first_killed": ("пу", "первый убиенный", "первые убиенные", "first killed", "fk"),
}
_BY_ALIAS: Final = {alias: name for name, words in ALIASES.items() for alias in words}
_PER_GAME = re.compile(r"^(?:игра|и|тур|game|g|round|r)?\s*(\d{1,3})$")
NUMBER_FIELDS: Final = ("total", "main", "extra", "best_move", "compensation", "penalties")
COUNT_FIELDS: Final = ("place", "games", "wins", "first_killed")
WORDS: Final = {
    "place": ("место", "place"), "nickname": ("ник", "nickname"), "club": ("клуб", "club"),
    "id": ("id", "id"), "total": ("итого", "total"), "main": ("основные", "main"),
    "extra": ("доп. баллы", "extra"), "games": ("игры", "games"), "wins": ("победы", "wins"),
    "best_move": ("ЛХ", "best move"), "compensation": ("Ci", "Ci"),
    "penalties": ("штрафы", "penalties"), "first_killed": ("ПУ", "first killed"),
    "game_points": ("баллы за игры", "per-game points"),
}


class PointsCsvError(Refused):
    """A table that cannot be read, or whose values break today's scales."""

    def __init__(self, code: str, report: ImportReport | None = None, **params: Any) -> None:
        super().__init__([Problem(code, params=params, texts=FILES)])
        self.ru, self.en, self.report = self.message("ru"), self.message("en"), report


def _hundredths(value: int) -> Decimal:
    return Decimal(value) / 100


@dataclass(frozen=True, slots=True)
class Scales:
    """Today's bounds of one game's points under a rule profile (in points).

    - main: 0 .. a win plus the largest Ci (scoring.md 2, 5);
    - extra: from the floor (the team-loss penalty, the critical disqualification and the
      largest negative extra together) to the ceiling (the largest best move plus the
      largest judge's extra a player can get in one game: FIIM's team cap, or FSM's
      largest scale value with the first killed's extra, will, protocol and written
      protocol).
    """

    main_max: Decimal
    extra_min: Decimal
    extra_max: Decimal
    clause: str

    @classmethod
    def of(cls, p: RuleProfile) -> Scales:
        best = max(p.best_move_points.value)
        if p.extra_limits.value is ExtraLimits.BY_TEAM:
            judge = max(p.extra_max_winner.value, p.extra_max_loser.value)
        else:
            judge = (max(p.extra_positive_scale.value, default=0)
                     + max(p.pu_extra_scale.value, default=0)
                     + max(p.will_scale.value, default=0)
                     + max(p.protocol_scale.value, default=0)
                     + sum(p.pu_protocol_black_correct.value))
        negative = min(p.extra_negative_scale.value, default=0)
        if p.penalty_game_action_fixed.value is not None:
            negative = min(negative, p.penalty_game_action_fixed.value)
        floor = (p.penalty_team_loss.value + p.penalty_disqualification_critical.value
                 + negative)
        clause = f"{p.win_points.clause}; {p.comp_max.clause}; {p.best_move_points.clause}; " \
                 f"{p.extra_limits.clause}"
        return cls(_hundredths(p.win_points.value + p.comp_max.value), _hundredths(floor),
                   _hundredths(best + judge), clause)


def _norm(header: str) -> str:
    text = header.strip().casefold().replace("ё", "е").replace(".", " ").strip(" :")
    return re.sub(r"\s+", " ", text)


def _decode(data: bytes) -> tuple[str, str]:
    for encoding in ("utf-8-sig", "cp1251"):
        try:
            return data.decode(encoding), encoding
        except UnicodeDecodeError:
            continue
    raise PointsCsvError("points_encoding")


def _dialect(text: str) -> type[csv.Dialect] | csv.Dialect:
    sample = text[:8192]
    try:
        return csv.Sniffer().sniff(sample, delimiters=",;\t")
    except csv.Error:
        first = sample.splitlines()[0] if sample else ""
        delim = max(",;\t", key=first.count)

        class Guessed(csv.excel):
            delimiter = delim

        return Guessed


def _number(text: str) -> Decimal | None:
    """A published number: "2,45", "2.45", "−0,5", "+1"; None when empty."""
    s = text.strip().replace("\u2212", "-").replace("\u00a0", "").replace(" ", "")
    if not s or s in ("-", "—", "–"):
        return None
    if "," in s and "." not in s:
        s = s.replace(",", ".")
    try:
        d = Decimal(s)
    except InvalidOperation:
        raise ValueError(text) from None
    if not d.is_finite():
        raise ValueError(text)
    return d


def _plain(d: Decimal) -> str:
    """A number as text, exactly as published (no float on the way)."""
    text = format(d, "f")
    return text


@dataclass(slots=True)
class _Row:
    line: int
    nickname: str
    club: str | None
    external: str | None
    values: dict[str, Decimal] = field(default_factory=dict)
    counts: dict[str, int] = field(default_factory=dict)
    game_points: list[Decimal | None] = field(default_factory=list)
    marks: list[dict[str, str]] = field(default_factory=list)


class _Table:
    def __init__(self, rows: list[list[str]], report: ImportReport) -> None:
        self.report = report
        header = rows[0]
        self.columns: dict[int, str] = {}
        self.per_game: list[tuple[int, int]] = []  # (column index, game number)
        for i, raw in enumerate(header):
            name = _norm(raw)
            if name in _BY_ALIAS and _BY_ALIAS[name] not in self.columns.values():
                self.columns[i] = _BY_ALIAS[name]
                ru, en = WORDS[_BY_ALIAS[name]]
                report.mapped("header", f"столбец «{raw.strip()}» → {ru}",
                              f"column '{raw.strip()}' -> {en}")
            elif (m := _PER_GAME.match(name)) is not None:
                self.per_game.append((i, int(m.group(1))))
            elif name:
                report.not_mapped("header", f"столбец «{raw.strip()}» не распознан — не "
                                  "переносится", f"column '{raw.strip()}' is not recognised: "
                                  "not carried over")
        if self.per_game:
            report.mapped("header", f"столбцы игр: {len(self.per_game)} → баллы за игры",
                          f"{len(self.per_game)} per-game columns -> per-game points")
        if "nickname" not in self.columns.values():
            raise PointsCsvError("points_no_nickname", report)
        if not set(self.columns.values()) & {"total", "main", "extra"} and not self.per_game:
            raise PointsCsvError("points_no_points", report)
        self.body = rows[1:]

    def read(self) -> tuple[list[_Row], list[tuple[str, str, str]]]:
        rows: list[_Row] = []
        errors: list[tuple[str, str, str]] = []
        for offset, cells in enumerate(self.body, start=2):
            if not any(c.strip() for c in cells):
                continue
            where = f"row {offset}"
            get = {name: (cells[i].strip() if i < len(cells) else "")
                   for i, name in self.columns.items()}
            nick = get.get("nickname", "")
            if not nick:
                errors.append((where, "нет ника", "no nickname"))
                continue
            row = _Row(offset, nick, get.get("club") or None, get.get("id") or None)
            for name in NUMBER_FIELDS + COUNT_FIELDS:
                text = get.get(name, "")
                if not text:
                    continue
                try:
                    value = _number(text)
                except ValueError:
                    ru, en = WORDS[name]
                    errors.append((where, f"{ru}: «{text}» — не число",
                                   f"{en}: '{text}' is not a number"))
                    continue
                if value is None:
                    continue
                if name in COUNT_FIELDS:
                    if value != value.to_integral_value() or value < 0:
                        ru, en = WORDS[name]
                        errors.append((where, f"{ru}: «{text}» — не целое ≥ 0",
                                       f"{en}: '{text}' is not a whole number ≥ 0"))
                        continue
                    row.counts[name] = int(value)
                else:
                    row.values[name] = value
            for i, _n in sorted(self.per_game, key=lambda x: x[1]):
                text = cells[i].strip() if i < len(cells) else ""
                try:
                    row.game_points.append(_number(text))
                except ValueError:
                    errors.append((where, f"игра {_n}: «{text}» — не число",
                                   f"game {_n}: '{text}' is not a number"))
            rows.append(row)
        return rows, errors


def _scale_problems(row: _Row, scales: Scales) -> list[tuple[str, str, str]]:
    """(field, ru, en) for each value off today's scales."""
    out: list[tuple[str, str, str]] = []
    v = row.values
    for name, value in v.items():
        if value != value.quantize(HUNDREDTH):
            ru, en = WORDS[name]
            out.append((name, f"{ru} {R(value)}: не в сотых (scoring.md 7)",
                        f"{en} {value}: not in hundredths (scoring.md 7)"))
    for n, point in enumerate(row.game_points, start=1):
        if point is not None and point != point.quantize(HUNDREDTH):
            out.append(("game_points", f"игра {n}: {R(point)} не в сотых (scoring.md 7)",
                        f"game {n}: {point} is not in hundredths (scoring.md 7)"))
    games = row.counts.get("games")
    if games is None and row.game_points:
        games = sum(1 for x in row.game_points if x is not None)
    if games is not None:
        if "main" in v and not 0 <= v["main"] <= games * scales.main_max:
            out.append(("main", f"основные {R(v['main'])} вне 0…{R(games * scales.main_max)} для "
                        f"(игр: {games}; {scales.clause})", f"main {v['main']} is outside "
                        f"0..{games * scales.main_max} (games: {games}; {scales.clause})"))
        if "extra" in v and not games * scales.extra_min <= v["extra"] <= (
            games * scales.extra_max
        ):
            out.append(("extra", f"доп. баллы {R(v['extra'])} вне {R(games * scales.extra_min)}…"
                        f"{R(games * scales.extra_max)} (игр: {games}; {scales.clause})",
                        f"extra {v['extra']} is outside {games * scales.extra_min}.."
                        f"{games * scales.extra_max} (games: {games}; {scales.clause})"))
        wins = row.counts.get("wins")
        if wins is not None and wins > games:
            out.append(("wins", f"побед больше, чем игр: {wins} > {games}",
                        f"more wins than games: {wins} > {games}"))
    low, high = scales.extra_min, scales.main_max + scales.extra_max
    for n, point in enumerate(row.game_points, start=1):
        if point is not None and not low <= point <= high:
            out.append(("game_points", f"игра {n}: {R(point)} вне {R(low)}…{R(high)} за игру",
                        f"game {n}: {point} is outside {low}..{high} for one game"))
    if {"total", "main", "extra"} <= v.keys() and abs(v["main"] + v["extra"] - v["total"]) > (
        HUNDREDTH
    ):
        out.append(("total", f"итого {R(v['total'])} ≠ основные {R(v['main'])} + доп. {R(v['extra'])}",
                    f"total {v['total']} ≠ main {v['main']} + extra {v['extra']}"))
    listed = [x for x in row.game_points if x is not None]
    if "total" in v and listed and abs(sum(listed) - v["total"]) > HUNDREDTH * len(listed):
        out.append(("game_points", f"сумма баллов за игры {R(sum(listed))} ≠ итого {R(v['total'])}",
                    f"the per-game points add up to {sum(listed)}, not the total {v['total']}"))
    return out


def read_points_csv(data: bytes, *, rules: str, name: str, lenient: bool = False,
                    file: str = "table.csv", crosswalk: Crosswalk | None = None,
                    known: Iterable[Player] = ()) -> tuple[Tournament, ImportReport]:
    """A standings table into a format-1 tournament with its published results.

    Raises `PointsCsvError` (with the report so far) for a table that cannot be read or,
    without `lenient`, whose values are off today's scales.
    """
    report = ImportReport(SYSTEM, [file])
    text, encoding = _decode(data)
    report.mapped("file", f"кодировка {encoding}", f"encoding {encoding}")
    rows = [r for r in csv.reader(io.StringIO(text), _dialect(text))]
    rows = [r for r in rows if any(c.strip() for c in r)]
    if not rows:
        raise PointsCsvError("points_empty", report)
    table = _Table(rows, report)
    parsed, errors = table.read()
    scales = Scales.of(get_profile(rules))
    problems: list[tuple[str, str, str]] = list(errors)
    for row in parsed:
        for fld, ru, en in _scale_problems(row, scales):
            where = f"row {row.line} ({row.nickname})"
            if lenient:
                row.marks.append({"field": fld, "ru": ru, "en": en})
                report.marked(where, f"оставлено как опубликовано: {ru}",
                              f"kept as published: {en}")
            else:
                problems.append((where, ru, en))
    _check_places(parsed, lenient, report, problems)
    if problems:
        for where, ru, en in problems:
            report.not_mapped(where, ru, en)
        raise PointsCsvError("points_refused", report, count=len(problems))
    cw = Crosswalk() if crosswalk is None else crosswalk.merged(Crosswalk())
    ids = PlayerIds(cw, known)
    results: list[dict[str, Any]] = []
    for row in parsed:
        pid = ids.resolve(SYSTEM, row.external, row.nickname, row.club)
        entry: dict[str, Any] = {"player": pid, "nickname": row.nickname}
        for name_ in COUNT_FIELDS:
            if name_ in row.counts:
                entry[name_] = row.counts[name_]
        for name_ in NUMBER_FIELDS:
            if name_ in row.values:
                entry[name_] = _plain(row.values[name_])
        if row.game_points:
            entry["game_points"] = [None if x is None else _plain(x) for x in row.game_points]
        if row.marks:
            entry["marks"] = row.marks
        results.append(entry)
    players = ids.listed()
    cw = cw.only(p.id for p in players)
    for p in players:
        how = {"crosswalk": ("по таблице соответствия", "by the crosswalk"),
               "nickname": ("по нику известного игрока", "by a known nickname"),
               "new": ("новый id по нику", "a new id from the nickname")}[ids.how[p.id]]
        report.mapped(f"player {p.id}", how[0], how[1])
    report.mapped("file", f"строк: {len(results)} → игроки и опубликованные результаты "
                  f"({FIELD})", f"rows: {len(results)} -> players and the published results "
                  f"({FIELD})")
    report.not_mapped("file", "протоколов игр в таблице нет: игры, места за столом, роли и "
                      "результаты игр не переносятся; турнирная таблица mafiatab по этому "
                      "файлу пуста, опубликованная хранится в published_results",
                      "a table holds no game protocols: games, seats, roles and results "
                      "are not carried over; mafiatab's standings of this file are empty, "
                      "the published ones are kept in published_results")
    other: dict[str, Any] = {FIELD: {"source": file, "rules_scales": rules,
                                     "lenient": lenient,
                                     "columns": _columns(table), "rows": results}}
    if cw.as_json():
        other["crosswalk"] = cw.as_json()
    t = Tournament(name=name, rules=rules, participants=len(players), players=players,
                   stages=[], games=[], other=other)
    return t, report


def _columns(table: _Table) -> list[str]:
    cols = [table.columns[i] for i in sorted(table.columns)]
    if table.per_game:
        cols.append("game_points")
    return cols


def _check_places(rows: Sequence[_Row], lenient: bool, report: ImportReport,
                  problems: list[tuple[str, str, str]]) -> None:
    """Places in the order of the totals: a higher place never has a smaller total."""
    ranked = [r for r in rows if "place" in r.counts and "total" in r.values]
    ranked.sort(key=lambda r: r.counts["place"])
    for a, b in zip(ranked, ranked[1:], strict=False):
        if b.values["total"] > a.values["total"] and b.counts["place"] > a.counts["place"]:
            where = f"row {b.line} ({b.nickname})"
            ru = (f"место {b.counts['place']} с итогом {R(b.values['total'])} выше, чем у места "
                  f"{a.counts['place']} ({a.values['total']})")
            en = (f"place {b.counts['place']} has a total {b.values['total']} above place "
                  f"{a.counts['place']}'s {a.values['total']}")
            if lenient:
                b.marks.append({"field": "place", "ru": ru, "en": en})
                report.marked(where, f"оставлено как опубликовано: {ru}",
                              f"kept as published: {en}")
            else:
                problems.append((where, ru, en))
