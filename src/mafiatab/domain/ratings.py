"""An open rating of players over many tournaments, and the baseline it is measured against.

Two raters read the same ordered list of rated games (`RatedGame`) and give, for every
game, `p_red`: the red team's chance of winning computed **before** that game is rated,
and after the last game every player's rating. `docs/ratings.md` is the reader's version
of what follows.

**Ours (`rate_games`, "mafiatab rating 1")** is an online Bayesian logistic model. Every
person has three Gaussian beliefs: a general skill `g`, and a red and a black part
(`c_red`, `c_black`) for how much better or worse than `g` they play for that team. In a
game a team's strength is the role-weighted mean of its players' `g + c_team` (a
civilian and a mafia weigh 1; the sheriff's and the don's weights are learned, by an
online gradient step on the log-loss after every game); the red team's chance is

    z = base(rules) + S_red - S_black,   p_red = sigmoid(z / sqrt(1 + pi * V / 8))

where `base` is the logit of the share of red wins so far under those rules (a 7-against-3
game is not even: the base rate matters, and it differs between rule sets), and `V` the
variance of `S_red - S_black`, which pulls a prediction about uncertain players toward
one half (the probit approximation of the logistic-normal integral). After the game every
belief takes one extended-Kalman step toward the result (red 1, black 0, a draw one half):

    mu += var * x * (y - p) / (1 + h * V),   var -= var^2 * x^2 * h / (1 + h * V),
    h = p * (1 - p),  x = +-(role weight / team's weight sum)

and then widens by `drift` (skills change over months). This is Glicko's and TrueSkill's
idea (a mean and an uncertainty, a new player moving fast) with the roles and the base
rate in the model; on the simulated seasons of `bench/ratings.py` it has a lower log-loss
than the Elo baseline and than openskill's models.

**The baseline (`rate_elo`)** is mafiaratings' Elo as `include/game_ratings.php` in
`szotin/mafiaratings` computes it: two tracks per player (red for civilians and sheriffs,
black for mafia and dons) starting at 0; `p_red = 1 / (1 + 10^((B - R) / 400))` with R and
B the means of the red players' red tracks and the black players' black tracks; a winner
earns `K_win * (1 - his team's chance)`, a loser `-K_lose * his team's chance`, added to
the track he played and to his overall rating; K by the game's kind (club 4/3, tournament
16/12, elite tournament 64/48; halved below ten players). A game nobody won (a draw) costs
both teams their losing K: that code pays by each player's "won" flag, and in a draw
nobody's is set.

Games at the same date and round are simultaneous: they are all predicted from the state
before them and their updates are summed with `math.fsum` (exactly rounded, so the sum
does not depend on their order). Pure: no I/O, the standard library only.
"""

from __future__ import annotations

import copy
import math
from collections import defaultdict
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace

from mafiatab.domain.protocol import (
    BLACK,
    BLACK_ROLES,
    DON,
    DRAW,
    RED,
    ROLES,
    SHERIFF,
    STAGE_KINDS,
    TEAM_OF,
    Tournament,
)

#: The kinds of game the baseline's K depends on (mafiaratings: a club game, a
#: tournament game, an elite tournament's game).
GAME_KINDS = ("club", "tournament", "elite")
#: Rating points per logit: a difference of 400 is odds of ten to one, as in Elo.
ELO_SCALE = 400.0 / math.log(10.0)
#: Where the shown ratings of ours start.
RATING_ORIGIN = 1500.0
#: A logit beyond this is treated as this (keeps p_red strictly inside (0, 1)).
MAX_LOGIT = 30.0


# --- input ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RatedSeat:
    person: str
    role: str  # one of protocol.ROLES


@dataclass(frozen=True, slots=True)
class RatedGame:
    """One game as the raters see it.

    `when` orders the games: (date, stage index, round); games with equal `when` are
    simultaneous. `order` (file index, game index) only breaks ties for output.
    """

    tournament: str
    game: str
    rules: str
    when: tuple[str, int, int]
    order: tuple[int, int]
    seats: tuple[RatedSeat, ...]
    result: str  # "red", "black" or "draw"
    kind: str = "tournament"

    @property
    def outcome(self) -> float:
        """The red team's score: 1 a red win, 0 a black win, one half a draw."""
        return 1.0 if self.result == RED else 0.0 if self.result == BLACK else 0.5


