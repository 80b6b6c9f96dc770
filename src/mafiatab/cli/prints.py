"""CLI commands of the printouts, spreadsheets, charts and appeal deadlines.

`mafiatab print protocol|standings`, `mafiatab export-standings`, `mafiatab charts`,
`mafiatab appeal-check`. Registered in `cli.py` with one line each. Same promises as the
rest of the CLI: Russian by default, exit 1 on a refused file, 2 on a wrong command line.
"""

from __future__ import annotations

from datetime import datetime, tzinfo
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Annotated

import typer

from mafiatab import i18n
from mafiatab.cli import files as base
from mafiatab.cli.files import FileArg, Lang, LangOpt, StageOpt
from mafiatab.services.tournament_file import standings_of

print_app = typer.Typer(help="Printouts as PDF / печатные формы (PDF)", no_args_is_help=True)

OutOpt = Annotated[Path, typer.Option("-o", "--output", dir_okay=False,
                                      help="Output file / файл результата")]


def _write(path: Path, data: bytes, lang: str) -> None:
    try:
        path.write_bytes(data)
    except OSError as e:
        base.err.print(i18n.t("cannot_read", lang, file=str(path), detail=str(e)),
                       markup=False)
        raise typer.Exit(1) from None
    base.out.print(i18n.t("file_written", lang, file=str(path)), markup=False)


@print_app.command("protocol")
def print_protocol(
    file: FileArg,
    output: OutOpt,
    game: Annotated[list[str] | None, typer.Option(
        "--game", help="Game id, repeatable; default: every game in scope / игра")] = None,
    blank: Annotated[int | None, typer.Option(
        "--blank", min=1, max=500, help="N blank protocols (tables 1..N) / пустые бланки")] = None,
    stage: Annotated[str | None, typer.Option("--stage", help="Stage id / стадия")] = None,
    round_: Annotated[int | None, typer.Option("--round", min=1, help="Round / тур")] = None,
    lang: LangOpt = Lang.ru,
) -> None:
    """Official game protocols (FIIM 9): filled from games, or blank / протоколы игр."""
    from mafiatab.formats.pdf import blank_sheets, protocols_pdf, sheet_of_game

    L = lang.value
    loaded = base.load_file(file, L)
    t = loaded.tournament
    if stage is not None:
        base.check_stages(loaded, [stage], L)
    if blank is not None:
        if game:
            base.fail_usage("--blank / --game: " + ("одно из двух" if L == "ru" else "one of them"))
        if stage is None or round_ is None:
            base.fail_usage("--blank N --stage ID --round R")
        # a round already in the file: its tables carry their players and judges
        sheets = blank_sheets(t, loaded.profile, stage, round_, blank, L, seated=t.games)
    else:
        games = [g for g in t.games
                 if (not game or g.id in game) and (stage is None or g.stage == stage)
                 and (round_ is None or g.round == round_)]
        missing = [gid for gid in game or [] if gid not in {g.id for g in t.games}]
        if missing:
            base.fail_usage(f"Игры {missing[0]!r} нет в турнире." if L == "ru"
                              else f"Game {missing[0]!r} is not in the tournament.")
        if not games:
            base.fail_usage("нет игр для печати" if L == "ru" else "no games to print")
        sheets = [sheet_of_game(t, loaded.profile, g, L) for g in games]
    _write(output, protocols_pdf(sheets, L), L)


@print_app.command("standings")
def print_standings(file: FileArg, output: OutOpt, stage: StageOpt = None,
                    lang: LangOpt = Lang.ru) -> None:
    """The standings as PDF / турнирная таблица в PDF."""
    from mafiatab.formats.pdf import standings_pdf

    L = lang.value
    loaded = base.load_file(file, L)
    base.check_stages(loaded, stage, L)
    s = standings_of(loaded, stage or None)
    names = {st.id: st.name for st in loaded.tournament.stages}
    _write(output, standings_pdf(s, loaded.profile.title, L, names), L)


