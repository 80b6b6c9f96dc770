"""Standings and every game's points as CSV: UTF-8 with a byte order mark, so that Excel
opens the Cyrillic right.

Numbers are rounded to two places. By default a comma separates fields and a point is the
decimal mark; `decimal_comma` gives what a Russian-locale Excel expects instead: a
semicolon between fields and a comma in numbers.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence
from decimal import Decimal

from mafiatab.domain.protocol import Tournament
from mafiatab.domain.standings import Standings
from mafiatab.formats.tables import Cell, games_table, standings_table
from mafiatab.rules.profile import RuleProfile

BOM = "\ufeff"


def _csv(header: Sequence[str], rows: Sequence[Sequence[Cell]], decimal_comma: bool) -> bytes:
    buf = io.StringIO()
    writer = csv.writer(buf, delimiter=";" if decimal_comma else ",", lineterminator="\r\n")
    writer.writerow(header)
    for row in rows:
        out: list[str] = []
        for value in row:
            if value is None:
                out.append("")
            elif isinstance(value, Decimal):
                text = format(value, "f")
                out.append(text.replace(".", ",") if decimal_comma else text)
            else:
                out.append(str(value))
        writer.writerow(out)
    return (BOM + buf.getvalue()).encode("utf-8")


def standings_csv(s: Standings, lang: str, decimal_comma: bool = False) -> bytes:
    return _csv(*standings_table(s, lang), decimal_comma)


def games_csv(t: Tournament, p: RuleProfile, lang: str, stages: Iterable[str] | None = None,
              decimal_comma: bool = False) -> bytes:
    return _csv(*games_table(t, p, lang, stages), decimal_comma)
