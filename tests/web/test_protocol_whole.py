"""One protocol, kept whole on its way from the judge to the standings.

Through the page and the JSON API alike: a protocol never contradicts its game log
(design.md point 4), nothing the judge typed is dropped silently, a stale autosave never
overwrites somebody else's revision, and every paper field (FIIM 9.2-9.11) survives the
form, the API, the database, the export, the official PDF and the way back.
"""

from __future__ import annotations

import re
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from mafiatab.formats.pdf import protocols_pdf, sheet_of_game
from mafiatab.formats.tournament_json import dumps_tournament, read_tournament
from mafiatab.services.facade import Services
from mafiatab.services.tournament_file import load_tournament, profile_for
from mafiatab.storage.engine import make_engine
from mafiatab.web import forms
from tests.web.conftest import World, csrf_of
from tests.web.test_live import ROLES, Table, fresh_table

LOG_CLAUSE = "docs/gamelog.md"


@pytest.fixture()
def table(world: World, client_for: Callable[[str], TestClient]) -> Table:
    return fresh_table(world, client_for)


def _play(t: Table) -> dict[str, Any]:
    """The whole game of test_live: red wins, first killed 1 names 3 and 9, one left by
    day one's vote, seat 8 has a foul."""
    t.send(type="deal", roles=ROLES)
    t.speeches({1: 5, 2: 9})
    t.send(type="vote", votes={"5": [1, 2, 3, 4, 6, 7], "9": []})
    t.send(type="last_words", seat=5)
    t.send(type="shot", target=1)
    t.send(type="best_move", seat=1, seats=[3, 9])
    t.send(type="foul", seat=8)
    t.speeches({2: 9, 4: 3})
    t.send(type="vote", counts={"9": 5})
    t.send(type="shot", target=2)
    state = t.speeches({4: 3})
    assert state["ended"] and state["result"] == "red"
    return state


def _url(world: World, what: str = "") -> str:
    return f"/t/{world.demo.tournament}/games/{world.demo.open_games[0]}{what}"


def _api(world: World, what: str = "") -> str:
    return "/api" + _url(world, what)


def _head(c: TestClient, world: World) -> dict[str, Any]:
    r = c.get(_api(world), headers={"X-CSRF-Token": csrf_of(c)})
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


def _seats_form(protocol: dict[str, Any], csrf: str, base: int, **values: str) -> dict[str, str]:
    form = {"csrf": csrf, "base": str(base)}
    for s in protocol["seats"]:
        form[f"player_{s['seat']}"] = s["player"]
        form[f"role_{s['seat']}"] = s["role"]
    form.update(values)
    return form


def _slot_codes(html: str, name: str) -> list[str]:
    """The problem codes shown in one slot of the form."""
    start = html.index(f'id="slot-{name}"')
    end = html.find('id="slot-', start + 5)
    return re.findall(r'data-code="([a-z0-9_]+)"', html[start:end if end > 0 else None])


def test_a_live_game_then_a_changed_result_is_refused_by_the_api(
        table: Table, world: World, client_for: Callable[[str], TestClient]) -> None:
    _play(table)
    head = _head(table.c, world)
    log = head["protocol"]["log"]
    changed = dict(head["protocol"], result="black", first_killed=2)
    changed.pop("log")
    r = table.c.put(_api(world, "/draft"), headers=table.headers,
                    json={"base_revision": head["revision"], "protocol": changed})
    assert r.status_code == 422, r.text
    refused = {(p["code"], p["field"], p["clause"]) for p in r.json()["problems"]}
    assert ("log_contradicts", "result", LOG_CLAUSE) in refused
    assert ("log_contradicts", "first_killed", LOG_CLAUSE) in refused
    assert _head(table.c, world)["revision"] == head["revision"]  # nothing stored
    # a save without the log keeps the stored one (it used to be dropped)
    honest = dict(head["protocol"], scores={"4": {"extra": 0.3}})
    honest.pop("log")
    r = table.c.put(_api(world, "/draft"), headers=table.headers,
                    json={"base_revision": head["revision"], "protocol": honest})
    assert r.status_code == 200, r.text
    saved = r.json()
    assert saved["protocol"]["log"] == log
    assert saved["protocol"]["scores"]["4"]["extra"] == 0.3
    assert saved["protocol"]["fouls"] == {"8": 1}
    r = table.c.post(_api(world, "/submit"), headers=table.headers,
                     json={"base_revision": saved["revision"]})
    assert r.status_code == 200, r.text
    # the judge sees his own submitted protocol (it was a 404)
    assert table.c.get(_url(world)).status_code == 200
    assert _head(table.c, world)["state"] == "submitted"
    hj = client_for("headjudge")
    r = hj.post(_api(world, "/confirm"), headers={"X-CSRF-Token": csrf_of(hj)}, json={})
    assert r.status_code == 200, r.text
    # the export is checked clean: no contradiction with the log, no unknown field
    t = Services(make_engine(str(world.db))).tournaments.tournament(world.demo.tournament)
    loaded = load_tournament(dumps_tournament(t))  # raises ProtocolRefused on any error
    assert not [p for p in loaded.warnings if p.code == "unknown_field"], loaded.warnings
    assert any(g.log for g in loaded.tournament.games if g.id == world.demo.open_games[0])


