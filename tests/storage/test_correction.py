"""The head judge's correction of a submitted protocol as a step of its own, and four eyes
(`confirmer_must_differ`) over protocols and cases, on SQLite and PostgreSQL.

A correction keeps the protocol submitted (in «Ждут подтверждения»), marks the revision
and the protocol with who, what and why, and survives confirmation, a return and the
judge's later saves; with four eyes on, neither the submitter nor the corrector confirms,
and nobody decides a case filed through a sign-in code he issued."""

from __future__ import annotations

from decimal import Decimal

import msgspec
import pytest

from mafiatab.domain.appeals import Filing, Kind, Outcome
from mafiatab.domain.corrections import correction_words, seat_changes
from mafiatab.domain.problems import ProtocolRefused
from mafiatab.domain.protocol import Game, SeatScores
from mafiatab.formats.tournament_json import dumps_tournament, read_tournament
from mafiatab.sample import sample_tournament
from mafiatab.services.facade import Services
from mafiatab.services.tournaments import PermissionDenied, ServiceError, StateError
from mafiatab.storage.models import CONFIRMED, HEAD_JUDGE, JUDGE, RETURNED, SUBMITTED

ORG, HJ, HJ2, J1 = "org", "head", "head2", "judge1"


def _setup(service: Services, *, four_eyes: bool = False) -> tuple[int, Game]:
    sample = sample_tournament("fsm", 20, 3, seed=11)
    tid = service.tournaments.create_tournament("Cup", "fsm", actor=ORG, stages=sample.stages)
    service.tournaments.register_players(tid, sample.players, actor=ORG)
    for user, role in ((HJ, HEAD_JUDGE), (HJ2, HEAD_JUDGE), (J1, JUDGE)):
        service.access.grant_role(tid, user, role, actor=ORG)
    if four_eyes:
        service.tournaments.set_options(tid, actor=ORG, confirmer_must_differ=True)
    g = sample.games[0]
    service.games.add_game(tid, g, actor=HJ)
    service.games.assign_judge(tid, g.id, J1, actor=HJ)
    return tid, g


def _winner(g: Game) -> int:
    return next(s.seat for s in g.seats if (s.role in ("red", "sheriff")) == (g.result == "red")
                and s.seat != g.first_killed)


def _extra(g: Game, seat: int, value: str, why: str | None = None) -> Game:
    old = g.scores.get(seat, SeatScores())
    expl = {**g.explanations, seat: why} if why else g.explanations
    return msgspec.structs.replace(
        g, scores={**g.scores, seat: msgspec.structs.replace(old, extra=Decimal(value))},
        explanations=expl)


def _submitted(service: Services, tid: int, g: Game, seat: int) -> int:
    """The judge's protocol with +0,8 and his explanation, submitted; its revision."""
    judged = _extra(g, seat, "0.8", "+0,8 за точную версию")
    return service.protocols.submit(tid, g.id, actor=J1, base_revision=1, game=judged).number


def test_correction_stays_in_the_queue_marked_with_who_what_why(service: Services) -> None:
    tid, g = _setup(service)
    seat = _winner(g)
    base = _submitted(service, tid, g, seat)
    judged = service.games.head(tid, g.id).game_struct()
    info = service.protocols.correct(tid, g.id, _extra(judged, seat, "0.4"), actor=HJ,
                                     reason="версия не точная, а частичная", base_revision=base)
    assert (info.state, info.author, info.reason) == (SUBMITTED, HJ,
                                                      "версия не точная, а частичная")
    # still in «Ждут подтверждения», not the head judge's draft
    assert service.games.status(tid, g.id).state == SUBMITTED
    head = service.games.head(tid, g.id).game_struct()
    assert head.scores[seat].extra == Decimal("0.4")
    (mark,) = head.corrections
    assert mark.by == HJ and mark.reason == "версия не точная, а частичная"
    assert [(c.path, c.old, c.new) for c in mark.changes] == [
        (f"scores.{seat}.extra", "0.8", "0.4")]
    words = correction_words(mark, "ru")
    assert words.startswith(f"исправлено главным судьёй {HJ}: место {seat}: доп. балл: +0,8 → +0,4")
    assert "Причина: версия не точная, а частичная" in words
    # the judge's explanation of that seat is never alone beside the changed points
    assert head.explanations[seat] == "+0,8 за точную версию"
    assert seat_changes(head.corrections, seat, "en")[0].startswith(
        f"corrected by the head judge {HJ}: seat {seat}: extra points: +0.8 → +0.4")
    audit = [a for _at, _u, a, _d in service.tournaments.audit_log(tid, actor=ORG)]
    assert audit[-1] == "correct"
    # confirmed, the mark stays, and the export carries it
    assert service.protocols.confirm(tid, g.id, actor=HJ2).state == CONFIRMED
    exported = service.tournaments.export(tid).games[0]
    assert exported.corrections == head.corrections


