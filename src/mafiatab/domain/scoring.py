"""One game -> every player's points, each part with the clause that gave it.

The result of a game is final here except for what depends on the whole tournament: the
coefficient K (FIIM 8.7) multiplies a win later, and the compensation Ci (FIIM 8.6,
FSM 8.6) is paid later; this module records the facts they need (`heavy` wins are decided
by the standings, `ci_share` says what part of Ci the game pays).

All amounts are integers in hundredths.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from typing import Any

from mafiatab.domain.points import h
from mafiatab.domain.protocol import (
    BLACK_ROLES,
    DRAW,
    RED_ROLES,
    ZERO_TAGS,
    Game,
    Penalty,
    PuProtocol,
    SeatScores,
)
from mafiatab.rules.profile import RuleProfile

#: Part kinds. "main" kinds are main points; the others are extra points (scoring.md 3).
WIN = "win"
COMPENSATION = "compensation"
BEST_MOVE = "best_move"
EXTRA = "extra"
PU_EXTRA = "pu_extra"
WILL = "will"
PROTOCOL = "protocol"
WILL_PROTOCOL = "will_protocol"
PU_PROTOCOL = "pu_protocol"
PENALTY = "penalty"
MAIN_KINDS = frozenset({WIN, COMPENSATION})
#: result -> the roles of the winning team
_WINNING_ROLES = {"red": RED_ROLES, "black": BLACK_ROLES}
_NOBODY: frozenset[str] = frozenset()


@dataclass(slots=True)
class Part:
    """One part of a player's points in one game, and why."""

    kind: str
    points: int  # hundredths (Ci and K are applied by the standings)
    clause: str
    detail: dict[str, Any] = field(default_factory=dict)


@dataclass(slots=True)
class SeatResult:
    """A player's points and facts in one game (the per-seat view of a `GameScore`)."""

    seat: int
    player: str
    role: str
    won: bool
    parts: list[Part]
    #: died on the first night (tie-breaker 4): the first killed, unless a broken table
    first_night_death: bool = False
    #: first killed on the first night as red or sheriff: counts in Ci's i
    ci_counted: bool = False
    #: the share of Ci this game pays the player (0: none)
    ci_share: Fraction = Fraction(0)


@dataclass(slots=True)
class GameScore:
    """One game's points, held compactly: most seats have only a win or nothing, so the
    win is described once (`win_roles`, `win`) and only seats with more get a list.
    `seat_results()` gives the per-seat view."""

    game: Game
    win_roles: frozenset[str]
    win: Part
    #: seat -> its parts other than the win (best move, extras, penalties, ...)
    parts: dict[int, list[Part]]
    first_killed_player: str | None = None
    first_night_death: bool = False
    ci_counted: bool = False
    ci_share: Fraction = Fraction(0)
    #: FSM 8.6.6: on a broken table, the player shot in the first shooting night; he
    #: died on the first night and counts in Ci's i (when red), but is paid no Ci
    night_killed_player: str | None = None
    night_killed_ci_counted: bool = False

    def seat_results(self) -> list[SeatResult]:
        out = []
        fk = self.game.first_killed
        for s in self.game.seats:
            won = s.role in self.win_roles
            parts = ([self.win] if won else []) + self.parts.get(s.seat, [])
            res = SeatResult(s.seat, s.player, s.role, won, parts)
            if s.seat == fk:
                res.first_night_death = self.first_night_death
                res.ci_counted = self.ci_counted
                res.ci_share = self.ci_share
            elif self.night_killed_player is not None and s.seat == self.game.night_killed:
                res.first_night_death = True
                res.ci_counted = self.night_killed_ci_counted
            out.append(res)
        return out


@lru_cache(maxsize=512)
def _short(clause: str) -> str:
    """The reference alone: "FSM 8.4.3" of "FSM 8.4.3 (Reading: ...)"."""
    return clause.split(" (", 1)[0]


@lru_cache(maxsize=64)
def _share(num: int, den: int) -> Fraction:
    """The share of Ci a game pays, one Fraction per value (Fractions are immutable)."""
    return Fraction(num, den)


@lru_cache(maxsize=1024)
def _plain_part(kind: str, points: int, clause: str) -> Part:
    """A part with no detail (a judge's extra, a will, ...), one object per kind, value
    and clause: parts are never changed, and the same few values recur thousands of
    times in a tournament."""
    return Part(kind, points, _short(clause))


def penalty_size(pen: Penalty, p: RuleProfile) -> tuple[int | None, str]:
    """The size the rules give a penalty (hundredths) and the clause that sets it; None
    when the judge sets it (a game action on an open scale, FSM 8.5.1). The one place
    where scoring and validation learn what a penalty weighs."""
    kind = pen.kind
    if kind == "disqualification":
        r = p.penalty_disqualification_critical if pen.critical else p.penalty_disqualification
        return r.value, r.clause
    if kind == "team_loss":
        return p.penalty_team_loss.value, p.penalty_team_loss.clause
    if kind == "game_action":
        by_rule = p.game_action_fixed_by_rule.value
        if pen.rule is not None and pen.rule in by_rule:
            return by_rule[pen.rule], f"{p.federation} {pen.rule}"
        fixed = p.penalty_game_action_fixed
        if pen.rule is not None:
            return fixed.value, f"{p.federation} {pen.rule}"
        return fixed.value, fixed.clause
    return p.penalty_revealed_sheriff_no_will.value, p.penalty_revealed_sheriff_no_will.clause


