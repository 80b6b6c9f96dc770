"""The invariants through the web: the protocol form and the JSON API refuse one player at
two tables at submit and confirm with the rule, round, table and seat; the form shows the
seated player and changes him only by a recorded replacement; the head judge's pages warn."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from mafiatab.services.facade import Services
from mafiatab.web import forms
from mafiatab.web.app import create_app
from tests.invariants.world import (
    HEAD,
    J1,
    PASSWORD,
    SEATING,
    code_of,
    make_world,
    protocol,
    submitted_by_old_code,
)
from tests.storage.conftest import migrated_engine
from tests.web.conftest import RELAXED


class Site:
    def __init__(self, folder: Path, template: Path) -> None:
        engine = migrated_engine(str(folder / "site.sqlite"), template)
        self.svc = Services(engine)
        self.tid = make_world(self.svc)
        self.app = create_app(engine, secret="test-secret", limits=RELAXED)

    def client(self, user: str) -> TestClient:
        c = TestClient(self.app, base_url="http://testserver")
        csrf = c.get("/api/session").json()["csrf"]
        r = c.post("/api/login", json={"user": user, "password": PASSWORD},
                   headers={"X-CSRF-Token": csrf})
        assert r.status_code == 200, r.text
        return c


@pytest.fixture
def site(tmp_path: Path, migrated_sqlite: Path) -> Iterator[Site]:
    yield Site(tmp_path, migrated_sqlite)


def csrf(c: TestClient) -> str:
    token: str = c.get("/api/session").json()["csrf"]
    return token


def _typed(site: Site, code: str) -> dict[str, str]:
    """The form of table 1 filled in validly, with seat 1 typed as table 2's seat 1."""
    players = list(SEATING[1][1])
    players[0] = "p11"
    return forms.form_from_game(protocol(site.svc, site.tid, code, players))


def test_form_shows_the_seated_player_and_refuses_another_tables(site: Site) -> None:
    tid, code = site.tid, code_of(1, 1, site.svc, site.tid)
    judge = site.client(J1)
    page = judge.get(f"/t/{tid}/games/{code}/edit")
    assert page.status_code == 200
    # the seated player, no free choice: his name, a hidden value, a link to replace him
    assert 'name="player_1"' in page.text and '<select class="pf-player"' not in page.text
    seat1 = re.search(r'id="seated_1"[^>]*>([^<]*)<', page.text)
    assert seat1 is not None and seat1.group(1).strip() == "Игрок 1"
    assert f'href="/t/{tid}/games/{code}/replace?seat=1"' in page.text
    # a crafted post with table 2's player: refused beside seat 1, with round, table, rule
    base = str(site.svc.games.head(tid, code).number)
    r = judge.post(f"/t/{tid}/games/{code}/submit",
                   data={**_typed(site, code), "base": base, "csrf": csrf(judge)})
    assert r.status_code == 422
    slot = re.search(r'<div id="slot-seat-1" class="err">(.*?)</div>\s*</div>', r.text, re.S)
    assert slot is not None
    assert "тур 1, стол 1: игрок Игрок 11 в этом туре уже записан за столом 2 (место 1)" in slot.group(1)
    assert "правило турнира: одна игра за тур" in slot.group(1)
    assert "замена не записана" in slot.group(1)
    # nothing typed is dropped: kept as a draft, not submitted
    head = site.svc.games.head(tid, code)
    assert head.state == "draft" and head.game_struct().player_at(1) == "p11"
    # the autosave keeps the draft too and flags it beside seat 1
    saved = judge.post(f"/t/{tid}/games/{code}/draft",
                       data={**_typed(site, code), "base": str(head.number),
                             "csrf": csrf(judge)})
    assert saved.status_code == 200 and "одна игра за тур" in saved.text


