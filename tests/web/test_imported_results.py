"""What a federation keeps is found and shown: a standings table another system published,
imported with `mafiatab import-records --from csv` and `mafiatab import`, is a tournament
page (the table as published, marked imported, its source named), and counts on the
person pages and club pages of its players (matched to the people who played here by
nickname and club); a player's own page links his games, his cases and the appeal form;
the API, as the page's form, preselects no rules."""

from __future__ import annotations

import re
from collections.abc import Callable
from html import unescape
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from mafiatab.cli import app as cli
from mafiatab.domain.published import published_table
from mafiatab.services.facade import Services
from mafiatab.storage.engine import make_engine
from tests.web.appeal_world import PLAYER_ACCOUNT, player_of
from tests.web.conftest import World, csrf_of

#: a club's published table: two players of the demo (Бета, Альфа: same nickname and
#: club) and a newcomer; places as published, Russian decimal commas, per-game points
PUBLISHED = ("Место;Игрок;Клуб;Итого;Основные;Доп.;Игры;Победы;1;2\n"
             "1;Бета;Клуб 2;2,45;2;0,45;2;2;1,25;1,2\n"
             "2;Альфа;Клуб 1;1,1;1;0,1;2;1;1;0,1\n"
             "3;Новичок;Клуб 1;0,3;0;0,3;2;0;0,3;0\n")
NAME = "Кубок осени 2025"


def import_published(folder: Path, db: Path | str) -> int:
    """The table through the two commands a federation runs; the new tournament's id."""
    table = folder / "osen-2025.csv"
    table.write_text(PUBLISHED, encoding="utf-8")
    out = folder / "osen.json"
    runner = CliRunner()
    done = runner.invoke(cli, ["import-records", "--from", "csv", str(table), "--out",
                               str(out), "--name", NAME])
    assert done.exit_code == 0, done.output
    return import_and_find(runner, out, db, NAME)


def import_and_find(runner: CliRunner, out: Path, db: Path | str, name: str) -> int:
    """`mafiatab import` of a tournament file into the database; the tournament's id."""
    done = runner.invoke(cli, ["import", str(out), "--db", str(db)])
    assert done.exit_code == 0, done.output
    engine = make_engine(str(db))
    try:
        return Services(engine).tournaments.find_tournament(name)
    finally:
        engine.dispose()


@pytest.fixture(scope="module")
def imported(world: World, tmp_path_factory: pytest.TempPathFactory) -> int:
    return import_published(tmp_path_factory.mktemp("published"), world.db)


def _people_links(html: str) -> dict[str, str]:
    """Nickname -> person id of the published table's rows."""
    table = re.search(r'<table id="published-table".*?</table>', html, re.S)
    assert table is not None, html[:3000]
    return {unescape(nick): pid for pid, nick in
            re.findall(r'<a href="/people/(\d+)">([^<]+)</a>', table.group(0))}


def test_the_imported_table_is_a_tournament_page(
        imported: int, client_for: Callable[[str], TestClient]) -> None:
    c = client_for("anon")
    front = c.get("/")
    row = re.search(rf'<tr><td><a href="/t/{imported}">{NAME}</a>.*?</tr>', front.text, re.S)
    assert row is not None and "импортировано" in row.group(0)
    page = c.get(f"/t/{imported}")
    assert page.status_code == 200
    text = unescape(page.text)
    assert 'id="imported-badge">импортировано<' in text
    assert "Результаты импортированы из «osen-2025.csv»" in text
    rows = re.findall(r'<tr data-player="([^"]+)"><td class="n stick-place">(\d+)</td>',
                      page.text)
    assert rows == [("бета", "1"), ("альфа", "2"), ("новичок", "3")]
    # the table as published: totals, decimal commas, the per-game points
    assert "<b>2,45</b>" in page.text and "1,25 · 1,2" in page.text
    assert set(_people_links(page.text)) == {"Бета", "Альфа", "Новичок"}
    # no live standings of an empty tournament beside it
    assert 'id="standings"' not in page.text
    api = c.get(f"/api/t/{imported}/standings").json()
    assert api["standings"] == [] and api["published_results"]["source"] == "osen-2025.csv"
    assert [r["total"] for r in api["published_results"]["rows"]] == ["2.45", "1.1", "0.3"]
    en = client_for("anon")
    en.get("/lang/en")
    assert "Results imported from 'osen-2025.csv'" in unescape(en.get(f"/t/{imported}").text)


