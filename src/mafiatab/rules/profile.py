"""A rule profile: every number and option of one federation's regulations, with its clause.

Code that differs by federation asks the profile; it never tests the federation's name.
Points are integers in hundredths (0.4 -> 40): every value in both rule texts has at most
two decimal places, so integer arithmetic is exact and fast. Fractions appear only where
the compensation Ci and the coefficient K divide (see `domain.standings`).

Each setting is a `Ruled` value: the number and the clause it comes from. A setting that
the rule texts leave open is a **Reading** (scoring.md marks them): its clause says so, and
another tournament can switch it by building a profile with `dataclasses.replace`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from enum import StrEnum
from typing import Generic, TypeVar

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Ruled(Generic[T]):
    """A value of the rules together with the clause that sets it."""

    value: T
    clause: str


class ExtraLimits(StrEnum):
    """How the judge's extras of one game are limited (the two federations differ in kind)."""

    #: FIIM 8.4: a few players, a small sum, caps by winning / losing team.
    BY_TEAM = "by_team"
    #: FSM 8.4: a fixed scale of values, a per-game sum and a number of players.
    BY_SCALE = "by_scale"


class Distance(StrEnum):
    """How the games are grouped into compensation distances (scoring.md section 5)."""

    #: FIIM 8.6: qualification and semifinal together; each final stage alone.
    QUAL_SEMI_TOGETHER = "qual_semi_together"
    #: FSM 8.6.2, 8.6.5: consecutive stages while the number of participants is unchanged.
    SAME_PARTICIPANTS = "same_participants"


@dataclass(frozen=True, slots=True)
class GameActionCase:
    """One case of a closed list of negative game actions (FIIM 8.5.1-8.5.4): on whom it
    may be given, and which team must have lost (None: whatever the result)."""

    roles: tuple[str, ...]
    team_lost: str | None = None

    def __str__(self) -> str:
        lost = f", the {self.team_lost} team lost" if self.team_lost else ""
        return "/".join(self.roles) + lost


