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

import numpy as np

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
    #: the index in `seats` of the player killed in the first night (None: nobody, or
    #: not recorded); known only after the game, so it changes no prediction, only what
    #: the game teaches about him (`Setting.first_killed`)
    first_killed: int | None = None

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
        by_seat = sorted(g.seats, key=lambda s: s.seat)
        seats = tuple(
            RatedSeat(person_of.get(s.player, s.player) if person_of else s.player, s.role)
            for s in by_seat)
        shot = next((i for i, s in enumerate(by_seat) if s.seat == g.first_killed), None)
        out.append(RatedGame(t.name, g.id, t.rules, (date, stage_index, g.round),
                             (file_index, gi), seats, g.result, kind, shot))
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
    #: ours: each role's weight in its team's mean (a civilian's and a mafia's: 1)
    role_weights: dict[str, float] = field(default_factory=dict)
    #: ours: what 100 rated games of experience add to a player's strength, in rating
    #: points, as the games have taught it (0 for the baseline)
    experience: float = 0.0
    #: ours: how much a game teaches about the player shot in its first night, as the
    #: games have weighed the grid (1: as much as about anyone, 0: nothing; 1/2 when no
    #: game has recorded one, the grid's two halves being equally good)
    first_killed: float = 0.5


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
class Setting:
    """One point of the grid the rating averages over (logit units).

    `skill_sd`, `team_sd`: the prior standard deviation of a new player's general skill
    and of his red/black parts; `drift`: added, as variance, to a belief after every game
    it plays (skills change); `tau`: the experience curve's scale in games (see `Model`).
    """

    skill_sd: float
    team_sd: float
    drift: float
    tau: float
    #: the experience curve: "log" keeps rising, log(1 + n / tau); "exp" levels off,
    #: -exp(-n / tau) (most of it learned within a few tau)
    curve: str = "log"
    #: how much a game teaches about the player killed in its first night, from 1 (as
    #: much as about anyone: his team's result is his) to 0 (nothing: he left before he
    #: could change it); his prediction is made as for everybody (nobody knows before the
    #: game who will be shot)
    first_killed: float = 1.0


#: The grid: how widely skill is spread (narrow to wide) times how fast players learn
#: (within tens of games, or over hundreds) times what the first night's victim's game
#: says about him (all of it, or nothing). The data weighs the twelve online: on games
#: that record nobody shot first the two halves stay equal.
DEFAULT_GRID: tuple[Setting, ...] = tuple(
    Setting(sd, sd / 2, 0.02, tau, first_killed=fk)
    for fk in (1.0, 0.0) for sd in (0.25, 0.5, 1.0) for tau in (10.0, 80.0))


@dataclass(frozen=True, slots=True)
class ModelParams:
    """The model's fixed choices; the constants it learns are in `Model`'s state."""

    #: the settings averaged over (Bayesian model averaging by running likelihood)
    grid: tuple[Setting, ...] = DEFAULT_GRID
    #: the prior standard deviation of the experience effect's size (per unit of
    #: log(1 + games / tau)); 0 switches the experience effect off
    experience_sd: float = 0.5
    #: a role's weight in its team's mean strength (every role 1: on real games the
    #: sheriff's and the don's learned weights drifted to noise)
    weights: Mapping[str, float] = field(
        default_factory=lambda: {RED: 1.0, SHERIFF: 1.0, BLACK: 1.0, DON: 1.0})
    #: pseudo-games at one half behind each rule set's base rate
    base_prior_games: float = 20.0
    #: the prior standard deviation of the calibration scale (which starts at 1) and how
    #: far it may wander per game (0 and 0: the averaged prediction is published as it is)
    scale_sd: float = 0.5
    scale_drift: float = 0.001


