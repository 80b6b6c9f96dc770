"""The rating's documented properties (docs/ratings.md) and the Elo baseline by hand.

Properties, for ours and for the baseline: a win raises the winners' ratings and a loss
lowers the losers'; the order of simultaneous games (same date and round) does not
change anything; a game's own result never reaches its own prediction (nor an earlier
or simultaneous game's); ours keeps p_red strictly inside (0, 1).
"""

from __future__ import annotations

import math
import random
from dataclasses import replace

from hypothesis import given
from hypothesis import strategies as st

from mafiatab.domain.protocol import BLACK, DON, RED, SHERIFF, TEAM_OF
from mafiatab.domain.ratings import (
    ELO_K,
    ModelParams,
    RatedGame,
    RatedSeat,
    Ratings,
    RatingSettings,
    elo_earned,
    elo_k,
    elo_red_chance,
    log_loss,
    rate_elo,
    rate_games,
    rated_games,
    what_if,
)
from mafiatab.formats.tournament_json import read_tournament
from tests.helpers import dumps, game, tournament

DECK = [RED] * 6 + [SHERIFF] + [BLACK] * 2 + [DON]
RATERS = {"ours": rate_games, "elo": rate_elo}


def _game(rng: random.Random, pool: int, i: int, when: tuple[str, int, int],
          result: str | None = None) -> RatedGame:
    people = rng.sample(range(pool), 10)
    roles = DECK[:]
    rng.shuffle(roles)
    seats = tuple(RatedSeat(f"p{p}", r) for p, r in zip(people, roles, strict=True))
    res = result or rng.choice([RED, RED, BLACK, "draw"])
    return RatedGame("T", f"g{i}", "fsm", when, (0, i), seats, res)


