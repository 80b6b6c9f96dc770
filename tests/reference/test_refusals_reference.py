"""Which files the project refuses, against the independent reference of scoring.md section 8.

Inputs: sound sample tournaments of both rule sets with one or two random mutations each
(every mutation either keeps the file sound or breaks one rule), and hand-written files at
the rules' boundaries. The project must refuse exactly when the reference does, and list
each of the reference's reasons at the same game (and seat, where the reference names one).
Only the public entry points are used: `load_tournament` and the sample generator.
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable
from decimal import Decimal
from functools import cache
from typing import Any

import pytest

from mafiatab.domain.problems import Problem, ProtocolRefused
from mafiatab.formats.tournament_json import dumps_tournament
from mafiatab.sample import sample_tournament
from mafiatab.services.tournament_file import load_tournament
from tests.reference.refusal_reference import Refusal, reference_refusals

Data = dict[str, Any]
Game = dict[str, Any]

#: the reference's reasons -> the project's problem codes that say the same
CODES: dict[str, set[str]] = {
    "unknown_stage": {"unknown_stage"},
    "seat_count": {"seat_count"},
    "seat_number": {"seat_number"},
    "seat_twice": {"seat_twice"},
    "unknown_player": {"unknown_player"},
    "player_twice": {"player_twice"},
    "role_count": {"role_count"},
    "bad_result": {"bad_result", "bad_choice"},
    "bm_too_many": {"bm_too_many"},
    "bm_repeat": {"bm_repeat"},
    "bm_own_seat": {"bm_own_seat"},
    "bm_without_fk": {"bm_without_fk"},
    "bm_after_vote": {"bm_not_allowed"},
    "team_loss_not_lost": {"team_loss_not_lost"},
    "team_loss_and_dq": {"team_loss_and_dq"},
    "game_action_points": {"game_action_points"},
    "off_scale": {"off_scale", "extra_winner_max", "game_action_fixed"},
    "needs_approval": {"needs_approval"},
    "loser_max": {"extra_loser_max"},
    "extra_on_draw": {"extra_on_draw"},
    "extra_when_removed": {"extra_when_removed"},
    "extra_on_fk": {"extra_on_fk"},
    "pu_not_fk": {"pu_field_not_fk"},
    "black_entries": {"pu_black_entries"},
    "fsm_only": {"fsm_only", "broken_table_not_in_rules", "penalty_not_in_rules"},
    "limit_players": {"limit_players"},
    "limit_sum": {"limit_sum"},
    "negative_extra": {"negative_extra"},
    "limits_approval": {"limits_approval_not_in_rules"},
    "game_action_case": {"game_action_case"},
    "game_action_case_role": {"game_action_case_role"},
    "game_action_case_result": {"game_action_case_result"},
    "unplayability": {"game_action_fixed"},
    "removal_twice": {"removal_twice"},
    "revealed_twice": {"revealed_twice"},
    "revealed_not_fk": {"revealed_not_fk"},
    "revealed_with_will": {"revealed_with_will"},
    "checked": {"checked_not_sheriff_red"},
    "aside_will": {"aside_will_and_protocol"},
    "aside_will_value": {"off_scale"},
    "night_killed": {"night_killed_without_broken_table", "night_killed_is_fk", "seat_number"},
}


# --- the two sides ---------------------------------------------------------------------------


def _plain(value: Any) -> Any:
    if isinstance(value, Decimal):
        return float(value)
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


def to_text(data: Data) -> str:
    return json.dumps(_plain(data), ensure_ascii=False)


def project_problems(text: str) -> list[Problem] | None:
    """The project's refusing problems, or None when it loads the file."""
    try:
        load_tournament(text.encode())
    except ProtocolRefused as refused:
        return [p for p in refused.problems if not p.warning]
    return None


def mismatches(data: Data) -> list[str]:
    """How the project's answer differs from the reference's; [] when they agree."""
    text = to_text(data)
    mine = reference_refusals(json.loads(text, parse_float=Decimal))
    theirs = project_problems(text)
    for p in theirs or []:
        assert p.message("ru") and p.message("en")
    if not mine and theirs is None:
        return []
    if not mine:
        return [f"project refuses a sound file: {[(p.code, p.game, p.seat) for p in theirs or []]}"]
    if theirs is None:
        return [f"project accepts a file the reference refuses: {mine}"]
    out: list[str] = []
    for reason, game, seat in mine:
        if not any(p.code in CODES[reason] and p.game == game and (seat is None or p.seat == seat)
                   for p in theirs):
            out.append(f"{(reason, game, seat)} missing from {[(p.code, p.game, p.seat) for p in theirs]}")
    return out


# --- sound files and their mutations -------------------------------------------------------


@cache
def _sample_text(rules: str, seed: int) -> str:
    return dumps_tournament(sample_tournament(rules, 20, 4, seed=seed))


def sample(rules: str, seed: int) -> Data:
    data: Data = json.loads(_sample_text(rules, seed), parse_float=Decimal)
    return data


def _dec(x: str) -> Decimal:
    return Decimal(x)


VALUES = [_dec(v) for v in (
    "-1.5", "-1.2", "-1.0", "-0.8", "-0.6", "-0.5", "-0.4", "-0.3", "-0.2", "-0.1", "0", "0.1", "0.2",
    "0.25", "0.3", "0.4", "0.5", "0.6", "0.7", "0.8", "1.0", "1.1", "1.2", "1.5", "2.0")]
POSITIVE = [_dec(v) for v in ("0.2", "0.3", "0.4", "0.6", "0.8", "1.0")]


def _fk_or_random(rng: random.Random, game: Game) -> int:
    fk = game.get("first_killed")
    return int(fk) if fk is not None and rng.random() < 0.6 else rng.randint(1, 10)


def _scores(game: Game, seat: int) -> dict[str, Any]:
    scores: dict[str, Any] = game.setdefault("scores", {})
    entry: dict[str, Any] = scores.setdefault(str(seat), {})
    return entry


