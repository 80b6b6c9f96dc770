"""Games another system recorded, imported with `mafiatab import-records --from polemica`
and `mafiatab import`, are marked as imported with their source (the system and the files)
on every page that shows them: the front page's list, the tournament's page (its standings
are mafiatab's, computed from the imported protocols), a person's page, his club's page
and the rating; the JSON API names the source too. A tournament played here is marked on
none of them."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from html import unescape
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from mafiatab.cli import app as cli
from mafiatab.domain.provenance import import_source, records_origin
from tests.importers import polemica_records as pr
from tests.web.conftest import World
from tests.web.test_imported_results import import_and_find

NAME = "Кубок Полемики 2026"
SOURCE = "Polemica: day1.json, day2.json"
#: the imported player who is also the demo's Альфа of Клуб 1 (same nickname and club)
ALPHA = "Альфа"


def import_polemica(folder: Path, db: Path | str) -> int:
    """Polemica's records through the two commands a federation runs; the new tournament's
    id. The file's Альфа is given his club before `import` (Polemica keeps no clubs), so he
    is the demo's Альфа: one person, two tournaments."""
    day1, day2 = folder / "day1.json", folder / "day2.json"
    day1.write_text(json.dumps(pr.all_records()[:3], ensure_ascii=False), encoding="utf-8")
    day2.write_text(json.dumps({"games": pr.all_records()[3:]}, ensure_ascii=False),
                    encoding="utf-8")
    out = folder / "polemica-cup.json"
    runner = CliRunner()
    done = runner.invoke(cli, ["import-records", "--from", "polemica", str(day1), str(day2),
                               "--out", str(out), "--name", NAME])
    assert done.exit_code == 0, done.output
    doc = json.loads(out.read_text(encoding="utf-8"))
    assert doc["imported_from"] == {"system": "Polemica", "files": ["day1.json", "day2.json"]}
    for p in doc["players"]:
        if p["nickname"] == ALPHA:
            p["club"] = "Клуб 1"
    out.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
    return import_and_find(runner, out, db, NAME)


@pytest.fixture(scope="module")
def imported(world: World, tmp_path_factory: pytest.TempPathFactory) -> int:
    return import_polemica(tmp_path_factory.mktemp("polemica"), world.db)


def _alpha(c: TestClient, tid: int) -> str:
    """The person id of Альфа as the imported tournament's standings link him."""
    page = unescape(c.get(f"/t/{tid}").text)
    found = re.search(rf'<tr data-player="{ALPHA.lower()}">.*?href="/people/(\d+)"', page,
                      re.S)
    assert found is not None, page[:4000]
    return found.group(1)


def test_the_source_is_one_phrase_for_every_kind_of_import() -> None:
    assert import_source({}) is None
    assert import_source({"imported_from": records_origin("Polemica", ["a.json"])}) == \
        "Polemica: a.json"
    many = records_origin("Polemica", [f"day{i}.json" for i in range(1, 6)])
    assert import_source({"imported_from": many}) == \
        "Polemica: day1.json, day2.json, day3.json, …"
    assert import_source({"imported_from": {"system": "mafiaratings", "files": []}}) == \
        "mafiaratings"
    assert import_source({"imported_from": "not an object"}) is None
    # a published table names its file, whatever else the tournament keeps
    assert import_source({"published_results": {"source": "t.csv", "rows": []},
                          "imported_from": many}) == "t.csv"
    assert len(import_source({"imported_from": {"system": "x" * 1000}}) or "") == 200


