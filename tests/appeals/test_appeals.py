"""Protests and appeals (scoring.md section 9): each rule tested under its clause."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from decimal import Decimal
from zoneinfo import ZoneInfo

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mafiatab.domain.appeals import (
    Case,
    Change,
    ChangeLine,
    Decision,
    Filing,
    GameTimes,
    Kind,
    Message,
    Outcome,
    PenaltyEdit,
    Refused,
    Role,
    RoundTime,
    Schedule,
    SeatChange,
    Status,
    Subject,
    add_message,
    apply_change,
    check_decision,
    check_filing,
    deadlines,
    decide,
    file_case,
    filing_deadline,
    is_open,
    withdraw,
)
from mafiatab.domain.protocol import Game, SeatScores
from mafiatab.domain.standings import compute_standings
from mafiatab.i18n import local_time
from mafiatab.rules import FIIM2018, FSM
from mafiatab.services.tournament_file import load_tournament
from tests.helpers import game as game_dict

T0 = datetime(2026, 3, 7, 10, 0, tzinfo=UTC)


def _game(gid: str = "g1", rnd: int = 1, **fields: object) -> Game:
    return msgspec.convert(game_dict(gid, rnd=rnd, **fields), Game, strict=False)


#: two days, three rounds a day, an hour apart; day 2 starts the next morning
SCHEDULE = Schedule(rounds=[
    RoundTime(stage="qual", round=r, day=1 if r <= 3 else 2,
              starts=T0 + timedelta(hours=r - 1) if r <= 3 else T0 + timedelta(days=1, hours=r - 4))
    for r in range(1, 7)
])
#: game of round 1 ends 10:50, published 11:05
TIMES = GameTimes(ended=T0 + timedelta(minutes=50), published=T0 + timedelta(minutes=65))


def _appeal(subject: Subject = Subject.POSITIVE_EXTRA, awarded: str = "0.2", claimed: str = "0.6",
            player: str = "p3", gid: str = "g1") -> Filing:
    return Filing(kind=Kind.APPEAL, player=player, game=gid, subject=subject,
                  awarded=Decimal(awarded), claimed=Decimal(claimed))


def _protest(player: str = "p3", gid: str = "g1") -> Filing:
    return Filing(kind=Kind.PROTEST, player=player, game=gid)


def _codes(refusals: list) -> list[str]:  # type: ignore[type-arg]
    return [r.code for r in refusals]


# --- FIIM 8.9: protests on a result -------------------------------------------------


def test_fiim_8_9_1_protest_within_10_minutes_after_the_game() -> None:
    g = _game()
    at_9 = TIMES.ended + timedelta(minutes=9)  # type: ignore[operator]
    assert check_filing(_protest(), g, FIIM2018, SCHEDULE, TIMES, [], at_9) == []
    at_11 = TIMES.ended + timedelta(minutes=11)  # type: ignore[operator]
    refused = check_filing(_protest(), g, FIIM2018, SCHEDULE, TIMES, [], at_11)
    assert _codes(refused) == ["protest_too_late"]
    assert refused[0].clause == "FIIM 8.9.1"
    assert "10 мин" in refused[0].message("ru") and "ФИИМ 8.9.1" in refused[0].message("ru")
    assert "10 minutes" in refused[0].message("en")


def test_fiim_8_9_1_protest_at_exactly_10_minutes_is_in_time() -> None:
    """"не позднее, чем через 10 минут": the tenth minute is included."""
    g = _game()
    at_10 = TIMES.ended + timedelta(minutes=10)  # type: ignore[operator]
    assert check_filing(_protest(), g, FIIM2018, SCHEDULE, TIMES, [], at_10) == []
    d = filing_deadline(Kind.PROTEST, g, FIIM2018, SCHEDULE, TIMES)
    assert d is not None and d.at == at_10 and is_open(d, at_10)
    case = file_case(_protest(), g, FIIM2018, SCHEDULE, TIMES, [], at_10, "a1")
    assert case.filed_at == at_10


def test_fiim_8_9_1_protest_at_10_01_is_late_and_says_so_in_the_zone() -> None:
    g = _game()
    at_10_01 = TIMES.ended + timedelta(minutes=10, seconds=1)  # type: ignore[operator]
    refused = check_filing(_protest(), g, FIIM2018, SCHEDULE, TIMES, [], at_10_01)
    assert _codes(refused) == ["protest_too_late"]
    d = filing_deadline(Kind.PROTEST, g, FIIM2018, SCHEDULE, TIMES)
    assert d is not None and not is_open(d, at_10_01)
    moscow = ZoneInfo("Europe/Moscow")
    ru = refused[0].message("ru", moscow, lambda v: local_time(v, moscow, "ru"))
    assert "14:00" in ru and "Москва" in ru and "UTC+3" in ru  # 11:00 UTC on Moscow's clock
    assert "11:00" not in ru
    assert "не позднее" in ru


def test_fiim_8_9_1_protest_needs_the_games_end_time() -> None:
    refused = check_filing(_protest(), _game(), FIIM2018, SCHEDULE, GameTimes(), [], T0)
    assert _codes(refused) == ["game_end_unknown"]


def test_fiim_8_9_1_deadline_shown_before_filing() -> None:
    d = filing_deadline(Kind.PROTEST, _game(), FIIM2018, SCHEDULE, TIMES)
    assert d is not None and d.at == T0 + timedelta(minutes=60) and d.clause == "FIIM 8.9.1"


def test_fiim_8_9_protest_only_by_a_player_of_the_game() -> None:
    refused = check_filing(_protest(player="p99"), _game(), FIIM2018, SCHEDULE, TIMES, [], T0)
    assert "not_in_game" in _codes(refused)


def test_fiim_8_9_no_appeal_of_an_individual_score() -> None:
    refused = check_filing(_appeal(), _game(), FIIM2018, SCHEDULE, TIMES, [], T0)
    assert _codes(refused) == ["no_score_appeals"]
    assert refused[0].clause.startswith("FIIM 8.9")


def test_fiim_8_9_2_protest_decided_by_head_judge_or_commission() -> None:
    g = _game()
    case = file_case(_protest(), g, FIIM2018, SCHEDULE, TIMES, [], TIMES.ended, "c1")  # type: ignore[arg-type]
    by_judge = Decision(by="j1", role=Role.JUDGE, at=T0 + timedelta(hours=1),
                        outcome=Outcome.REJECTED, reason="-")
    assert _codes(check_decision(case, by_judge, FIIM2018, SCHEDULE)) == ["decider"]
    for role in (Role.HEAD_JUDGE, Role.APPEALS_COMMISSION):
        ok = msgspec.structs.replace(by_judge, role=role)
        assert check_decision(case, ok, FIIM2018, SCHEDULE) == []


def test_fiim_8_9_4_protest_decision_is_final() -> None:
    g = _game()
    case = file_case(_protest(), g, FIIM2018, SCHEDULE, TIMES, [], TIMES.ended, "c1")  # type: ignore[arg-type]
    decision = Decision(by="hj", role=Role.HEAD_JUDGE, at=T0 + timedelta(hours=1),
                        outcome=Outcome.REJECTED, reason="the vote was counted right")
    decided, effect = decide(case, decision, g, FIIM2018, SCHEDULE)
    assert decided.status is Status.DECIDED and effect.game == g and effect.changes == []
    # no second decision, and no new protest on the same game's result
    with pytest.raises(Refused) as again:
        decide(decided, decision, g, FIIM2018, SCHEDULE)
    assert _codes(again.value.refusals)[0] == "case_closed"
    other = check_filing(_protest(player="p5"), g, FIIM2018, SCHEDULE, TIMES, [decided],
                         TIMES.ended)  # type: ignore[arg-type]
    assert _codes(other) == ["protest_already_decided"]
    assert other[0].clause == "FIIM 8.9.4"


def test_fiim_8_9_no_replay() -> None:
    g = _game()
    case = file_case(_protest(), g, FIIM2018, SCHEDULE, TIMES, [], TIMES.ended, "c1")  # type: ignore[arg-type]
    replay = Decision(by="hj", role=Role.HEAD_JUDGE, at=T0, outcome=Outcome.REPLAY, reason="-")
    assert _codes(check_decision(case, replay, FIIM2018, SCHEDULE)) == ["replay_not_in_rules"]


def test_fiim_8_9_changed_result_makes_a_new_revision_and_standings_follow() -> None:
    data = {"format": "mafiatab.tournament/1", "name": "T", "rules": "fiim2018",
            "players": [{"id": f"p{i}", "nickname": f"N{i}"} for i in range(1, 11)],
            "stages": [{"id": "qual", "name": "Q", "kind": "qualification"}],
            "games": [game_dict("g1", result="red")]}
    import json

    loaded = load_tournament(json.dumps(data))
    t, g = loaded.tournament, loaded.tournament.games[0]
    before = {r.player: r.total for r in compute_standings(t, FIIM2018).rows}
    case = file_case(_protest(player="p4"), g, FIIM2018, SCHEDULE, TIMES, [], TIMES.ended, "c1")  # type: ignore[arg-type]
    decision = Decision(by="hj", role=Role.HEAD_JUDGE, at=T0, outcome=Outcome.ACCEPTED,
                        reason="the judge miscounted", change=Change(result="black"))
    _, effect = decide(case, decision, g, FIIM2018, SCHEDULE)
    assert effect.game is not None and effect.game.result == "black"
    assert [c.message("en") for c in effect.changes] == ["result: red win → black win"]
    assert [c.message("ru") for c in effect.changes] == [
        "результат: победа красных → победа чёрных"]
    assert g.result == "red"  # the old revision is untouched
    after_t = msgspec.structs.replace(t, games=[effect.game])
    after = {r.player: r.total for r in compute_standings(after_t, FIIM2018).rows}
    assert before["p1"] > 0 and after["p1"] == 0
    assert before["p4"] == 0 and after["p4"] > 0


# --- FSM 8.8: protests on a result ---------------------------------------------------


def test_fsm_8_8_2_protest_has_no_deadline_in_minutes() -> None:
    late = T0 + timedelta(hours=5)
    assert check_filing(_protest(), _game(), FSM, SCHEDULE, TIMES, [], late) == []


def test_fsm_8_8_3_protest_decided_by_head_judge_or_commission() -> None:
    g = _game()
    case = file_case(_protest(), g, FSM, SCHEDULE, TIMES, [], T0, "c1")
    by_judge = Decision(by="j", role=Role.JUDGE, at=T0, outcome=Outcome.REJECTED, reason="-")
    refused = check_decision(case, by_judge, FSM, SCHEDULE)
    assert _codes(refused) == ["decider"] and refused[0].clause == "FSM 8.8.3"
    assert "главный судья" in refused[0].message("ru")


def test_fsm_8_8_5_protest_decision_is_final() -> None:
    g = _game()
    case = file_case(_protest(), g, FSM, SCHEDULE, TIMES, [], T0, "c1")
    decided, _ = decide(case, Decision(by="hj", role=Role.HEAD_JUDGE, at=T0,
                                       outcome=Outcome.REJECTED, reason="-"), g, FSM, SCHEDULE)
    refused = check_filing(_protest(), g, FSM, SCHEDULE, TIMES, [decided], T0)
    assert _codes(refused) == ["protest_already_decided"] and refused[0].clause == "FSM 8.8.5"


# --- FSM 8.9: appeals of an individual score ------------------------------------------


def test_fsm_8_9_1_appeal_within_two_rounds_after_publication() -> None:
    g = _game()
    # published 11:05: rounds 3 (12:00) and 4 (next day) pass; round 5 closes the window,
    # but day 2 starting closes it earlier (8.9.2) -> use a one-day schedule to see 8.9.1
    one_day = Schedule(rounds=[RoundTime(stage="qual", round=r, day=1,
                                         starts=T0 + timedelta(hours=r - 1)) for r in range(1, 8)])
    d = filing_deadline(Kind.APPEAL, g, FSM, one_day, TIMES)
    assert d is not None and d.code == "appeal_rounds_passed"
    assert d.at == T0 + timedelta(hours=4)  # round 5 starts: rounds 3 and 4 are the window
    before = T0 + timedelta(hours=3, minutes=59)
    assert check_filing(_appeal(), g, FSM, one_day, TIMES, [], before) == []
    refused = check_filing(_appeal(), g, FSM, one_day, TIMES, [], T0 + timedelta(hours=4))
    assert _codes(refused) == ["appeal_rounds_passed"]
    assert refused[0].clause.startswith("FSM 8.9.1")


def test_fsm_8_9_1_not_before_publication() -> None:
    unpublished = GameTimes(ended=TIMES.ended)
    refused = check_filing(_appeal(), _game(), FSM, SCHEDULE, unpublished, [], T0)
    assert _codes(refused) == ["not_published"]


def test_fsm_8_9_2_day_one_scores_before_day_two_starts() -> None:
    g = _game(rnd=3)  # round 3: day 1
    times = GameTimes(ended=T0 + timedelta(hours=2, minutes=50),
                      published=T0 + timedelta(hours=2, minutes=55))
    day2 = T0 + timedelta(days=1)
    assert check_filing(_appeal(), g, FSM, SCHEDULE, times, [], day2 - timedelta(minutes=1)) == []
    refused = check_filing(_appeal(), g, FSM, SCHEDULE, times, [], day2)
    assert "appeal_next_day" in _codes(refused)
    r = next(x for x in refused if x.code == "appeal_next_day")
    assert r.clause.startswith("FSM 8.9.2") and "дня 1" in r.message("ru")


#: three days of two rounds; the last round is the third day's second
THREE_DAYS = Schedule(rounds=[
    RoundTime(stage="qual", round=r, day=(r + 1) // 2,
              starts=T0 + timedelta(days=(r - 1) // 2, hours=(r - 1) % 2))
    for r in range(1, 7)
])


def test_fsm_8_9_2_reading_first_day_scores_before_the_second_day() -> None:
    """Reading: "the first game day's points before the second game day starts" binds
    the tournament's first day."""
    g = _game(rnd=2)  # day 1's second round, 11:00-11:50, published 11:55
    times = GameTimes(ended=T0 + timedelta(hours=1, minutes=50),
                      published=T0 + timedelta(hours=1, minutes=55))
    d = filing_deadline(Kind.APPEAL, g, FSM, THREE_DAYS, times)
    assert d is not None and d.code == "appeal_next_day"
    assert d.at == T0 + timedelta(days=1)  # day 2's first round: earlier than two rounds
    assert d.clause.startswith("FSM 8.9.2")
    day2 = T0 + timedelta(days=1)
    assert check_filing(_appeal(gid="g1"), g, FSM, THREE_DAYS, times, [],
                        day2 - timedelta(minutes=1)) == []
    assert _codes(check_filing(_appeal(), g, FSM, THREE_DAYS, times, [], day2)) == [
        "appeal_next_day"]


