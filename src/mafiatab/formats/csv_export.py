"""Standings and every game's points as CSV: UTF-8 with a byte order mark, so that Excel
opens the Cyrillic right.

Numbers are rounded to two places. By default a comma separates fields and a point is the
decimal mark; `decimal_comma` gives what a Russian-locale Excel expects instead: a
semicolon between fields and a comma in numbers.

A text cell that a spreadsheet would read as a formula (it starts with `=`, `+`, `-`, `@`,
a tab or a carriage return: a nickname "=HYPERLINK(…)") gets a leading apostrophe, the
OWASP advice against CSV injection; numbers (points, places) are never text, so a real
negative number stays a number.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence
from decimal import Decimal

from mafiatab.domain.protocol import Tournament
from mafiatab.domain.standings import Standings
from mafiatab.formats.paper_table import paper_table
from mafiatab.formats.tables import Cell, games_table, standings_table
from mafiatab.rules.profile import RuleProfile

BOM = "\ufeff"
#: how a text that a spreadsheet would take for a formula starts
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def is_formula_like(text: str) -> bool:
    return text.startswith(FORMULA_START)


def neutral_text(text: str) -> str:
    """The text as a spreadsheet shows it, never run: a leading apostrophe if needed."""
    return "'" + text if is_formula_like(text) else text


def table_csv(header: Sequence[str], rows: Sequence[Sequence[Cell]], decimal_comma: bool) -> bytes:
    buf = io.StringIO()
    writer = csv.writer(buf, delimiter=";" if decimal_comma else ",", lineterminator="\r\n")
    writer.writerow([neutral_text(h) for h in header])
    for row in rows:
        out: list[str] = []
        for value in row:
            if value is None:
                out.append("")
            elif isinstance(value, Decimal):
                text = format(value, "f")
                out.append(text.replace(".", ",") if decimal_comma else text)
            elif isinstance(value, int):
                out.append(str(value))
            else:
                out.append(neutral_text(str(value)))
        writer.writerow(out)
    return (BOM + buf.getvalue()).encode("utf-8")


def standings_csv(s: Standings, lang: str, decimal_comma: bool = False) -> bytes:
    return table_csv(*standings_table(s, lang), decimal_comma)


def games_csv(t: Tournament, p: RuleProfile, lang: str, stages: Iterable[str] | None = None,
              decimal_comma: bool = False) -> bytes:
    return table_csv(*games_table(t, p, lang, stages), decimal_comma)


def paper_csv(t: Tournament, lang: str, stages: Iterable[str] | None = None,
              decimal_comma: bool = False) -> bytes:
    """The paper protocol's columns that score nothing (fouls, nominations and votes per
    day, who left, explanations, the protest), a row per fact, in words."""
    return table_csv(*paper_table(t, lang, stages), decimal_comma)
