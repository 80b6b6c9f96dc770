"""The head judge's correction and four eyes through the real app on a real SQLite file:
the edit page of a submitted protocol is a correction form (a reason, no autosave), the
correction keeps the protocol in «Ждут подтверждения» and is marked on the game page,
in the queue, on the judge's tables, on the PDF's second page (read with pdftotext) and
in the paper CSV; the JSON API corrects the same way; four eyes is switched from the
set-up page, the API and the CLI, and then refuses the corrector's confirmation in words."""

from __future__ import annotations

import re
import subprocess
from collections.abc import Callable, Iterator
from decimal import Decimal
from pathlib import Path

import msgspec
import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from mafiatab.cli import app as cli_app
from mafiatab.domain.protocol import Game, SeatScores
from mafiatab.services.facade import Services
from mafiatab.storage.engine import make_engine
from mafiatab.web.forms import form_from_game
from tests.web.conftest import World, csrf_of, make_world

REASON = "версия частичная, а не точная"


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> World:
    return make_world(tmp_path_factory.mktemp("correct"))


@pytest.fixture(scope="module")
def svc(world: World) -> Iterator[Services]:
    engine = make_engine(str(world.db))
    yield Services(engine)
    engine.dispose()


def _winner(g: Game) -> int:
    return next(s.seat for s in g.seats if (s.role in ("red", "sheriff")) == (g.result == "red")
                and s.seat != g.first_killed)


def _extra(g: Game, seat: int, value: str, why: str | None = None) -> Game:
    old = g.scores.get(seat, SeatScores())
    return msgspec.structs.replace(
        g, scores={**g.scores, seat: msgspec.structs.replace(old, extra=Decimal(value))},
        explanations={**g.explanations, seat: why} if why else g.explanations)


def submitted(world: World, svc: Services, table: int) -> tuple[str, int, int]:
    """The open game at `table` submitted by its judge with +0,8 and his explanation:
    (code, the winner's seat, the submitted revision)."""
    tid = world.demo.tournament
    st = next(g for g in svc.games.overview(tid)
              if g.round == world.demo.open_round and g.table == table)
    g = world.open_game(table)
    seat = _winner(g)
    head = svc.games.head(tid, st.code)
    if head.state == "submitted":  # submitted already (by an earlier test of the module)
        return st.code, seat, head.number
    judged = msgspec.structs.replace(_extra(g, seat, "0.8", "+0,8 за точную версию"),
                                     id=st.code)
    info = svc.protocols.submit(tid, st.code, actor=f"judge{table}",
                                base_revision=head.number, game=judged)
    return st.code, seat, info.number


def _form(g: Game, base: int, csrf: str, reason: str) -> dict[str, str]:
    return {**form_from_game(g), "base": str(base), "csrf": csrf, "correction_reason": reason}


def _pdf_pages(data: bytes, folder: Path) -> list[str]:
    pdf = folder / "protocol.pdf"
    pdf.write_bytes(data)
    out = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True,
                         text=True, check=True).stdout
    return out.split("\f")


