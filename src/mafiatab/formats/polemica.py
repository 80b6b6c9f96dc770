"""Polemica's game records into format 1.

Polemica (polemicagame.com) keeps a game as one JSON object; its public models are the
Kotlin classes of `Vyasma-Mafia/polemica-library` (`model/game/`). What this module reads
of it, learnt from those models:

- `players[]`: `position` 1-10, `username`, `role` (0 don, 1 mafia, 2 civilian,
  3 sheriff), `player` (the user id, a number or an object with `id`), `fouls[]` and
  `techs[]` (each `{time, stage}`), `disqual` (the stage at which the player was
  disqualified), `guess` (`mafs`: the seats the first killed names, i.e. the best move;
  `civs`, `vice`), `award`;
- `shots[]` (`night`, `shooter`, `victim`: each black player's aim), `checks[]` (`night`,
  `role` of the checker: 0 the don, 3 the sheriff; `player` the checked seat), `votes[]`
  (`day`, `num`: 0 a nomination (`voter` nominated `candidate`), 1, 2, ... the rounds of
  the day's vote, null a vote for lifting all tied candidates);
- `result` (0 the red team won, 1 the black team), `num` (the game's number: our round),
  `table`, `phase` (the stage of the tournament), `started`, `referee`, `bonuses[]`
  (`position`, `scores`, `text`), and settings we cannot follow (`zeroVoting`,
  `scoringType`, `scoringVersion`, `factor`, `comKiller`).

A record with the course of the game (shots, checks or votes) becomes a game with a `log`
(docs/gamelog.md): the events are built by driving the log engine itself, so the speeches
come in the order the rules give, the fouls and removals where the record puts them, and
the protocol facts (first killed, best move, day-1 leavers, removal penalties) are what
the rules derive. When the record cannot be replayed (an event the rules refuse, a game
that does not reach its end, a result the course does not give) the game keeps the
protocol facts only, and the report says why. Everything read is checked by the same
rules as any file: a game the rules refuse is left out, with its problems in the report.
"""

from __future__ import annotations

import datetime as dt
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from decimal import Decimal, InvalidOperation
from typing import Any, Final

import msgspec

from mafiatab.domain.gamelog import derive_facts, protocol_from_log
from mafiatab.domain.gamelog_engine import GameReplay
from mafiatab.domain.gamelog_events import (
    AnyEvent,
    BestMove,
    Deal,
    Defence,
    Disqualify,
    DonCheck,
    Foul,
    Lift,
    SheriffCheck,
    Shot,
    Speech,
    Vote,
    to_dict,
)
from mafiatab.domain.gamelog_state import Step
from mafiatab.domain.problems import Problem, Refused
from mafiatab.domain.protocol import (
    BLACK,
    BLACK_ROLES,
    DON,
    RED,
    ROLE_COUNTS,
    SHERIFF,
    Game,
    Penalty,
    Player,
    Seat,
    SeatScores,
    Stage,
    Tournament,
)
from mafiatab.domain.provenance import FIELD, records_origin
from mafiatab.domain.validation import validate_game
from mafiatab.formats.crosswalk import Crosswalk, PlayerIds
from mafiatab.formats.import_report import ImportReport, ru_number
from mafiatab.rules import get_profile
from mafiatab.rules.profile import RuleProfile
from mafiatab.texts.files import FILES