@dataclass(frozen=True, slots=True)
class RatingSettings:
    """Which games count: the federation's setting.

    A game counts when its stage's kind is in `stage_kinds` and its tournament's name is
    not in `unrated`. `elite` names the tournaments whose games the baseline rates with
    the elite K.
    """

    stage_kinds: frozenset[str] = frozenset(STAGE_KINDS)
    unrated: frozenset[str] = frozenset()
    elite: frozenset[str] = frozenset()


def rated_games(t: Tournament, file_index: int, settings: RatingSettings = RatingSettings(),
                person_of: Mapping[str, str] | None = None) -> list[RatedGame]:
    """The games of one tournament that count, as `RatedGame`s.

    A person is the player's id (`person_of` maps it to a wider identity, e.g. the
    database's). A game with no date takes the date of the last dated game before it in
    the file ("" when there is none). Rounds restart in each stage (format 1), so a game's
    place in time is (date, the stage's position, round).
    """
    if t.name in settings.unrated:
        return []
    stages = {s.id: (i, s.kind) for i, s in enumerate(t.stages)}
    kind = "elite" if t.name in settings.elite else "tournament"
    out: list[RatedGame] = []
    date = ""
    for gi, g in enumerate(t.games):
        date = g.date or date
        stage_index, stage_kind = stages.get(g.stage, (len(stages), ""))
        if stage_kind not in settings.stage_kinds:
            continue
        seats = tuple(
            RatedSeat(person_of.get(s.player, s.player) if person_of else s.player, s.role)
            for s in sorted(g.seats, key=lambda s: s.seat))
        out.append(RatedGame(t.name, g.id, t.rules, (date, stage_index, g.round),
                             (file_index, gi), seats, g.result, kind))
    return out


def ordered(games: Iterable[RatedGame]) -> list[RatedGame]:
    """Games in rating order: date, then stage and round, then file order."""
    return sorted(games, key=lambda g: (g.when, g.order))


def simultaneous(games: Sequence[RatedGame]) -> Iterator[list[RatedGame]]:
    """Ordered games grouped by equal `when`."""
    batch: list[RatedGame] = []
    for g in games:
        if batch and batch[0].when != g.when:
            yield batch
            batch = []
        batch.append(g)
    if batch:
        yield batch


# --- output ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Prediction:
    tournament: str
    game: str
    p_red: float


@dataclass(slots=True)
class PlayerRating:
    person: str
    rating: float
    red: float
    black: float
    deviation: float
    games: int
    wins: int


@dataclass(slots=True)
class Ratings:
    players: list[PlayerRating]  # best first
    predictions: list[Prediction]  # in rating order
    #: ours: each role's weight in its team's mean at the end (a civilian's and a mafia's: 1)
    role_weights: dict[str, float] = field(default_factory=dict)


def _sigmoid(z: float) -> float:
    z = max(-MAX_LOGIT, min(MAX_LOGIT, z))
    return 1.0 / (1.0 + math.exp(-z))


def _logit(p: float) -> float:
    return math.log(p / (1.0 - p))


def _won(seat: RatedSeat, result: str) -> bool:
    return result != DRAW and TEAM_OF[seat.role] == result


def _ranked(players: list[PlayerRating]) -> list[PlayerRating]:
    return sorted(players, key=lambda r: (-r.rating, -r.games, r.person))


# --- ours -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ModelParams:
    """The model's constants (logit units). `bench/ratings.py` measures them."""

    #: prior standard deviation of the general skill and of the red/black parts
    skill_sd: float = 1.6
    team_sd: float = 0.6
    #: added to a belief's standard deviation, as variance, after every game it plays
    drift: float = 0.05
    #: a role's weight in its team's mean strength
    weights: Mapping[str, float] = field(
        default_factory=lambda: {RED: 1.0, SHERIFF: 1.0, BLACK: 1.0, DON: 1.0})
    #: pseudo-games at one half behind each rule set's base rate
    base_prior_games: float = 20.0
    #: the step of the online gradient of the sheriff's and the don's log-weights (0 keeps
    #: them at `weights`)
    role_rate: float = 0.1


#: the learned log-weights stay within -2 .. 2 (weights e^-2 .. e^2)
ROLE_TERM_LIMIT = 2.0


def _clip(value: float, limit: float) -> float:
    return max(-limit, min(limit, value))


@dataclass(slots=True)
class _Belief:
    mu: float
    var: float


@dataclass(slots=True)
class _Person:
    general: _Belief
    team: dict[str, _Belief]
    games: int = 0
    wins: int = 0


