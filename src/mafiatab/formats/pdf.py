"""Printouts as PDF: the official game protocol of FIIM section 9 (blank and filled) and
the standings.

Why fpdf2 (not reportlab): it is pure Python (no C extension to build on a judge's laptop),
embeds a TrueType font as a subset through fontTools, and its cell model is all a form of
fixed boxes needs. Cyrillic must render on a machine with no system fonts, so the font is
DejaVu Sans shipped inside the package (`mafiatab/fonts`, with its licence): the printouts
are part of the light install and need no charting library for their font.

The protocol's front has the FIIM 9.2-9.9 boxes (header, seats and nicknames, roles,
fouls, nominations and votes, best move, winning team, points, extras, the protest field of
FIIM 8.9.1, the judge's signature of 9.11); its back has the explanations of 9.10. Each
protocol is two pages, to print on both sides of one sheet.
"""

from __future__ import annotations

import datetime as dt
import io
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Final, Literal

from fpdf import FPDF
from fpdf.enums import XPos, YPos

from mafiatab import i18n
from mafiatab.domain.corrections import seat_changes, what_words
from mafiatab.domain.paper import dealt_roles, paper_from_log
from mafiatab.domain.points import Hundredths, format_points
from mafiatab.domain.problems import translate_clause
from mafiatab.domain.protocol import Game, Stage, Tournament
from mafiatab.domain.scoring import WIN, score_game
from mafiatab.domain.standings import Standings, pays_compensation
from mafiatab.formats.labels import role_letter, w
from mafiatab.formats.tables import lot_marks
from mafiatab.rules.profile import RuleProfile
from mafiatab.texts import say
from mafiatab.texts.register import REGISTER_PAGE

FONT = "DejaVu"
_FONT_FILES = {"": "DejaVuSans.ttf", "B": "DejaVuSans-Bold.ttf"}
DAYS_ON_FORM = 6


class FontMissing(RuntimeError):
    """The package's DejaVu Sans is not where it is installed (a broken install)."""


@lru_cache(maxsize=1)
def font_dir() -> Path:
    """The folder of DejaVu Sans inside the installed mafiatab package."""
    folder = Path(__file__).resolve().parent.parent / "fonts"
    if all((folder / name).is_file() for name in _FONT_FILES.values()):
        return folder
    raise FontMissing(f"DejaVuSans.ttf not found in {folder}")


def _new_pdf(orientation: str = "P") -> FPDF:
    pdf = FPDF(orientation=orientation, unit="mm", format="A4")
    for style, name in _FONT_FILES.items():
        pdf.add_font(FONT, style, str(font_dir() / name))
    pdf.set_auto_page_break(auto=False)
    pdf.set_margins(12, 12, 12)
    pdf.set_font(FONT, "", 10)
    return pdf


# --- the protocol's content ------------------------------------------------------------


@dataclass(slots=True)
class SeatLine:
    seat: int
    nickname: str = ""
    role: str = ""
    fouls: int = 0
    points: str = ""
    extra: str = ""


@dataclass(slots=True)
class DayLine:
    day: int
    #: "2→5": seat 2 nominated seat 5 (or "5" when the protocol does not say who)
    nominated: list[str] = field(default_factory=list)
    #: one text per round: the vote, the revote, the lift
    votes: list[str] = field(default_factory=list)
    left: list[int] = field(default_factory=list)


@dataclass(slots=True)
class ProtocolSheet:
    """What one printed protocol holds; empty strings are boxes left to fill by hand."""

    tournament: str
    rules: str
    stage: str = ""
    game: str = ""
    round: str = ""
    table: str = ""
    date: str = ""
    judge: str = ""
    seats: list[SeatLine] = field(default_factory=lambda: [SeatLine(i) for i in range(1, 11)])
    days: list[DayLine] = field(default_factory=list)
    first_killed: str = ""
    best_move: list[str] = field(default_factory=list)
    #: "red" / "black" / "draw"; "" on a blank
    winner: str = ""
    explanations: list[str] = field(default_factory=list)
    #: the head judge's corrections, each in words with when, who, what and why
    corrections: list[str] = field(default_factory=list)
    #: FIIM 8.9.1: who filed, when, what (one line); the decision, explained (9.10)
    protest: str = ""
    decision: str = ""
    protest_clause: str = ""
    filled: bool = False
    #: the table judge's sign-in on a blank: the code he types, the address its QR opens
    sign_in_code: str = ""
    sign_in_url: str = ""