def score_pu_protocol(pp: PuProtocol, roles: dict[int, str], fk_role: str, draw: bool,
                      p: RuleProfile) -> tuple[int, list[dict[str, Any]]]:
    """The first killed's written protocol (FSM 8.3.9): its total and each entry's value."""
    items: list[dict[str, Any]] = []
    total = 0
    pct = p.pu_protocol_near_reliable_percent.value
    if pp.aside:
        # FSM 8.3.9.12: one black outside the versions scores, "the last correctly written"
        # (which one is a profile setting); reliable, from-version and checked ones take
        # no place, as everywhere in 8.3.9
        counted_blacks = [i for i, e in enumerate(pp.entries)
                          if e.colour == "black" and e.tag not in ZERO_TAGS
                          and roles.get(e.seat, "") in BLACK_ROLES]
        scoring_black = None
        if counted_blacks:
            first = p.pu_protocol_aside_black_entry.value == "first"
            scoring_black = counted_blacks[0] if first else counted_blacks[-1]
        for index, e in enumerate(pp.entries):
            correct = (e.colour == "black") == (roles.get(e.seat, "") in BLACK_ROLES)
            if not correct:
                v = p.pu_protocol_aside_error.value
            elif e.tag in ZERO_TAGS:
                v = 0
            elif e.colour == "red":
                v = p.pu_protocol_aside_red.value
            elif index == scoring_black:
                v = p.pu_protocol_aside_black.value
            else:
                v = 0
            if correct and e.tag == "near_reliable":
                v = v * pct // 100
            total += v
            items.append({"seat": e.seat, "colour": e.colour, "tag": e.tag,
                          "correct": correct, "points": v})
    else:
        black_ok = black_bad = red_ok = red_bad = red_sum = 0
        black_correct = p.pu_protocol_black_correct.value
        black_wrong = p.pu_protocol_black_wrong.value
        red_errors = p.pu_protocol_red_errors.value
        # FSM 8.3.9.8: after a near-reliable entry the next correct entry that scores,
        # whatever its colour, is scored as the first of its colour
        next_as_first = False
        near_resets_both = p.pu_protocol_near_reliable_next_as_first.value
        for e in pp.entries:
            correct = (e.colour == "black") == (roles.get(e.seat, "") in BLACK_ROLES)
            if e.colour == "black":
                if not correct:
                    v = black_wrong[min(black_bad, len(black_wrong) - 1)]
                    black_bad += 1
                elif e.tag in ZERO_TAGS:
                    v = 0
                else:
                    if next_as_first:
                        black_ok, next_as_first = 0, False
                    v = black_correct[min(black_ok, len(black_correct) - 1)]
                    if e.tag == "near_reliable":
                        v = v * pct // 100
                        black_ok = 0
                        next_as_first = near_resets_both
                    else:
                        black_ok += 1
            else:
                if not correct:
                    # one error -0.2, two or more -0.4 in all (8.3.9.4)
                    if red_bad == 0:
                        v = red_errors[0]
                    elif red_bad == 1:
                        v = red_errors[1] - red_errors[0]
                    else:
                        v = 0
                    red_bad += 1
                elif e.tag in ZERO_TAGS:
                    v = 0
                else:
                    if next_as_first:
                        red_ok, next_as_first = 0, False
                    v = p.pu_protocol_red_first.value if red_ok == 0 else (
                        p.pu_protocol_red_next.value)
                    if e.tag == "near_reliable":
                        v = v * pct // 100
                        red_ok = 0
                        next_as_first = near_resets_both
                    else:
                        red_ok += 1
                    v = max(0, min(v, p.pu_protocol_red_cap.value - red_sum))
                    red_sum += v
            total += v
            items.append({"seat": e.seat, "colour": e.colour, "tag": e.tag,
                          "correct": correct, "points": v})
    if pp.version is not None:
        right, wrong = p.pu_protocol_versions.value.get(pp.version.situation, (0, 0))
        v = right if pp.version.right else wrong
        total += v
        items.append({"version": pp.version.situation, "right": pp.version.right, "points": v})
    if fk_role not in p.pu_protocol_scored_roles.value:
        return 0, [{"not_scored_role": fk_role, "points": 0}]
    if draw and total > 0 and p.no_positive_extra_on_draw.value:
        items.append({"dropped_on_draw": total, "points": -total})
        return 0, items
    return total, items