class _BaseRates:
    """Each rule set's share of red wins so far, behind `prior` pseudo-games at 1/2.

    Scores are halves, so their running sums are exact: the order games are added in
    changes nothing.
    """

    def __init__(self, prior: float) -> None:
        self.prior = prior
        self.score: dict[str, float] = defaultdict(float)
        self.games: dict[str, int] = defaultdict(int)

    def logit(self, rules: str) -> float:
        return _logit((self.score[rules] + self.prior / 2) / (self.games[rules] + self.prior))

    def add(self, batch: Sequence[RatedGame]) -> None:
        for g in batch:
            self.score[g.rules] += g.outcome
            self.games[g.rules] += 1


class Model:
    """Our rating's state; `predict` and `rate_batch` are its two steps."""

    def __init__(self, params: ModelParams = ModelParams()) -> None:
        self.params = params
        self.people: dict[str, _Person] = {}
        self.base = _BaseRates(params.base_prior_games)
        self.log_w = {r: math.log(params.weights[r]) for r in ROLES}

    def _person(self, key: str) -> _Person:
        p = self.people.get(key)
        if p is None:
            sd, td = self.params.skill_sd, self.params.team_sd
            p = _Person(_Belief(0.0, sd * sd),
                        {RED: _Belief(0.0, td * td), BLACK: _Belief(0.0, td * td)})
            self.people[key] = p
        return p

    def weight(self, role: str) -> float:
        """A role's weight in its team's mean (learned for the sheriff and the don)."""
        return math.exp(self.log_w[role])

    def _terms(self, g: RatedGame) -> tuple[float, float, list[tuple[_Person, str, float]],
                                            dict[str, float]]:
        """z, V, each seat's (person, team, x), and z's derivative by each learned term."""
        w = {r: self.weight(r) for r in ROLES}
        total = {RED: 0.0, BLACK: 0.0}
        for s in g.seats:
            total[TEAM_OF[s.role]] += w[s.role]
        z_parts = [self.base.logit(g.rules)]
        v_parts: list[float] = []
        seats: list[tuple[_Person, str, float]] = []
        strength: dict[str, list[float]] = {RED: [], BLACK: []}
        skill: list[tuple[str, float]] = []
        for s in g.seats:
            team = TEAM_OF[s.role]
            sign = 1.0 if team == RED else -1.0
            x = sign * w[s.role] / total[team]
            p = self._person(s.person)
            c = p.team[team]
            m = p.general.mu + c.mu
            z_parts.append(x * m)
            strength[team].append(w[s.role] * m / total[team])
            skill.append((s.role, m))
            v_parts.append(x * x * (p.general.var + c.var))
            seats.append((p, team, x))
        mean = {t: math.fsum(v) for t, v in strength.items()}
        # d(weighted mean)/d(log weight of role r) = w_r (m - mean) / W, for each r-seat
        grad: dict[str, list[float]] = {SHERIFF: [], DON: []}
        for role, m in skill:
            if role in grad:
                team = TEAM_OF[role]
                sign = 1.0 if team == RED else -1.0
                grad[role].append(sign * w[role] * (m - mean[team]) / total[team])
        dz = {r: math.fsum(v) for r, v in grad.items()}
        return math.fsum(z_parts), math.fsum(v_parts), seats, dz

    def predict(self, g: RatedGame) -> float:
        z, v, _, _ = self._terms(g)
        return _sigmoid(z / math.sqrt(1.0 + math.pi * v / 8.0))

    def rate_batch(self, batch: Sequence[RatedGame]) -> list[float]:
        """Predict every game of a simultaneous batch, then rate them all; the p_red list."""
        preds: list[float] = []
        deltas: dict[int, tuple[_Belief, list[float], list[float]]] = {}

        def add(b: _Belief, dmu: float, dvar: float) -> None:
            entry = deltas.setdefault(id(b), (b, [], []))
            entry[1].append(dmu)
            entry[2].append(dvar)

        played: list[tuple[_Person, str]] = []
        role_steps: dict[str, list[float]] = defaultdict(list)
        for g in batch:
            z, v, seats, dz = self._terms(g)
            p = _sigmoid(z / math.sqrt(1.0 + math.pi * v / 8.0))
            preds.append(p)
            h = p * (1.0 - p)
            k = 1.0 / (1.0 + h * v)
            err = g.outcome - p
            for term, d in dz.items():
                role_steps[term].append(err * d)
            for person, team, x in seats:
                for b in (person.general, person.team[team]):
                    add(b, b.var * x * err * k, -b.var * b.var * x * x * h * k)
                played.append((person, team))
            for s, (person, _, _) in zip(g.seats, seats, strict=True):
                person.games += 1
                person.wins += _won(s, g.result)
        for b, dmu, dvar in deltas.values():
            b.mu = math.fsum([b.mu, *dmu])
            b.var = max(math.fsum([b.var, *dvar]), 1e-6)
        drift = self.params.drift ** 2
        seen: set[int] = set()
        for person, team in played:
            for b, cap in ((person.general, self.params.skill_sd),
                           (person.team[team], self.params.team_sd)):
                if id(b) not in seen:
                    seen.add(id(b))
                    b.var = min(b.var + drift, cap * cap)
        rate = self.params.role_rate
        for role, steps in role_steps.items():
            self.log_w[role] = _clip(self.log_w[role] + rate * math.fsum(steps), ROLE_TERM_LIMIT)
        self.base.add(batch)
        return preds

    def ratings(self) -> list[PlayerRating]:
        out = []
        for key, p in self.people.items():
            g = p.general
            out.append(PlayerRating(
                key, RATING_ORIGIN + ELO_SCALE * g.mu,
                RATING_ORIGIN + ELO_SCALE * (g.mu + p.team[RED].mu),
                RATING_ORIGIN + ELO_SCALE * (g.mu + p.team[BLACK].mu),
                ELO_SCALE * math.sqrt(g.var), p.games, p.wins))
        return _ranked(out)