def m_extra(rng: random.Random, data: Data, game: Game) -> None:
    seat = rng.randint(1, 10)
    if seat == game.get("first_killed") and data["rules"] == "fsm" and rng.random() < 0.7:
        seat = seat % 10 + 1
    _scores(game, seat)["extra"] = rng.choice(VALUES)


def m_pu_extra(rng: random.Random, data: Data, game: Game) -> None:
    _scores(game, _fk_or_random(rng, game))["pu_extra"] = rng.choice(VALUES)


def m_move_pu(rng: random.Random, data: Data, game: Game) -> None:
    """Move the first killed's pu fields to another seat."""
    scores = game.get("scores") or {}
    for key in list(scores):
        sc = scores[key]
        for f in ("pu_extra", "pu_protocol"):
            if f in sc:
                target = rng.randint(1, 10)
                pu = sc.pop(f)
                if f == "pu_protocol":
                    pu["entries"] = [e for e in pu.get("entries", []) if e["seat"] != target]
                _scores(game, target)[f] = pu


def m_penalty(rng: random.Random, data: Data, game: Game) -> None:
    seat = rng.randint(1, 10)
    kind = rng.choice(["disqualification", "team_loss", "game_action", "game_action",
                       "revealed_sheriff_no_will"])
    pen: dict[str, Any] = {"kind": kind}
    if kind == "disqualification":
        pen["critical"] = rng.random() < 0.5
    if kind == "game_action" and rng.random() < 0.8:
        pen["points"] = rng.choice([v for v in VALUES if v < 0] + [_dec("-0.4")] * 3)
    if kind == "game_action" and rng.random() < 0.8:
        pen["rule"] = rng.choice(["8.5.1", "8.5.2", "8.5.3", "8.5.4", "8.5.4", "8.5.9", "8.5.9",
                                  "8.5.5", "9.9"])
        if pen["rule"] == "8.5.9" and rng.random() < 0.5:
            pen["points"] = _dec("-1.0")
    if kind == "revealed_sheriff_no_will" and game.get("first_killed") and rng.random() < 0.6:
        seat = int(game["first_killed"])
    if kind == "team_loss" and rng.random() < 0.7:
        # usually on a player of the team that lost
        losers = [s["seat"] for s in game["seats"]
                  if game["result"] in ("red", "black")
                  and (s["role"] in ("red", "sheriff")) != (game["result"] == "red")]
        if losers:
            seat = rng.choice(losers)
    penalties = _scores(game, seat).setdefault("penalties", [])
    penalties.append(pen)
    if kind == "team_loss" and rng.random() < 0.15:
        penalties.append({"kind": "disqualification", "critical": True})
    if kind != "game_action" and rng.random() < 0.15:
        penalties.append(dict(pen))  # the same removal (or 8.3.9.14) twice


def m_day1_vote(rng: random.Random, data: Data, game: Game) -> None:
    game["day1_vote_left"] = rng.randint(0, 3)


def m_black_entries(rng: random.Random, data: Data, game: Game) -> None:
    fk = game.get("first_killed")
    if fk is None:
        return
    others = [s for s in range(1, 11) if s != fk]
    rng.shuffle(others)
    n = rng.randint(1, 5)
    entries: list[dict[str, Any]] = [{"seat": s, "colour": "black"} for s in others[:n]]
    entries += [{"seat": s, "colour": "red"} for s in others[n:n + rng.randint(0, 3)]]
    for e in entries:
        if rng.random() < 0.2:
            e["tag"] = rng.choice(["checked", "checked", "near_reliable", "reliable"])
    protocol: dict[str, Any] = {"entries": entries}
    if rng.random() < 0.3:
        protocol["aside"] = True
    _scores(game, fk)["pu_protocol"] = protocol
    if rng.random() < 0.3:
        _scores(game, fk)["will"] = rng.choice([_dec(v) for v in ("-0.3", "-0.2", "0", "0.2", "0.3",
                                                                 "0.4")])
        if rng.random() < 0.3:
            _scores(game, fk)["same_as_will"] = True


def m_result(rng: random.Random, data: Data, game: Game) -> None:
    game["result"] = rng.choice(["red", "black", "draw", "draw", "RED", "lost"])


def m_will(rng: random.Random, data: Data, game: Game) -> None:
    seat = _fk_or_random(rng, game) if rng.random() < 0.3 else rng.randint(1, 10)
    sc = _scores(game, seat)
    if seat == game.get("first_killed"):
        sc["will"] = rng.choice(VALUES)
        return
    if rng.random() < 0.7:
        sc["will"] = rng.choice(VALUES)
    if rng.random() < 0.7:
        sc["protocol"] = rng.choice(VALUES)
    if "will" in sc and "protocol" in sc:
        sc["same_as_will"] = rng.random() < 0.5


def m_approved(rng: random.Random, data: Data, game: Game) -> None:
    scores = game.get("scores") or {}
    if scores and rng.random() < 0.8:
        scores[rng.choice(list(scores))]["approved"] = True
    else:
        game["limits_approved"] = True


def m_many_extras(rng: random.Random, data: Data, game: Game) -> None:
    """Positive extras on several players, around the game's limits."""
    fk = game.get("first_killed")
    seats = [s for s in range(1, 11) if s != fk]
    rng.shuffle(seats)
    rules = data["rules"]
    k = rng.randint(2, 8) if rules == "fsm" else rng.randint(2, 4)
    if rules == "fsm" and fk is not None and rng.random() < 0.5:
        _scores(game, fk)["pu_extra"] = rng.choice(POSITIVE[:5])
    for seat in seats[:k]:
        if rules == "fsm":
            _scores(game, seat)["extra"] = rng.choice(POSITIVE)
        else:
            _scores(game, seat)["extra"] = rng.choice([_dec(v) for v in ("0.1", "0.2", "0.3", "0.4")])


