"""The registration's and the awards' pages and JSON API through the real app: an
external form signs up without a session; the staff decide through the API; the attacks
that must fail (an outsider, a viewer or a player deciding; a player naming awards; a
forged write without the CSRF token); the awards and the exhibition players on the
standings (page, API), the person page and the exports (XLSX, PDF); and the forms that
keep what was typed when they are refused (the teams, the set-up's seating, the seating
search)."""

from __future__ import annotations

import io
import subprocess
from collections.abc import Callable
from pathlib import Path

from fastapi.testclient import TestClient
from openpyxl import load_workbook

from mafiatab.services.facade import Services
from mafiatab.storage.engine import make_engine
from tests.web.conftest import World, csrf_of

Client = Callable[[str], TestClient]


def _svc(world: World) -> Services:
    return Services(make_engine(str(world.db)))


def test_an_external_form_signs_up_and_the_staff_decide_through_the_api(
        world: World, client_for: Client) -> None:
    tid = world.demo.tournament
    org = client_for("organizer")
    r = org.put(f"/api/t/{tid}/registration", json={"open": True, "cap": 30,
                                                    "starts_on": "2099-06-01"},
                headers={"X-CSRF-Token": csrf_of(org)})
    assert r.status_code == 200, r.text
    # an external form: no session, no CSRF token
    outside = TestClient(org.app, base_url="http://testserver")
    r = outside.post(f"/api/t/{tid}/registrations", json={"nickname": "Внешний",
                                                          "club": "Клуб"})
    assert r.status_code == 201, r.text
    rid, key = r.json()["id"], r.json()["key"]
    # unknown fields and over-long names are refused, never a 500
    assert outside.post(f"/api/t/{tid}/registrations",
                        json={"nickname": "x", "admin": True}).status_code == 422
    assert outside.post(f"/api/t/{tid}/registrations",
                        json={"nickname": "x" * 101}).status_code == 422
    # attacks: nobody but the staff accepts or declines, and never without the token
    for role in ("anon", "viewer", "judge1", "player1"):
        c = client_for(role)
        for action in ("accept", "decline"):
            r = c.post(f"/api/t/{tid}/registrations/{rid}/{action}",
                       headers={"X-CSRF-Token": csrf_of(c)})
            assert r.status_code in (401, 403), (role, action, r.status_code)
        r = c.delete(f"/api/t/{tid}/registrations/{rid}", headers={"X-CSRF-Token": csrf_of(c)})
        assert r.status_code in (401, 403), (role, "withdraw", r.status_code)
        r = c.post(f"/t/{tid}/register/{rid}/accept", data={"csrf": csrf_of(c)})
        assert r.status_code in (401, 403) or "/login" in str(r.url), (role, r.status_code)
    assert org.post(f"/api/t/{tid}/registrations/{rid}/accept").status_code == 403  # no token
    board = outside.get(f"/api/t/{tid}/registrations").json()
    assert [x["state"] for x in board["applied"] if x["id"] == rid] == ["applied"]
    r = org.post(f"/api/t/{tid}/registrations/{rid}/accept",
                 headers={"X-CSRF-Token": csrf_of(org)})
    assert r.status_code == 200 and r.json()["state"] == "accepted"
    code = r.json()["player"]
    assert any(p.id == code for p in _svc(world).tournaments.context(tid)[1])
    # the registrant withdraws with his key (a wrong key is refused)
    assert outside.post(f"/api/t/{tid}/registrations/{rid}/withdraw",
                        json={"key": "nope"}).status_code == 400
    r = outside.post(f"/api/t/{tid}/registrations/{rid}/withdraw", json={"key": key})
    assert r.status_code == 200 and r.json()["state"] == "withdrawn"
    # the front page's calendar
    page = outside.get("/").text
    assert 'id="calendar-table"' in page and "01.06.2099" in page


