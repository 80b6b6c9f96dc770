"""Commands for data from other systems and the tournament archive.

- `mafiatab import-records --from polemica|csv FILE... --out T.json`: other systems'
  records into one format-1 tournament, checked like any file, with the report of what
  was mapped and what could not be (`--report R.json` keeps it);
- `mafiatab db export-archive ID --out F.zip` / `mafiatab db import-archive F.zip`: a
  tournament of the database as one archive, and back.

Registered by `mafiatab.cli` (the package) with one line each. Exit codes as everywhere: 1 refused or
failed, 2 a wrong command line.
"""

from __future__ import annotations

import json
import sys
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer
from rich.console import Console

from mafiatab.cli.words import rules_help
from mafiatab.formats.import_report import MARKED, NOT_MAPPED, ImportReport

out = Console(highlight=False, width=None if sys.stdout.isatty() else 160)
err = Console(stderr=True, highlight=False, soft_wrap=True)

TEXT: dict[str, tuple[str, str]] = {
    "cannot_read": ("Не удалось прочитать {file}: {detail}", "Cannot read {file}: {detail}"),
    "not_json": ("{file}: не JSON ({detail})", "{file}: not JSON ({detail})"),
    "not_records": ("{file}: {detail}", "{file}: {detail}"),
    "bad_crosswalk": ("--crosswalk {file}: {detail}", "--crosswalk {file}: {detail}"),
    "lenient_csv": ("--lenient есть только у --from csv", "--lenient is for --from csv only"),
    "no_rules": ("--rules: {value!r} ({choices})", "--rules: {value!r} ({choices})"),
    "nothing": ("Ничего не перенесено: в файлах нет ни одной игры или строки, которую можно "
                "перенести.", "Nothing imported: the files hold no game or row that can be "
                "carried over."),
    "written": ("Записано в {file}: игр — {games}, игроков — {players}.",
                "Written to {file}: games: {games}, players: {players}."),
    "summary": ("Перенесено: {mapped}; не перенесено: {not_mapped}; помечено: {marked}.",
                "Mapped: {mapped}; not mapped: {not_mapped}; marked: {marked}."),
    "not_mapped": ("Не перенесено:", "Not mapped:"),
    "marked": ("Оставлено как опубликовано, с пометкой:", "Kept as published, marked:"),
    "report_written": ("Отчёт записан в {file}.", "Report written to {file}."),
    "cannot_write": ("Не удалось записать {file}: {detail}", "Cannot write {file}: {detail}"),
    "refused": ("Результат импорта не прошёл проверку (ошибка импорта):",
                "The import's result failed the check (an importer's fault):"),
    "archive_written": ("Архив турнира #{id} «{name}» записан в {file}: файлов — {members}.",
                        "The archive of tournament #{id} '{name}' written to {file}: "
                        "files: {members}."),
    "archive_imported": ("Архив {file} импортирован: турнир #{id} «{name}»; игр — {games}, "
                         "ревизий — {revisions}, обращений — {cases}, записей журнала — "
                         "{audit}.",
                         "Archive {file} imported: tournament #{id} '{name}'; games: {games}, "
                         "revisions: {revisions}, cases: {cases}, audit entries: {audit}."),
    "bad_archive": ("{file}: {detail}", "{file}: {detail}"),
    "role_not_restored": ("Роль «{role}» учётной записи {user} не восстановлена: {why}.",
                          "The role '{role}' of the account {user} is not restored: {why}."),
}


def t(key: str, lang: str, **params: Any) -> str:
    ru, en = TEXT[key]
    return (ru if lang == "ru" else en).format(**params)


def _fail(message: str, code: int = 1) -> NoReturn:
    err.print(message, markup=False, style="red")
    raise typer.Exit(code)


class Source(StrEnum):
    polemica = "polemica"
    csv = "csv"


LangOpt = Annotated[str, typer.Option("--lang", help="ru (default) or en / язык вывода")]


def _lang(lang: str) -> str:
    if lang not in ("ru", "en"):
        _fail(f"--lang: {lang!r} (ru, en)", 2)
    return lang


