"""Tournament standings written straight from shared/spec/scoring.md (sections 1-7).

Independent of the project's scoring code on purpose: plain loops, exact `Fraction`s, no
speed tricks. The input is a parsed format-1 tournament (shared/spec/tournament-format.md),
assumed valid; numbers may be int, float-free `Decimal` or `Fraction`.
"""

from __future__ import annotations

from collections import defaultdict
from decimal import Decimal
from fractions import Fraction
from typing import Any

Number = int | Decimal | Fraction

RED_TEAM = ("red", "sheriff")
BLACK_TEAM = ("black", "don")


def F(value: Number | str) -> Fraction:
    """An exact number from a parsed JSON value (or a literal like "0.25")."""
    return Fraction(value)


# --- rule numbers, per profile ------------------------------------------------------------

# 3.1: best move points by how many blacks were named
BEST_MOVE = {
    "fiim2018": [F("0"), F("0"), F("0.25"), F("0.4")],  # FIIM 8.3.1
    "fsm": [F("0"), F("0.1"), F("0.3"), F("0.6")],  # FSM 8.3.5
}

# 3.3: version of the first killed's protocol, right / wrong
VERSION_POINTS = {
    "sheriff_don": F("0.4"),
    "sheriff_don_vs_red": F("0.4"),
    "red_vs_red": F("0.2"),
    "black_vs_black": F("0.2"),
    "second_claim_after_leaving": F("0.2"),
    "single_claim": F("0"),
    "sheriff_hides": F("0.2"),
    "unreliable_sheriff_info": F("0"),
}

# 3.3: tags that score nothing and take no place in the count
NO_PLACE_TAGS = ("reliable", "from_version", "checked")


def team_of(role: str) -> str:
    return "red" if role in RED_TEAM else "black"


def is_black(role: str) -> bool:
    return role in BLACK_TEAM


# --- section 4: penalties -----------------------------------------------------------------

def penalty_points(rules: str, penalty: dict[str, Any]) -> Fraction:
    kind = penalty["kind"]
    if rules == "fiim2018":
        if kind in ("disqualification", "team_loss"):  # FIIM 8.2.4; team loss: Reading
            return F("-0.5")
        if kind == "game_action":  # FIIM 8.5.1-8.5.4: -0.4 each
            return F("-0.4")
        raise ValueError(f"fiim2018 has no penalty {kind}")
    if kind == "disqualification":  # FSM 8.2.4, 8.5.8
        return F("-1.0") if penalty.get("critical") else F("-0.6")
    if kind == "team_loss":  # FSM 8.2.5, 8.5.8
        return F("-1.5")
    if kind == "game_action":
        if penalty.get("rule") == "8.5.9":  # section 4: "оцениваются штрафом −1"
            return F("-1.0")
        return F(penalty["points"])  # FSM 8.5.1: the 8.4.4 scale, points given
    if kind == "revealed_sheriff_no_will":  # FSM 8.3.9.14
        return F("-0.2")
    raise ValueError(f"unknown penalty {kind}")


# --- section 3.3: the first killed's written protocol (FSM 8.3.9) -------------------------

def black_place_value(place: int) -> Fraction:
    """FSM 8.3.9.3: first correct black +0.2, second and third +0.3."""
    return F("0.2") if place == 0 else F("0.3")


def red_place_value(place: int) -> Fraction:
    """FSM 8.3.9.4: first correct red +0.1, each next +0.2."""
    return F("0.1") if place == 0 else F("0.2")


