"""The project's standings against the independent reference of scoring.md.

Exact comparison: the project's rows hold hundredths (int or Fraction), the reference
Fractions of points. Inputs: the spec's examples, random sound tournaments of both rule
sets (with stage scopes and a few sound rewrites: semifinals, Ci switches, participants,
lots), and hand-built files aimed at the rules' corners.
"""

from __future__ import annotations

import json
import random
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mafiatab.formats.standings_json import standings_to_dict
from mafiatab.formats.tournament_json import dumps_tournament
from mafiatab.sample import sample_tournament
from mafiatab.services.tournament_file import load_tournament, standings_of
from tests.reference.scoring_reference import reference_standings

EXAMPLES = Path("/work/shared/spec/examples")
POINT_FIELDS = ("main", "extra", "total", "best_move", "compensation", "penalties")
COUNT_FIELDS = ("games", "wins", "wins_don_sheriff", "first_killed", "place", "lot_needed")

Rows = dict[str, dict[str, Any]]


def project_rows(text: str, stages: list[str] | None = None) -> Rows:
    standings = standings_of(load_tournament(text), stages)
    places = [r.place for r in standings.rows]
    assert places == sorted(places), "rows are listed in the order of their places"
    out: Rows = {}
    for r in standings.rows:
        row: dict[str, Any] = {f: getattr(r, f) for f in COUNT_FIELDS}
        row.update({f: Fraction(getattr(r, f)) / 100 for f in POINT_FIELDS})
        out[r.player] = row
    return out


def reference_rows(text: str, stages: list[str] | None = None) -> Rows:
    data = json.loads(text, parse_float=Decimal)
    return {r["player"]: {f: r[f] for f in COUNT_FIELDS + POINT_FIELDS}
            for r in reference_standings(data, stages)}


def differences(text: str, stages: list[str] | None = None) -> list[tuple[Any, ...]]:
    mine, theirs = reference_rows(text, stages), project_rows(text, stages)
    out: list[tuple[Any, ...]] = []
    if set(mine) != set(theirs):
        out.append(("players", sorted(set(mine) ^ set(theirs))))
    for player in sorted(set(mine) & set(theirs)):
        for f in COUNT_FIELDS + POINT_FIELDS:
            if mine[player][f] != theirs[player][f]:
                out.append((player, f, "reference", mine[player][f], "project", theirs[player][f]))
    return out


def assert_same(text: str, stages: list[str] | None = None) -> None:
    diff = differences(text, stages)
    assert not diff, diff[:10]


# --- the spec's examples ------------------------------------------------------------------

def _example_cases() -> list[tuple[str, list[str] | None]]:
    cases: list[tuple[str, list[str] | None]] = []
    for path in sorted(EXAMPLES.glob("*.json")):
        if path.name.endswith(".standings.json"):
            continue
        data = json.loads(path.read_text())
        ids = [s["id"] for s in data["stages"]]
        cases.append((path.name, None))
        cases.extend((path.name, [i]) for i in ids)
        if len(ids) > 1:
            cases.append((path.name, ids))
    return cases


@pytest.mark.parametrize(("name", "stages"), _example_cases())
def test_spec_example(name: str, stages: list[str] | None) -> None:
    assert_same((EXAMPLES / name).read_text(), stages)


@pytest.mark.parametrize("name", [p.name for p in sorted(EXAMPLES.glob("*.standings.json"))])
def test_reference_gives_the_examples_standings(name: str) -> None:
    """The reference itself against the expected outputs the spec ships (rounded to 2)."""
    expected = json.loads((EXAMPLES / name).read_text(), parse_float=Decimal)
    text = (EXAMPLES / name.replace(".standings.json", ".json")).read_text()
    data = json.loads(text, parse_float=Decimal)
    mine = {r["player"]: r for r in reference_standings(data)}
    assert len(mine) == len(expected["standings"])
    for row in expected["standings"]:
        r = mine[row["player"]]
        for f in COUNT_FIELDS:
            assert r[f] == row[f], (row["player"], f)
        for f in POINT_FIELDS:
            assert _round2(r[f]) == Decimal(row[f]).quantize(Decimal("0.01")), (row["player"], f)


