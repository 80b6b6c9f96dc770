"""Protests on a game's result and appeals of an individual score (scoring.md section 9).

FIIM 8.9 and FSM 8.8-8.10 give a player the right to protest a result and (FSM) to appeal
his own score, within deadlines and limits that head judges track by hand. This module is
those rules and nothing else: it reads no clock, no database and no file. The caller
passes the moment (`now`), the tournament's schedule and the cases filed so far; the
functions answer whether a filing or a decision is allowed, with the clause of every
refusal, and what a decision does to the game's protocol.

Every number (10 minutes, two rounds, three and three, 0.1) comes from the rule profile,
so the two federations differ only in data.

The records are `msgspec.Struct`s so that the storage layer can keep them as JSON as
they are; they are frozen: a step (a message, a decision) makes a new record.

Typical use (the web app's "appeal" button, then the head judge's decision)::

    refusals = check_filing(filing, game, profile, schedule, times, earlier, now)
    case = file_case(filing, game, profile, schedule, times, earlier, now, case_id="a1")
    case = add_message(case, Message(author="p7", role=Role.PLAYER, at=now, text="..."))
    decided, effect = decide(case, decision, game, profile, schedule, now)
    # effect.game: the new protocol revision (None when a replay annuls the game)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from dataclasses import field as dc_field
from datetime import UTC, datetime, timedelta, tzinfo
from decimal import Decimal
from enum import StrEnum
from typing import Any

import msgspec

from mafiatab.domain.clock import local_time
from mafiatab.domain.points import Points, format_points, hundredths_of
from mafiatab.domain.problems import Refused as _Refused
from mafiatab.domain.problems import coded, translate_clause
from mafiatab.domain.protocol import (
    RESULTS,
    Game,
    Penalty,
    ProtocolEntry,
    PuProtocol,
    SeatScores,
)
from mafiatab.domain.scoring import penalty_size
from mafiatab.domain.words import PENALTY
from mafiatab.rules.profile import RuleProfile

# --- the records -------------------------------------------------------------------


class Kind(StrEnum):
    """What is disputed: a game's result (FIIM 8.9, FSM 8.8) or one's own score (FSM 8.9)."""

    PROTEST = "protest"
    APPEAL = "appeal"


class Subject(StrEnum):
    """What an appeal disputes; the first two have their own limits (FSM 8.4.9, 8.9.6)."""

    #: the result of the game (a protest)
    RESULT = "result"
    #: the judge's extra of the player (zero or positive): "положительный доп. балл"
    POSITIVE_EXTRA = "positive_extra"
    #: a penalty or a negative extra: "штрафной балл"
    PENALTY = "penalty"
    #: any other part of one's score (best move, will, protocol, ...): no limit of count
    OTHER = "other"


class Role(StrEnum):
    """Who takes part in a case's thread (FSM 8.9.3: a chat of the player, the judge and
    the head judge)."""

    PLAYER = "player"
    JUDGE = "judge"
    HEAD_JUDGE = "head_judge"
    APPEALS_COMMISSION = "appeals_commission"


class Status(StrEnum):
    OPEN = "open"
    DECIDED = "decided"
    WITHDRAWN = "withdrawn"


class Outcome(StrEnum):
    """How a case ends. A protest or an appeal may be rejected or accepted (the protocol
    changes); FSM 8.10 adds a replay."""

    REJECTED = "rejected"
    ACCEPTED = "accepted"
    REPLAY = "replay"


class _Record(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Base of the records: keyword construction, immutable, stored as JSON as they are."""


class RoundTime(_Record, frozen=True):
    """One round of the tournament's schedule: when it starts and on which day."""

    stage: str
    round: int
    #: the tournament's day, from 1
    day: int
    starts: datetime


class Schedule(_Record, frozen=True):
    """The tournament's schedule, as far as the deadlines need it.

    The deadlines of FSM 8.9.1-8.9.2 count rounds and days, which the protocols do not
    know; the schedule is entered by the organizer (or derived from the rounds' actual
    starts by the storage layer).
    """

    rounds: list[RoundTime] = []
    #: when the tables were closed (FSM 8.9.2), if they were
    tables_closed_at: datetime | None = None
    #: whether the latest round here is surely the tournament's last: true for a schedule
    #: the organizer entered; false where the storage took the rounds' actual starts (the
    #: latest started round need not be the last one)
    last_round_known: bool = True

    def ordered(self) -> list[RoundTime]:
        return sorted(self.rounds, key=lambda r: (r.starts, r.stage, r.round))

    def find(self, stage: str, round_: int) -> RoundTime | None:
        for r in self.rounds:
            if r.stage == stage and r.round == round_:
                return r
        return None

    def last_round_start(self) -> datetime | None:
        return max((r.starts for r in self.rounds), default=None)

    def day_start(self, day: int) -> datetime | None:
        return min((r.starts for r in self.rounds if r.day == day), default=None)


class GameTimes(_Record, frozen=True):
    """When a game ended and when its protocol was published (or, with closed tables, when
    the player learned his score from the judge: FSM 8.9.1)."""

    ended: datetime | None = None
    published: datetime | None = None


class Filing(_Record, frozen=True):
    """What a player files: a protest on a game's result, or an appeal of his score."""

    kind: Kind
    player: str
    game: str
    subject: Subject = Subject.RESULT
    #: the part of the score disputed, as awarded and as the player asks (in points, as
    #: written: Decimal("0.4")); for an appeal
    awarded: Decimal | None = None
    claimed: Decimal | None = None
    text: str = ""