def test_the_correction_through_the_page_is_marked_everywhere(
        world: World, svc: Services, client_for: Callable[[str], TestClient],
        tmp_path: Path) -> None:
    tid = world.demo.tournament
    code, seat, base = submitted(world, svc, 1)
    hj = client_for("headjudge")
    page = hj.get(f"/t/{tid}/games/{code}/edit")
    assert page.status_code == 200
    assert f'action="/t/{tid}/games/{code}/correct"' in page.text
    assert 'id="correcting"' in page.text and 'name="correction_reason"' in page.text
    assert f'hx-post="/t/{tid}/games/{code}/draft"' not in page.text  # no silent autosave
    judged = svc.games.head(tid, code).game_struct()
    # no reason: refused in words, nothing stored
    r = hj.post(f"/t/{tid}/games/{code}/correct",
                data=_form(_extra(judged, seat, "0.4"), base, csrf_of(hj), " "),
                follow_redirects=False)
    assert r.status_code == 409 and "укажите причину исправления" in r.text
    assert svc.games.head(tid, code).number == base
    r = hj.post(f"/t/{tid}/games/{code}/correct",
                data=_form(_extra(judged, seat, "0.4"), base, csrf_of(hj), REASON),
                follow_redirects=False)
    assert r.status_code == 303, r.text
    assert svc.games.status(tid, code).state == "submitted"  # still in the queue
    game = hj.get(f"/t/{tid}/games/{code}").text
    marks = re.search(r'<div class="flash" id="corrections">(.*?)</div>', game, re.S)
    assert marks is not None
    text = marks.group(1)
    assert "Исправлено главным судьёй" in text and "headjudge" in text
    assert f"место {seat}: доп. балл: +0,8 → +0,4" in text and REASON in text
    assert "UTC" not in text or "(UTC" in text  # a moment on the tournament's clock, named
    # the judge's explanation never stands alone beside the changed points
    expl = re.search(r'<table id="explanations">(.*?)</table>', game, re.S)
    assert expl is not None
    assert "+0,8 за точную версию" in expl.group(1)
    assert "seat-correction" in expl.group(1) and "+0,8 → +0,4" in expl.group(1)
    # the queue says so
    manage = hj.get(f"/t/{tid}/manage").text
    waiting = re.search(r'<div class="box" id="waiting">(.*?)</div>', manage, re.S)
    assert waiting is not None and f"/games/{code}" in waiting.group(1)
    assert "исправлено главным судьёй: headjudge" in waiting.group(1)
    # the table judge sees it on his tables
    tables = client_for("judge1").get(f"/t/{tid}/judge").text
    assert "Исправлено главным судьёй" in tables and REASON in tables
    # the PDF's second page
    pdf = hj.get(f"/t/{tid}/games/{code}/protocol.pdf")
    assert pdf.status_code == 200
    back = _pdf_pages(pdf.content, tmp_path)[1]
    flat = " ".join(back.split())
    assert "Исправлено главным судьёй" in flat
    assert f"место {seat}: доп. балл: +0,8 → +0,4" in flat and REASON in flat
    assert "+0,8 за точную версию" in flat
    # confirmed (four eyes off): the paper CSV carries the mark
    r = hj.post(f"/t/{tid}/games/{code}/confirm", data={"csrf": csrf_of(hj)},
                follow_redirects=False)
    assert r.status_code == 303
    paper = hj.get(f"/t/{tid}/export/paper.csv").content.decode("utf-8-sig")
    rows = [line for line in paper.splitlines() if line.startswith(code)]
    assert any("исправлено главным судьёй" in line and REASON in line for line in rows)


def test_the_api_corrects_through_the_same_call(
        world: World, svc: Services, client_for: Callable[[str], TestClient]) -> None:
    tid = world.demo.tournament
    code, seat, base = submitted(world, svc, 2)
    hj = client_for("headjudge")
    judged = svc.games.head(tid, code).game_struct()
    from mafiatab.formats.tournament_json import game_to_dict
    from mafiatab.services.tournaments import encode_game_dict

    body = {"base_revision": base, "reason": "API: partial version",
            "protocol": msgspec.json.decode(encode_game_dict(
                game_to_dict(_extra(judged, seat, "0.4"))))}
    r = hj.post(f"/api/t/{tid}/games/{code}/correct", json=body,
                headers={"X-CSRF-Token": csrf_of(hj)})
    assert r.status_code == 200, r.text
    out = r.json()
    assert out["state"] == "submitted" and out["reason"] == "API: partial version"
    (mark,) = out["protocol"]["corrections"]
    assert mark["by"] == "headjudge" and mark["changes"] == [
        {"path": f"scores.{seat}.extra", "old": "0.8", "new": "0.4"}]
    # the judge corrects nothing
    judge = client_for("judge2")
    r = judge.post(f"/api/t/{tid}/games/{code}/correct", json={**body, "base_revision": base + 1},
                   headers={"X-CSRF-Token": csrf_of(judge)})
    assert r.status_code == 403