def _round2(x: Fraction) -> Decimal:
    hundredths = x * 100
    sign = -1 if hundredths < 0 else 1
    n = int(abs(hundredths) + Fraction(1, 2))  # half up, away from zero
    return Decimal(sign * n) / 100


def test_json_output_matches_rounded_reference() -> None:
    text = dumps_tournament(sample_tournament("fiim2018", 10, 7, 5, True))
    out = standings_to_dict(standings_of(load_tournament(text)))
    data = json.loads(text, parse_float=Decimal)
    mine = {r["player"]: r for r in reference_standings(data)}
    for row in out["standings"]:
        for f in POINT_FIELDS:
            assert _round2(mine[row["player"]][f]) == Decimal(str(row[f])).quantize(Decimal("0.01"))


# --- random sound tournaments -------------------------------------------------------------

def _rewrite(data: dict[str, Any], rng: random.Random) -> None:
    """Sound rewrites of a sample file: a semifinal, Ci switches, participants, lots."""
    rounds = sorted({g["round"] for g in data["games"] if g["stage"] == "qual"})
    if len(rounds) >= 2 and rng.random() < 0.4:
        split = rng.choice(rounds[1:])
        for g in data["games"]:
            if g["stage"] == "qual" and g["round"] >= split:
                g["stage"] = "semi"
        data["stages"].insert(1, {"id": "semi", "name": "Semi", "kind": "semifinal"})
    for stage in data["stages"]:
        if stage["kind"] == "final" and rng.random() < 0.3:
            stage["kind"] = "semifinal"  # fiim: joins the qualification's distance
        if rng.random() < 0.2:
            stage["compensation"] = rng.random() < 0.5
    if rng.random() < 0.3:
        data["participants"] = rng.choice([10, 20, 21, 30])
    if rng.random() < 0.5:
        ids = [p["id"] for p in data["players"]]
        data["lots"] = rng.sample(ids, rng.randint(1, len(ids)))


@settings(max_examples=1200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=st.sampled_from(["fsm", "fiim2018"]), players=st.sampled_from([10, 20, 30]),
       rounds=st.integers(1, 8), seed=st.integers(0, 10**9), final=st.booleans(),
       rewrite=st.integers(0, 10**9) | st.none(), scope=st.integers(0, 10**9))
def test_random_tournament(rules: str, players: int, rounds: int, seed: int, final: bool,
                           rewrite: int | None, scope: int) -> None:
    data = json.loads(dumps_tournament(sample_tournament(rules, players, rounds, seed, final)))
    if rewrite is not None:
        _rewrite(data, random.Random(rewrite))
    ids = [s["id"] for s in data["stages"]]
    rng = random.Random(scope)
    stages = None if rng.random() < 0.4 else rng.sample(ids, rng.randint(1, len(ids)))
    text = json.dumps(data)
    assert_same(text, stages)
    if stages is not None:
        assert_same(text, None)


# --- hand-built files ---------------------------------------------------------------------

ROLES = ["red", "red", "sheriff", "black", "black", "red", "don", "red", "red", "red"]
# seat: 1 2 3=sheriff 4,5=black 6 7=don 8 9 10


def game(gid: str, players: list[str], result: str, *, stage: str = "qual", rnd: int = 1,
         table: int = 1, roles: list[str] | None = None, **fields: Any) -> dict[str, Any]:
    roles = roles or ROLES
    g: dict[str, Any] = {
        "id": gid, "stage": stage, "round": rnd, "table": table,
        "seats": [{"seat": n + 1, "player": p, "role": roles[n]} for n, p in enumerate(players)],
        "result": result, "first_killed": None,
    }
    g.update(fields)
    return g


def tournament(rules: str, n_players: int, games: list[dict[str, Any]],
               stages: list[dict[str, Any]] | None = None, **fields: Any) -> str:
    data: dict[str, Any] = {
        "format": "mafiatab.tournament/1", "name": "hand-built", "rules": rules,
        "players": [{"id": f"p{i:02d}", "nickname": f"P{i}"} for i in range(n_players)],
        "stages": stages or [{"id": "qual", "name": "Qual", "kind": "qualification"}],
        "games": games,
    }
    data.update(fields)
    return json.dumps(data)