SYSTEM: Final = "polemica"
#: the system as pages name it beside the games imported from it
SYSTEM_NAME: Final = "Polemica"
ROLES: Final = {0: DON, 1: BLACK, 2: RED, 3: SHERIFF}
RESULTS: Final = {0: "red", 1: "black"}
CHECKER: Final = {0: DON, 3: SHERIFF}
#: Polemica's stages by the part of the game they belong to
NIGHT_ZERO: Final = frozenset({"dealing", "briefing", "comIntro"})
BEFORE_VOTE: Final = frozenset({"voting", "reSpeech", "lift"})
AFTER_VOTE: Final = frozenset({"voted"})
NIGHT: Final = frozenset({"shooting", "shooted", "donCheck", "comCheck", "guess", "comKill"})
#: a game longer than this many days is not a game (a record that never ends)
MAX_DAYS: Final = 30
#: fields of a record whose meaning the report names when they are present
SETTINGS: Final = {
    "zeroVoting": ("правило нулевого круга", "the zero-round rule"),
    "scoringType": ("тип подсчёта очков", "the scoring type"),
    "scoringVersion": ("версия подсчёта очков", "the scoring version"),
    "factor": ("коэффициент игры", "the game's factor"),
    "comKiller": ("«убийца комиссара»", "the 'sheriff's killer'"),
    "tags": ("теги", "tags"),
}


class PolemicaError(Refused):
    """A file that holds no Polemica game records at all."""

    def __init__(self, code: str, **params: Any) -> None:
        super().__init__([Problem(code, params=params, texts=FILES)])
        self.ru, self.en = self.message("ru"), self.message("en")


def records_of(data: object) -> list[dict[str, Any]]:
    """The game records of one file: a game, a list of games, or `{"games": [...]}`."""
    if isinstance(data, dict) and isinstance(data.get("games"), list):
        data = data["games"]
    if isinstance(data, dict):
        data = [data]
    if not isinstance(data, list) or not all(isinstance(g, dict) for g in data):
        raise PolemicaError("polemica_no_games")
    return list(data)


def _int(value: object) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return None


def _pick(table: dict[int, str], value: object) -> str | None:
    n = _int(value)
    return None if n is None else table.get(n)


def _user_id(value: object) -> str | None:
    if isinstance(value, dict):
        value = value.get("id")
    n = _int(value)
    return None if n is None else str(n)


def _points(value: object) -> Decimal | None:
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        return None
    try:
        d = Decimal(str(value))
    except InvalidOperation:
        return None
    return d if d.is_finite() else None


def _time(value: object) -> dt.datetime | None:
    if not isinstance(value, str):
        return None
    try:
        return dt.datetime.fromisoformat(value)
    except ValueError:
        return None


def _clock(started: dt.datetime | None, at: object) -> str | None:
    """A foul's moment as the judge's clock: minutes and seconds from the game's start."""
    when = _time(at)
    if started is None or when is None or when < started:
        return None
    seconds = int((when - started).total_seconds())
    return f"{seconds // 60}:{seconds % 60:02d}"


class _Place:
    """Where in the course of the game a foul or a removal goes (from its `stage`)."""

    @staticmethod
    def of(stage: object) -> tuple[str, int, int | None] | None:
        if not isinstance(stage, dict):
            return None
        kind, day = stage.get("type"), _int(stage.get("day"))
        if not isinstance(kind, str) or day is None:
            return None
        if kind in ("speech",):
            return ("speech", day, _int(stage.get("player")))
        if kind in NIGHT_ZERO:
            return ("night", 0, None)
        if kind in BEFORE_VOTE:
            return ("vote", day, None)
        if kind in AFTER_VOTE:
            return ("voted", day, None)
        if kind in NIGHT:
            return ("night", day, None)
        return None