def export_standings(
    file: FileArg,
    xlsx: Annotated[Path | None, typer.Option("--xlsx", dir_okay=False,
                                              help="Workbook: standings and games")] = None,
    csv: Annotated[Path | None, typer.Option("--csv", dir_okay=False,
                                             help="Standings as CSV")] = None,
    games_csv: Annotated[Path | None, typer.Option(
        "--games-csv", dir_okay=False, help="Every game's points as CSV / баллы по играм")] = None,
    paper_csv: Annotated[Path | None, typer.Option(
        "--paper-csv", dir_okay=False,
        help="Fouls, nominations, votes, explanations, protests as CSV / бланки")] = None,
    decimal_comma: Annotated[bool, typer.Option(
        "--decimal-comma", help="CSV for a Russian Excel: ';' and '0,4'")] = False,
    stage: StageOpt = None,
    lang: LangOpt = Lang.ru,
) -> None:
    """Standings and every game's points as XLSX / CSV / таблица для Excel."""
    from mafiatab.formats import csv_export
    from mafiatab.formats.xlsx import workbook_bytes

    L = lang.value
    if xlsx is None and csv is None and games_csv is None and paper_csv is None:
        base.fail_usage("--xlsx FILE | --csv FILE | --games-csv FILE | --paper-csv FILE")
    loaded = base.load_file(file, L)
    base.check_stages(loaded, stage, L)
    scope = stage or None
    s = standings_of(loaded, scope)
    t, p = loaded.tournament, loaded.profile
    if xlsx is not None:
        _write(xlsx, workbook_bytes(s, t, p, L, scope), L)
    if csv is not None:
        _write(csv, csv_export.standings_csv(s, L, decimal_comma), L)
    if games_csv is not None:
        _write(games_csv, csv_export.games_csv(t, p, L, scope, decimal_comma), L)
    if paper_csv is not None:
        _write(paper_csv, csv_export.paper_csv(t, L, scope, decimal_comma), L)


def charts(
    file: FileArg,
    out_dir: Annotated[Path, typer.Option("--out", file_okay=False,
                                          help="Folder for the charts / папка")],
    svg: Annotated[bool, typer.Option("--svg", help="SVG instead of PNG")] = False,
    stage: StageOpt = None,
    lang: LangOpt = Lang.ru,
) -> None:
    """Places round by round, win rates by role and by seat / графики."""
    from mafiatab.formats.charts import all_charts, available, missing_words

    L = lang.value
    if not available():
        for line in missing_words(L):
            base.err.print(line, markup=False, soft_wrap=True)
        raise typer.Exit(1)
    loaded = base.load_file(file, L)
    base.check_stages(loaded, stage, L)
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        base.err.print(i18n.t("cannot_read", L, file=str(out_dir), detail=str(e)),
                       markup=False)
        raise typer.Exit(1) from None
    made = all_charts(loaded.tournament, loaded.profile, L, "svg" if svg else "png",
                      stage or None)
    for name, data in made.items():
        _write(out_dir / name, data, L)


def _when(value: str, lang: str, zone: tzinfo | None = None) -> datetime:
    """An ISO time; with no offset, on the `--time-zone` clock when one is given."""
    try:
        moment = datetime.fromisoformat(value)
        return moment if moment.tzinfo is not None or zone is None else moment.replace(tzinfo=zone)
    except ValueError:
        base.fail_usage(f"{value!r}: " + ("время в формате ISO, например 2026-03-07T12:30"
                                          if lang == "ru" else
                                          "an ISO time, e.g. 2026-03-07T12:30"))