def pu_protocol_points(protocol: dict[str, Any], roles: dict[int, str]) -> Fraction:
    entries = protocol.get("entries") or []
    aside = bool(protocol.get("aside"))
    total = F(0)

    if aside:
        # 8.3.9.12: each correct red +0.1, one correct black outside the versions +0.4
        # ("the last"), each error -0.2; the tags as usual (nothing / half)
        last_black_value: Fraction | None = None
        for entry in entries:
            role = roles[entry["seat"]]
            tag = entry.get("tag")
            correct = is_black(role) == (entry["colour"] == "black")
            if not correct:
                total += F("-0.2")
                continue
            if tag in NO_PLACE_TAGS:
                continue
            half = Fraction(1, 2) if tag == "near_reliable" else F(1)
            if entry["colour"] == "red":
                total += F("0.1") * half
            else:
                last_black_value = F("0.4") * half
        if last_black_value is not None:
            total += last_black_value
    else:
        correct_black_place = 0
        wrong_black_place = 0
        correct_red_place = 0
        red_points = F(0)
        red_errors = 0
        # 8.3.9.8: after a near-reliable entry "the next colour in the protocol" that is
        # correctly written and scores, whatever its colour, is scored as the first of it
        # colour (+0.1 red, +0.2 black); that colour's count goes on from it
        after_near = False
        for entry in entries:
            role = roles[entry["seat"]]
            tag = entry.get("tag")
            colour = entry["colour"]
            correct = is_black(role) == (colour == "black")
            scores_here = correct and tag not in NO_PLACE_TAGS
            if scores_here and after_near:
                after_near = False
                if colour == "black":
                    correct_black_place = 0
                else:
                    correct_red_place = 0
            if colour == "black":
                if not correct:
                    total += F("-0.2") if wrong_black_place == 0 else F("-0.3")
                    wrong_black_place += 1
                elif tag in NO_PLACE_TAGS:
                    pass
                elif tag == "near_reliable":
                    total += black_place_value(correct_black_place) / 2
                    correct_black_place = 0  # its colour's count starts again
                    after_near = True
                else:
                    total += black_place_value(correct_black_place)
                    correct_black_place += 1
            else:
                if not correct:
                    red_errors += 1
                elif tag in NO_PLACE_TAGS:
                    pass
                elif tag == "near_reliable":
                    red_points += red_place_value(correct_red_place) / 2
                    correct_red_place = 0
                    after_near = True
                else:
                    red_points += red_place_value(correct_red_place)
                    correct_red_place += 1
        total += min(red_points, F("0.8"))
        if red_errors == 1:
            total += F("-0.2")
        elif red_errors >= 2:
            total += F("-0.4")

    version = protocol.get("version")
    if version:
        value = VERSION_POINTS[version["situation"]]
        total += value if version["right"] else -value
    return total


# --- one game -----------------------------------------------------------------------------

