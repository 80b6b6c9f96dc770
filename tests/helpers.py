"""Builders for small tournaments in format 1, for golden tests that cite their clause.

The default table: seats 1-10 played by p1-p10 with roles
1 red, 2 red, 3 sheriff, 4 black, 5 red, 6 don, 7 red, 8 black, 9 red, 10 red.
"""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from mafiatab.domain.problems import Problem, ProtocolRefused
from mafiatab.domain.standings import Row, Standings
from mafiatab.services.tournament_file import load_tournament, standings_of

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"
EXAMPLES = SHARED / "spec" / "examples"

ROLES = {1: "red", 2: "red", 3: "sheriff", 4: "black", 5: "red", 6: "don", 7: "red",
         8: "black", 9: "red", 10: "red"}
BLACK_SEATS = [4, 6, 8]


def game(gid: str = "g1", *, players: list[str] | None = None, roles: dict[int, str] | None = None,
         result: str = "red", stage: str = "qual", rnd: int = 1, table: int = 1,
         **fields: Any) -> dict[str, Any]:
    """A format-1 game; `players` in seat order (default p1..p10)."""
    players = players or [f"p{i}" for i in range(1, 11)]
    roles = roles or ROLES
    g: dict[str, Any] = {
        "id": gid, "stage": stage, "round": rnd, "table": table,
        "seats": [{"seat": i, "player": players[i - 1], "role": roles[i]} for i in range(1, 11)],
        "result": result, "first_killed": None,
    }
    g.update(fields)
    return g


def tournament(rules: str, games: list[dict[str, Any]], *, n_players: int = 10,
               stages: list[dict[str, Any]] | None = None, **fields: Any) -> dict[str, Any]:
    ids = {s["player"] for g in games for s in g["seats"]}
    ids |= {f"p{i}" for i in range(1, n_players + 1)}
    t: dict[str, Any] = {
        "format": "mafiatab.tournament/1", "name": "test", "rules": rules,
        "players": [{"id": pid, "nickname": pid.upper()} for pid in sorted(ids)],
        "stages": stages or [{"id": "qual", "name": "Qual", "kind": "qualification"}],
        "games": games,
    }
    t.update(fields)
    return t


def dumps(t: dict[str, Any]) -> bytes:
    return json.dumps(t, ensure_ascii=False).encode()


def standings(t: dict[str, Any], stages: list[str] | None = None) -> Standings:
    return standings_of(load_tournament(dumps(t)), stages)


def rows(t: dict[str, Any], stages: list[str] | None = None) -> dict[str, Row]:
    return {r.player: r for r in standings(t, stages).rows}


def refused(t: dict[str, Any]) -> list[Problem]:
    """The problems of a file that must be refused (fails the test if it is accepted)."""
    try:
        load_tournament(dumps(t))
    except ProtocolRefused as e:
        return [p for p in e.problems if not p.warning]
    raise AssertionError("the file was accepted but must be refused")


def codes(problems: list[Problem]) -> set[str]:
    return {p.code for p in problems}


def pts(value: object) -> float:
    """Hundredths (int or Fraction) as points, for readable assertions."""
    from fractions import Fraction

    assert isinstance(value, int | Fraction)
    return float(Fraction(value) / 100)


def free_port(ports: range) -> int:
    """The first free loopback port of `ports` (a machine shared by several people gives
    each area a range), else any free one."""
    import socket

    for port in ports:
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        free: int = s.getsockname()[1]
        return free


@contextmanager
def serving(app: Any, port: int | None = None) -> Iterator[str]:
    """A real uvicorn server of `app` in a thread on 127.0.0.1 (a free port unless given):
    its address, once it has started (waited for as a state, up to two minutes on a loaded
    machine); stopped on the way out."""
    import uvicorn

    if port is None:
        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            port = sock.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port,
                                           log_level="warning", timeout_graceful_shutdown=1))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 120
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "the app did not start"
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(10)