def test_a_live_game_then_a_changed_result_is_refused_by_the_page(
        table: Table, world: World, client_for: Callable[[str], TestClient]) -> None:
    _play(table)
    head = _head(table.c, world)
    csrf = table.headers["X-CSRF-Token"]
    page = table.c.get(_url(world, "/edit"))
    assert 'id="from-log"' in page.text and 'name="result"' not in page.text
    assert 'name="first_killed"' not in page.text and 'name="fouls_8"' not in page.text
    # a form that sends other facts anyway (by hand, or an old page) is refused whole
    tampered = _seats_form(head["protocol"], csrf, head["revision"], result="black",
                           first_killed="2", extra_4="0.3")
    r = table.c.post(_url(world, "/draft"), data=tampered)
    assert r.status_code == 200 and "log_contradicts" in r.text
    r = table.c.post(_url(world, "/submit"), data=tampered)
    assert r.status_code == 422
    assert _slot_codes(r.text, "result") == ["log_contradicts"]
    after = _head(table.c, world)
    assert (after["revision"], after["state"]) == (head["revision"], "draft")
    # the form as it is shown (the log's facts read-only, not sent) submits
    honest = _seats_form(head["protocol"], csrf, head["revision"], extra_4="0.3")
    r = table.c.post(_url(world, "/submit"), data=honest, follow_redirects=False)
    assert r.status_code == 303, r.text[:3000]
    g = _head(table.c, world)
    assert g["state"] == "submitted"
    assert (g["protocol"]["result"], g["protocol"]["first_killed"],
            g["protocol"]["best_move"]) == ("red", 1, [3, 9])
    # the head judge confirms from the game page, which shows the whole protocol
    hj = client_for("headjudge")
    page = hj.get(_url(world))
    assert 'id="confirm"' in page.text and 'id="protocol-table"' in page.text
    assert "FSM 8.4" in page.text or "ФСМ 8.4" in page.text  # the extra's clause
    r = hj.post(_url(world, "/confirm"), follow_redirects=False,
                data={"csrf": csrf_of(hj), "base": str(g["revision"]), "next": _url(world)})
    assert r.status_code == 303 and r.headers["location"] == _url(world)
    assert _head(hj, world)["state"] == "confirmed"


def test_a_stale_autosave_never_overwrites_the_head_judges_correction(
        table: Table, world: World, client_for: Callable[[str], TestClient]) -> None:
    head = _head(table.c, world)
    n = head["revision"]
    hj = client_for("headjudge")
    corrected = dict(head["protocol"], scores={"4": {"extra": 0.5}})
    r = hj.put(_api(world, "/draft"), headers={"X-CSRF-Token": csrf_of(hj)},
               json={"base_revision": n, "protocol": corrected})
    assert r.status_code == 200, r.text
    csrf = table.headers["X-CSRF-Token"]
    # the judge's other tab, opened after the correction, autosaves on top of it
    r = table.c.post(_url(world, "/draft"),
                     data=_seats_form(head["protocol"], csrf, n + 1, extra_4="0.5"))
    assert r.status_code == 200 and 'class="muted"' in r.text
    # the first tab's autosave, based on the revision before the correction, arrives late
    r = table.c.post(_url(world, "/draft"),
                     data=_seats_form(head["protocol"], csrf, n, extra_4="0.1"))
    assert "headjudge" in r.text or "err" in r.text
    after = _head(table.c, world)
    assert after["revision"] == n + 2
    assert after["protocol"]["scores"]["4"]["extra"] == 0.5


