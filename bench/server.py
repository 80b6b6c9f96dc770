"""How a benchmark starts the web app, the one way bench/web.py and bench/push.py do it: a
free loopback port, a PostgreSQL database made anew when one is asked for, one uvicorn
process (or `serve --workers N`'s processes), waited for until it answers, stopped at the
end; or a PostgreSQL schema of its own for a bench that needs no server. Run a bench as
`python bench/NAME.py`: this directory is then on the import path."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import httpx

#: `BENCH_PORTS=8100-8199`: take the port from this range (a machine shared by several
#: people gives each a range); unset: any free port
PORTS_ENV = "BENCH_PORTS"


#: the PostgreSQL database the schema benches use (`MAFIATAB_TEST_PG_URL`, as the tests)
PG_DEFAULT = "postgresql+psycopg://postgres@127.0.0.1:5432/test"


@contextmanager
def pg_schema(prefix: str = "mt_bench") -> Iterator[str]:
    """A URL whose connections work in a fresh schema of their own (dropped at the end)."""
    import psycopg
    from sqlalchemy.engine import make_url

    base = os.environ.get("MAFIATAB_TEST_PG_URL", PG_DEFAULT)
    admin = make_url(base).set(drivername="postgresql").render_as_string(hide_password=False)
    schema = f"{prefix}_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'CREATE SCHEMA "{schema}"')
    try:
        url = make_url(base).update_query_dict({"options": f"-csearch_path={schema}"})
        yield url.render_as_string(hide_password=False)
    finally:
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')


def free_port() -> int:
    """A free loopback port: the first of `BENCH_PORTS` that binds, else one the OS picks."""
    wanted = os.environ.get(PORTS_ENV, "")
    candidates = [0]
    if wanted:
        first, _, last = wanted.partition("-")
        candidates = list(range(int(first), int(last or first) + 1))
    for candidate in candidates:
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", candidate))
            except OSError:
                continue
            port: int = s.getsockname()[1]
            return port
    raise SystemExit(f"no free port in {PORTS_ENV}={wanted}")


def fresh_postgres(url: str) -> None:
    """Drop and create the benchmark's database (its name is the URL's last part)."""
    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url

    u = make_url(url)
    admin = create_engine(u.set(database="postgres"), isolation_level="AUTOCOMMIT")
    with admin.connect() as c:
        c.execute(text(f'DROP DATABASE IF EXISTS "{u.database}" WITH (FORCE)'))
        c.execute(text(f'CREATE DATABASE "{u.database}"'))
    admin.dispose()


def start_app(url: str, port: int, *, backlog: int = 2048, per_address: str | None = None,
              profile: str | None = None, plain: bool = False,
              pin: str | None = None) -> subprocess.Popen[bytes]:
    """One uvicorn process serving `create_app(url)`; `per_address`: the sign-in limit per
    address (`SignInLimits.per_address`) instead of the app's default; `profile`: the event
    loop's thread under cProfile, its stats written to that file at SIGTERM; `plain`:
    asyncio's loop and h11 even where uvloop and httptools are installed (uvicorn takes them
    by itself then), so that the two can be compared in one run; `pin`: the cores it runs
    on (`taskset -c`), so that a load generator on the others leaves it alone."""
    limits = ("" if per_address is None else
              f", limits=__import__('mafiatab.web.security', fromlist=['x'])"
              f".SignInLimits(per_address={per_address!r})")
    extra = ", loop='asyncio', http='h11'" if plain else ""
    # proxy_headers=False as `serve` without --trust-proxy: a loopback client's
    # X-Forwarded-For is not believed, the app sees each connection's own address
    run = (f"uvicorn.run(create_app({url!r}, secret='bench'{limits}), host='127.0.0.1', "
           f"port={port}, log_level='error', backlog={backlog}, proxy_headers=False{extra})")
    if profile:  # uvicorn restores the SIGTERM handler it found and raises the signal again
        run = ("import cProfile, signal, sys; pr = cProfile.Profile(); "
               "signal.signal(signal.SIGTERM, lambda *a: (pr.disable(), "
               f"pr.dump_stats({profile!r}), sys.exit(0))); pr.enable(); {run}")
    code = "import uvicorn; from mafiatab.web.app import create_app; " + run
    return subprocess.Popen([*pinned(pin), sys.executable, "-c", code])


def pinned(pin: str | None) -> list[str]:
    """The command's prefix that runs it on the cores `pin` ("0", "0,1"), or nothing."""
    return ["taskset", "-c", pin] if pin else []


def start_workers(url: str, port: int, workers: int, *, backlog: int = 2048,
                  pin: str | None = None) -> subprocess.Popen[bytes]:
    """The app as `serve --workers N` runs it (uvicorn's processes, each `worker_app`);
    one worker runs the same way, in one process."""
    from mafiatab.web.server import WORKER_DB_ENV

    env = {**os.environ, WORKER_DB_ENV: url, "MAFIATAB_SECRET": "bench"}
    code = ("import uvicorn; uvicorn.run('mafiatab.web.server:worker_app', factory=True, "
            f"workers={workers}, host='127.0.0.1', port={port}, log_level='error', "
            f"backlog={backlog}, proxy_headers=False)")
    return subprocess.Popen([*pinned(pin), sys.executable, "-c", code], env=env)


def wait_up(base: str, seconds: float = 120) -> None:
    """Until the server answers `/api/session` (or give up: the bench stops)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            if httpx.get(base + "/api/session", timeout=1).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.1)
    raise SystemExit(f"the server at {base} did not start")


@dataclass(frozen=True, slots=True)
class Server:
    port: int
    base: str
    process: subprocess.Popen[bytes]

    @property
    def pid(self) -> int:
        return self.process.pid


@contextmanager
def serving(url: str, *, workers: int | None = None, backlog: int = 2048,
            per_address: str | None = None, stop_wait: float = 20,
            profile: str | None = None, plain: bool = False,
            pin: str | None = None) -> Iterator[Server]:
    """The app on a free port, up and answering, stopped when the block ends. `workers`:
    `serve --workers N`'s way (None: one `create_app` process); `pin`: its cores."""
    port = free_port()
    process = (start_app(url, port, backlog=backlog, per_address=per_address,
                         profile=profile, plain=plain, pin=pin)
               if workers is None else start_workers(url, port, workers, backlog=backlog,
                                                     pin=pin))
    try:
        server = Server(port, f"http://127.0.0.1:{port}", process)
        wait_up(server.base)
        yield server
    finally:
        process.terminate()
        process.wait(stop_wait)