def test_four_eyes_from_the_page_the_api_and_the_cli(
        world: World, svc: Services, client_for: Callable[[str], TestClient]) -> None:
    tid = world.demo.tournament
    org, hj = client_for("organizer"), client_for("headjudge")
    setup = org.get(f"/t/{tid}/setup").text
    assert 'id="four-eyes-check"' in setup and "четыре глаза" in setup
    # the head judge does not switch his own check
    r = hj.post(f"/t/{tid}/setup/four-eyes", data={"csrf": csrf_of(hj), "four_eyes": "on"},
                follow_redirects=False)
    assert r.status_code == 403 and not svc.tournaments.four_eyes(tid, operator=True)
    r = org.post(f"/t/{tid}/setup/four-eyes", data={"csrf": csrf_of(org), "four_eyes": "on"},
                 follow_redirects=False)
    assert r.status_code == 303 and svc.tournaments.four_eyes(tid, operator=True)
    assert 'id="four-eyes-check" checked' in org.get(f"/t/{tid}/setup").text
    # on: the corrector does not confirm his correction, refused in words
    code, seat, base = submitted(world, svc, 2)
    judged = svc.games.head(tid, code).game_struct()
    r = hj.post(f"/t/{tid}/games/{code}/correct",
                data=_form(_extra(judged, seat, "0.6"), base, csrf_of(hj), REASON),
                follow_redirects=False)
    assert r.status_code == 303
    game = hj.get(f"/t/{tid}/games/{code}").text  # the page says so before he tries
    assert 'id="four-eyes-note"' in game and "протокол исправил(а) headjudge" in game
    assert re.search(r'id="confirm" disabled', game)
    r = hj.post(f"/t/{tid}/games/{code}/confirm", data={"csrf": csrf_of(hj)},
                follow_redirects=False)
    assert r.status_code == 403
    assert "протокол исправил(а) headjudge" in r.text and "четыре глаза" in r.text
    assert 'id="four-eyes-note"' not in org.get(f"/t/{tid}/games/{code}").text
    assert svc.games.status(tid, code).state == "submitted"
    r = org.post(f"/t/{tid}/games/{code}/confirm", data={"csrf": csrf_of(org)},
                 follow_redirects=False)
    assert r.status_code == 303 and svc.games.status(tid, code).state == "confirmed"
    # the API
    r = hj.put(f"/api/t/{tid}/four-eyes", json={"on": False}, headers={"X-CSRF-Token": csrf_of(hj)})
    assert r.status_code == 403
    r = org.put(f"/api/t/{tid}/four-eyes", json={"on": False},
                headers={"X-CSRF-Token": csrf_of(org)})
    assert r.status_code == 200 and r.json() == {"four_eyes": False}
    assert not svc.tournaments.four_eyes(tid, operator=True)
    # the CLI
    runner = CliRunner()
    done = runner.invoke(cli_app, ["four-eyes", str(tid), "on", "--as", "organizer",
                                   "--db", str(world.db)])
    assert done.exit_code == 0, done.output
    assert "«четыре глаза» включено" in done.output and svc.tournaments.four_eyes(tid, operator=True)
    refused = runner.invoke(cli_app, ["four-eyes", str(tid), "off", "--as", "headjudge",
                                      "--db", str(world.db)])
    assert refused.exit_code == 1 and svc.tournaments.four_eyes(tid, operator=True)
    actions = [a for _at, _u, a, _d in svc.tournaments.audit_log(tid, actor="organizer")]
    assert actions.count("four_eyes_on") == 2 and actions.count("four_eyes_off") == 1


def test_hidden_extras_stay_hidden_in_a_correction(
        world: World, svc: Services, client_for: Callable[[str], TestClient]) -> None:
    """With extras hidden until the end, the public reads that the head judge corrected
    the protocol, and when, but neither what (the extras) nor why."""
    tid = world.demo.tournament
    code = next(g.code for g in svc.games.overview(tid)
                if g.round == world.demo.open_round and g.table == 1)
    if svc.games.status(tid, code).state != "confirmed":  # corrected and confirmed above
        pytest.skip("runs after the page's correction of this module")
    svc.access.set_visibility(tid, actor="organizer", standings_hidden=False,
                              extras_hidden=True, finished=False)
    try:
        anon = client_for("anon")
        page = anon.get(f"/t/{tid}/games/{code}").text
        assert "Исправлено главным судьёй" in page and "headjudge" in page
        assert REASON not in page and "+0,8 → +0,4" not in page
        api = anon.get(f"/api/t/{tid}/games/{code}").json()["protocol"]
        (mark,) = api["corrections"]
        assert mark["by"] == "headjudge" and mark["reason"] == "" and mark["changes"] == []
    finally:
        svc.access.set_visibility(tid, actor="organizer", standings_hidden=False,
                                  extras_hidden=False, finished=False)
