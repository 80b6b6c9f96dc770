"""A person's figures against a hand computation on a small tournament built here: three
games of the same ten people, worked out on paper in the comments."""

from __future__ import annotations

import re
from fractions import Fraction

from fastapi.testclient import TestClient
from sqlalchemy import Engine

from mafiatab.domain.points import format_points
from mafiatab.domain.protocol import Tournament
from mafiatab.domain.standings import compute_standings
from mafiatab.rules import get_profile
from mafiatab.web.app import create_app
from tests.people.conftest import DEAL, game, load, people_on, tournament

NICKS = ["Альфа", "Бета", "Гамма", "Дельта", "Эхо", "Фокс", "Гольф", "Отель", "Индия", "Кило"]
ORDER = list("abcdefghij")
#: game 3: the don at seat 10, mafia at 5 and 7, the sheriff at 3
DEAL3 = {**DEAL, 7: "black", 9: "red", 10: "don"}


def small() -> Tournament:
    """g1: a..j in seat order, red wins; the first killed is e (seat 5, mafia), who names
    7, 9, 1 (the don, a mafia, a civilian: 2 blacks of 3).
    g2: b..j then a (a at seat 10), black wins; the first killed is h (seat 7, the don),
    who names 5, 1, 2 (f a mafia, b and c civilians: 1 of 3).
    g3: j..a (a at seat 10, the don), black wins; nobody is killed on the first night.
    Nobody killed first is red, so no Ci and no best-move points: a player's points are
    his wins times the win's points."""
    return tournament("Ручной турнир", NICKS, [
        game("g1", 1, ORDER, "red", first_killed=5, best_move=[7, 9, 1]),
        game("g2", 2, ORDER[1:] + ORDER[:1], "black", first_killed=7, best_move=[5, 1, 2]),
        game("g3", 3, ORDER[::-1], "black", roles=DEAL3),
    ])


def test_person_figures_match_the_hand_computation(sqlite_engine: Engine) -> None:
    people, tournaments = people_on(sqlite_engine)
    t = small()
    tid = load(tournaments, t)
    ids = {x.nickname: x.id for n in NICKS for x in people.find(n)}
    a, d, e, f, h = (ids[n] for n in ("Альфа", "Дельта", "Эхо", "Фокс", "Отель"))
    win = get_profile("fsm").win_points.value

    page = people.page(a)
    st = page.stats
    # a: g1 seat 1 civilian, won; g2 seat 10 civilian, lost; g3 seat 10 don, won
    assert (st.all.games, st.all.wins, st.all.points) == (3, 2, 2 * win)
    assert (st.by_role["red"].games, st.by_role["red"].wins, st.by_role["red"].points) == (2, 1, win)
    assert (st.by_role["don"].games, st.by_role["don"].wins, st.by_role["don"].points) == (1, 1, win)
    assert st.by_role["sheriff"].games == st.by_role["black"].games == 0
    assert (st.by_seat[1].games, st.by_seat[1].wins, st.by_seat[1].points) == (1, 1, win)
    assert (st.by_seat[10].games, st.by_seat[10].wins, st.by_seat[10].points) == (2, 1, win)
    assert sum(st.by_seat[s].games for s in range(2, 10)) == 0
    assert st.first_killed == 0 and st.named == 0 and st.accuracy is None
    # partners (same team): g1 b c d f h j (won), g2 b c d e g i (lost), g3 f d (won)
    partners = {m.person: (m.together.games, m.together.wins) for m in st.partners}
    assert partners[d] == (3, 2)
    assert partners[f] == (2, 2)
    assert partners[ids["Бета"]] == (2, 1)
    assert partners[e] == (1, 0)
    assert partners[h] == (1, 1)
    assert st.partners[0].person == d  # the most games together first
    # opponents: g1 e g i (a won), g2 f h j (a lost), g3 j i h g e c b (a won)
    opponents = {m.person: (m.against.games, m.against.wins) for m in st.opponents}
    assert opponents[e] == (2, 2)
    assert opponents[f] == (1, 0)
    assert opponents[h] == (2, 1)
    assert opponents[ids["Бета"]] == (1, 1)
    # the tournament line agrees with the standings' row
    row = next(r for r in compute_standings(t, get_profile("fsm")).rows
               if r.player == "a")
    [line] = st.tournaments
    assert (line.tournament, line.place, line.total) == (tid, row.place, row.total)

    # e was killed first in g1 and named 2 blacks of 3; h in g2, 1 of 3
    se = people.page(e).stats
    assert (se.first_killed, se.best_move_made, se.guessed, se.named) == (1, 1, 2, 3)
    assert se.accuracy == Fraction(2, 3)
    sh = people.page(h).stats
    assert (sh.first_killed, sh.guessed, sh.named) == (1, 1, 3)
    assert sh.ci == 0  # the don is paid no Ci


