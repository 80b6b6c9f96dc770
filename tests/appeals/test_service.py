"""The appeal rules through the stored service: each test named after its
clause, on SQLite; the whole flow also on PostgreSQL."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timedelta
from decimal import Decimal

import pytest

from mafiatab.domain.appeals import Change, Filing, Kind, Outcome, Refused, Status, Subject
from mafiatab.domain.problems import ProtocolRefused
from mafiatab.domain.protocol import SeatScores
from mafiatab.services.appeals import DecidedMeanwhile
from mafiatab.services.tournaments import PermissionDenied
from mafiatab.storage.engine import make_engine, upgrade
from tests.appeals.conftest import HJ, JUDGE, ORG, OTHER, PLAYER, VIEWER_NAME, Cup, make_cup


def _appeal(gid: str = "g1", subject: Subject = Subject.POSITIVE_EXTRA, awarded: str = "0",
            claimed: str = "0.4", player: str = "p3") -> Filing:
    return Filing(kind=Kind.APPEAL, player=player, game=gid, subject=subject,
                  awarded=Decimal(awarded), claimed=Decimal(claimed), text="my extra")


def _protest(gid: str = "g1", player: str = "p3") -> Filing:
    return Filing(kind=Kind.PROTEST, player=player, game=gid, text="wrong result")


def _refused(call: object) -> list[str]:
    assert callable(call)
    with pytest.raises(Refused) as e:
        call()
    return [r.code for r in e.value.refusals if not r.warning]


def _soon(cup: Cup, minutes: int = 10) -> datetime:
    return cup.published + timedelta(minutes=minutes)


def _total(cup: Cup, player: str) -> Decimal:
    row = next(r for r in cup.svc.standings.compute(cup.tid).rows if r.player == player)
    return Decimal(row.total) / 100


# --- filing ---------------------------------------------------------------------------


def test_fsm_8_9_1_appeal_within_two_rounds_after_publication(cup: Cup) -> None:
    svc = cup.svc
    view = svc.appeals.file(cup.tid, _appeal(), actor=PLAYER,
                            now=cup.published + timedelta(hours=2, minutes=59))
    assert view.id == "A1" and view.case.status is Status.OPEN
    late = cup.published + timedelta(hours=3)
    assert _refused(lambda: svc.appeals.file(cup.tid, _appeal("g2"), actor=PLAYER, now=late)) == [
        "appeal_rounds_passed"]
    refusal = [e for e in svc.tournaments.audit_log(cup.tid, actor=ORG) if e[2] == "appeal_refused"][-1]
    assert refusal[3]["refusals"][0]["clause"].startswith("FSM 8.9.1")


def test_fsm_8_9_2_day_one_scores_before_day_two_and_all_before_the_last_round(cup: Cup) -> None:
    svc = cup.svc
    day2 = cup.published + timedelta(days=1)
    codes = _refused(lambda: svc.appeals.file(cup.tid, _appeal(), actor=PLAYER, now=day2))
    assert {"appeal_next_day", "appeal_last_round"} <= set(codes)


def test_fsm_8_9_2_not_after_the_tables_are_closed(cup: Cup) -> None:
    svc = cup.svc
    sched = svc.appeals.schedule(cup.tid, actor=HJ)
    closed = cup.published + timedelta(minutes=30)
    svc.appeals.set_schedule(cup.tid, type(sched)(rounds=sched.rounds, tables_closed_at=closed), actor=HJ)
    assert "appeal_tables_closed" in _refused(
        lambda: svc.appeals.file(cup.tid, _appeal(), actor=PLAYER, now=closed + timedelta(minutes=1)))
    svc.appeals.file(cup.tid, _appeal(), actor=PLAYER, now=closed - timedelta(minutes=1))


def test_fsm_8_9_5_no_appeal_about_0_1(cup: Cup) -> None:
    codes = _refused(lambda: cup.svc.appeals.file(cup.tid, _appeal(awarded="0.2", claimed="0.3"),
                                          actor=PLAYER, now=_soon(cup)))
    assert codes == ["appeal_difference"]


def test_fsm_8_9_6_three_appeals_of_a_positive_extra_withdrawn_ones_count(cup: Cup) -> None:
    svc = cup.svc
    first = svc.appeals.file(cup.tid, _appeal("g1"), actor=PLAYER, now=_soon(cup))
    svc.appeals.withdraw(cup.tid, first.id, actor=PLAYER, now=_soon(cup, 11))
    svc.appeals.file(cup.tid, _appeal("g1"), actor=PLAYER, now=_soon(cup, 12))
    svc.appeals.file(cup.tid, _appeal("g2"), actor=PLAYER, now=_soon(cup, 13))
    assert _refused(lambda: svc.appeals.file(cup.tid, _appeal("g3"), actor=PLAYER, now=_soon(cup, 14))) \
        == ["appeal_limit"]
    # a penalty has its own three; another player his own
    svc.appeals.file(cup.tid, _appeal("g3", Subject.PENALTY, "-0.5", "0"), actor=PLAYER, now=_soon(cup, 15))
    svc.appeals.file(cup.tid, _appeal("g3", player="p4"), actor=OTHER, now=_soon(cup, 16))


def test_same_case_open_twice_is_refused(cup: Cup) -> None:
    svc = cup.svc
    svc.appeals.file(cup.tid, _appeal(), actor=PLAYER, now=_soon(cup))
    assert _refused(lambda: svc.appeals.file(cup.tid, _appeal(), actor=PLAYER, now=_soon(cup, 1))) == [
        "case_open_twice"]


def test_a_player_files_only_his_own(cup: Cup) -> None:
    with pytest.raises(PermissionDenied):
        cup.svc.appeals.file(cup.tid, _appeal(player="p4"), actor=PLAYER, now=_soon(cup))
    with pytest.raises(PermissionDenied):
        cup.svc.appeals.file(cup.tid, _appeal(), actor=VIEWER_NAME, now=_soon(cup))
    # the head judge may write down a player's appeal for him
    assert cup.svc.appeals.file(cup.tid, _appeal(), actor=HJ, now=_soon(cup)).case.filing.player == "p3"


def test_fiim_8_9_1_protest_within_10_minutes_after_the_game(fiim_cup: Cup) -> None:
    svc, tid = fiim_cup.svc, fiim_cup.tid
    ended = fiim_cup.published + timedelta(hours=1)
    svc.appeals.set_game_end(tid, "g1", ended, actor=JUDGE)
    assert svc.appeals.game_times(tid, "g1").ended == ended
    late = _refused(lambda: svc.appeals.file(tid, _protest(), actor=PLAYER,
                                             now=ended + timedelta(minutes=10, seconds=1)))
    assert late == ["protest_too_late"]
    assert svc.appeals.file(tid, _protest(), actor=PLAYER, now=ended + timedelta(minutes=9)).id == "A1"
    with pytest.raises(PermissionDenied):  # only the game's judge or staff say when it ended
        svc.appeals.set_game_end(tid, "g1", ended, actor=PLAYER)


def test_fiim_8_9_no_appeal_of_an_individual_score(fiim_cup: Cup) -> None:
    codes = _refused(lambda: fiim_cup.svc.appeals.file(fiim_cup.tid, _appeal(), actor=PLAYER,
                                               now=_soon(fiim_cup)))
    assert codes == ["no_score_appeals"]


# --- the thread -------------------------------------------------------------------------


def test_fsm_8_9_3_thread_of_the_player_the_judge_and_the_head_judge(cup: Cup) -> None:
    svc = cup.svc
    case = svc.appeals.file(cup.tid, _appeal(), actor=PLAYER, now=_soon(cup))
    svc.appeals.add_message(cup.tid, case.id, "I asked for 0.4", actor=PLAYER, now=_soon(cup, 1))
    svc.appeals.add_message(cup.tid, case.id, "I gave 0", actor=JUDGE, now=_soon(cup, 2))
    view = svc.appeals.add_message(cup.tid, case.id, "Noted", actor=HJ, now=_soon(cup, 3))
    assert [(m.role.value, m.author) for m in view.case.messages] == [
        ("player", "p3"), ("judge", JUDGE), ("head_judge", HJ)]
    for outsider in (OTHER, VIEWER_NAME):
        with pytest.raises(PermissionDenied):
            svc.appeals.add_message(cup.tid, case.id, "me too", actor=outsider)
        with pytest.raises(PermissionDenied):
            svc.appeals.case(cup.tid, case.id, actor=outsider)
    assert [v.id for v in svc.appeals.cases(cup.tid, actor=JUDGE)] == ["A1"]
    assert svc.appeals.cases(cup.tid, actor=OTHER) == []
    with pytest.raises(PermissionDenied):  # only the player withdraws
        svc.appeals.withdraw(cup.tid, case.id, actor=HJ)
    svc.appeals.withdraw(cup.tid, case.id, actor=PLAYER, now=_soon(cup, 4))
    assert _refused(lambda: svc.appeals.add_message(cup.tid, case.id, "late", actor=HJ)) == ["case_closed"]


# --- decisions --------------------------------------------------------------------------


def test_fsm_8_9_decision_changes_the_protocol_and_the_standings_with_a_trace(cup: Cup) -> None:
    svc = cup.svc
    before = _total(cup, "p3")
    case = svc.appeals.file(cup.tid, _appeal(), actor=PLAYER, now=_soon(cup))
    with pytest.raises(PermissionDenied):  # the game's judge does not decide
        svc.appeals.decide(cup.tid, case.id, actor=JUDGE, outcome=Outcome.REJECTED, reason="-")
    with pytest.raises(PermissionDenied):  # nor the organizer who is not a head judge
        svc.appeals.decide(cup.tid, case.id, actor=ORG, outcome=Outcome.REJECTED, reason="-")
    view, effect = svc.appeals.decide(cup.tid, case.id, actor=HJ, outcome=Outcome.ACCEPTED,
                              reason="the move was the best",
                              change=Change(scores={3: SeatScores(extra=Decimal("0.4"))}),
                              now=_soon(cup, 20))
    assert view.case.status is Status.DECIDED and view.revision == 2
    assert [c.message("ru") for c in effect.changes] == ["место 3: доп. балл — → +0,4"]
    assert _total(cup, "p3") == before + Decimal("0.4")
    rev = svc.games.revisions(cup.tid, "g1")[-1]
    assert (rev.number, rev.state, rev.author) == (2, "confirmed", HJ)
    assert rev.reason is not None and rev.reason.startswith("A1 (FSM 8.9)")
    assert rev.changes == {"scores": [None, {"3": {"extra": Decimal("0.4")}}]}
    audit = [(e[1], e[2], e[3]) for e in svc.tournaments.audit_log(cup.tid, actor=ORG)
             if e[2].startswith("appeal")]
    assert [a[:2] for a in audit] == [(PLAYER, "appeal_file"), (HJ, "appeal_decide")]
    assert audit[1][2]["revision"] == 2 and audit[1][2]["changes"] == ["seat 3: extra — → +0.4"]
    with pytest.raises(DecidedMeanwhile) as again:  # decided once: 409, naming who decided
        svc.appeals.decide(cup.tid, case.id, actor=HJ, outcome=Outcome.REJECTED, reason="again")
    assert again.value.status == 409 and again.value.author == HJ


def test_fsm_8_9_2_decision_after_the_last_round_started_is_warned(cup: Cup) -> None:
    svc = cup.svc
    case = svc.appeals.file(cup.tid, _appeal(), actor=PLAYER, now=_soon(cup))
    assert case.decide_by == cup.published + timedelta(days=1)
    view, effect = svc.appeals.decide(cup.tid, case.id, actor=HJ, outcome=Outcome.REJECTED,
                              reason="late", now=cup.published + timedelta(days=1, minutes=5))
    assert [w.code for w in effect.warnings] == ["decided_after_last_round"]
    assert view.warnings[0]["clause"] == "FSM 8.9.2"


def test_fsm_8_8_5_a_decided_protest_is_final(cup: Cup) -> None:
    svc = cup.svc
    case = svc.appeals.file(cup.tid, _protest(), actor=PLAYER, now=_soon(cup))
    svc.appeals.decide(cup.tid, case.id, actor=HJ, outcome=Outcome.REJECTED, reason="the vote stands",
               now=_soon(cup, 5))
    assert _refused(lambda: svc.appeals.file(cup.tid, _protest(player="p4"), actor=OTHER,
                                     now=_soon(cup, 6))) == ["protest_already_decided"]


def test_fsm_8_10_1_changed_result_for_a_non_game_advantage_needs_the_committee(cup: Cup) -> None:
    svc = cup.svc
    case = svc.appeals.file(cup.tid, _protest(), actor=PLAYER, now=_soon(cup))
    change = Change(result="black")
    assert _refused(lambda: svc.appeals.decide(cup.tid, case.id, actor=HJ, outcome=Outcome.ACCEPTED,
                                       reason="collusion", change=change,
                                       non_game_advantage=True)) == ["needs_committee"]
    before = _total(cup, "p4")
    view, _ = svc.appeals.decide(cup.tid, case.id, actor=HJ, outcome=Outcome.ACCEPTED,
                         reason="collusion", change=change, non_game_advantage=True,
                         committee_agreed=True)
    assert svc.games.confirmed(cup.tid, "g1").game_struct().result == "black"  # type: ignore[union-attr]
    assert _total(cup, "p4") > before  # p4 is black in the default table
    assert view.change_words("ru") == ["результат: победа красных → победа чёрных"]


def test_fsm_8_10_1_replay_takes_the_game_out_until_replayed(cup: Cup) -> None:
    svc = cup.svc
    games_before = next(r for r in svc.standings.compute(cup.tid).rows if r.player == "p3").games
    case = svc.appeals.file(cup.tid, _protest(), actor=PLAYER, now=_soon(cup))
    _, effect = svc.appeals.decide(cup.tid, case.id, actor=HJ, outcome=Outcome.REPLAY,
                           reason="the table was broken", now=_soon(cup, 5))
    assert effect.replay
    assert next(r for r in svc.standings.compute(cup.tid).rows if r.player == "p3").games == games_before - 1
    head = svc.games.head(cup.tid, "g1")
    assert head.state == "draft" and head.reason is not None and head.reason.startswith("replay: A1")
    replayed = head.game_struct()
    assert replayed.result == "" and [s.player for s in replayed.seats][2] == "p3"
    old = svc.games.revisions(cup.tid, "g1")[0].game_struct()
    info = svc.protocols.save_draft(cup.tid, "g1", old, actor=HJ, base_revision=head.number)
    info = svc.protocols.submit(cup.tid, "g1", actor=HJ, base_revision=info.number)
    svc.protocols.confirm(cup.tid, "g1", actor=ORG, base_revision=info.number)
    assert next(r for r in svc.standings.compute(cup.tid).rows if r.player == "p3").games == games_before


def test_decision_making_an_invalid_protocol_is_refused_like_any_protocol(cup: Cup) -> None:
    svc = cup.svc
    case = svc.appeals.file(cup.tid, _appeal(), actor=PLAYER, now=_soon(cup))
    with pytest.raises(ProtocolRefused):
        svc.appeals.decide(cup.tid, case.id, actor=HJ, outcome=Outcome.ACCEPTED, reason="x",
                   change=Change(scores={3: SeatScores(extra=Decimal("0.123"))}))
    assert svc.appeals.case(cup.tid, case.id, actor=HJ).case.status is Status.OPEN
    assert len(svc.games.revisions(cup.tid, "g1")) == 1


def test_schedule_from_actual_starts_when_none_is_stored(cup: Cup) -> None:
    svc = cup.svc
    assert svc.appeals.schedule_warnings(cup.tid, actor=HJ) == []
    sched = svc.appeals.schedule(cup.tid, actor=HJ)
    assert sched.find("qual", 1) is not None and sched.find("final", 1) is not None


# --- PostgreSQL -----------------------------------------------------------------------------


@pytest.fixture
def pg_cup(pg_url: str) -> Iterator[Cup]:
    engine = make_engine(pg_url)
    upgrade(engine)
    yield make_cup(engine)
    engine.dispose()


def test_postgresql_file_thread_decide_standings(pg_cup: Cup) -> None:
    cup = pg_cup
    svc = cup.svc
    before = _total(cup, "p3")
    case = svc.appeals.file(cup.tid, _appeal(), actor=PLAYER, now=_soon(cup))
    svc.appeals.add_message(cup.tid, case.id, "please", actor=PLAYER, now=_soon(cup, 1))
    view, _ = svc.appeals.decide(cup.tid, case.id, actor=HJ, outcome=Outcome.ACCEPTED, reason="ok",
                         change=Change(scores={3: SeatScores(extra=Decimal("0.4"))}),
                         now=_soon(cup, 2))
    assert view.revision == 2 and _total(cup, "p3") == before + Decimal("0.4")
    assert _refused(lambda: svc.appeals.file(cup.tid, _appeal(awarded="0.2", claimed="0.3"),
                                     actor=PLAYER, now=_soon(cup, 3))) == ["appeal_difference"]
