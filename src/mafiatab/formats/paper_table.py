"""The paper protocol's columns that score nothing, as one table for the spreadsheets.

Fouls per seat, nominations and votes day by day, who left, the judge's explanations (with
the head judge's corrections of that seat beside them), the protest with its decision and
each correction of the head judge (FIIM 9.5, 9.10, 8.9.1; docs/format.md) are kept in every
game; the XLSX workbook and the CSV export carry them as one long table, a row per fact,
in words (never the file's codes: "переголосование", not "revote"), so that a
spreadsheet filters them by game, day or seat.
"""

from __future__ import annotations

from collections.abc import Iterable

from mafiatab.domain.corrections import correction_words, seat_changes
from mafiatab.domain.protocol import Game, Tournament
from mafiatab.formats.tables import Cell

WORDS: dict[str, tuple[str, str]] = {
    "game": ("Игра", "Game"),
    "stage": ("Стадия", "Stage"),
    "round": ("Тур", "Round"),
    "table": ("Стол", "Table"),
    "what": ("Что", "What"),
    "day": ("День", "Day"),
    "seat": ("Место", "Seat"),
    "player": ("Игрок", "Player"),
    "by": ("Кем (место)", "By (seat)"),
    "value": ("Число", "Number"),
    "text": ("Текст", "Text"),
    "fouls": ("фолы", "fouls"),
    "nomination": ("выставление", "nomination"),
    "vote": ("голосование", "vote"),
    "revote": ("переголосование", "revote"),
    "lift": ("голосование за подъём", "lift vote"),
    "left": ("ушёл по голосованию", "voted out"),
    "explanation": ("пояснение судьи", "judge's explanation"),
    "protest": ("протест", "protest"),
    "decision": ("решение по протесту", "decision on the protest"),
    "night_killed": ("убит в первую ночь стрельбы (сломанный стол)",
                     "shot in the first shooting night (broken table)"),
    "video": ("видео", "video"),
    "corrected": ("исправлено главным судьёй", "corrected by the head judge"),
}

PAPER_KEYS = ("game", "stage", "round", "table", "what", "day", "seat", "player", "by",
              "value", "text")


def pw(key: str, lang: str) -> str:
    ru, en = WORDS[key]
    return ru if lang == "ru" else en


def _rows(g: Game, stage: str, names: dict[str, str], lang: str) -> list[list[Cell]]:
    def player(seat: int | None) -> str | None:
        if seat is None:
            return None
        try:
            pid = g.player_at(seat)
        except KeyError:
            return None
        return names.get(pid, pid)

    head: list[Cell] = [g.id, stage, g.round, g.table]
    out: list[list[Cell]] = []

    def row(what: str, day: int | None, seat: int | None, by: int | None, value: int | None,
            text: str | None) -> None:
        out.append([*head, pw(what, lang), day, seat, player(seat), by, value, text])

    for seat, n in sorted(g.fouls.items()):
        row("fouls", None, seat, None, n, None)
    for d in g.days:
        for nom in d.nominations:
            row("nomination", d.day, nom.seat, nom.by, None, None)
        for v in d.votes:
            kind = v.kind if v.kind in ("vote", "revote", "lift") else "vote"
            if v.counts:
                for seat, n in v.counts.items():
                    row(kind, d.day, seat, None, n, None)
            if v.count is not None:
                row(kind, d.day, None, None, v.count, None)
        for seat in d.left:
            row("left", d.day, seat, None, None, None)
    if g.night_killed is not None:
        row("night_killed", None, g.night_killed, None, None, None)
    for seat, text in sorted(g.explanations.items()):
        row("explanation", None, seat, None, None, text)
        # the judge's words never stand alone beside points the head judge changed
        for mark in seat_changes(g.corrections, seat, lang, names):
            row("corrected", None, seat, None, None, mark)
    for c in g.corrections:
        row("corrected", None, None, None, None, f"{c.at}: {correction_words(c, lang, names)}")
    if g.protest is not None:
        p = g.protest
        row("protest", None, p.by, None, None, " ".join(x for x in (p.at, p.text) if x))
        if p.decision:
            row("decision", None, None, None, None, p.decision)
    if g.video is not None:
        row("video", None, None, None, g.video.offset, g.video.url)
    return out


def paper_table(t: Tournament, lang: str, stages: Iterable[str] | None = None
                ) -> tuple[list[str], list[list[Cell]]]:
    """A row per paper fact of every game (of `stages`, when given), in file order."""
    names = {p.id: p.nickname for p in t.players}
    stage_names = {st.id: st.name for st in t.stages}
    wanted = set(stages) if stages is not None else None
    rows: list[list[Cell]] = []
    for g in t.games:
        if wanted is None or g.stage in wanted:
            rows.extend(_rows(g, stage_names.get(g.stage, g.stage), names, lang))
    return [pw(k, lang) for k in PAPER_KEYS], rows


__all__ = ["PAPER_KEYS", "paper_table"]
