"""Exhibition players (вне зачёта): they play and are seated, their games count for
everybody else, they have no place; and where the rules count participants (FIIM 8.7's
limit of K, FSM 8.6.2/8.6.5's distances) they are not counted (the profiles' Reading
`exhibition_are_participants`, docs/rules.md)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from mafiatab.domain.protocol import Tournament
from mafiatab.domain.standings import compute_standings, distances, participant_count
from mafiatab.formats.tournament_json import dumps_tournament
from mafiatab.rules import PROFILES
from mafiatab.rules.profile import Ruled
from mafiatab.services.tournament_file import load_tournament
from tests.helpers import dumps, game, tournament

TEN = [f"p{i}" for i in range(1, 11)]


def _load(t: dict[str, Any]) -> Tournament:
    return load_tournament(dumps(t)).tournament


def _mark(t: dict[str, Any], *ids: str) -> dict[str, Any]:
    for p in t["players"]:
        if p["id"] in ids:
            p["exhibition"] = True
    return t


def _fiim_small(n_players: int, *aside: str) -> dict[str, Any]:
    """Three games (2 red wins, 1 black: the black ones are heavy) among n players."""
    games = [game("g1", result="red"), game("g2", result="red", rnd=2),
             game("g3", result="black", rnd=3)]
    return _mark(tournament("fiim2018", games, n_players=n_players), *aside)


def test_fiim_8_7_exhibition_players_are_not_participants() -> None:
    # 21 listed: past the 20 of FIIM 8.7, no K
    plain = _load(_fiim_small(21))
    profile = PROFILES["fiim2018"]
    assert participant_count(plain, profile) == 21
    assert not compute_standings(plain, profile).k.applies
    # two of them exhibition players: 19 participants, K applies over all three games
    marked = _load(_fiim_small(21, "p20", "p21"))
    assert participant_count(marked, profile) == 19
    k = compute_standings(marked, profile).k
    assert k.applies and k.games == 3 and k.heavy_side == "black" and k.heavy_wins == 1
    # the profile that counts them (another federation's setting) takes K away again
    counting = replace(profile, exhibition_are_participants=Ruled(True, "FIIM 8.7"))
    assert participant_count(marked, counting) == 21
    assert not compute_standings(marked, counting).k.applies


def test_fiim_8_7_k_counts_the_games_of_exhibition_players() -> None:
    # p4 (black in every game) plays as an exhibition player: N is still 3 games
    t = _load(_fiim_small(12, "p4"))
    s = compute_standings(t, PROFILES["fiim2018"])
    assert s.k.games == 3 and s.k.heavy_wins == 1
    assert "p4" not in {r.player for r in s.rows}
    # his partners of the black win still get K on it
    rows = {r.player: r for r in s.rows}
    assert rows["p6"].main == 100 * s.k.k and rows["p8"].main == 100 * s.k.k


def _fsm_two_stages(*aside: str) -> dict[str, Any]:
    """Stage 1: p1-p10. Stage 2: p1-p10, then x1 in place of p1: 11 people, 10 ranked
    when x1 is an exhibition player."""
    stages = [{"id": "s1", "name": "S1", "kind": "qualification"},
              {"id": "s2", "name": "S2", "kind": "qualification"}]
    fk = {"first_killed": 1, "best_move": [4, 6, 8]}
    games = [game("a1", stage="s1", result="black", **fk),
             game("b1", stage="s2", result="black", **fk),
             game("b2", stage="s2", rnd=2, result="black",
                  players=["x1", *TEN[1:]], **fk)]
    t = tournament("fsm", games, stages=stages)
    return _mark(t, *aside)


def test_fsm_8_6_5_an_exhibition_player_does_not_change_the_participants() -> None:
    profile = PROFILES["fsm"]
    plain = _load(_fsm_two_stages())
    # x1 counted: 11 participants in s2 against 10 in s1, a new distance (FSM 8.6.5)
    assert distances(plain, profile) == {"s1": "s1", "s2": "s2"}
    marked = _load(_fsm_two_stages("x1"))
    # x1 out of the standings: the same 10 participants, one distance (FSM 8.6.2)
    assert distances(marked, profile) == {"s1": "s1", "s2": "s1"}
    s = compute_standings(marked, profile)
    # p1 was first killed twice over the one distance of 2 games: i=2, B=max(1, 4)=4
    rate = s.ci[("p1", "s1")]
    assert (rate.i, rate.games, rate.b) == (2, 2, 4)
    rows = {r.player: r for r in s.rows}
    assert rows["p1"].compensation == 2 * rate.ci


def test_exhibition_players_are_not_ranked_but_their_games_count_in_both_federations() -> None:
    for rules in ("fsm", "fiim2018"):
        games = [game("g1", result="red", first_killed=1, best_move=[4, 6, 8]),
                 game("g2", result="black", rnd=2, first_killed=3, best_move=[4, 5, 6])]
        plain = _load(tournament(rules, games, n_players=10))
        marked = _load(_mark(tournament(rules, games, n_players=10), "p3"))
        profile = PROFILES[rules]
        before = {r.player: r for r in compute_standings(plain, profile).rows}
        s = compute_standings(marked, profile)
        after = {r.player: r for r in s.rows}
        # p3 has no place; everybody else's points are what they were
        assert "p3" not in after and [r.player for r in s.exhibition] == ["p3"]
        assert s.exhibition[0].place == 0 and s.exhibition[0].games == 2
        for pid, row in after.items():
            assert (row.total, row.games, row.wins) == (
                before[pid].total, before[pid].games, before[pid].wins), (rules, pid)
        # places run 1.. over the ranked players only
        assert sorted(r.place for r in s.rows)[0] == 1
        assert max(r.place for r in s.rows) <= 9


def test_format_1_reads_and_writes_the_exhibition_flag() -> None:
    t = _load(_fsm_two_stages("x1"))
    assert t.exhibition == frozenset({"x1"})
    again = load_tournament(dumps_tournament(t).encode()).tournament
    assert again.exhibition == frozenset({"x1"})
    assert '"exhibition":true' in dumps_tournament(t).replace(" ", "")


def test_an_exhibition_member_adds_nothing_to_his_team_in_both_federations() -> None:
    """docs/rules.md: an exhibition player has no line in the team ranking, so his points
    count for no team; his team's sums are its ranked members' rows, in both federations."""
    from mafiatab.domain.teams import Team, team_standings

    for rules in ("fsm", "fiim2018"):
        games = [game("g1", result="red", first_killed=1, best_move=[4, 6, 8]),
                 game("g2", result="black", rnd=2, first_killed=3, best_move=[4, 5, 6])]
        marked = _load(_mark(tournament(rules, games, n_players=10), "p3"))
        profile = PROFILES[rules]
        s = compute_standings(marked, profile)
        rows = {r.player: r for r in s.rows}
        teams = [Team("a", "А", ("p1", "p2", "p3")), Team("b", "Б", ("p4", "p5"))]
        got = {t.team: t for t in team_standings(s.rows, teams, profile, TEN)}
        assert got["a"].sums.total == rows["p1"].total + rows["p2"].total, rules
        assert got["a"].sums.games == 4  # p3's two games are not his team's
        assert got["b"].sums.total == rows["p4"].total + rows["p5"].total
        assert s.exhibition[0].games == 2  # he played them: they are only not his team's
