"""The replay engine: a game log's events, one by one, through the rules of the game.

A pure state machine. `GameReplay.apply` takes the next event and either moves the game on
or returns the problems that make the event illegal (and then changes nothing), so the live
screen can refuse a wrong tap and a file's log is refused with the rule it breaks.
`next_step` says what comes next ("day 2, seat 4 speaks", "vote cancelled: FIIM 7.1").

What differs between the federations comes from the rule profile; the rules common to
both are the summary of shared/spec/game-flow.md, cited as "<federation>, course of the
game: ...". Readings of unclear texts are profile settings (rules/profile.py).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from mafiatab.domain.gamelog_events import (
    AnyEvent,
    BestMove,
    Deal,
    Defence,
    Disqualify,
    DonCheck,
    Foul,
    LastWords,
    Lift,
    SheriffCheck,
    Shot,
    Speech,
    TeamLoss,
    Vote,
    field_of,
)
from mafiatab.domain.gamelog_state import (
    Applied,
    Departure,
    DerivedPenalty,
    FoulRecord,
    NextStep,
    Phase,
    Step,
)
from mafiatab.domain.problems import Problem
from mafiatab.domain.protocol import BLACK_ROLES, SHERIFF
from mafiatab.rules.profile import RuleProfile

SEATS = range(1, 11)
#: the state's mutable containers (see `GameReplay.clone`)
_CONTAINERS = ("at_table", "fouls", "foul_log", "lost_speech", "departures", "penalties",
               "applied", "removed_from_tournament", "queue", "spoken", "nominations",
               "cancelled", "candidates", "defence_queue", "last_words_due", "best_move")
_DAY_STEPS = (Step.SPEECHES, Step.VOTE, Step.DEFENCE, Step.LIFT)
_VOTING_STEPS = (Step.VOTE, Step.DEFENCE, Step.LIFT)


class IllegalEvent(Exception):
    """Raised inside the engine to refuse an event; `apply` turns it into a Problem."""

    def __init__(self, code: str, clause: str, seat: int | None = None,
                 **params: object) -> None:
        super().__init__(code)
        self.code = code
        self.clause = clause
        self.seat = seat
        self.params = params


class GameReplay:
    """The state of one game as its log has told it so far."""

    def __init__(self, roles: dict[int, str], profile: RuleProfile,
                 game: str | None = None) -> None:
        self.roles = dict(roles)
        self.p = profile
        self.game = game
        self.count = 0  # events applied
        self.at_table: set[int] = set(SEATS)
        self.fouls: dict[int, int] = {}
        self.foul_log: list[FoulRecord] = []
        self.lost_speech: set[int] = set()
        self.phase = Phase("night", 0)
        self.step = Step.AGREEMENT
        self.result: str | None = None
        self.end_reason: Applied | None = None
        self.ended_by_vote_or_shot = False
        self.departures: list[Departure] = []
        self.penalties: list[DerivedPenalty] = []
        self.applied: list[Applied] = []
        self.removed_from_tournament: list[int] = []
        # --- the day ---
        self.opener: int | None = None
        self.queue: list[int] = []
        self.spoken: list[int] = []
        self.nominations: list[int] = []
        self.cancelled: dict[int, str] = {}  # day -> clause
        self.decided = False  # the day's result is known (FIIM 7.2)
        self.single_by_last = False  # the only nomination came on the last speech
        self.candidates: list[int] = []
        self.last_tie: frozenset[int] | None = None
        self.defence_queue: list[int] = []
        self.last_words_due: list[int] = []
        #: whose last words the judge is hearing now: his `last_words` event was the last
        #: event but fouls and removals (docs/gamelog.md: a foul during one's own last words)
        self.speaking_last: int | None = None
        # --- the night ---
        self.don_checked = False
        self.sheriff_checked = False
        self.killed_tonight: int | None = None
        # --- facts ---
        self.first_killed: int | None = None
        self.best_move: list[int] = []
        self.best_move_open = False
        self.day1_vote_left = 0
        self.quiet = 0  # nights and days in a row, from a night, with nobody leaving
        self.phase_quiet = True
        self.misses_76: int | None = None

    # ------------------------------------------------------------------ helpers ---
    def clone(self) -> GameReplay:
        """A copy to try an event on. Only the containers are copied: everything in them
        is immutable (seats, frozen records), and the profile and the roles are shared."""
        fields = dict(self.__dict__)
        for name in _CONTAINERS:
            fields[name] = fields[name].copy()
        new = object.__new__(type(self))
        new.__dict__.update(fields)
        return new

    def at(self, step: Step) -> bool:
        """Whether the game stands at `step` (a method: the step changes under calls)."""
        return self.step is step

    def _basic(self, what: str) -> str:
        return f"{self.p.federation}, course of the game: {what}"

    def blacks_at_table(self) -> int:
        return sum(1 for s in self.at_table if self.roles.get(s) in BLACK_ROLES)

    def reds_at_table(self) -> int:
        return len(self.at_table) - self.blacks_at_table()

    def _note(self, code: str, clause: str, index: int, seat: int | None = None,
              seats: Iterable[int] = ()) -> Applied:
        note = Applied(code, clause, self.phase, index, seat, tuple(seats))
        self.applied.append(note)
        return note

    def _seat(self, value: int, what: str = "seat") -> int:
        if value not in SEATS:
            raise IllegalEvent("log_seat", "scoring.md 1", None, value=value, what=what)
        return value

    # ------------------------------------------------------------------- apply ---
    def apply(self, event: AnyEvent, index: int | None = None) -> list[Problem]:
        """Apply one event; on a problem the state is left as it was."""
        i = self.count if index is None else index
        backup = self.clone()
        try:
            self._dispatch(event, i)
        except IllegalEvent as exc:
            self.__dict__.update(backup.__dict__)
            return [Problem(exc.code, self.game, exc.seat, field_of(i), exc.clause,
                            dict(exc.params))]
        self.count += 1
        return []

    def _dispatch(self, ev: AnyEvent, i: int) -> None:
        if isinstance(ev, Foul | Disqualify | TeamLoss):
            self._discipline(ev, i)
            return
        self.speaking_last = None
        if self.step is Step.SPEECHES and self._day_would_end(i):
            self._close_day(i)
        if self.step is Step.ENDED:
            self._after_end(ev, i)
            return
        if isinstance(ev, Deal):
            self._deal(ev, i)
        elif isinstance(ev, Shot):
            self._shot(ev, i)
        elif isinstance(ev, DonCheck | SheriffCheck):
            self._check(ev, i)
        elif isinstance(ev, BestMove):
            self._best_move(ev, i)
        elif isinstance(ev, LastWords):
            self._last_words(ev, i)
        elif isinstance(ev, Speech):
            self._speech(ev, i)
        elif isinstance(ev, Defence):
            self._defence(ev, i)
        elif isinstance(ev, Vote):
            self._vote(ev, i)
        elif isinstance(ev, Lift):
            self._lift(ev, i)

    def _day_would_end(self, i: int) -> bool:
        """Whether the day's speeches are over and what follows them ends the game (its
        only nominee leaving, or a draw): then the next event comes after the end."""
        sizes = self.p.short_speech_table_sizes.value
        if any(s in self.at_table and (s not in self.lost_speech or len(self.at_table) in sizes)
               for s in self.queue):
            return False
        probe = self.clone()
        try:
            probe._close_day(i)
        except IllegalEvent:
            return False
        return probe.at(Step.ENDED)

    def _after_end(self, ev: AnyEvent, i: int) -> None:
        """FIIM 7.10: after the last vote or shot, the last words (and a best move)."""
        if isinstance(ev, LastWords) and ev.seat in self.last_words_due:
            self.last_words_due.remove(ev.seat)
            self.speaking_last = ev.seat
            return
        if isinstance(ev, BestMove) and self.best_move_open:
            self._best_move(ev, i)
            return
        raise IllegalEvent("log_after_end", self._basic("the end of the game"),
                           kind=type(ev).__struct_config__.tag)

    # -------------------------------------------------------------------- deal ---
    def _deal(self, ev: Deal, i: int) -> None:
        if i != 0 or self.count != 0:
            raise IllegalEvent("log_deal_not_first", self._basic("roles are dealt first"))
        if ev.roles is not None:
            dealt = {n + 1: r for n, r in enumerate(ev.roles)}
            if dealt != self.roles:
                raise IllegalEvent("log_deal_mismatch", "scoring.md 1")

    # ------------------------------------------------------------------- night ---
    def _shot(self, ev: Shot, i: int) -> None:
        if self.step is Step.AGREEMENT:
            raise IllegalEvent("log_shot_agreement", self._basic("night 0, the agreement"))
        if self.step is Step.CHECKS:
            raise IllegalEvent("log_second_shot", self._basic("one shot a night"),
                               night=self.phase.number)
        self._close_day(i)
        if self.at(Step.ENDED):
            raise IllegalEvent("log_after_end", self._basic("the end of the game"),
                               kind="shot")
        target = self._shot_target(ev)
        self.step = Step.CHECKS
        self.killed_tonight = target
        self.last_words_due = []
        if target is None:
            if self.misses_76 is not None:
                self.misses_76 += 1
                if self.misses_76 >= 3:
                    note = self._note("four_players_red_win", self.p.four_players_tie_no_vote.clause, i)
                    self._end("red", note, by_vote_or_shot=True)
            return
        if self.phase.number == self.p.first_killed_night.value:
            self.first_killed = target
            # FSM 8.3.6: no best move after two or more left by the first day's vote
            limit = self.p.no_best_move_day1_leavers.value
            self.best_move_open = limit is None or self.day1_vote_left < limit
        self._leave(target, "killed", i)
        self.last_words_due = [target]
        self._check_end(i, by_vote_or_shot=True)

    def _shot_target(self, ev: Shot) -> int | None:
        target = ev.target
        if target is not None:
            self._seat(target, "target")
            if target not in self.at_table:
                raise IllegalEvent("log_shot_not_at_table", self._basic("the shot"),
                                   target, value=target)
        if ev.shots is None and ev.unrecorded is None:
            return target
        pointed: dict[int, int | None] = {}
        shots = ev.shots or {}
        for key, at in shots.items():
            shooter = _seat_key(key)
            if shooter is None or self.roles.get(shooter) not in BLACK_ROLES or (
                shooter not in self.at_table
            ):
                raise IllegalEvent("log_shooter", self._basic("the shot"), shooter,
                                   value=key)
            if at is not None:
                self._seat(at, "target")
            pointed[shooter] = at
        blacks = {s for s in self.at_table if self.roles.get(s) in BLACK_ROLES}
        if ev.unrecorded is not None:
            return self._shot_partly_recorded(ev, pointed, blacks)
        aims = {pointed.get(s) for s in blacks}
        hit = aims.pop() if len(aims) == 1 else None
        if hit is not None and hit not in self.at_table:
            hit = None
        if ev.target is not None and hit != ev.target:
            raise IllegalEvent("log_shot_mismatch", self._basic("the shot"), value=ev.target)
        return hit if ev.target is None else target

    def _shot_partly_recorded(self, ev: Shot, pointed: dict[int, int | None],
                              blacks: set[int]) -> int | None:
        """Some aims unrecorded: the announced outcome stands if the recorded aims allow it."""
        for shooter in ev.unrecorded or []:
            if shooter not in blacks or shooter in pointed:
                raise IllegalEvent("log_shooter", self._basic("the shot"), shooter,
                                   value=str(shooter))
        if ev.target is not None and any(at != ev.target for at in pointed.values()):
            raise IllegalEvent("log_shot_mismatch", self._basic("the shot"), value=ev.target)
        return ev.target

    def _check(self, ev: DonCheck | SheriffCheck, i: int) -> None:
        is_don = isinstance(ev, DonCheck)
        role_word = "don" if is_don else SHERIFF
        clause = self._basic("the don's and the sheriff's checks")
        if self.step is Step.AGREEMENT:
            raise IllegalEvent("log_check_agreement", self._basic("night 0, the agreement"))
        if self.step is not Step.CHECKS:
            raise IllegalEvent("log_check_not_night", clause, kind=role_word)
        checker = self._awake(role_word)
        if checker is None:
            raise IllegalEvent("log_checker_gone", clause, checker, kind=role_word)
        done = self.don_checked if is_don else self.sheriff_checked
        if done:
            raise IllegalEvent("log_second_check", clause, checker, kind=role_word)
        target = self._seat(ev.target, "target")
        if target == checker:
            raise IllegalEvent("log_check_self", clause, checker)
        if isinstance(ev, DonCheck):
            truth = self.roles.get(target) == SHERIFF
            said = ev.sheriff
            self.don_checked = True
        else:
            truth = self.roles.get(target) in BLACK_ROLES
            said = ev.black
            self.sheriff_checked = True
        if said is not None and said != truth:
            raise IllegalEvent("log_check_answer", self._basic("the don's and the sheriff's checks"),
                               target, value=target)

    def _awake(self, role: str) -> int | None:
        """The don or the sheriff, if he may check tonight."""
        seat = next((s for s, r in self.roles.items() if r == role), None)
        if seat is not None and (seat in self.at_table or (
            seat == self.killed_tonight and self.p.killed_may_check_that_night.value
        )):
            return seat
        return None

    def _best_move(self, ev: BestMove, i: int) -> None:
        p = self.p
        clause = p.best_move_max_numbers.clause
        limit = p.no_best_move_day1_leavers.value
        if ev.seat == self.first_killed and limit is not None and self.day1_vote_left >= limit:
            raise IllegalEvent("bm_not_allowed", p.no_best_move_day1_leavers.clause, ev.seat,
                               count=self.day1_vote_left)
        if not self.best_move_open or ev.seat != self.first_killed:
            raise IllegalEvent("log_best_move_not_due", clause, ev.seat)
        if len(ev.seats) > p.best_move_max_numbers.value:
            raise IllegalEvent("bm_too_many", clause, ev.seat, max=p.best_move_max_numbers.value)
        seen: set[int] = set()
        for n in ev.seats:
            self._seat(n, "best_move")
            if n in seen:
                raise IllegalEvent("bm_repeat", clause, ev.seat, value=n)
            if n == ev.seat:
                raise IllegalEvent("bm_own_seat", clause, ev.seat, value=n)
            seen.add(n)
        self.best_move = list(ev.seats)
        self.best_move_open = False

    # --------------------------------------------------------------------- day ---
    def _start_day(self, i: int) -> None:
        """The night ends: count it for FIIM 7.8, and the next day's speeches begin."""
        if self.phase.kind == "night" and self.phase.number >= 1:
            self._count_quiet(i)
        number = self.phase.number + 1
        self.phase = Phase("day", number)
        start = 1 if self.opener is None else self.opener % 10 + 1
        order = [(start - 1 + k) % 10 + 1 for k in range(10)]
        seated = [s for s in order if s in self.at_table]
        self.opener = seated[0] if seated else start
        self.queue = seated
        self.spoken = []
        self.nominations = []
        self.decided = False
        self.single_by_last = False
        self.candidates = []
        self.last_tie = None
        self.defence_queue = []
        self.step = Step.SPEECHES
        self.phase_quiet = True

    def _settle_queue(self, i: int) -> None:
        """Skip who left the table, and who loses his speech with 3 fouls.

        The speech is lost once: skipping it settles the 3 fouls' loss, whichever event
        comes to the skipped turn (the speech before it, or the next day's vote).
        """
        while self.queue:
            seat = self.queue[0]
            if seat not in self.at_table:
                self.queue.pop(0)
            elif seat in self.lost_speech and (
                len(self.at_table) not in self.p.short_speech_table_sizes.value
            ):
                self.queue.pop(0)
                self.lost_speech.discard(seat)
                self._note("lost_speech", self._basic("fouls"), i,
                           seat)
            else:
                return

    def _morning(self, i: int) -> None:
        """A day event arrives at night: the night is over."""
        if self.step is Step.AGREEMENT or (self.step is Step.CHECKS):
            self._start_day(i)
            if self.at(Step.ENDED):
                raise IllegalEvent("log_after_end", self._basic("the end of the game"),
                                   kind="day")
        elif self.step is Step.SHOT:
            raise IllegalEvent("log_shot_missing", self._basic("the shot"),
                               night=self.phase.number)

    def _last_words(self, ev: LastWords, i: int) -> None:
        if self.step in (Step.CHECKS, Step.AGREEMENT) and ev.seat in self.last_words_due:
            self._morning(i)
            self.last_words_due = [ev.seat]
        if self.step is Step.SPEECHES and ev.seat not in self.last_words_due:
            self._settle_queue(i)  # the last turns may be lost speeches (3 fouls)
            if not self.queue:
                self._close_day(i)
        if ev.seat not in self.last_words_due:
            raise IllegalEvent("log_last_words_not_due", self.p.last_words_after_end.clause,
                               ev.seat)
        self.last_words_due.remove(ev.seat)
        self.speaking_last = ev.seat

    def _speech(self, ev: Speech, i: int) -> None:
        self._morning(i)
        if self.step is not Step.SPEECHES:
            raise IllegalEvent("log_speech_not_now", self._basic("the day's speeches"),
                               ev.seat, step=self.step.value)
        seat = self._seat(ev.seat)
        if seat not in self.at_table:
            raise IllegalEvent("log_dead_speaks", self._basic("the day's speeches"), seat)
        self._settle_queue(i)
        if not self.queue:
            raise IllegalEvent("log_speeches_over", self._basic("the day's speeches"), seat)
        if self.queue[0] != seat:
            if seat in self.spoken:
                raise IllegalEvent("log_speaks_twice", self._basic("one speech a day"), seat)
            raise IllegalEvent("log_speech_out_of_turn", self._basic("order of speeches"),
                               seat, expected=self.queue[0])
        if ev.nominates is not None:
            self._nominate(seat, ev.nominates)
        self.queue.pop(0)
        self.spoken.append(seat)
        self.last_words_due = []
        if self.phase.number > self.p.first_killed_night.value:
            self.best_move_open = False
        if seat in self.lost_speech:
            self.lost_speech.discard(seat)
            self._note("short_speech", self.p.short_speech_table_sizes.clause, i, seat)
        self._settle_queue(i)
        if not self.queue and ev.nominates is not None and len(self.nominations) == 1 and (
            self.phase.number >= 2
        ):
            self.single_by_last = True
            self.decided = True

    def _nominate(self, seat: int, nominee: int) -> None:
        clause = self._basic("nominations")
        self._seat(nominee, "nominee")
        if nominee not in self.at_table:
            raise IllegalEvent("log_nominate_gone", clause, seat, value=nominee)
        if nominee in self.nominations:
            raise IllegalEvent("log_nominated_twice", clause, seat, value=nominee)
        self.nominations.append(nominee)

    def _close_day(self, i: int) -> None:
        """The speeches are over: what the day's vote is, before the event that follows."""
        if self.step is Step.SPEECHES:
            self._settle_queue(i)
            if self.queue:
                raise IllegalEvent("log_speeches_missing", self._basic("the day's speeches"),
                                   self.queue[0], expected=self.queue[0])
            self._resolve_speeches(i)
        if any(self.at(s) for s in _VOTING_STEPS):
            raise IllegalEvent("log_vote_missing", self._basic("the vote"))
        if self.at(Step.LAST_WORDS):
            self._start_night(i)

    def _resolve_speeches(self, i: int) -> None:
        day = self.phase.number
        p = self.p
        nominees = [n for n in self.nominations if n in self.at_table]
        if day in self.cancelled or not nominees:
            self._start_night(i)
        elif len(self.nominations) == 1:
            nominee = nominees[0]
            if day == 1 and p.day1_single_nominee_no_vote.value:
                self._note("day1_single_nominee", p.day1_single_nominee_no_vote.clause, i,
                           nominee)
                self._start_night(i)
            else:
                self._note("single_nominee_leaves", self._basic("one nominee"), i, nominee)
                self._vote_removes([nominee], "voted", i)
        else:
            self.candidates = list(self.nominations)
            self.step = Step.VOTE

    def _defence(self, ev: Defence, i: int) -> None:
        if self.step is not Step.DEFENCE:
            raise IllegalEvent("log_defence_not_now", self._basic("a tie"), ev.seat)
        if not self.defence_queue or self.defence_queue[0] != ev.seat:
            expected = self.defence_queue[0] if self.defence_queue else None
            raise IllegalEvent("log_defence_out_of_turn", self._basic("a tie"), ev.seat,
                               expected=expected)
        self.defence_queue.pop(0)
        if self.fouls.get(ev.seat, 0) == 3:
            self._note("revote_speech", self.p.three_fouls_speak_at_revote.clause, i, ev.seat)

    # -------------------------------------------------------------------- vote ---
    def _vote(self, ev: Vote, i: int) -> None:
        day = self.phase.number
        if self.step is Step.SPEECHES and self.phase.kind == "day":
            self._settle_queue(i)
            if self.queue:
                raise IllegalEvent("log_speeches_missing", self._basic("the day's speeches"),
                                   self.queue[0], expected=self.queue[0])
            if day in self.cancelled:
                raise IllegalEvent("log_vote_cancelled", self.cancelled[day])
            self._resolve_speeches(i)
            if not self.at(Step.VOTE):
                raise IllegalEvent("log_no_vote_due", self._basic("the vote"),
                                   count=len(self.nominations))
        elif day in self.cancelled and (
            self.phase.kind == "day" or self.step is Step.SHOT
        ):
            raise IllegalEvent("log_vote_cancelled", self.cancelled[day])
        if self.step not in (Step.VOTE, Step.DEFENCE):
            raise IllegalEvent("log_no_vote_due", self._basic("the vote"),
                               count=len(self.nominations))
        if ev.leaves is not None:
            self._vote_outcome(ev, ev.leaves, i)
            return
        tallies = self._tally(ev)
        top = max(tallies.values())
        leaders = [c for c in self.candidates if tallies[c] == top]
        if len(leaders) == 1:
            self._vote_removes(leaders, "voted", i)
            return
        tie = frozenset(leaders)
        p = self.p
        if self.last_tie is None or (p.revote_when_tie_changes.value and tie != self.last_tie):
            self.last_tie = tie
            self.candidates = leaders
            self.defence_queue = [c for c in leaders if self.fouls.get(c, 0) != 3
                                  or p.three_fouls_speak_at_revote.value]
            self.step = Step.DEFENCE
            return
        if p.four_players_tie_no_vote.value and len(self.at_table) == 4 and len(leaders) == 2:
            self._note("four_players_tie", p.four_players_tie_no_vote.clause, i, seats=leaders)
            self.misses_76 = 0
            self._start_night(i)
            return
        if p.no_lift_of_whole_table.value and tie == frozenset(self.at_table):
            self._note("no_whole_table_lift", p.no_lift_of_whole_table.clause, i,
                       seats=leaders)
            self._start_night(i)
            return
        self.candidates = leaders
        self.step = Step.LIFT

    def _vote_outcome(self, ev: Vote, leaves: list[int], i: int) -> None:
        """The day's voting known only by who left (its rounds and votes unrecorded)."""
        clause = self._basic("the vote")
        if ev.votes is not None or ev.counts is not None:
            raise IllegalEvent("log_vote_form", clause)
        for seat in leaves:
            self._candidate(str(seat))
        if len(set(leaves)) != len(leaves):
            raise IllegalEvent("log_votes_twice", clause)
        if not leaves:
            self._start_night(i)
        else:
            self._vote_removes(list(leaves), "voted" if len(leaves) == 1 else "lifted", i)

    def _tally(self, ev: Vote) -> dict[int, int]:
        clause = self._basic("the vote")
        if (ev.votes is None) == (ev.counts is None):
            raise IllegalEvent("log_vote_form", clause)
        tallies = dict.fromkeys(self.candidates, 0)
        voters = len(self.at_table)
        if ev.votes is not None:
            seen: set[int] = set()
            for key, who in ev.votes.items():
                cand = self._candidate(key)
                for voter in who:
                    self._seat(voter, "voter")
                    if voter not in self.at_table:
                        raise IllegalEvent("log_dead_votes", clause, voter)
                    if voter in seen:
                        raise IllegalEvent("log_votes_twice", clause, voter)
                    seen.add(voter)
                tallies[cand] += len(who)
            given = len(seen)
        else:
            assert ev.counts is not None
            for key, n in ev.counts.items():
                cand = self._candidate(key)
                if n < 0:
                    raise IllegalEvent("log_vote_count", clause, value=n)
                tallies[cand] += n
            given = sum(tallies.values())
        if given > voters:
            raise IllegalEvent("log_too_many_votes", clause, count=given, max=voters)
        tallies[self.candidates[-1]] += voters - given
        return tallies

    def _candidate(self, key: str) -> int:
        cand = _seat_key(key)
        if cand is None or cand not in self.candidates:
            raise IllegalEvent("log_not_candidate", self._basic("the vote"), value=key)
        return cand

    def _lift(self, ev: Lift, i: int) -> None:
        clause = self._basic("the vote on lifting")
        if self.step is not Step.LIFT:
            last = self.applied[-1] if self.applied else None
            if last is not None and last.code == "no_whole_table_lift" and last.index == i - 1:
                # the whole table tied again: the rule that forbids this vote is 7.9
                raise IllegalEvent("log_no_whole_table_lift", last.clause)
            raise IllegalEvent("log_no_lift_due", clause)
        if sum(form is not None for form in (ev.voters, ev.count, ev.passed)) != 1:
            raise IllegalEvent("log_vote_form", clause)
        if ev.passed is not None:
            count = len(self.at_table) if ev.passed else 0
        elif ev.voters is not None:
            for voter in ev.voters:
                self._seat(voter, "voter")
                if voter not in self.at_table:
                    raise IllegalEvent("log_dead_votes", clause, voter)
            if len(set(ev.voters)) != len(ev.voters):
                raise IllegalEvent("log_votes_twice", clause)
            count = len(ev.voters)
        else:
            assert ev.count is not None
            count = ev.count
            if count < 0:
                raise IllegalEvent("log_vote_count", clause, value=count)
        if count > len(self.at_table):
            raise IllegalEvent("log_too_many_votes", clause, count=count,
                               max=len(self.at_table))
        if 2 * count > len(self.at_table):
            self._vote_removes(list(self.candidates), "lifted", i)
        else:
            self._start_night(i)

    def _vote_removes(self, seats: list[int], how: str, i: int) -> None:
        """The day's vote removes these players: last words, then night (FIIM 7.10)."""
        self.decided = True
        for seat in seats:
            self._leave(seat, how, i)
        if self.phase.number == 1:
            self.day1_vote_left += len(seats)
        self.last_words_due = list(seats)
        self.step = Step.LAST_WORDS
        self._check_end(i, by_vote_or_shot=True)

    def _start_night(self, i: int) -> None:
        """The day is over: count it for FIIM 7.8 (a draw ends the game), then night."""
        self._count_quiet(i)
        if self.step is Step.ENDED:
            return
        self.phase = Phase("night", self.phase.number)
        self.step = Step.SHOT
        self.don_checked = self.sheriff_checked = False
        self.killed_tonight = None
        self.phase_quiet = True

    def _count_quiet(self, i: int) -> None:
        if not self.phase_quiet:
            self.quiet = 0
        elif self.phase.kind == "night" or self.quiet > 0:
            self.quiet += 1
        limit = self.p.draw_quiet_cycles.value * 2
        # Reading: once FIIM 7.6 stopped the vote, its three misses replace the draw
        if self.quiet >= limit and self.phase.kind == "day" and self.misses_76 is None:
            note = self._note("draw", self.p.draw_quiet_cycles.clause, i)
            self._end("draw", note, by_vote_or_shot=False)

    # ------------------------------------------------------------- discipline ---
    def _discipline(self, ev: Foul | Disqualify | TeamLoss, i: int) -> None:
        seat = self._seat(ev.seat)
        present = seat in self.at_table
        speaking_last = seat in self.last_words_due or seat == self.speaking_last
        if not present and not speaking_last:
            raise IllegalEvent("log_discipline_gone", self._basic("fouls"), seat)
        ended = self.step is Step.ENDED
        if ended and not self.ended_by_vote_or_shot:
            raise IllegalEvent("log_after_end", self._basic("the end of the game"),
                               kind=type(ev).__struct_config__.tag)
        if isinstance(ev, Foul):
            count = self.fouls.get(seat, 0) + 1
            self.fouls[seat] = count
            self.foul_log.append(FoulRecord(seat, count, self.phase, i, ev.time))
            if count == 3 and present:
                self.lost_speech.add(seat)
            if count >= 4:
                self._removal(seat, "fouls", None, None, i)
            return
        if isinstance(ev, TeamLoss):
            if ended and self.p.last_words_after_end.value:
                # Reading (FIIM 7.10 against 6.8): in the last words after the last vote or
                # shot the result stands; the violator is removed with the 8.2.4 penalty
                self._removal(seat, "disqualified", ev.rule, None, i)
                return
            self._team_loss(ev, i)
            return
        if ev.tournament:
            self.removed_from_tournament.append(seat)
        self._removal(seat, "disqualified", ev.rule, ev.critical, i)

    def _critical(self) -> bool | None:
        margin = self.p.critical_red_margin.value
        if margin is None:
            return None
        return self.reds_at_table() - self.blacks_at_table() <= margin

    def _removal(self, seat: int, how: str, rule: str | None, critical: bool | None,
                 i: int) -> None:
        """A 4th or disqualifying foul: the player leaves the table (FIIM 7.1, 7.2, 7.10)."""
        p = self.p
        if critical is None:
            critical = self._critical()
        penalised = how == "disqualified" or p.removal_by_fouls_penalised.value
        if penalised and not any(pen.seat == seat for pen in self.penalties):
            rule = rule or ("4 fouls" if how == "fouls" else None)
            self.penalties.append(DerivedPenalty(seat, "disqualification", critical, rule, i))
        if self.step is Step.ENDED:
            # during the last words after the last vote or shot: the result stands (7.10)
            self._note("result_by_last_vote", p.last_words_after_end.clause, i, seat)
            return
        if seat not in self.at_table:
            return  # already out (killed, or leaving by the vote): 7.1's exception
        self._note("removed", p.removal_cancels_vote.clause, i, seat)
        self._leave(seat, how, i)
        self._cancel_vote_for(seat, i)
        self._check_end(i, by_vote_or_shot=False)

    def _cancel_vote_for(self, seat: int, i: int) -> None:
        p = self.p
        if not p.removal_cancels_vote.value:
            if seat in self.candidates:
                self.candidates.remove(seat)
            if seat in self.nominations:
                self.nominations.remove(seat)
            return
        day = self.phase.number
        in_day = self.phase.kind == "day" and self.step in (*_DAY_STEPS, Step.LAST_WORDS)
        if in_day and not self.decided and not self._vote_still_due():
            # Reading of 7.1: no vote is left today (cancelled already, or the speeches
            # are over with nobody to vote on): the nearest vote is the next day's
            if day + 1 not in self.cancelled:
                self.cancelled[day + 1] = p.removal_cancels_vote.clause
                self._note("next_vote_cancelled", p.removal_cancels_vote.clause, i, seat)
            return
        if in_day and not self.decided:
            self.cancelled.setdefault(day, p.removal_cancels_vote.clause)
            self._note("vote_cancelled", p.removal_cancels_vote.clause, i, seat)
            if self.step in _VOTING_STEPS:
                self._start_night(i)
            return
        if in_day:
            if self.single_by_last and self.nominations and seat == self.nominations[0]:
                return  # the only nominee himself: 7.2's exception
            if not p.removal_after_result_cancels_next_vote.value:
                return
            clause = p.removal_after_result_cancels_next_vote.clause
            target = day + 1
        else:
            clause = p.removal_cancels_vote.clause
            target = day + 1 if self.phase.kind == "night" else day
        if target not in self.cancelled:
            self.cancelled[target] = clause
            self._note("next_vote_cancelled", clause, i, seat)

    def _vote_still_due(self) -> bool:
        """Whether today's vote may still be held: FIIM 7.1's "current" vote."""
        day = self.phase.number
        if day in self.cancelled:
            return False
        if self.step is not Step.SPEECHES:
            return True
        sizes = self.p.short_speech_table_sizes.value
        if any(s in self.at_table and (s not in self.lost_speech or len(self.at_table) in sizes)
               for s in self.queue):
            return True  # speeches remain: nominations may still come
        nominees = [n for n in self.nominations if n in self.at_table]
        if not nominees:
            return False
        single_day1 = day == 1 and self.p.day1_single_nominee_no_vote.value
        return not (len(self.nominations) == 1 and single_day1)

    def _team_loss(self, ev: TeamLoss, i: int) -> None:
        p = self.p
        seat = ev.seat
        team_black = self.roles.get(seat) in BLACK_ROLES
        winner = "red" if team_black else "black"
        self.penalties = [pen for pen in self.penalties if pen.seat != seat]
        self.penalties.append(DerivedPenalty(seat, "team_loss", None, ev.rule, i))
        note = self._note("team_loss", p.penalty_team_loss.clause, i, seat)
        if seat in self.at_table:
            self._leave(seat, "team_loss", i)
        self.last_words_due = []
        self._end(winner, note, by_vote_or_shot=False)

    # -------------------------------------------------------------------- end ---
    def _leave(self, seat: int, how: str, i: int) -> None:
        self.at_table.discard(seat)
        self.lost_speech.discard(seat)
        self.departures.append(Departure(seat, how, self.phase, i))
        self.phase_quiet = False
        self.quiet = 0
        self.misses_76 = None

    def _check_end(self, i: int, by_vote_or_shot: bool) -> None:
        blacks = self.blacks_at_table()
        reds = len(self.at_table) - blacks
        if blacks == 0:
            self._end("red", Applied("red_win", self._basic("the end"), self.phase, i),
                      by_vote_or_shot)
        elif blacks >= reds:
            self._end("black", Applied("black_win", self._basic("the end"), self.phase, i),
                      by_vote_or_shot)

    def _end(self, result: str, why: Applied, by_vote_or_shot: bool) -> None:
        self.result = result
        self.end_reason = why
        self.ended_by_vote_or_shot = by_vote_or_shot
        self.step = Step.ENDED
        if not by_vote_or_shot or not self.p.last_words_after_end.value:
            self.last_words_due = []
        if self.first_killed is None or self.best_move:
            self.best_move_open = False

    def finish(self, i: int) -> None:
        """The log is over: settle what its last events left open (a day whose speeches
        ended, a vote's last words), so that a game that ended there is seen as ended."""
        if self.step is Step.SPEECHES:
            self._settle_queue(i)
        if self.step in (Step.SPEECHES, Step.LAST_WORDS) and not self.queue:
            backup = self.clone()
            try:
                self._close_day(i)
            except IllegalEvent:
                self.__dict__.update(backup.__dict__)

    # ---------------------------------------------------------------- next step ---
    def cancellations(self) -> tuple[Applied, ...]:
        """Votes cancelled today or on a coming day (FIIM 7.1, 7.2), for the judge's screen."""
        today = self.phase.number if self.phase.kind == "day" else self.phase.number + 1
        return tuple(Applied("vote_cancelled", clause, Phase("day", d), -1)
                     for d, clause in sorted(self.cancelled.items()) if d >= today)

    def next_step(self) -> NextStep:
        """What the judge records next (the state is not changed), with the players at
        the table as they will be then (a day's only nominee leaves when it is over)."""
        step = self._next_step()
        probe = self.clone()
        probe.finish(probe.count)
        return replace(step, at_table=tuple(sorted(probe.at_table)))

    def _next_step(self) -> NextStep:
        probe = self.clone()
        i = probe.count
        notes = self.cancellations()
        due = tuple(probe.last_words_due)
        step = probe.step
        if step is Step.ENDED:
            return NextStep(probe.phase, step, ("last_words",) if due else (), None, (),
                            notes, due)
        if step is Step.SHOT:
            return NextStep(probe.phase, step, ("shot",), None, (), notes, due)
        if step in (Step.AGREEMENT, Step.CHECKS):
            night = [k for k, role, done in (("don_check", "don", probe.don_checked),
                                             ("sheriff_check", SHERIFF, probe.sheriff_checked))
                     if not done and step is Step.CHECKS and probe._awake(role) is not None]
            if probe.best_move_open:
                night.append("best_move")
            night += ["last_words", "speech"] if due else ["speech"]
            probe._start_day(i)
            probe._settle_queue(i)
            speaker = probe.queue[0] if probe.queue else None
            return NextStep(self.phase, step, tuple(night), speaker, (), notes, due)
        if step is Step.SPEECHES:
            probe._settle_queue(i)
            if probe.queue:
                kinds = ("last_words", "speech") if due else ("speech",)
                return NextStep(probe.phase, step, kinds, probe.queue[0], (),
                                notes + tuple(probe.applied[len(self.applied):]), due)
            probe._resolve_speeches(i)
            extra = notes + tuple(probe.applied[len(self.applied):])
            if probe.at(Step.ENDED):
                due = tuple(probe.last_words_due)
                return NextStep(self.phase, Step.ENDED, ("last_words",) if due else (), None,
                                (), extra, due)
            if probe.at(Step.VOTE):
                return NextStep(self.phase, Step.VOTE, ("vote",), None,
                                tuple(probe.candidates), extra)
            if probe.at(Step.SHOT):
                return NextStep(probe.phase, Step.SHOT, ("shot",), None, (), extra)
            return NextStep(self.phase, Step.LAST_WORDS, ("last_words", "shot"), None, (),
                            extra, tuple(probe.last_words_due))
        if step is Step.DEFENCE:
            seat = probe.defence_queue[0] if probe.defence_queue else None
            kinds = ("defence", "vote") if seat is not None else ("vote",)
            return NextStep(probe.phase, step, kinds, seat, tuple(probe.candidates), notes)
        if step in (Step.VOTE, Step.LIFT):
            return NextStep(probe.phase, step, (step.value,), None, tuple(probe.candidates),
                            notes)
        if not due:
            return NextStep(Phase("night", probe.phase.number), Step.SHOT, ("shot",), None,
                            (), notes)
        return NextStep(probe.phase, Step.LAST_WORDS, ("last_words", "shot"), None, (),
                        notes, due)


def _seat_key(key: str) -> int | None:
    """A seat written as a JSON object key ("7")."""
    if not key.isascii() or not key.isdigit() or len(key) > 2:
        return None
    seat = int(key)
    return seat if seat in SEATS else None