def ten(start: int = 0, shift: int = 0) -> list[str]:
    """Players p<start>..p<start+9>, rotated by `shift` so that roles move around."""
    ids = [f"p{start + i:02d}" for i in range(10)]
    return ids[shift % 10:] + ids[:shift % 10]


def test_k_with_draws() -> None:
    # N = 5: red 2, black 1, draws 2 -> black heavy, n = 1, K = 1 + (2.5 - 1) / 2.5 = 1.6
    games = [game("g1", ten(), "red"), game("g2", ten(0, 1), "red"), game("g3", ten(0, 2), "black"),
             game("g4", ten(0, 3), "draw"), game("g5", ten(0, 4), "draw")]
    text = tournament("fiim2018", 10, games)
    assert_same(text)
    mine = reference_standings(json.loads(text, parse_float=Decimal))
    assert sum(r["main"] for r in mine) == 2 * 7 + 3 * Fraction(8, 5)
    assert_same(text, ["qual"])


def test_k_heavy_side_without_wins_and_participants() -> None:
    games = [game(f"g{i}", ten(0, i), "red") for i in range(3)] + [game("g9", ten(0, 5), "draw")]
    assert_same(tournament("fiim2018", 10, games))  # black has 0 wins: K = 2, given to nobody
    games = [game("g1", ten(0, 1), "red"), game("g2", ten(0, 2), "black"), game("g3", ten(0, 3), "black")]
    assert_same(tournament("fiim2018", 10, games))
    assert_same(tournament("fiim2018", 10, games, participants=21))  # no K
    assert_same(tournament("fiim2018", 10, games, participants=20))


def test_k_equal_wins_no_k() -> None:
    games = [game("g1", ten(0, 1), "red"), game("g2", ten(0, 2), "black"), game("g3", ten(0, 3), "draw")]
    assert_same(tournament("fiim2018", 10, games))


def _ci_games(n: int, stage: str = "qual", start: int = 0, rnd0: int = 0) -> list[dict[str, Any]]:
    """n games of players p<start>..; p<start> (seat 1, red) is first killed in every other game,
    with a black named; results cycle black, red, draw, black."""
    results = ["black", "red", "draw", "black"]
    out = []
    for i in range(n):
        g = game(f"{stage}{start}-{i}", ten(start), results[i % 4], stage=stage, rnd=rnd0 + i + 1)
        if i % 2 == 0:
            g["first_killed"] = 1
            g["best_move"] = [4, 2]
        else:
            g["first_killed"] = 6
            g["best_move"] = [2]
        out.append(g)
    return out


@pytest.mark.parametrize("n", [1, 2, 3, 4, 6, 7, 8, 12, 13])
@pytest.mark.parametrize("rules", ["fiim2018", "fsm"])
def test_ci_with_b_rounding(rules: str, n: int) -> None:
    # 7 games: B = round(2.8) = 3 (fiim) / 4 (fsm minimum); i = 4 -> i > B for fiim
    text = tournament(rules, 10, _ci_games(n))
    assert_same(text)


def test_ci_seven_games_value() -> None:
    # fiim2018, 7 games, p00 first killed as red 4 times (games 0, 2, 4, 6): B = 3, i > B: Ci = 0.4
    # p05 (seat 6, red) first killed 3 times (games 1, 3, 5): i = B = 3: Ci = 0.4 * 3 / 3
    text = tournament("fiim2018", 10, _ci_games(7)[:6])
    # 6 games: B = round(2.4) = 2; p00 i = 3 > 2 -> 0.4; p05 i = 3 > 2 -> 0.4
    assert_same(text)
    games = _ci_games(5)
    for g in games:
        g["first_killed"] = None
        g.pop("best_move", None)
    games[1]["first_killed"] = 1
    games[3]["first_killed"] = 1
    games[1]["result"] = games[3]["result"] = "black"
    text = tournament("fiim2018", 10, games)  # 5 games: B = 2, i = 2: Ci = 0.4
    assert_same(text)
    games.append(game("x1", ten(), "black", rnd=9))
    games.append(game("x2", ten(), "red", rnd=10))
    text = tournament("fiim2018", 10, games)  # 7 games: B = 3, i = 2: Ci = 0.8 / 3, twice
    assert_same(text)
    mine = {r["player"]: r for r in reference_standings(json.loads(text))}
    assert mine["p00"]["compensation"] == 2 * Fraction(8, 30)