class _Scale:
    """How far the published chance stands from the base rate: `s` times the averaged
    settings' distance, `s` learned online (one Kalman step of a logistic regression per
    game) starting at 1. Below 1 it pulls over-confident chances back toward the base
    rate; the players' beliefs never see it."""

    def __init__(self, sd: float, drift: float) -> None:
        self.mu = 1.0
        self.var = sd * sd
        self.drift2 = drift * drift

    def predict(self, base: float, spread: float) -> float:
        return min(max(_sigmoid(base + self.mu * spread), 1e-15), 1.0 - 1e-15)

    def learn(self, steps: Sequence[tuple[float, float, float]]) -> None:
        """One batch: each game's step from the scale before the batch, added up."""
        if not steps or self.var == 0.0:
            return
        dmu, dvar = [], []
        for base, spread, y in steps:
            p = _sigmoid(base + self.mu * spread)
            h = p * (1.0 - p)
            k = 1.0 / (1.0 + h * spread * spread * self.var)
            dmu.append(self.var * spread * (y - p) * k)
            dvar.append(-self.var * self.var * spread * spread * h * k)
        var = self.var
        self.mu = math.fsum([self.mu, *dmu])
        self.var = max(math.fsum([var, *dvar]), var * 0.01) + self.drift2 * len(steps)


#: variances never fall below this (keeps every update finite)
MIN_VAR = 1e-9


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


class _Table:
    """Per-person arrays of every grid setting's beliefs, grown as people appear.

    A person's red and black parts are rows `2 i` and `2 i + 1` of `c_mu`/`c_var`."""

    def __init__(self, grid: Sequence[Setting]) -> None:
        k = len(grid)
        self.skill_var0 = np.array([s.skill_sd ** 2 for s in grid])
        self.team_var0 = np.array([s.team_sd ** 2 for s in grid])
        self.drift2 = np.array([s.drift ** 2 for s in grid])
        self.tau = np.array([s.tau for s in grid])
        self.levels = np.array([s.curve == "exp" for s in grid])
        self.first_killed = np.array([s.first_killed for s in grid])
        self.index: dict[str, int] = {}
        cap = 64
        self.g_mu = np.zeros((cap, k))
        self.g_var = np.zeros((cap, k))
        self.c_mu = np.zeros((2 * cap, k))
        self.c_var = np.zeros((2 * cap, k))
        self.games = np.zeros(cap, dtype=np.int64)
        self.wins = np.zeros(cap, dtype=np.int64)
        self.psi = np.zeros((0, k))

    def of(self, person: str) -> int:
        i = self.index.get(person)
        if i is None:
            i = len(self.index)
            if i == len(self.games):
                self._grow()
            self.g_var[i] = self.skill_var0
            self.c_var[2 * i:2 * i + 2] = self.team_var0
            self.index[person] = i
        return i

    def _grow(self) -> None:
        cap = 2 * len(self.games)
        for name, rows in (("g_mu", cap), ("g_var", cap), ("c_mu", 2 * cap),
                           ("c_var", 2 * cap), ("games", cap), ("wins", cap)):
            old = getattr(self, name)
            new = np.zeros((rows, *old.shape[1:]), dtype=old.dtype)
            new[:len(old)] = old
            setattr(self, name, new)

    def curve(self, games: np.ndarray) -> np.ndarray:
        """The experience curve of each setting at these numbers of games played (one
        more axis, the settings'), from a table grown as players play more."""
        top = int(games.max(initial=0))
        if top >= len(self.psi):
            n = np.arange(max(2 * top, 256))[:, None] / self.tau[None, :]
            self.psi = np.where(self.levels, -np.exp(-n), np.log1p(n))
        return np.asarray(self.psi[games])


@dataclass(slots=True)
class _Pass:
    """One batch's games of one size seen from the state before them: the seats' rows
    (games x seats), their parts' rows, x, and each setting's prediction and terms."""

    rows: np.ndarray
    parts: np.ndarray
    x: np.ndarray
    base: np.ndarray  # each game's base-rate logit
    p: np.ndarray  # games x settings
    v: np.ndarray
    xb: np.ndarray
    g_var: np.ndarray  # games x seats x settings
    c_var: np.ndarray