def _season(seed: int, n: int, pool: int = 16, per_batch: int = 3) -> list[RatedGame]:
    """n games, `per_batch` of them at each (date, round); a player may sit in two games
    of one batch (two tournaments on the same day share no table, but the rating must not
    care)."""
    rng = random.Random(seed)
    return [_game(rng, pool, i, ("2026-01-01", 0, i // per_batch)) for i in range(n)]


def _by_person(r: Ratings) -> dict[str, tuple[float, float, float, int]]:
    return {p.person: (p.rating, p.red, p.black, p.games) for p in r.players}


def _by_game(r: Ratings) -> dict[str, float]:
    return {p.game: p.p_red for p in r.predictions}


# --- a win raises -----------------------------------------------------------------------


@given(seed=st.integers(0, 10_000), n=st.integers(0, 30),
       result=st.sampled_from([RED, BLACK]), rater=st.sampled_from(sorted(RATERS)))
def test_a_win_raises_the_winners_and_a_loss_lowers_the_losers(
        seed: int, n: int, result: str, rater: str) -> None:
    history = _season(seed, n)
    last = _game(random.Random(seed + 1), 16, n, ("2026-02-01", 0, 1), result)
    rate = RATERS[rater]
    before = _by_person(rate(history))
    after = _by_person(rate([*history, last]))
    for s in last.seats:
        old = before.get(s.person, (1500.0, 1500.0, 1500.0, 0) if rater == "ours"
                         else (0.0, 0.0, 0.0, 0))
        new = after[s.person]
        track = 1 if TEAM_OF[s.role] == RED else 2
        if TEAM_OF[s.role] == result:
            assert new[0] > old[0] and new[track] > old[track], (s, old, new)
        else:
            assert new[0] < old[0] and new[track] < old[track], (s, old, new)
        assert new[3] == old[3] + 1


# --- simultaneous games -------------------------------------------------------------------


@given(seed=st.integers(0, 10_000), n=st.integers(1, 40), shuffle_seed=st.integers(0, 99),
       rater=st.sampled_from(sorted(RATERS)))
def test_the_order_of_simultaneous_games_does_not_matter(
        seed: int, n: int, shuffle_seed: int, rater: str) -> None:
    games = _season(seed, n)
    shuffled = games[:]
    random.Random(shuffle_seed).shuffle(shuffled)
    # new file positions too: within a batch the file order is the only thing that differs
    renumbered = [replace(g, order=(0, i)) for i, g in enumerate(shuffled)]
    a, b = RATERS[rater](games), RATERS[rater](renumbered)
    assert _by_person(a) == _by_person(b)  # exactly equal, not approximately
    assert _by_game(a) == _by_game(b)


def test_simultaneous_games_are_predicted_before_any_of_them_is_rated() -> None:
    """Two games at one date and round with the same ten people: the second's prediction
    is the first's, whatever the first's result."""
    g1 = _game(random.Random(5), 10, 0, ("2026-01-01", 0, 1), RED)
    g2 = replace(g1, game="g1", order=(0, 1), result=BLACK)
    for rate in RATERS.values():
        preds = _by_game(rate([g1, g2]))
        assert preds["g0"] == preds["g1"]


# --- a game's own result ---------------------------------------------------------------------


@given(seed=st.integers(0, 10_000), n=st.integers(1, 40), data=st.data(),
       rater=st.sampled_from(sorted(RATERS)))
def test_predictions_never_use_the_games_own_result(
        seed: int, n: int, data: st.DataObject, rater: str) -> None:
    games = _season(seed, n)
    k = data.draw(st.integers(0, n - 1))
    other = data.draw(st.sampled_from([r for r in (RED, BLACK, "draw") if r != games[k].result]))
    changed = games[:]
    changed[k] = replace(games[k], result=other)
    a, b = _by_game(RATERS[rater](games)), _by_game(RATERS[rater](changed))
    assert a[games[k].game] == b[games[k].game]
    for g in games:  # nor any game before it or at the same date and round
        if g.when <= games[k].when:
            assert a[g.game] == b[g.game]
    later = [g for g in games if g.when > games[k].when]
    if later and rater == "ours":  # ...but it does reach the games after it
        assert any(a[g.game] != b[g.game] for g in later)


# --- p_red inside (0, 1) -----------------------------------------------------------------------


def test_p_red_stays_strictly_inside_0_and_1_after_a_long_streak() -> None:
    """The same ten people, the same seats, 2,000 red wins in a row: the red team is
    a near certainty, never a certainty."""
    g = _game(random.Random(1), 10, 0, ("", 0, 0), RED)
    games = [replace(g, game=f"g{i}", when=("", 0, i), order=(0, i)) for i in range(2000)]
    preds = [p.p_red for p in rate_games(games).predictions]
    assert all(0.0 < p < 1.0 for p in preds)
    assert preds[-1] > 0.99
    black = [replace(x, result=BLACK) for x in games]
    preds = [p.p_red for p in rate_games(black).predictions]
    assert all(0.0 < p < 1.0 for p in preds) and preds[-1] < 0.01


@given(seed=st.integers(0, 10_000), n=st.integers(1, 60))
def test_p_red_is_a_probability_for_both_raters(seed: int, n: int) -> None:
    games = _season(seed, n)
    assert all(0.0 < p.p_red < 1.0 for p in rate_games(games).predictions)
    assert all(0.0 <= p.p_red <= 1.0 for p in rate_elo(games).predictions)


# --- draws, the base rate, roles ----------------------------------------------------------------


def test_a_draw_is_half_a_win_for_ours_and_a_loss_for_both_in_the_baseline() -> None:
    g = _game(random.Random(2), 10, 0, ("", 0, 0), "draw")
    ours = rate_games([g])
    assert ours.predictions[0].p_red == 0.5  # no history: the base rate's prior, even teams
    assert all(p.rating == 1500.0 for p in ours.players)  # y = p: nothing moves
    elo = rate_elo([g])
    # nobody won: every player takes his team's losing K (include/game_ratings.php)
    assert all(p.rating == -6.0 for p in elo.players)


def test_the_base_rate_is_learned_per_rule_set() -> None:
    """Red wins every fsm game and loses every fiim2018 one, among always-new players: the
    next fsm game leans red, the next fiim2018 game black."""
    rng = random.Random(3)
    games = []
    for i in range(200):
        rules = "fsm" if i % 2 else "fiim2018"
        g = _game(rng, 10_000, i, ("", 0, i), RED if rules == "fsm" else BLACK)
        games.append(replace(g, rules=rules))
    preds = rate_games(games).predictions
    # new players: the uncertainty about them pulls toward one half (0.87 here, not 0.92)
    assert preds[-1].p_red > 0.8 and preds[-2].p_red < 0.2


def test_the_team_parts_learn_that_a_player_is_better_for_one_team() -> None:
    """Black wins every game, so p0 wins every game he plays black and loses every one he
    plays red: his black rating ends above his red one."""
    rng = random.Random(4)
    games = []
    for i in range(60):
        g = _game(rng, 30, i, ("", 0, i))
        if all(s.person != "p0" for s in g.seats):
            seats = (RatedSeat("p0", g.seats[0].role), *g.seats[1:])
            g = replace(g, seats=seats)
        games.append(replace(g, result=BLACK))
    p0 = next(p for p in rate_games(games).players if p.person == "p0")
    assert p0.black > p0.red


def test_role_weights_change_the_prediction() -> None:
    """The weights are part of the model: a strong sheriff counts more with a heavier one."""
    rng = random.Random(6)
    history = [_game(rng, 16, i, ("", 0, i)) for i in range(40)]
    nxt = _game(rng, 16, 40, ("", 0, 99))
    equal = rate_games([*history, nxt]).predictions[-1].p_red
    heavy = ModelParams(weights={RED: 1.0, SHERIFF: 3.0, BLACK: 1.0, DON: 3.0})
    assert rate_games([*history, nxt], heavy).predictions[-1].p_red != equal


# --- the baseline, by hand from include/game_ratings.php -------------------------------------------


def test_elo_reproduces_a_hand_computed_case() -> None:
    """Two tournament games (K 16 for a win, 12 for a loss).

    Game 1, everyone at 0: civ_odds = 1 / (1 + 10^0) = 0.5; red wins: p0..p6 earn
    16 * (1 - 0.5) = +8 on their red tracks, p7..p9 (black) -12 * 0.5 = -6 on their black.
    Game 2, the same ten, p0..p2 now black: R, the mean of the red players' red tracks, is
    (4 * 8 + 3 * 0) / 7 = 32/7 (p3..p6 were red, p7..p9 black); B, the black players' black
    tracks, 0. civ_odds = 1 / (1 + 10^((0 - 32/7) / 400)). Black wins: p0..p2 earn
    16 * civ_odds, the red players -12 * civ_odds, each on the track he played.
    """
    people = [f"p{i}" for i in range(10)]
    roles1 = [RED, RED, SHERIFF, RED, RED, RED, RED, BLACK, BLACK, DON]
    roles2 = [BLACK, DON, BLACK, RED, RED, RED, SHERIFF, RED, RED, RED]
    g1 = RatedGame("T", "g1", "fsm", ("2026-01-01", 0, 1), (0, 0),
                   tuple(RatedSeat(p, r) for p, r in zip(people, roles1, strict=True)), RED)
    g2 = RatedGame("T", "g2", "fsm", ("2026-01-01", 0, 2), (0, 1),
                   tuple(RatedSeat(p, r) for p, r in zip(people, roles2, strict=True)), BLACK)
    r = rate_elo([g1, g2])
    odds = 1.0 / (1.0 + 10.0 ** ((0.0 - 32.0 / 7.0) / 400.0))
    assert [p.p_red for p in r.predictions] == [0.5, odds]
    assert math.isclose(odds, 0.506578, abs_tol=1e-6)  # the number itself, worked out apart
    got = {p.person: (p.rating, p.red, p.black) for p in r.players}
    for p in ("p0", "p1", "p2"):  # red then black: +8, then +16 * odds
        assert got[p] == (8.0 + 16.0 * odds, 8.0, 16.0 * odds)
    for p in ("p3", "p4", "p5", "p6"):  # red twice: +8, then -12 * odds
        assert got[p] == (8.0 - 12.0 * odds, 8.0 - 12.0 * odds, 0.0)
    for p in ("p7", "p8", "p9"):  # black then red: -6, then -12 * odds
        assert got[p] == (-6.0 - 12.0 * odds, -12.0 * odds, -6.0)


def test_elo_k_by_game_kind() -> None:
    assert ELO_K == {"club": (4.0, 3.0), "tournament": (16.0, 12.0), "elite": (64.0, 48.0)}
    assert elo_k("elite", 9) == (32.0, 24.0)  # below ten players, halved
    assert elo_red_chance([400.0], [0.0]) == 1.0 / 1.1  # 400 points: odds of ten to one
    assert elo_earned(DON, True, 0.25, (16.0, 12.0)) == 16.0 * 0.25
    assert elo_earned(SHERIFF, False, 0.25, (16.0, 12.0)) == -12.0 * 0.25


# --- which games count ------------------------------------------------------------------------------


def _file() -> bytes:
    stages = [{"id": "qual", "name": "Q", "kind": "qualification"},
              {"id": "fin", "name": "F", "kind": "final"}]
    games = [game("q1", rnd=1, date="2026-03-01"), game("q2", rnd=2),
             game("f1", stage="fin", rnd=1, result="black", date="2026-03-02")]
    return dumps(tournament("fsm", games, stages=stages, name="Cup"))


def test_which_games_count_is_the_federations_setting() -> None:
    t, problems = read_tournament(_file())
    assert t is not None and not problems
    every = rated_games(t, 0)
    assert [g.game for g in every] == ["q1", "q2", "f1"]
    # a game with no date is on the date of the game before it; rounds restart per stage
    assert [g.when for g in every] == [("2026-03-01", 0, 1), ("2026-03-01", 0, 2),
                                       ("2026-03-02", 1, 1)]
    finals = rated_games(t, 0, RatingSettings(stage_kinds=frozenset({"final"})))
    assert [g.game for g in finals] == ["f1"]
    assert rated_games(t, 0, RatingSettings(unrated=frozenset({"Cup"}))) == []
    assert {g.kind for g in rated_games(t, 0, RatingSettings(elite=frozenset({"Cup"})))} == {"elite"}


def test_log_loss_counts_a_draw_as_half() -> None:
    assert math.isclose(log_loss([0.5], [0.5]), math.log(2))
    assert math.isclose(log_loss([0.8, 0.8], [1.0, 0.0]),
                        (-math.log(0.8) - math.log(0.2)) / 2)


# --- what if ------------------------------------------------------------------------------------------


@given(seed=st.integers(0, 10_000), n=st.integers(1, 30), data=st.data())
def test_what_if_gives_each_results_ratings_before_the_game(
        seed: int, n: int, data: st.DataObject) -> None:
    games = _season(seed, n)
    k = data.draw(st.integers(0, n - 1))
    target = games[k]
    w = what_if(games, "T", target.game)
    assert w is not None
    assert w.p_red == _by_game(rate_games(games))[target.game]
    upto = [g for g in games if g.when <= target.when]  # the game's batch, as it ended
    for result in (RED, BLACK, "draw"):
        trial = [replace(g, result=result) if g is target else g for g in upto]
        after = _by_person(rate_games(trial))
        for s in w.seats:
            assert s.after[result] == after[s.person][0]
    for s in w.seats:  # a win gives more than a draw, a draw more than a loss
        won = RED if TEAM_OF[s.role] == RED else BLACK
        assert s.after[won] > s.after["draw"] > s.after[BLACK if won == RED else RED]
    assert what_if(games, "T", "nope") is None