def rate_games(games: Iterable[RatedGame], params: ModelParams = ModelParams()) -> Ratings:
    """Our rating over the games, in rating order (see the module's docstring)."""
    model = Model(params)
    preds: list[Prediction] = []
    for batch in simultaneous(ordered(games)):
        for g, p in zip(batch, model.rate_batch(batch), strict=True):
            preds.append(Prediction(g.tournament, g.game, p))
    return Ratings(model.ratings(), preds, {r: model.weight(r) for r in ROLES})


@dataclass(frozen=True, slots=True)
class WhatIfSeat:
    person: str
    role: str
    before: float
    #: the rating after the game for each result: "red", "black", "draw"
    after: Mapping[str, float]


@dataclass(frozen=True, slots=True)
class WhatIf:
    """One game's prediction and what each result would do to its players' ratings."""

    tournament: str
    game: str
    p_red: float
    seats: tuple[WhatIfSeat, ...]


def what_if(games: Iterable[RatedGame], tournament: str, game: str,
            params: ModelParams = ModelParams()) -> WhatIf | None:
    """The "what if" of one game: rated with everything before it (and the other games
    simultaneous with it as they ended), for each of the three results. None when the game
    is not among `games`."""
    model = Model(params)
    for batch in simultaneous(ordered(games)):
        target = next((g for g in batch if g.tournament == tournament and g.game == game), None)
        if target is None:
            model.rate_batch(batch)
            continue
        p_red = model.predict(target)
        before = {r.person: r.rating for r in model.ratings()}
        after: dict[str, dict[str, float]] = defaultdict(dict)
        for result in (RED, BLACK, DRAW):
            trial = copy.deepcopy(model)
            trial.rate_batch([replace(g, result=result) if g is target else g for g in batch])
            ratings = {r.person: r.rating for r in trial.ratings()}
            for s in target.seats:
                after[s.person][result] = ratings[s.person]
        start = RATING_ORIGIN
        return WhatIf(tournament, game, p_red, tuple(
            WhatIfSeat(s.person, s.role, before.get(s.person, start), after[s.person])
            for s in target.seats))
    return None


# --- the baseline: mafiaratings' Elo ----------------------------------------------------

#: (K for a win, K for a loss) by game kind, for a game of ten players
#: (include/game_ratings.php); below ten players both are halved.
ELO_K: Mapping[str, tuple[float, float]] = {
    "club": (4.0, 3.0),
    "tournament": (16.0, 12.0),
    "elite": (64.0, 48.0),
}


def elo_k(kind: str, players: int) -> tuple[float, float]:
    win, lose = ELO_K[kind]
    return (win, lose) if players >= 10 else (win / 2, lose / 2)


def elo_red_chance(red_tracks: Sequence[float], black_tracks: Sequence[float]) -> float:
    """The baseline's civ_odds: the red players' mean red track against the black
    players' mean black track on the 400 scale."""
    if not red_tracks or not black_tracks:
        return 0.0
    diff = math.fsum(black_tracks) / len(black_tracks) - math.fsum(red_tracks) / len(red_tracks)
    # PHP's pow() gives INF past a double's range, and the chance 0; so does this
    return 1.0 / (1.0 + math.pow(10.0, min(diff / 400.0, 300.0)))


