"""The `mafiatab` command line (Typer + Rich).

Exit codes: 0 success, 1 a refused file (rule or format problems) or a file that cannot
be read, 2 a wrong command line. No command ever ends in a traceback: an unexpected error
is reported in one line and exits 1.
"""

from __future__ import annotations

import json
import sys
from enum import StrEnum
from pathlib import Path
from typing import Annotated, NoReturn

import typer
from rich.console import Console
from rich.table import Table

from mafiatab import i18n
from mafiatab.domain.lots import draw_lots, record_draws
from mafiatab.domain.points import Hundredths, format_points
from mafiatab.domain.problems import Problem, ProtocolRefused
from mafiatab.domain.standings import Standings, explain_player
from mafiatab.formats.standings_json import dumps_standings
from mafiatab.rules import PROFILES
from mafiatab.services.tournament_file import (
    LoadedTournament,
    load_tournament,
    standings_of,
    write_tournament_file,
)

app = typer.Typer(
    name="mafiatab",
    help="Турниры по спортивной мафии: правила ФИИМ (2018) и ФСМ. / "
    "Sports mafia tournaments: FIIM (2018) and FSM rules.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

# a pipe or a file gets the whole table, not one squeezed to 80 columns
out = Console(highlight=False, width=None if sys.stdout.isatty() else 160)
err = Console(stderr=True, highlight=False, soft_wrap=True)


class Lang(StrEnum):
    ru = "ru"
    en = "en"


LangOpt = Annotated[Lang, typer.Option("--lang", help="ru (default) or en / язык вывода")]
FileArg = Annotated[
    Path,
    typer.Argument(exists=True, dir_okay=False, readable=True,
                   help="Tournament file, format 1 / файл турнира"),
]
StageOpt = Annotated[
    list[str] | None,
    typer.Option("--stage", help="Limit to these stages (repeatable) / только эти стадии"),
]


def _fail_usage(message: str) -> NoReturn:
    err.print(f"[red]{message}[/red]")
    raise typer.Exit(2)


def _print_problems(problems: list[Problem], lang: str) -> None:
    errors = [p for p in problems if not p.warning]
    warnings = [p for p in problems if p.warning]
    if errors:
        err.print(f"[bold red]{i18n.t('file_refused', lang, count=len(errors))}[/bold red]")
        for p in errors:
            err.print("  • " + p.message(lang), markup=False)
    if warnings:
        err.print(f"[yellow]{i18n.t('warnings', lang)}[/yellow]")
        for p in warnings:
            err.print("  • " + p.message(lang), markup=False)


def _load(path: Path, lang: str, show_warnings: bool = True) -> LoadedTournament:
    try:
        data = path.read_bytes()
    except OSError as e:
        err.print(i18n.t("cannot_read", lang, file=str(path), detail=e.strerror or str(e)),
                  markup=False)
        raise typer.Exit(1) from None
    try:
        loaded = load_tournament(data)
    except ProtocolRefused as refused:
        _print_problems(refused.problems, lang)
        raise typer.Exit(1) from None
    if show_warnings and loaded.warnings:
        _print_problems(loaded.warnings, lang)
    return loaded


def _check_stages(loaded: LoadedTournament, stages: list[str] | None, lang: str) -> None:
    known = [s.id for s in loaded.tournament.stages]
    for sid in stages or []:
        if sid not in known:
            _fail_usage(i18n.t("unknown_stage_arg", lang, value=sid, choices=", ".join(known)))


def _fixed(value: Hundredths, lang: str) -> str:
    return format_points(value, lang, fixed=True)


def _standings_table(s: Standings, lang: str) -> Table:
    title = i18n.t("standings_title", lang, name=s.tournament, rules=PROFILES[s.rules].title)
    table = Table(title=title, title_justify="left", header_style="bold")
    cols = ["place", "player", "games", "wins", "wins_don_sheriff", "first_killed", "main",
            "extra", "total", "best_move", "compensation", "penalties", "lot"]
    for c in cols:
        table.add_column(i18n.t(c, lang), justify="left" if c == "player" else "right",
                         no_wrap=True, min_width=12 if c == "player" else None)
    for r in s.rows:
        table.add_row(
            str(r.place), r.nickname, str(r.games), str(r.wins), str(r.wins_don_sheriff),
            str(r.first_killed), _fixed(r.main, lang), _fixed(r.extra, lang),
            f"[bold]{_fixed(r.total, lang)}[/bold]", _fixed(r.best_move, lang),
            _fixed(r.compensation, lang), _fixed(r.penalties, lang),
            i18n.t("lot_needed", lang) if r.lot_needed else "",
        )
    return table


@app.command()
def standings(
    file: Annotated[Path | None, typer.Argument(
        exists=True, dir_okay=False, readable=True,
        help="Tournament file, format 1 / файл турнира")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="mafiatab.standings/1 JSON")] = False,
    stage: StageOpt = None,
    lang: LangOpt = Lang.ru,
    db: Annotated[str | None, typer.Option("--db", help="Database URL / база данных")] = None,
    tournament: Annotated[str | None, typer.Option(
        "--tournament", help="Tournament id or name in the database / турнир в базе")] = None,
) -> None:
    """Standings of a tournament file or of a tournament in the database / турнирная таблица."""
    if file is None or db is not None or tournament is not None:
        from mafiatab.storage.cli import standings_from_db

        result = standings_from_db(file, db, tournament, stage, lang.value)
    else:
        loaded = _load(file, lang.value, show_warnings=not as_json)
        _check_stages(loaded, stage, lang.value)
        result = standings_of(loaded, stage or None)
    if as_json:
        sys.stdout.write(dumps_standings(result))
        return
    out.print(_standings_table(result, lang.value))
    if stage:
        out.print(i18n.t("stages", lang.value, stages=", ".join(result.stages)))
    if result.k.applies:
        out.print(i18n.t("k_applied", lang.value, k=_fixed(result.k.k * 100, lang.value),
                         games=result.k.games,
                         side=i18n.pick(i18n.TEAM, result.k.heavy_side or "", lang.value),
                         n=result.k.heavy_wins))
    pending = sorted({r.place for r in result.rows if r.lot_needed})
    if pending:
        out.print(i18n.t("lots_pending", lang.value, places=", ".join(map(str, pending))))