def test_a_correction_refused_changes_nothing(service: Services) -> None:
    tid, g = _setup(service)
    seat = _winner(g)
    with pytest.raises(StateError):  # a draft is not the head judge's to correct
        service.protocols.correct(tid, g.id, _extra(g, seat, "0.3"), actor=HJ, reason="x",
                                  base_revision=1)
    base = _submitted(service, tid, g, seat)
    judged = service.games.head(tid, g.id).game_struct()
    with pytest.raises(ServiceError) as blank:
        service.protocols.correct(tid, g.id, _extra(judged, seat, "0.4"), actor=HJ,
                                  reason="   ", base_revision=base)
    assert "причину исправления" in blank.value.message("ru")
    with pytest.raises(ServiceError) as same:
        service.protocols.correct(tid, g.id, judged, actor=HJ, reason="why", base_revision=base)
    assert "changes nothing" in same.value.message("en")
    with pytest.raises(PermissionDenied):  # the table judge corrects nothing
        service.protocols.correct(tid, g.id, _extra(judged, seat, "0.4"), actor=J1,
                                  reason="mine", base_revision=base)
    with pytest.raises(ProtocolRefused):  # a correction breaking a rule: every problem
        service.protocols.correct(tid, g.id, msgspec.structs.replace(judged, result="blue"),
                                  actor=HJ, reason="typo", base_revision=base)
    # a plain save over a submitted protocol would hide the change: refused, in words
    with pytest.raises(StateError) as hidden:
        service.protocols.save_draft(tid, g.id, _extra(judged, seat, "0.4"), actor=HJ,
                                     base_revision=base)
    assert "исправлением с причиной" in hidden.value.message("ru")
    with pytest.raises(StateError):  # nor a submit of his own protocol over the judge's
        service.protocols.submit(tid, g.id, actor=HJ, base_revision=base,
                                 game=_extra(judged, seat, "0.4"))
    head = service.games.head(tid, g.id)
    assert (head.number, head.state) == (base, SUBMITTED)
    assert head.game_struct().corrections == []


def test_marks_survive_a_return_and_the_judges_saves(service: Services) -> None:
    tid, g = _setup(service)
    seat = _winner(g)
    base = _submitted(service, tid, g, seat)
    judged = service.games.head(tid, g.id).game_struct()
    info = service.protocols.correct(tid, g.id, _extra(judged, seat, "0.4"), actor=HJ,
                                     reason="partial version", base_revision=base)
    back = service.protocols.send_back(tid, g.id, actor=HJ, reason="sign it again")
    assert back.state == RETURNED
    # the judge's form knows nothing of the marks: his save keeps them all the same
    plain = msgspec.structs.replace(service.games.head(tid, g.id).game_struct(), corrections=[])
    saved = service.protocols.save_draft(tid, g.id, plain, actor=J1, base_revision=back.number)
    assert len(saved.game_struct().corrections) == 1
    assert info.number < saved.number


def test_four_eyes_the_corrector_does_not_confirm_his_correction(service: Services) -> None:
    tid, g = _setup(service, four_eyes=True)
    seat = _winner(g)
    base = _submitted(service, tid, g, seat)
    judged = service.games.head(tid, g.id).game_struct()
    service.protocols.correct(tid, g.id, _extra(judged, seat, "0.4"), actor=HJ,
                              reason="partial version", base_revision=base)
    with pytest.raises(PermissionDenied) as denied:
        service.protocols.confirm(tid, g.id, actor=HJ)
    assert f"протокол исправил(а) {HJ}" in denied.value.message("ru")
    assert "four-eyes rule" in denied.value.message("en")
    assert service.games.status(tid, g.id).state == SUBMITTED
    assert service.protocols.confirm(tid, g.id, actor=ORG).state == CONFIRMED