class Message(_Record, frozen=True):
    """One message of a case's thread."""

    author: str
    role: Role
    at: datetime
    text: str


class PenaltyEdit(_Record, frozen=True):
    """One penalty of a seat removed or resized: its place in the seat's list (from 0)
    and its kind as the decider saw it, so that an edit never hits another penalty."""

    index: int
    kind: str
    remove: bool = False
    #: the new size (points as written, e.g. Decimal("-0.2")); None: unchanged
    points: Decimal | None = None


class SeatChange(_Record, frozen=True):
    """What a decision changes in one seat's scores; a field left out stays as it was,
    a field given as null is cleared (an extra taken away)."""

    extra: Decimal | None | msgspec.UnsetType = msgspec.UNSET
    pu_extra: Decimal | None | msgspec.UnsetType = msgspec.UNSET
    will: Decimal | None | msgspec.UnsetType = msgspec.UNSET
    protocol: Decimal | None | msgspec.UnsetType = msgspec.UNSET
    pu_protocol: PuProtocol | None | msgspec.UnsetType = msgspec.UNSET
    #: the first killed's protocol's entries as [seat, "red" | "black"] (FSM 8.3.9): the
    #: tag of an entry whose seat and colour stay is kept, the version and "aside" too
    pu_entries: list[tuple[int, str]] | msgspec.UnsetType = msgspec.UNSET
    #: the seat's fouls after the decision
    fouls: int | msgspec.UnsetType = msgspec.UNSET
    penalties: list[PenaltyEdit] = []
    add_penalties: list[Penalty] = []


class Change(_Record, frozen=True):
    """What a decision changes in the game's protocol: whatever a case may be about
    (scoring.md section 9). `seats` changes single parts of a seat's scores on top of
    the protocol as it is when the decision is taken; `scores` replaces a seat's whole
    `SeatScores` (applied first). What is left out stays as it was."""

    result: str | None = None
    first_killed: int | None = None
    best_move: list[int] | None = None
    scores: dict[int, SeatScores] = {}
    seats: dict[int, SeatChange] = {}

    def is_empty(self) -> bool:
        return not (self.result or self.first_killed or self.best_move is not None
                    or self.scores or self.seats)


class Decision(_Record, frozen=True):
    """The decision on a case: by whom, when, why, and what it changes."""

    by: str
    role: Role
    at: datetime
    outcome: Outcome
    reason: str
    change: Change | None = None
    #: FSM 8.10.1: the representative of the FSM judicial committee agreed
    committee_agreed: bool = False
    #: FSM 8.10.1: the decision is taken for a non-game advantage
    non_game_advantage: bool = False


class Case(_Record, frozen=True):
    """A filed protest or appeal, its thread and its decision."""

    id: str
    filing: Filing
    filed_at: datetime
    status: Status = Status.OPEN
    messages: list[Message] = []
    decision: Decision | None = None
    #: the clause the filing was accepted under (for the audit trail)
    clause: str = ""


# --- refusals ------------------------------------------------------------------------

