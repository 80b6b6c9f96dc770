"""Log-loss and Brier of the rating's predictions: ours, mafiaratings' Elo, a base rate.

    python bench/ratings.py [--seeds 1 2 3] [--months 12] [--pool 400] [--files F...]
                            [--no-openskill] [--sweep [--years Y]] [--speed [N...]]

Simulated seasons with hidden skills: a federation's pool of players, each with a latent
skill (drifting month by month), a red-or-black leaning and a knack for the sheriff's and
the don's roles; every month a few tournaments of 10-100 players (8-12 rounds, tables of
ten dealt at random: 6 red, 1 sheriff, 2 black, 1 don). A game's result is drawn from a
probit of the role-weighted team strengths plus the red team's advantage (a different
link and different role weights from our model's, so the model is not scored on its own
assumptions); 4% of games are draws. The truth's own probabilities give the floor.

Every rater sees the same games in the same order in one run: ours (`rate_games`), the
baseline (`rate_elo`, K 16/12 of a tournament game, and 64/48 of an elite one), the base
rate (share of red wins so far), and openskill (Weng-Lin Plackett-Luce) three ways:
plain (one rating, teams summed), role tracks (a red and a black rating per player), and
role tracks with a mean-strength prediction calibrated by the base rate; and ours with
the role weights fixed at 1 (what learning them gives). --flat-roles simulates roles that
all weigh the same (does learning weights hurt when there is nothing to learn?). The format-1
files given with --files (default: ../shared/spec/examples/*.json) are rated the same way.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from mafiatab.domain.protocol import BLACK, DON, RED, SHERIFF, TEAM_OF
from mafiatab.domain.ratings import (
    DEFAULT_GRID,
    ModelParams,
    Prediction,
    RatedGame,
    RatedSeat,
    brier,
    log_loss,
    ordered,
    outcomes_of,
    rate_base_rate,
    rate_elo,
    rate_games,
    simultaneous,
)

ROLE_DECK = [RED] * 6 + [SHERIFF] + [BLACK] * 2 + [DON]
#: the simulation's true role weights (ours uses 1 for every role)
TRUE_WEIGHTS = {RED: 1.0, SHERIFF: 1.8, BLACK: 1.3, DON: 1.8}
RED_EDGE = 0.2  # probit: the red team wins 58% between equal teams
SKILL_EFFECT = 1.1  # probit units per unit of team-strength difference
DRAWS = 0.04
ROOT = Path(__file__).resolve().parents[1]
#: logits per openskill mu point in the calibrated variant: the best of 0.02, 0.05, 0.1, 0.2
#: (and 1/beta = 0.24) on seed 1; its updates sum 7 against 3, so its mu says little
OPENSKILL_SCALE = 0.02


@dataclass(slots=True)
class SimPlayer:
    skill: float
    lean: float  # + plays better red, - better black
    knack: float  # extra as sheriff or don
    activity: float


def _phi(x: float) -> float:
    return 0.5 * (1.0 + math.erf(x / math.sqrt(2.0)))


def simulate(seed: int, months: int, pool: int, weights: dict[str, float] | None = None
             ) -> tuple[list[RatedGame], list[float]]:
    """A simulated federation: games (in rating order) and the truth's p_red of each."""
    rng = random.Random(seed)
    players = [SimPlayer(rng.gauss(0, 1), rng.gauss(0, 0.35), rng.gauss(0, 0.4),
                         rng.lognormvariate(0, 0.8)) for _ in range(pool)]
    games: list[RatedGame] = []
    truth: dict[tuple[str, str], float] = {}
    fi = 0
    for month in range(months):
        for p in players:
            p.skill += rng.gauss(0, 0.08)
        for tn in range(rng.randint(2, 4)):
            n = 10 * rng.randint(1, 10)
            chosen = _weighted_sample(rng, players, n)
            name = f"m{month:02d}-t{tn}"
            date = f"2026-{month % 12 + 1:02d}-{5 + 7 * tn:02d}" if months <= 12 else \
                f"{2026 + month // 12}-{month % 12 + 1:02d}-{5 + 7 * tn:02d}"
            rounds = rng.randint(8, 12)
            for rnd in range(1, rounds + 1):
                order = chosen[:]
                rng.shuffle(order)
                for table in range(n // 10):
                    ten = order[table * 10:(table + 1) * 10]
                    roles = ROLE_DECK[:]
                    rng.shuffle(roles)
                    p_red = _true_p(ten, roles, weights or TRUE_WEIGHTS)
                    u = rng.random()
                    result = "draw" if u < DRAWS else RED if rng.random() < p_red else BLACK
                    gid = f"r{rnd}-t{table + 1}"
                    seats = tuple(RatedSeat(f"P{players.index(p)}", r)
                                  for p, r in zip(ten, roles, strict=True))
                    games.append(RatedGame(name, gid, "fsm", (date, 0, rnd),
                                           (fi, len(games)), seats, result))
                    truth[(name, gid)] = p_red
            fi += 1
    games = ordered(games)
    return games, [truth[(g.tournament, g.game)] for g in games]


def _weighted_sample(rng: random.Random, players: list[SimPlayer], n: int) -> list[SimPlayer]:
    chosen: list[SimPlayer] = []
    left = players[:]
    for _ in range(n):
        pick = rng.choices(range(len(left)), weights=[p.activity for p in left])[0]
        chosen.append(left.pop(pick))
    return chosen


def _true_p(ten: Sequence[SimPlayer], roles: Sequence[str], weights: dict[str, float]) -> float:
    strength = {RED: 0.0, BLACK: 0.0}
    weight = {RED: 0.0, BLACK: 0.0}
    for p, r in zip(ten, roles, strict=True):
        team = TEAM_OF[r]
        s = p.skill + (p.lean if team == RED else -p.lean)
        if r in (SHERIFF, DON):
            s += p.knack
        strength[team] += weights[r] * s
        weight[team] += weights[r]
    d = strength[RED] / weight[RED] - strength[BLACK] / weight[BLACK]
    return _phi(RED_EDGE + SKILL_EFFECT * d)


# --- a club's years, with the simulation's assumptions as settings ------------------------


@dataclass(frozen=True, slots=True)
class World:
    """What a simulated club assumes, each a setting the sweep varies.

    `spread`: the standard deviation of veterans' skill (logits of the red team's odds per
    unit of team-mean difference); `learn`: how much weaker a newcomer is than he will be
    (logits), `learn_games`: in how many games he gets most of it (an exponential curve);
    `heavy`: the sheriff's and the don's weight in their team (1: every role alike);
    `red_edge`: the red team's logit between equal teams (-0.24: red wins 44 %);
    `drift`: how far skill wanders in a year (standard deviation); `first_killed`: how much
    the red player shot in the first night weighs in his team's strength (1: as much as
    anyone, 0: not at all; the simulation shoots a red player at random every game).
    """

    spread: float = 0.5
    learn: float = 1.0
    learn_games: float = 60.0
    heavy: float = 1.0
    red_edge: float = -0.24
    drift: float = 0.2
    first_killed: float = 1.0

    def label(self) -> str:
        return (f"spread {self.spread:<4} learn {self.learn:<4} over {self.learn_games:<4.0f} "
                f"heavy {self.heavy:<4} edge {self.red_edge:<+5} drift {self.drift:<4} "
                f"shot {self.first_killed}")


def simulate_club(seed: int, world: World, years: int = 7, evenings: int = 120,
                  ) -> tuple[list[RatedGame], list[float]]:
    """A club's games over `years` (in rating order) and the truth's p_red of each.

    Newcomers keep arriving (about two a month) and some leave; a regular plays often, a
    guest rarely. An evening has one to three tables of ten dealt at random. A result is
    drawn from the logistic of the red edge plus the role-weighted team strengths, where a
    player's strength is his skill less the newcomer's deficit `learn * exp(-n / games)`.
    """
    rng = random.Random(seed)
    skill: list[float] = []
    activity: list[float] = []
    played: list[int] = []
    active: list[int] = []

    def join() -> None:
        skill.append(rng.gauss(0.0, world.spread))
        activity.append(rng.lognormvariate(0.0, 1.0))
        played.append(0)
        active.append(len(skill) - 1)

    for _ in range(30):
        join()
    games: list[RatedGame] = []
    truth: list[float] = []
    weights = {RED: 1.0, SHERIFF: world.heavy, BLACK: 1.0, DON: world.heavy}
    step = world.drift / math.sqrt(evenings)
    for year in range(years):
        for evening in range(evenings):
            for i in active:
                skill[i] += rng.gauss(0.0, step)
            if rng.random() < 0.12:
                join()
            if len(active) > 40 and rng.random() < 0.08:
                active.remove(rng.choice(active))
            tables = min(rng.choice((1, 1, 2, 2, 3)), len(active) // 10)
            present = _pick(rng, active, [activity[i] for i in active], 10 * tables)
            date = f"{2019 + year}-{1 + evening // 10:02d}-{1 + evening % 10 * 2:02d}"
            for rnd in range(1, rng.randint(2, 5) + 1):
                rng.shuffle(present)
                for table in range(tables):
                    ten = present[table * 10:(table + 1) * 10]
                    roles = ROLE_DECK[:]
                    rng.shuffle(roles)
                    shot = rng.choice([k for k, r in enumerate(roles) if TEAM_OF[r] == RED])
                    strength = {RED: 0.0, BLACK: 0.0}
                    total = {RED: 0.0, BLACK: 0.0}
                    for k, (i, r) in enumerate(zip(ten, roles, strict=True)):
                        s = skill[i] - world.learn * math.exp(-played[i] / world.learn_games)
                        wr = weights[r] * (world.first_killed if k == shot else 1.0)
                        strength[TEAM_OF[r]] += wr * s
                        total[TEAM_OF[r]] += wr
                    z = world.red_edge + strength[RED] / total[RED] - strength[BLACK] / total[BLACK]
                    p_red = 1.0 / (1.0 + math.exp(-z))
                    result = RED if rng.random() < p_red else BLACK
                    gid = f"{date}-r{rnd}-t{table + 1}"
                    games.append(RatedGame("club", gid, "fiim2018", (date, 0, rnd),
                                           (0, len(games)),
                                           tuple(RatedSeat(f"P{i}", r)
                                                 for i, r in zip(ten, roles, strict=True)),
                                           result, "club", shot))
                    truth.append(p_red)
                    for i in ten:
                        played[i] += 1
    return games, truth


def _pick(rng: random.Random, items: list[int], weights: list[float],
                     n: int) -> list[int]:
    left, w = items[:], weights[:]
    chosen: list[int] = []
    for _ in range(n):
        pick = rng.choices(range(len(left)), weights=w)[0]
        chosen.append(left.pop(pick))
        w.pop(pick)
    return chosen


#: the sweep: each assumption at a low, middle and high value, one at a time around the
#: middle world, and the corners that matter most (a wide spread with fast learning, ...)
def sweep_worlds() -> list[World]:
    mid = World()
    worlds = [mid]
    for name, values in (("spread", (0.2, 0.9)), ("learn", (0.0, 2.0)),
                         ("learn_games", (15.0, 250.0)), ("heavy", (2.0,)),
                         ("red_edge", (0.3,)), ("drift", (0.0, 0.6)),
                         ("first_killed", (0.0, 0.5))):
        worlds += [replace(mid, **{name: v}) for v in values]
    worlds += [World(spread=0.9, learn=2.0, learn_games=15.0),
               World(spread=0.2, learn=0.0, drift=0.0)]
    return worlds


#: ours with the grid's half that takes a first night's victim's game at full weight only
#: (what the other half adds)
ONLY_FULL = ModelParams(grid=tuple(s for s in DEFAULT_GRID if s.first_killed == 1.0))


def sweep(seeds: Sequence[int], years: int) -> None:
    """Every world of the sweep: the log-loss of ours, of ours without the grid's half that
    learns nothing from a first night's victim's game ("fk=1"), the Elo baseline (club K
    and tournament K), the base rate and the truth, all on the same games; "shot" is how
    much ours learned a game says about its first night's victim (0 to 1)."""
    print(f"{'world':<82}{'games':>6}{'truth':>8}{'ours':>8}{'fk=1':>8}{'elo 16':>8}"
          f"{'elo 4':>8}{'base':>8}  ours-elo  shot")
    for world in sweep_worlds():
        rows: dict[str, list[float]] = defaultdict(list)
        n = 0
        for seed in seeds:
            games, truth = simulate_club(seed, world, years)
            y = outcomes_of(games)
            n += len(games)
            rows["truth"].append(log_loss(truth, y))
            ours = rate_games(games)
            rows["ours"].append(log_loss(_p(ours.predictions), y))
            rows["shot"].append(ours.first_killed)
            rows["fk1"].append(log_loss(_p(rate_games(games, ONLY_FULL).predictions), y))
            rows["elo16"].append(log_loss(_p(rate_elo(
                [replace(g, kind="tournament") for g in games]).predictions), y))
            rows["elo4"].append(log_loss(_p(rate_elo(games).predictions), y))
            rows["base"].append(log_loss(_p(rate_base_rate(games)), y))
        m = {k: statistics.fmean(v) for k, v in rows.items()}
        best_elo = min(m["elo16"], m["elo4"])
        print(f"{world.label():<82}{n // len(seeds):>6}{m['truth']:>8.4f}{m['ours']:>8.4f}"
              f"{m['fk1']:>8.4f}{m['elo16']:>8.4f}{m['elo4']:>8.4f}{m['base']:>8.4f}"
              f"  {m['ours'] - best_elo:+.4f}  {m['shot']:.2f}")


# --- openskill --------------------------------------------------------------------------


def openskill_predictions(games: Sequence[RatedGame], variant: str) -> list[float] | None:
    try:
        from openskill.models import PlackettLuce
    except ImportError:
        return None
    model = PlackettLuce()
    ratings: dict[tuple[str, str], Any] = {}
    base_score: list[float] = []
    preds: list[float] = []
    for batch in simultaneous(games):
        updates: list[tuple[list[tuple[str, str]], list[Any]]] = []
        for g in batch:
            keys = {RED: [], BLACK: []}  # type: dict[str, list[tuple[str, str]]]
            for s in g.seats:
                track = "all" if variant == "plain" else TEAM_OF[s.role]
                keys[TEAM_OF[s.role]].append((s.person, track))
            teams = [[ratings.setdefault(k, model.rating()) for k in keys[t]] for t in (RED, BLACK)]
            if variant == "calibrated":
                base = math.log((math.fsum(base_score) + 10) / (len(base_score) + 20)
                                / (1 - (math.fsum(base_score) + 10) / (len(base_score) + 20)))
                mr = statistics.fmean(r.mu for r in teams[0])
                mb = statistics.fmean(r.mu for r in teams[1])
                z = base + OPENSKILL_SCALE * (mr - mb)
                p = 1 / (1 + math.exp(-max(-30.0, min(30.0, z))))
            else:
                p = float(model.predict_win(teams)[0])
            preds.append(p)
            ranks = [0, 0] if g.result == "draw" else [0, 1] if g.result == RED else [1, 0]
            new = model.rate(teams, ranks=ranks)
            updates.append((keys[RED] + keys[BLACK], [r for team in new for r in team]))
        for keys_, rs in updates:
            for k, r in zip(keys_, rs, strict=True):
                ratings[k] = r
        base_score.extend(g.outcome for g in batch)
    return preds


# --- running ----------------------------------------------------------------------------


Rater = Callable[[Sequence[RatedGame]], list[float] | None]


def _p(preds: list[Prediction]) -> list[float]:
    return [p.p_red for p in preds]


def raters(openskill: bool, params: ModelParams) -> list[tuple[str, Rater]]:
    out: list[tuple[str, Rater]] = [
        ("ours (mafiatab rating 2)", lambda g: _p(rate_games(g, params).predictions)),
        ("ours, no experience effect", lambda g: _p(rate_games(
            g, replace(params, experience_sd=0.0)).predictions)),
        ("elo mafiaratings K16/12", lambda g: _p(rate_elo(g).predictions)),
        ("elo mafiaratings K64/48", lambda g: _p(rate_elo(
            [replace(x, kind="elite") for x in g]).predictions)),
        ("base rate", lambda g: _p(rate_base_rate(g))),
    ]
    if openskill:
        out += [("openskill PL plain", lambda g: openskill_predictions(g, "plain")),
                ("openskill PL role tracks", lambda g: openskill_predictions(g, "tracks")),
                ("openskill PL tracks+base", lambda g: openskill_predictions(g, "calibrated"))]
    return out


def report(title: str, games: Sequence[RatedGame], truth: list[float] | None,
           rs: list[tuple[str, Rater]], warm: int = 0) -> None:
    y = outcomes_of(games)
    draws = sum(1 for v in y if v == 0.5)
    print(f"\n{title}: {len(games)} games, {len({s.person for g in games for s in g.seats})} "
          f"players, red won {sum(1 for v in y if v == 1.0)}, draws {draws}")
    head = f"  {'rater':<28}{'log-loss':>10}{'brier':>9}"
    if warm:
        head += f"{'log-loss*':>11}"
    print(head + f"{'time':>8}")
    rows: list[tuple[str, list[float]]] = []
    if truth is not None:
        rows.append(("truth (the floor)", truth))
    for name, fn in rs:
        t0 = time.perf_counter()
        preds = fn(games)
        dt = time.perf_counter() - t0
        if preds is None:
            print(f"  {name:<28}  (openskill not installed)")
            continue
        rows.append((name, preds))
        line = f"  {name:<28}{log_loss(preds, y):>10.4f}{brier(preds, y):>9.4f}"
        if warm:
            line += f"{log_loss(preds[warm:], y[warm:]):>11.4f}"
        print(line + f"{dt:>7.2f}s")
    if truth is not None:
        line = f"  {'truth (the floor)':<28}{log_loss(truth, y):>10.4f}{brier(truth, y):>9.4f}"
        if warm:
            line += f"{log_loss(truth[warm:], y[warm:]):>11.4f}"
        print(line)
    if warm:
        print(f"  (* over games {warm + 1}.. only, after the first quarter of the season)")


def speed(sizes: Sequence[int]) -> None:
    """The whole history recomputed: ours and the Elo baseline on the same games (a
    federation's 3,000 players, ten tables a round, every game recording its first
    killed), seconds and ours/Elo; linear in games when the per-game time stays flat."""
    rng = random.Random(7)
    print(f"{'games':>8}{'ours s':>9}{'elo s':>8}{'ours/elo':>10}{'ours us/game':>14}")
    for n in sizes:
        games = []
        for i in range(n):
            roles = ROLE_DECK[:]
            rng.shuffle(roles)
            seats = tuple(RatedSeat(f"p{p}", r)
                          for p, r in zip(rng.sample(range(3000), 10), roles, strict=True))
            shot = rng.choice([k for k, r in enumerate(roles) if TEAM_OF[r] == RED])
            games.append(RatedGame("T", f"g{i}", "fsm", (f"{i // 100:06d}", 0, i // 10 % 10),
                                   (0, i), seats, rng.choice((RED, BLACK)), first_killed=shot))
        t0 = time.process_time()
        rate_games(games)
        ours = time.process_time() - t0
        t0 = time.process_time()
        rate_elo(games)
        elo = time.process_time() - t0
        print(f"{n:>8}{ours:>9.2f}{elo:>8.2f}{ours / elo:>10.2f}{1e6 * ours / n:>14.1f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, nargs="*", default=[2, 3])
    ap.add_argument("--months", type=int, default=12)
    ap.add_argument("--pool", type=int, default=400)
    ap.add_argument("--files", nargs="*", default=None)
    ap.add_argument("--no-openskill", action="store_true")
    ap.add_argument("--flat-roles", action="store_true",
                    help="simulate every role with the same weight")
    ap.add_argument("--sweep", action="store_true",
                    help="a simulated club in every world of the sweep (its assumptions as "
                         "settings): ours, Elo, the base rate, the truth")
    ap.add_argument("--years", type=int, default=7)
    ap.add_argument("--speed", type=int, nargs="*", metavar="GAMES", default=None,
                    help="time the whole history's recomputation (default 25,000 50,000 "
                         "100,000 games): ours beside Elo, CPU seconds")
    args = ap.parse_args()
    if args.sweep:
        sweep(args.seeds, args.years)
        return
    if args.speed is not None:
        speed(args.speed or [25_000, 50_000, 100_000])
        return
    rs = raters(not args.no_openskill, ModelParams())
    for seed in args.seeds:
        flat = dict.fromkeys(TRUE_WEIGHTS, 1.0) if args.flat_roles else None
        games, truth = simulate(seed, args.months, args.pool, flat)
        report(f"simulated season, seed {seed}, {args.months} months, pool {args.pool}"
               + (", flat roles" if flat else ""), games, truth, rs, warm=len(games) // 4)
        print(f"  ours learned: 100 games of experience add {rate_games(games).experience:+.0f} "
              "points (this simulation has no learning curve)")
    files = args.files if args.files is not None else sorted(
        str(p) for p in (ROOT.parent / "shared" / "spec" / "examples").glob("*.json")
        if not p.name.endswith(".standings.json"))
    if files:
        from mafiatab.services.ratings import games_of_files

        for f in files:  # each alone: the example files reuse the same player ids
            report(f"file {Path(f).name}", games_of_files([Path(f)]), None, rs)
    sys.stdout.flush()


if __name__ == "__main__":
    main()
