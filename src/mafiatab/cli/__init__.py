"""The `mafiatab` command line (Typer + Rich): the commands of each area in a module of
this package, assembled here with one line each.

Exit codes: 0 success, 1 a refused file (rule or format problems) or a file that cannot
be read, 2 a wrong command line. No command ever ends in a traceback: a refusal
(`Refused`) lists its problems and exits 1, an unexpected error is reported in one line
and exits 1.

The modules import `cli.files` (the shared options and the file commands) and nothing
else of the package; only this module imports them all.
"""

from __future__ import annotations

import os
import sys

from mafiatab import i18n
from mafiatab.cli import db as storage_cli
from mafiatab.cli import prints, records, words
from mafiatab.cli.awards import awards_command
from mafiatab.cli.day import day_app
from mafiatab.cli.files import app, err
from mafiatab.cli.mafiaratings import import_game_command
from mafiatab.cli.options import four_eyes_command
from mafiatab.cli.problems import print_problems
from mafiatab.cli.ratings import ratings_command
from mafiatab.cli.seating import seating_command
from mafiatab.domain.problems import Refused
from mafiatab.web.server import health_command, serve_command  # no web code until run

app.add_typer(storage_cli.db_app, name="db")
app.command("import")(storage_cli.import_command)
app.command("export")(storage_cli.export_command)
app.command("tournaments")(storage_cli.tournaments_command)
app.command("backup")(storage_cli.backup_command)
app.command("restore")(storage_cli.restore_command)
storage_cli.db_app.command("backup")(storage_cli.backup_command)
storage_cli.db_app.command("restore")(storage_cli.restore_command)
app.command("seating")(seating_command)
app.add_typer(prints.print_app, name="print")
app.command("export-standings")(prints.export_standings)
app.command("charts")(prints.charts)
app.command("appeal-check")(prints.appeal_check)
app.command("import-records")(records.import_records)
storage_cli.db_app.command("export-archive")(records.export_archive)
storage_cli.db_app.command("import-archive")(records.import_archive)
app.command("import-game")(import_game_command)
app.command("serve")(serve_command)
app.command("health")(health_command)
app.command("ratings")(ratings_command)
app.add_typer(day_app, name="day")
app.command("four-eyes")(four_eyes_command)
app.command("awards")(awards_command)


def _argv_lang() -> str:
    """The language the command line asked for (`--lang en`; else `MAFIATAB_LANG`, which
    also gives the help of a command without `--lang` in English), for what `main`
    prints."""
    args = sys.argv[1:]
    for i, a in enumerate(args):
        if a == "--lang" and i + 1 < len(args):
            return "en" if args[i + 1] == "en" else "ru"
        if a.startswith("--lang="):
            return "en" if a.split("=", 1)[1] == "en" else "ru"
    return "en" if os.environ.get("MAFIATAB_LANG", "").strip() == "en" else "ru"


def main() -> None:
    import typer

    lang = _argv_lang()
    words.install(lang)  # Click's and Typer's own words, then the commands' help
    command = typer.main.get_command(app)
    words.localize(command, lang)
    try:
        command()
    except SystemExit:
        raise
    except KeyboardInterrupt:
        err.print("Interrupted / прервано")
        sys.exit(130)
    except Refused as e:  # every refusal a command did not answer itself: exit 1, listed
        print_problems(e.problems, _argv_lang())
        sys.exit(1)
    except Exception as e:  # the promise: never a traceback
        err.print(i18n.t("internal_error", "ru", detail=f"{type(e).__name__}: {e}"),
                  markup=False)
        sys.exit(1)



__all__ = ["app", "main"]