#: code -> (Russian, English); parameters in braces, points rendered by `format_points`.
MESSAGES: dict[str, tuple[str, str]] = {
    "not_in_game": (
        "игрок {player} не играл в игре {game}",
        "player {player} did not play in game {game}",
    ),
    "no_score_appeals": (
        "правила не предусматривают апелляций на индивидуальную оценку, только протест на "
        "результат игры",
        "the rules have no appeals of an individual score, only protests on a result",
    ),
    "protest_subject": (
        "протест подаётся на результат игры",
        "a protest is on the game's result",
    ),
    "appeal_subject": (
        "апелляция подаётся на свой балл, не на результат игры",
        "an appeal is on one's own score, not on the game's result",
    ),
    "protest_too_late": (
        "протест подаётся не позднее {minutes} мин после окончания игры (не позднее "
        "{deadline})",
        "a protest is filed at most {minutes} minutes after the game (by {deadline} at the "
        "latest)",
    ),
    "game_end_unknown": (
        "неизвестно время окончания игры, срок протеста не проверить",
        "the game's end time is unknown, the protest's deadline cannot be checked",
    ),
    "not_published": (
        "протокол игры ещё не опубликован",
        "the game's protocol is not published yet",
    ),
    "round_not_in_schedule": (
        "тура {stage}/{round} нет в расписании турнира",
        "round {stage}/{round} is not in the tournament's schedule",
    ),
    "appeal_rounds_passed": (
        "срок апелляции — {rounds} тура после публикации протокола; истёк в {deadline}",
        "an appeal is filed within {rounds} rounds after the protocol's publication; "
        "that ended at {deadline}",
    ),
    "appeal_next_day": (
        "баллы дня {day} оспариваются до начала следующего игрового дня ({deadline})",
        "the scores of day {day} are appealed before the next day starts ({deadline})",
    ),
    "appeal_last_round": (
        "все апелляции закрываются до старта последнего тура ({deadline})",
        "every appeal is closed before the last round starts ({deadline})",
    ),
    "appeal_on_last_round": (
        "апелляция на игру последнего тура не принимается: все апелляции закрываются до "
        "его старта ({deadline})",
        "no appeal on a game of the last round: every appeal is closed before that round "
        "starts ({deadline})",
    ),
    "appeal_tables_closed": (
        "баллы, полученные до закрытия таблиц, не оспариваются после закрытия ({deadline})",
        "scores got before the tables were closed are not appealed after ({deadline})",
    ),
    "appeal_limit": (
        "за турнир можно оспорить {what} не более {max} раз; уже подано: {count}",
        "{what} may be appealed at most {max} times a tournament; filed so far: {count}",
    ),
    "appeal_difference": (
        "апелляции по поводу разницы в {value} балла не принимаются",
        "no appeal is taken about a difference of {value}",
    ),
    "appeal_no_difference": (
        "запрошенный балл равен присуждённому",
        "the score asked for equals the score awarded",
    ),
    "appeal_values_missing": (
        "укажите присуждённый и запрашиваемый балл",
        "give the score awarded and the score asked for",
    ),
    "appeal_value_format": (
        "балл с не более чем двумя знаками после запятой, получено {value}",
        "a score with at most two decimal places, got {value}",
    ),
    "protest_already_decided": (
        "решение по протесту на эту игру окончательное ({decided})",
        "the decision on a protest on this game is final ({decided})",
    ),
    "case_open_twice": (
        "такая жалоба по этой игре уже подана и не решена ({case})",
        "the same case on this game is already filed and open ({case})",
    ),
    "case_closed": ("дело {case} уже закрыто", "case {case} is already closed"),
    "thread_role": (
        "в обсуждении участвуют игрок, судья и главный судья",
        "the thread is for the player, the judge and the head judge",
    ),
    "thread_author": (
        "от имени игрока пишет только подавший ({player})",
        "only the player who filed ({player}) writes as the player",
    ),
    "decider": (
        "решение принимает {who}",
        "the decision is taken by {who}",
    ),
    "replay_not_in_rules": (
        "правила не предусматривают переигровку",
        "the rules have no replay",
    ),
    "needs_committee": (
        "изменение результата или переигровка — по согласованию с представителем "
        "Судейского комитета",
        "a changed result or a replay needs the agreement of the judicial committee's "
        "representative",
    ),
    "accepted_without_change": (
        "жалоба удовлетворяется изменением протокола: укажите, что изменить (результат, "
        "доп. балл, штраф, фолы, ЛХ, ПУ)",
        "an accepted case changes the protocol: say what changes (the result, an extra, a "
        "penalty, fouls, the best move, the first killed)",
    ),
    "accepted_changes_nothing": (
        "решение «удовлетворить» ничего не меняет: указанное уже записано в протоколе",
        "an accepted decision that changes nothing: the protocol already says so",
    ),
    "penalty_not_found": (
        "у места {seat} нет штрафа №{number} ({kind})",
        "seat {seat} has no penalty no. {number} ({kind})",
    ),
    "fouls_range": ("фолы места {seat}: от 0 до 4, получено {value}",
                    "fouls of seat {seat}: 0 to 4, got {value}"),
    "change_without_accept": (
        "отклонённое решение не меняет протокол",
        "a rejected case changes nothing in the protocol",
    ),
    "bad_result": (
        "результат {value!r}: допустимо red, black или draw",
        "result {value!r}: red, black or draw",
    ),
    "change_seat": ("место {value!r} вне 1–10", "seat {value!r} is not in 1-10"),
    "decided_after_last_round": (
        "апелляция закрыта после старта последнего тура ({deadline})",
        "the appeal is closed after the last round started ({deadline})",
    ),
}

WHAT: dict[str, tuple[str, str]] = {
    Subject.POSITIVE_EXTRA.value: ("положительный доп. балл", "a positive extra"),
    Subject.PENALTY.value: ("штрафной балл", "a penalty"),
}
WHO: dict[str, tuple[str, str]] = {
    Role.HEAD_JUDGE.value: ("главный судья", "the head judge"),
    Role.APPEALS_COMMISSION.value: ("апелляционная комиссия", "the appeals commission"),
    Role.JUDGE.value: ("судья игры", "the game's judge"),
}


def _time(value: datetime, lang: str, zone: tzinfo | None) -> str:
    """A moment of a refusal on the tournament's clock, with the zone's name."""
    return local_time(value, zone if zone is not None else UTC, lang)


@dataclass(frozen=True, slots=True)
class Refusal:
    """Why a filing, a message or a decision is refused: a code, its clause, its values.
    Data, not text, so that each reader gets it in his language (as `problems.Problem`)."""

    code: str
    clause: str | None = None
    params: dict[str, Any] = dc_field(default_factory=dict)
    #: shown, but does not refuse (e.g. a decision later than the rules want)
    warning: bool = False

    def message(self, lang: str = "en", zone: tzinfo | None = None,
                when: Callable[[datetime], str] | None = None) -> str:
        """The refusal in the reader's language; moments by `when` (the pages' words for
        a moment on the tournament's clock, e.g. `i18n.local_time`), else in `zone` (the
        tournament's time zone; UTC when not given) with the zone's IANA name."""
        ru, en = MESSAGES[self.code]
        params: dict[str, Any] = {}
        for k, v in self.params.items():
            if isinstance(v, Points):
                v = format_points(v.hundredths, lang)
            elif isinstance(v, datetime):
                v = when(v) if when is not None else _time(v, lang, zone)
            elif k == "what":
                v = WHAT[v][0 if lang == "ru" else 1]
            elif k == "who":
                v = " / ".join(WHO[w][0 if lang == "ru" else 1] for w in v)
            params[k] = v
        text = (ru if lang == "ru" else en).format(**params)
        return f"{text} ({translate_clause(self.clause, lang)})" if self.clause else text

    def as_dict(self, lang: str = "en", zone: tzinfo | None = None,
                when: Callable[[datetime], str] | None = None) -> dict[str, Any]:
        return {"code": self.code, "clause": self.clause, "warning": self.warning,
                "params": {k: coded(v) for k, v in self.params.items()},
                "message": self.message(lang, zone, when)}


