"""Teams: format 1 `teams` round trip (file and database), the team
standings by clause on the page, and the Ci-per-team option (golden, FSM 8.6.2)."""

from __future__ import annotations

import json
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mafiatab.domain.standings import SUMMED, compute_standings, ranking_key
from mafiatab.domain.teams import Team, team_standings, teams_of
from mafiatab.formats.tournament_json import dumps_tournament
from mafiatab.rules import get_profile
from mafiatab.services.teams import TeamService
from mafiatab.services.tournament_file import load_tournament, standings_of
from tests.day.conftest import ORGANIZER, Day, csrf_of
from tests.helpers import EXAMPLES, codes, game, refused, rows, tournament


def _with_teams(name: str, size: int) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((EXAMPLES / name).read_text())
    ids = [p["id"] for p in data["players"]]
    data["teams"] = [{"id": f"t{i // size + 1}", "name": f"Команда {i // size + 1}",
                      "members": ids[i:i + size]} for i in range(0, len(ids), size)]
    return data


@pytest.mark.parametrize("name", ["fsm-40-players-qual-semi.json",
                                  "fiim2018-30-players-with-final.json"])
def test_format_1_teams_round_trip_through_the_file_and_the_database(day: Day, name: str) -> None:
    data = _with_teams(name, 4)
    loaded = load_tournament(json.dumps(data, ensure_ascii=False))
    assert [(x.id, x.name, x.members) for x in loaded.tournament.teams] == [
        (x["id"], x["name"], x["members"]) for x in data["teams"]]
    again = load_tournament(dumps_tournament(loaded.tournament))
    assert again.tournament.teams == loaded.tournament.teams
    assert json.loads(dumps_tournament(again.tournament))["teams"] == data["teams"]
    tid = day.svc.tournaments.import_file(json.dumps(data, ensure_ascii=False).encode(), actor=ORGANIZER)
    exported = day.svc.tournaments.tournament(tid)
    assert exported.teams == loaded.tournament.teams
    # a file without teams writes none
    plain = load_tournament((EXAMPLES / name).read_bytes())
    assert "teams" not in json.loads(dumps_tournament(plain.tournament))


def test_teams_that_cannot_be_ranked_are_refused() -> None:
    t = tournament("fsm", [game()], teams=[
        {"id": "a", "name": "A", "members": ["p1", "p2"]},
        {"id": "b", "name": "B", "members": ["p2", "p99"]},
        {"id": "a", "name": "A again", "members": []}])
    problems = refused(t)
    assert {"team_member_twice", "unknown_player", "duplicate_id", "team_empty"} <= codes(problems)
    assert any("две команды" in p.message("ru") for p in problems)


def test_team_standings_by_the_clauses_on_the_public_page(
        day: Day, client_for: Callable[[str], TestClient]) -> None:
    data = _with_teams("fsm-40-players-qual-semi.json", 5)
    tid = day.svc.tournaments.import_file(json.dumps(data, ensure_ascii=False).encode(), actor=ORGANIZER)
    loaded = load_tournament(json.dumps(data, ensure_ascii=False))
    expected = team_standings(standings_of(loaded).rows, teams_of(loaded.tournament),
                              loaded.profile, [p.id for p in loaded.tournament.players])
    got = TeamService(day.svc.store, day.svc.standings.compute).standings(tid)
    assert [(r.team, r.place, r.total) for r in got] == [
        (r.team, r.place, r.total) for r in expected]
    # FSM 8.7.1-8.7.5 over the team's sums: each line ranks at or above the next
    profile = get_profile("fsm")
    key = ranking_key(profile.tie_breakers.value)
    members = {t.id: t.members for t in teams_of(loaded.tournament)}
    by_player = {r.player: r for r in standings_of(loaded).rows}
    for a, b in zip(got, got[1:], strict=False):
        assert key(a) >= key(b)  # type: ignore[arg-type]
        assert a.total == sum(by_player[m].total for m in members[a.team] if m in by_player)
    page = client_for("anon").get(f"/t/{tid}/teams")
    assert page.status_code == 200
    order = [page.text.index(f'data-team="{r.team}"') for r in got]
    assert order == sorted(order)
    api = client_for("anon").get(f"/api/t/{tid}/teams").json()["teams"]
    assert [x["team"] for x in api] == [r.team for r in got]