class _GameReader:
    """One record into one game; every decision goes to the report."""

    def __init__(self, raw: dict[str, Any], index: int, profile: RuleProfile,
                 ids: PlayerIds, report: ImportReport,
                 settings: Counter[tuple[str, str]]) -> None:
        self.raw = raw
        self.settings = settings
        self.profile = profile
        self.ids = ids
        self.report = report
        rid = _int(raw.get("id"))
        self.code = f"p{rid}" if rid is not None else f"#{index + 1}"
        self.where = f"game {rid}" if rid is not None else f"game #{index + 1}"
        self.started = _time(raw.get("started"))

    def mapped(self, ru: str, en: str) -> None:
        self.report.mapped(self.where, ru, en)

    def lost(self, ru: str, en: str) -> None:
        self.report.not_mapped(self.where, ru, en)

    # --- the table ----------------------------------------------------------------
    def seats(self) -> tuple[dict[int, dict[str, Any]], dict[int, str]] | None:
        players = self.raw.get("players")
        if not isinstance(players, list) or len(players) != 10:
            self.lost("игра пропущена: нужно 10 игроков за столом",
                      "game left out: 10 players at the table are needed")
            return None
        by_seat: dict[int, dict[str, Any]] = {}
        roles: dict[int, str] = {}
        for p in players:
            seat = _int(p.get("position")) if isinstance(p, dict) else None
            role = _pick(ROLES, p.get("role")) if isinstance(p, dict) else None
            if seat is None or not 1 <= seat <= 10 or seat in by_seat or role is None:
                self.lost("игра пропущена: места 1–10 с ролями 0–3 по одному разу",
                          "game left out: seats 1-10 with roles 0-3, each once, are needed")
                return None
            assert isinstance(p, dict)
            by_seat[seat] = p
            roles[seat] = role
        if dict(Counter(roles.values())) != ROLE_COUNTS:
            self.lost("игра пропущена: роли не 6 мирных, шериф, 2 мафии и дон",
                      "game left out: the roles are not 6 red, a sheriff, 2 black and a don")
            return None
        return by_seat, roles

    # --- the course of the game ---------------------------------------------------
    def has_course(self) -> bool:
        return any(isinstance(self.raw.get(k), list) and self.raw.get(k)
                   for k in ("shots", "checks", "votes"))

    def build_log(self, roles: dict[int, str], by_seat: dict[int, dict[str, Any]]
                  ) -> tuple[list[AnyEvent], GameReplay] | str:
        """The log, built by driving the engine; or why the record cannot be replayed."""
        state = GameReplay(roles, self.profile, self.code)
        events: list[AnyEvent] = []
        skipped: list[str] = []

        def put(ev: AnyEvent, optional: bool = False) -> bool:
            problems = state.apply(ev, len(events))
            if problems:
                if optional:
                    skipped.append(problems[0].message("en"))
                    return False
                raise _Refused(problems[0])
            events.append(ev)
            return True

        votes = [v for v in self.raw.get("votes") or [] if isinstance(v, dict)]
        shots = [s for s in self.raw.get("shots") or [] if isinstance(s, dict)]
        checks = [c for c in self.raw.get("checks") or [] if isinstance(c, dict)]
        discipline: dict[tuple[str, int, int | None], list[AnyEvent]] = defaultdict(list)
        for seat, p in sorted(by_seat.items()):
            for foul in p.get("fouls") or []:
                place = _Place.of(foul.get("stage")) if isinstance(foul, dict) else None
                if place is None:
                    skipped.append(f"a foul of seat {seat} without a known stage")
                    continue
                clock = _clock(self.started, foul.get("time"))
                discipline[place].append(Foul(seat=seat, time=clock))
            if p.get("disqual") is not None:
                place = _Place.of(p.get("disqual"))
                if place is None:
                    skipped.append(f"the disqualification of seat {seat} without a known stage")
                else:
                    discipline[place].append(Disqualify(seat=seat, note="Polemica: disqual"))
        days = [_int(v.get("day")) or 0 for v in votes] + [
            _int(s.get("night")) or 0 for s in shots] + [
            _int(c.get("night")) or 0 for c in checks] + [d for _, d, _ in discipline]
        last_day = min(max(days, default=0) + 1, MAX_DAYS)

        def discipline_at(kind: str, day: int, player: int | None = None) -> None:
            for ev in discipline.pop((kind, day, player), []):
                put(ev, optional=True)

        try:
            put(Deal(roles=[roles[s] for s in range(1, 11)]))
            discipline_at("night", 0)
            for day in range(1, last_day + 1):
                if state.at(Step.ENDED):
                    break
                noms = {(_int(v.get("voter")) or 0): _int(v.get("candidate"))
                        for v in votes if _int(v.get("day")) == day and _int(v.get("num")) == 0}
                while True:
                    step = state.next_step()
                    if step.step is Step.ENDED or step.seat is None or "speech" not in step.kinds:
                        break
                    seat = step.seat
                    put(Speech(seat=seat, nominates=noms.get(seat)))
                    discipline_at("speech", day, seat)
                if state.at(Step.ENDED) or state.next_step().step is Step.ENDED:
                    break
                discipline_at("vote", day)
                rounds = sorted({n for v in votes if _int(v.get("day")) == day
                                 and (n := _int(v.get("num"))) is not None and n >= 1})
                for r in rounds:
                    while (step := state.next_step()).step is Step.DEFENCE and step.seat:
                        put(Defence(seat=step.seat))
                    if state.next_step().step not in (Step.VOTE, Step.DEFENCE):
                        skipped.append(f"day {day}: the votes of round {r} (no vote is due)")
                        continue
                    tally: dict[str, list[int]] = defaultdict(list)
                    for v in votes:
                        if _int(v.get("day")) == day and _int(v.get("num")) == r:
                            cand, voter = _int(v.get("candidate")), _int(v.get("voter"))
                            if cand is not None and voter is not None:
                                tally[str(cand)].append(voter)
                    put(Vote(votes=dict(tally)))
                if state.next_step().step is Step.LIFT:
                    lifters = sorted({_int(v.get("voter")) or 0 for v in votes
                                      if _int(v.get("day")) == day and v.get("num") is None
                                      and "num" in v})
                    put(Lift(voters=lifters))
                discipline_at("voted", day)
                if state.at(Step.ENDED) or state.next_step().step is Step.ENDED:
                    break
                aims = {str(s): _int(x.get("victim")) for x in shots
                        if _int(x.get("night")) == day and (s := _int(x.get("shooter")))
                        in state.at_table and roles.get(s) in BLACK_ROLES}
                put(Shot(shots=aims) if aims else Shot(target=None))
                for c in checks:
                    if _int(c.get("night")) != day:
                        continue
                    who, target = _pick(CHECKER, c.get("role")), _int(c.get("player"))
                    if target is None or who is None:
                        skipped.append(f"night {day}: a check without a checker or a seat")
                        continue
                    put(DonCheck(target=target) if who == DON else SheriffCheck(target=target))
                fk = state.first_killed
                if state.best_move_open and fk is not None:
                    guess = by_seat[fk].get("guess")
                    mafs = guess.get("mafs") if isinstance(guess, dict) else None
                    if isinstance(mafs, list) and mafs:
                        put(BestMove(seat=fk, seats=[m for m in map(_int, mafs)
                                                     if m is not None]))
                discipline_at("night", day)
            state.finish(len(events))
        except _Refused as refused:
            return refused.problem.message("en")
        for text in skipped:
            self.lost(f"не вошло в журнал: {text}", f"not in the log: {text}")
        for (kind, day, _), evs in discipline.items():
            for ev in evs:
                self.lost(f"не вошло в журнал: {type(ev).__name__} ({kind} {day})",
                          f"not in the log: {type(ev).__name__} ({kind} {day})")
        if not state.at(Step.ENDED):
            return f"the course as recorded does not reach the end ({state.next_step().text('en')})"
        return events, state

    # --- the facts without a log ---------------------------------------------------
    def facts_without_log(self, roles: dict[int, str], by_seat: dict[int, dict[str, Any]]
                          ) -> tuple[int | None, list[int], dict[int, SeatScores]]:
        shots = [s for s in self.raw.get("shots") or [] if isinstance(s, dict)]
        night1 = [s for s in shots if _int(s.get("night")) == 1]
        removed = {seat for seat, p in by_seat.items()
                   if isinstance(p.get("disqual"), dict)
                   and (_int(p["disqual"].get("day")) or 0) <= 1}
        blacks = {s for s, r in roles.items() if r in BLACK_ROLES} - removed
        victims = {_int(s.get("victim")) for s in night1}
        shooters = {_int(s.get("shooter")) for s in night1}
        first_killed: int | None = None
        if len(victims) == 1 and blacks <= shooters:
            first_killed = victims.pop()
        best_move: list[int] = []
        if first_killed is not None:
            guess = by_seat[first_killed].get("guess")
            mafs = guess.get("mafs") if isinstance(guess, dict) else None
            if isinstance(mafs, list):
                best_move = [m for m in map(_int, mafs) if m is not None]
        scores: dict[int, SeatScores] = {}
        for seat, p in by_seat.items():
            if p.get("disqual") is not None:
                critical = False if self.profile.critical_red_margin.value is not None else None
                scores[seat] = SeatScores(penalties=[Penalty(
                    kind="disqualification", critical=critical,
                    note="Polemica: disqual" + (" (critical not recorded: false)"
                                                 if critical is not None else ""))])
        return first_killed, best_move, scores

    # --- the game ----------------------------------------------------------------
    def game(self, stage: str, round_no: int) -> Game | None:
        raw = self.raw
        result = _pick(RESULTS, raw.get("result"))
        if result is None:
            self.lost("игра пропущена: нет результата (игра не окончена?)",
                      "game left out: no result (not finished?)")
            return None
        table = self.seats()
        if table is None:
            return None
        by_seat, roles = table
        seats: list[Seat] = []
        for seat in range(1, 11):
            p = by_seat[seat]
            nick = p.get("username") if isinstance(p.get("username"), str) else None
            user = p.get("player")
            if nick is None and isinstance(user, dict) and isinstance(user.get("username"), str):
                nick = user["username"]
            ext = _user_id(user)
            pid = self.ids.resolve(SYSTEM, ext, nick or f"seat {seat}")
            seats.append(Seat(seat=seat, player=pid, role=roles[seat]))
        self.mapped(f"места, роли и игроки; результат: {result}",
                    f"seats, roles and players; result: {result}")
        table_no = _int(raw.get("table"))
        referee = raw.get("referee")
        judge = referee.get("username") if isinstance(referee, dict) else None
        game = Game(id=self.code, stage=stage, round=round_no,
                    table=table_no if table_no is not None and table_no >= 1 else 1,
                    date=self.started.date().isoformat() if self.started else None,
                    judge=judge if isinstance(judge, str) else None,
                    seats=seats, result=result)
        log_built = False
        if self.has_course():
            built = self.build_log(roles, by_seat)
            if isinstance(built, str):
                self.lost(f"ход игры не воспроизводится по правилам ({built}): только факты "
                          "протокола", f"the course of the game cannot be replayed by the "
                          f"rules ({built}): the protocol facts only")
            else:
                events, state = built
                facts = derive_facts(state)
                if facts.result != result:
                    self.lost(f"по ходу игры результат {facts.result}, в записи {result}: "
                              "только факты протокола", f"the course gives {facts.result}, "
                              f"the record {result}: the protocol facts only")
                else:
                    game = msgspec.structs.replace(
                        game, log=[to_dict(e) for e in events],
                        first_killed=facts.first_killed, best_move=list(facts.best_move),
                        day1_vote_left=facts.day1_vote_left)
                    log_built = True
                    self.mapped(f"ход игры: журнал, событий — {len(events)} (ночи, речи, "
                                "выставления, голосования, фолы, удаления)",
                                f"the course of the game: a log, events: {len(events)} "
                                "(nights, speeches, nominations, votes, fouls, removals)")
        else:
            self.lost("в записи нет хода игры (выстрелов, проверок, голосований): только "
                      "факты протокола", "the record has no course of the game (shots, "
                      "checks, votes): the protocol facts only")
        if not log_built:
            fk, bm, penalties = self.facts_without_log(roles, by_seat)
            game = msgspec.structs.replace(game, first_killed=fk,
                                           best_move=bm if fk is not None else [],
                                           scores=penalties)
            self.mapped(f"первый убитый: {fk if fk is not None else '—'}; лучший ход: "
                        f"{', '.join(map(str, bm)) or '—'}",
                        f"first killed: {fk if fk is not None else '—'}; best move: "
                        f"{', '.join(map(str, bm)) or '—'}")
            if any(p.get("disqual") is not None for p in by_seat.values()):
                self.mapped("дисквалификации: штраф за удаление",
                            "disqualifications: the removal penalty")
        game = self.bonuses(game)
        self.unmapped_fields(by_seat)
        return game

    def bonuses(self, game: Game) -> Game:
        sums: dict[int, Decimal] = defaultdict(Decimal)
        for b in self.raw.get("bonuses") or []:
            seat = _int(b.get("position")) if isinstance(b, dict) else None
            value = _points(b.get("scores")) if isinstance(b, dict) else None
            if seat is None or value is None or not 1 <= seat <= 10:
                self.lost("бонус без места или очков", "a bonus without a seat or points")
                continue
            sums[seat] += value
        if not sums:
            return game
        scores = dict(game.scores)
        for seat, value in sorted(sums.items()):
            if value == 0:
                continue
            if value < 0 and not self.profile.extra_negative_scale.value:
                self.lost(f"место {seat}: отрицательный бонус {ru_number(value)} — в этих правилах "
                          "штраф пишется штрафом, не доп. баллом",
                          f"seat {seat}: a negative bonus {value}: these rules write a "
                          "penalty as a penalty, not as an extra")
                continue
            sc = scores.get(seat, SeatScores())
            scores[seat] = msgspec.structs.replace(sc, extra=value)
            self.mapped(f"место {seat}: бонусы {ru_number(value)} → доп. баллы",
                        f"seat {seat}: bonuses {value} -> extra")
        return msgspec.structs.replace(game, scores=scores)

    def unmapped_fields(self, by_seat: dict[int, dict[str, Any]]) -> None:
        for key in SETTINGS:
            value = self.raw.get(key)
            if value not in (None, [], ""):
                self.settings[(key, str(value))] += 1
        for seat, p in sorted(by_seat.items()):
            techs = p.get("techs") or []
            if techs:
                self.lost(f"место {seat}: технические фолы ({len(techs)}) — в правилах ФИИМ/ФСМ"
                          " таких нет", f"seat {seat}: technical fouls ({len(techs)}): no such"
                          " thing in the FIIM/FSM rules")
            award = _points(p.get("award"))
            if award is not None and award != 0:
                self.lost(f"место {seat}: награда Polemica {ru_number(award)} не переносится (очки "
                          "считаются по протоколу)", f"seat {seat}: Polemica's award {award} "
                          "is not carried over (points are computed from the protocol)")
            guess = p.get("guess")
            if isinstance(guess, dict):
                for key in ("civs", "vice"):
                    if guess.get(key) not in (None, []):
                        self.lost(f"место {seat}: guess.{key} не переносится",
                                  f"seat {seat}: guess.{key} is not carried over")


