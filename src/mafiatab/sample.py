"""Sound random tournaments, for the demo, the benchmarks and the property tests.

Every protocol made here passes the rule checks of its profile: the generator draws only
values the profile allows (scales, limits, who may receive what), so a file it makes is
what a careful judge could have written. Deterministic for a given seed.
"""

from __future__ import annotations

import random

from mafiatab.domain.points import decimal_of
from mafiatab.domain.protocol import (
    ROLE_COUNTS,
    TEAM_OF,
    VERSION_SITUATIONS,
    Game,
    Penalty,
    Player,
    ProtocolEntry,
    PuProtocol,
    Seat,
    SeatScores,
    Stage,
    Tournament,
    Version,
)
from mafiatab.rules import get_profile
from mafiatab.rules.profile import ExtraLimits, RuleProfile

_ROLE_POOL = [role for role, n in ROLE_COUNTS.items() for _ in range(n)]
_NICKS = ["Альфа", "Бета", "Гамма", "Дельта", "Эхо", "Фокстрот", "Гольф", "Отель", "Индия",
          "Джульетта", "Кило", "Лима", "Майк", "Новембер", "Оскар", "Папа", "Квебек", "Ромео",
          "Сьерра", "Танго"]


def _players(n: int) -> list[Player]:
    out = []
    for i in range(n):
        nick = _NICKS[i % len(_NICKS)] + (f" {i // len(_NICKS) + 1}" if i >= len(_NICKS) else "")
        out.append(Player(id=f"p{i + 1:03d}", nickname=nick, club=f"Клуб {i % 7 + 1}"))
    return out


def _scores(rng: random.Random, p: RuleProfile, game: Game) -> dict[int, SeatScores]:
    roles = {s.seat: s.role for s in game.seats}
    draw = game.result == "draw"
    fk = game.first_killed
    scores: dict[int, SeatScores] = {}
    removed: set[int] = set()

    def get(seat: int) -> SeatScores:
        return scores.setdefault(seat, SeatScores())

    # penalties, now and then
    if rng.random() < 0.12:
        seat = rng.randint(1, 10)
        if not draw and TEAM_OF[roles[seat]] != game.result and rng.random() < 0.3:
            get(seat).penalties.append(Penalty(kind="team_loss", note="6.8"))
        else:
            get(seat).penalties.append(
                Penalty(kind="disqualification", critical=rng.random() < 0.5))
        removed.add(seat)
    if rng.random() < 0.1:
        seat = rng.randint(1, 10)
        fixed = p.penalty_game_action_fixed.value
        points = fixed if fixed is not None else rng.choice(sorted(p.extra_negative_scale.value))
        cases = p.game_action_cases.value
        # a closed list (FIIM 8.5.1-8.5.4): a case whose role and result hold, if any
        fitting = [rule for rule, case in sorted(cases.items())
                   if roles[seat] in case.roles
                   and (case.team_lost is None or game.result not in (case.team_lost, "draw"))]
        rule: str | None = rng.choice(fitting) if fitting else None if cases else "8.5.3"
        if rule is not None:
            get(seat).penalties.append(
                Penalty(kind="game_action", points=decimal_of(points), rule=rule))

    # judge's extras within the game's limits
    budget_players = p.extra_max_players.value
    budget_sum = p.extra_max_sum.value
    pu_allowed = p.has_first_killed_protocol.value and not draw and fk not in removed
    if pu_allowed and fk is not None and rng.random() < 0.6:
        v = rng.choice(sorted(p.pu_extra_scale.value))
        get(fk).pu_extra = decimal_of(v)
        budget_players -= 1
        budget_sum -= v
    candidates = [s for s in range(1, 11) if s not in removed and s != fk]
    rng.shuffle(candidates)
    if not draw:
        for seat in candidates[: rng.randint(0, max(0, min(budget_players, 5)))]:
            won = TEAM_OF[roles[seat]] == game.result
            if p.extra_limits.value is ExtraLimits.BY_SCALE:
                allowed = sorted(p.extra_positive_scale.value)
            else:
                top = p.extra_approval_from.value - 10 if won else p.extra_max_loser.value
                allowed = [v for v in (10, 20, 25, 30, 40, 50) if v <= top]
            v = rng.choice(allowed)
            if v > budget_sum:
                break
            get(seat).extra = decimal_of(v)
            budget_sum -= v
    if p.extra_negative_scale.value and rng.random() < 0.15:
        seat = rng.randint(1, 10)
        if get(seat).extra is None and seat != fk:
            get(seat).extra = decimal_of(rng.choice(sorted(p.extra_negative_scale.value)))

    if p.has_first_killed_protocol.value:
        # will and protocol evaluations of players leaving the game (negative or zero here,
        # so the positive limits above stay as drawn)
        for seat in rng.sample(range(1, 11), 2):
            if seat == fk or rng.random() < 0.5:
                continue
            sc = get(seat)
            sc.will = decimal_of(rng.choice([-20, 0, -30]))
            if rng.random() < 0.5:
                sc.protocol = decimal_of(rng.choice([-40, 0]))
                sc.same_as_will = rng.random() < 0.5
        if fk is not None and rng.random() < 0.5:
            others = [s for s in range(1, 11) if s != fk]
            rng.shuffle(others)
            entries = []
            blacks = 0
            for seat in others[: rng.randint(1, 5)]:
                colour = "black" if rng.random() < 0.4 else "red"
                if colour == "black":
                    if blacks == p.pu_protocol_max_black_entries.value:
                        colour = "red"
                    else:
                        blacks += 1
                tag = rng.choice([None, None, None, "reliable", "near_reliable",
                                  "from_version", "checked"])
                if tag == "checked" and (colour != "red"
                                         or roles[fk] not in p.pu_protocol_checked_roles.value):
                    tag = None
                entries.append(ProtocolEntry(seat=seat, colour=colour, tag=tag))
            version = None
            if rng.random() < 0.4:
                version = Version(situation=rng.choice(VERSION_SITUATIONS), right=rng.random() < 0.6)
            get(fk).pu_protocol = PuProtocol(entries=entries, version=version,
                                             aside=rng.random() < 0.15)
    return scores


