"""Standings and every game's points as an XLSX workbook (openpyxl).

Three sheets: the standings as ranked, one row per player per game with each part of his
points, and the paper protocol's columns that score nothing (fouls, nominations and votes
per day, explanations, the protest: `formats.paper_table`), a row per fact, in words.
Points are written as numbers rounded to two places with a two-place number
format, so the spreadsheet sums and sorts them; ids and names are text. A text that
starts like a formula (`=`, `+`, `-`, `@`, a tab, a carriage return) is stored as a string
cell with Excel's quote prefix, so a nickname "=HYPERLINK(…)" is shown, never evaluated;
numbers stay numbers.
"""

from __future__ import annotations

import io
from collections.abc import Iterable, Sequence
from decimal import Decimal

from openpyxl import Workbook
from openpyxl.styles import Font
from openpyxl.utils import get_column_letter
from openpyxl.worksheet.worksheet import Worksheet

from mafiatab.domain.protocol import Tournament
from mafiatab.domain.standings import Standings
from mafiatab.formats.csv_export import is_formula_like
from mafiatab.formats.labels import w
from mafiatab.formats.paper_table import paper_table
from mafiatab.formats.tables import Cell, games_table, standings_table
from mafiatab.rules.profile import RuleProfile
from mafiatab.texts import say
from mafiatab.texts.register import REGISTER_PAGE

POINTS_FORMAT = "0.00"


def _fill(ws: Worksheet, header: Sequence[str], rows: Sequence[Sequence[Cell]]) -> None:
    ws.append(list(header))
    for cell in ws[1]:
        cell.font = Font(bold=True)
    widths = [len(h) for h in header]
    for row in rows:
        ws.append(list(row))
        for i, value in enumerate(row):
            widths[i] = max(widths[i], len(str(value)) if value is not None else 0)
    for line in ws.iter_rows():
        for cell in line:
            if isinstance(cell.value, str) and is_formula_like(cell.value):
                cell.data_type = "s"  # openpyxl took it for a formula
                cell.quotePrefix = True
    for i, width in enumerate(widths, start=1):
        ws.column_dimensions[get_column_letter(i)].width = min(max(width + 2, 6), 40)
    for column in ws.iter_cols(min_row=2):
        for cell in column:
            if isinstance(cell.value, Decimal):
                cell.number_format = POINTS_FORMAT
    ws.freeze_panes = "A2"


def workbook_bytes(s: Standings, t: Tournament, p: RuleProfile, lang: str,
                   stages: Iterable[str] | None = None,
                   awards: Sequence[tuple[str, str]] = ()) -> bytes:
    """The workbook: standings first, then the games' points, then the paper columns;
    `awards` (each award's words and the player named), with the exhibition players,
    on a sheet of their own when there are any."""
    wb = Workbook()
    ws = wb.active
    assert ws is not None  # a new workbook has its first sheet
    ws.title = w("standings_sheet", lang)
    _fill(ws, *standings_table(s, lang))
    aside = [(say(REGISTER_PAGE, "exhibition", lang), r.nickname) for r in s.exhibition]
    if awards or aside:
        _fill(wb.create_sheet(say(REGISTER_PAGE, "awards", lang)),
              [say(REGISTER_PAGE, "awards", lang), say(REGISTER_PAGE, "player", lang)],
              [list(x) for x in [*awards, *aside]])
    _fill(wb.create_sheet(w("games_sheet", lang)), *games_table(t, p, lang, stages))
    _fill(wb.create_sheet("Протоколы" if lang == "ru" else "Protocols"),
          *paper_table(t, lang, stages))
    buf = io.BytesIO()
    wb.save(buf)
    return buf.getvalue()
