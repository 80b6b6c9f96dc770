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
from mafiatab.cli.problems import print_problems
from mafiatab.cli.words import rules_help
from mafiatab.domain.lots import draw_lots, record_draws
from mafiatab.domain.points import Hundredths, format_points
from mafiatab.domain.problems import ProtocolRefused
from mafiatab.domain.standings import Standings, explain_player
from mafiatab.formats.standings_json import dumps_standings
from mafiatab.rules import PROFILES, registered
from mafiatab.services.tournament_file import (
    LoadedTournament,
    load_tournament,
    standings_of,
    write_tournament_file,
)

app = typer.Typer(
    name="mafiatab",
    help="Турниры по спортивной мафии, правила: "
    f"{', '.join(p.title_in('ru') for p in registered())}. / "
    f"Sports mafia tournaments, rules: {', '.join(p.title for p in registered())}.",
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


def fail_usage(message: str) -> NoReturn:
    err.print(f"[red]{message}[/red]")
    raise typer.Exit(2)


def load_file(path: Path, lang: str, show_warnings: bool = True) -> LoadedTournament:
    try:
        data = path.read_bytes()
    except OSError as e:
        err.print(i18n.t("cannot_read", lang, file=str(path), detail=e.strerror or str(e)),
                  markup=False)
        raise typer.Exit(1) from None
    try:
        loaded = load_tournament(data)
    except ProtocolRefused as refused:
        print_problems(refused.problems, lang)
        raise typer.Exit(1) from None
    if show_warnings and loaded.warnings:
        print_problems(loaded.warnings, lang)
    return loaded


def check_stages(loaded: LoadedTournament, stages: list[str] | None, lang: str) -> None:
    known = [s.id for s in loaded.tournament.stages]
    for sid in stages or []:
        if sid not in known:
            fail_usage(i18n.t("unknown_stage_arg", lang, value=sid, choices=", ".join(known)))


def _fixed(value: Hundredths, lang: str) -> str:
    return format_points(value, lang, fixed=True)


def _stage_names(loaded: LoadedTournament, stages: list[str]) -> str:
    """Stages as the tournament names them (its ids are codes)."""
    names = {st.id: st.name for st in loaded.tournament.stages}
    return ", ".join(names.get(sid, sid) for sid in stages)


def _standings_table(s: Standings, lang: str) -> Table:
    from mafiatab.formats.tables import lot_marks

    title = i18n.t("standings_title", lang, name=s.tournament,
                   rules=i18n.federation(PROFILES[s.rules].title, lang))
    lots = lot_marks(s, lang)
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
            _fixed(r.compensation, lang), _fixed(r.penalties, lang), lots.get(r.player, ""),
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
        from mafiatab.cli.db import standings_from_db

        result = standings_from_db(file, db, tournament, stage, lang.value)
        stage_text = ", ".join(result.stages)
    else:
        loaded = load_file(file, lang.value, show_warnings=not as_json)
        check_stages(loaded, stage, lang.value)
        result = standings_of(loaded, stage or None)
        stage_text = _stage_names(loaded, result.stages)
    if as_json:
        sys.stdout.write(dumps_standings(result))
        return
    print_standings(result, lang.value, stage_text if stage else None, stage or [])


def print_standings(result: Standings, lang: str, stage_text: str | None,
                    stages: list[str]) -> None:
    """The standings table and what goes under it: the stages, K, and the places a lot
    must still decide, with the command that draws it for the same stages."""
    out.print(_standings_table(result, lang))
    if stage_text is not None:
        out.print(i18n.t("stages", lang, stages=stage_text))
    if result.k.applies:
        out.print(i18n.t("k_applied", lang, k=_fixed(result.k.k * 100, lang),
                         games=result.k.games,
                         side=i18n.pick(i18n.TEAM, result.k.heavy_side or "", lang),
                         n=result.k.heavy_wins))
    pending = sorted({r.place for r in result.rows if r.lot_needed})
    if pending:
        flags = "".join(f" --stage {sid}" for sid in stages)
        out.print(i18n.t("lots_pending", lang, places=", ".join(map(str, pending)),
                         stages=flags), markup=False)


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
        loaded = load_tournament(data, invariants=True)
    except ProtocolRefused as refused:
        if as_json:
            sys.stdout.write(json.dumps(
                {"sound": False, "problems": [p.as_dict(lang.value) for p in refused.problems]},
                ensure_ascii=False, indent=1) + "\n")
        else:
            print_problems(refused.problems, lang.value)
        raise typer.Exit(1) from None
    t = loaded.tournament
    if as_json:
        sys.stdout.write(json.dumps(
            {"sound": True, "problems": [p.as_dict(lang.value) for p in loaded.warnings]},
            ensure_ascii=False, indent=1) + "\n")
        return
    L = lang.value
    out.print(i18n.t("file_sound", L, games=i18n.count(len(t.games), "game", L),
                     players=i18n.count(len(t.players), "player", L),
                     rules=i18n.federation(loaded.profile.title, L)))
    if loaded.warnings:
        print_problems(loaded.warnings, lang.value)


@app.command()
def explain(
    file: FileArg,
    player: Annotated[str, typer.Argument(help="Player id or nickname / игрок")],
    game: Annotated[str | None, typer.Option("--game", help="Only this game / одна игра")] = None,
    stage: StageOpt = None,
    lang: LangOpt = Lang.ru,
) -> None:
    """Every point of a player, game by game, with its clause / откуда каждый балл."""
    loaded = load_file(file, lang.value)
    check_stages(loaded, stage, lang.value)
    t = loaded.tournament
    pid = find_player(loaded, player)
    if pid is None:
        fail_usage(i18n.t("unknown_player_arg", lang.value, value=player))
    games = explain_player(t, loaded.profile, pid, stage or None, game)
    if game is not None and not games:
        fail_usage(i18n.t("unknown_game_arg", lang.value, value=game))
    if not games:
        out.print(i18n.t("no_games", lang.value))
        return
    L = lang.value
    stage_names = {st.id: st.name for st in t.stages}
    for g in games:
        head = i18n.t("explain_game", L, game=g.game, stage=stage_names.get(g.stage, g.stage),
                      round=g.round,
                      table=g.table, seat=g.seat, role=i18n.pick(i18n.ROLE, g.role, L),
                      result=i18n.pick(i18n.RESULT, g.result, L))
        out.print(f"[bold]{head}[/bold]")
        for part in g.parts:
            out.print(f"  {format_points(part.points, L, sign=True):>7}  "
                      f"{i18n.describe_part(part.kind, part.detail, L)}  "
                      f"[dim]({clause_text(part.clause, L)})[/dim]")
        out.print(f"  {i18n.t('explain_total', L, points=format_points(g.total, L, sign=True))}")
    if game is None:
        row = next((r for r in standings_of(loaded, stage or None).rows if r.player == pid),
                   None)
        if row is not None:
            out.print(i18n.t("explain_sum", L, player=row.nickname,
                             main=format_points(row.main, L), extra=format_points(row.extra, L),
                             total=format_points(row.total, L), place=row.place))


def clause_text(clause: str, lang: str) -> str:
    from mafiatab.domain.problems import translate_clause

    return translate_clause(clause, lang)


def find_player(loaded: LoadedTournament, name: str) -> str | None:
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
    stage: StageOpt = None,
    lang: LangOpt = Lang.ru,
) -> None:
    """A recorded random draw among the players who need a lot, in the standings of the
    given stages as `standings --stage` shows them / жребий."""
    L = lang.value
    loaded = load_file(file, L)
    check_stages(loaded, stage, L)
    result = standings_of(loaded, stage or None)
    draws = draw_lots(result.rows, seed)
    if not draws:
        out.print(i18n.t("no_lot_needed", L))
        return
    players = loaded.tournament.players
    names = {p.id: p.nickname for p in players}
    folded = [p.nickname.casefold() for p in players]
    twins = {p.id for p, n in zip(players, folded, strict=True) if folded.count(n) > 1}

    def who(pid: str) -> str:
        """A nickname; with the id only when two players share the nickname."""
        name = names.get(pid, pid)
        return f"{name} ({pid})" if pid in twins else name

    places = {r.player: r.place for r in result.rows}
    for d in draws:
        first = places[d.order[0]]
        span = f"{first}–{first + len(d.order) - 1}"
        out.print(i18n.t("lot_drawn", L, seed=seed, places=span,
                         order=" > ".join(who(pid) for pid in d.order)), markup=False)
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
    rules: Annotated[str, typer.Option(help=rules_help())] = "fsm",
    port: Annotated[int, typer.Option(help="Port of the web app / порт")] = 8000,
    no_serve: Annotated[bool, typer.Option(
        "--no-serve", help="Only write the file, the database and the standings")] = False,
    fresh: Annotated[bool, typer.Option(
        "--fresh", help="Build the demo's database anew (else the last one is kept) / "
        "собрать базу демо заново")] = False,
) -> None:
    """A demo tournament: SQLite database (kept between starts unless --fresh), web app,
    and the same tournament as a file / демо-турнир и веб-приложение (база сохраняется
    между запусками; заново — --fresh)."""
    from mafiatab.sample import sample_tournament
    from mafiatab.web.demo import (
        DEMO_PASSWORD,
        as_served,
        build_demo,
        judge_with_a_table,
        reopen_demo,
    )

    L = lang.value
    if rules not in PROFILES:
        fail_usage(i18n.t("unknown_rules", L, value=rules, choices=", ".join(PROFILES)))
    db_file = Path("mafiatab-demo.sqlite")
    built = None if fresh else reopen_demo(db_file)
    kept = built is not None
    if built is None:
        t = sample_tournament(rules, players, rounds, seed=2026, final_round=True,
                              name="Демо-турнир" if lang is Lang.ru else "Demo tournament")
        built = build_demo(db_file, t)
    built, table = judge_with_a_table(built)
    # the file, the terminal and the web app show one tournament: the database's
    stored, result = as_served(built.db_path, built.tournament)
    path = Path("mafiatab-demo.json")
    write_tournament_file(stored, path)
    out.print(i18n.t("demo_intro", L, players=i18n.count(len(stored.players), "player", L),
                     games=i18n.count(len(stored.games), "game", L),
                     rules=i18n.federation(PROFILES[rules].title, L), file=str(path.resolve())),
              markup=False)
    out.print(i18n.t("demo_db", L, db=str(built.db_path.resolve()), id=built.tournament),
              markup=False)
    if kept:
        out.print(i18n.t("demo_kept", L), markup=False)
    if built.open_tables:
        out.print(i18n.t("demo_open_round", L, round=built.open_round,
                         tables=i18n.count(len(built.open_tables), "table", L),
                         list=", ".join(map(str, built.open_tables))))
    out.print(i18n.t("demo_db_standings", L))
    print_standings(result, L, None, [])
    out.print(i18n.t("demo_accounts", L, password=DEMO_PASSWORD), markup=False)
    for name, _password, role in built.accounts:
        out.print(f"  {_ROLE_WORDS.get(role, (role, role))[0 if L == 'ru' else 1]:<16} {name}",
                  markup=False)
    if table is not None:
        out.print(i18n.t("demo_code_table", L, user=built.code_user, table=table,
                         code=built.code), markup=False)
    else:
        out.print(i18n.t("demo_code", L, user=built.code_user, code=built.code), markup=False)
    if no_serve:
        return
    from mafiatab.web.server import run

    out.print(i18n.t("demo_open", L, url=f"http://127.0.0.1:{port}/"), markup=False)
    run(str(built.db_path), "127.0.0.1", port, None)