def m_best_move(rng: random.Random, data: Data, game: Game) -> None:
    fk = game.get("first_killed")
    choice = rng.randrange(5)
    if choice == 0:
        game["best_move"] = rng.sample(range(1, 11), rng.randint(1, 4))
    elif choice == 1 and game.get("best_move"):
        game["best_move"] = game["best_move"] + [game["best_move"][0]]
    elif choice == 2 and fk is not None:
        game["best_move"] = [fk]
    elif choice == 3:
        game["first_killed"] = None
        for sc in (game.get("scores") or {}).values():
            sc.pop("pu_extra", None)
            sc.pop("pu_protocol", None)
        game.pop("broken_table", None)
    else:
        game["best_move"] = []


def m_seats(rng: random.Random, data: Data, game: Game) -> None:
    seats = game["seats"]
    choice = rng.randrange(6)
    if choice == 0:
        seats[rng.randrange(len(seats))]["role"] = rng.choice(["red", "sheriff", "black", "don"])
    elif choice == 1:
        seats[0]["player"] = seats[1]["player"]
    elif choice == 2:
        seats[rng.randrange(len(seats))]["player"] = "nobody"
    elif choice == 3:
        seats.pop()
    elif choice == 4:
        seats[rng.randrange(len(seats))]["seat"] = rng.choice([0, 11, seats[0]["seat"]])
    else:
        game["stage"] = "nowhere"


def m_switch_rules(rng: random.Random, data: Data, game: Game) -> None:
    data["rules"] = "fiim2018" if data["rules"] == "fsm" else "fsm"


def m_broken_table(rng: random.Random, data: Data, game: Game) -> None:
    if game.get("first_killed") is not None:
        game["broken_table"] = True


def m_night_killed(rng: random.Random, data: Data, game: Game) -> None:
    """FSM 8.6.6: the seat shot in a broken table's first night; sound or not."""
    fk = game.get("first_killed")
    if fk is not None and rng.random() < 0.6:
        game["broken_table"] = True
    others = [s for s in range(1, 11) if s != fk]
    game["night_killed"] = rng.choice(others + others + [fk or 1, 11])


def m_limit_mix(rng: random.Random, data: Data, game: Game) -> None:
    """Extras, wills and protocols (same_as_will or not) around the FSM 4.0 / 7-player limits."""
    if data["rules"] != "fsm":
        m_many_extras(rng, data, game)
        return
    fk = game.get("first_killed")
    seats = [s for s in range(1, 11) if s != fk]
    rng.shuffle(seats)
    for seat in seats[:rng.randint(3, 7)]:
        sc = _scores(game, seat)
        sc["extra"] = rng.choice(POSITIVE)
    for seat in seats[rng.randint(0, 5):][:2]:
        sc = _scores(game, seat)
        sc["will"] = rng.choice([_dec(v) for v in ("-0.2", "0", "0.2", "0.3", "0.4")])
        sc["protocol"] = rng.choice([_dec(v) for v in ("-0.4", "0", "0.4", "0.5", "0.6")])
        sc["same_as_will"] = rng.random() < 0.5
        sc["approved"] = rng.random() < 0.7
    if fk is not None and rng.random() < 0.5:
        _scores(game, fk)["pu_extra"] = rng.choice(POSITIVE[:5])
        _scores(game, fk)["will"] = rng.choice([_dec(v) for v in ("0.2", "0.3", "0.4")])


def m_sound_swap(rng: random.Random, data: Data, game: Game) -> None:
    """A sound rewrite: the game's scores are dropped."""
    game.pop("scores", None)


MUTATIONS: list[Callable[[random.Random, Data, Game], None]] = [
    m_extra, m_extra, m_pu_extra, m_move_pu, m_penalty, m_penalty, m_day1_vote, m_black_entries,
    m_result, m_will, m_will, m_approved, m_many_extras, m_many_extras, m_best_move, m_seats,
    m_switch_rules, m_broken_table, m_sound_swap, m_limit_mix, m_limit_mix, m_night_killed,
    m_black_entries,
]


def mutated(seed: int) -> Data:
    rng = random.Random(seed)
    rules = rng.choice(["fsm", "fiim2018"])
    data = sample(rules, rng.randint(1, 30))
    data = copy.deepcopy(data)
    for game in rng.sample(data["games"], rng.choice([1, 1, 1, 2])):
        for _ in range(rng.choice([1, 2, 2, 3])):
            rng.choice(MUTATIONS)(rng, data, game)
    return data


def refusals_of(data: Data) -> list[Refusal]:
    return reference_refusals(json.loads(to_text(data), parse_float=Decimal))


# --- random mutated files ------------------------------------------------------------------

RANDOM_FILES = 5000


@pytest.mark.parametrize("chunk", range(10))
def test_random_mutations_agree(chunk: int) -> None:
    per = RANDOM_FILES // 10
    failures = []
    for seed in range(chunk * per, (chunk + 1) * per):
        problems = mismatches(mutated(seed))
        if problems:
            failures.append((seed, problems))
    assert not failures, failures[:5]


def test_random_mutations_cover_every_reason() -> None:
    """The mutations reach each of section 8's reasons, in both rule sets where they apply."""
    seen: set[tuple[str, str]] = set()
    for seed in range(RANDOM_FILES):
        data = mutated(seed)
        seen.update((data["rules"], reason) for reason, _, _ in refusals_of(data))
    fsm_only_reasons = {"black_entries", "bm_after_vote", "extra_on_fk", "extra_when_removed",
                        "game_action_points", "pu_not_fk", "unplayability", "revealed_twice",
                        "revealed_not_fk", "revealed_with_will", "checked", "aside_will",
                        "aside_will_value"}
    fiim_only_reasons = {"fsm_only", "loser_max", "negative_extra", "limits_approval",
                         "game_action_case", "game_action_case_role", "game_action_case_result"}
    for reason in CODES:
        if reason not in fiim_only_reasons:
            assert ("fsm", reason) in seen, reason
        if reason not in fsm_only_reasons:
            assert ("fiim2018", reason) in seen, reason


