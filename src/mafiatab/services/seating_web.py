"""Seating in the web app: generate a stage's
qualification seating for the registered players in the background, keep the proposal,
publish it round by round.

The generator is `mafiatab.seating`'s; this module only translates between the tournament
(player ids, nicknames, clubs, stages, games in the database) and the generator's 0-based
numbers, and hands the search to the job queue (`services.jobs`).

* **In the database.** A generation is a row of `jobs` (kind "seating"): the organizer's
  parameters, the registered players when it started, its progress and, when done, the
  proposal (the mafiatab.seating/1 document). Any server process may run it, show it and
  publish it: with `serve --workers N` the request that started it, the one that polls
  its progress and the one that publishes a round may each reach another process. The
  proposal of a tournament is its newest generation that was not cancelled.
* **Queued, bounded, cancellable.** One generation per tournament at a time (409 for a
  second: wait or cancel), a bounded number running on the whole server (the search is
  CPU-bound: numba without the GIL, two threads), the others wait in arrival order (each
  tournament holds one place, so the queue is round-robin over tournaments). Every
  generation has a time limit (the best seating found by then is the proposal) and can
  be cancelled from the page or the API; the search stops at its next progress report.
* **Publishing.** Round r of the proposal becomes, for every table, the game's seating
  (first draft revision, roles and result blank), optionally with its judge. A round that
  is already published may be published again (another seed, another judge) only while
  none of its protocols has started: every table's newest revision must still be the
  seating's own draft. Otherwise the organizer is told which tables have started.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Final, Protocol

from sqlalchemy import Engine

from mafiatab.domain import protocol as model
from mafiatab.domain.numbers import ascii_int
from mafiatab.domain.problems import Problem, Reason, Refused, Word
from mafiatab.services.access import STAFF
from mafiatab.services.checkin import CheckinService, Reseated
from mafiatab.services.games import Games
from mafiatab.services.invariants import TournamentCheck
from mafiatab.services.jobs import (
    BUSY,
    CANCELLED,
    DONE,
    FAILED,
    REFUSED,
    RUNNING,
    WAITING,
    Control,
    JobLimits,
    JobRunner,
    Jobs,
    JobView,
    Outcome,
)
from mafiatab.services.protocols import Protocols
from mafiatab.services.roster import Roster
from mafiatab.services.seating_figures import Change, Figure, compare, figures
from mafiatab.services.seating_rules import (
    TournamentRules,
    check_rules,
    read_rules,
    write_rules,
)
from mafiatab.services.store import Store, record_audit, require_role, tournament_row
from mafiatab.services.teams import teams_in
from mafiatab.services.tournaments import Tournaments
from mafiatab.storage.models import DRAFT
from mafiatab.texts.seating import SEATING_BOUND, SEATING_DESK

if TYPE_CHECKING:
    from mafiatab.seating.metrics import Metrics
    from mafiatab.seating.model import SeatingRequest

log = logging.getLogger(__name__)

#: the reason `enter_seating` gives the revision it writes; a head revision with another
#: reason (or another state) means the judge has started the protocol
SEATING_REASON: Final = "seating"
#: the job kind of a seating generation
KIND: Final = "seating"
#: the longest search the web app lets anyone start (seating.md: 5 minutes for N = 200)
MAX_TIME_LIMIT: Final = 300.0
#: what a web request may ask of the generator, checked before any work (the
#: spec's ranges, seating.md: up to N = 200 and R = 15, with room to spare)
MAX_GAMES: Final = 30
MAX_PLAYERS: Final = 500
MAX_FIRST_ROUND: Final = 100
MAX_ITERATIONS: Final = 10_000_000
MAX_SEED: Final = 2**63 - 1

class SeatingRefused(Refused):
    """A seating request or publication that cannot be done, with the reason in both
    languages; `status` is the HTTP status the web layer answers with."""

    def __init__(self, code: str, *, status: int = 422, **params: Any) -> None:
        self._take([Problem(code, params=params, texts=SEATING_DESK)], status)

    def _take(self, problems: Sequence[Reason], status: int) -> None:
        super().__init__(problems)
        self.status = status
        self.reason_ru, self.reason_en = self.message("ru"), self.message("en")

    @classmethod
    def carrying(cls, refused: Refused, status: int = 422) -> SeatingRefused:
        """Another layer's refusal (a request no seating can meet) as the desk's: its
        problems, codes and words unchanged, and for a hard rule that cannot be kept what
        to change on the form (a hint of the catalogue's `seating_desk`)."""
        new = cls.__new__(cls)
        hints = [Problem(f"desk_hint_{kind}", texts=SEATING_DESK)
                 for kind in _rules_named(refused)]
        new._take([*refused.problems, *hints], status)
        return new

    def lines(self, lang: str) -> str:
        """Every reason, one a line (the page's way: a refusal and what to change are
        sentences of their own)."""
        return "\n".join(p.message(lang) for p in self.errors) or self.summary(lang)

    def reason(self, lang: str) -> str:
        return self.reason_en if lang == "en" else self.reason_ru


def _rules_named(refused: Refused) -> list[str]:
    """The hard rules a generator's refusal names (its `rule` parameter, or the kinds of
    the breaches it lists), in a fixed order."""
    kinds: set[str] = set()
    for problem in refused.problems:
        params = getattr(problem, "params", None) or {}
        if "rule" in params:
            kinds.add(str(params["rule"]))
        if "which" in params:
            kinds.update(k for k in str(params["which"]).split(",") if k)
        code = getattr(problem, "code", "")
        if code in ("seating_pin_forbidden", "seating_all_forbidden"):
            kinds.add("conflict")
    return [k for k in ("club", "team", "pair", "conflict") if k in kinds]


@dataclass(frozen=True, slots=True)
class SeatingParams:
    """What the organizer asked for, in the tournament's terms (player ids, 1-based
    tables and rounds). `first_round` is the stage's round the proposal's round 1 becomes."""

    stage: str
    games: int
    tables: int | None = None
    seed: int = 0
    #: None: the tournament's rule for clubs (off unless the organizer set it); True or
    #: False: keep club-mates apart (a hard rule) or not, for this generation only
    separate_clubs: bool | None = None
    pins: Mapping[str, int] = field(default_factory=dict)
    availability: Mapping[str, frozenset[int]] = field(default_factory=dict)
    first_round: int = 1
    time_limit: float | None = None
    iterations: int | None = None
    #: the tournament's rules to save and seat by (None: the saved ones)
    rules: TournamentRules | None = None
    #: the judge of each table (1-based) through the stage: his conflicts keep players off
    #: that table, and publishing gives him the table
    table_judges: Mapping[int, str] = field(default_factory=dict)

    def as_json(self) -> dict[str, Any]:
        return {"stage": self.stage, "games": self.games, "tables": self.tables,
                "seed": self.seed, "separate_clubs": self.separate_clubs,
                "pins": dict(self.pins),
                "availability": {p: sorted(r) for p, r in self.availability.items()},
                "first_round": self.first_round,
                "table_judges": {str(t): j for t, j in self.table_judges.items()},
                "rules": None if self.rules is None else self.rules.as_json()}

    def stored(self) -> dict[str, Any]:
        """Everything, as the job's row keeps it."""
        return {**self.as_json(), "time_limit": self.time_limit, "iterations": self.iterations}

    @classmethod
    def from_stored(cls, d: Mapping[str, Any]) -> SeatingParams:
        return cls(stage=str(d["stage"]), games=int(d["games"]),
                   tables=None if d.get("tables") is None else int(d["tables"]),
                   seed=int(d.get("seed", 0)),
                   separate_clubs=(None if d.get("separate_clubs") is None
                                   else bool(d["separate_clubs"])),
                   pins={str(k): int(v) for k, v in dict(d.get("pins") or {}).items()},
                   availability={str(k): frozenset(int(r) for r in v)
                                 for k, v in dict(d.get("availability") or {}).items()},
                   first_round=int(d.get("first_round", 1)),
                   time_limit=None if d.get("time_limit") is None else float(d["time_limit"]),
                   iterations=None if d.get("iterations") is None else int(d["iterations"]),
                   rules=(None if not d.get("rules")
                          else TournamentRules.from_json(dict(d["rules"]))),
                   table_judges={int(k): str(v)
                                 for k, v in dict(d.get("table_judges") or {}).items()})


@dataclass(frozen=True, slots=True)
class Shape:
    """The seating's size: tables per round and rounds."""

    tables: int
    rounds: int


@dataclass(frozen=True)
class SeatingJob:
    """One generation as the page and the API show it (read from its job row)."""

    view: JobView
    params: SeatingParams
    players: list[model.Player]  # the registered players when it started; index = number - 1
    request: Shape

    @classmethod
    def of(cls, view: JobView) -> SeatingJob:
        inputs = view.inputs
        players = [model.Player(id=p["id"], nickname=p["nickname"], club=p.get("club"))
                   for p in inputs["players"]]
        return cls(view, SeatingParams.from_stored(view.params), players,
                   Shape(int(inputs["tables"]), int(inputs["rounds"])))

    @property
    def number(self) -> int:
        return self.view.id

    @property
    def tournament(self) -> int:
        return self.view.tournament

    @property
    def state(self) -> str:
        return self.view.state

    @property
    def busy(self) -> bool:
        return self.view.state in BUSY

    @property
    def progress(self) -> float:
        return 1.0 if self.view.state == DONE else self.view.progress

    @property
    def info(self) -> str:
        return self.view.info

    @property
    def ahead(self) -> int:
        return self.view.ahead

    @property
    def cancel_requested(self) -> bool:
        return self.view.cancel_requested

    @property
    def seconds(self) -> float:
        return self.view.seconds()

    @property
    def time_limit(self) -> float:
        return self.view.time_limit

    @property
    def reason(self) -> tuple[str, str] | None:
        return self.view.reason

    @property
    def document(self) -> dict[str, Any] | None:
        result = self.view.result
        return None if result is None else dict(result["document"])

    @property
    def method(self) -> str:
        return str((self.view.result or {}).get("method", ""))

    @property
    def interrupted(self) -> bool:
        return bool((self.view.result or {}).get("interrupted", False))

    @property
    def histogram(self) -> dict[int, int]:
        return {int(k): int(v) for k, v in (self.view.result or {}).get("histogram", {}).items()}

    @property
    def published(self) -> dict[int, list[str]]:
        return {int(k): list(v) for k, v in self.view.published.items()}

    def reason_text(self, lang: str) -> str:
        if self.reason is None:
            return ""
        return self.reason[1] if lang == "en" else self.reason[0]

    def stage_round(self, rnd: int) -> int:
        """The stage's round number that the proposal's round `rnd` (1-based) becomes."""
        return self.params.first_round + rnd - 1

    def rounds(self) -> list[list[list[model.Player]]]:
        """rounds[r][t] = the players of table t + 1 in round r + 1, in seat order."""
        doc = self.document
        if doc is None:
            return []
        return [[[self.players[p - 1] for p in tb["seats"]] for tb in rnd["tables"]]
                for rnd in doc["rounds"]]

    def seating_request(self) -> SeatingRequest:
        """The generator's request this job seated (its rules included)."""
        return request_of(self.view.inputs, self.params)

    def metrics(self) -> Metrics:
        """The proposal's figures, computed afresh (a swap changes them)."""
        from mafiatab.seating.metrics import compute_metrics
        from mafiatab.seating.model import Seating

        doc = self.document
        assert doc is not None
        return compute_metrics(self.seating_request(), Seating(doc["players"], doc["games"],
                                                       document_rounds(doc)))

    def figures(self, lang: str) -> list[Figure]:
        """The proposal's figures in words (`services.seating_figures`)."""
        return figures(self.seating_request(), self.metrics(), lang)

    def status(self, lang: str) -> dict[str, Any]:
        """What the status API answers (no grid: `document` has it)."""
        out: dict[str, Any] = {
            "job": self.number, "state": self.state, "progress": round(self.progress, 3),
            "info": self.info, "seconds": round(self.seconds, 1),
            "time_limit": self.time_limit, "ahead": self.ahead,
            "cancel_requested": self.cancel_requested, "worker": self.view.worker,
            "params": self.params.as_json(), "players": len(self.players),
            "tables": self.request.tables, "rounds": self.request.rounds,
            "published": sorted(self.published)}
        if self.reason is not None:
            out["reason"] = self.reason_text(lang)
        doc = self.document
        if doc is not None:
            out["method"] = self.method
            out["interrupted"] = self.interrupted
            out["metrics"] = doc["metrics"]
            out["histogram"] = {str(k): v for k, v in self.histogram.items()}
        return out


# --- reading what the organizer typed ----------------------------------------------------


def parse_rounds(text: str) -> frozenset[int]:
    """'1-3,5' → {1, 2, 3, 5} (1-based, as organizers write them)."""
    out: set[int] = set()
    for part in text.split(","):
        if not part.strip():
            continue
        m = re.fullmatch(r"\s*([0-9]{1,4})\s*(?:-\s*([0-9]{1,4})\s*)?", part)
        if not m or int(m.group(1)) < 1 or int(m.group(2) or m.group(1)) < int(m.group(1)):
            raise SeatingRefused("desk_rounds_unreadable", text=text)
        out.update(range(int(m.group(1)), int(m.group(2) or m.group(1)) + 1))
    return frozenset(out)


def find_player(players: Sequence[model.Player], ref: str) -> model.Player:
    """A player by id, else by nickname (case-insensitive)."""
    ref = ref.strip()
    for p in players:
        if p.id == ref:
            return p
    for p in players:
        if p.nickname.casefold() == ref.casefold():
            return p
    raise SeatingRefused("desk_unknown_player", ref=ref)


def parse_lines(text: str, players: Sequence[model.Player]) -> list[tuple[model.Player, str]]:
    """Lines 'player: value' (player by id or nickname; ':' or '=' separates)."""
    out = []
    for line in text.splitlines():
        if not line.strip():
            continue
        m = re.fullmatch(r"\s*(.+?)\s*[:=]\s*(.+?)\s*", line)
        if not m:
            raise SeatingRefused("desk_line", line=line)
        out.append((find_player(players, m.group(1)), m.group(2)))
    return out


def parse_pins(text: str, players: Sequence[model.Player]) -> dict[str, int]:
    pins: dict[str, int] = {}
    for p, value in parse_lines(text, players):
        table = ascii_int(value, 4)
        if table is None or table < 1:
            raise SeatingRefused("desk_pin_not_table", nickname=p.nickname, value=value)
        pins[p.id] = table
    return pins


def parse_availability(text: str, players: Sequence[model.Player]) -> dict[str, frozenset[int]]:
    return {p.id: parse_rounds(value) for p, value in parse_lines(text, players)}


# --- the desk -------------------------------------------------------------------------------


def check_bounds(params: SeatingParams) -> None:
    """Refuse numbers no tournament needs before anything is built from them: a request
    for 10⁹ games must cost nothing (the generator's arrays grow with the rounds)."""
    checks: list[tuple[bool, str, int | None]] = [
        (1 <= params.games <= MAX_GAMES, "games", MAX_GAMES),
        (params.tables is None or 1 <= params.tables <= MAX_PLAYERS // 10, "tables",
         MAX_PLAYERS // 10),
        (1 <= params.first_round <= MAX_FIRST_ROUND, "first_round", MAX_FIRST_ROUND),
        (0 <= params.seed <= MAX_SEED, "seed", None),
        (params.iterations is None or 1 <= params.iterations <= MAX_ITERATIONS, "iterations",
         MAX_ITERATIONS),
        (params.time_limit is None or 0 < params.time_limit <= MAX_TIME_LIMIT, "time_limit",
         int(MAX_TIME_LIMIT)),
        (all(1 <= t <= MAX_PLAYERS // 10 for t in params.pins.values()), "pins", None),
        (all(1 <= t <= MAX_PLAYERS // 10 and 0 < len(j) <= 200
             for t, j in params.table_judges.items()), "table_judges", None),
        (all(1 <= r <= MAX_GAMES * 50 for rs in params.availability.values() for r in rs),
         "availability", None),
    ]
    for ok, bound, most in checks:
        if not ok:
            ru, en = (text.format(max=most) for text in SEATING_BOUND[bound])
            raise SeatingRefused("desk_bound", bound=Word(bound, ru, en))


def default_time_limit(players: int, asked: float | None) -> float:
    """The search's time limit: the one asked, else what seating.md allows for the size."""
    return min(MAX_TIME_LIMIT, asked or (55.0 if players <= 100 else 280.0))


def document_rounds(doc: Mapping[str, Any]) -> list[list[list[int]]]:
    """A mafiatab.seating/1 document's rounds as the generator's 0-based numbers."""
    return [[[p - 1 for p in tb["seats"]] for tb in rnd["tables"]] for rnd in doc["rounds"]]


def request_of(inputs: Mapping[str, Any], p: SeatingParams) -> SeatingRequest:
    """The generator's request from a job's snapshot: the same numbers give the same
    request (and the same refusals)."""
    from mafiatab.seating.model import GroupRule, PairRule, build_request

    return build_request(
        len(inputs["players"]), p.games, p.tables, seed=p.seed,
        clubs={int(k): str(v) for k, v in inputs["clubs"].items()},
        pins={int(k): int(v) for k, v in inputs["pins"].items()},
        availability={int(k): frozenset(int(r) for r in v)
                      for k, v in inputs["availability"].items()},
        groups=tuple(GroupRule(str(g["rule"]), {int(k): str(v) for k, v in g["members"].items()},
                               bool(g["hard"]), int(g["weight"]))
                     for g in inputs.get("groups", [])),
        pairs=tuple(PairRule(int(a), int(b), bool(h), int(w), str(r))
                    for a, b, h, w, r in inputs.get("pair_rules", [])),
        forbidden={int(k): frozenset(int(t) for t in v)
                   for k, v in inputs.get("forbidden", {}).items()})


def run_seating(job: JobView, control: Control) -> Outcome:
    """The job handler: rebuild the generator's request from the job's snapshot (the same
    numbers give the same request), search, and keep the document with the participants."""
    from mafiatab.seating.model import InfeasibleRequest, require_generator

    try:
        require_generator()
    except InfeasibleRequest as e:
        return Outcome(REFUSED, reason=(e.reason_ru, e.reason_en))
    # numba and OR-Tools: loaded on the first generation, not at server start
    from mafiatab.seating.generate import generate, to_json

    p = SeatingParams.from_stored(job.params)
    inputs = job.inputs
    players = inputs["players"]
    try:
        request = request_of(inputs, p)
        result = generate(request, time_limit=job.time_limit, iterations=p.iterations,
                          progress=control.progress)
    except InfeasibleRequest as e:
        hint = SeatingRefused.carrying(e)
        return Outcome(REFUSED, reason=(hint.lines("ru"), hint.lines("en")))
    doc = to_json(result)
    doc["participants"] = [{"number": i + 1, "id": pl["id"], "nickname": pl["nickname"],
                            "club": pl.get("club")} for i, pl in enumerate(players)]
    return Outcome(DONE, result={"document": doc, "method": result.method,
                                 "interrupted": result.interrupted,
                                 "histogram": {str(k): v for k, v
                                               in result.metrics.histogram.items()}})


@dataclass(frozen=True, slots=True)
class SwapPreview:
    """A swap of two players of one round: who goes where, and every figure of the seating
    before and after (`changes`); `published`: the round's games change too."""

    round: int
    stage_round: int
    first: str
    second: str
    first_from: tuple[int, int]  # (table, seat), 1-based
    second_from: tuple[int, int]
    changes: list[Change]
    published: bool

    def as_json(self) -> dict[str, Any]:
        return {"round": self.round, "stage_round": self.stage_round,
                "first": {"nickname": self.first, "table": self.first_from[0],
                          "seat": self.first_from[1]},
                "second": {"nickname": self.second, "table": self.second_from[0],
                           "seat": self.second_from[1]},
                "published": self.published,
                "figures": [{"key": c.key, "label": c.label, "before": c.before,
                             "after": c.after, "trend": c.trend} for c in self.changes]}


@dataclass(frozen=True, slots=True)
class PublishedPresent:
    """A round published for those present: its games and, when some of its players had
    not come, how it was re-seated (None when everyone was there)."""

    stage: str
    round: int
    games: list[str]
    reseated: Reseated | None


class DeskParts(Protocol):
    """The services the desk works through (the facade that builds it has them)."""

    @property
    def engine(self) -> Engine: ...
    @property
    def store(self) -> Store: ...
    @property
    def tournaments(self) -> Tournaments: ...
    @property
    def invariants(self) -> TournamentCheck: ...
    @property
    def roster(self) -> Roster: ...
    @property
    def games(self) -> Games: ...
    @property
    def protocols(self) -> Protocols: ...


class SeatingDesk:
    """The tournaments' seating generations and proposals, on the job queue (see the
    module): any number of desks (one per server process) on one database agree."""

    def __init__(self, svc: DeskParts, limits: JobLimits | None = None) -> None:
        self.svc = svc
        # a store of its own: a job's heartbeats change nothing anybody watches, so they
        # must not wake the screens (the service's store tells them of every write)
        self.jobs = Jobs(Store(svc.engine), limits or JobLimits.from_env())
        self.runner = JobRunner(self.jobs, {KIND: run_seating})

    def start_runner(self) -> None:
        """Let this process run waiting generations too (the app does it at start)."""
        self.runner.start()

    def stop_runner(self) -> None:
        self.runner.stop()

    def require_staff(self, tournament: int, actor: str) -> None:
        """Only the tournament's organizers and head judges use the seating desk."""
        with self.svc.store.read() as s:
            require_role(s, tournament_row(s, tournament), actor, STAFF, "manage")

    def job(self, tournament: int, *, actor: str) -> SeatingJob | None:
        """The tournament's proposal: its newest generation that was not cancelled."""
        self.require_staff(tournament, actor)
        view = self.jobs.newest(tournament, KIND,
                                states=(WAITING, RUNNING, DONE, REFUSED, FAILED))
        return None if view is None else SeatingJob.of(view)

    def cancelled(self, tournament: int, *, actor: str) -> SeatingJob | None:
        """The tournament's newest generation, when it was cancelled (the page says so)."""
        self.require_staff(tournament, actor)
        view = self.jobs.newest(tournament, KIND)
        return SeatingJob.of(view) if view is not None and view.state == CANCELLED else None

    def require_job(self, tournament: int, *, actor: str) -> SeatingJob:
        job = self.job(tournament, actor=actor)
        if job is None:
            raise SeatingRefused("desk_none_yet", status=404)
        return job

    def build(self, tournament: int, params: SeatingParams, *,
              actor: str) -> tuple[list[model.Player], dict[str, Any]]:
        """The registered players and the generator's inputs (0-based numbers); an
        impossible request is refused here, before any search starts, with the
        generator's reason."""
        from mafiatab.seating.model import (
            GroupRule,
            InfeasibleRequest,
            PairRule,
            build_request,
            require_generator,
        )

        self.require_staff(tournament, actor)
        try:
            require_generator()
        except InfeasibleRequest as e:
            raise SeatingRefused.carrying(e, status=503) from None
        check_bounds(params)
        _t, players, stages = self.svc.tournaments.context(tournament)
        # a withdrawn player, or one removed from the tournament, is not seated again
        gone = self.svc.roster.withdrawn(tournament) | self.svc.invariants.removed(tournament)
        players = [p for p in players if p.id not in gone]
        if len(players) > MAX_PLAYERS:
            raise SeatingRefused("desk_too_many_players", max=MAX_PLAYERS)
        if params.stage not in {s.id for s in stages}:
            raise SeatingRefused("desk_no_stage", stage=params.stage)
        if params.first_round < 1:
            raise SeatingRefused("desk_first_round")
        index = {p.id: i for i, p in enumerate(players)}
        rules = self.rules_for(tournament, params)
        groups, pair_rules, forbidden = self._rule_inputs(tournament, params, rules, players)
        pins = {index[find_player(players, p).id]: t - 1 for p, t in params.pins.items()}
        availability = {index[find_player(players, p).id]: frozenset(r - 1 for r in rs)
                        for p, rs in params.availability.items()}
        try:
            request = build_request(
                len(players), params.games, params.tables, seed=params.seed, pins=pins,
                availability=availability,
                groups=tuple(GroupRule(g["rule"], g["members"], g["hard"], g["weight"])
                             for g in groups),
                pairs=tuple(PairRule(a, b, h, w, r) for a, b, h, w, r in pair_rules),
                forbidden=forbidden)
        except InfeasibleRequest as e:
            raise SeatingRefused.carrying(e) from None
        inputs = {"players": [{"id": p.id, "nickname": p.nickname, "club": p.club}
                              for p in players],
                  "tables": request.tables, "rounds": request.rounds,
                  "clubs": {},
                  "pins": {str(k): v for k, v in pins.items()},
                  "availability": {str(k): sorted(v) for k, v in availability.items()},
                  "groups": [{"rule": g["rule"], "hard": g["hard"], "weight": g["weight"],
                              "members": {str(k): v for k, v in g["members"].items()}}
                             for g in groups],
                  "pair_rules": [list(x) for x in pair_rules],
                  "forbidden": {str(k): sorted(v) for k, v in forbidden.items()}}
        return players, inputs

    def rules_for(self, tournament: int, params: SeatingParams) -> TournamentRules:
        """The rules a generation seats by: the ones typed (else the saved ones), the
        clubs' rule overridden when the request says so (the API's `separate_clubs`)."""
        with self.svc.store.read() as s:
            saved = read_rules(s, tournament)
        rules = params.rules if params.rules is not None else saved
        rules = replace(rules, server_pairs=saved.server_pairs)
        if params.separate_clubs is not None:
            rules = replace(rules, clubs="hard" if params.separate_clubs else "off")
        check_rules(rules)
        return rules

    def _rule_inputs(self, tournament: int, params: SeatingParams, rules: TournamentRules,
                     players: Sequence[model.Player]
                     ) -> tuple[list[dict[str, Any]], list[tuple[int, int, bool, int, str]],
                                dict[int, frozenset[int]]]:
        """The rules in the generator's 0-based numbers: groups (clubs, teams), pair rules
        (the tournament's and the server's pairs) and the tables each player must avoid
        (the tables whose judge declared a conflict with him)."""
        index = {p.id: i for i, p in enumerate(players)}
        groups: list[dict[str, Any]] = []
        if rules.clubs != "off":
            groups.append({"rule": "club", "hard": rules.clubs == "hard",
                           "weight": rules.clubs_weight,
                           "members": {index[p.id]: p.club for p in players if p.club}})
        with self.svc.store.read() as s:
            teams = teams_in(s, tournament)
        if rules.teams != "off" and teams:
            groups.append({"rule": "team", "hard": rules.teams == "hard",
                           "weight": rules.teams_weight,
                           "members": {index[m]: t.name for t in teams for m in t.members
                                       if m in index}})
        pair_rules = [(index[p.first], index[p.second], p.hard, p.cost, "pair")
                      for p in (*rules.pairs, *rules.server_pairs)
                      if p.first in index and p.second in index]
        forbidden: dict[int, set[int]] = {}
        for table, judge in params.table_judges.items():
            for code in rules.conflicts_of(judge):
                if code in index:
                    forbidden.setdefault(index[code], set()).add(table - 1)
        return groups, pair_rules, {k: frozenset(v) for k, v in forbidden.items()}

    def start(self, tournament: int, params: SeatingParams, *, actor: str) -> SeatingJob:
        """Check the request and queue its search; the newest job becomes the
        tournament's proposal. Refused (409) while the tournament's last search is
        waiting or running, 503 when the server's queue is full."""
        players, inputs = self.build(tournament, params, actor=actor)
        if params.rules is not None:
            with self.svc.store.write() as s:
                write_rules(s, tournament, params.rules, actor)
                record_audit(s, actor, tournament, "seating_rules", params.rules.as_json())
        view = self.jobs.submit(tournament, KIND, owner=actor, params=params.stored(),
                                inputs=inputs,
                                time_limit=default_time_limit(len(players), params.time_limit))
        self.runner.wake()
        return SeatingJob.of(view)

    def cancel(self, tournament: int, *, actor: str) -> SeatingJob:
        """Stop the tournament's waiting or running generation (404 when none)."""
        view = self.jobs.cancel(tournament, KIND, actor=actor)
        self.runner.cancel_local(view.id)
        return SeatingJob.of(view)

    def wait(self, tournament: int, timeout: float, *, actor: str) -> SeatingJob:
        """The newest job once it is no longer waiting or running (tests, scripts)."""
        import time

        deadline = time.monotonic() + timeout
        job = self.require_job(tournament, actor=actor)
        while job.busy and time.monotonic() < deadline:
            time.sleep(0.05)
            job = self.require_job(tournament, actor=actor)
        return job

    # --- publishing ---
    def publish(self, tournament: int, rnd: int, *, actor: str,
                judges: Mapping[int, str] | None = None) -> list[str]:
        """Enter every table of the proposal's round `rnd` (1-based) as its game's seating,
        with the judges given per table (1-based). Returns the games' codes."""
        job = self.require_job(tournament, actor=actor)
        if job.state != DONE or job.document is None:
            raise SeatingRefused("desk_not_ready", status=409)
        if not 1 <= rnd <= job.request.rounds:
            raise SeatingRefused("desk_no_round", rounds=job.request.rounds, round=rnd)
        if judges is None:
            judges = dict(job.params.table_judges)
        judges = {t: j.strip() for t, j in judges.items() if j and j.strip()}
        stage, number = job.params.stage, job.stage_round(rnd)
        tables = job.rounds()[rnd - 1]
        with self.svc.store.read() as s:
            rules = read_rules(s, tournament)
        for at, name in sorted(judges.items()):
            banned = rules.conflicts_of(name)
            for p in tables[at - 1] if 1 <= at <= len(tables) else []:
                if p.id in banned:
                    raise SeatingRefused("desk_judge_conflict", judge=name, nickname=p.nickname,
                                         round=number, table=at)
        existing = {g.table: g for g in self.svc.games.overview(tournament)
                    if g.stage == stage and g.round == number}
        self._require_unstarted(tournament, stage, number, list(existing.values()))
        extra = sorted(set(existing) - set(range(1, len(tables) + 1)))
        if extra:
            raise SeatingRefused("desk_extra_tables", status=409, number=number, extra=extra)
        codes = []
        for t, seated in enumerate(tables, start=1):
            ids = [p.id for p in seated]
            judge = judges.get(t)
            old = existing.get(t)
            if old is None:
                codes.append(self.svc.games.enter_seating(tournament, stage, number, t, ids,
                                                          actor=actor, judge=judge).game)
                continue
            game = model.Game(id=old.code, stage=stage, round=number, table=t,
                              seats=[model.Seat(seat=i + 1, player=p, role="")
                                     for i, p in enumerate(ids)],
                              result="", judge=judge or old.judge)
            self.svc.protocols.save_draft(tournament, old.code, game, actor=actor,
                                          base_revision=old.revision, reason=SEATING_REASON)
            if judge:
                self.svc.games.assign_judge(tournament, old.code, judge, actor=actor)
            codes.append(old.code)
        self.jobs.publish_mark(job.number, str(rnd), codes)
        return codes

    def _require_unstarted(self, tournament: int, stage: str, number: int,
                           games: Sequence[Any]) -> None:
        """Refuse (409) when a protocol of the round has started: its newest revision is no
        longer the seating's own draft."""
        started = []
        for g in games:
            head = self.svc.games.head(tournament, g.code)
            if head.state != DRAFT or head.reason != SEATING_REASON:
                started.append(g)
        if started:
            which = ", ".join(f"{g.table} ({g.state}, rev. {g.revision}, {g.author})"
                              for g in sorted(started, key=lambda x: x.table))
            raise SeatingRefused("desk_round_started", status=409, number=number, stage=stage,
                                 which=which)

    # --- swaps ---
    def preview_swap(self, tournament: int, rnd: int, first: str, second: str, *,
                     actor: str, lang: str = "ru") -> SwapPreview:
        """What swapping two players of the proposal's round `rnd` (1-based) would do:
        where each goes and every figure before and after. Changes nothing."""
        return self._swap(tournament, rnd, first, second, actor=actor, lang=lang,
                          apply=False)

    def swap(self, tournament: int, rnd: int, first: str, second: str, *, actor: str,
             lang: str = "ru") -> SwapPreview:
        """Swap two players (by id or nickname) of the proposal's round `rnd`: each takes
        the other's table and seat. When the round is published its games' seating drafts
        change too, only while no protocol of the round has started. Refused when the swap
        breaks a hard rule. One transaction; audited with the figures before and after."""
        return self._swap(tournament, rnd, first, second, actor=actor, lang=lang,
                          apply=True)

    def _swap(self, tournament: int, rnd: int, first: str, second: str, *, actor: str,
              lang: str, apply: bool) -> SwapPreview:
        from mafiatab.seating.metrics import compute_metrics
        from mafiatab.seating.model import Seating, breaches_word

        with self.svc.store.write() as s:
            require_role(s, tournament_row(s, tournament), actor, STAFF, "manage")
            job = self.require_job(tournament, actor=actor)
            doc = job.document
            if job.state != DONE or doc is None:
                raise SeatingRefused("desk_not_ready", status=409)
            if not 1 <= rnd <= job.request.rounds:
                raise SeatingRefused("desk_no_round", rounds=job.request.rounds, round=rnd)
            a, b = find_player(job.players, first), find_player(job.players, second)
            if a.id == b.id:
                raise SeatingRefused("desk_swap_same")
            number = {p.id: i for i, p in enumerate(job.players)}
            rounds = document_rounds(doc)
            where: dict[str, tuple[int, int]] = {}
            for t, table in enumerate(rounds[rnd - 1]):
                for k, p in enumerate(table):
                    where[job.players[p].id] = (t, k)
            stage_round = job.stage_round(rnd)
            for who in (a, b):
                if who.id not in where:
                    raise SeatingRefused("desk_swap_not_seated", nickname=who.nickname,
                                         round=stage_round)
            (ta, ka), (tb, kb) = where[a.id], where[b.id]
            after = [[list(tb_) for tb_ in r] for r in rounds]
            after[rnd - 1][ta][ka], after[rnd - 1][tb][kb] = number[b.id], number[a.id]
            request = job.seating_request()
            m0 = compute_metrics(request, Seating(doc["players"], doc["games"], rounds))
            m1 = compute_metrics(request, Seating(doc["players"], doc["games"], after))
            preview = SwapPreview(
                round=rnd, stage_round=stage_round, first=a.nickname, second=b.nickname,
                first_from=(ta + 1, ka + 1), second_from=(tb + 1, kb + 1),
                changes=compare(figures(request, m0, lang), figures(request, m1, lang)),
                published=rnd in job.published)
            if m1.hard_violations > m0.hard_violations:
                worse = {k: v - m0.hard_by_rule.get(k, 0) for k, v in m1.hard_by_rule.items()
                         if v > m0.hard_by_rule.get(k, 0)}
                raise SeatingRefused("desk_swap_breaks", which=breaches_word(worse))
            if not apply:
                return preview
            stage = job.params.stage
            games = {g.table: g for g in self.svc.games.overview(tournament)
                     if g.stage == stage and g.round == stage_round}
            if preview.published:
                self._require_unstarted(tournament, stage, stage_round, list(games.values()))
            new_doc = {**doc, "rounds": [
                {"round": i + 1, "tables": [{"table": t + 1, "seats": [p + 1 for p in table]}
                                            for t, table in enumerate(r)]}
                for i, r in enumerate(after)], "metrics": m1.as_json()}
            self.jobs.replace_result(job.number, {
                **(job.view.result or {}), "document": new_doc,
                "histogram": {str(k): v for k, v in m1.histogram.items()}})
            if preview.published:
                for t in sorted({ta, tb}):
                    old = games.get(t + 1)
                    if old is None:
                        continue
                    ids = [job.players[p].id for p in after[rnd - 1][t]]
                    game = model.Game(id=old.code, stage=stage, round=stage_round, table=t + 1,
                                      seats=[model.Seat(seat=i + 1, player=p, role="")
                                             for i, p in enumerate(ids)],
                                      result="", judge=old.judge)
                    self.svc.protocols.save_draft(tournament, old.code, game, actor=actor,
                                                  base_revision=old.revision,
                                                  reason=SEATING_REASON)
            record_audit(s, actor, tournament, "seating_swap", {
                "stage": stage, "round": stage_round, "players": [a.id, b.id],
                "tables": [ta + 1, tb + 1], "seats": [ka + 1, kb + 1],
                "before": m0.as_json(), "after": m1.as_json()})
            return preview

    def publish_present(self, tournament: int, rnd: int, *, actor: str) -> PublishedPresent:
        """The check-in page's one step: the proposal's round `rnd` (1-based) published
        already re-seated for those present (`publish`, then the check-in's `reseat`:
        rules kept, metrics as good as they can be). One transaction (the store joins the
        two): when the re-seat is refused (too few present, a rule it cannot keep),
        nothing is published. Staff only; audited once as `publish_present` with the
        metrics before and after."""
        checkin = CheckinService(self.svc.store)
        with self.svc.store.write() as s:
            require_role(s, tournament_row(s, tournament), actor, STAFF, "manage")
            job = self.require_job(tournament, actor=actor)
            stage, number = job.params.stage, job.stage_round(rnd)
            codes = self.publish(tournament, rnd, actor=actor)
            presence = checkin.presence(tournament)
            seated = [p.id for tb in job.rounds()[rnd - 1] for p in tb]
            reseated = None
            if any(p not in presence for p in seated):
                reseated = checkin.reseat(tournament, stage, number, actor=actor,
                                          pins=dict(job.params.pins))
            record_audit(s, actor, tournament, "publish_present", {
                "stage": stage, "round": number, "games": codes,
                "absent": sorted(p for p in seated if p not in presence),
                "changed_tables": reseated.changed_tables if reseated else [],
                "dropped_tables": reseated.dropped_tables if reseated else [],
                "before": reseated.before.as_json() if reseated else None,
                "after": reseated.after.as_json() if reseated else None})
        return PublishedPresent(stage, number, codes, reseated)


__all__ = ["CANCELLED", "DONE", "FAILED", "KIND", "REFUSED", "RUNNING", "WAITING",
           "PublishedPresent", "SeatingDesk",
           "SeatingJob", "SeatingParams", "SeatingRefused", "Shape", "SwapPreview",
           "default_time_limit", "document_rounds", "request_of",
           "parse_availability", "parse_pins", "parse_rounds", "run_seating"]