class Refused(_Refused):
    """A filing, message or decision is refused; `refusals` lists every reason (they are
    its `problems` too, as in every refusal of the program)."""

    def __init__(self, refusals: list[Refusal]) -> None:
        self.refusals = refusals
        super().__init__(refusals)


# --- deadlines -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Deadline:
    """The moment from which filing is refused, the refusal's code and its clause."""

    at: datetime
    code: str
    clause: str
    params: dict[str, Any] = dc_field(default_factory=dict)
    #: whether `at` itself is still in time ("не позднее": at most, FIIM 8.9.1); else
    #: filing is refused from `at` on ("до старта": before, FSM 8.9.2)
    inclusive: bool = False

    def passed(self, now: datetime) -> bool:
        """Whether filing at `now` is too late by this deadline."""
        return now > self.at if self.inclusive else now >= self.at


def deadlines(kind: Kind, game: Game, profile: RuleProfile, schedule: Schedule,
              times: GameTimes) -> tuple[list[Deadline], list[Refusal]]:
    """Every deadline that binds a filing on this game, earliest first, and the refusals
    that make the deadlines impossible to know (no end time, not yet published).

    The web page shows the earliest as "you may file until ..."; `check_filing` refuses
    from it on.
    """
    out: list[Deadline] = []
    missing: list[Refusal] = []
    p = profile
    if kind is Kind.PROTEST:
        minutes = p.protest_minutes_after_game.value
        if minutes is not None:
            if times.ended is None:
                missing.append(Refusal("game_end_unknown", p.protest_minutes_after_game.clause))
            else:
                out.append(Deadline(times.ended + timedelta(minutes=minutes), "protest_too_late",
                                    p.protest_minutes_after_game.clause, {"minutes": minutes},
                                    inclusive=p.protest_deadline_inclusive.value))
        return out, missing
    if not p.score_appeals.value:
        return out, missing
    here = schedule.find(game.stage, game.round)
    rounds = p.appeal_rounds_after_publication.value
    if rounds is not None:
        clause = p.appeal_rounds_after_publication.clause
        if times.published is None:
            missing.append(Refusal("not_published", clause))
        else:
            later = [r for r in schedule.ordered() if r.starts > times.published]
            # the window is `rounds` rounds: it closes when the next one starts
            if len(later) > rounds:
                out.append(Deadline(later[rounds].starts, "appeal_rounds_passed", clause,
                                    {"rounds": rounds}))
    first_days = p.appeal_before_next_day.value
    if first_days is not None:
        if here is None:
            missing.append(Refusal("round_not_in_schedule", p.appeal_before_next_day.clause,
                                   {"stage": game.stage, "round": game.round}))
        else:
            nxt = schedule.day_start(here.day + 1) if here.day <= first_days else None
            if nxt is not None:
                out.append(Deadline(nxt, "appeal_next_day", p.appeal_before_next_day.clause,
                                    {"day": here.day}))
    if p.appeal_closed_before_last_round.value:
        last = schedule.last_round_start()
        if last is not None and here is not None and here.starts >= last:
            # a game of the last round is played after the round started, when every
            # appeal must already be closed: no appeal on it can be filed (when the
            # schedule says which round is the last)
            if schedule.last_round_known:
                out.append(Deadline(last, "appeal_on_last_round",
                                    p.appeal_closed_before_last_round.clause))
        elif last is not None:
            out.append(Deadline(last, "appeal_last_round",
                                p.appeal_closed_before_last_round.clause))
    closed = schedule.tables_closed_at
    if p.appeal_not_after_tables_closed.value and closed is not None:
        got = times.published or times.ended
        if got is not None and got < closed:
            out.append(Deadline(closed, "appeal_tables_closed",
                                p.appeal_not_after_tables_closed.clause))
    out.sort(key=lambda d: d.at)
    return out, missing


def filing_deadline(kind: Kind, game: Game, profile: RuleProfile, schedule: Schedule,
                    times: GameTimes) -> Deadline | None:
    """The earliest deadline (None: the rules set none, or it cannot be known yet)."""
    found, _ = deadlines(kind, game, profile, schedule, times)
    return found[0] if found else None


def is_open(deadline: Deadline | None, now: datetime) -> bool:
    """Whether filing is still possible by this deadline at `now` (no deadline: yes).
    The pages show a deadline as open only when this says so."""
    return deadline is None or not deadline.passed(now)


def decide_by(case: Case, profile: RuleProfile, schedule: Schedule) -> datetime | None:
    """When the decision on the case is due (FSM 8.9.2: every appeal closed before the
    last round starts), never earlier than the filing: a case filed after that moment
    (the schedule was entered or changed later) has no such deadline to show; its
    decision is then a warning of `check_decision`."""
    if case.filing.kind is not Kind.APPEAL or not profile.appeal_closed_before_last_round.value:
        return None
    last = schedule.last_round_start()
    if last is None or last <= case.filed_at:
        return None
    return last


# --- filing --------------------------------------------------------------------------


def _counted(subject: Subject, player: str, earlier: Sequence[Case]) -> int:
    """Appeals that used the right of FSM 8.9.6: every appeal filed, whatever its outcome
    (Reading: withdrawn ones too: a filed appeal opens the thread the rule limits)."""
    return sum(1 for c in earlier
               if c.filing.kind is Kind.APPEAL and c.filing.player == player
               and c.filing.subject is subject)


