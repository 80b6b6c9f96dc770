"""`mafiatab day ...`: the desk's check-in and no-shows, and the team standings, from the
command line (the same service calls as the pages; registered by `mafiatab.cli` with one
line).

    mafiatab day present T PLAYER... --as USER [--absent]
    mafiatab day no-shows T --as USER [--json]
    mafiatab day replace T ABSENT RESERVE --as USER
    mafiatab day reseat T --as USER
    mafiatab day teams T [--json]
    mafiatab day swap T ROUND FIRST SECOND --as USER [--confirm] [--json]

Writes need `--as`: an account that is the tournament's organizer or head judge (the
audit log names it). Exit codes as everywhere: 1 refused, 2 a wrong command line.
"""

from __future__ import annotations

import json
import sys
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console
from rich.table import Table

from mafiatab.cli.db import DbOpt, LangOpt, TournamentArg, database_errors, open_service

if TYPE_CHECKING:
    from mafiatab.services.checkin import CheckinService
    from mafiatab.services.facade import Services
    from mafiatab.services.teams import TeamService

day_app = typer.Typer(help="The tournament day: check-in, no-shows, teams / день турнира",
                      no_args_is_help=True)
out = Console(highlight=False, width=None if sys.stdout.isatty() else 160)

AsOpt = Annotated[str, typer.Option("--as", help="The acting account (organizer or head "
                                    "judge) / от чьего имени")]
JsonOpt = Annotated[bool, typer.Option("--json", help="JSON output")]

TEXT: dict[str, tuple[str, str]] = {
    "marked": ("Отмечено: {n}", "Marked: {n}"),
    "no_round": ("Ни один тур не ждёт начала.", "No round waits to start."),
    "round": ("{stage}, тур {round}: не пришли {n}", "{stage}, round {round}: {n} no-shows"),
    "player": ("Игрок", "Player"),
    "where": ("Стол, место", "Table, seat"),
    "reserve": ("Заменить на", "Replace by"),
    "reseated": ("Пересажено: столы {tables}; Σ m² {a} → {b}", "Re-seated: tables {tables}; "
                 "Σ m² {a} → {b}"),
    "replaced": ("Стол {table}: {reserve} вместо {absent}", "Table {table}: {reserve} for "
                 "{absent}"),
    "team": ("Команда", "Team"),
    "place": ("Место", "Place"),
    "total": ("Итого", "Total"),
    "no_teams": ("Команд нет.", "No teams."),
    "figure": ("Показатель", "Figure"),
    "before": ("Было", "Before"),
    "after": ("Станет", "After"),
    "swapped": ("Поменяны местами: {a} и {b}.", "Swapped: {a} and {b}."),
    "preview": ("Ничего не изменено; чтобы поменять, добавьте --confirm.",
                "Nothing changed; add --confirm to swap."),
}


def _t(key: str, lang: str, **params: object) -> str:
    ru, en = TEXT[key]
    return (en if lang == "en" else ru).format(**params)


def _lang(lang: str) -> str:
    if lang not in ("ru", "en"):
        print(f"--lang: {lang!r} (ru, en)", file=sys.stderr)
        raise typer.Exit(2)
    return lang


def _day(db: str | None) -> tuple[Services, CheckinService, TeamService]:
    from mafiatab.services.checkin import CheckinService
    from mafiatab.services.teams import TeamService

    svc = open_service(db)
    return svc, CheckinService(svc.store), TeamService(svc.store, svc.standings.compute)


@day_app.command("present")
def present_command(tournament: TournamentArg, players: Annotated[list[str], typer.Argument()],
                    actor: AsOpt, absent: bool = False, db: DbOpt = None,
                    lang: LangOpt = "ru") -> None:
    """Mark players present (or, with --absent, not) / отметить пришедших."""
    lang = _lang(lang)
    with database_errors(lang):
        svc, checkin, _teams = _day(db)
        tid = svc.tournaments.find_tournament(tournament)
        for p in players:
            checkin.set_present(tid, p, not absent, actor=actor)
    out.print(_t("marked", lang, n=len(players)))