def _seat_parts(sc: SeatScores, seat: int, role: str, game: Game, roles: dict[int, str],
                p: RuleProfile, parts: list[Part]) -> None:
    """The judge's values of one seat, as parts (validated protocols only)."""
    if sc.extra:
        extra = h(sc.extra)
        scale = p.extra_positive_scale if extra > 0 else p.extra_negative_scale
        parts.append(_plain_part(EXTRA, extra,
                                 scale.clause if scale.value else p.extra_limits.clause))
    if (sc.pu_extra is None and sc.will is None and sc.protocol is None
            and sc.pu_protocol is None and not sc.penalties):
        return  # the usual seat: a judge's extra alone
    if sc.pu_extra:
        parts.append(_plain_part(PU_EXTRA, h(sc.pu_extra), p.pu_extra_scale.clause))
    will = h(sc.will) if sc.will is not None else None
    proto = h(sc.protocol) if sc.protocol is not None else None
    pu_total: int | None = None
    pu_items: list[dict[str, Any]] = []
    if sc.pu_protocol is not None and seat == game.first_killed:
        pu_total, pu_items = score_pu_protocol(sc.pu_protocol, roles, role,
                                               game.result == DRAW, p)
    larger_counts = sc.same_as_will and will is not None and p.same_as_will_larger_counts.value
    if larger_counts and will is not None and proto is not None:
        larger = max(will, proto)
        if larger:
            parts.append(Part(WILL_PROTOCOL, larger, _short(p.same_as_will_larger_counts.clause),
                              {"will": will, "protocol": proto}))
        will = proto = None
    elif larger_counts and will is not None and pu_total is not None:
        # FSM 8.3.8.11 for the first killed: his will against his protocol's total
        parts.append(Part(WILL_PROTOCOL, max(will, pu_total),
                          _short(p.same_as_will_larger_counts.clause),
                          {"will": will, "protocol": pu_total, "items": pu_items}))
        will = pu_total = None
    if will:
        parts.append(_plain_part(WILL, will, p.will_scale.clause))
    if proto:
        parts.append(_plain_part(PROTOCOL, proto, p.protocol_scale.clause))
    if pu_total is not None:
        parts.append(Part(PU_PROTOCOL, pu_total, _short(p.has_first_killed_protocol.clause),
                          {"items": pu_items}))
    for pen in sc.penalties:
        fixed, clause = penalty_size(pen, p)
        amount = fixed if fixed is not None else (h(pen.points) if pen.points is not None else 0)
        parts.append(Part(PENALTY, amount, _short(clause),
                          {"kind": pen.kind, "critical": pen.critical, "note": pen.note}))


def score_game(game: Game, p: RuleProfile, pays_ci: bool = True) -> GameScore:
    """Every player's points in one validated game.

    `pays_ci`: whether the game's stage pays compensation (scoring.md 5).
    """
    result = game.result
    draw = result == DRAW
    roles = {s.seat: s.role for s in game.seats}
    fk = game.first_killed
    broken = game.broken_table and p.has_broken_table.value
    win_points = p.win_points.value
    win_clause = _short(p.win_points.clause)
    scores = game.scores

    # the best move (FIIM 8.3.1, FSM 8.3.5) and what Ci needs from it
    bm_blacks = 0
    if fk is not None and game.best_move:
        bm_blacks = len([n for n in game.best_move if roles.get(n, "") in BLACK_ROLES])

    win = _plain_part(WIN, win_points, win_clause)  # shared: parts are never changed
    gs = GameScore(game, _WINNING_ROLES.get(result, _NOBODY), win, {})
    if fk is not None and fk in roles:
        role = roles[fk]
        parts: list[Part] = []
        gs.first_killed_player = game.player_at(fk)
        red_role = role in p.best_move_scored_roles.value
        gs.first_night_death = not broken
        if game.best_move:
            pts = p.best_move_points.value[min(bm_blacks, 3)] if red_role else 0
            detail: dict[str, Any] = {"named": list(game.best_move), "blacks": bm_blacks}
            if not red_role:
                detail["not_scored_role"] = role
            if draw and pts > 0 and not p.best_move_on_draw.value:
                detail["dropped_on_draw"] = pts
                pts = 0
            parts.append(Part(BEST_MOVE, pts, _short(
                p.best_move_on_draw.clause if "dropped_on_draw" in detail
                else p.best_move_points.clause), detail))
            gs.parts[fk] = parts
        nk = game.night_killed if broken else None
        if nk is not None and nk in roles and nk != fk:
            gs.night_killed_player = game.player_at(nk)
            gs.night_killed_ci_counted = roles[nk] in RED_ROLES
        if role in RED_ROLES and not broken:
            gs.ci_counted = True
            if pays_ci and not draw:
                if p.comp_requires_black_in_best_move.value and bm_blacks == 0:
                    pass
                elif result == "black":
                    gs.ci_share = _share(1, 1)
                else:
                    gs.ci_share = _share(*p.comp_share_on_red_win.value)
    for seat, sc in scores.items():
        if seat in roles:
            seat_parts = gs.parts.get(seat)
            if seat_parts is None:
                seat_parts = gs.parts[seat] = []
            _seat_parts(sc, seat, roles[seat], game, roles, p, seat_parts)
    return gs