class _Refused(Exception):
    def __init__(self, problem: Problem) -> None:
        super().__init__(problem.code)
        self.problem = problem


def _stages(records: Sequence[dict[str, Any]]) -> tuple[list[Stage], dict[int, str]]:
    phases = sorted({_int(r.get("phase")) or 0 for r in records})
    stages: list[Stage] = []
    ids: dict[int, str] = {}
    for n in phases:
        if n == 0:
            sid, kind, name = "qual", "qualification", "Отбор / Qualification"
        else:
            sid = f"phase-{n}"
            kind = "final" if n == phases[-1] else "semifinal"
            name = f"Фаза {n} / Phase {n}"
        ids[n] = sid
        stages.append(Stage(id=sid, name=name, kind=kind))
    return stages, ids


def convert(records: Iterable[dict[str, Any]], *, rules: str, name: str,
            crosswalk: Crosswalk | None = None, known: Iterable[Player] = (),
            files: Sequence[str] = ()) -> tuple[Tournament, ImportReport]:
    """Polemica game records into one format-1 tournament, with the report.

    `crosswalk` and `known` (the players of an earlier tournament) give the same people
    the same ids; the crosswalk the tournament gets back records every Polemica user id.
    """
    profile = get_profile(rules)
    report = ImportReport(SYSTEM, list(files))
    recs = list(records)
    cw = Crosswalk() if crosswalk is None else crosswalk.merged(Crosswalk())
    ids = PlayerIds(cw, known)
    stages, stage_of = _stages(recs)
    for n, sid in stage_of.items():
        report.mapped("file", f"фаза Polemica {n} → стадия {sid}",
                      f"Polemica phase {n} -> stage {sid}")
    games: list[Game] = []
    settings: Counter[tuple[str, str]] = Counter()
    seen: set[str] = set()
    numbered: dict[tuple[str, int], int] = defaultdict(int)
    order = sorted(range(len(recs)), key=lambda i: (str(recs[i].get("started") or ""), i))
    for i in order:
        raw = recs[i]
        reader = _GameReader(raw, i, profile, ids, report, settings)
        if reader.code in seen:
            reader.lost("игра пропущена: этот id уже был", "game left out: this id came before")
            continue
        stage = stage_of[_int(raw.get("phase")) or 0]
        num = _int(raw.get("num"))
        table = _int(raw.get("table")) or 1
        if num is None or num < 1:
            numbered[(stage, table)] += 1
            num = numbered[(stage, table)]
            reader.mapped(f"номер игры не указан: тур {num} по времени начала",
                          f"no game number: round {num} by the starting time")
        game = reader.game(stage, num)
        if game is None:
            continue
        game = _checked(game, profile, reader)
        if game is not None:
            seen.add(game.id)
            games.append(game)
    for (key, value), n in sorted(settings.items()):
        ru, en = SETTINGS[key]
        report.not_mapped("file", f"{ru} ({key} = {value}, игр: {n}) не переносится: "
                          "правила задаёт профиль (--rules)", f"{en} ({key} = {value}, "
                          f"games: {n}) is not carried over: the rules are the profile's "
                          "(--rules)")
    used = {s.player for g in games for s in g.seats}
    players = [p for p in ids.listed() if p.id in used]
    for p in players:
        how = ids.how[p.id]
        report.mapped(f"player {p.id}", {"crosswalk": "по таблице соответствия",
                                         "nickname": "по нику известного игрока",
                                         "new": "новый id по нику"}[how],
                      {"crosswalk": "by the crosswalk", "nickname": "by a known nickname",
                       "new": "a new id from the nickname"}[how])
    cw = cw.only(p.id for p in players)
    # every page that shows these games names where they come from (domain/provenance.py)
    other: dict[str, Any] = {FIELD: records_origin(SYSTEM_NAME, files)}
    if cw.as_json():
        other["crosswalk"] = cw.as_json()
    t = Tournament(name=name, rules=rules, players=players,
                   stages=[s for s in stages if any(g.stage == s.id for g in games)],
                   games=games, other=other)
    return t, report


def _checked(game: Game, profile: RuleProfile, reader: _GameReader) -> Game | None:
    """The game as the rules accept it: without its extras when only they are refused,
    left out when more is."""
    players = {s.player for s in game.seats}

    def errors(g: Game) -> list[Problem]:
        derived, problems = protocol_from_log(g, profile)
        problems += validate_game(derived, profile, players, {g.stage})
        return [p for p in problems if not p.warning]

    problems = errors(game)
    if not problems:
        return game
    if game.scores and all(p.seat is not None for p in problems):
        bare = msgspec.structs.replace(game, scores={
            seat: msgspec.structs.replace(sc, extra=None)
            for seat, sc in game.scores.items()})
        if not errors(bare):
            for p in problems:
                reader.lost(f"доп. баллы отброшены: {p.message('ru')}",
                            f"extras dropped: {p.message('en')}")
            return bare
    for p in problems:
        reader.lost(f"игра пропущена: {p.message('ru')}", f"game left out: {p.message('en')}")
    return None