def _read(path: Path, lang: str) -> bytes:
    try:
        return path.read_bytes()
    except OSError as e:
        _fail(t("cannot_read", lang, file=str(path), detail=e.strerror or str(e)))


def _json(path: Path, lang: str) -> Any:
    try:
        return json.loads(_read(path, lang))
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        _fail(t("not_json", lang, file=str(path), detail=str(e)))


def print_report(report: ImportReport, lang: str) -> None:
    c = report.counts()
    out.print(t("summary", lang, mapped=c["mapped"], not_mapped=c[NOT_MAPPED],
                marked=c[MARKED]), markup=False)
    for kind in (NOT_MAPPED, MARKED):
        lines = report.of(kind)
        if lines:
            out.print(t(kind, lang), markup=False)
            for line in lines:
                out.print("  • " + line.text(lang), markup=False)


def import_records(
    files: Annotated[list[Path], typer.Argument(exists=True, dir_okay=False, readable=True,
                                                help="Records of the other system / файлы")],
    source: Annotated[Source, typer.Option("--from", help="polemica (game records) or csv "
                                           "(a published standings table) / откуда")],
    output: Annotated[Path, typer.Option("--out", "-o", dir_okay=False,
                                         help="The format-1 file to write / файл турнира")],
    rules: Annotated[str, typer.Option("--rules", help=rules_help())] = "fiim2018",
    name: Annotated[str | None, typer.Option("--name", help="Tournament name / название")]
    = None,
    crosswalk: Annotated[Path | None, typer.Option(
        "--crosswalk", exists=True, dir_okay=False, readable=True,
        help="Player ids to reuse: a format-1 file (its crosswalk and players) or a "
        "crosswalk object / соответствие id игроков")] = None,
    lenient: Annotated[bool, typer.Option(
        "--lenient", help="csv: keep values off today's scales as published, each marked "
        "/ оставить значения вне нынешних шкал с пометкой")] = False,
    report_file: Annotated[Path | None, typer.Option(
        "--report", dir_okay=False, help="Write the report as JSON / отчёт в файл")] = None,
    lang: LangOpt = "ru",
) -> None:
    """Records of another system into a format-1 tournament, with a report / импорт
    из других систем."""
    lang = _lang(lang)
    from mafiatab.domain.problems import ProtocolRefused
    from mafiatab.formats.crosswalk import CrosswalkError, read_crosswalk_document
    from mafiatab.formats.tournament_json import dumps_tournament
    from mafiatab.rules import PROFILES
    from mafiatab.services.tournament_file import load_tournament, write_tournament_file

    if rules not in PROFILES:
        _fail(t("no_rules", lang, value=rules, choices=", ".join(sorted(PROFILES))), 2)
    if lenient and source is not Source.csv:
        _fail(t("lenient_csv", lang), 2)
    cw_doc: Any = None
    if crosswalk is not None:
        try:
            cw, known = read_crosswalk_document(_json(crosswalk, lang))
        except CrosswalkError as e:
            _fail(t("bad_crosswalk", lang, file=str(crosswalk), detail=e.message(lang)))
        cw_doc = (cw, known)
    title = name or files[0].stem
    if source is Source.polemica:
        from mafiatab.formats.polemica import PolemicaError, convert, records_of

        records: list[dict[str, Any]] = []
        for f in files:
            try:
                records.extend(records_of(_json(f, lang)))
            except PolemicaError as e:
                _fail(t("not_records", lang, file=str(f), detail=e.message(lang)))
        tournament, report = convert(
            records, rules=rules, name=title, files=[f.name for f in files],
            crosswalk=cw_doc[0] if cw_doc else None, known=cw_doc[1] if cw_doc else ())
        empty = not tournament.games
    else:
        from mafiatab.formats.points_csv import PointsCsvError, read_points_csv

        if len(files) != 1:
            _fail("--from csv: one file / один файл", 2)
        try:
            tournament, report = read_points_csv(
                _read(files[0], lang), rules=rules, name=title, lenient=lenient,
                file=files[0].name, crosswalk=cw_doc[0] if cw_doc else None,
                known=cw_doc[1] if cw_doc else ())
        except PointsCsvError as e:
            if e.report is not None:
                print_report(e.report, lang)
            _fail(t("not_records", lang, file=str(files[0]), detail=e.message(lang)))
        empty = not tournament.players
    if report_file is not None:
        try:
            report_file.write_text(json.dumps(report.as_dict(), ensure_ascii=False, indent=1)
                                   + "\n", encoding="utf-8")
        except OSError as e:
            _fail(t("cannot_write", lang, file=str(report_file), detail=e.strerror or str(e)))
    print_report(report, lang)
    if empty:
        _fail(t("nothing", lang))
    text = dumps_tournament(tournament)
    try:
        loaded = load_tournament(text, invariants=True)  # the promise: what is written passes `check`
    except ProtocolRefused as refused:
        err.print(t("refused", lang), markup=False)
        for p in refused.problems:
            err.print("  • " + p.message(lang), markup=False)
        raise typer.Exit(1) from None
    try:
        write_tournament_file(tournament, output)
    except OSError as e:
        _fail(t("cannot_write", lang, file=str(output), detail=e.strerror or str(e)))
    out.print(t("written", lang, file=str(output), games=len(loaded.tournament.games),
                players=len(loaded.tournament.players)), markup=False)
    if report_file is not None:
        out.print(t("report_written", lang, file=str(report_file)), markup=False)


