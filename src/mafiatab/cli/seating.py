"""`mafiatab seating`: the command-line face of the seating generator.

Exit codes: 0 success, 1 an impossible request (the reason is printed), 2 a wrong command line.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer
from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from mafiatab.domain.problems import Problem, Refused
from mafiatab.seating.model import (
    InfeasibleRequest,
    build_request,
    mean_meetings,
    require_generator,
)
from mafiatab.texts.seating import SEATING_CLI

if TYPE_CHECKING:
    from mafiatab.seating.generate import Result

MESSAGES = {
    "ru": {
        "round": "Тур",
        "table": "Стол",
        "metrics": "Показатели",
        "max": "Больше всего встреч пары",
        "min": "Меньше всего встреч пары",
        "never": "Пар, не встретившихся ни разу",
        "sumsq": "Σ m²",
        "hist": "Гистограмма встреч",
        "seat": "Ячеек игрок–место вне нормы (S1)",
        "group": "Ячеек игрок–пара мест/половина вне нормы (S2)",
        "tablecells": "Ячеек игрок–стол вне нормы (T1)",
        "hard": "Нарушено жёстких ограничений",
        "seats": "Места за столом",
        "mu": "Среднее μ",
        "stopped": "Остановлено: показана лучшая рассадка на этот момент.",
        "searching": "Подбор столов",
        "refused": "Рассадку составить нельзя",
        "method": "Метод",
    },
    "en": {
        "round": "Round",
        "table": "Table",
        "metrics": "Metrics",
        "max": "Most meetings of a pair",
        "min": "Fewest meetings of a pair",
        "never": "Pairs that never meet",
        "sumsq": "Σ m²",
        "hist": "Histogram of meetings",
        "seat": "Player–seat cells off (S1)",
        "group": "Player–seat-pair/half cells off (S2)",
        "tablecells": "Player–table cells off (T1)",
        "hard": "Hard constraints broken",
        "seats": "Seats at the table",
        "mu": "Mean μ",
        "stopped": "Stopped: the best seating so far is shown.",
        "searching": "Choosing tables",
        "refused": "No seating is possible",
        "method": "Method",
    },
}


#: how the seating was made (Result.method), in words
METHODS: dict[str, tuple[str, str]] = {
    "search": ("поиск", "search"),
    "affine": ("аффинная плоскость", "affine plane"),
    "hadamard": ("матрица Адамара", "Hadamard matrix"),
}


def method_text(method: str, lang: str) -> str:
    """`hadamard+search` -> `матрица Адамара, затем поиск`."""
    i = 0 if lang == "ru" else 1
    words = [METHODS.get(part, (part, part))[i] for part in method.split("+")]
    return (", затем " if lang == "ru" else ", then ").join(words)


class BadCommandLine(Refused):
    """A wrong command line (one of the `Refused` family): its code a key of the
    catalogue's `seating_cli` section; reported as one line, exit 2."""

    def __init__(self, code: str, **params: Any) -> None:
        super().__init__([Problem(code, params=params, texts=SEATING_CLI)])


def _parse_rounds(text: str) -> set[int]:
    """'1-3,5' → {0, 1, 2, 4}."""
    out: set[int] = set()
    for part in text.split(","):
        m = re.fullmatch(r"\s*(\d+)\s*(?:-\s*(\d+)\s*)?", part)
        if not m:
            raise BadCommandLine("cli_bad_rounds", text=text)
        lo = int(m.group(1))
        hi = int(m.group(2) or lo)
        if lo < 1 or hi < lo:
            raise BadCommandLine("cli_bad_round_range", part=part)
        out.update(range(lo - 1, hi))
    return out


def _player(text: str, players: int) -> int:
    if not text.strip().isdigit() or not 1 <= int(text) <= players:
        raise BadCommandLine("cli_bad_player", text=text, players=str(players))
    return int(text) - 1


def _load_clubs(path: Path, players: int) -> dict[int, str]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise BadCommandLine("cli_clubs_unreadable", path=str(path), error=str(exc)) from None
    if not isinstance(data, dict):
        raise BadCommandLine("cli_clubs_not_object")
    clubs: dict[int, str] = {}
    for key, value in data.items():
        if not isinstance(value, str | int) or isinstance(value, bool):
            raise BadCommandLine("cli_club_not_string", key=str(key))
        clubs[_player(str(key), players)] = str(value)
    return clubs


def _render(result: Result, lang: str, console: Console, players: int) -> None:
    """A row per table of a round, the ten seats as columns: 60 characters wide for up to
    999 players, whatever the number of tables, so it fits an 80-column terminal."""
    from rich import box

    from mafiatab import i18n

    msg = MESSAGES[lang]
    rounds = result.seating.rounds
    seats = max((len(table) for rnd in rounds for table in rnd), default=10)
    grid = Table(title=msg["seats"], box=box.SIMPLE_HEAD,
                 pad_edge=False, padding=(0, 1))
    grid.add_column(msg["round"], justify="right", no_wrap=True)
    grid.add_column(msg["table"], justify="right", no_wrap=True)
    for seat in range(1, seats + 1):
        grid.add_column(str(seat), justify="right", no_wrap=True)
    for i, rnd in enumerate(rounds):
        for t, table in enumerate(rnd):
            grid.add_row(str(i + 1) if t == 0 else "", str(t + 1),
                         *(str(p + 1) for p in table), end_section=t == len(rnd) - 1)
    console.print(grid)
    m = result.metrics
    mt = Table(title=msg["metrics"], show_header=False)
    mt.add_column()
    mt.add_column(justify="right")
    mu = f"{mean_meetings(players, result.seating.games):.3f}"
    mt.add_row(msg["method"], method_text(result.method, lang))
    mt.add_row(msg["mu"], mu.replace(".", ",") if lang == "ru" else mu)
    mt.add_row(msg["max"], f"{m.max_meetings} ({i18n.count(m.pairs_at_max, 'pair', lang)})")
    mt.add_row(msg["min"], str(m.min_meetings))
    mt.add_row(msg["never"], str(m.pairs_never))
    mt.add_row(msg["sumsq"], str(m.sum_sq))
    mt.add_row(msg["hist"], "  ".join(f"{k}:{v}" for k, v in m.histogram.items()))
    mt.add_row(msg["seat"], str(m.seat_cells_off))
    mt.add_row(msg["group"], str(m.seat_group_cells_off))
    mt.add_row(msg["tablecells"], str(m.table_cells_off))
    mt.add_row(msg["hard"], str(m.hard_violations))
    console.print(mt)