def test_only_the_head_judge_names_awards_and_they_show_everywhere(
        world: World, client_for: Client) -> None:
    tid = world.demo.tournament
    svc = _svc(world)
    players = svc.tournaments.context(tid)[1]
    best, aside = players[0], players[1]
    for role in ("player1", "organizer", "viewer", "judge1"):
        c = client_for(role)
        r = c.put(f"/api/t/{tid}/awards/mvp", json={"player": best.id},
                  headers={"X-CSRF-Token": csrf_of(c)})
        assert r.status_code == 403, (role, r.status_code)
        r = c.post(f"/t/{tid}/awards", data={"csrf": csrf_of(c), "award": "mvp",
                                             "player": best.id})
        assert r.status_code == 403, (role, r.status_code)
    hj = client_for("headjudge")
    r = hj.put(f"/api/t/{tid}/awards/mvp", json={"player": best.id},
               headers={"X-CSRF-Token": csrf_of(hj)})
    assert r.status_code == 200 and r.json()[0] == {"award": "mvp", "player": best.id,
                                                    "nickname": best.nickname}
    assert hj.put(f"/api/t/{tid}/awards/nonsense", json={"player": best.id},
                  headers={"X-CSRF-Token": csrf_of(hj)}).status_code == 400
    # the organizer plays a player out of the standings
    svc.roster.set_exhibition(tid, aside.id, True, actor="organizer")
    anon = client_for("anon")
    standings = anon.get(f"/api/t/{tid}/standings").json()
    assert standings["awards"][0]["nickname"] == best.nickname
    assert aside.id not in {r["player"] for r in standings["standings"]}
    assert [r["player"] for r in standings.get("exhibition", [])] == [aside.id]
    page = anon.get(f"/t/{tid}").text
    assert "лучший игрок турнира" in page and f"Вне зачёта: {aside.nickname}" in page
    person = svc.people.person_ids(tid)[best.id]
    assert "лучший игрок турнира" in anon.get(f"/people/{person}").text
    wb = load_workbook(io.BytesIO(anon.get(f"/t/{tid}/export/standings.xlsx").content))
    sheet = wb["Награды"]
    assert [c.value for c in sheet[2]] == ["лучший игрок турнира", best.nickname]
    pdf = anon.get(f"/t/{tid}/export/standings.pdf").content
    text = subprocess.run(["pdftotext", "-", "-"], input=pdf, capture_output=True,
                          check=True).stdout.decode()
    assert "лучший игрок турнира" in text and "Вне зачёта" in text
    svc.roster.set_exhibition(tid, aside.id, False, actor="organizer")


def test_refused_forms_keep_what_was_typed(world: World, client_for: Client,
                                          tmp_path: Path) -> None:
    tid = world.demo.tournament
    org = client_for("organizer")
    typed = "Команда А: nobody-here, p404"
    r = org.post(f"/t/{tid}/teams", data={"csrf": csrf_of(org), "teams": typed})
    assert r.status_code == 422 and typed in r.text
    # a withdrawn player is not seated: the seating is refused, its text kept
    svc = _svc(world)
    ten = [p.id for p in world.sample.players[:10]]
    svc.roster.withdraw(tid, ten[0], actor="organizer")
    seating = f"qual 99 1 {' '.join(ten)}"
    r = org.post(f"/t/{tid}/setup/seating", data={"csrf": csrf_of(org), "seating": seating},
                 follow_redirects=False)
    svc.roster.withdraw(tid, ten[0], actor="organizer", withdrawn=False)
    assert r.status_code == 400 and seating in r.text and 'id="seating-error"' in r.text
    assert "не сажаются" in r.text
    bad = "qual x 1 a b"
    r = org.post(f"/t/{tid}/setup/seating", data={"csrf": csrf_of(org), "seating": bad})
    assert r.status_code == 400 and bad in r.text
    pins = "nobody: 1"
    r = org.post(f"/t/{tid}/seating/generate", data={
        "csrf": csrf_of(org), "games": "7", "tables": "", "seed": "41", "pins": pins})
    assert r.status_code >= 400 and 'id="seating-error"' in r.text
    assert pins in r.text and 'value="41"' in r.text and 'value="7"' in r.text


def test_the_set_up_page_keeps_a_refused_correction_and_marks_exhibition_players(
        world: World, client_for: Client) -> None:
    tid = world.demo.tournament
    org = client_for("organizer")
    svc = _svc(world)
    first, second = svc.tournaments.context(tid)[1][:2]
    # a nickname another player has: refused, the typed values and the reason kept
    r = org.post(f"/t/{tid}/setup/players/{first.id}",
                 data={"csrf": csrf_of(org), "action": "edit", "nickname": second.nickname,
                       "club": "Новый клуб"}, follow_redirects=False)
    assert r.status_code == 400 and 'id="player-error"' in r.text
    assert f'value="{second.nickname}"' in r.text and 'value="Новый клуб"' in r.text
    assert svc.tournaments.context(tid)[1][0].nickname == first.nickname
    # out of the standings and back, from the set-up page
    org.post(f"/t/{tid}/setup/players/{first.id}",
             data={"csrf": csrf_of(org), "action": "exhibition"})
    assert svc.tournaments.context(tid)[1][0].exhibition
    assert "вне зачёта" in org.get(f"/t/{tid}/setup").text
    org.post(f"/t/{tid}/setup/players/{first.id}",
             data={"csrf": csrf_of(org), "action": "ranked"})
    assert not svc.tournaments.context(tid)[1][0].exhibition
