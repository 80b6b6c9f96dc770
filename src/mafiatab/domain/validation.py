"""The rule checks of a protocol (scoring.md section 8), for any source of protocols.

`validate_game` returns every problem of one game with its place and clause; nothing here
raises on a bad protocol, so that a judge sees all his mistakes at once. The numbers and
options come from the rule profile; the federation's name is never tested.
"""

from __future__ import annotations

from collections.abc import Collection
from collections.abc import Set as AbstractSet
from decimal import Decimal
from typing import Any

from mafiatab.domain.paper import check_paper
from mafiatab.domain.points import Points, hundredths_of
from mafiatab.domain.problems import Problem, Word
from mafiatab.domain.protocol import (
    DRAW,
    ENTRY_TAGS,
    PENALTY_KINDS,
    RESULTS,
    ROLE_COUNTS,
    ROLES,
    STAGE_KINDS,
    TEAM_OF,
    VERSION_SITUATIONS,
    Game,
    SeatScores,
    Tournament,
)
from mafiatab.domain.scoring import penalty_size
from mafiatab.domain.words import COLOUR, PENALTY, ROLE, ROLE_LETTER, STAGE_KIND, TAG, VERSION
from mafiatab.rules.profile import ExtraLimits, Ruled, RuleProfile

SECTION_1 = "scoring.md 1"
_SEAT_LIST = list(range(1, 11))
_ROLE_LIST = sorted(role for role, n in ROLE_COUNTS.items() for _ in range(n))
FORMAT = "mafiatab.tournament/1"
FORMAT_1 = "format 1"
#: the glossary's words for roles and teams, in the Russian of a refusal's text
ROLE_RU = {"red": "красный", "sheriff": "шериф", "black": "чёрный", "don": "дон"}


def role_choice(role: str) -> Word:
    """A role as a choice reads on the protocol: its letter and name («К — мирный»)."""
    letter, name = ROLE_LETTER[role], ROLE[role]
    return Word(role, f"{letter[0]} — {name[0]}", f"{letter[1]}: {name[1]}")


def choices(words: dict[str, tuple[str, str]], codes: Collection[str]) -> list[Word]:
    """The allowed codes of a field, each with its words (the API keeps the codes)."""
    return [Word(c, *words.get(c, (c, c))) for c in codes]

TEAM_RU = {"red": "красная", "black": "чёрная"}


def _choices(values: Collection[int]) -> list[Points]:
    """A scale's values (hundredths), shown as points in the reader's writing (+0,2)."""
    return [Points(v) for v in sorted(values)]


