"""What leaves the tournament as a picture: the SVG charts of the confirmed games (places
by round, wins by role and by seat), drawn once per change of the tournament's public
stamp and language and kept in a small cache of this process.
"""

from __future__ import annotations

import threading
from typing import Any

from mafiatab.services.errors import NotFound
from mafiatab.services.standings import StandingsBoard
from mafiatab.services.store import Store
from mafiatab.services.tournament_file import profile_for
from mafiatab.services.tournaments import Tournaments


class Exports:
    """The charts (over the `Store`, through `Tournaments` and the standings' stamp)."""

    def __init__(self, store: Store, tournaments: Tournaments,
                 standings: StandingsBoard) -> None:
        self.store = store
        self.tournaments = tournaments
        self.standings = standings
        self._charts: dict[tuple[Any, ...], bytes] = {}
        self._charts_lock = threading.Lock()

    def chart(self, tournament: int, name: str, lang: str, player: str | None = None) -> bytes:
        """An SVG chart of the confirmed games: "places" (one player's line when
        `player` is given), "roles" or "seats". Drawn once per change of the tournament
        (the standings' stamp) and language."""
        key = (tournament, name, player, lang, self.standings.stamp(tournament))
        with self._charts_lock:
            hit = self._charts.get(key)
        if hit is not None:
            return hit
        from mafiatab.domain.progress import places_by_round, win_rates
        from mafiatab.formats import charts

        t = self.tournaments.tournament(tournament)
        profile, _ = profile_for(t)
        if name == "places":
            progress = places_by_round(t, profile)
            if player is not None:
                progress.places = {player: progress.places.get(player, [])} \
                    if player in progress.places else {}
                title = f"{t.name}: {progress.names.get(player, player)}"
            else:
                title = t.name
            data = charts.places_chart(progress, title, lang, "svg")
        elif name == "roles":
            data = charts.roles_chart(win_rates(t)[0], t.name, lang, "svg")
        elif name == "seats":
            data = charts.seats_chart(win_rates(t)[1], t.name, lang, "svg")
        else:
            raise NotFound("no_game", game=name)
        with self._charts_lock:
            if len(self._charts) > 64:
                self._charts.clear()
            self._charts[key] = data
        return data


__all__ = ["Exports"]