def test_an_autosave_whose_answer_was_lost_goes_on_top_and_a_refused_one_is_kept(
        table: Table, world: World, client_for: Callable[[str], TestClient]) -> None:
    head = _head(table.c, world)
    n = head["revision"]
    csrf = table.headers["X-CSRF-Token"]
    r = table.c.post(_url(world, "/draft"),
                     data=_seats_form(head["protocol"], csrf, n, extra_4="0.1"))
    assert r.status_code == 200
    # the answer never reached the phone: the next autosave still names revision n
    r = table.c.post(_url(world, "/draft"),
                     data=_seats_form(head["protocol"], csrf, n, extra_4="0.2"))
    assert r.status_code == 200 and "err" not in r.text.split(">")[0]
    after = _head(table.c, world)
    assert after["revision"] == n + 2 and after["protocol"]["scores"]["4"]["extra"] == 0.2
    # somebody else saves: the judge's next autosave is refused, and kept in the audit log
    hj = client_for("headjudge")
    hjh = {"X-CSRF-Token": csrf_of(hj)}
    r = hj.put(_api(world, "/draft"), headers=hjh,
               json={"base_revision": n + 2, "protocol": after["protocol"]})
    assert r.status_code == 200, r.text
    r = table.c.post(_url(world, "/draft"),
                     data=_seats_form(head["protocol"], csrf, n + 2, extra_4="0.3"))
    assert _head(table.c, world)["revision"] == n + 3
    audit = hj.get(f"/api/t/{world.demo.tournament}/audit", headers=hjh).json()
    kept = [e for e in audit if e["action"] == "conflict"
            and e["detail"]["game"] == world.demo.open_games[0]]
    assert kept and str(kept[-1]["detail"]["protocol"]["scores"]["4"]["extra"]) == "0.3"


def test_the_form_refuses_what_it_cannot_keep_beside_its_field(
        table: Table, world: World) -> None:
    head = _head(table.c, world)
    csrf = table.headers["X-CSRF-Token"]
    sample = world.open_game(1)
    values = forms.form_from_game(sample)
    values.pop("first_killed", None)
    values.update(csrf=csrf, base=str(head["revision"]), best_move_1="3", best_move_2="",
                  best_move_3="",
                  day_1_nominated="2>11 4>9", day_1_votes="9:7 3:6", day_1_left="9 3",
                  day1_vote_left="1", fouls_6="4")
    r = table.c.post(_url(world, "/check"), data=values)
    assert r.status_code == 200
    assert "seat_number" in _slot_codes(r.text, "days")  # seat 11 is not dropped
    assert "vote_too_many" in _slot_codes(r.text, "days")  # 13 votes at ten players
    assert "vote_not_nominated" in _slot_codes(r.text, "days")  # 3 was not nominated
    assert "bm_without_fk" in _slot_codes(r.text, "best_move")
    assert "day1_left_mismatch" in _slot_codes(r.text, "day1_vote_left")
    assert "fouls_no_removal" in _slot_codes(r.text, "seat-6")
    # the draft keeps the best move it cannot score yet (it used to be dropped)
    r = table.c.post(_url(world, "/draft"), data=values)
    assert r.status_code == 200
    assert _head(table.c, world)["protocol"]["best_move"] == [3]
    r = table.c.post(_url(world, "/submit"), data=values)
    assert r.status_code == 422 and _head(table.c, world)["state"] == "draft"


PAPER = {
    "fouls_2": "1", "fouls_7": "3",
    "expl_4": "Доп. балл за точный анализ на второй день",
    "expl_8": "Штраф: реплика вне очереди",
    "day_1_nominated": "2>5 4>9", "day_1_votes": "5:5 9:5", "day_1_revote": "5:4 9:6",
    "day_2_nominated": "3>6", "day_2_votes": "", "day_2_lift": "",
    "protest": "Протест игрока 7 на результат голосования",
    "protest_by": "7", "protest_at": "21:40",
    "protest_decision": "Отклонён: голосование проведено по правилам",
    "judge": "Иванов И. И.", "date": "2026-11-28",
}