def test_the_organizer_registers_teams_on_the_page(
        day: Day, client_for: Callable[[str], TestClient]) -> None:
    data = json.loads((EXAMPLES / "fsm-40-players-qual-semi.json").read_text())
    tid = day.svc.tournaments.import_file(json.dumps(data, ensure_ascii=False).encode(), actor=ORGANIZER)
    players = data["players"]
    org = client_for(ORGANIZER)
    text = (f"Север: {players[0]['id']}, {players[1]['nickname']}\n"
            f"Юг: {players[2]['id']}, {players[3]['id']}\n")
    r = org.post(f"/t/{tid}/teams", data={"teams": text, "csrf": csrf_of(org)},
                 follow_redirects=False)
    assert r.status_code == 303
    teams = TeamService(day.svc.store, day.svc.standings.compute).teams(tid)
    assert [(t.name, t.members) for t in teams] == [
        ("Север", (players[0]["id"], players[1]["id"])),
        ("Юг", (players[2]["id"], players[3]["id"]))]
    twice = org.post(f"/t/{tid}/teams", data={"teams": f"A: {players[0]['id']}\nB: "
                                              f"{players[0]['id']}", "csrf": csrf_of(org)})
    assert twice.status_code == 422 and "входит в две команды" in twice.text
    assert client_for("anon").post(f"/t/{tid}/teams", data={"teams": ""}).status_code == 403
    entry = next(d for _at, _u, action, d in reversed(day.svc.tournaments.audit_log(tid, actor=ORGANIZER))
                 if action == "register_teams")
    assert [x["name"] for x in entry["teams"]] == ["Север", "Юг"]


# --- Ci per team (a team marathon's option), golden ---------------------------------------


def _marathon(option: str | None) -> dict[str, Any]:
    """Ten games at one table (FSM): p1 first killed twice and p2 once, black winning and
    a black named in the best move (Ci paid in full, FSM 8.6.4); p9, in no team, once;
    six ordinary games where a black is first killed (no Ci)."""
    special = [game("x1", rnd=1, result="black", first_killed=1, best_move=[4]),
               game("x2", rnd=2, result="black", first_killed=1, best_move=[4]),
               game("x3", rnd=3, result="black", first_killed=2, best_move=[4]),
               game("x4", rnd=4, result="black", first_killed=9, best_move=[4])]
    ordinary = [game(f"g{i}", rnd=10 + i, first_killed=4) for i in range(6)]
    teams = [{"id": "a", "name": "A", "members": ["p1", "p2"]},
             {"id": "b", "name": "B", "members": ["p3", "p5", "p7"]}]
    extra: dict[str, Any] = {"teams": teams}
    if option is not None:
        extra["rule_options"] = {"comp_per_team": option}
    return tournament("fsm", special + ordinary, **extra)


def test_fsm_8_6_2_ci_per_team_counts_i_over_the_teams_kills_and_b_over_its_games() -> None:
    # off (the default): each player's own Ci. p1: i = 2, 10 games, B = max(4, 4) = 4,
    # Ci = 0.4·2/4 = 0.2, paid twice; p2: i = 1, Ci = 0.1; p9: i = 1, Ci = 0.1
    own = rows(_marathon(None))
    assert (own["p1"].compensation, own["p2"].compensation, own["p9"].compensation) == (40, 10, 10)
    assert rows(_marathon("off"))["p1"].compensation == 40
    # on: team A's i = 2 + 1 = 3 over its 20 games, B = 40% of 20 = 8, Ci = 0.4·3/8 = 0.15:
    # p1 is paid 0.15 twice, p2 once; p9 (no team) keeps his own 0.1
    team = rows(_marathon("on"))
    assert team["p1"].compensation == 30 and team["p2"].compensation == 15
    assert team["p9"].compensation == 10
    assert team["p1"].main == own["p1"].main - 10 and team["p2"].main == own["p2"].main + 5
    standings = standings_of(load_tournament(json.dumps(_marathon("on"))))
    rate = standings.ci[("p1", "qual")]
    assert (rate.i, rate.b, rate.games, rate.ci) == (3, 8, 20, Fraction(15))
    assert rate.clause == "FSM 8.6.2 (Reading: Ci per team, as team marathons pay it)"


