"""Polemica's game records into format 1: records built in Polemica's shape
(tests/importers/polemica_records.py), converted, loaded by the same checks as any file,
and the report read line by line."""

from __future__ import annotations

import copy
from decimal import Decimal
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mafiatab.domain.protocol import Game, Tournament
from mafiatab.formats.crosswalk import Crosswalk, crosswalk_of
from mafiatab.formats.import_report import MAPPED, NOT_MAPPED, ImportReport
from mafiatab.formats.polemica import PolemicaError, convert, records_of
from mafiatab.formats.tournament_json import dumps_tournament
from mafiatab.services.tournament_file import LoadedTournament, load_tournament
from tests.importers import polemica_records as pr


def _convert(records: list[dict[str, Any]], rules: str = "fiim2018", **kw: Any
             ) -> tuple[Tournament, ImportReport, LoadedTournament]:
    t, report = convert(records, rules=rules, name="Polemica cup", **kw)
    loaded = load_tournament(dumps_tournament(t))  # what `mafiatab check` runs
    return t, report, loaded


def _game(loaded: LoadedTournament, gid: str) -> Game:
    return next(g for g in loaded.tournament.games if g.id == gid)


def _lines(report: ImportReport, kind: str, where: str) -> list[str]:
    return [ln.en for ln in report.lines if ln.kind == kind and ln.where == where]


def test_red_win_becomes_a_log_with_the_facts_the_rules_derive() -> None:
    t, report, loaded = _convert([pr.red_win()])
    raw = t.games[0]
    assert raw.log is not None and raw.log[0]["type"] == "deal"
    kinds = [e["type"] for e in raw.log]
    assert kinds.count("speech") == 10 + 8 + 6 and kinds.count("vote") == 2
    assert {"type": "defence", "seat": 5} in raw.log
    assert {"type": "foul", "seat": 8, "time": "31:05"} in raw.log
    g = _game(loaded, "p328001")
    assert (g.result, g.first_killed, g.best_move, g.day1_vote_left) == ("red", 1, [3, 9, 4], 1)
    assert g.scores[7].extra == Decimal("0.3")
    assert g.date == "2026-03-01" and g.judge == "Судья" and g.round == 1
    assert any("a log, events:" in ln for ln in _lines(report, MAPPED, "game 328001"))
    assert any("bonuses 0.3 -> extra" in ln for ln in _lines(report, MAPPED, "game 328001"))


def test_black_win_with_the_sheriff_first_killed_and_his_best_move() -> None:
    _, _, loaded = _convert([pr.black_win()])
    g = _game(loaded, "p328002")
    assert (g.result, g.first_killed, g.best_move) == ("black", 10, [1, 2])
    assert g.role_of(10) == "sheriff" and g.log is not None


def test_removals_by_disqualification_and_a_fourth_foul_give_their_penalties() -> None:
    t, report, loaded = _convert([pr.removals()])
    log = t.games[0].log
    assert log is not None
    assert {"type": "disqualify", "seat": 7, "note": "Polemica: disqual"} in log
    assert [e for e in log if e["type"] == "foul"] == [{"type": "foul", "seat": 4}] * 4
    # FIIM 7.5: the third foul (during seat 3's speech on day 2) costs seat 4 that speech
    day2 = log[log.index({"type": "best_move", "seat": 1, "seats": [6, 8]}) + 1:]
    speakers = [e["seat"] for e in day2[:4] if e["type"] == "speech"]
    assert speakers == [2, 3, 5]
    g = _game(loaded, "p328003")
    assert g.result == "black"
    kinds = {seat: [p.kind for p in sc.penalties] for seat, sc in g.scores.items()}
    assert kinds == {7: ["disqualification"], 4: ["disqualification"]}
    assert all(p.note and p.note.startswith("from the log") for sc in g.scores.values()
               for p in sc.penalties)
    assert not _lines(report, NOT_MAPPED, "game 328003")


def test_a_record_without_the_course_keeps_the_protocol_facts_and_says_what_is_lost() -> None:
    t, report, loaded = _convert([pr.facts_only()])
    g = _game(loaded, "p328004")
    assert g.log is None and g.first_killed is None and g.result == "red"
    assert g.scores[1].extra == Decimal("0.4") and 3 not in g.scores
    lost = " | ".join(_lines(report, NOT_MAPPED, "game 328004"))
    for words in ("no course of the game", "negative bonus -0.2", "technical foul",
                  "award 0.25"):
        assert words in lost
    assert any("zeroVoting = respeech" in ln.en for ln in report.of(NOT_MAPPED)
               if ln.where == "file")


def test_fsm_keeps_a_negative_bonus_as_a_negative_extra() -> None:
    _, report, loaded = _convert([pr.facts_only()], rules="fsm")
    g = _game(loaded, "p328004")
    assert g.scores[3].extra == Decimal("-0.2")
    assert not any("negative bonus" in ln for ln in _lines(report, NOT_MAPPED, "game 328004"))


def test_a_course_the_rules_refuse_falls_back_to_the_facts_with_the_rule_named() -> None:
    _, report, loaded = _convert([pr.not_replayable()])
    g = _game(loaded, "p328005")
    assert g.log is None and (g.first_killed, g.best_move) == (6, [1, 2, 3])
    lost = _lines(report, NOT_MAPPED, "game 328005")
    assert len(lost) == 1 and "cannot be replayed" in lost[0]
    assert "not at the table votes" in lost[0]