def test_api_refuses_at_submit_and_confirm(site: Site) -> None:
    tid, svc = site.tid, site.svc
    t1, t2 = code_of(1, 1, svc, tid), code_of(1, 2, svc, tid)
    judge = site.client(J1)
    players = list(SEATING[1][1])
    players[0] = "p11"
    bad = protocol(svc, tid, t1, players)
    from mafiatab.services.tournaments import encode_game, protocol_dict

    h = {"X-CSRF-Token": csrf(judge)}
    r = judge.put(f"/api/t/{tid}/games/{t1}/draft",
                  json={"protocol": protocol_dict(encode_game(bad)),
                        "base_revision": svc.games.head(tid, t1).number}, headers=h)
    assert r.status_code == 200, r.text
    r = judge.post(f"/api/t/{tid}/games/{t1}/submit", json={}, headers=h)
    assert r.status_code == 422
    problems = {(p["code"], p["game"], p["seat"], p["clause"]): p["params"]
                for p in r.json()["problems"]}
    twice = problems[("twice_in_round", t1, 1, "tournament rule: one game a round")]
    assert (twice["round"], twice["table"], twice["player"], twice["other_table"]) == (
        1, 1, "p11", 2)
    # an old database's submitted protocol: the head judge's confirm is refused alike
    submitted_by_old_code(svc, tid, t1, bad, J1)
    head = site.client(HEAD)
    r = head.post(f"/api/t/{tid}/games/{t1}/confirm", json={},
                  headers={"X-CSRF-Token": csrf(head)})
    assert r.status_code == 422
    assert {(p["code"], p["seat"]) for p in r.json()["problems"]} == {
        ("twice_in_round", 1), ("not_seated_here", 1)}
    # the head judge's pages warn: the queue and the game page (confirm disabled)
    manage = head.get(f"/t/{tid}/manage")
    assert 'id="record-problems"' in manage.text
    assert "тур 1, стол 1: игрок Игрок 11 в этом туре уже записан за столом 2" in manage.text
    game = head.get(f"/t/{tid}/games/{t1}")
    assert 'id="record-problems"' in game.text and "правило турнира: одна игра за тур" in game.text
    assert re.search(r'<button class="confirm" id="confirm" disabled', game.text)
    # and the web form's confirm is refused with the same words
    r = head.post(f"/t/{tid}/games/{t1}/confirm", data={"csrf": csrf(head)})
    assert r.status_code == 422 and "одна игра за тур" in r.text
    assert svc.games.head(tid, t1).state == "submitted"
    assert not head.get(f"/t/{tid}/games/{t2}").text.count('id="record-problems"')


def test_replacement_through_the_form(site: Site) -> None:
    tid, svc = site.tid, site.svc
    code = code_of(1, 1, svc, tid)
    judge = site.client(J1)
    page = judge.get(f"/t/{tid}/games/{code}/replace?seat=1")
    assert page.status_code == 200 and "Игрок 1" in page.text
    base = str(svc.games.head(tid, code).number)
    # another table's player of the round: refused, with why
    r = judge.post(f"/t/{tid}/games/{code}/replace",
                   data={"seat": "1", "player": "p11", "reason": "заболел", "base": base,
                         "csrf": csrf(judge)})
    assert r.status_code == 422 and "одна игра за тур" in r.text
    # without a reason: refused
    r = judge.post(f"/t/{tid}/games/{code}/replace",
                   data={"seat": "1", "player": "p21", "reason": " ", "base": base,
                         "csrf": csrf(judge)})
    assert r.status_code == 400 and "укажите причину замены" in r.text
    r = judge.post(f"/t/{tid}/games/{code}/replace",
                   data={"seat": "1", "player": "p21", "reason": "заболел", "base": base,
                         "csrf": csrf(judge)}, follow_redirects=False)
    assert r.status_code == 303
    edit = judge.get(f"/t/{tid}/games/{code}/edit")
    seat1 = re.search(r'id="seated_1"[^>]*>([^<]*)<', edit.text)
    assert seat1 is not None and seat1.group(1).strip() == "Игрок 21"
    audit = site.client(HEAD).get(f"/t/{tid}/audit")
    assert "заменил(а) игрока на месте 1 игры" in audit.text and "заболел" in audit.text
    assert "Игрок 1 → Игрок 21" in audit.text




