"""Background jobs on the database: a queue
that several server processes share, so that a job started through one process may be
run by another and its result shown and used by a third.

Why the database and not a process's memory: with `mafiatab serve --workers N` on
PostgreSQL every request may land on any process, and a process may stop (a restart, a
crash) while its job runs. A job is a row of `jobs`: its state, its parameters and inputs
(a snapshot, so the job does not change when the tournament does), its progress, its
result. Every process runs one `JobRunner` thread that takes waiting jobs.

The rules of the queue:

* **One job per tournament at a time.** A partial unique index on the waiting and running
  jobs of a tournament and kind refuses a second one (409), even from two processes at
  the same moment; the organizer waits, or cancels and starts again.
* **A bounded number running per server.** `JobLimits.running` jobs run at once over all
  the processes on the database (a seating search takes two cores); the others wait.
  At most `JobLimits.queued` jobs wait (503 past that): the queue's memory is bounded.
* **Fair.** Each tournament holds at most one place in the queue, and each owner (the
  account that started the jobs) at most `JobLimits.per_owner` places, waiting or running
  (429 past that): an organizer with fifty tournaments of his own cannot fill the
  server's queue. The queue is served round-robin over owners (`_order`): the owner
  served longest ago (one never served first) goes next, with his oldest job; an owner
  whose job has just started goes behind every other owner waiting.
* **Claimed under one lock.** Taking a job counts the running ones and picks the next in
  one write transaction, serialised over processes by a PostgreSQL advisory lock (SQLite:
  its write lock; one process there anyway), so the bound holds.
* **Alive or taken back.** The process running a job writes its progress and a heartbeat
  every `heartbeat` seconds; a running job whose heartbeat is older than `stale` seconds
  lost its process and goes back to the queue (once; then it fails with a reason).
* **Time-limited and cancellable.** A job stops at its time limit (the search hands back
  the best it found); one still reporting progress past the limit and `grace` seconds
  fails. A process that stops (its app's shutdown) gives its running job back to the
  queue. Cancelling a waiting
  job ends it at once; a running one is asked to stop, its process sees the request at
  its next heartbeat and the job's own progress check raises `Cancelled`.
"""

from __future__ import annotations

import datetime as dt
import logging
import os
import secrets
import socket
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, Final

from sqlalchemy import func, select, text
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from mafiatab.services.errors import ServiceError
from mafiatab.services.rights import Act, TournamentRef, require
from mafiatab.services.store import Store, aware, tournament_row
from mafiatab.storage import models as db
from mafiatab.texts.refusals import JOBS

WAITING: Final = "waiting"
RUNNING: Final = "running"
DONE: Final = "done"
REFUSED: Final = "refused"
FAILED: Final = "failed"
CANCELLED: Final = "cancelled"
BUSY: Final = (WAITING, RUNNING)
#: the advisory lock (PostgreSQL) that serialises taking jobs over processes
CLAIM_LOCK: Final = 0x6D616669  # "mafi"
#: how many times a job whose process vanished is run again before it fails
MAX_ATTEMPTS: Final = 2

log = logging.getLogger(__name__)


def _now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


def worker_name() -> str:
    """This process among the server's: host, pid and a random part (a pid is reused)."""
    return f"{socket.gethostname()[:40]}:{os.getpid()}:{secrets.token_hex(3)}"


@dataclass(frozen=True, slots=True)
class JobLimits:
    """The bounds of the queue (see the module's text); all in seconds but the counts."""

    running: int = 1
    queued: int = 50
    #: places one owner holds at most, waiting or running
    per_owner: int = 3
    heartbeat: float = 0.5
    stale: float = 15.0
    grace: float = 30.0
    poll: float = 1.0

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> JobLimits:
        """The limits from MAFIATAB_JOBS_RUNNING / _QUEUED / _PER_OWNER / _STALE (the
        server's options set them, so every worker process of one server gets the same)."""
        env = os.environ if environ is None else environ
        base = cls()
        return cls(running=max(1, int(env.get("MAFIATAB_JOBS_RUNNING", base.running))),
                   queued=max(1, int(env.get("MAFIATAB_JOBS_QUEUED", base.queued))),
                   per_owner=max(1, int(env.get("MAFIATAB_JOBS_PER_OWNER", base.per_owner))),
                   stale=max(1.0, float(env.get("MAFIATAB_JOBS_STALE", base.stale))))


