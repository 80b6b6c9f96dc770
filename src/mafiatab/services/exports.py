"""What leaves the tournament as a file or a picture: the SVG charts of the confirmed
games (places by round, wins by role and by seat), drawn once per change of the
tournament's public stamp and language and kept in a small cache of this process; the
standings as XLSX, CSV and PDF, the paper columns as CSV and a game's filled protocol as
PDF. Each use case checks its reader (services/reads.py): staff always, anyone else
while the standings (and, where extras show, the extras) are published.
"""

from __future__ import annotations

import datetime as dt
import threading
from collections.abc import Mapping
from typing import Any, Literal

from mafiatab.services.access import STAFF
from mafiatab.services.awards import Awards
from mafiatab.services.clock import TournamentClock
from mafiatab.services.errors import NotFound
from mafiatab.services.games import Games
from mafiatab.services.reads import require_published
from mafiatab.services.standings import StandingsBoard
from mafiatab.services.store import Store, require_role, tournament_row
from mafiatab.services.tournament_file import profile_for
from mafiatab.services.tournaments import Tournaments
from mafiatab.storage.models import JUDGE
from mafiatab.texts import pick
from mafiatab.texts.register import AWARD


class Exports:
    """The charts and downloads (over the `Store`, through `Tournaments`, `Games` and
    the standings)."""

    def __init__(self, store: Store, tournaments: Tournaments,
                 standings: StandingsBoard, games: Games, awards: Awards | None = None) -> None:
        self.store = store
        self.awards = awards if awards is not None else Awards(store)
        self.tournaments = tournaments
        self.standings = standings
        self.games = games
        self._charts: dict[tuple[Any, ...], bytes] = {}
        self._charts_lock = threading.Lock()

    def _reader(self, tournament: int, actor: str | None, *, extras: bool,
                action: str) -> bool:
        """Whether the reader is staff; refused when what he asks is not published."""
        with self.store.read() as s:
            return require_published(s, tournament_row(s, tournament), actor, extras=extras,
                                     action=action)

    def standings_file(self, tournament: int, kind: Literal["xlsx", "csv", "pdf"], lang: str,
                       *, actor: str | None, comma: bool = False) -> bytes:
        """The standings as a file (the extras are in it: published extras only)."""
        from mafiatab.formats.csv_export import standings_csv
        from mafiatab.formats.pdf import standings_pdf
        from mafiatab.formats.xlsx import workbook_bytes

        self._reader(tournament, actor, extras=True, action="export")
        standings = self.standings.cached(tournament)
        if kind == "csv":
            return standings_csv(standings, lang, comma)
        t = self.tournaments.tournament(tournament)
        profile, _ = profile_for(t)
        awards = [(pick(AWARD, a.award, lang), a.nickname) for a in self.awards.named(tournament)
                  if a.nickname is not None]
        if kind == "xlsx":
            return workbook_bytes(standings, t, profile, lang, None, awards)
        return standings_pdf(standings, profile.title, lang, awards=awards)

    def paper_csv(self, tournament: int, lang: str, *, actor: str | None,
                  comma: bool = False) -> bytes:
        """The paper columns of the confirmed games (fouls, days, explanations, protests)."""
        from mafiatab.formats.csv_export import paper_csv

        self._reader(tournament, actor, extras=True, action="export")
        return paper_csv(self.tournaments.tournament(tournament), lang, None, comma)

    def protocol_pdf(self, tournament: int, code: str, lang: str, *,
                     actor: str | None) -> bytes:
        """A game's filled protocol (FIIM section 9): the confirmed one (staff: the newest,
        which, for a game going on, has its roles)."""
        from mafiatab.formats.pdf import protocols_pdf, sheet_of_game

        staff = self._reader(tournament, actor, extras=True, action="export")
        info = self.games.head(tournament, code) if staff else self.games.confirmed(
            tournament, code)
        if info is None:
            raise NotFound("no_game", game=code)
        t = self.tournaments.tournament(tournament)
        profile, _ = profile_for(t)
        zone = TournamentClock(self.store).zone(tournament)  # the corrections' moments
        return protocols_pdf([sheet_of_game(t, profile, info.game_struct(), lang, zone)], lang)

    def blank_pdf(self, tournament: int, stage: str | None, rnd: int | None,
                  tables: int | None, lang: str, *, actor: str,
                  sign_in: Mapping[int, tuple[str, str]] | None = None) -> tuple[str, bytes]:
        """Blank protocols (to fill by hand) for a round's tables (default: the newest
        round), and the file's name; staff and judges only. A seated table prints its
        players and judge (FIIM 9.2-9.3); the judge is the table's assignment (changed
        after the seating was entered), the protocol's spelling kept. `sign_in`: a
        table's judge's sign-in code and its address, printed as a QR code (the caller
        has checked that each opens this tournament for that table's judge)."""
        import msgspec

        from mafiatab.formats.pdf import blank_sheets, protocols_pdf

        with self.store.read() as s:
            require_role(s, tournament_row(s, tournament), actor, STAFF | {JUDGE}, "print")
        games = self.games.overview(tournament)
        _t, _players, stages = self.tournaments.context(tournament)
        if stage is None or rnd is None:
            if games:
                stage, rnd = games[-1].stage, games[-1].round
            else:
                stage, rnd = (stages[0].id if stages else "qual"), 1
        count = tables or max((g.table for g in games if g.stage == stage and g.round == rnd),
                              default=1)
        t = self.tournaments.tournament(tournament)
        profile, _ = profile_for(t)
        seated = []
        for g in games:
            if g.stage != stage or g.round != rnd:
                continue
            game = self.games.head(tournament, g.code).game_struct()
            if g.judge and (game.judge or "").casefold() != g.judge:
                game = msgspec.structs.replace(game, judge=g.judge)
            seated.append(game)
        data = protocols_pdf(blank_sheets(t, profile, stage, rnd, min(count, 100), lang,
                                          seated=seated, today=dt.date.today().isoformat(),
                                          sign_in=dict(sign_in or {})),
                             lang)
        return f"blank-{stage}-{rnd}.pdf", data

    def chart(self, tournament: int, name: str, lang: str, player: str | None = None, *,
              actor: str | None) -> bytes:
        """An SVG chart of the confirmed games: "places" (one player's line when
        `player` is given; the places follow the totals, extras included), "roles" or
        "seats". Drawn once per change of the tournament (the standings' stamp) and
        language."""
        self._reader(tournament, actor, extras=name == "places", action="export")
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
        if not charts.available():
            return data  # the words that say what is missing: not kept once it is installed
        with self._charts_lock:
            if len(self._charts) > 64:
                self._charts.clear()
            self._charts[key] = data
        return data


__all__ = ["Exports"]