class _GameChecker:
    def __init__(self, game: Game, profile: RuleProfile) -> None:
        self.game = game
        self.p = profile
        self.problems: list[Problem] = []

    def add(self, code: str, seat: int | None, field: str | None,
            clause: str | Ruled[Any] | None, **params: object) -> None:
        if isinstance(clause, Ruled):
            clause = clause.clause
        self.problems.append(Problem(code, self.game.id, seat, field, clause, dict(params)))

    # --- section 1 -----------------------------------------------------------------
    def seats(self, players: AbstractSet[str]) -> dict[int, str]:
        g = self.game
        roles = {s.seat: s.role for s in g.seats}
        # the usual case in one glance: seats 1-10 once each, ten known players, the roles
        if (
            len(roles) == 10 and len(g.seats) == 10 and sorted(roles) == _SEAT_LIST
            and sorted(roles.values()) == _ROLE_LIST
            and len({s.player for s in g.seats} & players) == 10
            and g.result in RESULTS
        ):
            return roles
        return self.seats_in_detail(players)

    def seats_in_detail(self, players: AbstractSet[str]) -> dict[int, str]:
        """Every problem of the seats, one by one."""
        g = self.game
        roles: dict[int, str] = {}
        if len(g.seats) != 10:
            self.add("seat_count", None, "seats", SECTION_1, count=len(g.seats))
        seen_players: set[str] = set()
        counts = dict.fromkeys(ROLES, 0)
        for s in g.seats:
            if not 1 <= s.seat <= 10:
                self.add("seat_number", None, "seats", SECTION_1, value=s.seat)
            elif s.seat in roles:
                self.add("seat_twice", s.seat, "seats", SECTION_1, value=s.seat)
            if s.player not in players:
                self.add("unknown_player", s.seat, "player", FORMAT_1, value=s.player)
            elif s.player in seen_players:
                self.add("player_twice", s.seat, "player", SECTION_1, value=s.player)
            seen_players.add(s.player)
            if s.role in counts:
                counts[s.role] += 1
            else:
                self.add("bad_choice", s.seat, "role", SECTION_1, value=s.role,
                         choices=[role_choice(r) for r in ROLES])
            roles.setdefault(s.seat, s.role)
        for role, expected in ROLE_COUNTS.items():
            if counts[role] != expected:
                self.add("role_count", None, "seats", SECTION_1,
                         role=Word(role, ROLE_RU[role], role),
                         count=counts[role], expected=expected)
        if g.result not in RESULTS:
            self.add("bad_result", None, "result", SECTION_1, value=g.result)
        return roles

    def first_killed_and_best_move(self) -> None:
        g, p = self.game, self.p
        fk = g.first_killed
        if fk is not None and not 1 <= fk <= 10:
            self.add("fk_seat", None, "first_killed", SECTION_1, value=fk)
        bm = g.best_move
        if g.broken_table:
            if not p.has_broken_table.value:
                self.add("broken_table_not_in_rules", None, "broken_table",
                         p.has_broken_table)
            elif fk is None:
                self.add("broken_table_without_fk", None, "broken_table",
                         p.has_broken_table)
        nk = g.night_killed
        if nk is not None:
            if not g.broken_table:
                self.add("night_killed_without_broken_table", None, "night_killed",
                         p.has_broken_table)
            if not 1 <= nk <= 10:
                self.add("seat_number", None, "night_killed", p.has_broken_table, value=nk)
            elif nk == fk:
                self.add("night_killed_is_fk", None, "night_killed", p.has_broken_table,
                         value=nk)
        if not bm:
            return
        if fk is None and p.best_move_needs_first_killed.value:
            self.add("bm_without_fk", None, "best_move", p.best_move_needs_first_killed)
        if len(bm) > p.best_move_max_numbers.value:
            self.add("bm_too_many", None, "best_move", p.best_move_max_numbers,
                     max=p.best_move_max_numbers.value)
        seen: set[int] = set()
        for n in bm:
            if not 1 <= n <= 10:
                self.add("seat_number", None, "best_move", SECTION_1, value=n)
            elif n in seen and p.best_move_fixed_numbers.value:
                self.add("bm_repeat", None, "best_move", p.best_move_fixed_numbers, value=n)
            elif n == fk and p.best_move_fixed_numbers.value:
                self.add("bm_own_seat", None, "best_move", p.best_move_fixed_numbers, value=n)
            seen.add(n)
        limit = p.no_best_move_day1_leavers.value
        if limit is not None and g.day1_vote_left >= limit:
            self.add("bm_not_allowed", None, "best_move", p.no_best_move_day1_leavers,
                     count=g.day1_vote_left)

    # --- a seat's scores -------------------------------------------------------------
    def points(self, seat: int, field: str, value: Decimal | None) -> int | None:
        """A written value in hundredths; a problem when it has more than two places."""
        if value is None:
            return None
        hundredths = hundredths_of(value)
        if hundredths is None:
            self.add("points_format", seat, field, "scoring.md 7", value=str(value))
        return hundredths

    def scale(self, seat: int, field: str, value: int, allowed: Ruled[frozenset[int]],
              approval: Ruled[frozenset[int]], approved: bool) -> None:
        if value == 0 or value in allowed.value:
            return
        if value in approval.value:
            if not approved:
                self.add("needs_approval", seat, field, approval, value=Points(value))
            return
        self.add("off_scale", seat, field, allowed, value=Points(value),
                 choices=_choices(allowed.value | approval.value))

    def seat_scores(self, seat: int, sc: SeatScores, roles: dict[int, str]) -> int:
        """Checks one seat; returns the positive extra that counts toward the game's limit."""
        plain = self.plain_extra(seat, sc, roles)
        if plain is not None:
            return plain
        g, p = self.game, self.p
        role = roles.get(seat)
        team = TEAM_OF.get(role or "", None)
        draw = g.result == DRAW
        won = team is not None and g.result == team
        lost = team is not None and not won and not draw
        is_fk = seat == g.first_killed
        fsm_fields = p.has_first_killed_protocol
        removed = False
        kinds = [pen.kind for pen in sc.penalties] if sc.penalties else []
        if kinds:
            self.penalty_counts(seat, sc, kinds)
        for pen in sc.penalties:
            if pen.points is not None and pen.kind != "game_action":
                fixed_size, fixed_clause = penalty_size(pen, p)
                self.problems.append(Problem(
                    "penalty_points_ignored", g.id, seat, "penalties.points", fixed_clause,
                    {"value": Points(fixed_size or 0)}, warning=True))
            if pen.kind == "team_loss":
                removed = True
                if not lost:
                    self.add("team_loss_not_lost", seat, "penalties", p.penalty_team_loss)
            elif pen.kind == "disqualification":
                removed = True
                differs = (p.penalty_disqualification.value
                           != p.penalty_disqualification_critical.value)
                if differs and pen.critical is None:
                    self.add("dq_critical", seat, "penalties.critical",
                             p.penalty_disqualification_critical)
            elif pen.kind == "game_action":
                if p.game_action_cases.value:
                    self.game_action_case(seat, pen.rule, role)
                fixed, size_clause = penalty_size(pen, p)
                points = self.points(seat, "penalties.points", pen.points)
                if pen.points is not None and points is None:
                    pass  # reported: more than two places
                elif fixed is not None and (
                    points is not None or p.penalty_game_action_fixed.value is not None
                ):
                    if points is not None and points != fixed:
                        self.add("game_action_fixed", seat, "penalties.points",
                                 size_clause, value=Points(points), max=Points(fixed))
                elif points is None:
                    self.add("game_action_points", seat, "penalties.points",
                             p.penalty_game_action_fixed)
                elif points >= 0:
                    self.add("off_scale", seat, "penalties.points", p.extra_negative_scale,
                             value=Points(points),
                             choices=_choices(p.extra_negative_scale.value
                                              | p.extra_negative_approval.value))
                else:
                    self.scale(seat, "penalties.points", points, p.extra_negative_scale,
                               p.extra_negative_approval, sc.approved)
            elif pen.kind == "revealed_sheriff_no_will" and (
                p.penalty_revealed_sheriff_no_will.value is None
            ):
                self.add("fsm_only", seat, "penalties.kind",
                         p.penalty_revealed_sheriff_no_will)

        if not fsm_fields.value and (
            sc.pu_extra is not None or sc.will is not None or sc.protocol is not None
            or sc.pu_protocol is not None or sc.same_as_will
        ):
            for name in ("pu_extra", "will", "protocol", "pu_protocol"):
                if getattr(sc, name) is not None:
                    self.add("fsm_only", seat, name, fsm_fields)
            if sc.same_as_will:
                self.add("fsm_only", seat, "same_as_will", fsm_fields)

        counted = 0
        extra = self.points(seat, "extra", sc.extra) if sc.extra is not None else None
        pu_extra = self.points(seat, "pu_extra", sc.pu_extra) if sc.pu_extra is not None else None
        will = self.points(seat, "will", sc.will) if sc.will is not None else None
        proto = self.points(seat, "protocol", sc.protocol) if sc.protocol is not None else None
        if extra is not None and extra < 0 and not p.extra_negative_allowed.value:
            self.add("negative_extra", seat, "extra", p.extra_negative_allowed,
                     value=Points(extra))
        if extra is not None and extra != 0:
            if p.extra_limits.value is ExtraLimits.BY_SCALE:
                if extra > 0 and is_fk and fsm_fields.value:
                    self.add("extra_on_fk", seat, "extra", p.pu_extra_scale)
                if extra > 0:
                    self.scale(seat, "extra", extra, p.extra_positive_scale,
                               p.extra_positive_approval, sc.approved)
                else:
                    self.scale(seat, "extra", extra, p.extra_negative_scale,
                               p.extra_negative_approval, sc.approved)
            elif extra > 0:  # BY_TEAM
                if won:
                    if extra > p.extra_max_winner.value:
                        self.add("extra_winner_max", seat, "extra", p.extra_max_winner,
                                 value=Points(extra), max=Points(p.extra_max_winner.value))
                    elif extra >= p.extra_approval_from.value and not sc.approved:
                        self.add("needs_approval", seat, "extra", p.extra_approval_from,
                                 value=Points(extra))
                elif lost and extra > p.extra_max_loser.value:
                    self.add("extra_loser_max", seat, "extra", p.extra_max_loser,
                             value=Points(extra))
            if extra > 0:
                counted += extra
                self.positive_allowed(seat, "extra", extra, draw, removed)

        if pu_extra is not None and fsm_fields.value:
            if not is_fk:
                self.add("pu_field_not_fk", seat, "pu_extra", p.pu_extra_scale,
                         what="pu_extra", fk=g.first_killed or "—")
            if pu_extra != 0 and pu_extra not in p.pu_extra_scale.value:
                self.add("off_scale", seat, "pu_extra", p.pu_extra_scale,
                         value=Points(pu_extra), choices=_choices(p.pu_extra_scale.value))
            if pu_extra > 0:
                counted += pu_extra
                self.positive_allowed(seat, "pu_extra", pu_extra, draw, removed)

        if fsm_fields.value:
            if will is not None and will != 0 and not (
                will in p.will_scale.value and (is_fk or will not in p.will_approval.value)
            ):
                approval = p.will_approval if not is_fk else Ruled(frozenset(), "")
                allowed = p.will_scale.value - approval.value
                self.scale(seat, "will", will, Ruled(allowed, p.will_scale.clause), approval,
                           sc.approved)
            if will is not None and will > 0:
                self.positive_allowed(seat, "will", will, draw, removed)
            if proto is not None:
                if is_fk:
                    self.add("protocol_on_fk", seat, "protocol", p.protocol_scale)
                if proto != 0 and (proto not in p.protocol_scale.value
                                   or proto in p.protocol_approval.value):
                    allowed = p.protocol_scale.value - p.protocol_approval.value
                    self.scale(seat, "protocol", proto, Ruled(allowed, p.protocol_scale.clause),
                               p.protocol_approval, sc.approved)
                if proto > 0:
                    self.positive_allowed(seat, "protocol", proto, draw, removed)
            # the other half of same_as_will: a protocol, or the first killed's pu_protocol
            other_given = proto is not None or (is_fk and sc.pu_protocol is not None)
            if sc.same_as_will and (will is None or not other_given):
                self.problems.append(Problem("same_as_will_alone", g.id, seat, "same_as_will",
                                             p.same_as_will_larger_counts.clause, {},
                                             warning=True))
            if (will is not None or proto is not None) and p.limit_counts_will_and_protocol.value:
                counted += _will_protocol_positive(will, proto, sc.same_as_will, p)
            if sc.pu_protocol is not None:
                self.pu_protocol(seat, sc, is_fk, role)
        return counted

    def penalty_counts(self, seat: int, sc: SeatScores, kinds: list[str]) -> None:
        """A player leaves a table once, and 8.3.9.14 is given once, to the first killed
        who left neither will nor protocol: a repeated penalty is refused, never summed."""
        p, g = self.p, self.game
        if "team_loss" in kinds and "disqualification" in kinds and (
            p.team_loss_excludes_disqualification.value
        ):
            self.add("team_loss_and_dq", seat, "penalties", p.team_loss_excludes_disqualification)
        if p.one_removal_per_game.value and (
            kinds.count("team_loss") > 1 or kinds.count("disqualification") > 1
        ):
            self.add("removal_twice", seat, "penalties", p.one_removal_per_game)
        revealed = kinds.count("revealed_sheriff_no_will")
        rule = p.penalty_revealed_sheriff_no_will
        if revealed and rule.value is not None:
            if revealed > 1:
                self.add("revealed_twice", seat, "penalties", rule)
            if seat != g.first_killed:
                self.add("revealed_not_fk", seat, "penalties", rule, fk=g.first_killed or "—")
            elif sc.will is not None or sc.pu_protocol is not None or sc.protocol is not None:
                self.add("revealed_with_will", seat, "penalties", rule)

    def game_action_case(self, seat: int, rule: str | None, role: str | None) -> None:
        """A closed list of game actions (FIIM 8.5.1-8.5.4): the penalty names its case,
        and the case's role and result hold."""
        p, g = self.p, self.game
        cases = p.game_action_cases.value
        case = cases.get(rule) if rule is not None else None
        if case is None:
            self.add("game_action_case", seat, "penalties.rule", p.game_action_cases,
                     value=rule if rule is not None else "—", choices=", ".join(cases))
            return
        clause = f"{p.federation} {rule}"
        case_roles, must_have_lost = case.roles, case.team_lost
        if role is not None and role not in case_roles:
            self.add("game_action_case_role", seat, "penalties.rule", clause, rule=rule,
                     roles=[Word(r, ROLE_RU[r], r) for r in case_roles])
        if must_have_lost is not None and g.result in RESULTS and (
            g.result in (must_have_lost, DRAW)
        ):
            self.add("game_action_case_result", seat, "penalties.rule", clause, rule=rule,
                     team=Word(must_have_lost, TEAM_RU[must_have_lost], must_have_lost))

    def plain_extra(self, seat: int, sc: SeatScores, roles: dict[int, str]) -> int | None:
        """The most common seat in a protocol, in one glance: a judge's extra alone, on the
        scale and needing no approval, of a player who is not the first killed, in a game
        that was not a draw. Its positive part, or None to check the seat in full."""
        g, p = self.game, self.p
        extra = sc.extra
        if (extra is None or sc.penalties or sc.pu_extra is not None or sc.will is not None
                or sc.protocol is not None or sc.pu_protocol is not None or sc.same_as_will
                or seat == g.first_killed or g.result == DRAW):
            return None
        h = hundredths_of(extra)
        if h is None:
            return None
        if p.extra_limits.value is ExtraLimits.BY_SCALE:
            ok = h == 0 or h in p.extra_positive_scale.value or h in p.extra_negative_scale.value
        elif h < 0:
            ok = p.extra_negative_allowed.value
        else:
            won = TEAM_OF.get(roles.get(seat, ""), None) == g.result
            ok = h == 0 or (h < p.extra_approval_from.value if won else h <= p.extra_max_loser.value)
        return max(h, 0) if ok else None

    def words(self, seat: int, sc: SeatScores) -> None:
        """The fixed words of format 1 in a seat's scores: penalty kinds, colours, tags."""
        for pen in sc.penalties:
            if pen.kind not in PENALTY_KINDS:
                self.add("bad_choice", seat, "penalties.kind", FORMAT_1, value=pen.kind,
                         choices=choices(PENALTY, PENALTY_KINDS))
        pp = sc.pu_protocol
        if pp is None:
            return
        for e in pp.entries:
            if e.colour not in ("red", "black"):
                self.add("bad_choice", seat, "pu_protocol.entries.colour", FORMAT_1,
                         value=e.colour, choices=choices(COLOUR, ("red", "black")))
            if e.tag is not None and e.tag not in ENTRY_TAGS:
                self.add("bad_choice", seat, "pu_protocol.entries.tag", FORMAT_1, value=e.tag,
                         choices=choices(TAG, ENTRY_TAGS))
        if pp.version is not None and pp.version.situation not in VERSION_SITUATIONS:
            self.add("bad_choice", seat, "pu_protocol.version.situation", self.p.pu_protocol_versions,
                     value=pp.version.situation, choices=choices(VERSION, VERSION_SITUATIONS))

    def positive_allowed(self, seat: int, field: str, value: int, draw: bool,
                         removed: bool) -> None:
        p = self.p
        if draw and p.no_positive_extra_on_draw.value:
            self.add("extra_on_draw", seat, field, p.no_positive_extra_on_draw,
                     value=Points(value))
        if removed and p.no_positive_extra_when_removed.value:
            self.add("extra_when_removed", seat, field, p.no_positive_extra_when_removed,
                     value=Points(value))

    def pu_protocol(self, seat: int, sc: SeatScores, is_fk: bool, role: str | None) -> None:
        p, g = self.p, self.game
        pp = sc.pu_protocol
        assert pp is not None
        where = p.has_first_killed_protocol
        if not is_fk:
            self.add("pu_field_not_fk", seat, "pu_protocol", where, what="pu_protocol",
                     fk=g.first_killed or "—")
        checked_roles = p.pu_protocol_checked_roles
        for e in pp.entries:
            if e.tag == "checked" and (e.colour != "red" or role not in checked_roles.value):
                self.add("checked_not_sheriff_red", seat, "pu_protocol.entries.tag",
                         checked_roles, value=e.seat)
        if pp.aside and sc.will is not None:
            most = p.pu_protocol_aside_will_max_entries.value
            if most is not None and len(pp.entries) > most:
                self.add("aside_will_and_protocol", seat, "will",
                         p.pu_protocol_aside_will_max_entries, count=len(pp.entries))
            will = hundredths_of(sc.will)
            scale = p.pu_protocol_aside_will_scale
            if will is not None and will in p.will_scale.value and will not in scale.value:
                self.add("off_scale", seat, "will", scale, value=Points(will),
                         choices=_choices(scale.value))
        blacks = sum(1 for e in pp.entries if e.colour == "black")
        if blacks > p.pu_protocol_max_black_entries.value:
            self.add("pu_black_entries", seat, "pu_protocol", p.pu_protocol_max_black_entries,
                     count=blacks, max=p.pu_protocol_max_black_entries.value)
        seen: set[int] = set()
        for e in pp.entries:
            if not 1 <= e.seat <= 10 or e.seat == seat:
                self.add("pu_entry_seat", seat, "pu_protocol.entries", where, value=e.seat)
            elif e.seat in seen:
                self.add("pu_entry_twice", seat, "pu_protocol.entries", where, value=e.seat)
            seen.add(e.seat)

    def limits(self, counted: dict[int, int]) -> None:
        g, p = self.game, self.p
        if g.limits_approved:
            if p.limits_approval.value:
                return
            self.add("limits_approval_not_in_rules", None, "limits_approved", p.limits_approval)
        positive = [v for v in counted.values() if v > 0]
        if not positive:
            return
        players, total = len(positive), sum(positive)
        if players > p.extra_max_players.value:
            self.add("limit_players", None, "scores", p.extra_max_players, count=players,
                     max=p.extra_max_players.value)
        if total > p.extra_max_sum.value:
            self.add("limit_sum", None, "scores", p.extra_max_sum, value=Points(total),
                     max=Points(p.extra_max_sum.value))