def _paper_lines(game: Game, profile: RuleProfile, lang: str
                 ) -> tuple[dict[int, int], list[DayLine]]:
    """Fouls per seat and the days' nominations, votes and leavers (FIIM 9.5): the
    protocol's own columns, or, where it leaves them empty, what its log records."""
    fouls, days = dict(game.fouls), list(game.days)
    roles = dealt_roles(game)
    if game.log and roles is not None and not (fouls or days):
        try:
            fouls, days = paper_from_log(game.log, roles, profile, game.id)
        except (ValueError, KeyError):  # a log that cannot be read prints nothing
            fouls, days = {}, []
    lines = []
    for d in days:
        votes = []
        for v in d.votes:
            if v.kind == "lift":
                votes.append(f"{w('lift', lang)}: {v.count}")
            else:
                text = ", ".join(f"{c}: {n}" for c, n in v.counts.items())
                votes.append(f"{w('revote', lang)}: {text}" if v.kind == "revote" else text)
        lines.append(DayLine(d.day, [f"{n.by}→{n.seat}" if n.by is not None else str(n.seat)
                                     for n in d.nominations], votes, list(d.left)))
    return fouls, lines


def sheet_of_game(t: Tournament, profile: RuleProfile, game: Game, lang: str,
                  zone: dt.tzinfo | None = None) -> ProtocolSheet:
    """A filled protocol: every box from the game's protocol (and log, when it has one).
    The head judge's corrections go on the back, each moment on `zone`'s clock (UTC,
    named, without one), and beside every judge's explanation of a seat they changed."""
    names = {p.id: p.nickname for p in t.players}
    stages = {s.id: s for s in t.stages}
    stage = stages.get(game.stage)
    gs = score_game(game, profile, pays_compensation(stage, profile))
    fouls, days = _paper_lines(game, profile, lang)
    seats: list[SeatLine] = []
    # the judge's own explanations first (FIIM 9.10), then each point with its clause
    explanations: list[str] = []
    for seat, text in sorted(game.explanations.items()):
        explanations.append(
            f"{seat}. {names.get(game.player_at(seat), '') if 1 <= seat <= 10 else ''}: {text}")
        explanations.extend(f"    ⚠ {m}" for m in seat_changes(game.corrections, seat, lang,
                                                              names_by_id(t)))
    for r in sorted(gs.seat_results(), key=lambda x: x.seat):
        win: Hundredths = sum((p.points for p in r.parts if p.kind == WIN), start=0)
        others = [p for p in r.parts if p.kind != WIN]
        extra: Hundredths = sum((p.points for p in others), start=0)
        seats.append(SeatLine(r.seat, names.get(r.player, r.player), role_letter(r.role, lang),
                              fouls.get(r.seat, 0), format_points(win, lang),
                              format_points(extra, lang, sign=True) if others else ""))
        for part in others:
            explanations.append(
                f"{r.seat}. {names.get(r.player, r.player)}: "
                f"{format_points(part.points, lang, sign=True)} — "
                f"{i18n.describe_part(part.kind, part.detail, lang)} "
                f"({translate_clause(part.clause, lang)})")
    fk = game.first_killed
    best = [str(n) for n in game.best_move]
    return ProtocolSheet(
        tournament=t.name, rules=profile.title,
        stage=stage.name if stage else game.stage, game=game.id, round=str(game.round),
        table=str(game.table), date=game.date or "", judge=game.judge or "", seats=seats,
        days=days, first_killed=str(fk) if fk is not None else "—", best_move=best,
        winner=game.result, explanations=explanations,
        corrections=[f"{c.by}, {_moment(c.at, zone, lang)}: "
                     f"{what_words(c, lang, names_by_id(t))}. "
                     f"{'Причина' if lang == 'ru' else 'Reason'}: {c.reason}"
                     for c in game.corrections],
        protest=_protest_line(game, lang),
        decision=game.protest.decision or "" if game.protest is not None else "",
        protest_clause=_protest_clause(profile, lang), filled=True)


def names_by_id(t: Tournament) -> dict[str, str]:
    return {p.id: p.nickname for p in t.players}


def _moment(at: str, zone: dt.tzinfo | None, lang: str) -> str:
    """A correction's moment on the tournament's clock, the zone named."""
    try:
        value = dt.datetime.fromisoformat(at.replace("Z", "+00:00"))
    except ValueError:
        return at
    return i18n.local_time(value, zone or dt.UTC, lang)