@dataclass(frozen=True)
class RuleProfile:
    """Every number and option of one rule set. Points are in hundredths."""

    id: str
    title: str
    federation: str  # the prefix of clause references, e.g. "FIIM"

    # --- main points -----------------------------------------------------------------
    win_points: Ruled[int]
    #: FIIM 8.7: K applies when the tournament has at most this many participants.
    k_max_participants: Ruled[int | None]
    #: Reading: equal wins of both sides -> no heavy side, K not applied.
    k_equal_wins_no_heavy_side: Ruled[bool]
    #: FIIM 8.7.2-8.7.3: the formula, applied to the win points of heavy games only
    k_formula: Ruled[str]

    # --- best move ---------------------------------------------------------------------
    #: points for 0, 1, 2, 3 blacks named
    best_move_points: Ruled[tuple[int, int, int, int]]
    #: roles whose best move is scored (Reading for FSM: a black first killed earns nothing)
    best_move_scored_roles: Ruled[frozenset[str]]
    #: FSM 8.3.6: this many players or more leaving by the day-1 vote -> no best move.
    no_best_move_day1_leavers: Ruled[int | None]
    #: FSM 8.4.8 (Reading): positive points of the best move are dropped on a draw.
    best_move_on_draw: Ruled[bool]
    best_move_max_numbers: Ruled[int]

    # --- judge's extras ----------------------------------------------------------------
    extra_limits: Ruled[ExtraLimits]
    extra_max_players: Ruled[int]
    extra_max_sum: Ruled[int]
    #: BY_TEAM: caps and the value from which approval is needed
    extra_max_winner: Ruled[int]
    extra_approval_from: Ruled[int]
    extra_max_loser: Ruled[int]
    #: BY_SCALE: allowed positive values, and those that need approval
    extra_positive_scale: Ruled[frozenset[int]]
    extra_positive_approval: Ruled[frozenset[int]]
    extra_negative_scale: Ruled[frozenset[int]]
    extra_negative_approval: Ruled[frozenset[int]]
    #: Reading: the 8.4.3 scale in steps of 0.2 with +0.3 ("step_0_2"), or steps of 0.1.
    extra_scale_reading: Ruled[str]
    #: positive judge's extras on a draw are refused
    no_positive_extra_on_draw: Ruled[bool]
    #: FSM 8.4.7: a removed player gets no positive extra
    no_positive_extra_when_removed: Ruled[bool]
    #: whether the FSM-only fields (pu_extra, pu_protocol, will, protocol, ...) exist
    has_first_killed_protocol: Ruled[bool]
    pu_extra_scale: Ruled[frozenset[int]]
    will_scale: Ruled[frozenset[int]]
    will_approval: Ruled[frozenset[int]]  # for anyone but the first killed
    protocol_scale: Ruled[frozenset[int]]
    protocol_approval: Ruled[frozenset[int]]
    same_as_will_larger_counts: Ruled[bool]
    #: Reading: what counts in the per-game positive limit (see scoring.md 3.2)
    limit_counts_will_and_protocol: Ruled[bool]

    # --- first killed's protocol (FSM 8.3.9) ------------------------------------------
    pu_protocol_black_correct: Ruled[tuple[int, int, int]]
    pu_protocol_black_wrong: Ruled[tuple[int, int, int]]
    pu_protocol_red_first: Ruled[int]
    pu_protocol_red_next: Ruled[int]
    pu_protocol_red_cap: Ruled[int]
    pu_protocol_red_errors: Ruled[tuple[int, int]]  # total for one error, for two or more
    pu_protocol_max_black_entries: Ruled[int]
    pu_protocol_versions: Ruled[dict[str, tuple[int, int]]]  # situation -> (right, wrong)
    pu_protocol_aside_red: Ruled[int]
    pu_protocol_aside_black: Ruled[int]
    pu_protocol_aside_error: Ruled[int]
    pu_protocol_near_reliable_percent: Ruled[int]
    pu_protocol_scored_roles: Ruled[frozenset[str]]

    # --- penalties ---------------------------------------------------------------------
    penalty_disqualification: Ruled[int]
    penalty_disqualification_critical: Ruled[int]
    penalty_team_loss: Ruled[int]
    #: None: the game_action penalty takes its value from the negative extra scale
    penalty_game_action_fixed: Ruled[int | None]
    penalty_revealed_sheriff_no_will: Ruled[int | None]
    team_loss_excludes_disqualification: Ruled[bool]
    #: the FSM 8.6.6 flag exists
    has_broken_table: Ruled[bool]

    # --- compensation Ci ---------------------------------------------------------------
    comp_distance: Ruled[Distance]
    comp_paying_stage_kinds: Ruled[frozenset[str]]
    comp_max: Ruled[int]  # the 0.4 of Ci = 0.4 * i / B
    comp_b_percent: Ruled[int]  # B = 40% of games, rounded
    comp_b_minimum: Ruled[int]
    #: FSM 8.6.4: Ci only when the best move named at least one black
    comp_requires_black_in_best_move: Ruled[bool]
    #: share of Ci paid when the red team won (FSM 8.6.4.2: one half; FIIM: none)
    comp_share_on_red_win: Ruled[tuple[int, int]]

    # --- standings ---------------------------------------------------------------------
    tie_breakers: Ruled[tuple[str, ...]]

    # --- the course of a game (the game log, docs/gamelog.md) -------------------------
    #: the night whose kill makes the first killed; nights are numbered from 0, the
    #: agreement night ("Договорка"), so both federations' first shooting night is 1
    first_killed_night: Ruled[int] = Ruled(1, "FIIM 8.3")
    #: day 1 with a single nominee: no vote is held
    day1_single_nominee_no_vote: Ruled[bool] = Ruled(True, "FIIM 7 (day 1, one nominee)")
    #: Reading: a repeated vote that ties a smaller group is repeated again among them;
    #: the same group tied twice goes to the vote on lifting all of them
    revote_when_tie_changes: Ruled[bool] = Ruled(
        True, "FIIM 7 (Reading: a changed tie is voted again)"
    )
    #: FIIM 7.1-7.2: leaving with a 4th or disqualifying foul cancels a vote
    removal_cancels_vote: Ruled[bool] = Ruled(True, "FIIM 7.1")
    #: FIIM 7.6 (an optional "geographic" rule, FIIM 7.11): four at the table, two tied
    #: twice -> no further vote; three misses in a row after it -> the red team wins
    four_players_tie_no_vote: Ruled[bool] = Ruled(False, "FIIM 7.6, 7.11 (off)")
    #: FIIM 7.7: with 3 fouls, 30 seconds instead of a lost speech at these table sizes
    short_speech_table_sizes: Ruled[frozenset[int]] = Ruled(frozenset({3, 4}), "FIIM 7.7")
    #: FIIM 7.8: so many nights and days in a row, from a night, with nobody leaving: draw
    draw_quiet_cycles: Ruled[int] = Ruled(3, "FIIM 7.8")
    #: FIIM 7.9: no vote on lifting every player at the table
    no_lift_of_whole_table: Ruled[bool] = Ruled(True, "FIIM 7.9")
    #: Reading: leaving with a 4th foul is a removal from the table and costs the
    #: disqualification penalty
    removal_by_fouls_penalised: Ruled[bool] = Ruled(
        True, "FIIM 8.2.4, 7.10 (Reading: a 4th foul removes from the table)"
    )
    #: Reading (FSM 8.2.4 "на критике"), when the log does not say: a removal is critical
    #: when red players at the table outnumber black ones by at most this many
    critical_red_margin: Ruled[int | None] = Ruled(None, "FIIM 8.2.4 (one penalty)")
    #: Reading: a player shot this night still makes his check (don or sheriff)
    killed_may_check_that_night: Ruled[bool] = Ruled(
        True, "FIIM 7 (Reading: the kill is announced in the morning)"
    )

    # --- protests and appeals (domain/appeals.py, scoring.md section 9) ----------------
    #: a protest on a result is written at most this many minutes after the game ends;
    #: None: the rules set no deadline
    protest_minutes_after_game: Ruled[int | None] = Ruled(10, "FIIM 8.9.1")
    #: whether a protest at that very minute is still in time ("не позднее, чем через":
    #: at most, the last minute included)
    protest_deadline_inclusive: Ruled[bool] = Ruled(
        True, "FIIM 8.9.1 (не позднее: at exactly 10 minutes still in time)"
    )
    #: who decides a protest ("head_judge", "appeals_commission")
    protest_deciders: Ruled[frozenset[str]] = Ruled(
        frozenset({"head_judge", "appeals_commission"}), "FIIM 8.9.2"
    )
    #: a decided protest is final: not appealed or reconsidered within the tournament
    protest_decision_final: Ruled[bool] = Ruled(True, "FIIM 8.9.4")
    #: whether a player may appeal an individual score (not only protest a result)
    score_appeals: Ruled[bool] = Ruled(False, "FIIM 8.9 (protests on a result only)")
    #: an appeal is filed within this many rounds after the protocol's publication
    appeal_rounds_after_publication: Ruled[int | None] = Ruled(
        None, "FIIM 8.9 (no appeals of scores)"
    )
    #: the scores of the tournament's days up to this one (from 1) are appealed before the
    #: next day starts; later days' scores only by the other deadlines (None: no day binds)
    appeal_before_next_day: Ruled[int | None] = Ruled(None, "FIIM 8.9 (no appeals of scores)")
    #: every appeal is filed and closed before the last round starts
    appeal_closed_before_last_round: Ruled[bool] = Ruled(False, "FIIM 8.9 (no appeals of scores)")
    #: scores got before the tables were closed are not appealed after they are closed
    appeal_not_after_tables_closed: Ruled[bool] = Ruled(False, "FIIM 8.9 (no appeals of scores)")
    #: per player per tournament: appeals of a positive (judge's) extra, and of a penalty
    appeal_max_positive_extra: Ruled[int | None] = Ruled(None, "FIIM 8.9 (no appeals of scores)")
    appeal_max_penalty: Ruled[int | None] = Ruled(None, "FIIM 8.9 (no appeals of scores)")
    #: no appeal about a difference of at most this much (hundredths)
    appeal_ignored_difference: Ruled[int] = Ruled(0, "FIIM 8.9 (no appeals of scores)")
    #: the head judge may order a replay of a game
    replay_allowed: Ruled[bool] = Ruled(False, "FIIM 8.9 (no replay in the rules)")
    #: a result changed or a replay ordered for a non-game advantage needs the agreement
    #: of the federation's judicial committee's representative
    result_change_needs_committee: Ruled[bool] = Ruled(False, "FIIM 8.9.3 (the committee may be consulted)")

    # --- readings added after review ---------------------------------------------------
    #: FSM 8.3.9.12, aside: which correct black outside the versions earns its +0.4 when
    #: several are written ("last": the last correctly written, as the rule text reads)
    pu_protocol_aside_black_entry: Ruled[str] = Ruled(
        "last", "FSM 8.3.9.12 (Reading: the last correctly written black)"
    )

    # --- the course of a game: clauses the game log cites (docs/gamelog.md) ----------
    #: FIIM 7.2: a removal after the vote's result is known (or after the only nomination
    #: on the last speech, day 2 on) cancels the next day's vote instead
    removal_after_result_cancels_next_vote: Ruled[bool] = Ruled(True, "FIIM 7.2")
    #: FIIM 7.5: a player with 3 fouls still speaks before a repeated vote
    three_fouls_speak_at_revote: Ruled[bool] = Ruled(True, "FIIM 7.5")
    #: FIIM 7.10: who leaves by the last vote or shot has his last words after the end;
    #: a removal then keeps the result and adds the penalty
    last_words_after_end: Ruled[bool] = Ruled(True, "FIIM 7.10")
    # --- second pass over both rule texts -------------------------------------
    #: FIIM 8.4, 9.9: whether a judge's `extra` may be negative (FIIM: everything negative
    #: is a penalty, a `penalties[]` entry)
    extra_negative_allowed: Ruled[bool] = Ruled(True, "FSM 8.4.4")
    #: FSM 8.4.1: the head judge may approve going past a game's limits on extras (FIIM
    #: 8.4.1-8.4.2 give no such power: `limits_approved: true` is refused)
    limits_approval: Ruled[bool] = Ruled(True, "FSM 8.4.1")
    #: a closed list of negative game actions (FIIM 8.5.1-8.5.4): rule -> its case; empty:
    #: the list is open and `rule` is optional (FSM 8.5 "в том числе")
    game_action_cases: Ruled[dict[str, GameActionCase]] = Ruled({}, "FSM 8.5 (an open list)")
    #: game actions whose clause fixes the size (FSM 8.5.9: -1.0): rule -> hundredths
    game_action_fixed_by_rule: Ruled[dict[str, int]] = Ruled({"8.5.9": -100}, "FSM 8.5.9")
    #: a player leaves a table once: at most one removal penalty per player per game
    one_removal_per_game: Ruled[bool] = Ruled(True, "FSM 8.5.8")
    #: FSM 8.3.9.9: the roles of a first killed who may tag a red entry `checked`
    pu_protocol_checked_roles: Ruled[frozenset[str]] = Ruled(frozenset({"sheriff"}),
                                                             "FSM 8.3.9.9")
    #: FSM 8.3.9.8: after a near-reliable entry the next correctly written entry that
    #: scores, whatever its colour, is scored as the first of its colour
    pu_protocol_near_reliable_next_as_first: Ruled[bool] = Ruled(True, "FSM 8.3.9.8")
    #: FSM 8.3.9.11: a will beside an aside protocol of more than this many entries is
    #: refused (four or more colours); None: no such rule
    pu_protocol_aside_will_max_entries: Ruled[int | None] = Ruled(3, "FSM 8.3.9.11")
    #: FSM 8.3.9.13: the values of the first killed's will beside an aside protocol
    pu_protocol_aside_will_scale: Ruled[frozenset[int]] = Ruled(
        frozenset({-20, 0, 20, 30}), "FSM 8.3.9.13")
    #: a best move exists only with a first killed (FIIM 9.6: the protocol's dash)
    best_move_needs_first_killed: Ruled[bool] = Ruled(True, "FSM 8.3.1")
    #: a best move names distinct seats other than the first killed's own, unchanged
    best_move_fixed_numbers: Ruled[bool] = Ruled(True, "FSM 8.3.4")

    # --- teams (docs/teams.md) ---------------------------------------------------------
    #: Reading, a team marathon's option: Ci paid per team — i counted over the team's
    #: first-night kills, B over the team's games on the distance — instead of each
    #: player's own (off: the rules' Ci is a player's own). Each federation's profile
    #: sets it with its own clause.
    comp_per_team: Ruled[bool] = Ruled(False, "8.6 (Reading: Ci per player)")

    # --- the tournament as a whole (domain/invariants.py) ------------------------------
    #: the clause number that removes a player from the whole tournament, as a penalty's
    #: `rule` names it (FIIM 7.3: peeping on purpose, insulting a judge); None: no such
    #: removal in the rules
    removal_from_tournament: Ruled[str | None] = Ruled("7.3", "FIIM 7.3")

    # --- players out of the standings, awards -----------------------------------------
    #: Reading: whether an exhibition player (one who plays but is not ranked) counts as a
    #: participant where the rules count participants (FIIM 8.7: K only up to 20
    #: participants; FSM 8.6.2, 8.6.5: a distance runs while the participants stay the
    #: same). Off: he is not ranked, so he is no participant of the standings; his games
    #: are games of the tournament all the same (K's N, everyone's i and B)
    exhibition_are_participants: Ruled[bool] = Ruled(
        False, "FIIM 8.7 (Reading: exhibition players are not participants)")
    #: the awards the head judge names at the end (MVP, the best of each role): the rule
    #: texts name none, so this is the federation's setting
    awards: Ruled[tuple[str, ...]] = Ruled(
        ("mvp", "best_red", "best_sheriff", "best_black", "best_don"),
        "FIIM (federation setting: awards)")

    #: where the paper protocol's columns (fouls, nominations, votes) are ruled: a clause
    #: of this federation, or its course of the game where it numbers none
    paper_clause: str = ""
    #: the federation's name as its clauses are cited, by language ("ru": "ФИИМ"); the
    #: English is `federation` itself
    names: Mapping[str, str] = field(default_factory=dict)
    #: the rule set's title by language ("ru": "ФИИМ (2018)"); else `title` in its words
    titles: Mapping[str, str] = field(default_factory=dict)

    def federation_in(self, lang: str) -> str:
        """The federation's name in the reader's language (`ФСМ`)."""
        return self.names.get(lang, self.federation)

    def title_in(self, lang: str) -> str:
        """The rule set's name in the reader's language (`ФИИМ (2018)`)."""
        found = self.titles.get(lang)
        if found is not None:
            return found
        return self.title.replace(self.federation, self.federation_in(lang), 1)

    def clause(self, setting: str) -> str:
        """The clause behind a setting, e.g. `profile.clause("win_points")`."""
        value = getattr(self, setting)
        if not isinstance(value, Ruled):
            raise KeyError(setting)
        return value.clause

    def settings(self) -> dict[str, Ruled[object]]:
        """Every setting with its clause (for documentation and `mafiatab rules`)."""
        out: dict[str, Ruled[object]] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if isinstance(value, Ruled):
                out[f.name] = value
        return out