def _values(filing: Filing, profile: RuleProfile) -> tuple[int, int] | Refusal:
    clause = profile.appeal_ignored_difference.clause
    if filing.awarded is None or filing.claimed is None:
        return Refusal("appeal_values_missing", clause)
    a, c = hundredths_of(filing.awarded), hundredths_of(filing.claimed)
    if a is None:
        return Refusal("appeal_value_format", clause, {"value": str(filing.awarded)})
    if c is None:
        return Refusal("appeal_value_format", clause, {"value": str(filing.claimed)})
    return a, c


def check_filing(filing: Filing, game: Game, profile: RuleProfile, schedule: Schedule,
                 times: GameTimes, earlier: Sequence[Case], now: datetime) -> list[Refusal]:
    """Every reason the filing is refused now (empty: it may be filed).

    `earlier`: the cases of this tournament filed so far (any player, any game): the
    limits count the player's own, finality looks at the game's protests.
    """
    p = profile
    refusals: list[Refusal] = []
    if filing.player not in {s.player for s in game.seats}:
        refusals.append(Refusal("not_in_game", None, {"player": filing.player, "game": game.id}))
    if filing.kind is Kind.PROTEST:
        if filing.subject is not Subject.RESULT:
            refusals.append(Refusal("protest_subject", p.protest_deciders.clause))
        if p.protest_decision_final.value:
            for c in earlier:
                if (c.filing.kind is Kind.PROTEST and c.filing.game == game.id
                        and c.status is Status.DECIDED):
                    refusals.append(Refusal("protest_already_decided",
                                            p.protest_decision_final.clause, {"decided": c.id}))
                    break
    else:
        if not p.score_appeals.value:
            return refusals + [Refusal("no_score_appeals", p.score_appeals.clause)]
        if filing.subject is Subject.RESULT:
            refusals.append(Refusal("appeal_subject", p.score_appeals.clause))
        values = _values(filing, p)
        if isinstance(values, Refusal):
            refusals.append(values)
        else:
            awarded, claimed = values
            diff = abs(claimed - awarded)
            if diff == 0:
                refusals.append(Refusal("appeal_no_difference", p.appeal_ignored_difference.clause))
            elif diff <= p.appeal_ignored_difference.value:
                refusals.append(Refusal("appeal_difference", p.appeal_ignored_difference.clause,
                                        {"value": Points(diff)}))
        limits = {Subject.POSITIVE_EXTRA: p.appeal_max_positive_extra,
                  Subject.PENALTY: p.appeal_max_penalty}
        ruled = limits.get(filing.subject)
        if ruled is not None and ruled.value is not None:
            count = _counted(filing.subject, filing.player, earlier)
            if count >= ruled.value:
                refusals.append(Refusal("appeal_limit", ruled.clause,
                                        {"what": filing.subject.value, "max": ruled.value,
                                         "count": count}))
    for c in earlier:
        f = c.filing
        if (c.status is Status.OPEN and f.kind is filing.kind and f.game == filing.game
                and f.player == filing.player and f.subject is filing.subject):
            refusals.append(Refusal("case_open_twice", None, {"case": c.id}))
            break
    found, missing = deadlines(filing.kind, game, p, schedule, times)
    refusals.extend(missing)
    for d in found:
        if d.passed(now):
            refusals.append(Refusal(d.code, d.clause, {**d.params, "deadline": d.at}))
    return refusals


def file_case(filing: Filing, game: Game, profile: RuleProfile, schedule: Schedule,
              times: GameTimes, earlier: Sequence[Case], now: datetime, case_id: str) -> Case:
    """A new open case; raises `Refused` with every reason when filing is not allowed."""
    refusals = check_filing(filing, game, profile, schedule, times, earlier, now)
    if refusals:
        raise Refused(refusals)
    clause = (profile.protest_deciders.clause if filing.kind is Kind.PROTEST
              else profile.score_appeals.clause)
    return Case(id=case_id, filing=filing, filed_at=now, clause=clause.split(" (")[0])


# --- the thread ------------------------------------------------------------------------

_THREAD_ROLES = frozenset({Role.PLAYER, Role.JUDGE, Role.HEAD_JUDGE, Role.APPEALS_COMMISSION})


def add_message(case: Case, message: Message) -> Case:
    """The case with one more message; a closed case takes none, and only the player who
    filed writes as the player."""
    if case.status is not Status.OPEN:
        raise Refused([Refusal("case_closed", None, {"case": case.id})])
    if message.role not in _THREAD_ROLES:
        raise Refused([Refusal("thread_role")])
    if message.role is Role.PLAYER and message.author != case.filing.player:
        raise Refused([Refusal("thread_author", None, {"player": case.filing.player})])
    return msgspec.structs.replace(case, messages=[*case.messages, message])


def withdraw(case: Case, now: datetime) -> Case:
    """The player takes his case back (it still counts in the limits of FSM 8.9.6)."""
    if case.status is not Status.OPEN:
        raise Refused([Refusal("case_closed", None, {"case": case.id})])
    note = Message(author=case.filing.player, role=Role.PLAYER, at=now, text="withdrawn")
    return msgspec.structs.replace(case, status=Status.WITHDRAWN,
                                   messages=[*case.messages, note])


# --- decisions -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Effect:
    """What a decision does to the game: the new protocol revision for the storage layer
    (`game`; None when a replay annuls the game), what changed (for the audit trail), and
    warnings (shown, not refusing)."""

    game: Game | None
    changes: list[ChangeLine]
    replay: bool = False
    warnings: list[Refusal] = dc_field(default_factory=list)