def _protest_line(game: Game, lang: str) -> str:
    pr = game.protest
    if pr is None:
        return ""
    who = f"{w('seat', lang)} {pr.by}" if pr.by is not None else ""
    head = ", ".join(x for x in (who, pr.at or "") if x)
    return f"{head}: {pr.text}" if head else pr.text


def _protest_clause(profile: RuleProfile, lang: str) -> str:
    return translate_clause(profile.protest_minutes_after_game.clause, lang)


#: a stage's kind in words, for a stage whose name is only its code
STAGE_KIND_WORDS: Final[dict[str, tuple[str, str]]] = {
    "qualification": ("Отбор", "Qualification"),
    "semifinal": ("Полуфинал", "Semi-final"),
    "final": ("Финал", "Final"),
}


def stage_in_words(stage: Stage | None, code: str, lang: str) -> str:
    """The stage as people call it: its name, or its kind in words when the name is only
    the stage's code ("qual")."""
    if stage is None:
        return code
    if stage.name and stage.name != stage.id:
        return stage.name
    pair = STAGE_KIND_WORDS.get(stage.kind)
    return (pair[0] if lang == "ru" else pair[1]) if pair else stage.name or code


def date_in_words(value: str, lang: str) -> str:
    """An ISO date as the reader writes it (ru: 01.12.2026); other text as it is."""
    try:
        day = dt.date.fromisoformat(value)
    except ValueError:
        return value
    return day.strftime("%d.%m.%Y") if lang == "ru" else day.isoformat()


def blank_sheets(t: Tournament, profile: RuleProfile, stage: str, round_: int, copies: int,
                 lang: str, seated: Sequence[Game] = (), *, today: str = "",
                 sign_in: Mapping[int, tuple[str, str]] | None = None) -> list[ProtocolSheet]:
    """`copies` blank protocols for a round, tables 1..N, header prefilled (FIIM 9.2: the
    tournament, stage, game number, table and date are written before the game). A table
    already seated (a game of `seated` at that table: only its seats, judge and date are
    read) also carries the seated nicknames and the judge (FIIM 9.2-9.3), so that the
    judge checks the players at the table instead of writing them; its date is the game's,
    or `today` (ISO) when the seating gave none. `sign_in` gives a table's judge his
    sign-in code and the address its QR code opens."""
    stages = {s.id: s for s in t.stages}
    nicknames = {p.id: p.nickname for p in t.players}
    at_table = {g.table: g for g in seated if g.stage == stage and g.round == round_}
    sheets = []
    for i in range(1, copies + 1):
        sheet = ProtocolSheet(tournament=t.name, rules=profile.title,
                              stage=stage_in_words(stages.get(stage), stage, lang),
                              round=str(round_), table=str(i),
                              protest_clause=_protest_clause(profile, lang))
        game = at_table.get(i)
        if game is not None:
            sheet.game, sheet.judge = game.id, game.judge or ""
            sheet.date = date_in_words(game.date or today, lang)
            for seat in game.seats:
                if 1 <= seat.seat <= len(sheet.seats) and seat.player:
                    sheet.seats[seat.seat - 1].nickname = nicknames.get(seat.player, seat.player)
        if sign_in and i in sign_in:
            sheet.sign_in_code, sheet.sign_in_url = sign_in[i]
        sheets.append(sheet)
    return sheets


def _qr_png(url: str) -> io.BytesIO:
    """The QR code of `url` as a PNG (segno writes PNG itself, no imaging library)."""
    import segno

    out = io.BytesIO()
    segno.make(url, error="m").save(out, kind="png", scale=8, border=2)
    out.seek(0)
    return out


#: where a blank's sign-in QR code sits: the top right corner, beside the header (mm)
QR_X: Final = 174.0
QR_Y: Final = 6.0
QR_SIZE: Final = 21.0


def _sign_in_corner(pdf: FPDF, s: ProtocolSheet, lang: str) -> None:
    pdf.image(_qr_png(s.sign_in_url), x=QR_X, y=QR_Y, w=QR_SIZE, h=QR_SIZE)
    pdf.set_xy(QR_X - 6, QR_Y + QR_SIZE + 0.3)
    pdf.set_font(FONT, "B", 8)
    pdf.cell(QR_SIZE + 12, 3.6, s.sign_in_code, align="C")
    pdf.set_xy(pdf.l_margin, pdf.t_margin)


# --- drawing -----------------------------------------------------------------------------