def game_points(rules: str, game: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Every player's points of one game, before K and Ci (they need the whole tournament):
    won, role, first_killed (counts for tie-breaker 4 and i), extra, best_move, penalties."""
    result = game["result"]
    draw = result == "draw"
    roles = {s["seat"]: s["role"] for s in game["seats"]}
    fk = game.get("first_killed")
    broken = bool(game.get("broken_table"))
    # 5, FSM 8.6.6: the player shot in a broken table's first shooting night
    night_killed = game.get("night_killed") if broken else None
    scores = game.get("scores") or {}
    out: dict[str, dict[str, Any]] = {}
    for s in game["seats"]:
        seat, role = s["seat"], s["role"]
        sc = scores.get(str(seat)) or {}
        row: dict[str, Any] = {
            "won": (not draw) and team_of(role) == result,
            "role": role,
            # 5: a broken table's first killed is no night death; its night_killed is
            "first_killed": (fk == seat and not broken) or night_killed == seat,
            "fk_red": ((fk == seat and not broken) or night_killed == seat) and role in RED_TEAM,
            "ci_paid": fk == seat and not broken,  # night_killed made no best move
            "best_move": F(0),
            "extra": F(0),
            "penalties": F(0),
            "blacks_named": 0,
        }
        if fk == seat:
            named = game.get("best_move") or []
            blacks = sum(1 for n in named if is_black(roles[n]))
            row["blacks_named"] = blacks
            no_best_move = rules == "fsm" and (game.get("day1_vote_left") or 0) >= 2  # FSM 8.3.6
            fsm_draw = rules == "fsm" and draw  # Reading (FSM 8.4.8)
            if role in RED_TEAM and not no_best_move and not fsm_draw:
                row["best_move"] = BEST_MOVE[rules][blacks]
        pu_pts: Fraction | None = None
        if fk == seat and rules == "fsm" and sc.get("pu_protocol") is not None:
            pu_pts = F(0)  # 3.3: a black first killed's protocol scores 0
            if role in RED_TEAM:
                pu_pts = pu_protocol_points(sc["pu_protocol"], roles)
                if draw and pu_pts > 0:
                    pu_pts = F(0)  # 3.3: on a draw a positive total is dropped
        if sc.get("extra") is not None:
            row["extra"] += F(sc["extra"])
        if sc.get("pu_extra") is not None:
            row["extra"] += F(sc["pu_extra"])
        will = sc.get("will")
        protocol = sc.get("protocol")
        if sc.get("same_as_will") and will is not None and protocol is not None:
            row["extra"] += max(F(will), F(protocol))  # FSM 8.3.8.11
        elif sc.get("same_as_will") and will is not None and pu_pts is not None:
            row["extra"] += max(F(will), pu_pts)  # 3.2: 8.3.8.11 for the first killed
            pu_pts = None
        else:
            if will is not None:
                row["extra"] += F(will)
            if protocol is not None:
                row["extra"] += F(protocol)
        if pu_pts is not None:
            row["extra"] += pu_pts
        for p in sc.get("penalties") or []:
            row["penalties"] += penalty_points(rules, p)
        row["extra"] += row["best_move"] + row["penalties"]
        out[s["player"]] = row
    return out


# --- section 2: K -------------------------------------------------------------------------

def difficulty(data: dict[str, Any]) -> tuple[str | None, Fraction]:
    """(heavy side, K) of a fiim2018 tournament of at most 20 participants; (None, 1) else."""
    if data["rules"] != "fiim2018":
        return None, F(1)
    participants = data.get("participants") or len(data["players"])
    if participants > 20:
        return None, F(1)
    games = data["games"]
    n_games = len(games)
    red = sum(1 for g in games if g["result"] == "red")
    black = sum(1 for g in games if g["result"] == "black")
    if red == black:
        return None, F(1)  # Reading: no heavy side
    heavy, n = ("red", red) if red < black else ("black", black)
    half = Fraction(n_games, 2)
    return heavy, 1 + (half - n) / half


# --- section 5: Ci ------------------------------------------------------------------------

def distances(data: dict[str, Any]) -> dict[str, int]:
    """stage id -> distance number."""
    stages = data["stages"]
    out: dict[str, int] = {}
    if data["rules"] == "fiim2018":
        # qualification and semifinal together; each final its own
        number = 0
        for st in stages:
            if st["kind"] in ("qualification", "semifinal"):
                out[st["id"]] = 0
            else:
                number += 1
                out[st["id"]] = number
        return out
    number = -1
    previous: int | None = None
    for st in stages:
        people = {s["player"] for g in data["games"] if g["stage"] == st["id"] for s in g["seats"]}
        if not people:
            # Assumption (spec silent): a stage nobody has played in yet takes no part in the
            # distances; its number of participants is unknown, not 0 (FSM 8.6.5 speaks of the
            # number of participants changing at a stage of the tournament).
            out[st["id"]] = max(number, 0)
            continue
        if previous is None or len(people) != previous:
            number += 1
        previous = len(people)
        out[st["id"]] = number
    return out


def stage_pays(rules: str, stage: dict[str, Any]) -> bool:
    if stage.get("compensation") is not None:
        return bool(stage["compensation"])
    if rules == "fiim2018":
        return stage["kind"] in ("qualification", "semifinal")
    return True


def compensation_values(data: dict[str, Any],
                        per_game: list[dict[str, dict[str, Any]]]) -> dict[tuple[str, int], Fraction]:
    """(player, distance) -> Ci."""
    dist = distances(data)
    played: dict[tuple[str, int], int] = defaultdict(int)
    times: dict[tuple[str, int], int] = defaultdict(int)
    for game, points in zip(data["games"], per_game, strict=True):
        d = dist[game["stage"]]
        for player, row in points.items():
            played[(player, d)] += 1
            if row["fk_red"]:
                times[(player, d)] += 1
    out: dict[tuple[str, int], Fraction] = {}
    for key, games in played.items():
        i = times[key]
        b = round(Fraction(4, 10) * games)  # never .5
        if data["rules"] == "fsm":
            b = max(b, 4)
        if i == 0:
            out[key] = F(0)  # never paid; B may be 0 (fiim2018, one or two games)
        else:
            out[key] = F("0.4") if i > b else F("0.4") * i / b
    return out


# --- section 6: standings -----------------------------------------------------------------

def reference_standings(data: dict[str, Any], stages: list[str] | None = None) -> list[dict[str, Any]]:
    rules = data["rules"]
    scope = set(stages) if stages else {st["id"] for st in data["stages"]}
    stage_by_id = {st["id"]: st for st in data["stages"]}
    dist = distances(data)
    per_game = [game_points(rules, g) for g in data["games"]]
    heavy, k = difficulty(data)
    ci = compensation_values(data, per_game)

    rows: dict[str, dict[str, Any]] = {}
    for game, points in zip(data["games"], per_game, strict=True):
        if game["stage"] not in scope:
            continue
        for player, p in points.items():
            r = rows.setdefault(player, {
                "player": player, "games": 0, "wins": 0, "wins_don_sheriff": 0, "first_killed": 0,
                "main": F(0), "extra": F(0), "best_move": F(0), "compensation": F(0),
                "penalties": F(0),
            })
            r["games"] += 1
            if p["won"]:
                r["wins"] += 1
                if p["role"] in ("don", "sheriff"):
                    r["wins_don_sheriff"] += 1
                r["main"] += k if game["result"] == heavy else F(1)
            if p["first_killed"]:
                r["first_killed"] += 1
            if p["fk_red"] and p["ci_paid"] and stage_pays(rules, stage_by_id[game["stage"]]):
                c = ci[(player, dist[game["stage"]])]
                pay = F(0)
                if rules == "fiim2018":
                    if game["result"] == "black":
                        pay = c
                elif p["blacks_named"] >= 1:
                    if game["result"] == "black":
                        pay = c
                    elif game["result"] == "red":
                        pay = c / 2
                r["compensation"] += pay
                r["main"] += pay
            r["extra"] += p["extra"]
            r["best_move"] += p["best_move"]
            r["penalties"] += p["penalties"]
    for r in rows.values():
        r["total"] = r["main"] + r["extra"]

    def key(r: dict[str, Any]) -> tuple[Any, ...]:
        return (r["total"], r["extra"], r["wins"], r["wins_don_sheriff"], r["first_killed"])

    ordered = sorted(rows.values(), key=key, reverse=True)
    lots = list(data.get("lots") or [])
    result: list[dict[str, Any]] = []
    start = 0
    while start < len(ordered):
        end = start
        while end < len(ordered) and key(ordered[end]) == key(ordered[start]):
            end += 1
        group = ordered[start:end]
        if len(group) == 1:
            result.append({**group[0], "place": start + 1, "lot_needed": False})
        elif all(r["player"] in lots for r in group):
            group.sort(key=lambda r: lots.index(r["player"]))
            for n, r in enumerate(group):
                result.append({**r, "place": start + 1 + n, "lot_needed": False})
        else:
            for r in sorted(group, key=lambda r: r["player"]):
                result.append({**r, "place": start + 1, "lot_needed": True})
        start = end
    return result