def _three_stages(semi_players: list[str], semi_tables: int
                  ) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    stages = [{"id": "qual", "name": "Qual", "kind": "qualification"},
              {"id": "semi", "name": "Semi", "kind": "semifinal"},
              {"id": "final", "name": "Final", "kind": "final"}]
    games: list[dict[str, Any]] = []
    for t in range(2):
        games += _ci_games(5, "qual", start=10 * t)
        for g in games[-5:]:
            g["table"] = t + 1
    for t in range(semi_tables):
        for i, g in enumerate(_ci_games(4, "semi", rnd0=10)):
            g["id"] = f"semi-{t}-{i}"
            g["table"] = t + 1
            players = semi_players[10 * t:10 * t + 10]
            players = players[i % 10:] + players[:i % 10]
            for s, p in zip(g["seats"], players, strict=True):
                s["player"] = p
            games.append(g)
    for g in _ci_games(3, "final", start=0, rnd0=20):
        games.append(g)
    return stages, games


@pytest.mark.parametrize("rules", ["fiim2018", "fsm"])
def test_distances_semifinal_same_count_other_people(rules: str) -> None:
    # qual: p00..p19 (20); semi: p10..p29 (20, not the same people); final: p00..p09 (10)
    semi = [f"p{i:02d}" for i in range(10, 30)]
    stages, games = _three_stages(semi, 2)
    text = tournament(rules, 30, games, stages)
    for scope in (None, ["qual"], ["semi"], ["final"], ["semi", "final"]):
        assert_same(text, scope)


@pytest.mark.parametrize("rules", ["fiim2018", "fsm"])
def test_distances_semifinal_other_count(rules: str) -> None:
    # qual: 20 players; semi: 10 players (p05..p14); final: 10 players (p00..p09)
    semi = [f"p{i:02d}" for i in range(5, 15)]
    stages, games = _three_stages(semi, 1)
    text = tournament(rules, 20, games, stages)
    for scope in (None, ["qual"], ["semi"], ["final"]):
        assert_same(text, scope)
    data = json.loads(text)
    data["stages"][2]["compensation"] = True
    data["stages"][0]["compensation"] = False
    for scope in (None, ["qual"], ["final"]):
        assert_same(json.dumps(data), scope)


def test_broken_table() -> None:
    g1 = game("g1", ten(), "black", first_killed=1, best_move=[4, 5, 7], broken_table=True,
              day1_vote_left=1)
    g2 = game("g2", ten(), "black", first_killed=1, best_move=[4, 6])
    g3 = game("g3", ten(), "red", first_killed=1, best_move=[4], broken_table=True, day1_vote_left=1)
    g4 = game("g4", ten(), "red", first_killed=1, best_move=[5])
    text = tournament("fsm", 10, [g1, g2, g3, g4])
    assert_same(text)
    mine = {r["player"]: r for r in reference_standings(json.loads(text))}
    assert mine["p00"]["first_killed"] == 2
    assert mine["p00"]["best_move"] == Fraction("0.9")  # 0.6 + 0.1 + 0.1 + 0.1


def test_broken_table_night_killed() -> None:
    """FSM 8.6.6: the seat shot in a broken table's first night counts in his i and first
    night deaths, whatever his role; he made no best move, so that game pays him no Ci."""
    g1 = game("g1", ten(), "black", first_killed=1, best_move=[4, 5], broken_table=True,
              day1_vote_left=1, night_killed=2)
    g2 = game("g2", ten(), "black", first_killed=2, best_move=[4])
    g3 = game("g3", ten(), "red", first_killed=1, best_move=[4], broken_table=True,
              day1_vote_left=1, night_killed=5)  # a black shot
    g4 = game("g4", ten(), "red", first_killed=6, best_move=[7])
    g5 = game("g5", ten(), "black", first_killed=9, broken_table=True, day1_vote_left=1,
              night_killed=2)
    text = tournament("fsm", 10, [g1, g2, g3, g4, g5])
    assert_same(text)
    mine = {r["player"]: r for r in reference_standings(json.loads(text))}
    assert (mine["p01"]["first_killed"], mine["p04"]["first_killed"]) == (3, 1)
    assert mine["p01"]["compensation"] == Fraction("0.3")  # 0.4 * 3 / 4, paid in g2 only


