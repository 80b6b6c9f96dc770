"""The federation's pages are found: the front page links the tournaments, the players,
the clubs and the rating; a tournament's standings link every player to his page across
tournaments (`/people/{id}`), and that page is his."""

from __future__ import annotations

import re
from collections.abc import Callable
from html import unescape

from fastapi.testclient import TestClient

from tests.web.conftest import World


def test_the_front_page_links_the_federation_pages(
        client_for: Callable[[str], TestClient]) -> None:
    c = client_for("anon")
    page = c.get("/")
    assert page.status_code == 200
    nav = re.search(r'<nav id="federation".*?</nav>', page.text, re.S)
    assert nav is not None, page.text[:2000]
    links = dict((unescape(text), href) for href, text in
                 re.findall(r'<a href="([^"]+)">([^<]+)</a>', nav.group(0)))
    assert links == {"Турниры": "#tournaments", "Игроки": "/people", "Клубы": "/clubs",
                     "Рейтинг федерации": "/rating"}
    assert 'id="tournaments"' in page.text
    for href in ("/people", "/clubs", "/rating"):
        assert c.get(href).status_code == 200, href


def test_the_standings_link_every_player_to_his_person_page(
        world: World, client_for: Callable[[str], TestClient]) -> None:
    c = client_for("anon")
    tid = world.demo.tournament
    page = c.get(f"/t/{tid}")
    assert page.status_code == 200
    rows = re.findall(r'<tr data-player="([^"]+)">(.*?)</tr>', page.text, re.S)
    assert len(rows) == len(world.sample.players) == 20
    nick = {p.id: p.nickname for p in world.sample.players}
    seen: set[str] = set()
    for code, row in rows:
        found = re.findall(r'href="/people/(\d+)"', row)
        assert len(found) == 1, row
        seen.add(found[0])
        person = c.get(f"/people/{found[0]}")
        assert person.status_code == 200
        h1 = re.search(r"<h1>(.*?)</h1>", person.text, re.S)
        assert h1 is not None and unescape(h1.group(1)).startswith(nick[code]), (code, h1)
    assert len(seen) == 20  # twenty players, twenty different people
    # the table the phones poll carries the same links
    fragment = c.get(f"/t/{tid}/standings")
    assert len(re.findall(r'href="/people/\d+"', fragment.text)) == 20
