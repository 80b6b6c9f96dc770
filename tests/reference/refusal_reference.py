"""Which tournament files must be refused, written straight from shared/spec/scoring.md
section 8 (with the limits of sections 1-4 it points to) and tournament-format.md.

Independent of the project's validation code on purpose. The input is a parsed format-1
tournament (numbers as `int`, `Decimal` or `float`); the output lists every problem that
section 8 names, as (short reason, game id, seat). Seat is given where the problem belongs
to one player, else None. Readings taken where the text is silent are marked READING.
"""

from __future__ import annotations

from collections import Counter
from decimal import Decimal
from typing import Any

Refusal = tuple[str, str | None, int | None]

RED_TEAM = ("red", "sheriff")
BLACK_TEAM = ("black", "don")
ROLE_COUNTS = {"red": 6, "sheriff": 1, "black": 2, "don": 1}
RESULTS = ("red", "black", "draw")


def D(value: Any) -> Decimal:
    """An exact number from a parsed JSON value (floats through their shortest repr)."""
    if isinstance(value, Decimal):
        return value
    if isinstance(value, float):
        return Decimal(repr(value))
    return Decimal(value)


def _set(*values: str) -> frozenset[Decimal]:
    return frozenset(Decimal(v) for v in values)


# --- FSM scales (scoring.md 3.2) ------------------------------------------------------------
# 8.4.3 READING: "from +0.2 to +1.0, +0.3 allowed" = steps of 0.2 with +0.3 added
FSM_POSITIVE = _set("0.2", "0.3", "0.4", "0.6", "0.8", "1.0")
FSM_POSITIVE_APPROVAL = _set("1.2", "1.5")
FSM_NEGATIVE = _set("-0.2", "-0.3", "-0.4", "-0.6", "-0.8", "-1.0")  # 8.4.4
FSM_NEGATIVE_APPROVAL = _set("-1.2", "-1.5")
FSM_PU_EXTRA = frozenset(v for v in FSM_POSITIVE if v <= Decimal("0.8"))  # 8.3.9.1
FSM_WILL = _set("-0.4", "-0.3", "-0.2", "0", "0.2", "0.3", "0.4")  # 8.3.8.3
FSM_WILL_APPROVAL_UNLESS_FK = _set("0.3", "0.4")
FSM_PROTOCOL = _set("-0.6", "-0.5", "-0.4", "0", "0.4", "0.5", "0.6")  # 8.3.8.12
FSM_PROTOCOL_APPROVAL = _set("0.5", "0.6")
FSM_LIMIT_SUM = Decimal("4.0")  # 8.4.1
FSM_LIMIT_PLAYERS = 7

# --- FIIM (scoring.md 3.2) ------------------------------------------------------------------
FIIM_WINNER_MAX = Decimal("0.7")  # 8.4.3
FIIM_WINNER_APPROVAL_FROM = Decimal("0.6")  # 8.4.3: 0.6 or 0.7 only with approval
FIIM_LOSER_MAX = Decimal("0.4")  # 8.4.4
FIIM_LIMIT_SUM = Decimal("1.0")  # 8.4.2
FIIM_LIMIT_PLAYERS = 3  # 8.4.1
FIIM_GAME_ACTION = Decimal("-0.4")  # 8.5
# 3.2: the closed list 8.5.1-8.5.4, on whom and which result
FIIM_CASES: dict[str, tuple[tuple[str, ...], str | None]] = {
    "8.5.1": (("red", "sheriff"), "red"),  # the red team lost
    "8.5.2": (("red",), None),  # any result
    "8.5.3": (("red", "sheriff"), "red"),
    "8.5.4": (("black", "don"), "black"),  # the black team lost
}
FSM_UNPLAYABILITY = Decimal("-1.0")  # section 4: 8.5.9 is -1.0 exactly
FSM_ASIDE_WILL = _set("0.2", "0.3", "-0.2", "0")  # 8.3.9.13

FSM_ONLY_SCORE_FIELDS = ("pu_extra", "pu_protocol", "will", "protocol", "same_as_will")
ZERO = Decimal(0)


def _team(role: str) -> str:
    return "red" if role in RED_TEAM else "black"


def _lost(role: str, result: str) -> bool:
    """The player's team lost (a draw is no loss)."""
    return result in ("red", "black") and result != _team(role)


def _won(role: str, result: str) -> bool:
    return result == _team(role)


def _present(v: Any) -> bool:
    return v is not None and v is not False


def reference_refusals(data: dict[str, Any]) -> list[Refusal]:
    """Every problem that refuses the file, per scoring.md section 8."""
    rules = data.get("rules")
    out: list[Refusal] = []
    players = {p.get("id") for p in data.get("players", [])}
    stages = {s.get("id") for s in data.get("stages", [])}
    for game in data.get("games", []):
        out.extend(_game_refusals(game, rules, players, stages))
    return out