class Model:
    """Our rating's state; `predict` and `rate_batch` are its two steps.

    The model (docs/ratings.md has it with its reasons): a player's strength in a game is
    `g + c_team + beta * curve(n)`, his general skill, his part for the team he plays, and
    what `n` rated games of experience give (`beta` learned from the games, one for
    everybody). Every setting of the grid keeps its own beliefs; the prediction is their
    average weighted by how well each predicted the games so far, its distance from the
    base rate scaled by a factor learned from the results.
    """

    def __init__(self, params: ModelParams = ModelParams()) -> None:
        self.params = params
        grid = params.grid
        self.table = _Table(grid)
        self.base = _BaseRates(params.base_prior_games)
        k = len(grid)
        self.beta_mu = np.zeros(k)
        self.beta_var = np.full(k, params.experience_sd ** 2)
        #: each setting's log-likelihood of the results so far (its BMA weight's logarithm)
        self.loglik = np.zeros(k)
        self.scale = _Scale(params.scale_sd, params.scale_drift)
        self.log_w = {r: math.log(params.weights[r]) for r in ROLES}
        self._shapes: dict[tuple[str, ...], tuple[list[int], list[float]]] = {}

    def copy(self) -> Model:
        """An independent copy (for trying a result out)."""
        return copy.deepcopy(self)

    def weight(self, role: str) -> float:
        """A role's weight in its team's mean."""
        return math.exp(self.log_w[role])

    def setting_weights(self) -> np.ndarray:
        """The grid's weights now (they sum to 1)."""
        w = np.exp(self.loglik - self.loglik.max())
        return np.asarray(w / w.sum())

    def _shape(self, g: RatedGame) -> tuple[list[int], list[float]]:
        """The seats' team (0 red, 1 black) and x: +w / W_red for a red player, -w /
        W_black for a black one (the same for every game with these roles)."""
        key = tuple(s.role for s in g.seats)
        got = self._shapes.get(key)
        if got is None:
            w = [self.weight(r) for r in key]
            team = [0 if TEAM_OF[r] == RED else 1 for r in key]
            total = [math.fsum(wi for wi, tm in zip(w, team, strict=True) if tm == side)
                     for side in (0, 1)]
            x = [(1.0 if tm == 0 else -1.0) * wi / total[tm]
                 for wi, tm in zip(w, team, strict=True)]
            got = (team, x)
            self._shapes[key] = got
        return got

    def _pass(self, games: Sequence[RatedGame]) -> _Pass:
        """Every setting's prediction of these games (all with the same number of seats)
        from the state as it is."""
        t = self.table
        rows = np.array([[t.of(s.person) for s in g.seats] for g in games], dtype=np.int64)
        shapes = [self._shape(g) for g in games]
        team = np.array([tm for tm, _ in shapes], dtype=np.int64)
        x = np.array([xs for _, xs in shapes])
        parts = 2 * rows + team
        psi = t.curve(t.games[rows])  # games x seats x settings
        g_var, c_var = t.g_var[rows], t.c_var[parts]
        m = t.g_mu[rows] + t.c_mu[parts] + self.beta_mu * psi
        base = np.array([self.base.logit(g.rules) for g in games])
        xb = np.einsum("gs,gsk->gk", x, psi)
        z = base[:, None] + np.einsum("gs,gsk->gk", x, m)
        v = np.einsum("gs,gsk->gk", x * x, g_var + c_var) + xb * xb * self.beta_var
        zz = np.minimum(np.maximum(z / np.sqrt(1.0 + math.pi * v / 8.0), -MAX_LOGIT), MAX_LOGIT)
        return _Pass(rows, parts, x, base, 1.0 / (1.0 + np.exp(-zz)), v, xb, g_var, c_var)

    def _published(self, one: _Pass, w: np.ndarray) -> list[tuple[float, float]]:
        """Each game's base-rate logit and the averaged settings' distance from it."""
        avg = np.sum(one.p * w, axis=1) / np.sum(w)
        avg = np.minimum(np.maximum(avg, 1e-15), 1.0 - 1e-15)
        return [(b, _logit(a) - b) for b, a in zip(one.base.tolist(), avg.tolist(), strict=True)]

    def predict(self, g: RatedGame) -> float:
        base, spread = self._published(self._pass([g]), self.setting_weights())[0]
        return self.scale.predict(base, spread)

    def rate_batch(self, batch: Sequence[RatedGame]) -> list[float]:
        """Predict every game of a simultaneous batch, then rate them all; the p_red list
        (in the batch's order). Every update is computed from the state before the batch
        and they are added up in the order of the games' names, so the order the batch
        comes in changes nothing."""
        t = self.table
        w = self.setting_weights()
        order = sorted(range(len(batch)), key=lambda i: (batch[i].tournament, batch[i].game))
        sizes: dict[int, list[int]] = {}
        for i in order:
            sizes.setdefault(len(batch[i].seats), []).append(i)
        preds: dict[int, float] = {}
        passes: list[tuple[list[int], _Pass]] = []
        scale_steps: list[tuple[float, float, float]] = []
        for idx in sizes.values():
            one = self._pass([batch[i] for i in idx])
            passes.append((idx, one))
            for i, (base, spread) in zip(idx, self._published(one, w), strict=True):
                preds[i] = self.scale.predict(base, spread)
                scale_steps.append((base, spread, batch[i].outcome))
        beta_var = self.beta_var.copy()
        for idx, one in passes:
            y = np.array([batch[i].outcome for i in idx])[:, None]
            p = one.p
            q = np.minimum(np.maximum(p, EPSILON), 1.0 - EPSILON)
            self.loglik += np.sum(y * np.log(q) + (1.0 - y) * np.log(1.0 - q), axis=0)
            h = p * (1.0 - p)
            k = 1.0 / (1.0 + h * one.v)
            gain = ((y - p) * k)[:, None, :]
            shrink = (h * k)[:, None, :]
            x = one.x[:, :, None]
            # what the game teaches each seat: all of it, but for the first night's victim
            # as much as the setting says (his update is tempered by that factor)
            teach = np.ones((len(idx), one.x.shape[1], len(w)))
            for gi, i in enumerate(idx):
                if batch[i].first_killed is not None:
                    teach[gi, batch[i].first_killed] = t.first_killed
            rows, parts = one.rows.ravel(), one.parts.ravel()
            kk = len(w)
            for mu, var, at, cur in ((t.g_mu, t.g_var, rows, one.g_var),
                                     (t.c_mu, t.c_var, parts, one.c_var)):
                np.add.at(mu, at, (cur * x * gain * teach).reshape(-1, kk))
                np.add.at(var, at, (-cur * cur * x * x * shrink * teach).reshape(-1, kk))
            self.beta_mu += np.sum(beta_var * one.xb * gain[:, 0, :], axis=0)
            self.beta_var -= np.sum(beta_var ** 2 * one.xb ** 2 * shrink[:, 0, :], axis=0)
            np.add.at(t.games, rows, 1)
            np.add.at(t.wins, rows, [_won(s, batch[i].result)
                                     for i in idx for s in batch[i].seats])
        for _, one in passes:
            people = np.unique(one.rows)
            t.g_var[people] = np.minimum(np.maximum(t.g_var[people] + t.drift2, MIN_VAR),
                                         t.skill_var0)
            parts = np.unique(one.parts)
            t.c_var[parts] = np.minimum(np.maximum(t.c_var[parts] + t.drift2, MIN_VAR),
                                        t.team_var0)
        self.beta_var = np.maximum(self.beta_var, beta_var * 0.01)
        self.scale.learn(scale_steps)
        self.base.add(batch)
        return [preds[i] for i in range(len(batch))]

    def experience_gain(self, games: int = 100) -> float:
        """What `games` rated games of experience add to a player's strength, in rating
        points (the grid's weighted mean): the experience effect the games have taught."""
        n = games / self.table.tau
        gain = self.beta_mu * np.where(self.table.levels, 1.0 - np.exp(-n), np.log1p(n))
        return float(ELO_SCALE * (self.setting_weights() @ gain))

    def first_killed_teaches(self) -> float:
        """How much a game teaches about its first night's victim (0 to 1), the grid's
        weighted mean: what the games have shown about him."""
        return float(self.setting_weights() @ self.table.first_killed)

    def shown(self, people: Sequence[str]) -> list[float]:
        """These people's shown ratings now (people not seen yet: the origin)."""
        t = self.table
        rows = [t.index.get(p, -1) for p in people]
        known = np.array([r for r in rows if r >= 0], dtype=np.int64)
        values = iter((RATING_ORIGIN + ELO_SCALE * (t.g_mu[known] @ self.setting_weights()))
                      .tolist())
        return [next(values) if r >= 0 else RATING_ORIGIN for r in rows]

    def ratings(self, people: Iterable[str] | None = None) -> list[PlayerRating]:
        """Every person's rating (the grid's weighted mean), or only these people's."""
        t = self.table
        w = self.setting_weights()
        keys = t.index if people is None else {p: t.index[p] for p in people if p in t.index}
        out = []
        for key, i in keys.items():
            g = float(t.g_mu[i] @ w)
            var = float((t.g_var[i] + (t.g_mu[i] - g) ** 2) @ w)
            red = float(t.c_mu[2 * i] @ w)
            black = float(t.c_mu[2 * i + 1] @ w)
            out.append(PlayerRating(
                key, RATING_ORIGIN + ELO_SCALE * g, RATING_ORIGIN + ELO_SCALE * (g + red),
                RATING_ORIGIN + ELO_SCALE * (g + black), ELO_SCALE * math.sqrt(var),
                int(t.games[i]), int(t.wins[i])))
        return _ranked(out)


