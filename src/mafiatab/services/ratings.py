"""Use case: rate every player over the games of format-1 files or of the database.

What `mafiatab ratings` does. The files are read and checked like every other command's
(`load_tournament`: a refused file refuses the whole run); the rating itself is the pure
`domain.ratings`. A person is a player id: the same id in two files is the same person.
In the database a person is the database's player identity (one across tournaments,
`tournament_participants.player_id`), whatever id he had in each tournament.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mafiatab.domain.problems import Problem, ProtocolRefused, Refused
from mafiatab.domain.ratings import (
    Bin,
    Prediction,
    RatedGame,
    Ratings,
    RatingSettings,
    WhatIf,
    brier,
    log_loss,
    ordered,
    outcomes_of,
    rate_base_rate,
    rate_elo,
    rate_games,
    rated_games,
    reliability,
    slope_if_enough,
    what_if,
)
from mafiatab.services.tournament_file import load_tournament

if TYPE_CHECKING:
    from sqlalchemy import Engine

FORMAT = "mafiatab.ratings/1"


@dataclass(slots=True)
class Measure:
    """How well a rater's predictions did on the rated games themselves: the log-loss,
    the Brier score, the reliability table (predicted against observed red-win rate by
    tenth) and the calibration slope (1: calibrated; below 1: over-confident)."""

    log_loss: float
    brier: float
    bins: list[Bin] = field(default_factory=list)
    slope: float | None = None  # None: too few games to say


@dataclass(slots=True)
class RatingRun:
    games: list[RatedGame]  # in rating order
    nicknames: dict[str, str]  # person -> the nickname he had last
    ours: Ratings
    elo: Ratings
    measures: dict[str, Measure]  # "ours", "elo", "base_rate"


def games_of_files(paths: Sequence[Path], settings: RatingSettings = RatingSettings()
                   ) -> list[RatedGame]:
    games, _ = _files(paths, settings)
    return ordered(games)


class FileRefused(Refused):
    """One of the files cannot be read or is refused; nothing is rated."""

    def __init__(self, path: Path, problems: list[Problem], detail: str | None = None) -> None:
        self.path = path
        self.detail = detail  # why the file could not be read
        super().__init__(problems or [Problem("cannot_read", params={"file": str(path),
                                                                      "detail": detail or ""})])


def _files(paths: Sequence[Path], settings: RatingSettings
           ) -> tuple[list[RatedGame], dict[str, str]]:
    games: list[RatedGame] = []
    nicknames: dict[str, str] = {}
    for i, path in enumerate(paths):
        try:
            t = load_tournament(path.read_bytes()).tournament
        except OSError as e:
            raise FileRefused(path, [], e.strerror or str(e)) from None
        except ProtocolRefused as refused:
            raise FileRefused(path, refused.problems) from None
        nicknames.update({p.id: p.nickname for p in t.players})
        games.extend(rated_games(t, i, settings))
    return games, nicknames


def _database(engine: Engine, settings: RatingSettings
              ) -> tuple[list[RatedGame], dict[str, str]]:
    from sqlalchemy import select

    from mafiatab.services.facade import Services
    from mafiatab.storage import models as db

    service = Services(engine)
    games: list[RatedGame] = []
    nicknames: dict[str, str] = {}
    for i, summary in enumerate(service.tournaments.list_tournaments()):
        t = service.tournaments.tournament(summary.id)
        with engine.connect() as conn:
            rows = conn.execute(
                select(db.Participant.code, db.Player.id, db.Player.nickname)
                .join(db.Player, db.Player.id == db.Participant.player_id)
                .where(db.Participant.tournament_id == summary.id)).all()
        person_of = {code: str(pid) for code, pid, _ in rows}
        nicknames.update({str(pid): nick for _, pid, nick in rows})
        games.extend(rated_games(t, i, settings, person_of))
    return games, nicknames


def _run(games: list[RatedGame], nicknames: dict[str, str]) -> RatingRun:
    games = ordered(games)
    ours = rate_games(games)
    elo = rate_elo(games)
    y = outcomes_of(games)

    def measure(preds: Sequence[Prediction]) -> Measure:
        p = [x.p_red for x in preds]
        return Measure(log_loss(p, y), brier(p, y), reliability(p, y), slope_if_enough(p, y))

    return RatingRun(games, nicknames, ours, elo, {
        "ours": measure(ours.predictions), "elo": measure(elo.predictions),
        "base_rate": measure(rate_base_rate(games))})


def rate_files(paths: Sequence[Path], settings: RatingSettings = RatingSettings()) -> RatingRun:
    """Rate over the files' games; raises `FileRefused` for a file refused or unreadable."""
    return _run(*_files(paths, settings))


def rate_database(db: str | None, settings: RatingSettings = RatingSettings()) -> RatingRun:
    """Rate over every tournament in the database (confirmed protocols only)."""
    from mafiatab.storage.engine import check_schema, make_engine

    engine = make_engine(db)
    check_schema(engine)
    try:
        return _run(*_database(engine, settings))
    finally:
        engine.dispose()


def what_if_of(run: RatingRun, ref: str) -> WhatIf | None:
    """The "what if" of the game `ref`: `TOURNAMENT/GAME`, or a game id only one
    tournament has. None when no rated game matches (or the id is in several)."""
    tournament, _, game = ref.rpartition("/")
    found = [g for g in run.games if g.game == game and (not tournament or g.tournament == tournament)]
    if len(found) != 1:
        return None
    return what_if(run.games, found[0].tournament, found[0].game)


def as_json(run: RatingRun) -> dict[str, Any]:
    """The `mafiatab.ratings/1` document."""
    elo = {r.person: r for r in run.elo.players}
    return {
        "format": FORMAT,
        "players": [
            {"player": r.person, "nickname": run.nicknames.get(r.person, r.person),
             "rating": round(r.rating, 1), "games": r.games, "wins": r.wins,
             "red": round(r.red, 1), "black": round(r.black, 1),
             "deviation": round(r.deviation, 1), "elo": round(elo[r.person].rating, 2)}
            for r in run.ours.players],
        "predictions": [{"tournament": p.tournament, "game": p.game, "p_red": p.p_red}
                        for p in run.ours.predictions],
    }


def calibration_json(run: RatingRun) -> dict[str, Any]:
    """Each rater's measures on the rated games: log-loss, Brier, calibration slope and
    the reliability table (`--calibration --json`)."""
    return {name: {"log_loss": m.log_loss, "brier": m.brier, "slope": m.slope,
                   "bins": [{"from": b.low, "to": b.high, "games": b.games,
                             "predicted": b.predicted, "observed": b.observed}
                            for b in m.bins]}
            for name, m in run.measures.items()}


def dumps_ratings(run: RatingRun, calibration: bool = False) -> str:
    doc = as_json(run)
    if calibration:
        doc["calibration"] = calibration_json(run)
    return json.dumps(doc, ensure_ascii=False, indent=1) + "\n"