class JobRefused(ServiceError):
    """A job that cannot be started or changed (one of the `Refused` family): its code a
    key of the catalogue's `jobs` section, and the HTTP status the web layer answers with
    (409 one is running already, 503 the queue is full, 404 nothing to cancel)."""

    status = 409
    texts: ClassVar[Mapping[str, tuple[str, str]]] = JOBS

    def __init__(self, code: str, *, status: int = 409, **params: Any) -> None:
        super().__init__(code, **params)
        self.status = status


class Cancelled(Exception):  # noqa: N818 - an outcome, raised to stop the search
    """Raised inside a running job by its progress check: stop now, nothing is kept."""


@dataclass(frozen=True, slots=True)
class JobView:
    """A job as read from the database (a snapshot: the row may change meanwhile)."""

    id: int
    tournament: int
    kind: str
    state: str
    owner: str
    params: dict[str, Any]
    inputs: dict[str, Any]
    time_limit: float
    progress: float
    info: str
    result: dict[str, Any] | None
    reason: tuple[str, str] | None
    published: dict[str, Any]
    cancel_requested: bool
    worker: str | None
    attempts: int
    created_at: dt.datetime
    started_at: dt.datetime | None
    finished_at: dt.datetime | None
    #: waiting jobs that run before this one (0 when it is next or not waiting)
    ahead: int = 0

    @property
    def busy(self) -> bool:
        return self.state in BUSY

    def seconds(self, now: dt.datetime | None = None) -> float:
        """How long it has run (so far, or in all)."""
        if self.started_at is None:
            return 0.0
        end = self.finished_at or now or _now()
        return max(0.0, (end - self.started_at).total_seconds())