def _box(pdf: FPDF, width: float, height: float, text: str, *, bold: bool = False,
         align: str = "C", size: float = 9, border: Literal[0, 1] | str = 1) -> None:
    pdf.set_font(FONT, "B" if bold else "", size)
    pdf.cell(width, height, text, border=border, align=align, new_x=XPos.RIGHT, new_y=YPos.TOP)


def _labelled(pdf: FPDF, label: str, value: str, width: float) -> None:
    """A header field: the label, then the value on a line to write on."""
    pdf.set_font(FONT, "", 9)
    lw = pdf.get_string_width(label + ": ") + 1
    pdf.cell(lw, 7, label + ":", new_x=XPos.RIGHT, new_y=YPos.TOP)
    _box(pdf, width - lw, 7, value, bold=True, align="L", size=10, border="B")


def _front(pdf: FPDF, s: ProtocolSheet, lang: str) -> None:
    pdf.add_page()
    if s.sign_in_url:
        _sign_in_corner(pdf, s, lang)
    pdf.set_font(FONT, "B", 14)
    pdf.cell(0, 8, w("protocol", lang), align="C", new_x=XPos.LMARGIN, new_y=YPos.NEXT)
    pdf.set_font(FONT, "", 8)
    pdf.cell(0, 4, f"{w('rules', lang)}: {i18n.federation(s.rules, lang)}", align="C",
             new_x=XPos.LMARGIN,
             new_y=YPos.NEXT)
    pdf.ln(2)
    corner = bool(s.sign_in_url)  # the QR code takes the row's right end
    _labelled(pdf, w("tournament", lang), s.tournament, 104 if corner else 120)
    pdf.cell(4, 7, "")
    _labelled(pdf, w("date", lang), s.date, 50 if corner else 62)
    pdf.ln(8)
    _labelled(pdf, w("stage", lang), s.stage, 60)
    pdf.cell(4, 7, "")
    _labelled(pdf, w("game_no", lang), s.game, 40)
    pdf.cell(4, 7, "")
    _labelled(pdf, w("round", lang), s.round, 36)
    pdf.cell(4, 7, "")
    _labelled(pdf, w("table", lang), s.table, 38)
    pdf.ln(8)
    _labelled(pdf, w("judge", lang), s.judge, 186)
    pdf.ln(11)

    # seats: No. | nickname | role | fouls 1-4 | points | extra
    cols = [12, 76, 16, 40, 20, 22]
    row_h = 8.5
    heads = [w("seat", lang), w("nickname", lang), w("role", lang), w("fouls", lang),
             w("points", lang), w("extra_points", lang)]
    for width, head in zip(cols, heads, strict=True):
        _box(pdf, width, 7, head, bold=True, size=8.5)
    pdf.ln(7)
    for line in s.seats:
        _box(pdf, cols[0], row_h, str(line.seat), bold=True, size=11)
        _box(pdf, cols[1], row_h, line.nickname, align="L", size=11)
        _box(pdf, cols[2], row_h, line.role, bold=True, size=11)
        for i in range(4):  # one box per foul; a given foul is crossed
            _box(pdf, cols[3] / 4, row_h, "X" if i < line.fouls else "", size=10)
        _box(pdf, cols[4], row_h, line.points, size=11)
        _box(pdf, cols[5], row_h, line.extra, size=11)
        pdf.ln(row_h)
    pdf.ln(4)

    # nominations and votes by day (FIIM 9.5)
    vcols = [12, 52, 104, 18]
    for width, head in zip(vcols, [w("day", lang), w("nominated", lang), w("votes", lang),
                                   w("day_left", lang)], strict=True):
        _box(pdf, width, 6.5, head, bold=True, size=8.5)
    pdf.ln(6.5)
    days = {d.day: d for d in s.days}
    for n in range(1, max(DAYS_ON_FORM, len(s.days)) + 1):
        d = days.get(n)
        nominated = ", ".join(d.nominated) if d else ""
        votes = " | ".join(d.votes) if d else ""
        _box(pdf, vcols[0], 7, str(n), size=10)
        _box(pdf, vcols[1], 7, nominated, align="L", size=9 if len(nominated) < 30 else 7)
        _box(pdf, vcols[2], 7, votes, align="L", size=8.5 if len(votes) < 62 else 6.5)
        _box(pdf, vcols[3], 7, ", ".join(map(str, d.left)) if d else "", size=9)
        pdf.ln(7)
    pdf.ln(4)

    # best move (FIIM 9.6), winning team (9.7)
    _box(pdf, 34, 8, w("best_move", lang) + ":", bold=True, align="L", border=0, size=10)
    _box(pdf, 22, 8, w("best_move_fk", lang), align="R", border=0, size=9)
    _box(pdf, 14, 8, s.first_killed, size=11)
    _box(pdf, 22, 8, w("best_move_named", lang), align="R", border=0, size=9)
    missed = s.filled and s.first_killed == "—"
    for i in range(3):
        value = s.best_move[i] if i < len(s.best_move) else ("—" if s.filled else "")
        _box(pdf, 12, 8, "—" if missed else value, size=11)
    pdf.ln(11)
    _box(pdf, 50, 8, w("winner", lang) + ":", bold=True, align="L", border=0, size=10)
    for team in ("red", "black", "draw"):
        mark = "X" if s.winner == team else ""
        _box(pdf, 6, 6, mark, size=9)
        _box(pdf, 34, 6, " " + w("red_team" if team == "red" else
                                 "black_team" if team == "black" else "draw", lang),
             align="L", border=0, size=10)
    pdf.ln(11)

    # protest (FIIM 8.9.1) and the judge's signature (9.11)
    pdf.set_font(FONT, "B", 10)
    pdf.cell(0, 6, w("protest", lang, clause=s.protest_clause) + ":",
             new_x=XPos.LMARGIN, new_y=YPos.NEXT)
    pdf.set_font(FONT, "", 9)
    if s.protest:
        pdf.multi_cell(0, 5, s.protest, new_x=XPos.LMARGIN, new_y=YPos.NEXT)
    for _ in range(1 if s.protest else 2):
        pdf.cell(0, 7, "", border="B", new_x=XPos.LMARGIN, new_y=YPos.NEXT)
    pdf.ln(6)
    _labelled(pdf, w("judge", lang), s.judge, 100)
    pdf.cell(6, 7, "")
    _labelled(pdf, w("signature", lang), "", 80)


