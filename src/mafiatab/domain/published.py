"""A standings table published by another system and imported as it was published
(format 1's optional field `published_results`, written by `import-records --from csv`).

Such a tournament holds no protocols, so mafiatab's own standings of it are empty; what
the federation keeps of it is the table itself. This module reads that free-form field
into a typed table (the numbers exact, as hundredths), so that the tournament's page can
show it and a person's and a club's figures can count the tournament. Anything the field
does not hold, or holds in a shape the importer never writes, is left out of the table
rather than guessed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from typing import Any, Final

from mafiatab.domain.points import Hundredths

FIELD: Final = "published_results"
#: the values a row may carry, as points (text in the file, exact here)
POINT_FIELDS: Final = ("total", "main", "extra", "best_move", "compensation", "penalties")
#: the values a row may carry, as whole numbers
COUNT_FIELDS: Final = ("games", "wins", "first_killed")


@dataclass(frozen=True, slots=True)
class Mark:
    """A value kept as published although it is off today's scales (`--lenient`)."""

    field: str
    ru: str
    en: str


@dataclass(frozen=True, slots=True)
class PublishedRow:
    player: str
    nickname: str
    place: int | None
    points: Mapping[str, Hundredths]
    counts: Mapping[str, int]
    game_points: tuple[Hundredths | None, ...]
    marks: tuple[Mark, ...]

    @property
    def total(self) -> Hundredths | None:
        return self.points.get("total")

    @property
    def games(self) -> int | None:
        return self.counts.get("games")


@dataclass(frozen=True, slots=True)
class PublishedTable:
    #: the file the table came from, as the importer named it
    source: str
    #: the rule profile whose scales the values were checked against
    rules_scales: str
    #: values off those scales were kept, each marked
    lenient: bool
    #: the columns the source had, in its order (`place`, `nickname`, `total`, ...)
    columns: tuple[str, ...]
    rows: tuple[PublishedRow, ...]

    def row_of(self, player: str) -> PublishedRow | None:
        return next((r for r in self.rows if r.player == player), None)

    @property
    def game_columns(self) -> int:
        """How many per-game columns the table has."""
        return max((len(r.game_points) for r in self.rows), default=0)


def hundredths(value: object) -> Hundredths | None:
    """A published number (text such as "3.45", or a JSON number) in hundredths, exactly;
    None for anything that is not a finite number."""
    if isinstance(value, bool) or value is None:
        return None
    try:
        d = Decimal(str(value).strip())
    except InvalidOperation:
        return None
    if not d.is_finite():
        return None
    h = Fraction(d) * 100
    return h.numerator if h.denominator == 1 else h


def _count(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _row(raw: Mapping[str, Any]) -> PublishedRow | None:
    player, nickname = raw.get("player"), raw.get("nickname")
    if not isinstance(player, str) or not player:
        return None
    points = {}
    for name in POINT_FIELDS:
        value = hundredths(raw.get(name)) if name in raw else None
        if value is not None:
            points[name] = value
    counts = {}
    for name in COUNT_FIELDS:
        number = _count(raw.get(name))
        if number is not None:
            counts[name] = number
    per_game = raw.get("game_points")
    games = tuple(hundredths(x) for x in per_game) if isinstance(per_game, list) else ()
    marks = raw.get("marks")
    kept = tuple(Mark(str(m.get("field", "")), str(m.get("ru", "")), str(m.get("en", "")))
                 for m in (marks if isinstance(marks, list) else ()) if isinstance(m, dict))
    return PublishedRow(player, nickname if isinstance(nickname, str) else player,
                        _count(raw.get("place")), points, counts, games, kept)


def published_table(other: Mapping[str, Any]) -> PublishedTable | None:
    """The published table a tournament keeps (its fields beyond format 1's own), or None
    when it keeps none."""
    raw = other.get(FIELD)
    if not isinstance(raw, dict):
        return None
    rows_in = raw.get("rows")
    rows = tuple(r for r in (_row(x) for x in (rows_in if isinstance(rows_in, list) else ())
                             if isinstance(x, dict)) if r is not None)
    columns = raw.get("columns")
    return PublishedTable(
        source=str(raw.get("source") or ""), rules_scales=str(raw.get("rules_scales") or ""),
        lenient=raw.get("lenient") is True,
        columns=tuple(str(c) for c in columns) if isinstance(columns, list) else (),
        rows=rows)


def source_of(other: Mapping[str, Any]) -> str | None:
    """The source's name of a published table the tournament keeps (without reading its
    rows), "—" when the table names none; None when it keeps no table."""
    raw = other.get(FIELD)
    if not isinstance(raw, dict):
        return None
    return str(raw.get("source") or "—")


def places(table: PublishedTable) -> dict[str, int]:
    """Each player's place: as published, or (a table without places) by the order of the
    rows, which is the order the source listed them in."""
    return {r.player: r.place if r.place is not None else i
            for i, r in enumerate(table.rows, start=1)}


def ordered(rows: Sequence[PublishedRow]) -> list[PublishedRow]:
    """The rows by place (rows without one keep their order, after the placed)."""
    return sorted(rows, key=lambda r: (r.place is None, r.place or 0))
