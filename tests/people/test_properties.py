"""Properties of a person's figures on random sound tournaments (the sample generator):
they add up the way the standings do, whatever the tournament."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from mafiatab.domain.people_stats import Played, digest, person_stats
from mafiatab.domain.protocol import TEAM_OF
from mafiatab.domain.standings import compute_standings
from mafiatab.rules import get_profile
from mafiatab.sample import sample_tournament


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 10**6), rules=st.sampled_from(["fsm", "fiim2018"]),
       players=st.sampled_from([10, 20, 30]), rounds=st.integers(1, 5))
def test_figures_add_up_like_the_standings(seed: int, rules: str, players: int,
                                           rounds: int) -> None:
    t = sample_tournament(rules, players, rounds, seed=seed, final_round=seed % 2 == 0)
    p = get_profile(rules)
    d = digest(t, p)
    rows = {r.player: r for r in compute_standings(t, p).rows}
    person_of = {pl.id: i for i, pl in enumerate(t.players)}
    for pl in t.players:
        me = person_of[pl.id]
        s = person_stats(me, [Played(1, d, pl.id, person_of)], top=10**6)
        row = rows[pl.id]
        assert s.all.points == row.total
        assert (s.all.games, s.all.wins) == (row.games, row.wins)
        assert sum((x.points for x in s.by_role.values()), start=0) == row.total
        assert sum((x.points for x in s.by_seat.values()), start=0) == row.total
        assert sum(x.games for x in s.by_seat.values()) == row.games
        assert s.first_killed == sum(1 for g in t.games if g.first_killed is not None
                                     and g.player_at(g.first_killed) == pl.id)
        assert 0 <= s.guessed <= s.named <= 3 * s.best_move_made
        # each game has 6 partners for a red player and 2 for a black one; 3 and 7 rivals
        reds = sum(x.games for r, x in s.by_role.items() if TEAM_OF[r] == "red")
        blacks = s.all.games - reds
        assert sum(m.together.games for m in s.partners) == 6 * reds + 2 * blacks
        assert sum(m.against.games for m in s.opponents) == 3 * reds + 7 * blacks
        # a game won is won with every partner of it
        red_wins = sum(x.wins for r, x in s.by_role.items() if TEAM_OF[r] == "red")
        black_wins = s.all.wins - red_wins
        assert sum(m.together.wins for m in s.partners) == 6 * red_wins + 2 * black_wins
        assert sum(m.against.wins for m in s.opponents) == 3 * red_wins + 7 * black_wins