def sample_game(rng: random.Random, p: RuleProfile, gid: str, stage: str, rnd: int,
                table: int, players: list[str]) -> Game:
    """One sound game for the ten `players` in seat order."""
    roles = _ROLE_POOL[:]
    rng.shuffle(roles)
    seats = [Seat(seat=i + 1, player=pid, role=roles[i]) for i, pid in enumerate(players)]
    x = rng.random()
    result = "red" if x < 0.5 else "black" if x < 0.92 else "draw"
    fk = rng.randint(1, 10) if rng.random() < 0.9 else None
    limit = p.no_best_move_day1_leavers.value
    day1 = rng.choice([0, 1, 1, 1, 2]) if limit is not None else 0
    best_move: list[int] = []
    if fk is not None and (limit is None or day1 < limit) and rng.random() < 0.9:
        best_move = rng.sample([s for s in range(1, 11) if s != fk], rng.randint(1, 3))
    broken = bool(p.has_broken_table.value and fk is not None and day1 == 1
                  and rng.random() < 0.03)
    game = Game(id=gid, stage=stage, round=rnd, table=table, seats=seats, result=result,
                first_killed=fk, best_move=best_move, day1_vote_left=day1, broken_table=broken)
    game.scores = _scores(rng, p, game)
    return game


def sample_tournament(rules: str = "fsm", players: int = 20, rounds: int = 10,
                      seed: int = 1, final_round: bool = False, name: str | None = None
                      ) -> Tournament:
    """A sound tournament: `rounds` qualification rounds (everyone plays once a round when
    the number of players is a multiple of 10), and optionally a final of the top ten by
    player number."""
    rng = random.Random(seed)
    p = get_profile(rules)
    people = _players(players)
    ids = [pl.id for pl in people]
    stages = [Stage(id="qual", name="Отбор", kind="qualification")]
    games: list[Game] = []
    tables = max(1, players // 10)
    for rnd in range(1, rounds + 1):
        order = ids[:]
        rng.shuffle(order)
        for t in range(tables):
            ten = order[t * 10:(t + 1) * 10]
            if len(ten) < 10:
                break
            games.append(sample_game(rng, p, f"q{rnd}-t{t + 1}", "qual", rnd, t + 1, ten))
    if final_round and players >= 10:
        stages.append(Stage(id="final", name="Финал", kind="final"))
        finalists = ids[:10]
        for rnd in range(1, 4):
            order = finalists[:]
            rng.shuffle(order)
            games.append(sample_game(rng, p, f"f{rnd}", "final", rnd, 1, order))
    return Tournament(name=name or f"Sample {rules} {players}x{rounds}", rules=rules,
                      players=people, stages=stages, games=games)