@app.command()
def check(
    file: FileArg,
    as_json: Annotated[bool, typer.Option("--json", help="problems as JSON")] = False,
    lang: LangOpt = Lang.ru,
) -> None:
    """Check a tournament file against the rules / проверить файл турнира."""
    try:
        data = file.read_bytes()
    except OSError as e:
        err.print(i18n.t("cannot_read", lang.value, file=str(file), detail=str(e)), markup=False)
        raise typer.Exit(1) from None
    try:
        loaded = load_tournament(data)
    except ProtocolRefused as refused:
        if as_json:
            sys.stdout.write(json.dumps(
                {"sound": False, "problems": [p.as_dict(lang.value) for p in refused.problems]},
                ensure_ascii=False, indent=1) + "\n")
        else:
            _print_problems(refused.problems, lang.value)
        raise typer.Exit(1) from None
    t = loaded.tournament
    if as_json:
        sys.stdout.write(json.dumps(
            {"sound": True, "problems": [p.as_dict(lang.value) for p in loaded.warnings]},
            ensure_ascii=False, indent=1) + "\n")
        return
    out.print(i18n.t("file_sound", lang.value, games=len(t.games), players=len(t.players),
                     rules=loaded.profile.title))
    if loaded.warnings:
        _print_problems(loaded.warnings, lang.value)


