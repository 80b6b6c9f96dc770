"""The seating desk with rules, through its one service call each: rules are saved with the
tournament and audited; a server-wide pair binds every tournament; a hard rule that cannot
be met is refused with what to change; publishing never gives a judge a table with a
player he declared a conflict with; a swap shows every figure before and after, is
refused when it breaks a hard rule or when the round has started, and is audited."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from sqlalchemy import Engine, select

from mafiatab.domain import protocol as model
from mafiatab.services.facade import Services
from mafiatab.services.seating_rules import Conflict, PairPolicy, RulesRefused, TournamentRules
from mafiatab.services.seating_web import DONE, SeatingDesk, SeatingParams, SeatingRefused
from mafiatab.storage import models as db
from mafiatab.storage.engine import make_engine, upgrade
from mafiatab.storage.models import JUDGE

STAGE = model.Stage(id="qual", name="Отбор", kind="qualification")
QUICK = {"iterations": 20_000, "time_limit": 20.0}


@pytest.fixture(scope="module")
def engine(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Engine]:
    eng = make_engine(f"sqlite:///{tmp_path_factory.mktemp('rules')}/rules.sqlite")
    upgrade(eng)
    yield eng
    eng.dispose()


@pytest.fixture(scope="module")
def world(engine: Engine) -> Iterator[tuple[Services, SeatingDesk, int]]:
    svc = Services(engine)
    svc.accounts.add_account("org", "organizer-pass-1", actor="org")
    tid = svc.tournaments.new_tournament("Правила", "fsm", actor="org", stages=[STAGE])
    svc.tournaments.register_players(tid, [
        model.Player(id=f"p{i:02d}", nickname=f"Игрок {i}",
                     club="Полночь" if i <= 3 else None) for i in range(1, 21)], actor="org")
    svc.access.grant(tid, "judge-a", JUDGE, actor="org", password="judge-pass-123")
    desk = SeatingDesk(svc)
    desk.start_runner()
    yield svc, desk, tid
    desk.stop_runner()


def _params(**kw: object) -> SeatingParams:
    base: dict[str, object] = {"stage": "qual", "games": 2, **QUICK}
    base.update(kw)
    return SeatingParams(**base)  # type: ignore[arg-type]


def test_clubs_are_off_by_default_and_a_hard_rule_that_cannot_hold_says_what_to_change(
        world: tuple[Services, SeatingDesk, int]) -> None:
    svc, desk, tid = world
    assert svc.seating_rules.rules(tid, actor="org").clubs == "off"
    with pytest.raises(SeatingRefused) as e:
        desk.build(tid, _params(rules=TournamentRules(clubs="hard")), actor="org")
    lines = e.value.lines("ru").splitlines()
    assert lines[0].startswith("У клуба «Полночь» 3 игрока, а в туре 2 стола")
    assert lines[1].startswith("Что изменить: для одноклубников выберите «по возможности»")
    assert "--" not in e.value.lines("ru")
    assert [p.code for p in e.value.problems] == ["seating_group_too_big", "desk_hint_club"]
    with pytest.raises(RulesRefused):
        desk.build(tid, _params(rules=TournamentRules(clubs="sometimes")), actor="org")


def test_rules_are_saved_audited_and_a_judges_conflict_keeps_his_table_free(
        world: tuple[Services, SeatingDesk, int]) -> None:
    svc, desk, tid = world
    rules = TournamentRules(clubs="soft", clubs_weight=3,
                            pairs=(PairPolicy("p04", "p05", "apart"),
                                   PairPolicy("p06", "p07", "welcome", 4)),
                            conflicts=(Conflict("judge-a", "p08"),))
    desk.start(tid, _params(rules=rules, table_judges={1: "judge-a"}), actor="org")
    job = desk.wait(tid, 120, actor="org")
    assert job.state == DONE, job.reason_text("ru")
    saved = svc.seating_rules.rules(tid, actor="org")
    assert (saved.clubs, saved.clubs_weight) == ("soft", 3)
    assert {(p.first, p.second, p.policy) for p in saved.pairs} == {
        ("p04", "p05", "apart"), ("p06", "p07", "welcome")}
    assert saved.conflicts == (Conflict("judge-a", "p08"),)
    with svc.store.read() as s:
        assert s.scalar(select(db.AuditEntry.id).where(
            db.AuditEntry.tournament_id == tid, db.AuditEntry.action == "seating_rules"))
    for rnd in job.rounds():
        ids = [[p.id for p in tb] for tb in rnd]
        assert "p08" not in ids[0]  # judge-a judges table 1
        assert not any({"p04", "p05"} <= set(tb) for tb in ids)
    assert job.metrics().hard_violations == 0
    figures = {f.key: f for f in job.figures("ru")}
    assert figures["hard"].value == "все соблюдены" and "," in figures["mean"].value
    assert "Σ m²" in figures["spread"].tip and "Σ" not in figures["spread"].label

    # publishing: the stage's judge by default; another conflict is refused in words
    codes = desk.publish(tid, 1, actor="org")
    assert svc.games.head(tid, codes[0]).protocol["judge"] == "judge-a"
    table2 = [p.id for p in job.rounds()[0][1]]
    svc.seating_rules.save(tid, TournamentRules(
        clubs="soft", clubs_weight=3, pairs=saved.pairs,
        conflicts=(*saved.conflicts, Conflict("judge-a", table2[0]))), actor="org")
    with pytest.raises(SeatingRefused) as e:
        desk.publish(tid, 1, actor="org", judges={2: "judge-a"})
    assert e.value.problems[0].code == "desk_judge_conflict"
    assert "поставьте к этому столу другого судью" in e.value.reason("ru")


def test_a_swap_shows_every_figure_refuses_a_broken_rule_and_is_audited(
        world: tuple[Services, SeatingDesk, int]) -> None:
    svc, desk, tid = world
    job = desk.require_job(tid, actor="org")
    r1 = [[p.id for p in tb] for tb in job.rounds()[0]]
    ruled = {"p04", "p05", "p06", "p07", "p08", *r1[1][:1]}
    a = next(p for p in r1[0] if p not in ruled)
    b = next(p for p in r1[1] if p not in ruled)
    before = svc.games.head(tid, desk.require_job(tid, actor="org").published[1][0])
    preview = desk.preview_swap(tid, 1, a, b, actor="org")
    assert len(preview.changes) >= 12 and preview.published
    assert {c.trend for c in preview.changes} <= {"better", "worse", "same", "changed"}
    assert svc.games.head(tid, before.game).number == before.number  # nothing changed
    # p08 to table 1 puts him before judge-a, who declared a conflict with him
    assert "p08" in r1[1]
    with pytest.raises(SeatingRefused) as e:
        desk.swap(tid, 1, "p08", a, actor="org")
    assert e.value.problems[0].code == "desk_swap_breaks"
    assert "за столом судьи, с которым у него конфликт — 1" in e.value.reason("ru")
    done = desk.swap(tid, 1, a, b, actor="org", lang="en")
    assert done.changes[0].label.startswith("The most one pair")
    after = [[p.id for p in tb] for tb in desk.require_job(tid, actor="org").rounds()[0]]
    assert a in after[1] and b in after[0]
    assert after[1].index(a) == r1[1].index(b)
    seats = svc.games.head(tid, before.game).protocol["seats"]
    assert b in [s["player"] for s in seats]
    with svc.store.read() as s:
        detail = s.scalar(select(db.AuditEntry.detail).where(
            db.AuditEntry.tournament_id == tid, db.AuditEntry.action == "seating_swap"))
    assert detail is not None and detail["players"] == [a, b]
    assert set(detail["before"]) == set(detail["after"])
    with pytest.raises(SeatingRefused):
        desk.swap(tid, 1, a, a, actor="org")
    # the command line calls the same function: a preview changes nothing
    from typer.testing import CliRunner

    from mafiatab.cli import app

    url = str(svc.engine.url)
    shown = CliRunner().invoke(app, ["day", "swap", str(tid), "1", a, b, "--as", "org",
                                     "--db", url, "--json"])
    assert shown.exit_code == 0, shown.output
    assert '"trend"' in shown.output and '"published": true' in shown.output
    assert [p.id for p in desk.require_job(tid, actor="org").rounds()[0][1]] == after[1]


def test_a_server_pair_binds_every_tournament_and_only_the_administrator_sets_it(
        world: tuple[Services, SeatingDesk, int]) -> None:
    svc, desk, tid = world
    with svc.store.read() as s:
        people = {code: pid for code, pid in s.execute(
            select(db.Participant.code, db.Participant.player_id)
            .where(db.Participant.tournament_id == tid))}
    with pytest.raises(RulesRefused):
        svc.seating_rules.set_server_pair(people["p10"], people["p11"], "apart",
                                          actor="judge-a")
    with svc.store.write() as s:
        user = s.scalar(select(db.User).where(db.User.name == "org"))
        assert user is not None
        user.admin = True
    svc.seating_rules.set_server_pair(people["p10"], people["p11"], "apart", actor="org")
    rules = svc.seating_rules.rules(tid, actor="org")
    assert [(p.first, p.second, p.server) for p in rules.server_pairs] == [("p10", "p11", True)]
    _players, inputs = desk.build(tid, _params(), actor="org")
    assert [9, 10, True, 0, "pair"] in inputs["pair_rules"]
