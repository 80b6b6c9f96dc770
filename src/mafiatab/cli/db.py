"""Commands on the database: `db upgrade`, `db grant-admin`, `import`, `export`, `tournaments`, `backup`,
`restore`, and the database side of `standings --db ... --tournament ...`.

Registered by `mafiatab.cli` (the package) with one line each. SQLAlchemy, Alembic and the service are
imported inside the commands, so that the file commands (`standings FILE`, `check`)
start as fast as before.

Exit codes as everywhere: 1 refused or failed, 2 a wrong command line; never a traceback.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NoReturn

import typer
from rich.console import Console
from rich.table import Table

from mafiatab.texts.storage import STORAGE

if TYPE_CHECKING:
    from sqlalchemy import Engine

    from mafiatab.domain.standings import Standings
    from mafiatab.services.facade import Services
    from mafiatab.services.tournaments import ImportProgress

out = Console(highlight=False, width=None if sys.stdout.isatty() else 160)
err = Console(stderr=True, highlight=False, soft_wrap=True)

#: games from which an import shows its progress
PROGRESS_FROM = 1000

def t(key: str, lang: str, **params: Any) -> str:
    ru, en = STORAGE[key]
    return (ru if lang == "ru" else en).format(**params)


DbOpt = Annotated[
    str | None,
    typer.Option("--db", help="Database URL or SQLite file (default: $MAFIATAB_DATABASE_URL, "
                 "else ./mafiatab.sqlite) / база данных"),
]
LangOpt = Annotated[str, typer.Option("--lang", help="ru (default) or en / язык вывода")]
TournamentArg = Annotated[str, typer.Argument(help="Tournament id or name / турнир")]


def _check_lang(lang: str) -> str:
    if lang not in ("ru", "en"):
        err.print(f"--lang: {lang!r} (ru, en)", markup=False)
        raise typer.Exit(2)
    return lang


def _fail(message: str, code: int = 1) -> NoReturn:
    err.print(message, markup=False, style="red")
    raise typer.Exit(code)


@contextmanager
def _errors(lang: str) -> Iterator[None]:
    """Every refusal of the layers below as one readable message and exit 1."""
    from sqlalchemy.exc import SQLAlchemyError

    from mafiatab.domain.problems import Refused

    try:
        yield
    except Refused as refused:
        if len(refused.errors) == 1:
            _fail(refused.message(lang))
        from mafiatab.cli.problems import print_problems

        print_problems(refused.problems, lang)
        raise typer.Exit(1) from None
    except SQLAlchemyError as e:
        detail = str(getattr(e, "orig", None) or e).strip().splitlines()
        _fail(t("db_error", lang, detail=detail[0] if detail else type(e).__name__))


def _engine(db: str | None, *, check: bool = True) -> Engine:
    from mafiatab.storage.engine import check_schema, make_engine

    engine = make_engine(db)
    if check:
        check_schema(engine)
    return engine


def _service(db: str | None) -> Services:
    from mafiatab.services.facade import Services

    return Services(_engine(db))


def _url_text(engine: Engine) -> str:
    """The database's address as the user gave it: no password, no driver's name."""
    url = engine.url.set(drivername=engine.url.get_backend_name())
    return url.render_as_string(hide_password=True)


# --- db upgrade ------------------------------------------------------------------------

db_app = typer.Typer(name="db", help="The database / база данных", no_args_is_help=True)


@db_app.command("upgrade")
def db_upgrade(db: DbOpt = None, lang: LangOpt = "ru") -> None:
    """Create or upgrade the database schema / создать или обновить схему базы."""
    lang = _check_lang(lang)
    from mafiatab.storage.engine import head_revision, upgrade

    with _errors(lang):
        engine = _engine(db, check=False)
        upgrade(engine)
        out.print(t("upgraded", lang, url=_url_text(engine), head=head_revision()),
                  markup=False)


# --- db grant-admin ----------------------------------------------------------------------


@db_app.command("grant-admin")
def grant_admin(
    user: Annotated[str, typer.Argument(help="Account with a password / учётная запись")],
    take: Annotated[bool, typer.Option("--take", help="Take the right instead / снять право")]
    = False,
    organizer: Annotated[bool, typer.Option(
        "--organizer", help="The organizer right instead of the administrator's / право "
        "организатора вместо права администратора")] = False,
    db: DbOpt = None, lang: LangOpt = "ru",
) -> None:
    """Give (or take) an account the server's administrator right / дать (или снять) право
    администратора сервера."""
    lang = _check_lang(lang)
    with _errors(lang):
        svc = _service(db)
        value = not take
        org, adm = svc.account_admin.set_rights(
            user, actor=user, operator=True,
            organizer=value if organizer else None, admin=None if organizer else value)
    out.print(t("rights", lang, user=user.strip(), organizer=t("yes" if org else "no", lang),
                admin=t("yes" if adm else "no", lang)), markup=False)


# --- import / export -------------------------------------------------------------------


def import_command(
    file: Annotated[Path, typer.Argument(exists=True, dir_okay=False, readable=True,
                                         help="Tournament file, format 1 / файл турнира")],
    db: DbOpt = None,
    lang: LangOpt = "ru",
) -> None:
    """Import a tournament file into the database, all or nothing / импорт турнира."""
    lang = _check_lang(lang)
    from mafiatab import i18n
    from mafiatab.services.facade import Services
    from mafiatab.services.tournament_file import load_tournament
    from mafiatab.storage.engine import upgrade

    try:
        data = file.read_bytes()
    except OSError as e:
        _fail(t("failed", lang, file=str(file), detail=e.strerror or str(e)))
    with _errors(lang):
        loaded = load_tournament(data, invariants=True)  # refused files: nothing touches the database
        engine = _engine(db, check=False)
        upgrade(engine)
        service = Services(engine)
        with _progress(len(loaded.tournament.games), lang) as report:
            tid = service.tournaments.import_loaded(loaded, progress=report)
        src = loaded.tournament
        out.print(t("imported", lang, id=tid, name=src.name,
                    games=i18n.count(len(src.games), "game", lang),
                    players=i18n.count(len(src.players), "player", lang)), markup=False)


@contextmanager
def _progress(total: int, lang: str) -> Iterator[Any]:
    """A Rich progress bar on a terminal's stderr; plain lines when stderr is not one;
    nothing for small files."""
    if total < PROGRESS_FROM:
        yield None
        return
    if not err.is_terminal:
        def line(p: ImportProgress) -> None:
            sys.stderr.write(t("progress_line", lang, done=p.done, total=p.total) + "\n")
            sys.stderr.flush()

        yield line
        return
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

    with Progress("[progress.description]{task.description}", BarColumn(),
                  MofNCompleteColumn(), TimeRemainingColumn(), console=err,
                  transient=True) as bar:
        task = bar.add_task(t("importing", lang), total=total)

        def update(p: ImportProgress) -> None:
            bar.update(task, completed=p.done)

        yield update


def export_command(
    tournament: TournamentArg,
    db: DbOpt = None,
    output: Annotated[Path | None, typer.Option("-o", "--output",
                                                help="Write to this file / в файл")] = None,
    lang: LangOpt = "ru",
) -> None:
    """Export a tournament as a format-1 file / экспорт турнира в файл формата 1."""
    lang = _check_lang(lang)
    from mafiatab.formats.tournament_json import dumps_tournament
    from mafiatab.services.tournament_file import write_tournament_file

    with _errors(lang):
        service = _service(db)
        tourn = service.tournaments.export(service.tournaments.find_tournament(tournament))
        if output is None:
            sys.stdout.write(dumps_tournament(tourn))
            return
        try:
            write_tournament_file(tourn, output)
        except OSError as e:
            _fail(t("cannot_write", lang, file=str(output), detail=e.strerror or str(e)))
        err.print(t("exported", lang, file=str(output)), markup=False)


def tournaments_command(db: DbOpt = None, lang: LangOpt = "ru") -> None:
    """The tournaments in the database / турниры в базе."""
    lang = _check_lang(lang)
    from mafiatab import i18n
    from mafiatab.rules import PROFILES

    with _errors(lang):
        service = _service(db)
        rows = service.tournaments.list_tournaments()
        if not rows:
            out.print(t("no_tournaments", lang))
            return
        table = Table(title=t("tournaments_title", lang, url=_url_text(service.engine)),
                      title_justify="left", header_style="bold")
        for key in ("col_id", "col_name", "col_rules", "col_players", "col_games",
                    "col_confirmed", "col_created"):
            table.add_column(t(key, lang), justify="left" if key == "col_name" else "right")
        for r in rows:
            rules = i18n.federation(PROFILES[r.rules].title, lang) if r.rules in PROFILES \
                else r.rules
            table.add_row(str(r.id), r.name, rules, str(r.players), str(r.games),
                          str(r.confirmed), r.created_at.strftime("%Y-%m-%d %H:%M"))
        out.print(table)


# --- backup / restore ---------------------------------------------------------------------


def _sqlite_file(db: str | None, command: str, lang: str) -> Path:
    from mafiatab.storage.engine import is_sqlite, resolve_url

    url = resolve_url(db)
    if not is_sqlite(url) or not url.database:
        _fail(t("sqlite_only", lang, command=command))
    return Path(url.database)


ConfigOpt = Annotated[Path | None, typer.Option(
    "--config", help="Settings file (TOML; default: $MAFIATAB_CONFIG) / файл настроек")]


def _settings(config: Path | None, lang: str, **cli: Any) -> Any:
    from mafiatab.settings import SettingsError, load

    try:
        return load(config, **cli)
    except SettingsError as e:
        _fail(t("settings", lang, detail=str(e)), 2)


def backup_command(
    file: Annotated[Path | None, typer.Argument(
        help="Backup file, or a folder for a new file named by the time (default: "
        "backup_dir) / файл копии или папка (по умолчанию — папка копий из настроек)")]
    = None,
    db: DbOpt = None,
    keep: Annotated[int | None, typer.Option(
        "--keep", min=1, help="In a folder: keep this many newest backups, remove the older "
        "(default: backup_keep, 14) / сколько копий хранить")] = None,
    verify: Annotated[bool, typer.Option(
        "--verify", help="Restore the new backup into a throwaway database to check it / "
        "проверить копию восстановлением")] = False,
    config: ConfigOpt = None,
    lang: LangOpt = "ru",
) -> None:
    """Back up the database while it is in use: SQLite by its online backup API (a
    .sqlite file), PostgreSQL as a consistent dump (.dump.gz) / копия базы."""
    lang = _check_lang(lang)
    settings = _settings(config, lang, database_url=db)
    db = settings.database_url
    target = file if file is not None else settings.backup_dir
    if target is None:
        _fail(t("backup_no_target", lang), 2)
    folder = target.is_dir()
    if keep is not None and not folder:
        _fail(t("backup_keep_folder", lang), 2)
    from mafiatab.storage.backup import backup_sqlite
    from mafiatab.storage.engine import is_sqlite, resolve_url

    with _errors(lang):
        url = resolve_url(db)
        sqlite = is_sqlite(url)
        if folder:
            from mafiatab.storage.rotation import new_name

            written = target / new_name(".sqlite" if sqlite else ".dump.gz")
        else:
            written = target
        if sqlite:
            database = _sqlite_file(db, "backup", lang)
            backup_sqlite(database, written)
            shown = str(database)
        else:
            from mafiatab.storage.dump import dump

            engine = _engine(db)
            try:
                dump(engine, written)
            finally:
                engine.dispose()
            shown = _url_text(engine)
        out.print(t("backup_done", lang, db=shown, file=str(written)), markup=False)
        if verify:
            verify_backup(written)
            out.print(t("backup_verified", lang), markup=False)
        if folder:
            from mafiatab.storage.rotation import rotate

            kept = keep if keep is not None else settings.backup_keep
            removed = rotate(target, kept)
            if removed:
                out.print(t("backup_removed", lang, n=len(removed), keep=kept), markup=False)


def verify_backup(file: Path) -> None:
    """Restore `file` into a throwaway SQLite database (`BackupError` when it does not):
    a PostgreSQL dump too, as its rows are the program's."""
    import tempfile

    from mafiatab.storage.backup import restore_sqlite
    from mafiatab.storage.dump import is_dump, restore
    from mafiatab.storage.engine import make_engine

    with tempfile.TemporaryDirectory(prefix="mafiatab-verify-") as folder:
        copy = Path(folder) / "verify.sqlite"
        if is_dump(file):
            engine = make_engine(str(copy))
            try:
                restore(file, engine)
            finally:
                engine.dispose()
        else:
            restore_sqlite(file, copy)


