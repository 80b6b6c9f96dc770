"""Team standings over the players' rows, by clause.

The players' rows are the real standings of real files; the team sums are recomputed here
from those rows independently (a plain loop over the members) and the order is checked
against the profile's criteria written out by their clauses.
"""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mafiatab.domain.standings import Row
from mafiatab.domain.teams import Team, TeamRow, TeamsRefused, rank_teams, team_standings
from mafiatab.rules import get_profile
from mafiatab.services.tournament_file import load_tournament, standings_of
from tests.helpers import EXAMPLES, dumps, game, tournament

FSM = get_profile("fsm")
FIIM = get_profile("fiim2018")


def _teams(players: list[str], size: int, seed: int) -> list[Team]:
    rng = random.Random(seed)
    ids = players[:]
    rng.shuffle(ids)
    return [Team(f"t{i}", f"Team {i}", tuple(ids[i:i + size])) for i in range(0, len(ids), size)]


@pytest.mark.parametrize("name", ["fsm-40-players-qual-semi.json", "fiim2018-30-players-with-final.json"])
@pytest.mark.parametrize("size", [2, 5])
def test_a_teams_line_is_the_sum_of_its_members_lines(name: str, size: int) -> None:
    loaded = load_tournament((EXAMPLES / name).read_bytes())
    rows = standings_of(loaded).rows
    players = [p.id for p in loaded.tournament.players]
    teams = _teams(players, size, 1)
    got = {r.team: r for r in team_standings(rows, teams, loaded.profile, players)}
    by_player = {r.player: r for r in rows}
    for t in teams:
        members = [by_player[m] for m in t.members if m in by_player]
        line = got[t.id]
        assert line.total == sum(r.total for r in members)
        assert line.extra == sum(r.extra for r in members)
        assert line.wins == sum(r.wins for r in members)
        assert line.wins_don_sheriff == sum(r.wins_don_sheriff for r in members)
        assert line.first_killed == sum(r.first_killed for r in members)
        assert line.games == sum(r.games for r in members)


def _line(team: str, **values: int) -> TeamRow:
    return TeamRow(team, team.upper(), (team + "-a",), Row(team, team.upper(), **values))


def test_fsm_8_7_tie_breakers_applied_to_teams() -> None:
    """FSM 8.7.1-8.7.5 in order: total, then extra points, wins, wins as don or sheriff,
    times first killed (more is better for each, as for players)."""
    rows = [
        _line("a", main=500, extra=100),                    # total 6.00
        _line("b", main=550, extra=50),                     # total 6.00, less extra
        _line("c", main=500, extra=100, wins=3),            # as a, more wins
        _line("d", main=500, extra=100, wins=3, wins_don_sheriff=1),
        _line("e", main=500, extra=100, wins=3, wins_don_sheriff=1, first_killed=2),
        _line("f", main=700),                               # the best total
    ]
    ranked = rank_teams(rows, FSM)
    assert [r.team for r in ranked] == ["f", "e", "d", "c", "a", "b"]
    assert [r.place for r in ranked] == [1, 2, 3, 4, 5, 6]
    assert not any(r.lot_needed for r in ranked)


def test_fiim_8_8_5_a_tie_no_criterion_breaks_shares_the_place_until_a_lot() -> None:
    rows = [_line("a", main=300), _line("b", main=300), _line("c", main=100)]
    ranked = rank_teams(rows, FIIM)
    assert [(r.team, r.place, r.lot_needed) for r in ranked] == [
        ("a", 1, True), ("b", 1, True), ("c", 3, False)]
    drawn = rank_teams([_line("a", main=300), _line("b", main=300), _line("c", main=100)],
                       FIIM, lots=["b", "a"])
    assert [(r.team, r.place, r.lot_needed) for r in drawn] == [
        ("b", 1, False), ("a", 2, False), ("c", 3, False)]
    # a lot that does not name every tied team orders nothing
    partial = rank_teams([_line("a", main=300), _line("b", main=300)], FIIM, lots=["b"])
    assert all(r.lot_needed and r.place == 1 for r in partial)


def test_a_player_in_two_teams_or_unknown_is_refused() -> None:
    t = tournament("fsm", [game("g1")])
    loaded = load_tournament(dumps(t))
    rows = standings_of(loaded).rows
    players = [p.id for p in loaded.tournament.players]
    teams = [Team("x", "X", ("p1", "p2")), Team("y", "Y", ("p2", "zz")), Team("x", "X2", ())]
    with pytest.raises(TeamsRefused) as e:
        team_standings(rows, teams, loaded.profile, players)
    assert e.value.in_two == ["p2"] and e.value.unknown == ["zz"]
    assert e.value.duplicate_ids == ["x"] and e.value.empty == ["x"]


def test_a_member_who_played_no_game_adds_nothing() -> None:
    t = tournament("fsm", [game("g1")], n_players=11)  # p11 registered, never seated
    loaded = load_tournament(dumps(t))
    rows = standings_of(loaded).rows
    players = [p.id for p in loaded.tournament.players]
    teams = [Team("a", "A", ("p1", "p11")), Team("b", "B", ("p4",))]
    got = {r.team: r for r in team_standings(rows, teams, loaded.profile, players)}
    p1 = next(r for r in rows if r.player == "p1")
    assert got["a"].total == p1.total and got["a"].games == 1


@given(seed=st.integers(0, 1000), size=st.integers(1, 8))
def test_team_order_follows_the_profiles_criteria(seed: int, size: int) -> None:
    data = json.loads((EXAMPLES / "fsm-40-players-qual-semi.json").read_bytes())
    loaded = load_tournament(json.dumps(data))
    rows = standings_of(loaded).rows
    players = [p.id for p in loaded.tournament.players]
    ranked = team_standings(rows, _teams(players, size, seed), loaded.profile, players)
    keys = [(r.total, r.extra, r.wins, r.wins_don_sheriff, r.first_killed) for r in ranked]
    assert keys == sorted(keys, reverse=True)
    for a, b in zip(ranked, ranked[1:], strict=False):
        tied = (a.total, a.extra, a.wins, a.wins_don_sheriff, a.first_killed) == \
            (b.total, b.extra, b.wins, b.wins_don_sheriff, b.first_killed)
        assert (a.place == b.place) == tied
