"""The services of one process, built once: every use case the web app, the CLI and the
demo call, each service composed over the one `Store` (no service inherits another; they
call each other only through their public methods), and the one standings cache.

    services = Services(engine)
    services.tournaments.create_tournament(...)
    services.protocols.submit(...)
    services.standings.cached(tid)

Who holds what:

* `accounts`: accounts, passwords, sign-ins with a code, sessions;
* `access`: roles and grants, the staff, sign-in codes handed out, the organizer right,
  what the public may see;
* `tournaments`: creating and importing tournaments, options, players, stages, reading
  one back;
* `games`: a new game's first draft (seating), table judges, revisions, the overview;
* `protocols`: the protocol's steps (save a draft, submit, send back, confirm);
* `replacements`: a seat's player replaced after the seating, on record;
* `invariants`: the tournament-wide invariants of a stored tournament;
* `standings`: standings and their cache, the public stamp, explanations, lots;
* `appeals`: protests and appeals, players' accounts, the schedule, games' times;
* `screens`: the stream overlay and the hall screen;
* `exports`: the charts and every download (standings, protocols, blank protocols);
* `account_admin`: an administrator's password resets, rehashing old hashes;
* `roster`: players pasted, edited, withdrawn;
* `setup`: the rules until the first game, the organizer's first-run steps;
* `judge_codes`: a round's judges' codes for the blank protocols;
* `people`: persons across tournaments, clubs, the rating;
* `zones`: each tournament's time zone;
* `videos`: games' videos and the timecodes of their events;
* `photos`: players' photos for the overlay (staff, or the player his own);
* `registrations`: sign-ups, the waiting list, the organizer's decisions, the calendar;
* `awards`: the head judge's MVP and best by role;
* `seating_rules`: what a seating keeps apart or together (clubs, teams, pairs, judges'
  conflicts), per tournament and on the whole server;
* `checkin`, `my_page`, `teams`: the tournament day (presence, a player's own page, the
  teams' standings);
* `seating`: the seating desk, generations on the job queue (its runner started by the
  web app, one per server process).

Route modules never build a service: they read these (tests/core/test_structure.py).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable

from limits.storage import Storage
from sqlalchemy import Engine

from mafiatab.services.access import Access
from mafiatab.services.account_admin import AccountAdmin
from mafiatab.services.accounts import Accounts, utcnow
from mafiatab.services.appeals import Appeals
from mafiatab.services.awards import Awards
from mafiatab.services.checkin import CheckinService
from mafiatab.services.clock import TournamentClock
from mafiatab.services.exports import Exports
from mafiatab.services.games import Games
from mafiatab.services.invariants import TournamentCheck
from mafiatab.services.judge_codes import JudgeCodes
from mafiatab.services.my_page import MyPageService
from mafiatab.services.people import People
from mafiatab.services.photos import Photos
from mafiatab.services.protocols import Protocols
from mafiatab.services.registration import Registrations
from mafiatab.services.replacements import Replacements
from mafiatab.services.roster import Roster
from mafiatab.services.screens import ScreenService
from mafiatab.services.seating_rules import SeatingRulesService
from mafiatab.services.seating_web import SeatingDesk
from mafiatab.services.setup import TournamentSetup
from mafiatab.services.standings import StandingsBoard
from mafiatab.services.store import Store
from mafiatab.services.teams import TeamService
from mafiatab.services.tournaments import Tournaments
from mafiatab.services.video import GameVideo


class Services:
    """Every service of the process over one `Store` (see the module's text)."""

    def __init__(self, engine: Engine, *, clock: Callable[[], dt.datetime] = utcnow,
                 limits: Storage | None = None) -> None:
        self.engine = engine
        self.store = Store(engine)
        self.accounts = Accounts(self.store)
        self.access = Access(self.store)
        self.tournaments = Tournaments(self.store, self.access)
        self.games = Games(self.store, self.tournaments)
        self.protocols = Protocols(self.store)
        self.replacements = Replacements(self.store)
        self.invariants = TournamentCheck(self.store)
        self.standings = StandingsBoard(self.store, self.tournaments)
        self.appeals = Appeals(self.store, self.access, clock=clock)
        self.photos = Photos(self.store)
        self.screens = ScreenService(self.store, self.access, self.tournaments, self.games,
                                     self.standings, self.photos, clock=clock)
        self.awards = Awards(self.store)
        self.exports = Exports(self.store, self.tournaments, self.standings, self.games,
                               self.awards)
        self.account_admin = AccountAdmin(self.store)
        self.roster = Roster(self.store)
        self.setup = TournamentSetup(self.store)
        self.judge_codes = JudgeCodes(self.store, self.games, self.access)
        self.people = People(self.store, self.tournaments)
        self.zones = TournamentClock(self.store)
        self.videos = GameVideo(self.store)
        #: `limits`: where the public sign-ups are counted (the app passes its sign-in
        #: limits' storage, shared by its processes; default: this process's memory)
        self.registrations = Registrations(self.store, limits)
        self.seating_rules = SeatingRulesService(self.store)
        # the tournament day: check-in, a player's own page, the teams
        self.checkin = CheckinService(self.store)
        self.my_page = MyPageService(self, self.appeals, self.checkin)
        self.teams = TeamService(self.store, self.standings.cached)
        #: the seating desk: generations on the job queue (the web app starts its runner)
        self.seating = SeatingDesk(self)


__all__ = ["Services"]