def test_sound_samples_load() -> None:
    for rules in ("fsm", "fiim2018"):
        for seed in range(1, 31):
            data = sample(rules, seed)
            assert refusals_of(data) == []
            assert project_problems(to_text(data)) is None


# --- hand-written files at the boundaries ------------------------------------------------

ROLES = ["red"] * 6 + ["sheriff", "black", "black", "don"]  # seats 1-10
P = "0.{}"


def base(rules: str = "fsm", result: str = "red", first_killed: int | None = 1) -> Data:
    """One sound game: seats 1-6 red, 7 sheriff, 8-9 black, 10 don; seat 1 killed first."""
    players = [{"id": f"p{i}", "nickname": f"P{i}"} for i in range(1, 11)]
    game: Game = {"id": "g1", "stage": "qual", "round": 1, "table": 1,
                  "seats": [{"seat": i, "player": f"p{i}", "role": ROLES[i - 1]} for i in range(1, 11)],
                  "result": result, "first_killed": first_killed, "scores": {}}
    return {"format": "mafiatab.tournament/1", "name": "Edge", "rules": rules, "players": players,
            "stages": [{"id": "qual", "name": "Q", "kind": "qualification"}], "games": [game]}


def with_scores(data: Data, scores: dict[int, dict[str, Any]], **game: Any) -> Data:
    g = data["games"][0]
    g["scores"] = {str(seat): {k: (Decimal(v) if isinstance(v, str) else v) for k, v in sc.items()}
                   for seat, sc in scores.items()}
    g.update(game)
    return data


def fsm(scores: dict[int, dict[str, Any]], result: str = "red", first_killed: int | None = 1,
        **game: Any) -> Data:
    return with_scores(base("fsm", result, first_killed), scores, **game)


def fiim(scores: dict[int, dict[str, Any]], result: str = "red", first_killed: int | None = 1,
         **game: Any) -> Data:
    return with_scores(base("fiim2018", result, first_killed), scores, **game)


def extras(values: list[str], start: int = 2) -> dict[int, dict[str, Any]]:
    return {start + i: {"extra": v} for i, v in enumerate(values)}


DQ = {"kind": "disqualification", "critical": False}
TEAM_LOSS = {"kind": "team_loss"}