def test_person_and_club_pages_show_the_figures(sqlite_engine: Engine) -> None:
    people, tournaments = people_on(sqlite_engine)
    tid = load(tournaments, small())
    a = people.find("Альфа")[0].id
    e = people.find("Эхо")[0].id
    win = get_profile("fsm").win_points.value
    client = TestClient(create_app(sqlite_engine, secret="t"))
    r = client.get(f"/people/{a}")
    assert r.status_code == 200
    html = r.text
    red_row = re.search(r'<tr data-role="red">(.*?)</tr>', html)
    assert red_row is not None
    cells = re.findall(r"<td[^>]*>(.*?)</td>", red_row.group(1))
    assert cells == ["мирный («красный»)", "2", "1", "50 %", format_points(win, "ru")]
    assert "3 игры" in html and "1 турнир" in html
    assert f'href="/t/{tid}/games/g3"' in html
    assert re.search(f'src="/people/{a}/roles.svg\\?v=[0-9a-f]{{16}}"', html)
    svg = client.get(f"/people/{a}/seats.svg")
    assert svg.status_code == 200 and svg.headers["content-type"].startswith("image/svg+xml")
    fk = client.get(f"/people/{e}").text
    assert "угадано чёрных: 2 из 3 названных (67 %)" in fk
    client.get("/lang/en")
    fk_en = client.get(f"/people/{e}").text
    assert "blacks guessed: 2 of 3 named (67%)" in fk_en

    club = client.get("/clubs/Клуб Север")
    assert club.status_code == 200
    assert "10 players" in club.text and "1 tournament" in club.text
    assert client.get("/clubs/Нет такого").status_code == 404
    assert client.get("/people/999999").status_code == 404


def test_a_club_whose_name_holds_a_slash_has_its_page(sqlite_engine: Engine) -> None:
    """`/clubs/{name}` took no "/": a club such as "Мафия/Питер" had a link (its members'
    pages make one) that answered 404."""
    _people, tournaments = people_on(sqlite_engine)
    t = small()
    t.name = "Клубы со слэшем"
    for p in t.players:
        p.club = "Мафия/Питер" if p.id in "abc" else "Клуб Север"
    load(tournaments, t)
    client = TestClient(create_app(sqlite_engine, secret="t"))
    listed = client.get("/clubs").text
    assert 'href="/clubs/%D0%9C%D0%B0%D1%84%D0%B8%D1%8F/%D0%9F%D0%B8%D1%82%D0%B5%D1%80"' in listed
    for path in ("/clubs/Мафия/Питер", "/clubs/%D0%9C%D0%B0%D1%84%D0%B8%D1%8F%2F%D0%9F%D0%B8%D1%82"
                 "%D0%B5%D1%80"):
        club = client.get(path)
        assert club.status_code == 200, path
        assert "Мафия/Питер" in club.text and "3 игрока" in club.text
    assert client.get("/clubs/Мафия/Москва").status_code == 404