def check_decision(case: Case, decision: Decision, profile: RuleProfile,
                   schedule: Schedule) -> list[Refusal]:
    """Every reason the decision is refused (warnings included, marked)."""
    p = profile
    out: list[Refusal] = []
    if case.status is not Status.OPEN:
        out.append(Refusal("case_closed", None, {"case": case.id}))
    if case.filing.kind is Kind.PROTEST:
        deciders = p.protest_deciders.value
        if decision.role.value not in deciders:
            out.append(Refusal("decider", p.protest_deciders.clause, {"who": sorted(deciders)}))
    elif decision.role not in (Role.JUDGE, Role.HEAD_JUDGE, Role.APPEALS_COMMISSION):
        out.append(Refusal("decider", p.score_appeals.clause,
                           {"who": [Role.JUDGE.value, Role.HEAD_JUDGE.value]}))
    change = decision.change
    if decision.outcome is Outcome.REPLAY:
        if not p.replay_allowed.value:
            out.append(Refusal("replay_not_in_rules", p.replay_allowed.clause))
        elif decision.role is not Role.HEAD_JUDGE:
            out.append(Refusal("decider", p.replay_allowed.clause,
                               {"who": [Role.HEAD_JUDGE.value]}))
    elif decision.outcome is Outcome.ACCEPTED:
        if change is None or change.is_empty():
            out.append(Refusal("accepted_without_change"))
    elif change is not None:
        out.append(Refusal("change_without_accept"))
    changes_result = decision.outcome is Outcome.REPLAY or (
        change is not None and change.result is not None)
    if (decision.non_game_advantage and changes_result
            and p.result_change_needs_committee.value and not decision.committee_agreed):
        out.append(Refusal("needs_committee", p.result_change_needs_committee.clause))
    if change is not None:
        if change.result is not None and change.result not in RESULTS:
            out.append(Refusal("bad_result", None, {"value": change.result}))
        for seat in [*change.scores, *change.seats,
                     *([change.first_killed] if change.first_killed else [])]:
            if not 1 <= seat <= 10:
                out.append(Refusal("change_seat", None, {"value": seat}))
        for seat, sc in change.seats.items():
            if not isinstance(sc.fouls, msgspec.UnsetType) and not 0 <= sc.fouls <= 4:
                out.append(Refusal("fouls_range", None, {"seat": seat, "value": sc.fouls}))
    last = schedule.last_round_start()
    if (case.filing.kind is Kind.APPEAL and p.appeal_closed_before_last_round.value
            and last is not None and decision.at >= last):
        out.append(Refusal("decided_after_last_round", p.appeal_closed_before_last_round.clause,
                           {"deadline": last}, warning=True))
    return out


#: the words of what a decision changed: code -> (Russian, English); values in braces are
#: put in words by `ChangeLine.message` (points with a decimal comma and a real minus)
CHANGE_WORDS: dict[str, tuple[str, str]] = {
    "result": ("результат: {before} → {after}", "result: {before} → {after}"),
    "first_killed": ("ПУ: {before} → {after}", "first killed: {before} → {after}"),
    "best_move": ("ЛХ: {before} → {after}", "best move: {before} → {after}"),
    "value": ("место {seat}: {what} {before} → {after}", "seat {seat}: {what} {before} → {after}"),
    "flag": ("место {seat}: {what} — {after}", "seat {seat}: {what}: {after}"),
    "fouls": ("место {seat}: фолы {before} → {after}", "seat {seat}: fouls {before} → {after}"),
    "penalty_removed": ("место {seat}: штраф {points}{kind} снят",
                        "seat {seat}: penalty {points}{kind} removed"),
    "penalty_changed": ("место {seat}: штраф{kind} {before} → {after}",
                        "seat {seat}: penalty{kind} {before} → {after}"),
    "penalty_added": ("место {seat}: штраф {points}{kind} назначен",
                      "seat {seat}: penalty {points}{kind} given"),
    "pu_protocol": ("место {seat}: протокол ПУ {before} → {after}",
                    "seat {seat}: first killed's protocol {before} → {after}"),
    "replay": ("игра {game}: назначена переигровка", "game {game}: a replay ordered"),
}
#: the parts of a seat's scores and the values a line names
CHANGE_PARTS: dict[str, tuple[str, str]] = {
    "extra": ("доп. балл", "extra"),
    "pu_extra": ("доп. балл ПУ", "first killed's extra"),
    "will": ("оценка завещания", "will"),
    "protocol": ("оценка протокола", "protocol evaluation"),
    "same_as_will": ("протокол как завещание", "protocol same as the will"),
    "approved": ("одобрено ГС", "approved by the head judge"),
    "yes": ("да", "yes"),
    "no": ("нет", "no"),
    "none": ("—", "—"),
    "seat": ("место {seat}", "seat {seat}"),
    "red": ("победа красных", "red win"),
    "black": ("победа чёрных", "black win"),
    "draw": ("ничья", "draw"),
}
_POINT_PARTS = ("extra", "pu_extra", "will", "protocol")
_FLAG_PARTS = ("same_as_will", "approved")


def _part(key: str, lang: str, **params: Any) -> str:
    ru, en = CHANGE_PARTS[key]
    return (ru if lang == "ru" else en).format(**params)


