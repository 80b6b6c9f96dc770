"""The federation's rating on a page: which games count is the server's setting, the
"what if" of a stored game never uses that game's own result, a win raises its winners'
ratings, and a table that has not played is rated after every game of the database."""

from __future__ import annotations

import re
from urllib.parse import urlencode

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import Engine, update

from mafiatab.domain.protocol import TEAM_OF, Game
from mafiatab.services.facade import Services
from mafiatab.services.people import People, PeopleDenied, PeopleError, PeopleNotFound
from mafiatab.storage import models as db
from mafiatab.storage.engine import make_engine, upgrade
from mafiatab.web.app import create_app
from mafiatab.web.demo import DEMO_PASSWORD
from tests.people.conftest import ORGANIZER, PLAIN, game, load, people_on, tournament

NICKS = [f"Игрок {i}" for i in range(1, 13)]


def season(target_result: str) -> list[tuple[str, list[Game]]]:
    """Two tournaments of twelve people, one table a round; the second one's `g3` ends
    with `target_result` (everything else is the same whatever it is)."""
    rot = list("abcdefghijkl")
    results = ["red", "black", "red", "red", "black", "draw"]

    def order(k: int) -> list[str]:
        return (rot[k:] + rot[:k])[:10]

    first = [game(f"g{k + 1}", k + 1, order(k), results[k], date="2026-01-10",
                  first_killed=1 if k == 0 else None)
             for k in range(6)]
    second = [game(f"g{k + 1}", k + 1, order(2 * k + 1),
                   target_result if k == 2 else results[(k + 3) % 6], date="2026-02-10")
              for k in range(5)]
    return [("Январь", first), ("Февраль", second)]


def build(engine: Engine, target_result: str = "red") -> tuple[People, list[int]]:
    people, tournaments = people_on(engine)
    tids = [load(tournaments, tournament(name, NICKS, games)) for name, games in
            season(target_result)]
    return people, tids


def test_what_if_never_uses_the_games_own_result(tmp_path: object) -> None:
    views = []
    tables = []
    for result in ("red", "black"):
        engine = make_engine(str(tmp_path) + f"/{result}.sqlite")  # type: ignore[operator]
        upgrade(engine)
        people, tids = build(engine, result)
        views.append(people.what_if_game(tids[1], "g3"))
        tables.append(people.rating())
        engine.dispose()
    red, black = views
    assert red.actual == "red" and black.actual == "black"
    assert red.result.p_red == black.result.p_red
    assert 0 < red.result.p_red < 1
    assert [(s.person, s.before, dict(s.after)) for s in red.result.seats] == [
        (s.person, s.before, dict(s.after)) for s in black.result.seats]
    # ... while the rating after the season does depend on it
    assert [r.rating.rating for r in tables[0].rows] != [r.rating.rating for r in tables[1].rows]


def test_a_win_raises_the_winners_rating(sqlite_engine: Engine) -> None:
    people, tids = build(sqlite_engine)
    for tid, code in ((tids[0], "g1"), (tids[1], "g4")):
        view = people.what_if_game(tid, code)
        for s in view.result.seats:
            team = TEAM_OF[s.role]
            other = "black" if team == "red" else "red"
            assert s.after[team] > s.before, s
            assert s.after[other] < s.before, s


def test_the_federation_setting_decides_which_games_count(sqlite_engine: Engine) -> None:
    people, tids = build(sqlite_engine)
    assert people.rating().games == 11
    with pytest.raises(PeopleDenied):
        people.set_setup(actor=PLAIN, stage_kinds=["qualification"], unrated=[tids[0]],
                         elite=[])
    setup = people.set_setup(actor=ORGANIZER, stage_kinds=["qualification"],
                             unrated=[tids[0], 10**6], elite=[tids[1]])
    assert setup.unrated == {tids[0]} and setup.elite == {tids[1]}
    table = people.rating()
    assert table.games == 5 and table.tournaments == 1
    assert {g.tournament for g in table.rated} == {str(tids[1])}
    with pytest.raises(PeopleNotFound):
        people.what_if_game(tids[0], "g1")
    people.set_setup(actor=ORGANIZER, stage_kinds=["final"], unrated=[], elite=[])
    assert people.rating().games == 0
    with pytest.raises(PeopleError):
        people.set_setup(actor=ORGANIZER, stage_kinds=["group"], unrated=[], elite=[])