def test_fsm_8_9_2_reading_second_day_scores_follow_8_9_1_two_rounds() -> None:
    """Reading: a later day's scores are not closed by the next day's start: the two
    rounds of 8.9.1 (and the last round) bind them."""
    g = _game(rnd=4)  # day 2's last round, 11:00-11:50 on day 2, published 11:55
    times = GameTimes(ended=T0 + timedelta(days=1, hours=1, minutes=50),
                      published=T0 + timedelta(days=1, hours=1, minutes=55))
    day3 = T0 + timedelta(days=2)
    found = [d.code for d in deadlines(Kind.APPEAL, g, FSM, THREE_DAYS, times)[0]]
    assert "appeal_next_day" not in found
    # day 3 has started: still in time (rounds 5 and 6 are the two rounds) ...
    assert check_filing(_appeal(), g, FSM, THREE_DAYS, times, [], day3) == []
    # ... until the last round starts: every appeal closed before it (8.9.2)
    d = filing_deadline(Kind.APPEAL, g, FSM, THREE_DAYS, times)
    assert d is not None and d.code == "appeal_last_round"
    assert d.at == T0 + timedelta(days=2, hours=1)


def test_fsm_8_9_2_reading_later_days_two_rounds_when_the_last_round_is_far() -> None:
    """Day 2's game in a four-day schedule: the window is 8.9.1's two rounds, past the
    start of day 3."""
    four = Schedule(rounds=[
        RoundTime(stage="qual", round=r, day=(r + 1) // 2,
                  starts=T0 + timedelta(days=(r - 1) // 2, hours=(r - 1) % 2))
        for r in range(1, 9)])
    g = _game(rnd=4)
    times = GameTimes(ended=T0 + timedelta(days=1, hours=1, minutes=50),
                      published=T0 + timedelta(days=1, hours=1, minutes=55))
    d = filing_deadline(Kind.APPEAL, g, FSM, four, times)
    assert d is not None and d.code == "appeal_rounds_passed"
    assert d.at == T0 + timedelta(days=3)  # round 7: rounds 5 and 6 were the window


def test_fsm_8_9_2_all_appeals_closed_before_the_last_round() -> None:
    g = _game("g5", rnd=5)  # day 2, round 5; last round 6 starts day 2 at 12:00
    times = GameTimes(ended=T0 + timedelta(days=1, hours=1, minutes=50),
                      published=T0 + timedelta(days=1, hours=1, minutes=55))
    last = T0 + timedelta(days=1, hours=2)
    assert filing_deadline(Kind.APPEAL, g, FSM, SCHEDULE, times).at == last  # type: ignore[union-attr]
    refused = check_filing(_appeal(gid="g5"), g, FSM, SCHEDULE, times, [], last)
    assert _codes(refused) == ["appeal_last_round"] and refused[0].clause == "FSM 8.9.2"


def test_fsm_8_9_2_decision_after_the_last_round_is_a_warning() -> None:
    g = _game()
    case = file_case(_appeal(), g, FSM, SCHEDULE, TIMES, [], T0 + timedelta(hours=1, minutes=10), "a1")
    late = Decision(by="j", role=Role.JUDGE, at=T0 + timedelta(days=1, hours=3),
                    outcome=Outcome.REJECTED, reason="-")
    found = check_decision(case, late, FSM, SCHEDULE)
    assert _codes(found) == ["decided_after_last_round"] and found[0].warning
    _, effect = decide(case, late, g, FSM, SCHEDULE)
    assert _codes(effect.warnings) == ["decided_after_last_round"]


def test_fsm_8_9_2_not_after_the_tables_are_closed() -> None:
    closed = msgspec.structs.replace(SCHEDULE, tables_closed_at=T0 + timedelta(hours=1, minutes=30))
    refused = check_filing(_appeal(), _game(), FSM, closed, TIMES, [], T0 + timedelta(hours=1, minutes=30))
    assert _codes(refused) == ["appeal_tables_closed"] and refused[0].clause == "FSM 8.9.2"


def test_fsm_8_9_5_no_appeal_about_a_0_1_difference() -> None:
    now = T0 + timedelta(hours=1, minutes=10)
    refused = check_filing(_appeal(awarded="0.3", claimed="0.4"), _game(), FSM, SCHEDULE, TIMES, [], now)
    assert _codes(refused) == ["appeal_difference"] and refused[0].clause == "FSM 8.9.5"
    assert "0,1" in refused[0].message("ru")
    assert check_filing(_appeal(awarded="0.2", claimed="0.4"), _game(), FSM, SCHEDULE, TIMES, [], now) == []
    same = check_filing(_appeal(awarded="0.4", claimed="0.4"), _game(), FSM, SCHEDULE, TIMES, [], now)
    assert _codes(same) == ["appeal_no_difference"]


def _filed(n: int, subject: Subject, player: str = "p3") -> list[Case]:
    return [Case(id=f"a{i}", filing=_appeal(subject, gid=f"x{i}", player=player), filed_at=T0,
                 status=Status.DECIDED) for i in range(n)]


def test_fsm_8_9_6_three_appeals_of_a_positive_extra() -> None:
    now = T0 + timedelta(hours=1, minutes=10)
    g = _game()
    assert check_filing(_appeal(), g, FSM, SCHEDULE, TIMES, _filed(2, Subject.POSITIVE_EXTRA), now) == []
    refused = check_filing(_appeal(), g, FSM, SCHEDULE, TIMES, _filed(3, Subject.POSITIVE_EXTRA), now)
    assert _codes(refused) == ["appeal_limit"] and refused[0].clause == "FSM 8.4.9, 8.9.6"
    assert "положительный доп. балл" in refused[0].message("ru")
    # another player's appeals and appeals of a penalty do not count
    assert check_filing(_appeal(), g, FSM, SCHEDULE, TIMES,
                        _filed(3, Subject.POSITIVE_EXTRA, "p5") + _filed(3, Subject.PENALTY), now) == []


def test_fsm_8_4_9_three_appeals_of_a_penalty() -> None:
    now = T0 + timedelta(hours=1, minutes=10)
    pen = _appeal(Subject.PENALTY, awarded="-0.6", claimed="0")
    refused = check_filing(pen, _game(), FSM, SCHEDULE, TIMES, _filed(3, Subject.PENALTY), now)
    assert _codes(refused) == ["appeal_limit"] and "a penalty" in refused[0].message("en")


def test_fsm_8_9_6_withdrawn_appeals_count() -> None:
    g = _game()
    now = T0 + timedelta(hours=1, minutes=10)
    cases: list[Case] = []
    for i in range(3):
        case = file_case(_appeal(gid="g1"), g, FSM, SCHEDULE, TIMES, cases, now, f"a{i}")
        cases.append(withdraw(case, now))
    refused = check_filing(_appeal(), g, FSM, SCHEDULE, TIMES, cases, now)
    assert _codes(refused) == ["appeal_limit"]


def test_fsm_8_9_3_thread_of_player_judge_and_head_judge() -> None:
    g = _game()
    now = T0 + timedelta(hours=1, minutes=10)
    case = file_case(_appeal(), g, FSM, SCHEDULE, TIMES, [], now, "a1")
    case = add_message(case, Message(author="p3", role=Role.PLAYER, at=now, text="I named two blacks"))
    case = add_message(case, Message(author="j1", role=Role.JUDGE, at=now, text="yes"))
    case = add_message(case, Message(author="hj", role=Role.HEAD_JUDGE, at=now, text="agreed"))
    assert [m.role for m in case.messages] == [Role.PLAYER, Role.JUDGE, Role.HEAD_JUDGE]
    with pytest.raises(Refused) as other:
        add_message(case, Message(author="p5", role=Role.PLAYER, at=now, text="me too"))
    assert _codes(other.value.refusals) == ["thread_author"]
    # a second open appeal of the same kind on the same game is refused
    assert "case_open_twice" in _codes(check_filing(_appeal(), g, FSM, SCHEDULE, TIMES, [case], now))


def test_fsm_8_9_accepted_appeal_changes_the_score() -> None:
    g = _game(scores={"3": {"extra": "0.2"}})
    now = T0 + timedelta(hours=1, minutes=10)
    case = file_case(_appeal(), g, FSM, SCHEDULE, TIMES, [], now, "a1")
    decision = Decision(by="j1", role=Role.JUDGE, at=now, outcome=Outcome.ACCEPTED, reason="ok",
                        change=Change(scores={3: SeatScores(extra=Decimal("0.6"))}))
    decided, effect = decide(case, decision, g, FSM, SCHEDULE)
    assert effect.game is not None and effect.game.scores[3].extra == Decimal("0.6")
    assert [c.message("ru") for c in effect.changes] == ["место 3: доп. балл +0,2 → +0,6"]
    assert [c.message("en") for c in effect.changes] == ["seat 3: extra +0.2 → +0.6"]
    with pytest.raises(Refused):
        add_message(decided, Message(author="p3", role=Role.PLAYER, at=now, text="thanks"))


def test_fsm_8_9_accepted_without_change_is_refused() -> None:
    g = _game()
    case = file_case(_appeal(), g, FSM, SCHEDULE, TIMES, [], T0 + timedelta(hours=1, minutes=10), "a1")
    bad = Decision(by="j1", role=Role.JUDGE, at=T0, outcome=Outcome.ACCEPTED, reason="-")
    assert _codes(check_decision(case, bad, FSM, SCHEDULE)) == ["accepted_without_change"]
    player = Decision(by="p3", role=Role.PLAYER, at=T0, outcome=Outcome.REJECTED, reason="-")
    assert _codes(check_decision(case, player, FSM, SCHEDULE)) == ["decider"]


# --- FSM 8.10: a changed result or a replay -------------------------------------------


def test_fsm_8_10_1_replay_by_head_judge_with_committee() -> None:
    g = _game()
    case = file_case(_protest(), g, FSM, SCHEDULE, TIMES, [], T0, "c1")
    replay = Decision(by="hj", role=Role.HEAD_JUDGE, at=T0, outcome=Outcome.REPLAY, reason="phone",
                      non_game_advantage=True)
    refused = check_decision(case, replay, FSM, SCHEDULE)
    assert _codes(refused) == ["needs_committee"] and refused[0].clause == "FSM 8.10.1"
    agreed = msgspec.structs.replace(replay, committee_agreed=True)
    decided, effect = decide(case, agreed, g, FSM, SCHEDULE)
    assert effect.replay and effect.game is None and decided.decision == agreed
    by_commission = msgspec.structs.replace(agreed, role=Role.APPEALS_COMMISSION)
    assert _codes(check_decision(case, by_commission, FSM, SCHEDULE)) == ["decider"]


def test_fsm_8_10_1_changed_result_for_a_non_game_advantage() -> None:
    g = _game()
    case = file_case(_protest(), g, FSM, SCHEDULE, TIMES, [], T0, "c1")
    change = Decision(by="hj", role=Role.HEAD_JUDGE, at=T0, outcome=Outcome.ACCEPTED, reason="-",
                      change=Change(result="black"), non_game_advantage=True)
    assert _codes(check_decision(case, change, FSM, SCHEDULE)) == ["needs_committee"]
    _, effect = decide(case, msgspec.structs.replace(change, committee_agreed=True), g, FSM, SCHEDULE)
    assert effect.game is not None and effect.game.result == "black"


def test_records_round_trip_as_json() -> None:
    g = _game()
    case = file_case(_protest(), g, FSM, SCHEDULE, TIMES, [], T0, "c1")
    case = add_message(case, Message(author="p3", role=Role.PLAYER, at=T0, text="Голосование"))
    back = msgspec.json.decode(msgspec.json.encode(case), type=Case)
    assert back == case
    assert msgspec.json.decode(msgspec.json.encode(SCHEDULE), type=Schedule) == SCHEDULE


# --- a decision does what it says (scoring.md section 9) -------------------------------

#: an FSM game whose seat 10 has a −0.4 penalty for a game action and seat 3 an extra
PENALISED = {"scores": {"10": {"penalties": [{"kind": "game_action", "points": "-0.4",
                                              "rule": "8.5.2"}]},
                        "3": {"extra": "0.2"}},
             "fouls": {"10": 2}}


def _penalty_appeal() -> Filing:
    return _appeal(subject=Subject.PENALTY, awarded="-0.4", claimed="0", player="p10")


def test_fsm_8_9_accepted_penalty_appeal_removes_the_penalty_and_says_so_in_words() -> None:
    g = _game(**PENALISED)
    now = T0 + timedelta(hours=1, minutes=10)
    case = file_case(_penalty_appeal(), g, FSM, SCHEDULE, TIMES, [], now, "a1")
    remove = Change(seats={10: SeatChange(penalties=[PenaltyEdit(index=0, kind="game_action",
                                                                  remove=True)])})
    decision = Decision(by="hj", role=Role.HEAD_JUDGE, at=now, outcome=Outcome.ACCEPTED,
                        reason="no game action", change=remove)
    _, effect = decide(case, decision, g, FSM, SCHEDULE)
    assert effect.game is not None and effect.game.scores[10].penalties == []
    assert effect.game.scores[3] == g.scores[3]  # the rest stays
    assert [c.message("ru") for c in effect.changes] == ["место 10: штраф −0,4 снят"]
    assert [c.message("en") for c in effect.changes] == ["seat 10: penalty −0.4 removed"]


def test_fsm_8_9_accepted_decision_changes_a_penalty_fouls_and_an_extra() -> None:
    g = _game(**PENALISED)
    now = T0 + timedelta(hours=1, minutes=10)
    case = file_case(_penalty_appeal(), g, FSM, SCHEDULE, TIMES, [], now, "a1")
    change = Change(seats={
        10: SeatChange(fouls=1, penalties=[PenaltyEdit(index=0, kind="game_action",
                                                      points=Decimal("-0.2"))]),
        3: SeatChange(extra=None)})
    decision = Decision(by="hj", role=Role.HEAD_JUDGE, at=now, outcome=Outcome.ACCEPTED,
                        reason="-", change=change)
    _, effect = decide(case, decision, g, FSM, SCHEDULE)
    assert effect.game is not None
    assert effect.game.scores[10].penalties[0].points == Decimal("-0.2")
    assert effect.game.fouls == {10: 1} and effect.game.scores[3].extra is None
    assert [c.message("ru") for c in effect.changes] == [
        "место 3: доп. балл +0,2 → —", "место 10: штраф −0,4 → −0,2", "место 10: фолы 2 → 1"]


def test_fiim_8_9_accepted_protest_changes_the_best_move_and_the_first_killed() -> None:
    g = _game(first_killed=1, best_move=[3, 5])
    case = file_case(_protest(), g, FIIM2018, SCHEDULE, TIMES, [], TIMES.ended, "c1")  # type: ignore[arg-type]
    decision = Decision(by="hj", role=Role.HEAD_JUDGE, at=T0, outcome=Outcome.ACCEPTED,
                        reason="-", change=Change(first_killed=2, best_move=[3, 5, 9]))
    _, effect = decide(case, decision, g, FIIM2018, SCHEDULE)
    assert effect.game is not None and effect.game.best_move == [3, 5, 9]
    assert [c.message("ru") for c in effect.changes] == ["ПУ: место 1 → место 2",
                                                          "ЛХ: 3, 5 → 3, 5, 9"]


def test_scoring_9_accepted_decision_that_changes_nothing_is_refused_in_words() -> None:
    g = _game(**PENALISED)
    now = T0 + timedelta(hours=1, minutes=10)
    case = file_case(_penalty_appeal(), g, FSM, SCHEDULE, TIMES, [], now, "a1")
    same = Change(seats={3: SeatChange(extra=Decimal("0.2")), 10: SeatChange(fouls=2)})
    decision = Decision(by="hj", role=Role.HEAD_JUDGE, at=now, outcome=Outcome.ACCEPTED,
                        reason="-", change=same)
    with pytest.raises(Refused) as refused:
        decide(case, decision, g, FSM, SCHEDULE)
    assert _codes(refused.value.refusals) == ["accepted_changes_nothing"]
    assert "ничего не меняет" in refused.value.refusals[0].message("ru")
    nothing = msgspec.structs.replace(decision, change=None)
    with pytest.raises(Refused) as empty:
        decide(case, nothing, g, FSM, SCHEDULE)
    assert _codes(empty.value.refusals) == ["accepted_without_change"]
    assert "укажите, что изменить" in empty.value.refusals[0].message("ru")


def test_scoring_9_a_penalty_edit_names_a_penalty_of_the_seat() -> None:
    g = _game(**PENALISED)
    now = T0 + timedelta(hours=1, minutes=10)
    case = file_case(_penalty_appeal(), g, FSM, SCHEDULE, TIMES, [], now, "a1")
    wrong = Change(seats={10: SeatChange(penalties=[PenaltyEdit(index=0, kind="disqualification",
                                                                 remove=True)])})
    decision = Decision(by="hj", role=Role.HEAD_JUDGE, at=now, outcome=Outcome.ACCEPTED,
                        reason="-", change=wrong)
    with pytest.raises(Refused) as refused:
        decide(case, decision, g, FSM, SCHEDULE)
    assert _codes(refused.value.refusals) == ["penalty_not_found"]


def test_change_lines_round_trip_as_stored() -> None:
    line = ChangeLine("penalty_removed", {"seat": 10, "kind": "game_action", "points": "-0.4"})
    back = ChangeLine.stored(msgspec.json.decode(msgspec.json.encode(line.as_dict())))
    assert back == line and back.message("ru") == "место 10: штраф −0,4 снят"
    assert ChangeLine.stored("seat 3: - -> extra 0.4").message("ru") == "seat 3: - -> extra 0.4"


def test_fsm_8_3_9_accepted_decision_rewrites_the_first_killeds_protocol() -> None:
    g = _game(first_killed=1, scores={"1": {"pu_protocol": {"entries": [
        {"seat": 3, "colour": "black", "tag": "reliable"}, {"seat": 5, "colour": "black"}]}}})
    now = T0 + timedelta(hours=1, minutes=10)
    case = file_case(_appeal(player="p1"), g, FSM, SCHEDULE, TIMES, [], now, "a1")
    change = Change(seats={1: SeatChange(pu_entries=[(3, "black"), (9, "black")])})
    decision = Decision(by="hj", role=Role.HEAD_JUDGE, at=now, outcome=Outcome.ACCEPTED,
                        reason="-", change=change)
    _, effect = decide(case, decision, g, FSM, SCHEDULE)
    assert effect.game is not None
    pp = effect.game.scores[1].pu_protocol
    assert pp is not None and [(e.seat, e.colour, e.tag) for e in pp.entries] == [
        (3, "black", "reliable"), (9, "black", None)]
    assert [c.message("ru") for c in effect.changes] == ["место 1: протокол ПУ 3ч 5ч → 3ч 9ч"]


# --- properties of a decision's change --------------------------------------------------

_POINTS = st.sampled_from([None, Decimal("0.2"), Decimal("0.4"), Decimal("-0.4")])


@st.composite
def _seat_changes(draw: st.DrawFn) -> Change:
    seats = {}
    for seat in draw(st.sets(st.sampled_from([3, 10]), max_size=2)):
        fields: dict[str, object] = {}
        if draw(st.booleans()):
            fields["extra"] = draw(_POINTS)
        if draw(st.booleans()):
            fields["fouls"] = draw(st.integers(0, 4))
        if seat == 10 and draw(st.booleans()):
            fields["penalties"] = [PenaltyEdit(
                index=0, kind="game_action", remove=draw(st.booleans()),
                points=draw(st.sampled_from([None, Decimal("-0.4"), Decimal("-0.2")])))]
        seats[seat] = SeatChange(**fields)  # type: ignore[arg-type]
    result = draw(st.sampled_from([None, "red", "black"]))
    return Change(seats=seats, result=result)


@settings(max_examples=200, deadline=None)
@given(_seat_changes())
def test_scoring_9_a_change_says_exactly_what_it_changed(change: Change) -> None:
    """A change makes a line for each part it changed and none else: no lines, the same
    protocol; applied twice, the second time changes nothing (or, when it removed a
    penalty, finds no such penalty: an edit never hits another one)."""
    g = _game(**PENALISED)
    new, lines = apply_change(g, change, FSM)
    assert (new == g) == (lines == [])
    removes = any(pe.remove for sc in change.seats.values() for pe in sc.penalties)
    try:
        again, second = apply_change(new, change, FSM)
    except Refused as e:
        assert removes and _codes(e.refusals) == ["penalty_not_found"]
    else:
        assert again == new and second == []
    for line in lines:  # every line reads in both languages, never a code
        ru, en = line.message("ru"), line.message("en")
        assert ru and en and "game_action" not in ru + en and "->" not in ru + en