@day_app.command("no-shows")
def no_shows_command(tournament: TournamentArg, actor: AsOpt, db: DbOpt = None,
                     lang: LangOpt = "ru", as_json: JsonOpt = False) -> None:
    """The next round's no-shows and the reserve suggested for each / кто не пришёл."""
    lang = _lang(lang)
    with database_errors(lang):
        svc, checkin, _teams = _day(db)
        plan = checkin.next_round(svc.tournaments.find_tournament(tournament), actor=actor)
    if as_json:
        print(json.dumps(None if plan is None else {
            "stage": plan.stage, "round": plan.round, "reserves": plan.reserves,
            "metrics": plan.metrics.as_json(),
            "no_shows": [{"player": n.player, "table": n.table, "seat": n.seat,
                          "suggested": n.suggested} for n in plan.no_shows]},
            ensure_ascii=False))
        return
    if plan is None:
        out.print(_t("no_round", lang))
        return
    table = Table(title=_t("round", lang, stage=plan.stage, round=plan.round,
                           n=len(plan.no_shows)))
    for key in ("player", "where", "reserve"):
        table.add_column(_t(key, lang))
    for n in plan.no_shows:
        table.add_row(n.player, f"{n.table}, {n.seat}", n.suggested or "—")
    out.print(table)


@day_app.command("replace")
def replace_command(tournament: TournamentArg, absent: str, reserve: str, actor: AsOpt,
                    db: DbOpt = None, lang: LangOpt = "ru") -> None:
    """The reserve takes the no-show's seat in the next round / замена не пришедшего."""
    lang = _lang(lang)
    with database_errors(lang):
        svc, checkin, _teams = _day(db)
        tid = svc.tournaments.find_tournament(tournament)
        plan = checkin.next_round(tid, actor=actor)
        if plan is None:
            out.print(_t("no_round", lang))
            raise typer.Exit(1)
        tb = checkin.replace(tid, plan.stage, plan.round, absent, reserve, actor=actor)
    out.print(_t("replaced", lang, table=tb.number, reserve=reserve, absent=absent))


@day_app.command("reseat")
def reseat_command(tournament: TournamentArg, actor: AsOpt, db: DbOpt = None,
                   lang: LangOpt = "ru") -> None:
    """Re-seat the next round for those present / пересадить тур для пришедших."""
    lang = _lang(lang)
    with database_errors(lang):
        svc, checkin, _teams = _day(db)
        tid = svc.tournaments.find_tournament(tournament)
        plan = checkin.next_round(tid, actor=actor)
        if plan is None:
            out.print(_t("no_round", lang))
            raise typer.Exit(1)
        r = checkin.reseat(tid, plan.stage, plan.round, actor=actor)
    out.print(_t("reseated", lang, tables=", ".join(map(str, r.changed_tables)) or "—",
                 a=r.before.sum_sq, b=r.after.sum_sq))


@day_app.command("teams")
def teams_command(tournament: TournamentArg, db: DbOpt = None, lang: LangOpt = "ru",
                  as_json: JsonOpt = False) -> None:
    """The team standings / командный зачёт."""
    from mafiatab.domain.points import format_points

    lang = _lang(lang)
    with database_errors(lang):
        svc, _checkin, teams = _day(db)
        rows = teams.standings(svc.tournaments.find_tournament(tournament))
    if as_json:
        print(json.dumps([{"team": r.team, "name": r.name, "place": r.place,
                           "total": format_points(r.total, "en"),
                           "lot_needed": r.lot_needed} for r in rows], ensure_ascii=False))
        return
    if not rows:
        out.print(_t("no_teams", lang))
        return
    table = Table()
    for key in ("place", "team", "total"):
        table.add_column(_t(key, lang))
    for r in rows:
        table.add_row(f"{r.place}{'*' if r.lot_needed else ''}", r.name,
                      format_points(r.total, lang))
    out.print(table)


__all__ = ["day_app"]


@day_app.command("swap")
def swap_command(tournament: TournamentArg,
                 rnd: Annotated[int, typer.Argument(help="The seating's round / тур рассадки")],
                 first: Annotated[str, typer.Argument(help="A player / первый игрок")],
                 second: Annotated[str, typer.Argument(help="The other player / второй игрок")],
                 actor: AsOpt,
                 confirm: Annotated[bool, typer.Option(
                     "--confirm", help="Swap (otherwise only show) / поменять")] = False,
                 db: DbOpt = None, lang: LangOpt = "ru", as_json: JsonOpt = False) -> None:
    """Swap two players of a seated round: every figure before and after / замена."""
    from mafiatab.services.seating_web import SeatingDesk

    lang = _lang(lang)
    with database_errors(lang):
        svc = open_service(db)
        tid = svc.tournaments.find_tournament(tournament)
        desk = SeatingDesk(svc)
        call = desk.swap if confirm else desk.preview_swap
        done = call(tid, rnd, first, second, actor=actor, lang=lang)
    if as_json:
        print(json.dumps(done.as_json(), ensure_ascii=False, indent=1))
        return
    table = Table(_t("figure", lang), _t("before", lang), _t("after", lang))
    for c in done.changes:
        table.add_row(c.label, c.before, c.after)
    out.print(table)
    out.print(_t("swapped", lang, a=done.first, b=done.second) if confirm
              else _t("preview", lang))