def _back(pdf: FPDF, s: ProtocolSheet, lang: str) -> None:
    pdf.add_page()
    pdf.set_font(FONT, "B", 13)
    pdf.cell(0, 8, w("explanations", lang), new_x=XPos.LMARGIN, new_y=YPos.NEXT)
    pdf.set_font(FONT, "", 8.5)
    head = f"{w('game_no', lang)} {s.game}   {w('round', lang)} {s.round}   " \
           f"{w('table', lang)} {s.table}   {s.tournament}"
    pdf.cell(0, 5, head, new_x=XPos.LMARGIN, new_y=YPos.NEXT)
    pdf.cell(0, 5, w("explanations_hint", lang), new_x=XPos.LMARGIN, new_y=YPos.NEXT)
    if s.sign_in_url:  # the QR code's address, for a phone that reads no QR codes
        pdf.cell(0, 5, ("Вход судьи: " if lang == "ru" else "Judge's sign-in: ")
                 + f"{s.sign_in_url}  ({s.sign_in_code})", new_x=XPos.LMARGIN, new_y=YPos.NEXT)
    pdf.ln(3)
    pdf.set_font(FONT, "", 9.5)
    if s.filled and s.corrections:
        pdf.set_font(FONT, "B", 10)
        pdf.cell(0, 6, ("Исправлено главным судьёй:" if lang == "ru"
                        else "Corrected by the head judge:"),
                 new_x=XPos.LMARGIN, new_y=YPos.NEXT)
        pdf.set_font(FONT, "", 9.5)
        for text in s.corrections:
            pdf.multi_cell(0, 5.2, text, new_x=XPos.LMARGIN, new_y=YPos.NEXT)
            pdf.ln(0.8)
        pdf.ln(2)
    if s.filled:
        for text in s.explanations or [w("no_explanations", lang)]:
            pdf.multi_cell(0, 5.2, text, new_x=XPos.LMARGIN, new_y=YPos.NEXT)
            pdf.ln(0.8)
    bottom = 200.0
    while pdf.get_y() < bottom:
        pdf.cell(0, 8, "", border="B", new_x=XPos.LMARGIN, new_y=YPos.NEXT)
    pdf.ln(6)
    pdf.set_font(FONT, "B", 11)
    pdf.cell(0, 7, w("decision", lang) + ":", new_x=XPos.LMARGIN, new_y=YPos.NEXT)
    if s.decision:
        pdf.set_font(FONT, "", 9.5)
        pdf.multi_cell(0, 5.2, s.decision, new_x=XPos.LMARGIN, new_y=YPos.NEXT)
    while pdf.get_y() < 262:
        pdf.cell(0, 8, "", border="B", new_x=XPos.LMARGIN, new_y=YPos.NEXT)
    pdf.ln(8)
    _labelled(pdf, w("signature", lang), "", 100)