@app.command()
def explain(
    file: FileArg,
    player: Annotated[str, typer.Argument(help="Player id or nickname / игрок")],
    game: Annotated[str | None, typer.Option("--game", help="Only this game / одна игра")] = None,
    stage: StageOpt = None,
    lang: LangOpt = Lang.ru,
) -> None:
    """Every point of a player, game by game, with its clause / откуда каждый балл."""
    loaded = _load(file, lang.value)
    _check_stages(loaded, stage, lang.value)
    t = loaded.tournament
    pid = _find_player(loaded, player)
    if pid is None:
        _fail_usage(i18n.t("unknown_player_arg", lang.value, value=player))
    games = explain_player(t, loaded.profile, pid, stage or None, game)
    if game is not None and not games:
        _fail_usage(i18n.t("unknown_game_arg", lang.value, value=game))
    if not games:
        out.print(i18n.t("no_games", lang.value))
        return
    L = lang.value
    for g in games:
        head = i18n.t("explain_game", L, game=g.game, stage=g.stage, round=g.round,
                      table=g.table, seat=g.seat, role=i18n.pick(i18n.ROLE, g.role, L),
                      result=i18n.pick(i18n.RESULT, g.result, L))
        out.print(f"[bold]{head}[/bold]")
        for part in g.parts:
            out.print(f"  {format_points(part.points, L, sign=True):>7}  "
                      f"{i18n.describe_part(part.kind, part.detail, L)}  "
                      f"[dim]({_clause(part.clause, L)})[/dim]")
        out.print(f"  {i18n.t('explain_total', L, points=format_points(g.total, L, sign=True))}")
    if game is None:
        row = next((r for r in standings_of(loaded, stage or None).rows if r.player == pid),
                   None)
        if row is not None:
            out.print(i18n.t("explain_sum", L, player=row.nickname,
                             main=format_points(row.main, L), extra=format_points(row.extra, L),
                             total=format_points(row.total, L), place=row.place))


def _clause(clause: str, lang: str) -> str:
    from mafiatab.domain.problems import translate_clause

    return translate_clause(clause, lang)


def _find_player(loaded: LoadedTournament, name: str) -> str | None:
    players = loaded.tournament.players
    for p in players:
        if p.id == name:
            return p.id
    folded = name.casefold()
    for p in players:
        if p.nickname.casefold() == folded:
            return p.id
    return None


@app.command()
def lots(
    file: FileArg,
    seed: Annotated[str, typer.Option("--seed", help="The announced seed / зерно жребия")],
    write: Annotated[bool, typer.Option("--write", help="Store the draw in the file")] = False,
    lang: LangOpt = Lang.ru,
) -> None:
    """A recorded random draw among the players who need a lot / жребий."""
    L = lang.value
    loaded = _load(file, L)
    result = standings_of(loaded)
    draws = draw_lots(result.rows, seed)
    if not draws:
        out.print(i18n.t("no_lot_needed", L))
        return
    names = {p.id: p.nickname for p in loaded.tournament.players}
    places = {r.player: r.place for r in result.rows}
    for d in draws:
        order = " > ".join(f"{names.get(pid, pid)} ({pid})" for pid in d.order)
        out.print(i18n.t("lot_drawn", L, seed=seed, place=places[d.order[0]], order=order))
    if write:
        record_draws(loaded.tournament, draws)
        try:
            write_tournament_file(loaded.tournament, file)
        except OSError as e:
            err.print(i18n.t("cannot_read", L, file=str(file), detail=str(e)), markup=False)
            raise typer.Exit(1) from None
        out.print(i18n.t("lot_written", L, file=str(file)))
    else:
        out.print(i18n.t("lot_not_written", L))