def test_without_four_eyes_the_corrector_may_confirm(service: Services) -> None:
    tid, g = _setup(service)
    seat = _winner(g)
    base = _submitted(service, tid, g, seat)
    judged = service.games.head(tid, g.id).game_struct()
    service.protocols.correct(tid, g.id, _extra(judged, seat, "0.4"), actor=HJ,
                              reason="partial version", base_revision=base)
    assert service.protocols.confirm(tid, g.id, actor=HJ).state == CONFIRMED


def test_four_eyes_is_audited_both_ways(service: Services) -> None:
    tid, _g = _setup(service)
    assert not service.tournaments.four_eyes(tid, actor=ORG)
    with pytest.raises(PermissionDenied):  # the head judge does not switch his own check off
        service.tournaments.set_options(tid, actor=HJ, confirmer_must_differ=True)
    service.tournaments.set_options(tid, actor=ORG, confirmer_must_differ=True)
    assert service.tournaments.four_eyes(tid, actor=ORG)
    service.tournaments.set_options(tid, actor=ORG, confirmer_must_differ=False)
    actions = [a for _at, _u, a, _d in service.tournaments.audit_log(tid, actor=ORG)]
    assert actions[-2:] == ["four_eyes_on", "four_eyes_off"]


def test_four_eyes_no_decision_on_a_case_filed_through_a_code_he_issued(
        service: Services) -> None:
    tid, g = _setup(service, four_eyes=True)
    base = _submitted(service, tid, g, _winner(g))
    service.protocols.confirm(tid, g.id, actor=HJ2, base_revision=base)
    player = g.seats[2].player
    account, _code = service.appeals.player_code(tid, player, actor=HJ)
    case = service.appeals.file(tid, Filing(kind=Kind.PROTEST, player=player, game=g.id,
                                            text="filed with the code the head judge made"),
                                actor=account)
    with pytest.raises(PermissionDenied) as denied:
        service.appeals.decide(tid, case.id, actor=HJ, outcome=Outcome.REJECTED,
                               reason="decided by the one who holds the code")
    assert "код входа которой выдал(а) head" in denied.value.message("ru")
    assert "four-eyes" in denied.value.message("en")
    assert service.appeals.case(tid, case.id, actor=HJ).case.status.value == "open"
    view, _effect = service.appeals.decide(tid, case.id, actor=HJ2, outcome=Outcome.REJECTED,
                                           reason="another pair of eyes")
    assert view.case.status.value != "open"


def test_format_1_round_trips_the_correction_marks(service: Services) -> None:
    tid, g = _setup(service)
    seat = _winner(g)
    base = _submitted(service, tid, g, seat)
    judged = service.games.head(tid, g.id).game_struct()
    service.protocols.correct(tid, g.id, _extra(judged, seat, "0.4"), actor=HJ,
                              reason="partial version", base_revision=base)
    service.protocols.confirm(tid, g.id, actor=HJ2)
    exported = service.tournaments.export(tid)
    text = dumps_tournament(exported)
    assert '"corrections"' in text
    again, problems = read_tournament(text.encode())
    assert again is not None and not [p for p in problems if p.code == "unknown_field"]
    assert again.games[0].corrections == exported.games[0].corrections
    tid2 = service.tournaments.import_file(text.encode(), actor=ORG)
    assert service.tournaments.export(tid2).games[0].corrections == exported.games[0].corrections


def test_a_seats_first_extra_reads_field_by_field(service: Services) -> None:
    tid, g = _setup(service)
    base = _submitted(service, tid, g, _winner(g))
    judged = service.games.head(tid, g.id).game_struct()
    bare = next(s.seat for s in judged.seats
                if s.seat not in judged.scores and s.seat != judged.first_killed)
    service.protocols.correct(tid, g.id, _extra(judged, bare, "0.2"), actor=HJ,
                              reason="a good speech missed", base_revision=base)
    (mark,) = service.games.head(tid, g.id).game_struct().corrections
    assert [(c.path, c.old, c.new) for c in mark.changes] == [
        (f"scores.{bare}.extra", None, "0.2")]
    assert f"место {bare}: доп. балл: — → +0,2" in correction_words(mark, "ru")
