"""The rating's checks of principle, on games made here (no data needed).

* no look-ahead: cut the archive anywhere and the earlier predictions stay as they were;
* the same predictions whatever the files' order, the order of simultaneous games, or the
  players' names;
* with every spread at zero (no skill, no experience) the rating is the running base rate;
* on a club whose players learn with games, the experience effect comes out positive, and
  on one whose players do not, it stays small;
* on games drawn from the model's own assumptions it is calibrated: the logistic slope of
  the results on its predictions is about 1 (over-confidence shows as a slope below 1).
"""

from __future__ import annotations

import math
import random
from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from mafiatab.domain.protocol import BLACK, DON, RED, SHERIFF, TEAM_OF
from mafiatab.domain.ratings import (
    ModelParams,
    RatedGame,
    RatedSeat,
    Setting,
    calibration_slope,
    log_loss,
    outcomes_of,
    rate_base_rate,
    rate_elo,
    rate_games,
    reliability,
)

DECK = [RED] * 6 + [SHERIFF] + [BLACK] * 2 + [DON]


def club(seed: int, games: int, *, spread: float, learn: float, learn_games: float = 40.0,
         edge: float = -0.2, newcomers: float = 0.15, shot: float | None = None
         ) -> list[RatedGame]:
    """A club's evenings: two tables a round, newcomers joining, results drawn from the
    logistic of the red edge plus the team means of skill less a newcomer's deficit
    `learn * exp(-games played / learn_games)`. With `shot`, every game records a red
    player shot in the first night, whose skill counts `shot` times in his team's mean."""
    rng = random.Random(seed)
    skill = [rng.gauss(0.0, spread) for _ in range(30)]
    played = [0] * len(skill)
    out: list[RatedGame] = []
    day = 0
    while len(out) < games:
        day += 1
        if rng.random() < newcomers * 4:
            skill.append(rng.gauss(0.0, spread))
            played.append(0)
        present = rng.sample(range(len(skill)), 20)
        for rnd in range(1, 4):
            rng.shuffle(present)
            for table in range(2):
                ten = present[10 * table:10 * table + 10]
                roles = DECK[:]
                rng.shuffle(roles)
                victim = rng.choice([k for k, r in enumerate(roles) if TEAM_OF[r] == RED])
                mean = {RED: 0.0, BLACK: 0.0}
                for k, (i, r) in enumerate(zip(ten, roles, strict=True)):
                    s = skill[i] - learn * math.exp(-played[i] / learn_games)
                    if shot is not None and k == victim:
                        s *= shot
                    mean[TEAM_OF[r]] += s / (7 if TEAM_OF[r] == RED else 3)
                p = 1.0 / (1.0 + math.exp(-(edge + mean[RED] - mean[BLACK])))
                out.append(RatedGame(
                    "club", f"d{day}-r{rnd}-t{table}", "fiim2018", (f"{day:05d}", 0, rnd),
                    (0, len(out)), tuple(RatedSeat(f"p{i}", r) for i, r in zip(ten, roles,
                                                                                 strict=True)),
                    RED if rng.random() < p else BLACK, "club",
                    victim if shot is not None else None))
                for i in ten:
                    played[i] += 1
    return out


def _preds(games: list[RatedGame], params: ModelParams = ModelParams()) -> list[float]:
    return [p.p_red for p in rate_games(games, params).predictions]


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 1000), cut=st.integers(1, 119))
def test_no_look_ahead_earlier_predictions_do_not_change_when_the_archive_is_cut(
        seed: int, cut: int) -> None:
    games = club(seed, 120, spread=0.6, learn=1.0)
    assert _preds(games[:cut]) == _preds(games)[:cut]


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 1000))
def test_the_same_predictions_for_files_in_another_order(seed: int) -> None:
    """Two files of one season, read in either order (their games' file positions swap):
    every game's prediction is the same."""
    games = club(seed, 90, spread=0.6, learn=1.0)
    a = [replace(g, tournament="A", order=(0, i)) if i % 2 else
         replace(g, tournament="B", order=(1, i)) for i, g in enumerate(games)]
    b = [replace(g, order=(1 - g.order[0], g.order[1])) for g in reversed(a)]
    pa = {(p.tournament, p.game): p.p_red for p in rate_games(a).predictions}
    pb = {(p.tournament, p.game): p.p_red for p in rate_games(b).predictions}
    assert pa == pb


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 1000), salt=st.integers(0, 1000))
def test_the_same_predictions_for_renamed_players(seed: int, salt: int) -> None:
    games = club(seed, 90, spread=0.6, learn=1.0)
    names = {s.person for g in games for s in g.seats}
    shuffled = sorted(names)
    random.Random(salt).shuffle(shuffled)
    rename = dict(zip(sorted(names), (f"x{n}" for n in shuffled), strict=True))
    renamed = [replace(g, seats=tuple(RatedSeat(rename[s.person], s.role) for s in g.seats))
               for g in games]
    assert _preds(renamed) == _preds(games)