def _pu(entries: list[tuple[int, str, str | None]], **more: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"entries": [
        {"seat": s, "colour": c, **({"tag": t} if t else {})} for s, c, t in entries]}
    out.update(more)
    return out


# seat 1 is first killed (red); blacks: 4, 5, 7 (don); reds: 2, 3 (sheriff), 6, 8, 9, 10
PROTOCOLS: list[dict[str, Any]] = [
    _pu([(4, "black", "near_reliable"), (5, "black", None), (7, "black", None)]),
    _pu([(4, "black", None), (5, "black", "near_reliable"), (7, "black", None)]),
    _pu([(4, "black", "reliable"), (5, "black", None), (7, "black", None)]),
    _pu([(4, "black", None), (2, "black", None), (5, "black", "near_reliable")]),
    _pu([(2, "black", "near_reliable"), (6, "black", "reliable"), (4, "black", None)]),
    _pu([(2, "red", None), (3, "red", None), (6, "red", "near_reliable"), (8, "red", None),
         (9, "red", None), (10, "red", None)]),
    _pu([(2, "red", None), (3, "red", None), (6, "red", None), (8, "red", None),
         (9, "red", None), (10, "red", None)]),
    _pu([(2, "red", "from_version"), (3, "red", None), (4, "red", "near_reliable")]),
    _pu([(4, "red", None), (5, "red", "reliable"), (7, "red", None), (2, "red", None)]),
    _pu([(2, "red", "from_version"), (6, "red", None), (4, "black", "from_version"), (5, "black", None)]),
    _pu([(2, "red", "near_reliable"), (6, "red", "near_reliable"), (8, "red", None)]),
    _pu([(4, "black", None)], version={"situation": "sheriff_don", "right": False}),
    _pu([], version={"situation": "red_vs_red", "right": True}),
    _pu([(7, "black", None)], version={"situation": "unreliable_sheriff_info", "right": False}),
    # aside (8.3.9.12)
    _pu([(2, "red", None), (4, "black", None), (5, "black", None)], aside=True),
    _pu([(2, "red", None), (6, "red", "near_reliable"), (4, "black", "near_reliable"), (8, "black", None)],
        aside=True),
    _pu([(4, "black", "reliable"), (5, "black", None), (8, "black", None), (9, "red", "near_reliable")],
        aside=True),
    _pu([(5, "black", None), (4, "black", "reliable")], aside=True),
    _pu([(2, "black", None), (6, "red", "reliable"), (4, "red", None), (8, "red", None)], aside=True,
        version={"situation": "black_vs_black", "right": True}),
    _pu([(4, "black", "from_version"), (9, "red", None), (10, "red", None), (8, "red", None),
         (6, "red", None), (2, "red", None), (3, "red", None)], aside=True,
        version={"situation": "sheriff_don_vs_red", "right": True}),
]


@pytest.mark.parametrize("result", ["red", "black", "draw"])
@pytest.mark.parametrize("index", range(len(PROTOCOLS)))
def test_pu_protocol(index: int, result: str) -> None:
    g = game("g1", ten(), result, first_killed=1, best_move=[4, 2],
             scores={"1": {"pu_protocol": PROTOCOLS[index]}})
    assert_same(tournament("fsm", 10, [g]))


# seat 3 (sheriff) first killed: `checked` reds (8.3.9.9), and 8.3.9.8 across colours
SHERIFF_PROTOCOLS: list[dict[str, Any]] = [
    _pu([(2, "red", "checked"), (6, "red", None), (4, "black", "near_reliable"), (8, "red", None)]),
    _pu([(4, "black", None), (2, "red", "near_reliable"), (5, "black", None), (6, "red", "checked"),
         (8, "red", None)]),
    _pu([(2, "red", None), (5, "black", "near_reliable"), (9, "black", None), (6, "red", None)]),
    _pu([(2, "red", "checked"), (4, "black", None), (6, "red", None)], aside=True),
]