def rate_games(games: Iterable[RatedGame], params: ModelParams = ModelParams()) -> Ratings:
    """Our rating over the games, in rating order (see the module's docstring)."""
    model = Model(params)
    preds: list[Prediction] = []
    for batch in simultaneous(ordered(games)):
        for g, p in zip(batch, model.rate_batch(batch), strict=True):
            preds.append(Prediction(g.tournament, g.game, p))
    return Ratings(model.ratings(), preds, {r: model.weight(r) for r in ROLES},
                   model.experience_gain(), model.first_killed_teaches())


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


@dataclass(frozen=True, slots=True)
class Bin:
    """One tenth of the reliability table: the games whose predicted red chance fell in
    [low, high), their mean prediction and the red team's mean score in them."""

    low: float
    high: float
    games: int
    predicted: float
    observed: float


def reliability(preds: Sequence[float], outcomes: Sequence[float], bins: int = 10) -> list[Bin]:
    """Predicted against observed red-win rate by tenth of the prediction (empty tenths
    left out): a calibrated rating's observed rate is its predicted one."""
    groups: list[list[tuple[float, float]]] = [[] for _ in range(bins)]
    for p, y in zip(preds, outcomes, strict=True):
        groups[min(int(p * bins), bins - 1)].append((p, y))
    return [Bin(i / bins, (i + 1) / bins, len(g), math.fsum(p for p, _ in g) / len(g),
                math.fsum(y for _, y in g) / len(g))
            for i, g in enumerate(groups) if g]