def test_the_imported_tournament_counts_on_person_and_club_pages(
        world: World, imported: int,
        client_for: Callable[[str], TestClient]) -> None:
    c = client_for("anon")
    links = _people_links(c.get(f"/t/{imported}").text)
    # Альфа played the demo here and the imported cup: the same person, two tournaments
    demo = c.get(f"/t/{world.demo.tournament}").text
    assert f'href="/people/{links["Альфа"]}"' in demo
    person = c.get(f"/people/{links['Альфа']}")
    text = unescape(person.text)
    assert "2 турнира" in text
    listed = re.findall(r'<details class="box" data-tournament="(\d+)">', person.text)
    assert sorted(listed) == sorted([str(world.demo.tournament), str(imported)])
    part = re.search(rf'data-tournament="{imported}">.*?</details>', person.text, re.S)
    assert part is not None
    summary = unescape(part.group(0))
    assert NAME in summary and "импортировано" in summary
    assert "место 2 / 3" in summary.lower() and "2 игры" in summary and "1,1" in summary
    assert "Импортированные результаты: 1 турнир, 2 игры; побед: 1; баллов: 1,1" in text
    data = c.get(f"/api/people/{links['Альфа']}").json()
    mine = next(t for t in data["tournaments"] if t["tournament"] == imported)
    assert (mine["imported"], mine["place"], mine["points"], mine["games_played"]) == \
        ("osen-2025.csv", 2, 1.1, 2)
    assert data["imported"] == {"games": 2, "wins": 1, "points": 1.1}
    # the newcomer has one tournament: the imported one
    newcomer = unescape(c.get(f"/people/{links['Новичок']}").text)
    assert "1 турнир," in newcomer and NAME in newcomer
    # his club lists it among its tournaments, marked, and counts its published figures
    club = c.get("/clubs/Клуб 1")
    assert club.status_code == 200
    row = re.search(rf'<tr data-tournament="{imported}">.*?</tr>', club.text, re.S)
    assert row is not None and "импортировано" in row.group(0) and "2 игрока" in row.group(0)
    assert re.search(r'id="club-imported">Импортированные результаты: 1 турнир, 4 игры; '
                     r'побед: 1; баллов: 1,4', unescape(club.text))


def test_the_published_table_is_read_exactly() -> None:
    """Numbers as text become exact hundredths; a row the importer never writes is left
    out rather than guessed."""
    table = published_table({"published_results": {
        "source": "t.csv", "rules_scales": "fsm", "lenient": True, "columns": ["total"],
        "rows": [{"player": "a", "nickname": "A", "place": 1, "total": "0.105",
                  "game_points": ["0.1", None, "x"],
                  "marks": [{"field": "total", "ru": "р", "en": "e"}]},
                 {"nickname": "no id"}, "not a row"]}})
    assert table is not None and len(table.rows) == 1
    (row,) = table.rows
    from fractions import Fraction

    assert row.total == Fraction(21, 2) and row.game_points == (10, None, None)
    assert row.marks[0].field == "total" and table.lenient
    assert published_table({}) is None and published_table({"published_results": []}) is None


def test_the_players_own_page_links_his_games_cases_and_the_appeal_form(
        world: World, client_for: Callable[[str], TestClient]) -> None:
    tid = world.demo.tournament
    me = client_for(PLAYER_ACCOUNT)
    page = me.get(f"/t/{tid}/me")
    assert page.status_code == 200
    nav = re.search(r'<nav id="me-links">.*?</nav>', page.text, re.S)
    assert nav is not None, page.text[:3000]
    hrefs = re.findall(r'href="([^"]+)"', nav.group(0))
    pid = player_of(world)
    assert hrefs[:2] == [f"/t/{tid}/players/{pid}", f"/t/{tid}/appeals"]
    assert re.fullmatch(rf"/t/{tid}/games/[^/]+/appeal", hrefs[2])
    for href in hrefs:
        assert me.get(href).status_code == 200, href
    cases = me.get(f"/t/{tid}/appeals").text
    assert world.case in cases
    # every game of his: its page and the form for it
    games = re.findall(r'<div class="box" data-game="([^"]+)">', page.text)
    assert games
    for g in games:
        assert f'href="/t/{tid}/games/{g}"' in page.text
        assert f'href="/t/{tid}/games/{g}/appeal"' in page.text


def test_the_api_preselects_no_rules(client_for: Callable[[str], TestClient]) -> None:
    org = client_for("organizer")
    h = {"X-CSRF-Token": csrf_of(org)}
    refused = org.post("/api/tournaments", json={"name": "Без правил"}, headers=h)
    assert refused.status_code == 422 and "rules" in refused.text
    made = org.post("/api/tournaments", json={"name": "С правилами", "rules": "fiim2018"},
                    headers=h)
    assert made.status_code == 201
    listed = {t["id"]: t["rules"] for t in org.get("/api/tournaments").json()}
    assert listed[made.json()["id"]] == "fiim2018"
