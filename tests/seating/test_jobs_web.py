"""The seating job queue on the database, on
SQLite and PostgreSQL: one job per tournament, a bounded number running over processes,
arrival order (round-robin over tournaments), a time limit, cancelling, and a job whose
process stopped taken back and finished by another. Two desks on one database stand for
two server processes (tests/web/test_workers.py runs real ones)."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator

import pytest
from sqlalchemy import Engine

from mafiatab.domain import protocol as model
from mafiatab.services.facade import Services
from mafiatab.services.jobs import (
    CANCELLED,
    DONE,
    RUNNING,
    WAITING,
    JobLimits,
    JobRefused,
    Jobs,
    Outcome,
)
from mafiatab.services.seating_web import KIND, SeatingDesk, SeatingParams
from mafiatab.storage.engine import make_engine, upgrade
from tests.storage.conftest import db_url, pg_url, sqlite_url  # noqa: F401 - fixtures

STAGE = model.Stage(id="qual", name="Отбор", kind="qualification")


@pytest.fixture
def engine(db_url: str) -> Iterator[Engine]:  # noqa: F811 - the imported fixture
    eng = make_engine(db_url)
    upgrade(eng)
    yield eng
    eng.dispose()


def _tournament(svc: Services, name: str, players: int) -> int:
    tid = svc.tournaments.create_tournament(name, "fsm", actor="org", stages=[STAGE])
    svc.tournaments.register_players(tid, [model.Player(id=f"p{i:03d}", nickname=f"Игрок {i}",
                                            club=("Клуб А" if i % 15 == 0 else None))
                               for i in range(1, players + 1)], actor="org")
    return tid


def _queued(jobs: Jobs, svc: Services, tid: int) -> int:
    desk = SeatingDesk(svc)
    _players, inputs = desk.build(tid, SeatingParams(stage="qual", games=4), actor="org")
    return jobs.submit(tid, KIND, owner="org", params=SeatingParams("qual", 4).stored(),
                       inputs=inputs, time_limit=10).id


def test_one_job_per_tournament_and_round_robin_order(engine: Engine) -> None:
    """A tournament holds one place in the queue; the queue goes in arrival order, so a
    tournament served once waits behind those already waiting (round-robin)."""
    svc = Services(engine)
    a, b, c = (_tournament(svc, n, 20) for n in ("A", "B", "C"))
    jobs = Jobs(svc.store, JobLimits(running=1))
    first = _queued(jobs, svc, a)
    with pytest.raises(JobRefused) as e:
        _queued(jobs, svc, a)
    assert e.value.status == 409
    _queued(jobs, svc, b)
    _queued(jobs, svc, c)
    order = []
    job = jobs.claim((KIND,))
    assert job is not None and job.id == first and job.state == RUNNING
    assert jobs.claim((KIND,)) is None  # the server's bound: one running
    assert jobs.get(job.id) is not None
    waiting_b = jobs.newest(b, KIND)
    assert waiting_b is not None and waiting_b.state == WAITING and waiting_b.ahead == 0
    waiting_c = jobs.newest(c, KIND)
    assert waiting_c is not None and waiting_c.ahead == 1
    while job is not None:
        order.append(job.tournament)
        assert jobs.finish(job.id, Outcome(DONE, result={"n": len(order)}))
        if len(order) == 1:
            _queued(jobs, svc, a)  # A asks again: behind B and C
        job = jobs.claim((KIND,))
    assert order == [a, b, c, a]


def test_the_running_bound_holds_over_processes(engine: Engine) -> None:
    """Two processes (two queues with their own names) taking jobs at the same moment:
    no more run than the server's bound."""
    svc = Services(engine)
    tids = [_tournament(svc, f"T{i}", 20) for i in range(4)]
    limits = JobLimits(running=2, per_owner=len(tids))  # one owner queues them all here
    one, two = Jobs(svc.store, limits), Jobs(svc.store, limits)
    for tid in tids:
        _queued(one, svc, tid)
    barrier = threading.Barrier(4)
    taken: list[int] = []

    def take(jobs: Jobs) -> None:
        barrier.wait()
        job = jobs.claim((KIND,))
        if job is not None:
            taken.append(job.id)

    threads = [threading.Thread(target=take, args=(q,)) for q in (one, two, one, two)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(taken) == 2 and len(set(taken)) == 2
    assert one.counts() == {WAITING: 2, RUNNING: 2}


def _wait(desk: SeatingDesk, tid: int, until: set[str], timeout: float = 120) -> str:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        job = desk.job(tid, actor="org")
        cancelled = desk.cancelled(tid, actor="org")
        state = (cancelled.state if cancelled is not None
                 and (job is None or cancelled.number > job.number) else
                 job.state if job is not None else "")
        if state in until:
            return state
        time.sleep(0.05)
    raise AssertionError(f"still not {until}")


def test_cancel_stops_a_running_search_before_its_limit(engine: Engine) -> None:
    """A search of 60 s cancelled through another process's desk ends long before its
    limit; the tournament's proposal stays the one before."""
    svc = Services(engine)
    tid = _tournament(svc, "Cancel cup", 60)
    runner_desk, other_desk = SeatingDesk(svc), SeatingDesk(svc)
    runner_desk.start_runner()
    try:
        done = runner_desk.start(tid, SeatingParams("qual", 3, time_limit=5), actor="org")
        assert _wait(other_desk, tid, {DONE}) == DONE
        big = SeatingParams("qual", 10, seed=3, time_limit=60, iterations=10_000_000)
        job = other_desk.start(tid, big, actor="org")
        deadline = time.monotonic() + 60
        while (now := other_desk.job(tid, actor="org")) is not None and not (
                now.state == RUNNING and now.progress > 0) and time.monotonic() < deadline:
            time.sleep(0.05)
        t0 = time.monotonic()
        other_desk.cancel(tid, actor="org")
        assert _wait(other_desk, tid, {CANCELLED}, timeout=30) == CANCELLED
        stopped = time.monotonic() - t0
        assert stopped < 30, stopped  # far below the 60 s limit
        current = other_desk.job(tid, actor="org")
        assert current is not None and current.number == done.number != job.number
        with pytest.raises(JobRefused) as e:  # the jobs' own refusal, of the Refused family
            other_desk.cancel(tid, actor="org")
        assert e.value.status == 404 and e.value.code == "no_job"
    finally:
        runner_desk.stop_runner()


def test_a_time_limit_hands_back_the_best_found(engine: Engine) -> None:
    svc = Services(engine)
    tid = _tournament(svc, "Limit cup", 60)
    desk = SeatingDesk(svc)
    desk.start_runner()
    try:
        desk.start(tid, SeatingParams("qual", 10, seed=5, time_limit=1.0,
                                      iterations=10_000_000), actor="org")
        assert _wait(desk, tid, {DONE, "failed"}) == DONE
        job = desk.job(tid, actor="org")
        # stopped by the limit with the best seating found (the seats' balancing after
        # the search is not part of the limit: it takes seconds more on a loaded machine)
        assert job is not None and job.interrupted and job.document is not None
        assert job.document["metrics"]["hard_violations"] == 0
    finally:
        desk.stop_runner()


def test_a_job_whose_process_stopped_is_finished_by_another(engine: Engine) -> None:
    """Process A takes the job and stops beating (it died); process B takes it back after
    `stale` seconds, runs it and publishes its first round."""
    svc = Services(engine)
    tid = _tournament(svc, "Relay cup", 20)
    fast = JobLimits(stale=1.0, poll=0.2)
    dead = Jobs(svc.store, fast, worker="dead-process")
    desk_b = SeatingDesk(svc, fast)
    desk_b.start(tid, SeatingParams("qual", 4), actor="org")
    taken = dead.claim((KIND,))
    assert taken is not None and taken.worker == "dead-process"
    desk_b.start_runner()
    try:
        assert _wait(desk_b, tid, {DONE}, timeout=60) == DONE
        job = desk_b.job(tid, actor="org")
        assert job is not None and job.view.worker == desk_b.jobs.worker
        assert job.view.attempts == 2
        assert not dead.finish(taken.id, Outcome(DONE, result={}))  # too late for A
        codes = desk_b.publish(tid, 1, actor="org")
        assert len(codes) == 2
        assert desk_b.require_job(tid, actor="org").published == {1: codes}
    finally:
        desk_b.stop_runner()


def test_a_stopping_process_gives_its_running_job_back(engine: Engine) -> None:
    """A server process that shuts down mid-search puts the job back in the queue (not
    cancelled, not failed); the next process runs it to the end."""
    svc = Services(engine)
    tid = _tournament(svc, "Restart cup", 60)
    first, second = SeatingDesk(svc), SeatingDesk(svc)
    first.start_runner()
    job = first.start(tid, SeatingParams("qual", 10, seed=9, time_limit=3,
                                         iterations=10_000_000), actor="org")
    deadline = time.monotonic() + 60
    while (now := first.job(tid, actor="org")) is not None and not (
            now.state == RUNNING and now.progress > 0) and time.monotonic() < deadline:
        time.sleep(0.05)  # searching (past numba's first compilation)
    first.stop_runner()
    back = second.job(tid, actor="org")
    assert back is not None and back.number == job.number
    assert back.state == WAITING and back.view.attempts == 0 and back.view.worker is None
    second.start_runner()
    try:
        assert _wait(second, tid, {DONE}) == DONE
        done = second.job(tid, actor="org")
        assert done is not None and done.view.worker == second.jobs.worker
    finally:
        second.stop_runner()


def test_the_desk_refuses_anyone_but_the_tournaments_staff(engine: Engine) -> None:
    """The desk checks the actor itself (the page, the API and the CLI call it alike): a
    viewer of the tournament, and the organizer of another one, are refused every step;
    the tournament's organizer and head judge are not."""
    from mafiatab.services.errors import PermissionDenied

    svc = Services(engine)
    tid = _tournament(svc, "Guarded cup", 20)
    svc.tournaments.create_tournament("Other cup", "fsm", actor="stranger", stages=[STAGE])
    svc.access.grant(tid, "watcher", "viewer", actor="org")
    svc.access.grant(tid, "head", "head_judge", actor="org")
    desk = SeatingDesk(svc)
    params = SeatingParams("qual", 4)
    steps: list[Callable[[str], object]] = [
        lambda who: desk.job(tid, actor=who),
        lambda who: desk.cancelled(tid, actor=who),
        lambda who: desk.require_job(tid, actor=who),
        lambda who: desk.build(tid, params, actor=who),
        lambda who: desk.start(tid, params, actor=who),
        lambda who: desk.cancel(tid, actor=who),
        lambda who: desk.publish(tid, 1, actor=who),
        lambda who: desk.wait(tid, 0.1, actor=who),
        lambda who: desk.jobs.cancel(tid, KIND, actor=who),
    ]
    for who in ("watcher", "stranger", "nobody", ""):
        for step in steps:
            with pytest.raises(PermissionDenied):
                step(who)
    assert desk.job(tid, actor="head") is None
    job = desk.start(tid, params, actor="head")
    assert desk.require_job(tid, actor="org").number == job.number
    assert desk.cancel(tid, actor="org").state == CANCELLED


def _queued_by(jobs: Jobs, svc: Services, tid: int, owner: str) -> int:
    desk = SeatingDesk(svc)
    _players, inputs = desk.build(tid, SeatingParams(stage="qual", games=4), actor=owner)
    return jobs.submit(tid, KIND, owner=owner, params=SeatingParams("qual", 4).stored(),
                       inputs=inputs, time_limit=10).id


def _owned(svc: Services, name: str, owner: str) -> int:
    tid = svc.tournaments.create_tournament(name, "fsm", actor=owner, stages=[STAGE])
    svc.tournaments.register_players(tid, [model.Player(id=f"p{i:03d}", nickname=f"Игрок {i}")
                                           for i in range(1, 21)], actor=owner)
    return tid


def test_one_organizer_cannot_take_the_servers_queue(engine: Engine) -> None:
    """An organizer with many tournaments of his own holds at most `per_owner` places of
    the server's queue (on main he filled all 50 from 52 tournaments in 16 s and the
    others waited hours); past that he is refused (429, in both languages), and the
    queue is served round-robin over owners: another organizer's job runs next, before
    the hoarder's second."""
    svc = Services(engine)
    limits = JobLimits(running=1)
    jobs = Jobs(svc.store, limits)
    hoard = [_owned(svc, f"Hoard {i}", "hoarder") for i in range(limits.per_owner + 3)]
    mine = [_queued_by(jobs, svc, tid, "hoarder") for tid in hoard[:limits.per_owner]]
    for tid in hoard[limits.per_owner:]:
        with pytest.raises(JobRefused) as e:
            _queued_by(jobs, svc, tid, "hoarder")
        assert e.value.status == 429 and e.value.code == "owner_queue_full"
        assert "очеред" in e.value.message("ru") and "queue" in e.value.message("en")
    other = _owned(svc, "Fair cup", "fair")
    late = _owned(svc, "Late cup", "late")
    theirs = _queued_by(jobs, svc, other, "fair")
    job = jobs.claim((KIND,))
    assert job is not None and job.id == mine[0]  # the first come runs first
    later = _queued_by(jobs, svc, late, "late")
    fair = jobs.get(theirs)
    assert fair is not None and fair.ahead == 0  # next, before the hoarder's other two
    order = []
    while job is not None:
        order.append(job.id)
        assert jobs.finish(job.id, Outcome(DONE, result={}))
        job = jobs.claim((KIND,))
    # owners in turn: each one served once before anyone's second (those never served
    # first, in the order they came), then the hoarder's rest
    assert order == [mine[0], theirs, later, mine[1], mine[2]], order
    # his places free as his jobs end: he may queue again
    _queued_by(jobs, svc, hoard[-1], "hoarder")