def test_api_draft_is_kept_and_answers_with_the_record_problems(site: Site) -> None:
    """PUT .../draft keeps the draft and says beside it what POST .../check says of the
    record: the same problems in the same shape; a draft that holds has none."""
    tid, svc = site.tid, site.svc
    t1 = code_of(1, 1, svc, tid)
    judge = site.client(J1)
    players = list(SEATING[1][1])
    players[0] = "p11"
    from mafiatab.services.tournaments import encode_game, protocol_dict

    bad = protocol_dict(encode_game(protocol(svc, tid, t1, players)))
    h = {"X-CSRF-Token": csrf(judge), "Accept-Language": "ru"}
    base = svc.games.head(tid, t1).number
    r = judge.put(f"/api/t/{tid}/games/{t1}/draft",
                  json={"protocol": bad, "base_revision": base}, headers=h)
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["revision"] == base + 1 and body["state"] == "draft"
    assert body["protocol"]["seats"][0]["player"] == "p11"  # kept as typed
    checked = judge.post(f"/api/t/{tid}/games/{t1}/check",
                         json={"protocol": bad, "base_revision": base + 1},
                         headers=h).json()["problems"]
    record = [p for p in checked if p["code"] in ("twice_in_round", "not_seated_here")]
    assert record and body["problems"] == record
    assert {(p["code"], p["seat"]) for p in body["problems"]} == {
        ("twice_in_round", 1), ("not_seated_here", 1)}
    assert all(p["message"] for p in body["problems"])
    good = protocol_dict(encode_game(protocol(svc, tid, t1, list(SEATING[1][1]))))
    r = judge.put(f"/api/t/{tid}/games/{t1}/draft",
                  json={"protocol": good, "base_revision": base + 1}, headers=h)
    assert r.status_code == 200 and r.json()["problems"] == []


def test_live_screen_shows_the_record_problems_in_words(site: Site) -> None:
    """The live screen's state (its JSON and the page's boot) names the tournament-wide
    problems of the game as kept, in words; a game that holds shows none."""
    tid, svc = site.tid, site.svc
    t1, t2 = code_of(1, 1, svc, tid), code_of(1, 2, svc, tid)
    players = list(SEATING[1][1])
    players[0] = "p11"
    svc.protocols.save_draft(tid, t1, protocol(svc, tid, t1, players), actor=J1,
                             base_revision=svc.games.head(tid, t1).number)
    judge = site.client(J1)
    state = judge.get(f"/api/t/{tid}/games/{t1}/live", headers={"Accept-Language": "ru"}).json()
    record = state["record_problems"]
    assert {(p["code"], p["seat"]) for p in record} == {("twice_in_round", 1),
                                                       ("not_seated_here", 1)}
    words = " ".join(p["text"] for p in record)
    assert "игрок Игрок 11 в этом туре уже записан за столом 2" in words
    assert "правило турнира" in words
    assert t1 not in words  # the screen is the game's: no code
    page = judge.get(f"/t/{tid}/games/{t1}/live")
    assert page.status_code == 200 and "уже записан за столом 2" in page.text
    other = site.client("j2").get(f"/api/t/{tid}/games/{t2}/live").json()
    assert other["record_problems"] == []


def test_api_decision_that_breaks_the_record_is_refused_with_the_problems(site: Site) -> None:
    """FIIM 7.3: an accepted protest that removes a player who has played round 2 is
    refused (422) with the problem in words, the case stays open."""
    from mafiatab.domain.appeals import Filing, Kind

    tid, svc = site.tid, site.svc
    r1, r2 = code_of(1, 1, svc, tid), code_of(2, 1, svc, tid)
    for code in (r1, r2):
        svc.protocols.submit(tid, code, actor=J1, base_revision=None,
                             game=protocol(svc, tid, code))
        svc.protocols.confirm(tid, code, actor=HEAD)
    case = svc.appeals.file(tid, Filing(kind=Kind.PROTEST, player="p02", game=r1,
                                        text="оскорбление судьи"), actor=HEAD).id
    head = site.client(HEAD)
    r = head.post(f"/api/t/{tid}/appeals/{case}/decision",
                  json={"outcome": "accepted", "reason": "оскорбление судьи",
                        "change": {"seats": {"3": {"add_penalties": [
                            {"kind": "disqualification", "rule": "7.3"}]}}}},
                  headers={"X-CSRF-Token": csrf(head), "Accept-Language": "ru"})
    assert r.status_code == 422, r.text
    problems = r.json()["problems"]
    assert ("removed_plays", r2, 3) in {(p["code"], p["game"], p["seat"]) for p in problems}
    assert any("удалён с турнира" in p["message"] and "ФИИМ 7.3" in p["message"]
               for p in problems)
    assert svc.appeals.case(tid, case, actor=HEAD).case.status.value == "open"