#: the demo's accounts by role, in the glossary's words
_ROLE_WORDS: dict[str, tuple[str, str]] = {
    "organizer": ("организатор", "organizer"),
    "head_judge": ("главный судья", "head judge"),
    "judge": ("судья стола", "table judge"),
    "viewer": ("зритель", "viewer"),
}


@app.command("schema")
def schema_command(
    document: Annotated[str, typer.Argument(
        help="tournament (the tournament file, format 1) or standings (the output of "
        "`standings --json`) / турнирный файл или таблица")],
    lang: LangOpt = Lang.ru,
) -> None:
    """The JSON Schema of the tournament file or of the standings output, generated from
    the program's own types (docs/tournament-file.md) / JSON-схема файла турнира или
    таблицы."""
    from mafiatab.formats.schema import NAMES, dumps_schema

    if document not in NAMES:
        fail_usage(i18n.t("unknown_schema", lang.value, value=document,
                           choices=", ".join(NAMES)))
    sys.stdout.write(dumps_schema(document))


@app.command("rules")
def rules_command(
    profile: Annotated[str, typer.Argument(help=rules_help())] = "fsm",
    markdown: Annotated[bool, typer.Option(
        "--markdown", help="The developers' reference, as in docs/rules.md (English, "
        "setting names, hundredths) / справочник для разработчиков")] = False,
    lang: LangOpt = Lang.ru,
) -> None:
    """Every number and option of a rule profile, with its clause / параметры правил."""
    if profile not in PROFILES:
        fail_usage(i18n.t("unknown_rules", lang.value, value=profile,
                           choices=", ".join(PROFILES)))
    p = PROFILES[profile]
    if markdown:
        from mafiatab.formats.rules_doc import profile_markdown

        sys.stdout.write(profile_markdown(p))
        return
    from mafiatab.formats.rules_doc import profile_rows

    L = lang.value
    table = Table(title=i18n.t("rules_title", L, rules=i18n.federation(p.title, L)),
                  title_justify="left", header_style="bold", expand=False)
    table.add_column(i18n.t("rules_setting", L), ratio=5)
    table.add_column(i18n.t("rules_value", L), ratio=4)
    table.add_column(i18n.t("rules_clause", L), ratio=2, no_wrap=False)
    for name, value, clause in profile_rows(p, L):
        table.add_row(name, value, clause)
    out.print(table)
    out.print(i18n.t("rules_points_note", L))
