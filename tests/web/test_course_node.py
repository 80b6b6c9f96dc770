"""The course of the game on the phone and on the server are one, over thousands of games:
random FIIM and FSM games, with wrong taps between their events, go through the server's
`domain.course.Course` and through the phone's engine, the same Pyodide runtime, msgspec
wheel and bundle of the pure core that the live screen's worker loads, run here under Node
in one long-lived process (tests/web/course_node.mjs), so the runtime starts once and no
browser is paid for. At every point both must give the same next step, the same legal
events, who speaks, the same words, and the same refusals by the same clause
(tests/web/course_walk.py). test_course_browser.py checks a few games in Chromium itself,
through course.js and its worker.

Hypothesis draws the seeds; each seed plays PER_RULES games of every rule set
(tests.gamelog.strategies.random_game, the tables of `played_games` rolled by a seeded
random: the same games, many times cheaper to make). MAFIATAB_COURSE_GAMES sets how many
games in all (default 1500); the Node side and the server's side run at once.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from mafiatab.web import course_files
from tests.web.course_walk import RULES, Seen, random_scripts, rules_key, walk

PER_RULES = 10
GAMES = int(os.environ.get("MAFIATAB_COURSE_GAMES", "1500"))
EXAMPLES = max(1, GAMES // (PER_RULES * len(RULES)))
RUNNER = Path(__file__).with_name("course_node.mjs")


class Engine:
    """The phone's engine under Node, started once."""

    def __init__(self, proc: subprocess.Popen[str]) -> None:
        self.proc = proc
        self.cpu_ms = 0.0

    def send(self, games: list[dict[str, Any]]) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps(games) + "\n")
        self.proc.stdin.flush()

    def receive(self) -> list[list[Any]]:
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        assert line, f"the engine under Node stopped (exit {self.proc.poll()})"
        answer = json.loads(line)
        assert answer["ok"], answer["error"]
        self.cpu_ms = float(answer["cpu_ms"])
        traces: list[list[Any]] = answer["traces"]
        return traces


@pytest.fixture(scope="module")
def engine(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Engine]:
    node = shutil.which("node")
    name = course_files.wheel()
    if node is None or name is None or not course_files.available():
        if os.environ.get("CI"):
            pytest.fail("Node or the Pyodide runtime is missing: scripts/pyodide puts it in place")
        pytest.skip("Node or the Pyodide runtime is missing here: run scripts/pyodide")
    bundle = tmp_path_factory.mktemp("course") / "core.zip"
    bundle.write_bytes(course_files.bundle()[0])
    proc = subprocess.Popen([node, str(RUNNER), str(course_files.PYODIDE),
                             str(course_files.PYODIDE / name), str(bundle)],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        assert proc.stdout.readline().strip() == "ready", "the engine did not start under Node"
        yield Engine(proc)
    finally:
        if proc.stdin is not None:
            proc.stdin.close()
        try:
            proc.wait(30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def test_the_phone_and_the_server_walk_the_same_course(engine: Engine) -> None:
    """Every rule set, with refusals among them (a walk of legal events only would compare
    no clause)."""
    seen = Seen()

    @settings(max_examples=EXAMPLES, deadline=None, database=None,
              phases=[Phase.explicit, Phase.generate],
              suppress_health_check=[HealthCheck.too_slow])
    @given(seed=st.integers(0, 2**64 - 1))
    def check(seed: int) -> None:
        games = random_scripts(seed, PER_RULES)
        engine.send(games)  # Node walks them while this process walks its own side
        ours = [walk(g) for g in games]
        theirs = engine.receive()
        assert len(theirs) == len(games)
        for g, a, b in zip(games, ours, theirs, strict=True):
            seen.count(g, a, b)

    check()
    report = seen.report()
    print(report, f"node CPU {engine.cpu_ms / 1000:.1f} s")
    assert set(report) == {rules_key({"rules": r, "options": o}) for r, o in RULES}
    assert all(v["games"] >= EXAMPLES * PER_RULES for v in report.values())
    assert all(v["refusals"] > 0 for v in report.values())