#: fewer games than this and a calibration slope says nothing (its error is about 1)
SLOPE_GAMES = 100


def slope_if_enough(preds: Sequence[float], outcomes: Sequence[float]) -> float | None:
    """The calibration slope, or None with fewer than `SLOPE_GAMES` games."""
    return calibration_slope(preds, outcomes) if len(preds) >= SLOPE_GAMES else None


def calibration_slope(preds: Sequence[float], outcomes: Sequence[float]) -> float:
    """The slope of a logistic regression of the results on the predictions' logits: 1
    for a calibrated rating, below 1 for an over-confident one (its chances spread wider
    than the results bear out). Newton's method on two parameters."""
    z = [_logit(min(max(p, 1e-9), 1.0 - 1e-9)) for p in preds]
    a, b = 0.0, 1.0
    for _ in range(50):
        q = [_sigmoid(a + b * zi) for zi in z]
        r = [y - qi for y, qi in zip(outcomes, q, strict=True)]
        w = [qi * (1.0 - qi) for qi in q]
        g0, g1 = math.fsum(r), math.fsum(ri * zi for ri, zi in zip(r, z, strict=True))
        h00 = math.fsum(w)
        h01 = math.fsum(wi * zi for wi, zi in zip(w, z, strict=True))
        h11 = math.fsum(wi * zi * zi for wi, zi in zip(w, z, strict=True))
        det = h00 * h11 - h01 * h01
        if det <= 1e-12:
            break
        da, db = (h11 * g0 - h01 * g1) / det, (h00 * g1 - h01 * g0) / det
        a, b = a + da, b + db
        if abs(da) + abs(db) < 1e-10:
            break
    return b


def outcomes_of(games: Iterable[RatedGame]) -> list[float]:
    """The red team's scores in rating order (aligned with a rater's predictions)."""
    return [g.outcome for g in ordered(games)]


__all__ = [
    "DEFAULT_GRID", "SLOPE_GAMES", "Bin", "Setting", "calibration_slope", "reliability",
    "slope_if_enough",
    "ELO_K", "ELO_SCALE", "GAME_KINDS", "ROLES", "Model", "ModelParams", "PlayerRating",
    "Prediction", "RatedGame", "RatedSeat", "RatingSettings", "Ratings", "brier",
    "elo_earned", "elo_k", "elo_red_chance", "log_loss", "ordered", "outcomes_of",
    "WhatIf", "WhatIfSeat", "rate_base_rate", "rate_elo", "rate_games", "rated_games",
    "simultaneous", "what_if",
]