def _game_refusals(game: dict[str, Any], rules: Any, players: set[Any], stages: set[Any]
                   ) -> list[Refusal]:
    gid = game.get("id")
    out: list[Refusal] = []

    def add(reason: str, seat: int | None = None) -> None:
        out.append((reason, gid, seat))

    # --- section 1: seats, roles, players, stage, result -------------------------------------
    if game.get("stage") not in stages:
        add("unknown_stage")
    seats = game.get("seats", [])
    if len(seats) != 10:
        add("seat_count")
    numbers = [s.get("seat") for s in seats]
    if any(n not in range(1, 11) for n in numbers):
        add("seat_number")
    if any(c > 1 for c in Counter(numbers).values()):
        add("seat_twice")
    ids = [s.get("player") for s in seats]
    if any(i not in players for i in ids):
        add("unknown_player")
    if any(c > 1 for i, c in Counter(ids).items() if i in players):
        add("player_twice")
    if Counter(s.get("role") for s in seats) != Counter(ROLE_COUNTS):
        add("role_count")
    result = game.get("result")
    if result not in RESULTS:
        add("bad_result")

    role_of = {s.get("seat"): s.get("role") for s in seats}
    # with seats missing or repeated a seat's role is unknown: the checks that need it wait
    seats_known = sorted(numbers) == list(range(1, 11))
    fk = game.get("first_killed")

    # --- best move ----------------------------------------------------------------------------
    bm = game.get("best_move") or []
    if bm:
        if len(bm) > 3:
            add("bm_too_many")
        if len(set(bm)) != len(bm):
            add("bm_repeat")
        if fk is not None and fk in bm:
            add("bm_own_seat")
        if fk is None:
            add("bm_without_fk")
        # FSM 8.3.6: no best move when two or more left by the first day's vote
        if rules == "fsm" and (game.get("day1_vote_left") or 0) >= 2:
            add("bm_after_vote")

    if rules == "fiim2018" and _present(game.get("broken_table")):
        add("fsm_only")
    # FSM 8.6.6: night_killed only with broken_table, not the first killed, a seat
    night_killed = game.get("night_killed")
    if night_killed is not None and (
        not game.get("broken_table") or night_killed == fk or night_killed not in range(1, 11)
    ):
        add("night_killed")
    # 3.2: FIIM has no approval of the limits
    if rules == "fiim2018" and game.get("limits_approved") is True:
        add("limits_approval")

    scores: dict[str, Any] = game.get("scores") or {}
    limits_approved = bool(game.get("limits_approved"))
    given: dict[int, Decimal] = {}  # positive extra points the judge gave, per seat (limits)

    for key, sc in scores.items():
        seat = int(key)
        role = role_of.get(seat, "red")
        approved = bool(sc.get("approved"))
        penalties = sc.get("penalties") or []
        kinds = [p.get("kind") for p in penalties]
        # removed from the table: a disqualification, or a team loss (FIIM 6.8 "the player is
        # disqualified and his team loses"; FSM 8.5.8: ППК instead of the disqualification)
        removed = "disqualification" in kinds or "team_loss" in kinds

        # --- penalties ----------------------------------------------------------------------
        if "team_loss" in kinds and seats_known and result in RESULTS and not _lost(role, result):
            add("team_loss_not_lost", seat)
        if "team_loss" in kinds and "disqualification" in kinds:
            add("team_loss_and_dq", seat)
        # section 4: a player leaves a table once; 8.3.9.14 once
        if kinds.count("team_loss") > 1 or kinds.count("disqualification") > 1:
            add("removal_twice", seat)
        if rules == "fsm" and "revealed_sheriff_no_will" in kinds:
            if kinds.count("revealed_sheriff_no_will") > 1:
                add("revealed_twice", seat)
            if seat != fk:
                add("revealed_not_fk", seat)
            elif sc.get("will") is not None or sc.get("pu_protocol") is not None:
                add("revealed_with_will", seat)
        for p in penalties:
            if p.get("kind") == "game_action":
                pts = p.get("points")
                if rules == "fiim2018":
                    case = FIIM_CASES.get(p.get("rule"))  # type: ignore[arg-type]
                    if case is None:
                        add("game_action_case", seat)
                    elif seats_known:
                        case_roles, must_have_lost = case
                        if role not in case_roles:
                            add("game_action_case_role", seat)
                        if must_have_lost is not None and result in RESULTS and (
                            result in (must_have_lost, "draw")
                        ):
                            add("game_action_case_result", seat)
                if rules == "fsm":
                    if pts is None:
                        add("game_action_points", seat)
                    elif p.get("rule") == "8.5.9":
                        if D(pts) != FSM_UNPLAYABILITY:
                            add("unplayability", seat)
                    elif D(pts) in FSM_NEGATIVE_APPROVAL:
                        if not approved:
                            add("needs_approval", seat)
                    elif D(pts) not in FSM_NEGATIVE:
                        add("off_scale", seat)
                elif pts is not None and D(pts) != FIIM_GAME_ACTION:
                    add("off_scale", seat)
            elif p.get("kind") == "revealed_sheriff_no_will" and rules == "fiim2018":
                add("fsm_only", seat)

        extra = sc.get("extra")
        if rules == "fiim2018":
            for f in FSM_ONLY_SCORE_FIELDS:
                if _present(sc.get(f)):
                    add("fsm_only", seat)
            if extra is not None and D(extra) < 0:
                add("negative_extra", seat)  # 3.2: FIIM 9.9
            if extra is not None and D(extra) > 0:
                x = D(extra)
                given[seat] = x
                if result == "draw":
                    add("extra_on_draw", seat)  # FIIM 8.4.6
                elif not seats_known or result not in RESULTS:
                    pass
                elif _won(role, result or ""):
                    if x > FIIM_WINNER_MAX:
                        add("off_scale", seat)
                    elif x >= FIIM_WINNER_APPROVAL_FROM and not approved:
                        add("needs_approval", seat)
                elif x > FIIM_LOSER_MAX:
                    add("loser_max", seat)  # FIIM 8.4.4
            continue

        # --- fsm --------------------------------------------------------------------------
        positives: list[Decimal] = []
        if extra is not None:
            x = D(extra)
            if x in FSM_POSITIVE_APPROVAL or x in FSM_NEGATIVE_APPROVAL:
                if not approved:
                    add("needs_approval", seat)
            elif x not in FSM_POSITIVE and x not in FSM_NEGATIVE and x != ZERO:
                add("off_scale", seat)  # READING: 0 is "no extra", not a value off the scale
            if x > 0:
                positives.append(x)
                if seat == fk:
                    add("extra_on_fk", seat)  # FSM 8.3.9.1
        pu_extra = sc.get("pu_extra")
        if pu_extra is not None:
            x = D(pu_extra)
            if x not in FSM_PU_EXTRA and x != ZERO:
                add("off_scale", seat)
            if x > 0:
                positives.append(x)
        if (pu_extra is not None or sc.get("pu_protocol") is not None) and seat != fk:
            add("pu_not_fk", seat)
        pu_protocol = sc.get("pu_protocol")
        will, protocol = sc.get("will"), sc.get("protocol")
        if pu_protocol is not None:
            entries = pu_protocol.get("entries", [])
            blacks = [e for e in entries if e.get("colour") == "black"]
            if len(blacks) > 3:
                add("black_entries", seat)
            # 8.3.9.9: checked only on a red entry of a first killed who is the sheriff
            if any(e.get("tag") == "checked" and (e.get("colour") != "red" or role != "sheriff")
                   for e in entries):
                add("checked", seat)
            if pu_protocol.get("aside") and will is not None:
                if len(entries) >= 4:
                    add("aside_will", seat)  # 8.3.9.11
                if D(will) in FSM_WILL and D(will) not in FSM_ASIDE_WILL:
                    add("aside_will_value", seat)  # 8.3.9.13
        if will is not None:
            w = D(will)
            if w not in FSM_WILL:
                add("off_scale", seat)
            elif w in FSM_WILL_APPROVAL_UNLESS_FK and seat != fk and not approved:
                add("needs_approval", seat)
        if protocol is not None:
            p_ = D(protocol)
            if p_ not in FSM_PROTOCOL:
                add("off_scale", seat)
            elif p_ in FSM_PROTOCOL_APPROVAL and not approved:
                add("needs_approval", seat)
        evaluations = [D(v) for v in (will, protocol) if v is not None]
        if sc.get("same_as_will") and evaluations:
            evaluations = [max(evaluations)]  # 8.3.8.11: only the larger counts
        positives.extend(v for v in evaluations if v > 0)
        if positives:
            given[seat] = sum(positives, ZERO)
            if removed:
                add("extra_when_removed", seat)  # FSM 8.4.7
            if result == "draw":
                add("extra_on_draw", seat)  # FSM 8.4.8

    # --- the game's limits (FIIM 8.4.1-8.4.2, FSM 8.4.1) --------------------------------------
    if (not limits_approved or rules == "fiim2018") and rules in ("fsm", "fiim2018"):
        max_players = FSM_LIMIT_PLAYERS if rules == "fsm" else FIIM_LIMIT_PLAYERS
        max_sum = FSM_LIMIT_SUM if rules == "fsm" else FIIM_LIMIT_SUM
        if len(given) > max_players:
            add("limit_players")
        if sum(given.values(), ZERO) > max_sum:
            add("limit_sum")
    return out