def test_every_paper_field_makes_the_whole_round_trip(
        table: Table, world: World, tmp_path: Path) -> None:
    head = _head(table.c, world)
    csrf = table.headers["X-CSRF-Token"]
    sample = world.open_game(1)
    values = forms.form_from_game(sample)
    values.update(PAPER)
    values.update(csrf=csrf, base=str(head["revision"]))
    # day one's leavers as the protocol says
    values["day_1_left"] = " ".join(["9"] * 0)
    r = table.c.post(_url(world, "/submit"), data=values, follow_redirects=False)
    assert r.status_code == 303, re.findall(r'data-code="[^"]+">[^<]*', r.text)
    api = _head(table.c, world)["protocol"]  # the API (the judge's own, submitted)
    assert api["fouls"] == {"2": 1, "7": 3}
    assert api["explanations"]["4"] == PAPER["expl_4"]
    assert api["days"][0] == {"day": 1, "nominations": [{"seat": 5, "by": 2},
                                                        {"seat": 9, "by": 4}],
                              "votes": [{"kind": "vote", "counts": {"5": 5, "9": 5}},
                                        {"kind": "revote", "counts": {"5": 4, "9": 6}}]}
    assert api["protest"] == {"by": 7, "at": "21:40", "text": PAPER["protest"],
                              "decision": PAPER["protest_decision"]}
    # the game page of this FSM tournament shows every paper field, citing no FIIM clause
    page = table.c.get(f"/t/{world.demo.tournament}/games/{world.demo.open_games[0]}").text
    assert "Протест игрока 7" in page and PAPER["expl_4"] in page
    assert "ФИИМ" not in page and "FIIM" not in page
    # the database, then the export, read back with no unknown field
    svc = Services(make_engine(str(world.db)))
    t = svc.tournaments.tournament(world.demo.tournament)  # confirmed games only: add the submitted one
    stored = svc.games.head(world.demo.tournament, world.demo.open_games[0]).game_struct()
    t.games = [g for g in t.games if g.id != stored.id] + [stored]
    text = dumps_tournament(t)
    back, problems = read_tournament(text)
    assert back is not None
    assert not [p for p in problems if p.code == "unknown_field"], problems
    again = next(g for g in back.games if g.id == stored.id)
    assert again == stored
    # the official PDF, front and back (pdftotext)
    profile, _ = profile_for(back)
    pdf = tmp_path / "protocol.pdf"
    pdf.write_bytes(protocols_pdf([sheet_of_game(back, profile, again, "ru")], "ru"))
    printed = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True,
                             text=True, check=True).stdout
    front, _, rear = printed.partition("\f")
    for shown in ("2→5", "4→9", "5: 5, 9: 5", "переголосование: 5: 4, 9: 6", "3→6",
                  "Протест игрока 7", "21:40", "Иванов И. И.", "2026-11-28"):
        assert shown in front, shown
    for shown in ("Доп. балл за точный анализ", "реплика вне очереди",
                  "Отклонён: голосование проведено"):
        assert shown in rear, shown
    foul_rows = [line for line in front.splitlines() if re.match(r"\s*(2|7)\s", line)]
    assert any(line.count("X") == 3 for line in foul_rows), foul_rows
    # and back into the form: every paper value as the judge typed it
    shown_again = forms.form_from_game(again)
    for key, value in PAPER.items():
        if value:
            assert shown_again.get(key) == value, key


def test_hidden_extras_leak_neither_through_the_order_nor_an_export(
        world: World, client_for: Callable[[str], TestClient]) -> None:
    """FSM "closed tables": while extras are hidden the public table is ordered by what
    it shows (main points, then wins), and nothing public carries the extras."""
    hj = client_for("headjudge")
    hjh = {"X-CSRF-Token": csrf_of(hj)}
    tid = world.demo.tournament
    r = hj.post(f"/api/t/{tid}/options", headers=hjh, json={"extras_hidden": True})
    assert r.status_code == 200, r.text
    try:
        anon = client_for("anon")
        rows = anon.get(f"/api/t/{tid}/standings").json()["standings"]
        keys = [(-r["main"], -r["wins"]) for r in rows]
        assert keys == sorted(keys) and len(rows) > 3
        assert all("total" not in r and "extra" not in r for r in rows)
        page = anon.get(f"/t/{tid}/standings").text
        shown = re.findall(r'data-player="([^"]+)"', page)
        assert shown == [r["player"] for r in rows]
        for path in ("export/standings.xlsx", "export/standings.csv",
                     "export/standings.pdf", f"games/{world.sample.games[0].id}/protocol.pdf"):
            assert anon.get(f"/t/{tid}/{path}").status_code in (401, 403, 404), path
        game = anon.get(f"/api/t/{tid}/games/{world.sample.games[0].id}").json()["protocol"]
        assert "scores" not in game and "explanations" not in game
    finally:
        hj.post(f"/api/t/{tid}/options", headers=hjh, json={"extras_hidden": False})