def appeal_check(
    file: FileArg,
    game: Annotated[str, typer.Option("--game", help="Game id / игра")],
    player: Annotated[str, typer.Option("--player", help="Player id or nickname / игрок")],
    now: Annotated[str, typer.Option("--now", help="Moment of filing, ISO / момент подачи")],
    protest: Annotated[bool, typer.Option("--protest", help="A protest on the result")] = False,
    subject: Annotated[str, typer.Option(
        "--subject", help="positive_extra | penalty | other")] = "positive_extra",
    awarded: Annotated[str | None, typer.Option("--awarded", help="Score awarded, e.g. 0.2")] = None,
    claimed: Annotated[str | None, typer.Option("--claimed", help="Score asked, e.g. 0.6")] = None,
    ended: Annotated[str | None, typer.Option("--ended", help="Game ended, ISO")] = None,
    published: Annotated[str | None, typer.Option("--published", help="Protocol published")] = None,
    schedule: Annotated[Path | None, typer.Option(
        "--schedule", exists=True, dir_okay=False,
        help="Schedule JSON: {\"rounds\": [{stage, round, day, starts}], \"tables_closed_at\"}")
    ] = None,
    time_zone: Annotated[str | None, typer.Option(
        "--time-zone", help="The tournament's clock, e.g. Europe/Moscow: times without an "
        "offset are on it, the answer shows it / часовой пояс турнира")] = None,
    lang: LangOpt = Lang.ru,
) -> None:
    """May this protest or appeal be filed now? Every refusal with its clause; exit 0:
    allowed, 1: refused / можно ли подать протест или апелляцию; код 0 — можно, 1 — нет."""
    import msgspec

    from mafiatab.domain import appeals as ap
    from mafiatab.services.clock import valid_zone

    L = lang.value
    zone = valid_zone(time_zone) if time_zone else None
    if time_zone and zone is None:
        base.fail_usage(f"--time-zone {time_zone!r}: Europe/Moscow, America/New_York, UTC…")
    loaded = base.load_file(file, L)
    g = next((x for x in loaded.tournament.games if x.id == game), None)
    if g is None:
        base.fail_usage(i18n.t("unknown_game_arg", L, value=game))
    pid = base.find_player(loaded, player)
    if pid is None:
        base.fail_usage(i18n.t("unknown_player_arg", L, value=player))
    sched = ap.Schedule()
    if schedule is not None:
        try:
            sched = msgspec.json.decode(schedule.read_bytes(), type=ap.Schedule)
        except (OSError, msgspec.DecodeError, msgspec.ValidationError) as e:
            base.fail_usage(f"--schedule: {e}")
    if subject not in {s.value for s in ap.Subject} - {"result"}:
        base.fail_usage("--subject: positive_extra | penalty | other")

    def dec(v: str | None) -> Decimal | None:
        try:
            return None if v is None else Decimal(v.replace(",", "."))
        except InvalidOperation:
            base.fail_usage(f"{v!r}: 0.4")

    filing = ap.Filing(kind=ap.Kind.PROTEST if protest else ap.Kind.APPEAL, player=pid, game=g.id,
                       subject=ap.Subject.RESULT if protest else ap.Subject(subject),
                       awarded=dec(awarded), claimed=dec(claimed))
    times = ap.GameTimes(ended=_when(ended, L, zone) if ended else None,
                         published=_when(published, L, zone) if published else None)
    moment = _when(now, L, zone)
    refusals = ap.check_filing(filing, g, loaded.profile, sched, times, [], moment)
    if refusals:
        for r in refusals:
            when = (lambda v: i18n.local_time(v, zone, L)) if zone is not None else None
            base.err.print("  • " + r.message(L, zone, when), markup=False)
        raise typer.Exit(1)
    deadline = ap.filing_deadline(filing.kind, g, loaded.profile, sched, times)
    ok = "можно подать" if L == "ru" else "may be filed"
    if deadline is not None:
        until = "до" if L == "ru" else "until"
        at = (i18n.local_time(deadline.at, zone, L) if zone is not None else
              deadline.at.strftime("%d.%m.%Y %H:%M" if L == "ru" else "%Y-%m-%d %H:%M"))
        ok += f" {until} {at} ({base.clause_text(deadline.clause, L)})"
    base.out.print(ok)