def elo_earned(role: str, won: bool, red_chance: float, k: tuple[float, float]) -> float:
    """What one player earns: a winner K_win times his team's chance of losing, a loser
    minus K_lose times his team's chance of winning."""
    k_win, k_lose = k
    chance = red_chance if TEAM_OF[role] == RED else 1.0 - red_chance
    return k_win * (1.0 - chance) if won else -k_lose * chance


@dataclass(slots=True)
class _EloPerson:
    overall: float = 0.0
    red: float = 0.0
    black: float = 0.0
    games: int = 0
    wins: int = 0


def _track(p: _EloPerson, role: str) -> float:
    return p.black if role in BLACK_ROLES else p.red


def rate_elo(games: Iterable[RatedGame]) -> Ratings:
    """mafiaratings' Elo over the games (see the module's docstring)."""
    people: dict[str, _EloPerson] = {}
    preds: list[Prediction] = []
    for batch in simultaneous(ordered(games)):
        earned: dict[tuple[str, str], list[float]] = defaultdict(list)
        for g in batch:
            ps = [people.setdefault(s.person, _EloPerson()) for s in g.seats]
            red = [_track(p, s.role) for p, s in zip(ps, g.seats, strict=True)
                   if TEAM_OF[s.role] == RED]
            black = [_track(p, s.role) for p, s in zip(ps, g.seats, strict=True)
                     if TEAM_OF[s.role] == BLACK]
            chance = elo_red_chance(red, black)
            preds.append(Prediction(g.tournament, g.game, chance))
            k = elo_k(g.kind, len(g.seats))
            for p, s in zip(ps, g.seats, strict=True):
                won = _won(s, g.result)
                earned[(s.person, TEAM_OF[s.role])].append(elo_earned(s.role, won, chance, k))
                p.games += 1
                p.wins += won
        overall: dict[str, list[float]] = defaultdict(list)
        for (person, _), values in earned.items():
            overall[person].extend(values)
        for person, values in overall.items():
            people[person].overall = math.fsum([people[person].overall, *values])
        for (person, team), values in earned.items():
            p = people[person]
            if team == RED:
                p.red = math.fsum([p.red, *values])
            else:
                p.black = math.fsum([p.black, *values])
    players = [PlayerRating(k, p.overall, p.red, p.black, 0.0, p.games, p.wins)
               for k, p in people.items()]
    return Ratings(_ranked(players), preds)


# --- a third predictor and the measures -------------------------------------------------


def rate_base_rate(games: Iterable[RatedGame], prior_games: float = 20.0) -> list[Prediction]:
    """The constant predictor: each rule set's share of red wins before the game."""
    base = _BaseRates(prior_games)
    preds: list[Prediction] = []
    for batch in simultaneous(ordered(games)):
        preds.extend(Prediction(g.tournament, g.game, _sigmoid(base.logit(g.rules)))
                     for g in batch)
        base.add(batch)
    return preds


#: Probabilities are kept this far from 0 and 1 in the log-loss (the baseline's can reach
#: them after long streaks).
EPSILON = 1e-12


def log_loss(preds: Sequence[float], outcomes: Sequence[float]) -> float:
    """Mean cross-entropy in nats; a draw (1/2) scores -(log p + log(1 - p)) / 2."""
    total = []
    for p, y in zip(preds, outcomes, strict=True):
        p = min(max(p, EPSILON), 1.0 - EPSILON)
        total.append(-(y * math.log(p) + (1.0 - y) * math.log(1.0 - p)))
    return math.fsum(total) / len(total) if total else 0.0


def brier(preds: Sequence[float], outcomes: Sequence[float]) -> float:
    """Mean squared error of p_red against the red team's score."""
    sq = [(p - y) ** 2 for p, y in zip(preds, outcomes, strict=True)]
    return math.fsum(sq) / len(sq) if sq else 0.0


def outcomes_of(games: Iterable[RatedGame]) -> list[float]:
    """The red team's scores in rating order (aligned with a rater's predictions)."""
    return [g.outcome for g in ordered(games)]


__all__ = [
    "ELO_K", "ELO_SCALE", "GAME_KINDS", "ROLES", "Model", "ModelParams", "PlayerRating",
    "Prediction", "RatedGame", "RatedSeat", "RatingSettings", "Ratings", "brier",
    "elo_earned", "elo_k", "elo_red_chance", "log_loss", "ordered", "outcomes_of",
    "WhatIf", "WhatIfSeat", "rate_base_rate", "rate_elo", "rate_games", "rated_games",
    "simultaneous", "what_if",
]