def test_ci_per_team_is_off_by_default_in_both_federations_with_its_own_clause() -> None:
    for rules, prefix in (("fsm", "FSM "), ("fiim2018", "FIIM ")):
        p = get_profile(rules)
        assert p.comp_per_team.value is False and p.comp_per_team.clause.startswith(prefix)
        on = get_profile(rules, {"comp_per_team": "on"})
        assert on.comp_per_team.value is True and on.comp_per_team.clause.startswith(prefix)


def test_teams_that_cannot_be_read_are_a_clean_422_in_both_languages(
        day: Day, client_for: Callable[[str], TestClient]) -> None:
    """`TeamsInvalid` is of the one `Refused` family, its words the catalogue's."""
    data = json.loads((EXAMPLES / "fsm-40-players-qual-semi.json").read_text())
    tid = day.svc.tournaments.import_file(json.dumps(data, ensure_ascii=False).encode(),
                                          actor=ORGANIZER)
    org = client_for(ORGANIZER)
    r = org.post(f"/t/{tid}/teams", data={"teams": "Север: nobody-here", "csrf": csrf_of(org)})
    assert r.status_code == 422
    assert "игрок «nobody-here» не зарегистрирован в турнире" in r.text
    org.get("/lang/en")
    try:
        r = org.post(f"/t/{tid}/teams", data={"teams": "no colon", "csrf": csrf_of(org)})
        assert r.status_code == 422
        assert "line &#39;no colon&#39;: expected &#39;Team: player, player&#39;" in r.text
    finally:
        org.get("/lang/ru")


# --- a team's line is its members' standings lines added (D7) ------------------------------

POOL = [f"p{i}" for i in range(1, 21)]


@st.composite
def _games(draw: st.DrawFn) -> list[dict[str, Any]]:
    out = []
    for i in range(draw(st.integers(1, 6))):
        players = draw(st.permutations(POOL))[:10]
        fk = draw(st.one_of(st.none(), st.integers(1, 10)))
        fields: dict[str, Any] = {"first_killed": fk}
        if fk is not None:
            others = [s for s in range(1, 11) if s != fk]
            fields["best_move"] = draw(st.lists(st.sampled_from(others), max_size=3,
                                                unique=True))
        out.append(game(f"g{i}", players=players, rnd=i + 1,
                        result=draw(st.sampled_from(["red", "black"])), **fields))
    return out


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=st.sampled_from(["fsm", "fiim2018"]), games=_games(),
       team_of=st.lists(st.one_of(st.none(), st.integers(0, 3)), min_size=20, max_size=20))
def test_a_teams_total_is_the_sum_of_its_members_standings_totals(
        rules: str, games: list[dict[str, Any]], team_of: list[int | None]) -> None:
    """Whatever the games and the teams, a team's line (and its total) is its members'
    lines of `domain.standings` added up: the team row is built on the standings' rows."""
    loaded = load_tournament(json.dumps(tournament(rules, games, n_players=20)))
    rows = compute_standings(loaded.tournament, loaded.profile).rows
    by_player = {r.player: r for r in rows}
    teams = [Team(f"t{k}", f"T{k}", tuple(p for p, x in zip(POOL, team_of, strict=True)
                                          if x == k))
             for k in sorted({x for x in team_of if x is not None})]
    got = team_standings(rows, teams, loaded.profile, POOL)
    assert sorted(r.team for r in got) == sorted(t.id for t in teams)
    for line in got:
        members = [by_player[m] for m in line.members if m in by_player]
        assert line.total == sum((r.total for r in members), start=0)
        for name in SUMMED:
            assert getattr(line, name) == sum((getattr(r, name) for r in members), start=0)
