"""Password-hashing slots shared by all the processes of one server.

`services.accounts` lets at most `HASH_SLOTS` argon2 hashes run at once in a process; with
`serve --workers N` (or several `serve` processes on one database) that alone would be
N × `HASH_SLOTS` hashes, N × 19 MiB and N × the cores. So a hash also takes one of the
server's `size` shared slots, where its processes meet:

* **PostgreSQL**: a session advisory lock `pg_try_advisory_lock(KEY, i)` for slot i, on
  a connection of its own held for the hash (the workers may be on several hosts; the
  database is what they share). A process that dies loses its connection, and PostgreSQL
  frees its locks at once.
* **SQLite** (one host, by its nature): an exclusive `fcntl.flock` on the file
  `<database>.hash-slot-<i>` beside the database. The kernel frees a dead process's locks.

Both are tried without waiting, slot by slot; a taker that finds none free sleeps a little
and tries again until its deadline (then the caller refuses as busy: 503). Advisory and
file locks are the databases' and the kernel's own, so nothing is home-made beyond the
loop.
"""

from __future__ import annotations

import fcntl
import os
import time
from pathlib import Path
from typing import Final

from sqlalchemy import Connection, Engine, text

#: the first key of the advisory locks (the second is the slot's number): "mthb"
KEY: Final = 0x6D746862
#: how long a taker sleeps between two rounds of tries (seconds)
PAUSE: Final = 0.01


class Held:
    """One taken slot; `release` frees it."""

    def __init__(self, slots: SharedSlots, number: int, fd: int | None = None,
                 conn: Connection | None = None) -> None:
        self.slots, self.number, self.fd, self.conn = slots, number, fd, conn

    def release(self) -> None:
        if self.fd is not None:
            try:
                fcntl.flock(self.fd, fcntl.LOCK_UN)
            finally:
                os.close(self.fd)
                self.fd = None
        if self.conn is not None:
            conn, self.conn = self.conn, None
            try:
                conn.execute(text("SELECT pg_advisory_unlock(:k, :i)"),
                             {"k": KEY, "i": self.number})
                conn.close()
            except Exception:
                conn.invalidate()  # a lost connection: PostgreSQL has freed the lock
                raise


class SharedSlots:
    """`size` slots of one database's server."""

    def __init__(self, engine: Engine, size: int) -> None:
        self.engine = engine
        self.size = size
        self.postgres = engine.dialect.name == "postgresql"
        self.files: list[Path] = []
        if not self.postgres:
            database = engine.url.database
            if not database:
                raise ValueError("hash slots need the SQLite database's file")
            self.files = [Path(f"{database}.hash-slot-{i}") for i in range(size)]

    def try_take(self) -> Held | None:
        """A free slot, or None; never waits."""
        if self.postgres:
            conn = self.engine.connect().execution_options(isolation_level="AUTOCOMMIT")
            try:
                for i in range(self.size):
                    if conn.scalar(text("SELECT pg_try_advisory_lock(:k, :i)"),
                                   {"k": KEY, "i": i}):
                        return Held(self, i, conn=conn)
            except Exception:
                conn.invalidate()
                raise
            conn.close()
            return None
        for i, path in enumerate(self.files):
            fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                os.close(fd)
                continue
            return Held(self, i, fd=fd)
        return None

    def take(self, wait: float) -> Held | None:
        """A slot within `wait` seconds, or None."""
        deadline = time.monotonic() + wait
        while True:
            held = self.try_take()
            if held is not None or time.monotonic() >= deadline:
                return held
            time.sleep(PAUSE)


__all__ = ["KEY", "Held", "SharedSlots"]