def test_a_table_that_has_not_played(sqlite_engine: Engine) -> None:
    people, _ = build(sqlite_engine)
    ids = [people.find(n)[0].id for n in NICKS[:10]]
    roles = ["red", "red", "sheriff", "red", "black", "red", "don", "red", "black", "red"]
    view = people.what_if_table(list(zip(ids, roles, strict=True)), "fsm")
    assert view.actual is None and 0 < view.result.p_red < 1
    ranked = {str(r.person): r.rating.rating for r in people.rating().rows}
    for s in view.result.seats:
        assert s.before == pytest.approx(ranked[s.person])  # after every game of the base
        assert s.after[TEAM_OF[s.role]] > s.before
    with pytest.raises(PeopleError) as e:
        people.what_if_table(list(zip(ids, ["red"] * 10, strict=True)), "fsm")
    assert e.value.code == "bad_table"
    with pytest.raises(PeopleError):
        people.what_if_table(list(zip(ids[:9] + ids[:1], roles, strict=True)), "fsm")


def test_the_rating_page(sqlite_engine: Engine) -> None:
    people, tids = build(sqlite_engine)
    web = Services(sqlite_engine)
    web.accounts.add_account("boss", DEMO_PASSWORD, actor="setup")
    with people.store.write() as s:
        s.execute(update(db.User).where(db.User.name == "boss").values(organizer=True, admin=True))
    client = TestClient(create_app(sqlite_engine, secret="t"))
    page = client.get("/rating")
    assert page.status_code == 200
    html = page.text
    assert "Как считается рейтинг" in html and "11 игр из 2 турниров" in html
    table = re.search(r'<table id="rating"[^>]*>(.*?)</table>', html, re.S)
    assert table is not None and re.search(r"<b>1\xa0?\d{3},\d</b>|<b>\d{3,4},\d</b>",
                                           table.group(1))
    assert "победа красных" not in table.group(1)  # results are not in the table ...
    # the reliability table and the experience learned, beside Elo and the base rate
    assert 'id="reliability"' in html
    assert "Наклон калибровки не считается: меньше 100 игр" in html  # 11 games say nothing
    assert "Опыт: 100 рейтинговых игр" in html and "одна доля побед красных" in html
    # one game records its first killed: what the games say about him, and from how many
    assert "Первый убитый (ПУ): игра говорит о нём" in html and "таких игр: 1)" in html
    what = client.get(f"/rating?t={tids[1]}&g=g3").text
    assert "Записанный итог: победа красных" in what and "Шанс красных до игры" in what
    # a visitor cannot change the setting; the organizer can
    csrf = client.get("/api/session").json()["csrf"]
    denied = client.post("/rating/settings", data={"csrf": csrf, "kind": "final"})
    assert denied.status_code in (401, 303, 403)
    assert people.rating().games == 11
    r = client.post("/api/login", json={"user": "boss", "password": DEMO_PASSWORD},
                    headers={"X-CSRF-Token": csrf})
    assert r.status_code == 200
    csrf = client.get("/api/session").json()["csrf"]
    r = client.post("/rating/settings", data={"csrf": csrf, "kind": "qualification",
                                              "unrated": str(tids[0])},
                    follow_redirects=False)
    assert r.status_code == 303
    assert "5 игр из 1 турнира" in client.get("/rating").text
    client.get("/lang/en")
    en = client.get("/rating").text
    assert "How the rating is computed" in en and "5 games of 1 tournament" in en
    ids = [people.find(n)[0].id for n in NICKS[:10]]
    roles = ["red", "red", "sheriff", "red", "black", "red", "don", "red", "black", "red"]
    form = [("csrf", csrf), ("rules", "fsm")] + [
        x for pid, role in zip(ids, roles, strict=True)
        for x in (("person", str(pid)), ("role", role))]
    hypo = client.post("/rating/what-if", content=urlencode(form),
                       headers={"content-type": "application/x-www-form-urlencoded"})
    assert hypo.status_code == 200 and 'id="what-if"' in hypo.text
    assert "If red wins" in hypo.text


