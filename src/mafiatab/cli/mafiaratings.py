"""`mafiatab import-game --from mafiaratings FILE [--out F]`: a recorded game as a format-1 log.

Registered by `mafiatab.cli` (the package) with one line. The game (or, with `--tournament`, a whole
tournament file holding it, ready for `mafiatab check`) goes to `--out` or standard
output; the report (what was carried over, what the log could not take, the rule that
refused an event) goes to standard error. Exit codes: 0 converted and replayed, 1 a
record the log refuses or cannot read, 2 a wrong command line.
"""

from __future__ import annotations

import json
import sys
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from mafiatab.cli.words import rules_help
from mafiatab.formats.mafiaratings import RecordError, convert_game, tournament_of
from mafiatab.rules import PROFILES

err = Console(stderr=True, highlight=False, soft_wrap=True)

TEXT: dict[str, tuple[str, str]] = {
    "mapped": ("Перенесено:", "Mapped:"),
    "unmapped": ("Не перенесено:", "Not mapped:"),
    "refused": ("Лог не проходит правила:", "The log breaks the rules:"),
    "cannot_read": ("Не удалось прочитать {file}: {detail}", "Cannot read {file}: {detail}"),
    "not_a_game": ("{file}: это не игра mafiaratings: {detail}",
                   "{file}: not a mafiaratings game: {detail}"),
    "written": ("Записано: {file}", "Written: {file}"),
    "bad_source": ("--from: известен только mafiaratings", "--from: only mafiaratings is known"),
    "bad_rules": ("--rules: одни из {choices}", "--rules: one of {choices}"),
}


class Source(StrEnum):
    mafiaratings = "mafiaratings"


def _t(key: str, lang: str, **params: str) -> str:
    ru, en = TEXT[key]
    return (ru if lang == "ru" else en).format(**params)


def import_game_command(
    file: Annotated[Path, typer.Argument(help="the recorded game (JSON) / запись игры")],
    source: Annotated[Source, typer.Option("--from", help="mafiaratings")] = Source.mafiaratings,
    out_file: Annotated[Path | None, typer.Option("--out", help="where to write / куда")] = None,
    rules: Annotated[str, typer.Option("--rules", help=rules_help())] = "fiim2018",
    as_tournament: Annotated[bool, typer.Option(
        "--tournament", help="a whole tournament file / целый файл турнира")] = False,
    game_id: Annotated[str | None, typer.Option("--id", help="the game's id / номер")] = None,
    lang: Annotated[str, typer.Option("--lang", help="ru (default) or en")] = "ru",
) -> None:
    """A game recorded elsewhere as a format-1 game log / игра из другой системы как лог."""
    if rules not in PROFILES:
        err.print(_t("bad_rules", lang, choices=", ".join(sorted(PROFILES))), markup=False)
        raise typer.Exit(2)
    profile = PROFILES[rules]
    try:
        record = json.loads(file.read_bytes())
    except (OSError, ValueError) as e:
        err.print(_t("cannot_read", lang, file=str(file), detail=str(e)), markup=False)
        raise typer.Exit(1) from None
    if not isinstance(record, dict):
        err.print(_t("not_a_game", lang, file=str(file), detail="not an object"), markup=False)
        raise typer.Exit(1)
    try:
        conversion = convert_game(record, profile, game_id)
    except RecordError as e:
        err.print(_t("not_a_game", lang, file=str(file), detail=e.message(lang)), markup=False)
        raise typer.Exit(1) from None
    doc = tournament_of(conversion, profile) if as_tournament else conversion.game
    text = json.dumps(doc, ensure_ascii=False, indent=1) + "\n"
    if out_file is None:
        sys.stdout.write(text)
    else:
        out_file.write_text(text, encoding="utf-8")
    err.print(_t("mapped", lang), markup=False)
    for note in conversion.mapped:
        err.print("  • " + note.text(lang), markup=False)
    if conversion.unmapped:
        err.print(_t("unmapped", lang), markup=False)
        for note in conversion.unmapped:
            err.print("  • " + note.text(lang), markup=False)
    if conversion.problems:
        err.print(_t("refused", lang), markup=False)
        for problem in conversion.problems:
            err.print("  • " + problem.message(lang), markup=False)
    if out_file is not None:
        err.print(_t("written", lang, file=str(out_file)), markup=False)
    if not conversion.ok:
        raise typer.Exit(1)