def export_archive(
    tournament: Annotated[str, typer.Argument(help="Tournament id or name / турнир")],
    output: Annotated[Path, typer.Option("--out", "-o", dir_okay=False,
                                         help="The archive to write (.zip) / архив")],
    db: Annotated[str | None, typer.Option("--db", help="Database URL or SQLite file / база")]
    = None,
    lang: LangOpt = "ru",
) -> None:
    """A tournament as one archive: format 1, seating, appeals, audit, photos / архив турнира."""
    lang = _lang(lang)
    from mafiatab.cli.db import database_errors, open_service
    from mafiatab.formats.archive import unpack
    from mafiatab.services.archive import export_archive as export

    with database_errors(lang):
        service = open_service(db)
        tid = service.tournaments.find_tournament(tournament)
        data = export(service.engine, tid)
        name = service.tournaments.tournament(tid).name
    try:
        _write_atomic(output, data)
    except OSError as e:
        _fail(t("cannot_write", lang, file=str(output), detail=e.strerror or str(e)))
    out.print(t("archive_written", lang, id=tid, name=name, file=str(output),
                members=len(unpack(data)[1]) + 1), markup=False)


def _write_atomic(path: Path, data: bytes) -> None:
    tmp = path.with_name(f".{path.name}.tmp")
    try:
        tmp.write_bytes(data)
        tmp.replace(path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def import_archive(
    file: Annotated[Path, typer.Argument(exists=True, dir_okay=False, readable=True,
                                         help="The archive (.zip) / архив")],
    db: Annotated[str | None, typer.Option("--db", help="Database URL or SQLite file / база")]
    = None,
    lang: LangOpt = "ru",
) -> None:
    """Import a tournament archive as a new tournament, all or nothing / импорт архива."""
    lang = _lang(lang)
    from mafiatab.cli.db import database_errors, open_service
    from mafiatab.formats.archive import ArchiveError
    from mafiatab.services.archive import IMPORT_ACTOR
    from mafiatab.services.archive import import_archive as restore
    from mafiatab.storage.engine import upgrade
    from mafiatab.texts.service import ROLES

    data = _read(file, lang)
    with database_errors(lang):
        service = open_service(db, check=False)
        upgrade(service.engine)
        try:
            done = restore(service.engine, data, actor=IMPORT_ACTOR, operator=True)
        except ArchiveError as e:
            _fail(t("bad_archive", lang, file=str(file), detail=e.message(lang)))
    out.print(t("archive_imported", lang, file=str(file), id=done.tournament, name=done.name,
                games=done.games, revisions=done.revisions, cases=done.cases,
                audit=done.audit), markup=False)
    for r in done.refused:
        role = ROLES[r.role][0 if lang == "ru" else 1] if r.role in ROLES else r.role
        out.print(t("role_not_restored", lang, role=role, user=r.user,
                    why=r.refusal.message(lang)), markup=False)