@dataclass(frozen=True, slots=True)
class ChangeLine:
    """One thing a decision changed, as data (code and values: points as written), so
    that each reader gets it in words of his language («место 10: штраф −0,4 снят»)."""

    code: str
    params: dict[str, Any] = dc_field(default_factory=dict)

    def message(self, lang: str = "en") -> str:
        if self.code not in CHANGE_WORDS:  # a line stored as text by an older decision
            return str(self.params.get("text", self.code))
        ru, en = CHANGE_WORDS[self.code]
        params: dict[str, Any] = {}
        for key, value in self.params.items():
            if key in ("before", "after", "points"):
                value = self._value(value, lang)
            elif key == "what":
                value = _part(value, lang)
            elif key == "kind":
                value = "" if value == "game_action" else (
                    f" ({PENALTY[value][0 if lang == 'ru' else 1]})" if value in PENALTY
                    else f" ({value})")
            params[key] = value
        return (ru if lang == "ru" else en).format(**params)

    def _value(self, value: Any, lang: str) -> str:
        if value is None:
            return _part("none", lang)
        if self.code == "result":
            return _part(str(value), lang) if value in RESULTS else str(value)
        if self.code == "first_killed":
            return _part("seat", lang, seat=value)
        if self.code == "best_move":
            return ", ".join(str(v) for v in value) or _part("none", lang)
        if self.code == "flag":
            return _part("yes" if value else "no", lang)
        if self.code == "fouls":
            return str(value)
        if self.code == "pu_protocol":
            return entries_text(value, lang) or _part("none", lang)
        h = hundredths_of(Decimal(str(value)))
        # a real minus in both languages (glossary.md: −0,4 / −0.4)
        return format_points(Points(h), lang).replace("-", "−") if h is not None else str(value)

    def as_dict(self) -> dict[str, Any]:
        """As stored (JSON): code and values, points as strings (exact)."""
        return {"code": self.code, "params": {k: coded(v) for k, v in self.params.items()}}

    @classmethod
    def stored(cls, value: Any) -> ChangeLine:
        """A stored line back (an older decision stored its lines as English text)."""
        if isinstance(value, dict) and isinstance(value.get("code"), str):
            return cls(value["code"], dict(value.get("params") or {}))
        return cls("text", {"text": str(value)})


def _entries(pp: PuProtocol | None) -> list[list[Any]] | None:
    return None if pp is None else [[e.seat, e.colour] for e in pp.entries]


def entries_text(entries: Sequence[Sequence[Any]], lang: str) -> str:
    """A first killed's protocol's entries as the protocol sheet writes them: «3ч 5ч 7к»
    (en «3b 5b 7r»)."""
    letters = {"black": ("ч", "b"), "red": ("к", "r")}
    return " ".join(f"{seat}{letters.get(colour, (colour, colour))[0 if lang == 'ru' else 1]}"
                    for seat, colour in entries)


def _written(value: Decimal | None) -> str | None:
    return None if value is None else str(value)


def penalty_points(pen: Penalty, profile: RuleProfile) -> str | None:
    """A penalty's size as written, else as its rule sets it (FIIM 8.2.4: −0.5)."""
    if pen.points is not None:
        return str(pen.points)
    size, _clause = penalty_size(pen, profile)
    return None if size is None else str(Decimal(size) / 100)


def _penalty_lines(seat: int, before: list[Penalty], after: list[Penalty],
                   profile: RuleProfile) -> list[ChangeLine]:
    gone = list(before)
    added: list[Penalty] = []
    for pen in after:
        if pen in gone:
            gone.remove(pen)
        else:
            added.append(pen)
    lines: list[ChangeLine] = []
    for pen in gone:
        twin = next((a for a in added if a.kind == pen.kind), None)
        if twin is not None:
            added.remove(twin)
            if (penalty_points(pen, profile) == penalty_points(twin, profile)
                    and msgspec.structs.replace(pen, points=None)
                    == msgspec.structs.replace(twin, points=None)):
                continue  # the size written out as the rule sets it: the same penalty
            lines.append(ChangeLine("penalty_changed", {
                "seat": seat, "kind": pen.kind, "before": penalty_points(pen, profile),
                "after": penalty_points(twin, profile)}))
        else:
            lines.append(ChangeLine("penalty_removed", {
                "seat": seat, "kind": pen.kind, "points": penalty_points(pen, profile)}))
    for pen in added:
        lines.append(ChangeLine("penalty_added", {
            "seat": seat, "kind": pen.kind, "points": penalty_points(pen, profile)}))
    return lines


def _seat_lines(seat: int, before: SeatScores, after: SeatScores,
                profile: RuleProfile) -> list[ChangeLine]:
    lines: list[ChangeLine] = []
    for name in _POINT_PARTS:
        old, new = getattr(before, name), getattr(after, name)
        if old != new:
            lines.append(ChangeLine("value", {"seat": seat, "what": name,
                                              "before": _written(old), "after": _written(new)}))
    for name in _FLAG_PARTS:
        if getattr(before, name) != getattr(after, name):
            lines.append(ChangeLine("flag", {"seat": seat, "what": name,
                                             "after": getattr(after, name)}))
    if before.pu_protocol != after.pu_protocol:
        lines.append(ChangeLine("pu_protocol", {"seat": seat,
                                                "before": _entries(before.pu_protocol),
                                                "after": _entries(after.pu_protocol)}))
    lines.extend(_penalty_lines(seat, before.penalties, after.penalties, profile))
    return lines