@app.command()
def demo(
    lang: LangOpt = Lang.ru,
    players: Annotated[int, typer.Option(min=10, max=200)] = 20,
    rounds: Annotated[int, typer.Option(min=1, max=30)] = 10,
    rules: Annotated[str, typer.Option(help="fsm or fiim2018")] = "fsm",
    port: Annotated[int, typer.Option(help="Port of the web app / порт")] = 8000,
    no_serve: Annotated[bool, typer.Option(
        "--no-serve", help="Only write the file, the database and the standings")] = False,
) -> None:
    """A demo tournament: file, SQLite database, web app / демо-турнир и веб-приложение."""
    from mafiatab.sample import sample_tournament
    from mafiatab.web.demo import build_demo

    if rules not in PROFILES:
        _fail_usage(f"--rules: {rules!r} (fsm, fiim2018)")
    t = sample_tournament(rules, players, rounds, seed=2026, final_round=True,
                          name="Демо-турнир" if lang is Lang.ru else "Demo tournament")
    path = Path("mafiatab-demo.json")
    write_tournament_file(t, path)
    out.print(i18n.t("demo_intro", lang.value, players=players, games=len(t.games),
                     rules=PROFILES[rules].title, file=str(path.resolve())))
    loaded = _load(path, lang.value)
    out.print(_standings_table(standings_of(loaded), lang.value))
    built = build_demo(Path("mafiatab-demo.sqlite"), loaded.tournament)
    out.print(f"SQLite: {built.db_path.resolve()}  (tournament {built.tournament}; "
              f"open tables: {', '.join(built.open_games)})")
    for name, password, role in built.accounts:
        out.print(f"  {role:<10} {name} / {password}", markup=False)
    out.print(f"  judge code for {built.code_user}: {built.code}", markup=False)
    if no_serve:
        return
    from mafiatab.web.server import run

    out.print(f"http://127.0.0.1:{port}/  (Ctrl+C)")
    run(str(built.db_path), "127.0.0.1", port, None)


@app.command("rules")
def rules_command(
    profile: Annotated[str, typer.Argument(help="fiim2018 or fsm")] = "fsm",
    markdown: Annotated[bool, typer.Option("--markdown", help="as Markdown")] = False,
) -> None:
    """Every number and option of a rule profile, with its clause / параметры правил."""
    if profile not in PROFILES:
        _fail_usage(f"{profile!r}: fiim2018, fsm")
    p = PROFILES[profile]
    if markdown:
        from mafiatab.formats.rules_doc import profile_markdown

        sys.stdout.write(profile_markdown(p))
        return
    table = Table(title=p.title, title_justify="left")
    table.add_column("setting")
    table.add_column("value")
    table.add_column("clause")
    for name, ruled in p.settings().items():
        value = ruled.value
        if isinstance(value, frozenset):
            value = sorted(value)  # type: ignore[type-var]
        table.add_row(name, str(value), ruled.clause)
    out.print(table)


# --- sub-commands registered by other modules (keep one line each) ---
from mafiatab.storage import cli as storage_cli  # noqa: E402  (imports no database code)

app.add_typer(storage_cli.db_app, name="db")
app.command("import")(storage_cli.import_command)
app.command("export")(storage_cli.export_command)
app.command("tournaments")(storage_cli.tournaments_command)
app.command("backup")(storage_cli.backup_command)
app.command("restore")(storage_cli.restore_command)
# seating: registered below when the module exists
from mafiatab.seating.cli import seating_command  # noqa: E402

app.command("seating")(seating_command)
from mafiatab import formats_cli  # noqa: E402  (printouts, spreadsheets, charts, appeals)

app.add_typer(formats_cli.print_app, name="print")
app.command("export-standings")(formats_cli.export_standings)
app.command("charts")(formats_cli.charts)
app.command("appeal-check")(formats_cli.appeal_check)
from mafiatab import import_cli  # noqa: E402  (other systems' records, the archive)

app.command("import-records")(import_cli.import_records)
storage_cli.db_app.command("export-archive")(import_cli.export_archive)
storage_cli.db_app.command("import-archive")(import_cli.import_archive)
from mafiatab.formats.mafiaratings_cli import import_game_command  # noqa: E402

app.command("import-game")(import_game_command)
from mafiatab.web.server import serve_command  # noqa: E402  (imports no web code until run)

app.command("serve")(serve_command)
from mafiatab.ratings_cli import ratings_command  # noqa: E402  (the open rating, issue 14)

app.command("ratings")(ratings_command)


def main() -> None:
    try:
        app()
    except SystemExit:
        raise
    except KeyboardInterrupt:
        err.print("Interrupted / прервано")
        sys.exit(130)
    except Exception as e:  # the promise: never a traceback
        err.print(i18n.t("internal_error", "ru", detail=f"{type(e).__name__}: {e}"),
                  markup=False)
        sys.exit(1)


if __name__ == "__main__":
    main()