# (name, file, whether section 8 refuses it, the reason expected)
EDGES: list[tuple[str, Data, bool, str | None]] = [
    # --- FSM 8.4.1 limits: 4.0 and 7 players, first killed included -----------------------
    ("fsm sum exactly 4.0, 7 players incl. pu_extra",
     fsm({1: {"pu_extra": "0.3"}, **extras(["1.0", "0.8", "0.6", "0.6", "0.4", "0.3"])}), False, None),
    ("fsm sum 4.2", fsm(extras(["1.0", "1.0", "1.0", "0.6", "0.6"])), True, "limit_sum"),
    ("fsm sum 4.2 with limits_approved",
     fsm(extras(["1.0", "1.0", "1.0", "0.6", "0.6"]), limits_approved=True), False, None),
    ("fsm exactly 7 players", fsm(extras(["0.2"] * 7)), False, None),
    ("fsm 8 players", fsm(extras(["0.2"] * 8, start=2) | {10: {"extra": "0.2"}}), True, "limit_players"),
    ("fsm 7 extras + the first killed's pu_extra = 8 players",
     fsm({1: {"pu_extra": "0.2"}, **extras(["0.2"] * 7)}), True, "limit_players"),
    ("fsm 8 players with limits_approved",
     fsm({1: {"pu_extra": "0.2"}, **extras(["0.2"] * 7)}, limits_approved=True), False, None),
    ("fsm will and protocol count for the 7 players",
     fsm({**extras(["0.2"] * 6), 8: {"will": "0.2"}, 9: {"protocol": "0.4"}}), True, "limit_players"),
    ("fsm negative will and protocol do not count",
     fsm({**extras(["0.2"] * 7), 8: {"will": "-0.2"}, 9: {"protocol": "-0.4"}}), False, None),
    ("fsm penalties do not count",
     fsm({**extras(["1.0", "1.0", "1.0", "1.0"]),
          8: {"penalties": [{"kind": "game_action", "points": "-1.0"}]}}), False, None),
    ("fsm best move points stay outside the limit",
     fsm({1: {"pu_extra": "0.4"}, **extras(["1.0", "1.0", "1.0", "0.6"])}, best_move=[8, 9, 10]),
     False, None),
    ("fsm same_as_will: only the larger counts for the limit (4.0)",
     fsm({**extras(["1.0", "1.0", "1.0", "0.6"]),
          8: {"will": "0.4", "protocol": "0.4", "same_as_will": True, "approved": True}}), False, None),
    ("fsm will and protocol both count without same_as_will (4.4)",
     fsm({**extras(["1.0", "1.0", "1.0", "0.6"]),
          8: {"will": "0.4", "protocol": "0.4", "approved": True}}), True, "limit_sum"),
    # --- FSM scales -------------------------------------------------------------------------
    ("fsm extra +1.0", fsm({2: {"extra": "1.0"}}), False, None),
    ("fsm extra +0.3", fsm({2: {"extra": "0.3"}}), False, None),
    ("fsm extra +0.5 (steps of 0.2)", fsm({2: {"extra": "0.5"}}), True, "off_scale"),
    ("fsm extra +0.1", fsm({2: {"extra": "0.1"}}), True, "off_scale"),
    ("fsm extra +0.25", fsm({2: {"extra": "0.25"}}), True, "off_scale"),
    ("fsm extra +1.1", fsm({2: {"extra": "1.1"}}), True, "off_scale"),
    ("fsm extra +1.2 without approval", fsm({2: {"extra": "1.2"}}), True, "needs_approval"),
    ("fsm extra +1.2 approved", fsm({2: {"extra": "1.2", "approved": True}}), False, None),
    ("fsm extra +1.5 approved", fsm({2: {"extra": "1.5", "approved": True}}), False, None),
    ("fsm extra +2.0 approved", fsm({2: {"extra": "2.0", "approved": True}}), True, "off_scale"),
    ("fsm extra -0.3", fsm({2: {"extra": "-0.3"}}), False, None),
    ("fsm extra -0.5", fsm({2: {"extra": "-0.5"}}), True, "off_scale"),
    ("fsm extra -1.2 without approval", fsm({2: {"extra": "-1.2"}}), True, "needs_approval"),
    ("fsm extra -1.5 approved", fsm({2: {"extra": "-1.5", "approved": True}}), False, None),
    ("fsm pu_extra +0.8", fsm({1: {"pu_extra": "0.8"}}), False, None),
    ("fsm pu_extra +1.0", fsm({1: {"pu_extra": "1.0"}}), True, "off_scale"),
    ("fsm pu_extra +0.5", fsm({1: {"pu_extra": "0.5"}}), True, "off_scale"),
    ("fsm pu_extra -0.2", fsm({1: {"pu_extra": "-0.2"}}), True, "off_scale"),
    ("fsm will +0.3 on the first killed", fsm({1: {"will": "0.3"}}), False, None),
    ("fsm will +0.4 on the first killed", fsm({1: {"will": "0.4"}}), False, None),
    ("fsm will +0.3 on another player", fsm({2: {"will": "0.3"}}), True, "needs_approval"),
    ("fsm will +0.3 on another player, approved", fsm({2: {"will": "0.3", "approved": True}}),
     False, None),
    ("fsm will -0.4", fsm({2: {"will": "-0.4"}}), False, None),
    ("fsm will +0.5", fsm({2: {"will": "0.5", "approved": True}}), True, "off_scale"),
    ("fsm will 0", fsm({2: {"will": "0"}}), False, None),
    ("fsm protocol +0.6 without approval", fsm({2: {"protocol": "0.6"}}), True, "needs_approval"),
    ("fsm protocol +0.6 approved", fsm({2: {"protocol": "0.6", "approved": True}}), False, None),
    ("fsm protocol -0.6", fsm({2: {"protocol": "-0.6"}}), False, None),
    ("fsm protocol +0.3", fsm({2: {"protocol": "0.3"}}), True, "off_scale"),
    ("fsm protocol +0.4 same_as_will", fsm({2: {"will": "0.2", "protocol": "0.4", "same_as_will": True}}),
     False, None),
    # --- FSM first killed -------------------------------------------------------------------
    ("fsm plain positive extra on the first killed", fsm({1: {"extra": "0.4"}}), True, "extra_on_fk"),
    ("fsm plain negative extra on the first killed", fsm({1: {"extra": "-0.4"}}), False, None),
    ("fsm pu_extra on another seat", fsm({2: {"pu_extra": "0.4"}}), True, "pu_not_fk"),
    ("fsm pu_extra without a first killed", fsm({1: {"pu_extra": "0.4"}}, first_killed=None),
     True, "pu_not_fk"),
    ("fsm pu_protocol on another seat", fsm({2: {"pu_protocol": {"entries": [
        {"seat": 8, "colour": "black"}]}}}), True, "pu_not_fk"),
    ("fsm 3 black entries", fsm({1: {"pu_protocol": {"entries": [
        {"seat": s, "colour": "black"} for s in (8, 9, 10)]}}}), False, None),
    ("fsm 4 black entries", fsm({1: {"pu_protocol": {"entries": [
        {"seat": s, "colour": "black"} for s in (7, 8, 9, 10)]}}}), True, "black_entries"),
    # --- FSM draw, removal, penalties --------------------------------------------------------
    ("fsm draw with +0.2", fsm({2: {"extra": "0.2"}}, result="draw"), True, "extra_on_draw"),
    ("fsm draw with pu_extra", fsm({1: {"pu_extra": "0.2"}}, result="draw"), True, "extra_on_draw"),
    ("fsm draw with a negative extra and a penalty",
     fsm({2: {"extra": "-0.4"}, 3: {"penalties": [DQ]}}, result="draw"), False, None),
    ("fsm draw with a best move", fsm({}, result="draw", best_move=[8, 9, 10]), False, None),
    ("fsm draw with a positive pu_protocol", fsm({1: {"pu_protocol": {"entries": [
        {"seat": 8, "colour": "black"}]}}}, result="draw"), False, None),
    ("fsm disqualified player with +0.2", fsm({2: {"extra": "0.2", "penalties": [DQ]}}),
     True, "extra_when_removed"),
    ("fsm disqualified player with a negative extra", fsm({2: {"extra": "-0.2", "penalties": [DQ]}}),
     False, None),
    ("fsm team loss on the losing team", fsm({2: {"penalties": [TEAM_LOSS]}}, result="black"), False, None),
    ("fsm team loss on the winning team", fsm({2: {"penalties": [TEAM_LOSS]}}), True, "team_loss_not_lost"),
    ("fsm team loss on a draw", fsm({2: {"penalties": [TEAM_LOSS]}}, result="draw"),
     True, "team_loss_not_lost"),
    ("fsm team loss and disqualification", fsm({2: {"penalties": [TEAM_LOSS, DQ]}}, result="black"),
     True, "team_loss_and_dq"),
    ("fsm game_action without points", fsm({2: {"penalties": [{"kind": "game_action"}]}}),
     True, "game_action_points"),
    ("fsm game_action -0.3", fsm({2: {"penalties": [{"kind": "game_action", "points": "-0.3"}]}}),
     False, None),
    ("fsm game_action -0.5", fsm({2: {"penalties": [{"kind": "game_action", "points": "-0.5"}]}}),
     True, "off_scale"),
    ("fsm revealed_sheriff_no_will", fsm({1: {"penalties": [{"kind": "revealed_sheriff_no_will"}]}}),
     False, None),
    # --- FSM 8.3.6 ---------------------------------------------------------------------------
    ("fsm best move after 2 left by the day-1 vote", fsm({}, best_move=[8], day1_vote_left=2),
     True, "bm_after_vote"),
    ("fsm best move after 1 left by the day-1 vote", fsm({}, best_move=[8], day1_vote_left=1), False, None),
    ("fsm no best move after 3 left", fsm({}, best_move=[], day1_vote_left=3), False, None),
    ("fsm broken table", fsm({}, best_move=[8], broken_table=True), False, None),
    # --- best move ---------------------------------------------------------------------------
    ("best move of 4", fsm({}, best_move=[2, 8, 9, 10]), True, "bm_too_many"),
    ("best move repeats", fsm({}, best_move=[8, 8]), True, "bm_repeat"),
    ("best move names the first killed", fsm({}, best_move=[1, 8]), True, "bm_own_seat"),
    ("best move without a first killed", fsm({}, first_killed=None, best_move=[8]), True, "bm_without_fk"),
    # --- FIIM 8.4 ----------------------------------------------------------------------------
    ("fiim 3 players, sum exactly 1.0", fiim(extras(["0.4", "0.3", "0.3"])), False, None),
    ("fiim 4 players", fiim(extras(["0.2", "0.2", "0.2", "0.2"])), True, "limit_players"),
    ("fiim 4 players, limits approved: FIIM has no approval",
     fiim(extras(["0.2"] * 4), limits_approved=True), True, "limits_approval"),
    ("fiim 3 players, limits_approved true", fiim(extras(["0.2"] * 3), limits_approved=True),
     True, "limits_approval"),
    ("fiim limits_approved false", fiim(extras(["0.2"] * 3), limits_approved=False), False, None),
    ("fiim sum 1.1", fiim(extras(["0.5", "0.3", "0.3"])), True, "limit_sum"),
    ("fiim sum 1.1, limits approved", fiim(extras(["0.5", "0.3", "0.3"]), limits_approved=True),
     True, "limit_sum"),
    ("fiim the first killed's extra and best move", fiim({1: {"extra": "0.3"}}, best_move=[8, 9, 10]),
     False, None),
    ("fiim winner +0.5", fiim({2: {"extra": "0.5"}}), False, None),
    ("fiim winner +0.6 without approval", fiim({2: {"extra": "0.6"}}), True, "needs_approval"),
    ("fiim winner +0.7 approved", fiim({2: {"extra": "0.7", "approved": True}}), False, None),
    ("fiim winner +0.7 without approval", fiim({2: {"extra": "0.7"}}), True, "needs_approval"),
    ("fiim winner +0.8 approved", fiim({2: {"extra": "0.8", "approved": True}}), True, "off_scale"),
    ("fiim loser +0.4", fiim({8: {"extra": "0.4"}}), False, None),
    ("fiim loser +0.5", fiim({8: {"extra": "0.5"}}), True, "loser_max"),
    ("fiim loser +0.6 approved", fiim({8: {"extra": "0.6", "approved": True}}), True, "loser_max"),
    ("fiim 0.25", fiim({2: {"extra": "0.25"}}), False, None),
    ("fiim extra 0", fiim({2: {"extra": "0"}}), False, None),
    ("fiim draw with +0.2", fiim({2: {"extra": "0.2"}}, result="draw"), True, "extra_on_draw"),
    ("fiim draw with a best move", fiim({}, result="draw", best_move=[8, 9]), False, None),
    ("fiim game_action without points", fiim({2: {"penalties": [{"kind": "game_action",
                                                              "rule": "8.5.2"}]}}), False, None),
    ("fiim game_action -0.4", fiim({2: {"penalties": [{"kind": "game_action", "points": "-0.4",
                                                     "rule": "8.5.2"}]}}), False, None),
    ("fiim game_action -0.2", fiim({2: {"penalties": [{"kind": "game_action", "points": "-0.2",
                                                     "rule": "8.5.2"}]}}), True, "off_scale"),
    ("fiim game_action without a case", fiim({2: {"penalties": [{"kind": "game_action"}]}}),
     True, "game_action_case"),
    ("fiim game_action 8.5.9 (an FSM case)",
     fiim({2: {"penalties": [{"kind": "game_action", "rule": "8.5.9"}]}}), True, "game_action_case"),
    ("fiim 8.5.1 on a red, red lost",
     fiim({2: {"penalties": [{"kind": "game_action", "rule": "8.5.1"}]}}, result="black"), False, None),
    ("fiim 8.5.1 on a red, red won",
     fiim({2: {"penalties": [{"kind": "game_action", "rule": "8.5.1"}]}}), True, "game_action_case_result"),
    ("fiim 8.5.1 on a black", fiim({8: {"penalties": [{"kind": "game_action", "rule": "8.5.1"}]}},
                                   result="black"), True, "game_action_case_role"),
    ("fiim 8.5.2 on the sheriff", fiim({7: {"penalties": [{"kind": "game_action", "rule": "8.5.2"}]}}),
     True, "game_action_case_role"),
    ("fiim 8.5.2 on a red, draw", fiim({2: {"penalties": [{"kind": "game_action", "rule": "8.5.2"}]}},
                                       result="draw"), False, None),
    ("fiim 8.5.3 on the sheriff, red lost",
     fiim({7: {"penalties": [{"kind": "game_action", "rule": "8.5.3"}]}}, result="black"), False, None),
    ("fiim 8.5.3 on the sheriff, draw",
     fiim({7: {"penalties": [{"kind": "game_action", "rule": "8.5.3"}]}}, result="draw"),
     True, "game_action_case_result"),
    ("fiim 8.5.4 on the don, black lost",
     fiim({10: {"penalties": [{"kind": "game_action", "rule": "8.5.4"}]}}), False, None),
    ("fiim 8.5.4 on the don, black won",
     fiim({10: {"penalties": [{"kind": "game_action", "rule": "8.5.4"}]}}, result="black"),
     True, "game_action_case_result"),
    ("fiim 8.5.4 on a red", fiim({2: {"penalties": [{"kind": "game_action", "rule": "8.5.4"}]}}),
     True, "game_action_case_role"),
    ("fiim two disqualifications", fiim({2: {"penalties": [DQ, DQ]}}), True, "removal_twice"),
    ("fiim team loss on the winning team", fiim({2: {"penalties": [TEAM_LOSS]}}), True, "team_loss_not_lost"),
    ("fiim team loss on the losing team", fiim({2: {"penalties": [TEAM_LOSS]}}, result="black"), False, None),
    ("fiim team loss and disqualification", fiim({2: {"penalties": [TEAM_LOSS, DQ]}}, result="black"),
     True, "team_loss_and_dq"),
    ("fiim best move after 2 left by the day-1 vote (FSM-only rule)",
     fiim({}, best_move=[8, 9], day1_vote_left=2), False, None),
    ("fiim plain extra on the first killed", fiim({1: {"extra": "0.4"}}), False, None),
    *[(f"fiim with {field}", fiim({1: {field: value}}), True, "fsm_only") for field, value in [
        ("pu_extra", "0.2"), ("will", "0.2"), ("protocol", "0.4"), ("same_as_will", True),
        ("pu_protocol", {"entries": [{"seat": 8, "colour": "black"}]})]],
    ("fiim with broken_table", fiim({}, best_move=[8], broken_table=True), True, "fsm_only"),
    ("fiim with revealed_sheriff_no_will",
     fiim({1: {"penalties": [{"kind": "revealed_sheriff_no_will"}]}}), True, "fsm_only"),
    # --- section 1 ---------------------------------------------------------------------------
    ("result other", fsm({}, result="none"), True, "bad_result"),
    # --- readings where the text is silent (both sides agree; kept to pin them) ---------------
    ("fsm team loss is a removal: no positive extra (FIIM 6.8, FSM 8.5.8)",
     fsm({2: {"will": "0.2", "penalties": [TEAM_LOSS]}}, result="black"), True, "extra_when_removed"),
    ("fsm extra 0 is no extra", fsm({2: {"extra": "0"}, 1: {"extra": "0", "pu_extra": "0"}}), False, None),
    ("fsm positive protocol on a draw", fsm({2: {"protocol": "0.4"}}, result="draw"), True, "extra_on_draw"),
    ("fsm removed first killed with pu_extra", fsm({1: {"pu_extra": "0.2", "penalties": [DQ]}}),
     True, "extra_when_removed"),
    ("fsm removed player's negative extra and the limit",
     fsm({**extras(["1.0", "1.0", "1.0", "1.0"]), 8: {"extra": "-0.4", "penalties": [DQ]}}), False, None),
    ("fsm player approvals do not approve the limits",
     fsm({s: {"extra": "0.2", "approved": True} for s in range(2, 10)}), True, "limit_players"),
    ("fsm limits_approved does not approve a value", fsm({2: {"extra": "1.2"}}, limits_approved=True),
     True, "needs_approval"),
    ("fsm same_as_will: larger one counts (0.4 + 0.6 -> 0.6, sum 4.2)",
     fsm({**extras(["1.0", "1.0", "1.0", "0.6"]),
          8: {"will": "0.4", "protocol": "0.6", "same_as_will": True, "approved": True}}), True, "limit_sum"),
    ("fsm same_as_will, negative protocol: the will counts (8 players)",
     fsm({**extras(["0.2"] * 7), 9: {"will": "0.2", "protocol": "-0.4", "same_as_will": True}}),
     True, "limit_players"),
    ("fsm game_action -1.5 approved", fsm({2: {"penalties": [{"kind": "game_action", "points": "-1.5"}],
                                              "approved": True}}), False, None),
    ("fsm best move after 2 left, broken table", fsm({}, best_move=[8], broken_table=True, day1_vote_left=2),
     True, "bm_after_vote"),
    ("fsm pu_extra on a black first killed", fsm({8: {"pu_extra": "0.4"}}, first_killed=8), False, None),
    ("fiim the first killed's extra counts for the 3 players",
     fiim({1: {"extra": "0.1"}, **extras(["0.3", "0.3", "0.3"])}), True, "limit_players"),
    ("fiim sum 1.05", fiim(extras(["0.25", "0.3", "0.5"])), True, "limit_sum"),
    ("fiim disqualified player with +0.3 (section 8 cites FSM 8.4.7 only)",
     fiim({2: {"extra": "0.3", "penalties": [DQ]}}), False, None),
    ("fiim negative extra", fiim({2: {"extra": "-0.4"}}), True, "negative_extra"),
    ("fiim negative extra on a draw", fiim({2: {"extra": "-0.4"}}, result="draw"), True,
     "negative_extra"),
    ("fiim negative extra on the first killed", fiim({1: {"extra": "-0.2"}}), True, "negative_extra"),
    ("fiim winner +0.55", fiim({2: {"extra": "0.55"}}), False, None),
    ("fiim broken_table false", fiim({}, broken_table=False), False, None),
    ("fiim will 0 is still a use of an FSM field", fiim({2: {"will": "0"}}), True, "fsm_only"),
    ("fiim limits_approved does not lift the loser's +0.4",
     fiim({8: {"extra": "0.5"}}, limits_approved=True), True, "loser_max"),
    # --- the corrected spec: FSM 8.5.9, 8.5.8, 8.3.9.9, 8.3.9.11, 8.3.9.13, 8.3.9.14, 8.6.6 ---
    ("fsm 8.5.9 at -1.0", fsm({2: {"penalties": [{"kind": "game_action", "points": "-1.0",
                                                   "rule": "8.5.9"}]}}), False, None),
    ("fsm 8.5.9 at -0.6", fsm({2: {"penalties": [{"kind": "game_action", "points": "-0.6",
                                                   "rule": "8.5.9"}]}}), True, "unplayability"),
    ("fsm 8.5.9 at -1.5 approved", fsm({2: {"penalties": [{"kind": "game_action", "points": "-1.5",
                                                            "rule": "8.5.9"}], "approved": True}}),
     True, "unplayability"),
    ("fsm two disqualifications", fsm({2: {"penalties": [DQ, DQ]}}), True, "removal_twice"),
    ("fsm two team losses", fsm({2: {"penalties": [TEAM_LOSS, TEAM_LOSS]}}, result="black"),
     True, "removal_twice"),
    ("fsm checked red of a sheriff first killed", fsm({7: {"pu_protocol": {"entries": [
        {"seat": 2, "colour": "red", "tag": "checked"}]}}}, first_killed=7), False, None),
    ("fsm checked red of a red first killed", fsm({1: {"pu_protocol": {"entries": [
        {"seat": 2, "colour": "red", "tag": "checked"}]}}}), True, "checked"),
    ("fsm checked black of a sheriff first killed", fsm({7: {"pu_protocol": {"entries": [
        {"seat": 8, "colour": "black", "tag": "checked"}]}}}, first_killed=7), True, "checked"),
    ("fsm will beside an aside protocol of 3", fsm({1: {"will": "0.2", "pu_protocol": {
        "aside": True, "entries": [{"seat": s, "colour": "red"} for s in (2, 3, 4)]}}}), False, None),
    ("fsm will beside an aside protocol of 4", fsm({1: {"will": "0.2", "pu_protocol": {
        "aside": True, "entries": [{"seat": s, "colour": "red"} for s in (2, 3, 4, 5)]}}}),
     True, "aside_will"),
    ("fsm will of 4 entries not aside", fsm({1: {"will": "0.2", "pu_protocol": {
        "entries": [{"seat": s, "colour": "red"} for s in (2, 3, 4, 5)]}}}), False, None),
    ("fsm aside will +0.3", fsm({1: {"will": "0.3", "pu_protocol": {
        "aside": True, "entries": [{"seat": 8, "colour": "black"}]}}}), False, None),
    ("fsm aside will +0.4", fsm({1: {"will": "0.4", "pu_protocol": {
        "aside": True, "entries": [{"seat": 8, "colour": "black"}]}}}), True, "aside_will_value"),
    ("fsm aside will -0.3", fsm({1: {"will": "-0.3", "pu_protocol": {
        "aside": True, "entries": [{"seat": 8, "colour": "black"}]}}}), True, "aside_will_value"),
    ("fsm 8.3.9.14 on another seat", fsm({2: {"penalties": [{"kind": "revealed_sheriff_no_will"}]}}),
     True, "revealed_not_fk"),
    ("fsm 8.3.9.14 beside his will", fsm({1: {"will": "-0.2", "penalties": [
        {"kind": "revealed_sheriff_no_will"}]}}), True, "revealed_with_will"),
    ("fsm 8.3.9.14 beside his protocol", fsm({1: {"pu_protocol": {"entries": []}, "penalties": [
        {"kind": "revealed_sheriff_no_will"}]}}), True, "revealed_with_will"),
    ("fsm 8.3.9.14 twice", fsm({1: {"penalties": [{"kind": "revealed_sheriff_no_will"}] * 2}}),
     True, "revealed_twice"),
    ("fsm first killed's will same as his protocol", fsm({1: {"will": "0.2", "same_as_will": True,
                                                          "pu_protocol": {"entries": [
                                                              {"seat": 8, "colour": "black"}]}}}),
     False, None),
    ("fsm night_killed on a broken table", fsm({}, best_move=[8], broken_table=True, night_killed=2),
     False, None),
    ("fsm night_killed without broken_table", fsm({}, night_killed=2), True, "night_killed"),
    ("fsm night_killed is the first killed", fsm({}, broken_table=True, night_killed=1),
     True, "night_killed"),
    ("fsm night_killed not a seat", fsm({}, broken_table=True, night_killed=11), True, "night_killed"),
    ("fiim night_killed", fiim({}, night_killed=2), True, "night_killed"),
]