def restore_command(
    file: Annotated[Path, typer.Argument(dir_okay=False, help="Backup file / файл копии")],
    db: DbOpt = None,
    lang: LangOpt = "ru",
    upgrade: Annotated[bool, typer.Option(
        "--upgrade", help="Upgrade an older SQLite backup's schema first / обновить схему "
        "копии")] = False,
    config: ConfigOpt = None,
) -> None:
    """Replace the database by a backup, all or nothing: a .sqlite file into SQLite, a
    dump (.dump.gz) into PostgreSQL or SQLite / восстановить базу."""
    lang = _check_lang(lang)
    db = _settings(config, lang, database_url=db).database_url
    from mafiatab.storage.backup import restore_sqlite
    from mafiatab.storage.dump import is_dump, restore

    with _errors(lang):
        if is_dump(file):
            engine = _engine(db, check=False)
            try:
                restore(file, engine)
            finally:
                engine.dispose()
            out.print(t("restore_done", lang, db=_url_text(engine), file=str(file)),
                      markup=False)
            return
        database = _sqlite_file(db, "restore", lang)
        restore_sqlite(file, database, upgrade=upgrade)
        out.print(t("restore_done", lang, db=str(database), file=str(file)), markup=False)


# --- standings --db ------------------------------------------------------------------------


def standings_from_db(file: Path | None, db: str | None, tournament: str | None,
                      stages: list[str] | None, lang: str) -> Standings:
    """The database side of `mafiatab standings`: checks the command line (exit 2 unless
    exactly one of FILE and --tournament is given) and computes from confirmed revisions."""
    if file is not None or tournament is None:
        err.print(t("standings_args", lang), markup=False, style="red")
        raise typer.Exit(2)
    from mafiatab import i18n

    with _errors(lang):
        service = _service(db)
        tid = service.tournaments.find_tournament(tournament)
        if stages:
            known = [s.id for s in service.tournaments.tournament(tid).stages]
            for sid in stages:
                if sid not in known:
                    err.print(i18n.t("unknown_stage_arg", lang, value=sid,
                                     choices=", ".join(known)), markup=False, style="red")
                    raise typer.Exit(2)
        return service.standings.compute(tid, stages or None)


# --- for the commands other modules register under `db` (mafiatab.cli.records) -------------

#: every refusal of the layers below as one readable message and exit 1
database_errors = _errors


def open_service(db: str | None, *, check: bool = True) -> Services:
    """The service on the database `db` (`check`: refuse an empty or old schema)."""
    from mafiatab.services.facade import Services

    return Services(_engine(db, check=check))