@pytest.mark.parametrize("result", ["red", "black"])
@pytest.mark.parametrize("index", range(len(SHERIFF_PROTOCOLS)))
def test_sheriff_pu_protocol(index: int, result: str) -> None:
    g = game("g1", ten(), result, first_killed=3, best_move=[4],
             scores={"3": {"pu_protocol": SHERIFF_PROTOCOLS[index]}})
    assert_same(tournament("fsm", 10, [g]))


@pytest.mark.parametrize("index", range(len(PROTOCOLS)))
def test_black_first_killed_protocol(index: int) -> None:
    # seat 1 (black) first killed: his best move and protocol score nothing
    roles = ["black", "red", "sheriff", "red", "black", "red", "don", "red", "red", "red"]
    g = game("g1", ten(), "red", roles=roles, first_killed=1, best_move=[5, 7, 4],
             scores={"1": {"pu_protocol": PROTOCOLS[index]}})
    assert_same(tournament("fsm", 10, [g]))


@pytest.mark.parametrize("rules", ["fiim2018", "fsm"])
def test_best_move_draw_and_penalties(rules: str) -> None:
    g1 = game("g1", ten(), "draw", first_killed=2, best_move=[4, 5, 7])
    g2 = game("g2", ten(), "red", first_killed=4, best_move=[5, 7])  # black first killed
    g3 = game("g3", ten(), "black", first_killed=3, best_move=[4, 5],
              scores={"8": {"penalties": [{"kind": "disqualification", "critical": False}]},
                      "9": {"penalties": [{"kind": "game_action", "points": -0.4, "rule": "8.5.1"}]}})
    g4 = game("g4", ten(), "red",
              scores={"4": {"penalties": [{"kind": "team_loss"}]},
                      "10": {"penalties": [{"kind": "disqualification", "critical": True}]}})
    assert_same(tournament(rules, 10, [g1, g2, g3, g4]))


def test_fsm_judges_values() -> None:
    g1 = game("g1", ten(), "red", first_killed=1, best_move=[4, 5],
              scores={"1": {"pu_extra": 0.3, "will": 0.4},
                      "2": {"will": -0.2, "protocol": 0.4, "same_as_will": True},
                      "3": {"will": 0.3, "protocol": -0.4, "same_as_will": True, "approved": True},
                      "6": {"will": 0.2, "protocol": 0.4},
                      "8": {"extra": -0.3, "will": -0.2, "protocol": -0.5, "same_as_will": True},
                      "9": {"penalties": [{"kind": "game_action", "points": -1.0, "rule": "8.5.9"},
                                          {"kind": "game_action", "points": -0.3}]}})
    g2 = game("g2", ten(), "black", first_killed=1,
              scores={"1": {"penalties": [{"kind": "revealed_sheriff_no_will"}]},
                      "4": {"extra": 1.2, "approved": True}, "5": {"extra": 0.3}})
    assert_same(tournament("fsm", 10, [g1, g2]))


def test_lots() -> None:
    # one game, red wins: the six reds tie on everything; the three blacks tie too
    g = game("g1", ten(), "red")
    reds = ["p00", "p01", "p05", "p07", "p08", "p09"]
    for lots in ([], ["p01", "p00"], list(reversed(reds)), ["p02", "p04", "p03", "p06"] + reds,
                 ["p03", "p04"], ["p06", "p04", "p03"], reds[:5]):
        text = tournament("fsm", 10, [g], lots=lots)
        assert_same(text)
    mine = {r["player"]: r for r in reference_standings(json.loads(tournament("fsm", 10, [g],
                                                                                lots=reds[:5])))}
    assert all(mine[p]["lot_needed"] and mine[p]["place"] == 2 for p in reds)