def with_compensation_per_team(profile: RuleProfile) -> RuleProfile:
    """Ci per team switched on for a team tournament (`rules.OPTIONS["comp_per_team"]`):
    the same formula and clause, i and B over the team (docs/teams.md)."""
    from dataclasses import replace

    clause = profile.comp_per_team.clause.replace("Ci per player", "Ci per team, as team "
                                                  "marathons pay it")
    return replace(profile, comp_per_team=Ruled(True, clause))


def with_four_players_tie_rule(profile: RuleProfile) -> RuleProfile:
    """FIIM 7.6 switched on for a tournament: an optional ("geographic") rule that the head
    judge announces before the tournament (FIIM 7.11). Register it in `rules.OPTIONS`
    (e.g. `"fiim_7_6": {"on": with_four_players_tie_rule, "off": lambda p: p}`)."""
    from dataclasses import replace

    clause = profile.four_players_tie_no_vote.clause.replace("off)", "on)")
    return replace(profile, four_players_tie_no_vote=Ruled(True, clause))


def renamed(profile: RuleProfile, *, id: str, title: str, federation: str,
            names: Mapping[str, str] | None = None,
            titles: Mapping[str, str] | None = None) -> RuleProfile:
    """Another federation's profile that starts as a copy of `profile`: its own id, title
    and name, every clause cited under its own name (`FSM 8.4.3` becomes `UMF 8.4.3`).
    Change its numbers and clauses after (`dataclasses.replace`) where they differ."""
    old = profile.federation

    def cite(clause: str) -> str:
        return clause.replace(old, federation)

    changed: dict[str, object] = {
        name: Ruled(value.value, cite(value.clause))
        for name, value in profile.settings().items()}
    return replace(profile, id=id, title=title, federation=federation,
                   paper_clause=cite(profile.paper_clause),
                   names=dict(names or {}), titles=dict(titles or {}),
                   **changed)  # type: ignore[arg-type]