def test_an_unfinished_game_is_left_out_with_the_reason() -> None:
    t, report, _ = _convert([pr.red_win(), pr.unfinished()])
    assert [g.id for g in t.games] == ["p328001"]
    assert _lines(report, NOT_MAPPED, "game 328006") == ["game left out: no result (not finished?)"]


def test_all_records_into_one_tournament_pass_the_checks_under_both_rules() -> None:
    for rules in ("fiim2018", "fsm"):
        t, report, loaded = _convert(pr.all_records(), rules=rules)
        assert [g.id for g in loaded.tournament.games] == [
            "p328001", "p328002", "p328003", "p328004", "p328005"]
        assert [g.round for g in t.games] == [1, 2, 3, 4, 5]
        assert report.counts()[MAPPED] > 0
        assert not [w for w in loaded.warnings if w.code == "unknown_field"]


def test_one_player_one_id_and_the_crosswalk_brings_him_back_next_time() -> None:
    t, _, _ = _convert(pr.all_records())
    cw = crosswalk_of(t)
    assert cw.lookup("polemica", "101") == "альфа"
    assert len({p.id for p in t.players}) == len(t.players) == 12
    seats_of_101 = {s.player for g in t.games for s in g.seats
                    if s.player == cw.lookup("polemica", "101")}
    assert seats_of_101 == {"альфа"}
    # a season later the player calls himself differently: the crosswalk still knows him
    later = pr.black_win()
    later["id"] = 999001
    for p in later["players"]:
        if p["player"]["id"] == 102:
            p["username"] = "Бета-2027"
    t2, report2, _ = _convert([later], crosswalk=cw, known=t.players)
    assert {s.player for s in t2.games[0].seats} >= {"бета"}
    beta = next(p for p in t2.players if p.id == "бета")
    assert beta.nickname == "Бета"
    assert "by the crosswalk" in _lines(report2, MAPPED, "player бета")


def test_a_crosswalk_naming_a_new_id_is_used() -> None:
    cw = Crosswalk({"polemica": {"105": "eps-official"}})
    t, _, _ = _convert([pr.red_win()], crosswalk=cw)
    assert "eps-official" in {s.player for s in t.games[0].seats}


def test_records_of_accepts_a_game_a_list_or_a_competition_listing() -> None:
    g = pr.red_win()
    assert records_of(g) == [g] and records_of([g]) == [g] and records_of({"games": [g]}) == [g]
    with pytest.raises(PolemicaError):
        records_of("not a game")


@pytest.mark.parametrize("damage", [
    lambda g: g.update(players="nobody"),
    lambda g: g["players"].pop(),
    lambda g: g["players"][0].update(role=7),
    lambda g: g["players"][0].update(position=2),
    lambda g: g.update(result=5),
])
def test_a_broken_record_is_left_out_with_a_report_never_a_crash(damage: Any) -> None:
    g = pr.red_win()
    damage(g)
    t, report, _ = _convert([g, pr.black_win()])
    assert [x.id for x in t.games] == ["p328002"]
    assert any(ln.startswith("game left out") for ln in _lines(report, NOT_MAPPED,
                                                                  "game 328001"))


_EVENTS = ("votes", "shots", "checks")


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from([pr.red_win, pr.black_win, pr.removals, pr.not_replayable]),
       st.lists(st.tuples(st.sampled_from(_EVENTS), st.integers(0, 40)), max_size=4))
def test_whatever_is_missing_from_a_record_the_output_passes_the_checks(
        make: Any, drops: list[tuple[str, int]]) -> None:
    """Property: records with events dropped (a lost vote, a shot, a check) still give a
    file the rules accept; the game is kept, by its log or by its facts, and a game whose
    log was dropped says so in the report."""
    g = make()
    for key, i in drops:
        if g[key]:
            g[key].pop(i % len(g[key]))
    t, report, loaded = _convert([copy.deepcopy(g)])
    assert len(loaded.tournament.games) == len(t.games) == 1
    if t.games[0].log is None and (g["votes"] or g["shots"] or g["checks"]):
        assert any("cannot be replayed" in ln or "the course gives" in ln
                   for ln in _lines(report, NOT_MAPPED, f"game {g['id']}"))


def test_a_user_id_as_a_number_and_the_crosswalk_stored_in_the_database(tmp_path: Any) -> None:
    from mafiatab.services.facade import Services
    from mafiatab.storage.engine import make_engine, upgrade

    g = pr.red_win()
    g["players"][0]["player"] = 101  # Polemica gives the user as an id or as an object
    from mafiatab.domain.protocol import Player

    cw = Crosswalk({"polemica": {"555": "somebody-else"}, "mafiaratings": {"9": "alpha"}})
    t, report, loaded = _convert([g], crosswalk=cw,
                                 known=[Player(id="alpha", nickname="Альфа")])
    kept = crosswalk_of(t).systems
    assert kept["mafiaratings"] == {"9": "alpha"}  # the people of this tournament only
    assert sorted(kept["polemica"], key=int) == [str(u) for u in range(101, 111)]
    assert kept["polemica"]["101"] == "alpha"
    assert "by a known nickname" in _lines(report, MAPPED, "player alpha")
    engine = make_engine(str(tmp_path / "cw.sqlite"))
    upgrade(engine)
    svc = Services(engine)
    tid = svc.tournaments.import_loaded(loaded)
    assert crosswalk_of(svc.tournaments.export(tid)) == crosswalk_of(t)
    engine.dispose()