ASIDE_BLACKS_SAME = [
    [(4, "black", "reliable"), (5, "black", None)],
    [(4, "black", None), (5, "black", "reliable")],
    [(4, "black", "near_reliable"), (5, "black", "near_reliable")],
    [(4, "black", "from_version"), (5, "black", "near_reliable")],
    [(4, "black", None), (5, "black", None), (7, "black", None)],
]
ASIDE_BLACKS_DIFFERENT = [
    [(4, "black", "near_reliable"), (5, "black", None)],
    [(4, "black", None), (5, "black", "near_reliable")],
    [(2, "red", None), (6, "red", "near_reliable"), (4, "black", None), (5, "black", "near_reliable")],
    [(4, "black", "near_reliable"), (5, "black", None), (8, "black", None)],
    [(4, "black", "near_reliable"), (5, "black", "near_reliable"), (7, "black", None)],
]


@pytest.mark.parametrize("entries", ASIDE_BLACKS_SAME)
def test_aside_several_correct_blacks(entries: list[tuple[int, str, str | None]]) -> None:
    g = game("g1", ten(), "black", first_killed=1, scores={"1": {"pu_protocol": _pu(entries, aside=True)}})
    assert_same(tournament("fsm", 10, [g]))


# scoring.md 3.3 (FSM 8.3.9.12): "a correct black outside the versions +0.4 (once: \"the
# last\")": the last correctly written black scores (the profile's Reading
# `pu_protocol_aside_black_entry`); found by this reference, the project followed it
@pytest.mark.parametrize("entries", ASIDE_BLACKS_DIFFERENT)
def test_aside_which_black_scores(entries: list[tuple[int, str, str | None]]) -> None:
    g = game("g1", ten(), "black", first_killed=1, scores={"1": {"pu_protocol": _pu(entries, aside=True)}})
    assert_same(tournament("fsm", 10, [g]))


def test_aside_which_black_scores_in_a_sample() -> None:
    # game q1-t2, seat 6 (p019, red, pu_extra 0.3): aside entries 10 (don) black, 7 (black) black
    # near_reliable, 5 (red) black reliable -- an error, -0.2 --, 2 (red) red +0.1. The reference
    # and the project both score seat 7 (the last correct black, halved: +0.2): extra 0.4
    text = dumps_tournament(sample_tournament("fsm", 20, 1, 391, False))
    assert _has_known_disagreement(json.loads(text))
    assert_same(text)


@pytest.mark.parametrize("rules", ["fiim2018", "fsm"])
def test_distances_with_a_stage_nobody_played(rules: str) -> None:
    # qual (10) - semi (no games) - final (10): the empty stage breaks no distance (assumption)
    stages = [{"id": "qual", "name": "Qual", "kind": "qualification"},
              {"id": "semi", "name": "Semi", "kind": "semifinal"},
              {"id": "final", "name": "Final", "kind": "final"}]
    games = _ci_games(6, "qual") + _ci_games(5, "final", rnd0=10)
    text = tournament(rules, 10, games, stages)
    for scope in (None, ["qual"], ["final"], ["semi", "final"]):
        assert_same(text, scope)


def test_distances_twenty_ten_twenty() -> None:
    # fsm: qual (20), semi (10), final (20): three distances; the final does not rejoin the qual
    stages = [{"id": "qual", "name": "Qual", "kind": "qualification"},
              {"id": "semi", "name": "Semi", "kind": "semifinal"},
              {"id": "final", "name": "Final", "kind": "final"}]
    games: list[dict[str, Any]] = []
    for stage, rnd0, tables in (("qual", 0, 2), ("semi", 10, 1), ("final", 20, 2)):
        for t in range(tables):
            for i, g in enumerate(_ci_games(5, stage, start=10 * t, rnd0=rnd0)):
                g["id"] = f"{stage}-{t}-{i}"
                g["table"] = t + 1
                games.append(g)
    text = tournament("fsm", 20, games, stages)
    for scope in (None, ["qual"], ["semi"], ["final"]):
        assert_same(text, scope)


@pytest.mark.parametrize("scores", [
    {"protocol": -0.4, "same_as_will": True}, {"will": -0.2, "same_as_will": True},
    {"protocol": 0.4, "same_as_will": True}, {"will": 0.2, "protocol": -0.6, "same_as_will": True},
])
def test_same_as_will_corners(scores: dict[str, Any]) -> None:
    g = game("g1", ten(), "red", scores={"2": scores})
    assert_same(tournament("fsm", 10, [g]))