def protocols_pdf(sheets: Sequence[ProtocolSheet], lang: str) -> bytes:
    """The protocols, each front then back (two pages, one double-sided sheet)."""
    pdf = _new_pdf()
    pdf.set_title(w("protocol", lang))
    for s in sheets:
        _front(pdf, s, lang)
        _back(pdf, s, lang)
    return bytes(pdf.output())


# --- standings ---------------------------------------------------------------------------

_STANDING_COLS = (("place", 12), ("player", 51), ("games", 14), ("wins", 16),
                  ("wins_don_sheriff", 14), ("first_killed", 12), ("main", 20), ("extra", 20),
                  ("total", 22), ("best_move", 18), ("compensation", 16), ("penalties", 20),
                  ("lot", 26))


def _standings_header(pdf: FPDF, lang: str) -> None:
    pdf.set_fill_color(230, 230, 230)
    for key, width in _STANDING_COLS:
        pdf.set_font(FONT, "B", 8.5)
        pdf.cell(width, 7, i18n.t(key, lang), border=1, align="C", fill=True,
                 new_x=XPos.RIGHT, new_y=YPos.TOP)
    pdf.ln(7)


def standings_pdf(s: Standings, rules_title: str, lang: str,
                  stage_names: Mapping[str, str] | None = None,
                  awards: Sequence[tuple[str, str]] = ()) -> bytes:
    """The standings on A4 landscape, the header repeated on every page; the stages by
    the names `stage_names` gives them (their ids otherwise); below them the exhibition
    players and the `awards` (each award's words and the player named)."""
    pdf = _new_pdf("L")
    pdf.set_title(s.tournament)
    pdf.add_page()
    pdf.set_font(FONT, "B", 13)
    pdf.cell(0, 8, i18n.t("standings_title", lang, name=s.tournament,
                          rules=i18n.federation(rules_title, lang)),
             new_x=XPos.LMARGIN, new_y=YPos.NEXT)
    pdf.set_font(FONT, "", 8.5)
    stages = ", ".join((stage_names or {}).get(sid, sid) for sid in s.stages)
    pdf.cell(0, 5, i18n.t("stages", lang, stages=stages),
             new_x=XPos.LMARGIN, new_y=YPos.NEXT)
    pdf.ln(2)
    _standings_header(pdf, lang)
    row_h = 6.2
    lots = lot_marks(s, lang)
    for r in s.rows:
        if pdf.get_y() + row_h > pdf.h - 12:
            pdf.add_page()
            _standings_header(pdf, lang)

        def num(v: Hundredths) -> str:
            return format_points(v, lang, fixed=True)

        values = [str(r.place), r.nickname, str(r.games), str(r.wins), str(r.wins_don_sheriff),
                  str(r.first_killed), num(r.main), num(r.extra), num(r.total),
                  num(r.best_move), num(r.compensation), num(r.penalties),
                  lots.get(r.player, "")]
        for (key, width), value in zip(_STANDING_COLS, values, strict=True):
            pdf.set_font(FONT, "B" if key == "total" else "", 9)
            pdf.cell(width, row_h, value, border=1, align="L" if key == "player" else "R",
                     new_x=XPos.RIGHT, new_y=YPos.TOP)
        pdf.ln(row_h)
    if s.k.applies:
        pdf.ln(2)
        pdf.set_font(FONT, "", 8.5)
        pdf.cell(0, 5, i18n.t("k_applied", lang, k=format_points(s.k.k * 100, lang, fixed=True),
                              games=s.k.games,
                              side=i18n.pick(i18n.TEAM, s.k.heavy_side or "", lang),
                              n=s.k.heavy_wins), new_x=XPos.LMARGIN, new_y=YPos.NEXT)
    notes = []
    if s.exhibition:
        notes.append(say(REGISTER_PAGE, "exhibition_players", lang,
                         names=", ".join(r.nickname for r in s.exhibition)))
    notes += [f"{what}: {who}" for what, who in awards]
    if notes:
        pdf.ln(2)
        pdf.set_font(FONT, "", 9)
        for note in notes:
            pdf.cell(0, 5, note, new_x=XPos.LMARGIN, new_y=YPos.NEXT)
    return bytes(pdf.output())
