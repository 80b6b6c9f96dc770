"""A third federation, added as one profile module and its registration (tests/profiles/
umf.py), runs through the whole program: its golden cases (named after its clauses), the
CLI (`standings`, `explain`, the help), the web form (a protocol entered, submitted and
confirmed) and the PDF exports. Its clauses appear under its own name, and no other
federation's name or clause does."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from mafiatab.domain.protocol import Tournament
from mafiatab.domain.scoring import score_game
from mafiatab.rules import FSM, PROFILES, RuleProfile, choices, register
from mafiatab.sample import sample_tournament
from mafiatab.services.tournament_file import write_tournament_file
from mafiatab.web import forms
from mafiatab.web.app import create_app
from mafiatab.web.demo import DEMO_PASSWORD, Demo, build_demo
from mafiatab.web.security import SignInLimits

ROOT = Path(__file__).resolve().parents[2]
#: the other federations' names and clauses, in both languages
OTHERS = re.compile(r"\b(?:FSM|FIIM|ФСМ|ФИИМ)\b")
RELAXED = SignInLimits(per_address="100000/minute", per_account="100000/minute",
                       per_code="100000/minute")


@dataclass
class Cup:
    sample: Tournament
    file: Path
    demo: Demo
    app: object


@pytest.fixture(scope="module")
def umf() -> Iterator[RuleProfile]:
    """The third federation, registered as its module does it, for this module only (the
    rest of the suite knows the program's own profiles)."""
    from tests.profiles import umf as module

    yield register(module.UMF)
    PROFILES.pop(module.UMF.id, None)


@pytest.fixture(scope="module")
def cup(umf: RuleProfile, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cup]:
    folder = tmp_path_factory.mktemp("umf")
    sample = sample_tournament(umf.id, 20, 3, seed=2026, final_round=True, name="UMF cup")
    file = folder / "umf.json"
    write_tournament_file(sample, file)
    demo = build_demo(folder / "umf.sqlite", sample)
    yield Cup(sample, file, demo, create_app(str(folder / "umf.sqlite"), secret="umf",
                                             limits=RELAXED))


# --- the profile and its golden cases ---------------------------------------------------


def test_the_registration_is_all_the_program_is_told(umf: RuleProfile) -> None:
    assert PROFILES[umf.id] is umf
    assert umf.federation_in("ru") == "УФМ" and umf.title_in("ru") == "УФМ 2026"
    # every clause of the copy is cited under its own name
    assert all(not OTHERS.search(r.clause) for r in umf.settings().values())
    assert umf.paper_clause.startswith("UMF")
    assert "umf2026 (УФМ 2026)" in choices("ru")


def test_umf_4_1_a_win_is_1_2(cup: Cup, umf: RuleProfile) -> None:
    """UMF 4.1: each player of the winning team gets 1.2 (FSM's copy gives 1)."""
    game = next(g for g in cup.sample.games if g.result == "red")
    ours, fsm = score_game(game, umf), score_game(game, FSM)
    assert (ours.win.points, ours.win.clause) == (120, "UMF 4.1")
    assert (fsm.win.points, fsm.win.clause) == (100, "FSM 8.2.1-8.2.2")
    assert ours.win_roles == fsm.win_roles == frozenset({"red", "sheriff"})


def test_umf_4_3_its_own_best_move_scale(cup: Cup, umf: RuleProfile) -> None:
    """UMF 4.3: two of the first killed's guesses right give 0.4 (FSM's copy: 0.3)."""
    assert umf.best_move_points.value[2] == 40 and FSM.best_move_points.value[2] == 30
    for game in cup.sample.games:
        for parts in score_game(game, umf).parts.values():
            for p in parts:
                if p.kind == "best_move":
                    assert p.clause == "UMF 4.3" and p.points in umf.best_move_points.value


# --- the CLI ---------------------------------------------------------------------------


def test_standings_and_explain_in_the_cli(cup: Cup) -> None:
    from mafiatab.cli import app

    runner = CliRunner()
    table = runner.invoke(app, ["standings", str(cup.file)])
    assert table.exit_code == 0, table.output
    assert "UMF cup" in table.output or "Отбор" in table.output
    assert not OTHERS.search(table.output), table.output
    player = cup.sample.players[0].nickname
    explained = runner.invoke(app, ["explain", str(cup.file), player])
    assert explained.exit_code == 0, explained.output
    assert "УФМ 4.1" in explained.output
    assert not OTHERS.search(explained.output), explained.output


def test_the_cli_help_lists_the_registered_profiles() -> None:
    """The help is the registry's: a profile registered before the CLI starts is listed."""
    run = subprocess.run(
        [sys.executable, "-c", "import sys; import tests.profiles.umf; "
         "from mafiatab.cli import app; sys.argv = ['mafiatab', 'demo', '--help']; app()"],
        cwd=ROOT, capture_output=True, text=True, env={"COLUMNS": "200", "PATH": ""},
        check=False)
    assert "umf2026 (УФМ 2026)" in run.stdout, run.stdout + run.stderr
    assert "fiim2018 (ФИИМ 2018)" in run.stdout and "fsm (ФСМ)" in run.stdout


# --- the web form and the PDF ----------------------------------------------------------


def _signed_in(cup: Cup, user: str) -> tuple[TestClient, str]:
    c = TestClient(cup.app, base_url="http://testserver")  # type: ignore[arg-type]
    csrf = c.get("/api/session").json()["csrf"]
    r = c.post("/api/login", json={"user": user, "password": DEMO_PASSWORD},
               headers={"X-CSRF-Token": csrf})
    assert r.status_code == 200, r.text
    return c, c.get("/api/session").json()["csrf"]


def _pdf_text(data: bytes, tmp_path: Path) -> str:
    if shutil.which("pdftotext") is None:
        pytest.fail("pdftotext is missing: scripts/test installs poppler-utils")
    path = tmp_path / "x.pdf"
    path.write_bytes(data)
    return subprocess.run(["pdftotext", "-layout", str(path), "-"], check=True,
                          capture_output=True, text=True).stdout


def test_a_protocol_through_the_web_form_and_the_pdf(cup: Cup, tmp_path: Path) -> None:
    tid, code = cup.demo.tournament, cup.demo.open_games[0]
    last = max(g.round for g in cup.sample.games if g.stage == "qual")
    played = next(g for g in cup.sample.games
                  if g.stage == "qual" and g.round == last and g.table == 1)
    assert code == f"qual-r{last}-t1"
    c, csrf = _signed_in(cup, "judge1")  # the demo's judge of table 1
    url = f"/t/{tid}/games/{code}"
    page = c.get(url + "/edit")
    assert page.status_code == 200, page.text[:2000]
    # the form's parts that cite a clause cite this federation's
    assert "УФМ 4.9" in page.text and "УФМ 4.7" in page.text
    assert not OTHERS.search(page.text), OTHERS.findall(page.text)
    # the judge enters the sample's protocol of his table and submits it
    head = c.get("/api" + url, headers={"X-CSRF-Token": csrf}).json()
    values = forms.form_with_typed(played, {})
    values.update(csrf=csrf, base=str(head["revision"]))
    r = c.post(url + "/submit", data=values, follow_redirects=False)
    assert r.status_code == 303, r.text[:3000]
    hj, hj_csrf = _signed_in(cup, "headjudge")
    submitted = hj.get("/api" + url, headers={"X-CSRF-Token": hj_csrf}).json()
    assert submitted["state"] == "submitted"
    r = hj.post(url + "/confirm", follow_redirects=False,
                data={"csrf": hj_csrf, "base": str(submitted["revision"]), "next": url})
    assert r.status_code == 303, r.text[:2000]
    game_page = hj.get(url)
    assert "УФМ 4.1" in game_page.text  # each point by its clause
    assert not OTHERS.search(game_page.text), OTHERS.findall(game_page.text)
    # the PDF of the protocol and of the standings
    protocol = _pdf_text(hj.get(url + "/protocol.pdf").content, tmp_path)
    assert "УФМ" in protocol and not OTHERS.search(protocol), protocol
    standings = _pdf_text(hj.get(f"/t/{tid}/export/standings.pdf").content, tmp_path)
    assert "УФМ 2026" in standings and not OTHERS.search(standings), standings