def test_draw_keeps_negative_values_and_fiim_best_move() -> None:
    g = game("g1", ten(), "draw", first_killed=1, best_move=[4, 5, 7],
             scores={"2": {"will": -0.2, "protocol": -0.4},
                     "1": {"pu_protocol": _pu([(4, "black", None)],
                                              version={"situation": "sheriff_don", "right": False})}})
    assert_same(tournament("fsm", 10, [g]))
    g = game("g1", ten(), "draw", first_killed=1, best_move=[4, 5, 7])
    assert_same(tournament("fiim2018", 10, [g, game("g2", ten(0, 3), "draw")]))
    g = game("g1", ten(), "black", first_killed=1, day1_vote_left=2)
    assert_same(tournament("fsm", 10, [g]))


PU_TAGS = [None, None, "reliable", "near_reliable", "from_version", "checked"]
SITUATIONS = ["sheriff_don", "sheriff_don_vs_red", "red_vs_red", "black_vs_black",
              "second_claim_after_leaving", "single_claim", "sheriff_hides", "unreliable_sheriff_info"]


def _random_protocol(rng: random.Random) -> tuple[int, dict[str, Any]]:
    fk = rng.choice([s for s in range(1, 11) if ROLES[s - 1] in ("red", "sheriff")])
    seats = rng.sample([s for s in range(1, 11) if s != fk], rng.randint(0, 7))
    entries: list[tuple[int, str, str | None]] = []
    blacks = 0
    for s in seats:
        colour = rng.choice(["red", "black"]) if blacks < 3 else "red"
        blacks += colour == "black"
        tag = rng.choice(PU_TAGS)
        if tag == "checked" and (colour != "red" or ROLES[fk - 1] != "sheriff"):
            tag = None  # 8.3.9.9: refused anywhere else
        entries.append((s, colour, tag))
    more: dict[str, Any] = {}
    if rng.random() < 0.5:
        more["version"] = {"situation": rng.choice(SITUATIONS), "right": rng.random() < 0.5}
    if rng.random() < 0.4:
        more["aside"] = True
    return fk, _pu(entries, **more)


def _aside_blacks_differ(protocol: dict[str, Any], roles: list[str] = ROLES) -> bool:
    """The known disagreement (test_aside_which_black_scores): aside, several correct scoring
    blacks with different tags."""
    if not protocol.get("aside"):
        return False
    tags = {e.get("tag") for e in protocol["entries"]
            if e["colour"] == "black" and roles[e["seat"] - 1] in ("black", "don")
            and e.get("tag") not in ("reliable", "from_version", "checked")}
    return len(tags) > 1


def _has_known_disagreement(data: dict[str, Any]) -> bool:
    for g in data["games"]:
        roles = [s["role"] for s in sorted(g["seats"], key=lambda s: s["seat"])]
        for sc in (g.get("scores") or {}).values():
            if sc.get("pu_protocol") and _aside_blacks_differ(sc["pu_protocol"], roles):
                return True
    return False


@settings(max_examples=600, deadline=None)
@given(seed=st.integers(0, 10**9), result=st.sampled_from(["red", "black", "draw"]))
def test_random_pu_protocol(seed: int, result: str) -> None:
    rng = random.Random(seed)
    fk, protocol = _random_protocol(rng)
    scores: dict[str, Any] = {"pu_protocol": protocol}
    # his will beside it (FSM 8.3.8.11 when the same; 8.3.9.11/8.3.9.13 beside an aside one)
    aside = bool(protocol.get("aside"))
    if rng.random() < 0.4 and (not aside or len(protocol["entries"]) <= 3) and result != "draw":
        wills = ["-0.2", "0", "0.2", "0.3"] if aside else ["-0.4", "-0.2", "0", "0.2", "0.3", "0.4"]
        scores["will"] = float(rng.choice(wills))
        scores["same_as_will"] = rng.random() < 0.5
    g = game("g1", ten(), result, first_killed=fk, best_move=[], scores={str(fk): scores})
    assert_same(tournament("fsm", 10, [g]))