def _will_protocol_positive(will: int | None, proto: int | None, same_as_will: bool,
                            p: RuleProfile) -> int:
    """The will and protocol evaluations as they count (FSM 8.3.8.11), positive part."""
    if same_as_will and will is not None and proto is not None and (
        p.same_as_will_larger_counts.value
    ):
        return max(will, proto, 0)
    return max(will or 0, 0) + max(proto or 0, 0)


def validate_game(game: Game, profile: RuleProfile, players: AbstractSet[str],
                  stages: Collection[str]) -> list[Problem]:
    """Every rule problem of one game (scoring.md section 8)."""
    checker = _GameChecker(game, profile)
    if game.stage not in stages:
        checker.add("unknown_stage", None, "stage", FORMAT_1, value=game.stage)
    if game.round < 1:
        checker.add("positive_int", None, "round", FORMAT_1)
    if game.table < 1:
        checker.add("positive_int", None, "table", FORMAT_1)
    if game.day1_vote_left < 0:
        checker.add("nonneg_int", None, "day1_vote_left", FORMAT_1)
    for seat in game.scores:
        if not 1 <= seat <= 10:
            checker.add("seat_number", None, "scores", SECTION_1, value=seat)
    roles = checker.seats(players)
    checker.first_killed_and_best_move()
    counted: dict[int, int] = {}
    for seat, sc in game.scores.items():
        if sc.penalties or sc.pu_protocol is not None:
            checker.words(seat, sc)
        counted[seat] = checker.seat_scores(seat, sc, roles)
    checker.limits(counted)
    # the paper columns that nothing scores (fouls, days, explanations; domain.paper)
    return checker.problems + check_paper(game, profile)