def _edit_seat(seat: int, scores: SeatScores, edit: SeatChange) -> SeatScores:
    """The seat's scores with the decision's edits; a penalty edit that names no penalty
    of the seat is refused."""
    updates: dict[str, Any] = {}
    for name in (*_POINT_PARTS, "pu_protocol"):
        value = getattr(edit, name)
        if not isinstance(value, msgspec.UnsetType):
            updates[name] = value
    penalties: list[Penalty | None] = list(scores.penalties)
    for pe in edit.penalties:
        here = penalties[pe.index] if 0 <= pe.index < len(penalties) else None
        if here is None or here.kind != pe.kind:
            raise Refused([Refusal("penalty_not_found", None,
                                   {"seat": seat, "number": pe.index + 1,
                                    "kind": PENALTY.get(pe.kind, (pe.kind, pe.kind))[0]})])
        if pe.remove:
            penalties[pe.index] = None
        elif pe.points is not None:
            penalties[pe.index] = msgspec.structs.replace(here, points=pe.points)
    kept = [pen for pen in penalties if pen is not None]
    updates["penalties"] = [*kept, *edit.add_penalties]
    if not isinstance(edit.pu_entries, msgspec.UnsetType):
        old = updates.get("pu_protocol", scores.pu_protocol) or PuProtocol()
        tags = {(e.seat, e.colour): e.tag for e in old.entries}
        entries = [ProtocolEntry(seat=s, colour=c, tag=tags.get((s, c)))
                   for s, c in edit.pu_entries]
        updates["pu_protocol"] = (msgspec.structs.replace(old, entries=entries)
                                  if entries or old.version is not None else None)
    return msgspec.structs.replace(scores, **updates)


def apply_change(game: Game, change: Change, profile: RuleProfile
                 ) -> tuple[Game, list[ChangeLine]]:
    """The game with the change applied, and a line for each thing that changed (nothing
    that already was so makes a line)."""
    lines: list[ChangeLine] = []
    updates: dict[str, Any] = {}
    if change.result is not None and change.result != game.result:
        lines.append(ChangeLine("result", {"before": game.result or None,
                                           "after": change.result}))
        updates["result"] = change.result
    if change.first_killed is not None and change.first_killed != game.first_killed:
        lines.append(ChangeLine("first_killed", {"before": game.first_killed,
                                                 "after": change.first_killed}))
        updates["first_killed"] = change.first_killed
    if change.best_move is not None and change.best_move != game.best_move:
        lines.append(ChangeLine("best_move", {"before": list(game.best_move),
                                              "after": list(change.best_move)}))
        updates["best_move"] = list(change.best_move)
    empty = SeatScores()
    scores = dict(game.scores)
    fouls = dict(game.fouls)
    scores.update(change.scores)
    for seat, edit in sorted(change.seats.items()):
        scores[seat] = _edit_seat(seat, scores.get(seat, empty), edit)
        if not isinstance(edit.fouls, msgspec.UnsetType):
            fouls[seat] = edit.fouls
    for seat in sorted(set(game.scores) | set(scores)):
        lines.extend(_seat_lines(seat, game.scores.get(seat, empty),
                                 scores.get(seat, empty), profile))
    for seat in sorted(set(game.fouls) | set(fouls)):
        old, new = game.fouls.get(seat, 0), fouls.get(seat, 0)
        if old != new:
            lines.append(ChangeLine("fouls", {"seat": seat, "before": old, "after": new}))
    if scores != game.scores:
        updates["scores"] = {seat: sc for seat, sc in scores.items()
                             if sc != empty or seat in game.scores}
    if fouls != game.fouls:
        updates["fouls"] = {seat: n for seat, n in fouls.items() if n}
    return msgspec.structs.replace(game, **updates), lines


def decide(case: Case, decision: Decision, game: Game, profile: RuleProfile,
           schedule: Schedule) -> tuple[Case, Effect]:
    """Close the case with the decision; raises `Refused` when it is not allowed.

    The new game is a new protocol revision: the storage layer keeps the old one readable
    and validates the new one as any protocol (a decision cannot make a protocol that the
    rules refuse). A replay annuls the game (`Effect.game` None): the replayed game is
    entered as a new protocol.
    """
    found = check_decision(case, decision, profile, schedule)
    errors = [r for r in found if not r.warning]
    if errors:
        raise Refused(found)
    warnings = [r for r in found if r.warning]
    closed = msgspec.structs.replace(case, status=Status.DECIDED, decision=decision)
    if decision.outcome is Outcome.REPLAY:
        return closed, Effect(None, [ChangeLine("replay", {"game": game.id})], True, warnings)
    if decision.outcome is Outcome.REJECTED or decision.change is None:
        return closed, Effect(game, [], False, warnings)
    new_game, changes = apply_change(game, decision.change, profile)
    if not changes:
        # "accepted" with a protocol that stays as it was would read as done and do nothing
        raise Refused([Refusal("accepted_changes_nothing")])
    return closed, Effect(new_game, changes, False, warnings)


__all__ = [
    "CHANGE_PARTS",
    "CHANGE_WORDS",
    "Case",
    "Change",
    "ChangeLine",
    "Deadline",
    "Decision",
    "Effect",
    "Filing",
    "GameTimes",
    "Kind",
    "Message",
    "Outcome",
    "PenaltyEdit",
    "penalty_points",
    "Refusal",
    "Refused",
    "Role",
    "RoundTime",
    "Schedule",
    "SeatChange",
    "Status",
    "Subject",
    "add_message",
    "apply_change",
    "check_decision",
    "check_filing",
    "decide",
    "decide_by",
    "deadlines",
    "entries_text",
    "file_case",
    "filing_deadline",
    "is_open",
    "withdraw",
]