def _view(row: db.Job, ahead: int = 0) -> JobView:
    reason = (row.reason_ru, row.reason_en) if row.reason_ru or row.reason_en else None
    return JobView(
        id=row.id, tournament=row.tournament_id, kind=row.kind, state=row.state,
        owner=row.owner, params=dict(row.params), inputs=dict(row.inputs),
        time_limit=row.time_limit, progress=row.progress, info=row.info,
        result=dict(row.result) if row.result is not None else None, reason=reason,
        published=dict(row.published or {}), cancel_requested=row.cancel_requested,
        worker=row.worker, attempts=row.attempts, created_at=aware(row.created_at),
        started_at=aware(row.started_at) if row.started_at else None,
        finished_at=aware(row.finished_at) if row.finished_at else None, ahead=ahead)


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a job ended: DONE with a result, or REFUSED / FAILED with a reason."""

    state: str
    result: dict[str, Any] | None = None
    reason: tuple[str, str] | None = None


class Control:
    """What a running job gets: `progress(frac, info)` to report (it raises `Cancelled`
    when the job is to stop), and the deadline it must keep."""

    def __init__(self, job: JobView, deadline: float) -> None:
        self.job = job
        self.deadline = deadline
        self.stop = threading.Event()
        self.fraction = 0.0
        self.info = ""
        self.overdue = False

    def progress(self, fraction: float, info: str) -> None:
        self.fraction, self.info = fraction, info[:200]
        if time.monotonic() > self.deadline:
            self.overdue = True
            raise Cancelled()
        if self.stop.is_set():
            raise Cancelled()


Handler = Callable[[JobView, Control], Outcome]


class Jobs:
    """The queue (see the module's text): every call one short transaction."""

    def __init__(self, store: Store, limits: JobLimits | None = None,
                 worker: str | None = None) -> None:
        self.store = store
        self.limits = limits or JobLimits()
        self.worker = worker or worker_name()
        self.postgres = store.engine.dialect.name == "postgresql"
        #: called after a job was submitted or asked to stop (the local runner's wake)
        self.on_change: list[Callable[[], None]] = []

    def _changed(self) -> None:
        for hook in self.on_change:
            hook()

    # --- reading ---
    def get(self, job: int) -> JobView | None:
        with self.store.read() as s:
            row = s.get(db.Job, job) if 0 < job < 2**63 else None
            return None if row is None else _view(row, self._ahead(s, row))

    def newest(self, tournament: int, kind: str, *,
               states: tuple[str, ...] | None = None) -> JobView | None:
        """The tournament's newest job of the kind (in `states`, if given)."""
        with self.store.read() as s:
            q = select(db.Job).where(db.Job.tournament_id == tournament, db.Job.kind == kind)
            if states is not None:
                q = q.where(db.Job.state.in_(states))
            row = s.scalar(q.order_by(db.Job.id.desc()).limit(1))
            return None if row is None else _view(row, self._ahead(s, row))

    @staticmethod
    def _order(s: Session, kinds: tuple[str, ...] | None = None) -> list[int]:
        """The waiting jobs (of `kinds`) in the order they will run: round-robin over
        their owners, the owner whose job started longest ago first (one never served
        before all, in the order they came), each owner's jobs in the order they came.
        The queue is bounded (`JobLimits.queued`), so this reads a few rows."""
        q = select(db.Job.id, db.Job.owner).where(db.Job.state == WAITING)
        if kinds is not None:
            q = q.where(db.Job.kind.in_(kinds))
        waiting = s.execute(q.order_by(db.Job.id)).all()
        if not waiting:
            return []
        owners: dict[str, list[int]] = {}
        for job_id, owner in waiting:
            owners.setdefault(owner, []).append(job_id)
        never = dt.datetime.min.replace(tzinfo=dt.UTC)
        served: dict[str, dt.datetime] = {
            owner: aware(at) for owner, at in s.execute(
                select(db.Job.owner, func.max(db.Job.started_at))
                .where(db.Job.owner.in_(list(owners)), db.Job.started_at.is_not(None))
                .group_by(db.Job.owner)) if at is not None}
        turn = sorted(owners, key=lambda o: (served.get(o, never), owners[o][0]))
        order: list[int] = []
        for depth in range(max(len(jobs) for jobs in owners.values())):
            order += [owners[o][depth] for o in turn if depth < len(owners[o])]
        return order

    def _ahead(self, s: Session, row: db.Job) -> int:
        if row.state != WAITING:
            return 0
        order = self._order(s)
        return order.index(row.id) if row.id in order else 0

    def counts(self) -> dict[str, int]:
        """How many jobs wait and run on the whole server (the page and the benchmark)."""
        with self.store.read() as s:
            rows = s.execute(select(db.Job.state, func.count()).where(db.Job.state.in_(BUSY))
                             .group_by(db.Job.state))
            out = {WAITING: 0, RUNNING: 0}
            out.update({state: n for state, n in rows})
            return out

    # --- starting and stopping ---
    def submit(self, tournament: int, kind: str, *, owner: str, params: dict[str, Any],
               inputs: dict[str, Any], time_limit: float) -> JobView:
        """Queue a job; 409 while the tournament has one waiting or running, 503 when the
        server's queue is full."""
        try:
            with self.store.write() as s:
                waiting = s.scalar(select(func.count()).select_from(db.Job)
                                   .where(db.Job.state == WAITING)) or 0
                if waiting >= self.limits.queued:
                    raise JobRefused("queue_full", waiting=waiting, status=503)
                held = s.scalar(select(func.count()).select_from(db.Job)
                                .where(db.Job.owner == owner, db.Job.state.in_(BUSY))) or 0
                if held >= self.limits.per_owner:
                    raise JobRefused("owner_queue_full", limit=self.limits.per_owner,
                                     status=429)
                row = db.Job(tournament_id=tournament, kind=kind, state=WAITING, owner=owner,
                             params=params, inputs=inputs, time_limit=time_limit,
                             progress=0.0, info="", reason_ru="", reason_en="", published={},
                             cancel_requested=False, attempts=0, created_at=_now())
                s.add(row)
                s.flush()
                job_id = row.id
        except IntegrityError:
            raise JobRefused("job_running", status=409) from None
        self._changed()
        view = self.get(job_id)
        assert view is not None
        return view

    def cancel(self, tournament: int, kind: str, *, actor: str) -> JobView:
        """Stop the tournament's waiting or running job (404 when there is none): the
        tournament's organizers and head judges only."""
        with self.store.write() as s:
            require(s, actor, Act.MANAGE, TournamentRef(tournament_row(s, tournament).id))
            row = s.scalar(select(db.Job).where(db.Job.tournament_id == tournament,
                                                db.Job.kind == kind, db.Job.state.in_(BUSY))
                           .with_for_update())
            if row is None:
                raise JobRefused("no_job", status=404)
            if row.state == WAITING:
                row.state, row.finished_at = CANCELLED, _now()
            row.cancel_requested = True
            job_id = row.id
        self._changed()
        view = self.get(job_id)
        assert view is not None
        return view

    # --- running (the runner's side) ---
    def claim(self, kinds: tuple[str, ...]) -> JobView | None:
        """Take the next waiting job for this process, if fewer than `running` run."""
        with self.store.read() as s:  # the common case costs no write lock
            if not s.scalar(select(db.Job.id).where(db.Job.state == WAITING).limit(1)):
                return None
        with self.store.write() as s:
            if self.postgres:
                s.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": CLAIM_LOCK})
            running = s.scalar(select(func.count()).select_from(db.Job)
                               .where(db.Job.state == RUNNING)) or 0
            if running >= self.limits.running:
                return None
            order = self._order(s, kinds)
            row = s.get(db.Job, order[0]) if order else None
            if row is None or row.state != WAITING:
                return None
            now = _now()
            row.state, row.worker, row.started_at, row.heartbeat_at = RUNNING, self.worker, now, now
            row.attempts += 1
            row.progress, row.info = 0.0, ""
            s.flush()
            return _view(row)

    def beat(self, job: int, progress: float, info: str) -> bool:
        """Write the job's progress and heartbeat; whether it is to go on (False: asked
        to stop, or taken back from this process)."""
        with self.store.write() as s:
            row = s.get(db.Job, job)
            if row is None or row.state != RUNNING or row.worker != self.worker:
                return False
            row.progress, row.info, row.heartbeat_at = progress, info[:200], _now()
            return not row.cancel_requested

    def finish(self, job: int, outcome: Outcome) -> bool:
        """Record the job's end (only while this process still holds it)."""
        with self.store.write() as s:
            row = s.get(db.Job, job)
            if row is None or row.state != RUNNING or row.worker != self.worker:
                return False
            row.state, row.finished_at = outcome.state, _now()
            if outcome.state == DONE:
                row.progress = 1.0
            row.result = outcome.result
            if outcome.reason is not None:
                row.reason_ru, row.reason_en = outcome.reason
        self._changed()
        return True

    def release(self, job: int) -> bool:
        """Give a running job of this process back to the queue (the process stops): the
        next free process runs it from the start, and it does not count as an attempt."""
        with self.store.write() as s:
            row = s.scalar(select(db.Job).where(db.Job.id == job).with_for_update())
            if row is None or row.state != RUNNING or row.worker != self.worker:
                return False
            if row.cancel_requested:
                row.state, row.finished_at = CANCELLED, _now()
            else:
                row.state, row.worker, row.heartbeat_at = WAITING, None, None
                row.attempts = max(0, row.attempts - 1)
                row.progress, row.info = 0.0, ""
        self._changed()
        return True

    def sweep(self) -> int:
        """Take back the running jobs whose process stopped beating (the queue gets them
        again, or they fail after `MAX_ATTEMPTS`); fail those far past their limit."""
        limit = dt.timedelta(seconds=self.limits.stale)
        now = _now()
        changed = 0
        with self.store.read() as s:
            rows = s.execute(select(db.Job.id, db.Job.heartbeat_at)
                             .where(db.Job.state == RUNNING)).all()
        stale = [i for i, beat in rows if beat is None or now - aware(beat) > limit]
        if not stale:
            return 0
        with self.store.write() as s:
            for row in s.scalars(select(db.Job).where(db.Job.id.in_(stale)).with_for_update()):
                if row.state != RUNNING or (row.heartbeat_at is not None
                                            and now - aware(row.heartbeat_at) <= limit):
                    continue
                changed += 1
                if row.cancel_requested:
                    row.state, row.finished_at = CANCELLED, now
                elif row.attempts >= MAX_ATTEMPTS:
                    row.state, row.finished_at = FAILED, now
                    # the row keeps the reason's words in both languages (its columns)
                    row.reason_ru, row.reason_en = JOBS["job_process_lost"]
                else:
                    log.warning("job %s lost its process %s: queued again", row.id, row.worker)
                    row.state, row.worker, row.heartbeat_at = WAITING, None, None
        if changed:
            self._changed()
        return changed

    def replace_result(self, job: int, result: dict[str, Any]) -> None:
        """A finished job's result changed by hand (a seating's swap of two players)."""
        with self.store.write() as s:
            row = s.scalar(select(db.Job).where(db.Job.id == job).with_for_update())
            if row is not None:
                row.result = result

    def publish_mark(self, job: int, key: str, value: Any) -> None:
        """Note what was done with a finished job's result (a seating: a round's games)."""
        with self.store.write() as s:
            row = s.scalar(select(db.Job).where(db.Job.id == job).with_for_update())
            if row is not None:
                row.published = {**(row.published or {}), key: value}


@dataclass
class JobRunner:
    """One thread per process that takes waiting jobs and runs them (see the module)."""

    jobs: Jobs
    handlers: dict[str, Handler]
    _wake: threading.Event = field(default_factory=threading.Event)
    _thread: threading.Thread | None = None
    _stopping: bool = False
    #: the job this process runs now, and its control (a local cancel sets its `stop`)
    current: Control | None = None

    def start(self) -> None:
        if self._thread is not None and self._thread.is_alive():
            return
        self._stopping = False
        self.jobs.on_change.append(self._wake.set)
        self._thread = threading.Thread(target=self._loop, name="jobs", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 30.0) -> None:
        self._stopping = True
        if self.current is not None:
            self.current.stop.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(timeout)

    def wake(self) -> None:
        self._wake.set()

    def _loop(self) -> None:
        last_sweep = 0.0
        while not self._stopping:
            self._wake.wait(self.jobs.limits.poll)
            self._wake.clear()
            if self._stopping:
                return
            try:
                if time.monotonic() - last_sweep > self.jobs.limits.stale / 3:
                    last_sweep = time.monotonic()
                    self.jobs.sweep()
                while not self._stopping:
                    job = self.jobs.claim(tuple(self.handlers))
                    if job is None:
                        break
                    self._run(job)
            except Exception:  # a lost database: try again at the next poll
                log.warning("job runner: the database failed", exc_info=True)

    def _run(self, job: JobView) -> None:
        limits = self.jobs.limits
        control = Control(job, time.monotonic() + job.time_limit + limits.grace)
        self.current = control
        done = threading.Event()

        def heartbeat() -> None:
            while not done.wait(limits.heartbeat):
                try:
                    if not self.jobs.beat(job.id, control.fraction, control.info):
                        control.stop.set()
                except Exception:
                    log.warning("job %s: heartbeat failed", job.id, exc_info=True)

        beat = threading.Thread(target=heartbeat, name=f"job-{job.id}-beat", daemon=True)
        beat.start()
        try:
            try:
                outcome = self.handlers[job.kind](job, control)
            except Cancelled:
                if self._stopping and not control.overdue:
                    self.jobs.release(job.id)  # the process stops: another runs it
                    return
                outcome = (Outcome(FAILED, reason=(
                    f"Задача превысила свой предел времени ({job.time_limit:g} с).",
                    f"The job ran past its time limit ({job.time_limit:g} s)."))
                    if control.overdue else Outcome(CANCELLED))
            except Exception as e:  # a bug must not leave the page polling for ever
                log.exception("job %s failed", job.id)
                outcome = Outcome(FAILED, reason=(f"Сбой: {e}", f"Failed: {e}"))
        finally:
            done.set()
            beat.join()
            self.current = None
        self.jobs.finish(job.id, outcome)

    def cancel_local(self, job: int) -> None:
        """A cancel that came through this process: stop at once, not at the next beat."""
        current = self.current
        if current is not None and current.job.id == job:
            current.stop.set()


__all__ = ["BUSY", "CANCELLED", "DONE", "FAILED", "REFUSED", "RUNNING", "WAITING", "Cancelled",
           "Control", "Handler", "JobLimits", "JobRefused", "JobRunner", "JobView", "Jobs",
           "Outcome", "worker_name"]