def test_with_every_spread_at_zero_the_rating_is_the_running_base_rate() -> None:
    games = club(3, 300, spread=0.8, learn=1.5)
    flat = ModelParams(grid=(Setting(0.0, 0.0, 0.0, 10.0), Setting(0.0, 0.0, 0.0, 80.0)),
                       experience_sd=0.0)
    base = [p.p_red for p in rate_base_rate(games)]
    ours = _preds(games, flat)
    assert all(math.isclose(a, b, rel_tol=1e-12) for a, b in zip(ours, base, strict=True))
    assert len(set(ours)) > 10  # the base rate itself moves with the results


def test_the_experience_effect_comes_out_with_the_right_sign() -> None:
    """Newcomers a whole logit and a half weaker: the learned effect of 100 games is large
    and positive; with no learning in the club it is small beside it."""
    learning = rate_games(club(5, 3000, spread=0.4, learn=1.5)).experience
    flat = rate_games(club(5, 3000, spread=0.4, learn=0.0)).experience
    assert learning > 100.0, learning  # rating points (the truth: about 260)
    assert abs(flat) < learning / 3, (flat, learning)


def test_calibrated_on_its_own_assumptions() -> None:
    """Three clubs drawn from the model's own assumptions, pooled: the slope of the
    results on the predictions' logits is about 1 (its standard error here is about 0.06;
    an over-confident rating, like the one the real games caught, scores near 0.56), and
    every well-filled tenth of the reliability table observes what it predicts."""
    preds: list[float] = []
    y: list[float] = []
    for seed in (1, 2, 3):
        games = club(seed, 3000, spread=1.0, learn=1.0)
        preds += _preds(games)
        y += outcomes_of(games)
    slope = calibration_slope(preds, y)
    assert 0.8 < slope < 1.2, slope
    for b in reliability(preds, y):
        if b.games >= 200:  # observed within 4 standard errors (and 2 points of slack)
            se = math.sqrt(b.predicted * (1 - b.predicted) / b.games)
            assert abs(b.observed - b.predicted) < 4 * se + 0.02, b


def test_it_predicts_better_than_the_baseline_and_the_base_rate_where_players_learn() -> None:
    games = club(13, 3000, spread=0.5, learn=1.5)
    y = outcomes_of(games)
    ours = log_loss(_preds(games), y)
    elo = log_loss([p.p_red for p in rate_elo(games).predictions], y)
    base = log_loss([p.p_red for p in rate_base_rate(games)], y)
    assert ours < elo and ours < base, (ours, elo, base)


def test_reliability_groups_by_tenth() -> None:
    bins = reliability([0.05, 0.07, 0.55, 0.95, 1.0], [0.0, 1.0, 1.0, 1.0, 0.5])
    assert [(b.low, b.games) for b in bins] == [(0.0, 2), (0.5, 1), (0.9, 2)]
    assert bins[0].observed == 0.5 and bins[2].observed == 0.75
    assert math.isclose(bins[0].predicted, 0.06)


def test_a_first_nights_victim_is_judged_by_what_the_games_show() -> None:
    """Where the victim's skill never mattered to the result, the grid learns that his
    game says little about him; where it mattered as anyone's, that it says much; and
    taking that into account predicts better than the full-weight half alone."""
    full_only = ModelParams(grid=tuple(s for s in ModelParams().grid if s.first_killed == 1.0))
    idle = club(7, 4000, spread=1.0, learn=0.0, shot=0.0)
    whole = club(7, 4000, spread=1.0, learn=0.0, shot=1.0)
    said_idle = rate_games(idle).first_killed
    said_whole = rate_games(whole).first_killed
    assert said_idle < 0.5 < said_whole, (said_idle, said_whole)
    y = outcomes_of(idle)
    assert log_loss(_preds(idle), y) < log_loss(_preds(idle, full_only), y)


def test_games_that_record_no_victim_are_rated_as_by_the_full_weight_half_alone() -> None:
    games = club(11, 600, spread=0.6, learn=1.0)
    full_only = ModelParams(grid=tuple(s for s in ModelParams().grid if s.first_killed == 1.0))
    assert all(math.isclose(a, b, rel_tol=1e-9)
               for a, b in zip(_preds(games), _preds(games, full_only), strict=True))
    assert rate_games(games).first_killed == 0.5


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 1000), at=st.integers(0, 199))
def test_a_games_victim_changes_no_prediction_of_it_or_of_games_beside_it(
        seed: int, at: int) -> None:
    """Who is shot first is known only after the game: recording him changes the
    predictions of later games only."""
    games = club(seed, 200, spread=0.6, learn=1.0, shot=0.5)
    bare = [replace(g, first_killed=None) if i == at else g for i, g in enumerate(games)]
    when = games[at].when
    later = [i for i, g in enumerate(games) if g.when > when]
    first_later = later[0] if later else len(games)
    assert _preds(bare)[:first_later] == _preds(games)[:first_later]
