"""`mafiatab ratings FILE... [--db URL] [--json] [--predictions]`: the open rating.

Registered by `mafiatab.cli` (the package) with one line. The use case is `services.ratings`; this
module only reads the command line and prints. Exit codes as everywhere: 1 a refused or
unreadable file or a database that cannot be used, 2 a wrong command line.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer
from rich.console import Console
from rich.table import Table

out = Console(highlight=False, width=None if sys.stdout.isatty() else 160)
err = Console(stderr=True, highlight=False, soft_wrap=True)

TEXT: dict[str, tuple[str, str]] = {
    "title": ("Рейтинг: {games}, {players}", "Rating: {games}, {players}"),
    "place": ("Место", "Place"),
    "player": ("Игрок", "Player"),
    "rating": ("Рейтинг", "Rating"),
    "red": ("За красных", "As red"),
    "black": ("За чёрных", "As black"),
    "deviation": ("±", "±"),
    "games": ("Игры", "Games"),
    "wins": ("Победы", "Wins"),
    "elo": ("Эло (mafiaratings)", "Elo (mafiaratings)"),
    "tournament": ("Турнир", "Tournament"),
    "game": ("Игра", "Game"),
    "p_red": ("Шанс красных", "Red's chance"),
    "result": ("Итог", "Result"),
    "measure": (
        "Логарифмическая ошибка прогнозов (меньше — лучше): наш рейтинг {ours}, "
        "Эло mafiaratings {elo}, доля побед красных {base}. Брайер: {b_ours}, {b_elo}, {b_base}.",
        "Log-loss of the predictions (lower is better): our rating {ours}, "
        "mafiaratings' Elo {elo}, red's share of wins {base}. Brier: {b_ours}, {b_elo}, {b_base}.",
    ),
    "experience": ("Опыт: 100 рейтинговых игр прибавляют игроку {gain} очков силы (выучено по "
                   "играм).",
                   "Experience: 100 rated games add {gain} points to a player's strength "
                   "(learned from the games)."),
    "first_killed_teaches": (
        "Первый убитый (ПУ): игра говорит о нём {share} того, что о других игроках "
        "(выучено по играм, где он записан; таких игр: {n}).",
        "First killed: a game tells {share} as much about him as about the other players "
        "(learned from the games that record him: {n})."),
    "calibration_title": ("Надёжность прогнозов: предсказанная и наблюдаемая доля побед "
                          "красных по десяткам процентов",
                          "Reliability: predicted and observed red-win rate by tenth"),
    "tenth": ("Прогноз", "Predicted"),
    "slope": ("Наклон калибровки (1 — прогнозы надёжны, меньше 1 — самоуверенны): наш рейтинг "
              "{ours}, Эло {elo}.",
              "Calibration slope (1: reliable, below 1: over-confident): our rating {ours}, "
              "Elo {elo}."),
    "provisional": ("(предварительный)", "(provisional)"),
    "no_slope": ("Наклон калибровки не считается: меньше {n} игр.",
                 "No calibration slope: fewer than {n} games."),
    "ours_pred": ("Наш: прогноз", "Ours: predicted"),
    "ours_obs": ("Наш: вышло", "Ours: observed"),
    "elo_pred": ("Эло: прогноз", "Elo: predicted"),
    "elo_obs": ("Эло: вышло", "Elo: observed"),
    "no_games": ("Нет рейтинговых игр.", "No rated games."),
    "args": ("Укажите файлы турниров или --db, но не то и другое.",
             "Give tournament files or --db, not both."),
    "bad_kind": ("--stage-kind: {value!r} (qualification, semifinal, final)",
                 "--stage-kind: {value!r} (qualification, semifinal, final)"),
    "unknown_game": ("--what-if: нет такой рейтинговой игры {value!r} (ТУРНИР/ИГРА)",
                     "--what-if: no rated game {value!r} (TOURNAMENT/GAME)"),
    "what_if_title": ("Что, если: {tournament}, игра {game}; шанс красных до игры {p} %",
                      "What if: {tournament}, game {game}; red's chance before it {p}%"),
    "seat": ("Место", "Seat"),
    "role": ("Роль", "Role"),
    "before": ("До игры", "Before"),
    "if_red": ("Победа красных", "Red wins"),
    "if_black": ("Победа чёрных", "Black wins"),
    "if_draw": ("Ничья", "Draw"),
    "cannot_read": ("Не удалось прочитать {file}: {detail}", "Cannot read {file}: {detail}"),
    "refused": ("Файл {file} отклонён:", "The file {file} is refused:"),
}
ROLE: dict[str, tuple[str, str]] = {"red": ("мирный", "civilian"), "sheriff": ("шериф", "sheriff"),
                                    "black": ("мафия", "mafia"), "don": ("дон", "don")}
RESULT: dict[str, tuple[str, str]] = {"red": ("победа красных", "red win"),
                                      "black": ("победа чёрных", "black win"),
                                      "draw": ("ничья", "draw")}


def _t(key: str, lang: str, **params: Any) -> str:
    ru, en = TEXT[key]
    return (ru if lang == "ru" else en).format(**params)


def _num(value: float, lang: str, places: int = 1, sign: bool = False) -> str:
    text = f"{value:+.{places}f}" if sign else f"{value:.{places}f}"
    return text.replace(".", ",") if lang == "ru" else text


def _fail(message: str, code: int) -> NoReturn:
    err.print(message, markup=False, style="red")
    raise typer.Exit(code)


def ratings_command(
    files: Annotated[list[Path] | None, typer.Argument(
        exists=True, dir_okay=False, readable=True,
        help="Tournament files, format 1, in any order / файлы турниров")] = None,
    db: Annotated[str | None, typer.Option(
        "--db", help="Rate the database's tournaments instead / рейтинг по базе")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="mafiatab.ratings/1 JSON")] = False,
    predictions: Annotated[bool, typer.Option(
        "--predictions", help="Also list each game's p_red / прогноз каждой игры")] = False,
    stage_kind: Annotated[list[str] | None, typer.Option(
        "--stage-kind", help="Only stages of these kinds count (repeatable; default all) "
        "/ только стадии этих видов")] = None,
    unrated: Annotated[list[str] | None, typer.Option(
        "--unrated", help="A tournament (by name) that does not count / нерейтинговый турнир")
    ] = None,
    elite: Annotated[list[str] | None, typer.Option(
        "--elite", help="An elite tournament (Elo baseline's K 64/48) / элитный турнир")] = None,
    what_if: Annotated[str | None, typer.Option(
        "--what-if", help="TOURNAMENT/GAME: each result's effect on the players' ratings "
        "/ что, если: влияние исхода игры на рейтинг")] = None,
    min_games: Annotated[int, typer.Option(
        "--min-games", min=0, max=1000, help="Rated games a player needs to be placed; "
        "fewer: listed after, provisional / игр до места в рейтинге")] = 0,
    calibration: Annotated[bool, typer.Option(
        "--calibration", help="The reliability table, log-loss and Brier against the base "
        "rate and Elo / надёжность прогнозов")] = False,
    lang: Annotated[str, typer.Option("--lang", help="ru (default) or en / язык вывода")] = "ru",
) -> None:
    """Rate every player over the games of the files or the database / рейтинг игроков.

    A player is the same person in two files when his player id is the same; in the
    database, when he is the same database player.
    """
    from mafiatab.domain.protocol import STAGE_KINDS
    from mafiatab.domain.ratings import RatingSettings
    from mafiatab.services.ratings import (
        FileRefused,
        dumps_ratings,
        rate_database,
        rate_files,
        what_if_of,
    )

    if lang not in ("ru", "en"):
        _fail(f"--lang: {lang!r} (ru, en)", 2)
    if bool(files) == (db is not None):
        _fail(_t("args", lang), 2)
    for kind in stage_kind or []:
        if kind not in STAGE_KINDS:
            _fail(_t("bad_kind", lang, value=kind), 2)
    settings = RatingSettings(
        stage_kinds=frozenset(stage_kind) if stage_kind else frozenset(STAGE_KINDS),
        unrated=frozenset(unrated or []), elite=frozenset(elite or []))
    if db is not None:
        from mafiatab.cli.db import t as db_text
        from mafiatab.storage.engine import DatabaseError

        try:
            run = rate_database(db, settings)
        except DatabaseError as e:
            _fail(db_text(e.code, lang, **e.params), 1)
    else:
        try:
            run = rate_files(files or [], settings)
        except FileRefused as e:
            if e.detail is not None:
                _fail(_t("cannot_read", lang, file=str(e.path), detail=e.detail), 1)
            err.print(_t("refused", lang, file=str(e.path)), markup=False, style="bold red")
            for p in e.problems:
                if not p.warning:
                    err.print("  • " + p.message(lang), markup=False)
            raise typer.Exit(1) from None
    if what_if is not None:
        found = what_if_of(run, what_if)
        if found is None:
            _fail(_t("unknown_game", lang, value=what_if), 2)
        _print_what_if(found, run.nicknames, lang, as_json)
        return
    if as_json:
        sys.stdout.write(dumps_ratings(run, calibration))
        return
    _print(run, lang, predictions, min_games)
    if calibration and run.games:
        _print_calibration(run, lang)


def _print_calibration(run: Any, lang: str) -> None:
    table = Table(title=_t("calibration_title", lang), title_justify="left",
                  header_style="bold")
    for c in ("tenth", "games", "ours_pred", "ours_obs", "elo_pred", "elo_obs"):
        table.add_column(_t(c, lang), justify="right")
    ours = {b.low: b for b in run.measures["ours"].bins}
    elo = {b.low: b for b in run.measures["elo"].bins}
    for low in sorted(set(ours) | set(elo)):
        o, e = ours.get(low), elo.get(low)
        span = f"{_num(100 * low, lang, 0)}–{_num(100 * low + 10, lang, 0)} %"
        cells = [span, f"{o.games if o else 0} / {e.games if e else 0}"]
        for b in (o, e):
            cells += (["—", "—"] if b is None else
                      [_num(100 * b.predicted, lang), _num(100 * b.observed, lang)])
        table.add_row(*cells)
    out.print(table)
    ours, elo = run.measures["ours"].slope, run.measures["elo"].slope
    if ours is None or elo is None:
        from mafiatab.domain.ratings import SLOPE_GAMES

        out.print(_t("no_slope", lang, n=SLOPE_GAMES))
    else:
        out.print(_t("slope", lang, ours=_num(ours, lang, 2), elo=_num(elo, lang, 2)))


def _print_what_if(w: Any, nicknames: dict[str, str], lang: str, as_json: bool) -> None:
    if as_json:
        import json

        sys.stdout.write(json.dumps({
            "format": "mafiatab.what-if/1", "tournament": w.tournament, "game": w.game,
            "p_red": w.p_red,
            "seats": [{"seat": i, "player": s.person, "role": s.role, "before": s.before,
                       "after": dict(s.after)} for i, s in enumerate(w.seats, 1)]},
            ensure_ascii=False, indent=1) + "\n")
        return
    out.print(_t("what_if_title", lang, tournament=w.tournament, game=w.game,
                 p=_num(100 * w.p_red, lang)))
    table = Table(header_style="bold")
    for c in ("seat", "player", "role", "before", "if_red", "if_black", "if_draw"):
        table.add_column(_t(c, lang), justify="left" if c in ("player", "role") else "right")
    for i, s in enumerate(w.seats, 1):
        pair = ROLE[s.role]
        table.add_row(str(i), nicknames.get(s.person, s.person), pair[0] if lang == "ru" else pair[1],
                      _num(s.before, lang),
                      *(_num(s.after[r] - s.before, lang, 1, sign=True) for r in ("red", "black", "draw")))
    out.print(table)


def _print(run: Any, lang: str, predictions: bool, min_games: int = 0) -> None:
    if not run.games:
        out.print(_t("no_games", lang))
        return
    elo = {r.person: r for r in run.elo.players}
    from mafiatab.texts import count

    table = Table(title=_t("title", lang, games=count(len(run.games), "game", lang),
                           players=count(len(run.ours.players), "player", lang)),
                  title_justify="left", header_style="bold")
    for c in ("place", "player", "rating", "deviation", "red", "black", "games", "wins", "elo"):
        table.add_column(_t(c, lang), justify="left" if c == "player" else "right",
                         no_wrap=True)
    ranked = [r for r in run.ours.players if r.games >= min_games]
    provisional = [r for r in run.ours.players if r.games < min_games]
    for i, r in enumerate(ranked + provisional, 1):
        name = run.nicknames.get(r.person, r.person)
        if r.games < min_games:
            name += " " + _t("provisional", lang)
        table.add_row(str(i) if i <= len(ranked) else "—", name,
                      f"[bold]{_num(r.rating, lang)}[/bold]", _num(r.deviation, lang, 0),
                      _num(r.red, lang), _num(r.black, lang), str(r.games), str(r.wins),
                      _num(elo[r.person].rating, lang))
    out.print(table)
    if predictions:
        pt = Table(header_style="bold")
        for c in ("tournament", "game", "p_red", "result"):
            pt.add_column(_t(c, lang), justify="right" if c == "p_red" else "left")
        for p, g in zip(run.ours.predictions, run.games, strict=True):
            pair = RESULT[g.result]
            pt.add_row(p.tournament, p.game, _num(p.p_red, lang, 3),
                       pair[0] if lang == "ru" else pair[1])
        out.print(pt)
    out.print(_t("experience", lang, gain=_num(run.ours.experience, lang, 0, sign=True)))
    shot = sum(1 for g in run.games if g.first_killed is not None)
    if shot:
        out.print(_t("first_killed_teaches", lang, n=shot,
                     share=_num(100 * run.ours.first_killed, lang, 0) + " %"))
    m = run.measures
    out.print(_t("measure", lang, ours=_num(m["ours"].log_loss, lang, 4),
                 elo=_num(m["elo"].log_loss, lang, 4), base=_num(m["base_rate"].log_loss, lang, 4),
                 b_ours=_num(m["ours"].brier, lang, 4), b_elo=_num(m["elo"].brier, lang, 4),
                 b_base=_num(m["base_rate"].brier, lang, 4)))