def test_a_page_does_not_wait_for_a_long_recomputation(sqlite_engine: Engine) -> None:
    """After a change, a caller that will not wait gets the older table marked stale (or
    the new one, when the thread was quicker); once the thread is done, the new one."""
    people, tids = build(sqlite_engine)
    old = people.rating()
    assert not old.stale and old.games == 11
    people.set_setup(actor=ORGANIZER, stage_kinds=["qualification"], unrated=[tids[1]],
                     elite=[])
    quick = people.rating(wait=0)
    if quick.stale:
        assert quick.games == 11 and quick.computed_at == old.computed_at
    else:
        assert quick.games == 6
    assert people.refresh is not None
    people.refresh.join(30)
    fresh = people.rating()
    assert not fresh.stale and fresh.games == 6


def test_a_minimum_of_games_before_a_person_is_ranked(sqlite_engine: Engine) -> None:
    """The federation's minimum: people with fewer rated games are listed after every
    ranked one, unplaced, marked provisional, on the page and on their own page; a bad
    minimum is refused in words and changes nothing."""
    people, _ = build(sqlite_engine)
    games = {r.person: r.rating.games for r in people.rating().rows}
    least = sorted(games.values())[len(games) // 2]  # about half the people fall short
    assert 0 < least <= max(games.values())
    with pytest.raises(PeopleError) as e:
        people.set_setup(actor=ORGANIZER, stage_kinds=["qualification"], unrated=[],
                         elite=[], min_games=-1)
    assert e.value.code == "bad_min_games" and people.setup().min_games == 0
    people.set_setup(actor=ORGANIZER, stage_kinds=["qualification"], unrated=[], elite=[],
                     min_games=least)
    rows = people.rating().rows
    flags = [r.provisional for r in rows]
    assert flags == sorted(flags) and any(flags) and not all(flags)  # ranked first
    assert all(r.provisional == (r.rating.games < least) for r in rows)
    for part in (False, True):  # each part in rating order
        shown = [r.rating.rating for r in rows if r.provisional == part]
        assert shown == sorted(shown, reverse=True)
    client = TestClient(create_app(sqlite_engine, secret="t"))
    html = client.get("/rating").text
    table = re.search(r'<table id="rating"[^>]*>(.*?)</table>', html, re.S)
    assert table is not None
    body = table.group(1)
    assert body.count('class="provisional"') == flags.count(True)
    assert "(предварительный)" in body and f"Меньше {least} — рейтинг предварительный" in html
    short = next(r for r in rows if r.provisional)
    assert "(предварительный)" in client.get(f"/people/{short.person}").text
    full = next(r for r in rows if not r.provisional)
    assert "(предварительный)" not in client.get(f"/people/{full.person}").text


def test_a_persons_rating_history(sqlite_engine: Engine) -> None:
    """His rating after each day he played (two days here), drawn as a line, with his
    highest rating and its day."""
    people, _ = build(sqlite_engine)
    table = people.rating()
    row = table.rows[0]
    line = table.history[row.person]
    assert [d for d, _ in line] == ["2026-01-10", "2026-02-10"]
    assert line[-1][1] == pytest.approx(row.rating.rating)  # the last point is today's
    client = TestClient(create_app(sqlite_engine, secret="t"))
    client.get("/rating")  # the person page shows the server's last computed rating
    page = client.get(f"/people/{row.person}").text.replace("\xa0", " ").replace("\u202f", " ")
    assert 'id="rating-history"' in page and "<polyline" in page
    best = max(line, key=lambda x: x[1])
    assert "Наивысший рейтинг" in page
    assert ("10 янв. 2026 г." if best[0] == "2026-01-10" else "10 февр. 2026 г.") in page
