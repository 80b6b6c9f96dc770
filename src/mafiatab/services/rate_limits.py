"""A `limits` storage in the program's own database, so that the sign-in limits count
once for all the server's processes.

Why not `limits`' Redis storage alone: a hall's laptop or a federation's server has the
database already and may have no Redis; with `serve --workers N` and memory counts an
attacker would get N times the limit. So the counts go where the processes meet: the
database (`rate_hits`, one row per counted attempt of a moving window, the same strategy
`Guard` uses in memory). A Redis URL (`MAFIATAB_LIMITS=redis://...`) still works through
`limits` itself, for a server that has one.

Cost: one short write transaction per counted attempt. A sign-in that then hashes a
password costs far more; a flood of refused attempts does not reach this storage at all,
because `Guard` remembers locally until when a key is refused (see `Guard.attempt`).
"""

from __future__ import annotations

import threading
import time
from typing import Any, Final

from limits.storage import MovingWindowSupport, Storage
from sqlalchemy import Engine, delete, func, insert, select, text, update
from sqlalchemy.exc import SQLAlchemyError

from mafiatab.storage import models as db
from mafiatab.storage.engine import writer

#: hits older than this many seconds are deleted (longer than any sign-in window)
KEEP: Final = 3600.0
#: how often (seconds) one process deletes the old hits
CLEAN_EVERY: Final = 60.0


class DatabaseStorage(Storage, MovingWindowSupport):
    """Moving windows (and fixed-window counters, the rest of the `limits` storage
    interface) in the tables `rate_hits` and `rate_counters`. Taking an entry is one
    transaction, serialised per key over processes by a PostgreSQL advisory lock (SQLite:
    its write lock), so two processes cannot both take the last free entry."""

    STORAGE_SCHEME = ["mafiatab+database"]

    def __init__(self, engine: Engine, **options: Any) -> None:
        super().__init__(None, wrap_exceptions=False, **options)
        self.engine = engine
        self.writer = writer(engine)
        self.postgres = engine.dialect.name == "postgresql"
        self._cleaned = 0.0
        self._clean_lock = threading.Lock()

    @property
    def base_exceptions(self) -> type[Exception] | tuple[type[Exception], ...]:
        return SQLAlchemyError

    def _lock(self, conn: Any, key: str) -> None:
        if self.postgres:
            conn.execute(text("SELECT pg_advisory_xact_lock(hashtext(:k))"), {"k": key})

    def _clean(self, now: float) -> None:
        with self._clean_lock:
            if now - self._cleaned < CLEAN_EVERY:
                return
            self._cleaned = now
        with self.writer.begin() as conn:
            conn.execute(delete(db.RateHit).where(db.RateHit.at < now - KEEP))
            conn.execute(delete(db.RateCounter).where(db.RateCounter.expires_at < now))

    # --- moving window (what `Guard` uses) ---
    def acquire_entry(self, key: str, limit: int, expiry: int, amount: int = 1) -> bool:
        if amount > limit:
            return False
        now = time.time()
        self._clean(now)
        with self.writer.begin() as conn:
            self._lock(conn, key)
            n = conn.scalar(select(func.count()).select_from(db.RateHit)
                            .where(db.RateHit.key == key, db.RateHit.at > now - expiry)) or 0
            if n + amount > limit:
                return False
            conn.execute(insert(db.RateHit), [{"key": key, "at": now}] * amount)
        return True

    def get_moving_window(self, key: str, limit: int, expiry: int) -> tuple[float, int]:
        now = time.time()
        with self.engine.connect() as conn:
            oldest, n = conn.execute(
                select(func.min(db.RateHit.at), func.count())
                .where(db.RateHit.key == key, db.RateHit.at > now - expiry)).one()
        return (float(oldest), int(n)) if n else (now, 0)

    # --- fixed windows (the base interface) ---
    def incr(self, key: str, expiry: int, amount: int = 1) -> int:
        now = time.time()
        with self.writer.begin() as conn:
            self._lock(conn, key)
            row = conn.execute(select(db.RateCounter.count, db.RateCounter.expires_at)
                               .where(db.RateCounter.key == key)).one_or_none()
            if row is None or row[1] <= now:
                conn.execute(delete(db.RateCounter).where(db.RateCounter.key == key))
                conn.execute(insert(db.RateCounter).values(key=key, count=amount,
                                                           expires_at=now + expiry))
                return amount
            conn.execute(update(db.RateCounter).where(db.RateCounter.key == key)
                         .values(count=db.RateCounter.count + amount))
            return int(row[0]) + amount

    def get(self, key: str) -> int:
        with self.engine.connect() as conn:
            row = conn.execute(select(db.RateCounter.count).where(
                db.RateCounter.key == key, db.RateCounter.expires_at > time.time())).one_or_none()
        return 0 if row is None else int(row[0])

    def get_expiry(self, key: str) -> float:
        with self.engine.connect() as conn:
            at = conn.scalar(select(db.RateCounter.expires_at).where(db.RateCounter.key == key))
        return time.time() if at is None else float(at)

    def check(self) -> bool:
        try:
            with self.engine.connect() as conn:
                conn.execute(select(1))
        except SQLAlchemyError:
            return False
        return True

    def reset(self) -> int | None:
        with self.writer.begin() as conn:
            n = conn.execute(delete(db.RateHit)).rowcount
            conn.execute(delete(db.RateCounter))
        return int(n)

    def clear(self, key: str) -> None:
        with self.writer.begin() as conn:
            conn.execute(delete(db.RateHit).where(db.RateHit.key == key))
            conn.execute(delete(db.RateCounter).where(db.RateCounter.key == key))


__all__ = ["DatabaseStorage"]