@pytest.mark.parametrize(("name", "data", "refused", "reason"), EDGES, ids=[e[0] for e in EDGES])
def test_edges(name: str, data: Data, refused: bool, reason: str | None) -> None:
    mine = refusals_of(data)
    assert bool(mine) == refused, ("the reference", mine)
    if reason is not None:
        assert reason in {r for r, _, _ in mine}
    assert mismatches(data) == []


# --- refusals of the project that section 8 does not list ------------------------------------

#: (name, file, the project's code): not in section 8, but each is a broken protocol or file
BEYOND_SECTION_8: list[tuple[str, Data, str]] = [
    ("fsm `protocol` on the first killed (his is pu_protocol, format)",
     fsm({1: {"protocol": "0.4"}}), "protocol_on_fk"),
    ("fsm pu_protocol entry for the first killed's own seat",
     fsm({1: {"pu_protocol": {"entries": [{"seat": 1, "colour": "red"}]}}}), "pu_entry_seat"),
    ("fsm pu_protocol entry written twice", fsm({1: {"pu_protocol": {"entries": [
        {"seat": 8, "colour": "black"}, {"seat": 8, "colour": "black"}]}}}), "pu_entry_twice"),
    ("fsm broken_table without a first killed", fsm({}, first_killed=None, broken_table=True),
     "broken_table_without_fk"),
    ("fsm disqualification without `critical`", fsm({2: {"penalties": [{"kind": "disqualification"}]}}),
     "dq_critical"),
    ("an unknown penalty kind", fsm({2: {"penalties": [{"kind": "yellow"}]}}), "bad_choice"),
    ("a best move naming seat 11", fsm({}, best_move=[11]), "seat_number"),
    ("scores for seat 11", fsm({11: {"extra": "0.2"}}), "seat_number"),
    ("day1_vote_left -1", fsm({}, day1_vote_left=-1), "nonneg_int"),
    ("a value with three decimals (scoring.md 7)", fiim({8: {"extra": "0.333"}}), "points_format"),
]


@pytest.mark.parametrize(("name", "data", "code"), BEYOND_SECTION_8, ids=[e[0] for e in BEYOND_SECTION_8])
def test_project_refuses_beyond_section_8(name: str, data: Data, code: str) -> None:
    assert refusals_of(data) == []
    problems = project_problems(to_text(data))
    assert problems is not None and code in {p.code for p in problems}