def validate_tournament(t: Tournament, profile: RuleProfile) -> list[Problem]:
    """Every rule problem of a tournament: each game's, and the recorded lots'."""
    problems: list[Problem] = []
    if t.format != FORMAT:
        problems.append(Problem("format", field="format", params={"value": t.format}))
    if t.participants is not None and t.participants < 1:
        problems.append(Problem("positive_int", field="participants"))
    for i, st in enumerate(t.stages):
        if st.kind not in STAGE_KINDS:
            problems.append(Problem("bad_choice", field=f"stages[{i}].kind",
                                    params={"value": st.kind,
                                            "choices": choices(STAGE_KIND, STAGE_KINDS)}))
    for kind, ids in (("players", [p.id for p in t.players]),
                      ("stages", [s.id for s in t.stages]),
                      ("games", [g.id for g in t.games])):
        seen_ids: set[str] = set()
        for item_id in ids:
            if item_id in seen_ids:
                problems.append(Problem("duplicate_id", game=item_id if kind == "games" else None,
                                        field=f"{kind}.id", params={"value": item_id}))
            seen_ids.add(item_id)
    players = {p.id for p in t.players}
    stages = {s.id for s in t.stages}
    for game in t.games:
        problems.extend(validate_game(game, profile, players, stages))
    from mafiatab.domain.teams import team_problems  # teams build on the standings

    problems.extend(team_problems(t))
    seen: set[str] = set()
    for pid in t.lots:
        if pid not in players:
            problems.append(Problem("lot_unknown_player", field="lots",
                                    clause=profile.tie_breakers.clause, params={"value": pid}))
        elif pid in seen:
            problems.append(Problem("lot_duplicate", field="lots", params={"value": pid}))
        seen.add(pid)
    return problems
