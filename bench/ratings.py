"""Log-loss and Brier of the rating's predictions: ours, mafiaratings' Elo, a base rate.

    python bench/ratings.py [--seeds 1 2 3] [--months 12] [--pool 400] [--files F...]
                            [--no-openskill] [--tune]

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
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from mafiatab.domain.protocol import BLACK, DON, RED, SHERIFF, TEAM_OF
from mafiatab.domain.ratings import (
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
        ("ours (mafiatab rating 1)", lambda g: _p(rate_games(g, params).predictions)),
        ("ours, role weights fixed 1", lambda g: _p(rate_games(
            g, replace(params, role_rate=0.0)).predictions)),
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


def tune(seed: int, months: int, pool: int) -> None:
    games, _ = simulate(seed, months, pool)
    y = outcomes_of(games)
    print(f"tuning on seed {seed} ({len(games)} games)")
    best = None
    for sd in (1.0, 1.3, 1.6, 2.0):
        for td in (0.3, 0.6, 0.9):
            for drift in (0.0, 0.05, 0.1):
                params = ModelParams(skill_sd=sd, team_sd=td, drift=drift)
                ll = log_loss(_p(rate_games(games, params).predictions), y)
                print(f"  skill_sd {sd} team_sd {td} drift {drift}: {ll:.4f}")
                if best is None or ll < best[0]:
                    best = (ll, params)
    assert best is not None
    print(f"best: {best[1]} -> {best[0]:.4f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, nargs="*", default=[2, 3])
    ap.add_argument("--months", type=int, default=12)
    ap.add_argument("--pool", type=int, default=400)
    ap.add_argument("--files", nargs="*", default=None)
    ap.add_argument("--no-openskill", action="store_true")
    ap.add_argument("--flat-roles", action="store_true",
                    help="simulate every role with the same weight")
    ap.add_argument("--tune", type=int, metavar="SEED", default=None,
                    help="grid-search our constants on this seed instead")
    args = ap.parse_args()
    if args.tune is not None:
        tune(args.tune, args.months, args.pool)
        return
    rs = raters(not args.no_openskill, ModelParams())
    for seed in args.seeds:
        flat = dict.fromkeys(TRUE_WEIGHTS, 1.0) if args.flat_roles else None
        games, truth = simulate(seed, args.months, args.pool, flat)
        report(f"simulated season, seed {seed}, {args.months} months, pool {args.pool}"
               + (", flat roles" if flat else ""), games, truth, rs, warm=len(games) // 4)
        w = rate_games(games).role_weights
        print(f"  ours learned: sheriff {w[SHERIFF]:.2f}, don {w[DON]:.2f} "
              f"(simulated: {(flat or TRUE_WEIGHTS)[SHERIFF]:.2f}, "
              f"{(flat or TRUE_WEIGHTS)[DON] / (flat or TRUE_WEIGHTS)[BLACK]:.2f})")
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