def seating_command(
    players: int = typer.Option(..., "--players", "-n", min=1, help="Number of players N."),
    games: int = typer.Option(..., "--games", "-r", min=1, help="Games per player R."),
    tables: int | None = typer.Option(None, "--tables", "-t", min=1, help="Tables per round."),
    seed: int = typer.Option(0, "--seed", min=0, help="Random seed (same seed, same seating)."),
    as_json: bool = typer.Option(False, "--json", help="Print mafiatab.seating/1 JSON."),
    time_limit: float = typer.Option(
        0.0, "--time-limit", min=0.0, help="Stop the search after SECONDS (0: 55 s, 280 s > 100)."
    ),
    iterations: int | None = typer.Option(
        None, "--iterations", min=1, hidden=True, help="Search moves per run (tests)."
    ),
    clubs_file: Path | None = typer.Option(
        None, "--clubs", help="JSON file {player: club}: club-mates never share a table."
    ),
    pins: list[str] = typer.Option(
        [], "--pin", "--pins", help="P:T pins player P to table T (repeatable)."
    ),
    availability: list[str] = typer.Option(
        [], "--availability", help="P:ROUNDS, e.g. 7:1-4,6 — player 7 comes only then."
    ),
    lang: str = typer.Option("ru", "--lang", help="Language of messages: ru or en."),
) -> None:
    """Seating for qualification rounds: fair seats and fair meetings. / Рассадка отборочных
    туров."""
    if lang not in MESSAGES:
        raise typer.BadParameter("--lang: ru, en")
    err = Console(stderr=True)
    try:
        clubs, pin_map, avail = _constraints(players, clubs_file, pins, availability)
    except BadCommandLine as bad:
        err.print(bad.message(lang), style="red", markup=False)
        raise typer.Exit(2) from None
    _run(players, games, tables, seed, as_json, time_limit, iterations, clubs, pin_map, avail,
         lang, err)


def _constraints(players: int, clubs_file: Path | None, pins: list[str], availability: list[str]
                 ) -> tuple[dict[int, str], dict[int, int], dict[int, frozenset[int]]]:
    """The command line's clubs, pins and availability, checked."""
    clubs = _load_clubs(clubs_file, players) if clubs_file is not None else {}
    pin_map: dict[int, int] = {}
    for item in pins:
        for part in item.split(","):
            m = re.fullmatch(r"\s*(\d+)\s*[:=]\s*(\d+)\s*", part)
            if not m or int(m.group(2)) < 1:
                raise BadCommandLine("cli_bad_pin", part=part)
            pin_map[_player(m.group(1), players)] = int(m.group(2)) - 1
    avail: dict[int, frozenset[int]] = {}
    for item in availability:
        m = re.fullmatch(r"\s*(\d+)\s*[:=](.+)", item)
        if not m:
            raise BadCommandLine("cli_bad_availability", item=item)
        avail[_player(m.group(1), players)] = frozenset(_parse_rounds(m.group(2)))
    return clubs, pin_map, avail


def _run(players: int, games: int, tables: int | None, seed: int, as_json: bool,
         time_limit: float, iterations: int | None, clubs: dict[int, str],
         pin_map: dict[int, int], avail: dict[int, frozenset[int]], lang: str,
         err: Console) -> None:
    """Generate and print: the part of the command after its line is read."""
    msg = MESSAGES[lang]
    try:
        require_generator()
    except InfeasibleRequest as exc:
        err.print(exc.reason(lang), markup=False, soft_wrap=True)
        raise typer.Exit(1) from None
    # the optimizer brings numba and OR-Tools: imported here, so that every other
    # command of `mafiatab` starts without them (and works when they are not installed)
    from mafiatab.seating.generate import generate, to_json

    try:
        request = build_request(
            players, games, tables, seed=seed, clubs=clubs, pins=pin_map, availability=avail
        )
        limit = time_limit or (55.0 if players <= 100 else 280.0)
        with Progress(
            TextColumn("{task.description}"),
            BarColumn(),
            TextColumn("{task.percentage:>3.0f}%"),
            TimeElapsedColumn(),
            TextColumn("{task.fields[info]}"),
            console=err,
            transient=True,
        ) as bar:
            task = bar.add_task(msg["searching"], total=1.0, info="")

            def report(frac: float, info: str) -> None:
                bar.update(task, completed=frac, info=info)

            result = generate(request, time_limit=limit, iterations=iterations, progress=report)
    except InfeasibleRequest as exc:
        err.print(f"[red]{msg['refused']}:[/red] {exc.reason(lang)}")
        raise typer.Exit(1) from None
    except KeyboardInterrupt:
        err.print(msg["stopped"])
        raise typer.Exit(130) from None
    if result.interrupted:
        err.print(msg["stopped"])
    if as_json:
        sys.stdout.write(json.dumps(to_json(result), ensure_ascii=False) + "\n")
    else:
        _render(result, lang, Console(), players)
    if result.metrics.hard_violations:
        raise typer.Exit(1)