def test_the_front_page_and_the_tournament_page_mark_the_imported_games(
        world: World, imported: int, client_for: Callable[[str], TestClient]) -> None:
    c = client_for("anon")
    front = unescape(c.get("/").text)
    row = re.search(rf'<tr><td><a href="/t/{imported}">{NAME}</a>.*?</tr>', front, re.S)
    assert row is not None, front[:3000]
    assert "импортировано" in row.group(0) and f"из «{SOURCE}»" in row.group(0)
    assert "подтверждено игр: 5 из 5" in row.group(0)  # its games, counted as any
    played = re.search(rf'<tr><td><a href="/t/{world.demo.tournament}">.*?</tr>', front, re.S)
    assert played is not None and "импортировано" not in played.group(0)

    page = unescape(c.get(f"/t/{imported}").text)
    assert 'id="imported-badge">импортировано<' in page
    assert f"Игры импортированы из «{SOURCE}»" in page
    # the standings are mafiatab's own, computed from the imported protocols
    assert 'id="standings"' in page and 'id="published"' not in page
    api = c.get(f"/api/t/{imported}/standings").json()
    assert api["imported_from"] == SOURCE and len(api["standings"]) == 12
    demo = c.get(f"/t/{world.demo.tournament}")
    assert "imported-badge" not in demo.text and "imported_from" not in \
        c.get(f"/api/t/{world.demo.tournament}/standings").json()
    en = client_for("anon")
    en.get("/lang/en")
    assert f"Games imported from '{SOURCE}'" in unescape(en.get(f"/t/{imported}").text)


def test_person_and_club_pages_mark_the_imported_tournament(
        world: World, imported: int, client_for: Callable[[str], TestClient]) -> None:
    c = client_for("anon")
    alpha = _alpha(c, imported)
    person = c.get(f"/people/{alpha}")
    listed = re.findall(r'<details class="box" data-tournament="(\d+)">', person.text)
    assert sorted(listed) == sorted([str(world.demo.tournament), str(imported)])
    part = re.search(rf'data-tournament="{imported}">.*?</details>', person.text, re.S)
    assert part is not None
    text = unescape(part.group(0))
    assert "импортировано" in text and f"Игры импортированы из «{SOURCE}»" in text
    # its games are protocols: listed and linked like any tournament's
    assert re.search(rf'href="/t/{imported}/games/[^"]+"', text)
    here = re.search(rf'data-tournament="{world.demo.tournament}">.*?</details>', person.text,
                     re.S)
    assert here is not None and "импортировано" not in here.group(0)
    data = c.get(f"/api/people/{alpha}").json()
    sources = {t["tournament"]: t["source"] for t in data["tournaments"]}
    assert sources == {imported: SOURCE, world.demo.tournament: None}

    club = unescape(c.get("/clubs/Клуб 1").text)
    row = re.search(rf'<tr data-tournament="{imported}">.*?</tr>', club, re.S)
    assert row is not None, club[:3000]
    assert "импортировано" in row.group(0) and f"из «{SOURCE}»" in row.group(0)
    own = re.search(rf'<tr data-tournament="{world.demo.tournament}">.*?</tr>', club, re.S)
    assert own is not None and "импортировано" not in own.group(0)


def test_the_rating_names_the_imported_tournament_and_its_source(
        world: World, imported: int, client_for: Callable[[str], TestClient]) -> None:
    c = client_for("anon")
    data = c.get("/api/rating").json()
    assert data["imported"] == [{"tournament": imported, "source": SOURCE}]
    page = unescape(c.get("/rating").text)
    line = re.search(r'<p class="muted" id="rating-imported">.*?</p>', page, re.S)
    assert line is not None, page[:3000]
    assert f'href="/t/{imported}">{NAME}</a>' in line.group(0)
    assert f"из «{SOURCE}»" in line.group(0)
    assert f'href="/t/{world.demo.tournament}"' not in line.group(0)
    # the "what if" of one of its games names the tournament marked
    game = next(g for g in data_games(c, imported))
    what = unescape(c.get(f"/rating?t={imported}&g={game}").text)
    head = re.search(r'<h2>[^<]*' + re.escape(NAME) + r'.*?</h2>', what, re.S)
    assert head is not None and "импортировано" in head.group(0)


def data_games(c: TestClient, tid: int) -> list[str]:
    """The ids of the tournament's games, as its API lists them."""
    games = c.get(f"/api/t/{tid}/games").json()
    items = games["games"] if isinstance(games, dict) else games
    return [str(g["id"] if "id" in g else g["game"]) for g in items]
