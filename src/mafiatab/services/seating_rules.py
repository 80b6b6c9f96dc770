"""A tournament's seating rules, kept between generations: clubs and teams kept apart (off,
soft with a weight, or hard), pairs of people (apart, avoid, welcome) in the tournament or on
the whole server, and judges' conflicts with players.

Why stored and not only typed into the form: the rules outlive one generation (the next
round's re-seat, a second seed, another organizer of the same tournament) and a server-wide
pair (two people who must never play together) follows the people into every tournament.
Pairs name people (`players.id`), not a tournament's codes, for that reason.

The desk (`services.seating_web`) turns the rules into the generator's (`seating.model`):
groups, pair rules and, with the judges of the tables, the tables a player must avoid.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import ClassVar, Final

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from mafiatab.domain import protocol as model
from mafiatab.services.access import STAFF
from mafiatab.services.errors import ServiceError
from mafiatab.services.store import Store, record_audit, require_role, tournament_row
from mafiatab.storage import models as db
from mafiatab.storage.models import PAIR_POLICIES, SEATING_MODES
from mafiatab.texts.seating import RULES_REFUSAL

#: the organizer's weights: 1 a nudge, 10 a strong push
MAX_WEIGHT: Final = 10
#: what a tournament may hold (every input bounded)
MAX_PAIRS: Final = 500
MAX_CONFLICTS: Final = 500
#: the words a pair's line may use for its policy (Russian and English)
POLICY_WORDS: Final[dict[str, str]] = {
    "развести": "apart", "раздельно": "apart", "apart": "apart",
    "избегать": "avoid", "avoid": "avoid",
    "вместе": "welcome", "together": "welcome", "welcome": "welcome",
}


class RulesRefused(ServiceError):
    """A rule typed on the seating form that cannot be read or kept (422)."""

    status = 422
    texts: ClassVar[Mapping[str, tuple[str, str]]] = RULES_REFUSAL


@dataclass(frozen=True, slots=True)
class PairPolicy:
    """Two players (by their tournament codes) and what to do when they share a table;
    `server`: a rule of the whole server (read-only on a tournament's form)."""

    first: str
    second: str
    policy: str
    weight: int = 5
    server: bool = False

    @property
    def hard(self) -> bool:
        return self.policy == "apart"

    @property
    def cost(self) -> int:
        """The generator's soft weight per shared game (negative: wanted together)."""
        if self.hard:
            return 0
        return -self.weight if self.policy == "welcome" else self.weight


@dataclass(frozen=True, slots=True)
class Conflict:
    """A judge (account name) who must not judge a player (tournament code)."""

    judge: str
    player: str


@dataclass(frozen=True, slots=True)
class TournamentRules:
    """Everything the seating must respect in one tournament."""

    clubs: str = "off"
    clubs_weight: int = 5
    teams: str = "soft"
    teams_weight: int = 5
    pairs: tuple[PairPolicy, ...] = ()
    conflicts: tuple[Conflict, ...] = ()
    #: the server's pairs among this tournament's players (not saved with the tournament)
    server_pairs: tuple[PairPolicy, ...] = field(default=(), compare=False)

    def as_json(self) -> dict[str, object]:
        return {"clubs": self.clubs, "clubs_weight": self.clubs_weight, "teams": self.teams,
                "teams_weight": self.teams_weight,
                "pairs": [[p.first, p.second, p.policy, p.weight] for p in self.pairs],
                "conflicts": [[c.judge, c.player] for c in self.conflicts]}

    @classmethod
    def from_json(cls, d: Mapping[str, object]) -> TournamentRules:
        pairs = d.get("pairs") or []
        conflicts = d.get("conflicts") or []
        assert isinstance(pairs, list) and isinstance(conflicts, list)
        return cls(clubs=str(d.get("clubs", "off")), clubs_weight=int(str(d.get("clubs_weight", 5))),
                   teams=str(d.get("teams", "soft")),
                   teams_weight=int(str(d.get("teams_weight", 5))),
                   pairs=tuple(PairPolicy(str(a), str(b), str(p), int(w)) for a, b, p, w in pairs),
                   conflicts=tuple(Conflict(str(j), str(p)) for j, p in conflicts))

    def conflicts_of(self, judge: str) -> set[str]:
        return {c.player for c in self.conflicts if c.judge == judge}


def check_rules(rules: TournamentRules) -> None:
    """Every number and word within its range: refused in words otherwise."""
    for mode, weight in ((rules.clubs, rules.clubs_weight), (rules.teams, rules.teams_weight)):
        if mode not in SEATING_MODES:
            raise RulesRefused("rules_mode", value=mode[:40])
        if not 1 <= weight <= MAX_WEIGHT:
            raise RulesRefused("rules_weight", value=weight, max=MAX_WEIGHT)
    if len(rules.pairs) > MAX_PAIRS or len(rules.conflicts) > MAX_CONFLICTS:
        raise RulesRefused("rules_too_many", max=MAX_PAIRS)
    for p in rules.pairs:
        if p.policy not in PAIR_POLICIES:
            raise RulesRefused("rules_mode", value=p.policy[:40])
        if not 1 <= p.weight <= MAX_WEIGHT:
            raise RulesRefused("rules_weight", value=p.weight, max=MAX_WEIGHT)
        if p.first == p.second:
            raise RulesRefused("rules_pair_self", player=p.first)


# --- what the organizer types ---------------------------------------------------------------


def _player(players: Sequence[model.Player], ref: str, line: str) -> model.Player:
    ref = ref.strip()
    for p in players:
        if p.id == ref or p.nickname.casefold() == ref.casefold():
            return p
    raise RulesRefused("rules_unknown_player", ref=ref[:100], line=line[:200])


def parse_pair_lines(text: str, players: Sequence[model.Player]) -> tuple[PairPolicy, ...]:
    """Lines «Альфа, Бета: развести» («избегать 3», «вместе 2»; English: apart, avoid,
    together): two players by id or nickname, a policy, for a soft one a weight (default 5)."""
    out: list[PairPolicy] = []
    for line in text.splitlines()[:MAX_PAIRS + 1]:
        if not line.strip():
            continue
        m = re.fullmatch(r"\s*(.+?)\s*[,;+]\s*(.+?)\s*[:=]\s*(\S+)\s*([0-9]{1,2})?\s*", line)
        if not m or m.group(3).casefold() not in POLICY_WORDS:
            raise RulesRefused("rules_pair_line", line=line[:200])
        a, b = _player(players, m.group(1), line), _player(players, m.group(2), line)
        weight = int(m.group(4)) if m.group(4) else 5
        out.append(PairPolicy(a.id, b.id, POLICY_WORDS[m.group(3).casefold()], weight))
    return tuple(out)


def parse_conflict_lines(text: str, players: Sequence[model.Player],
                         judges: Sequence[str]) -> tuple[Conflict, ...]:
    """Lines «судья: игрок» (the judge's account, the player by id or nickname)."""
    out: list[Conflict] = []
    known = {j.casefold(): j for j in judges}
    for line in text.splitlines()[:MAX_CONFLICTS + 1]:
        if not line.strip():
            continue
        m = re.fullmatch(r"\s*(.+?)\s*[:=]\s*(.+?)\s*", line)
        if not m:
            raise RulesRefused("rules_conflict_line", line=line[:200])
        judge = known.get(m.group(1).casefold())
        if judge is None:
            raise RulesRefused("rules_unknown_judge", judge=m.group(1)[:100], line=line[:200])
        out.append(Conflict(judge, _player(players, m.group(2), line).id))
    return tuple(out)


def pair_lines(rules: TournamentRules, players: Sequence[model.Player], lang: str) -> str:
    """The tournament's pairs as the form shows them (the inverse of `parse_pair_lines`)."""
    nick = {p.id: p.nickname for p in players}
    word = {"apart": ("развести", "apart"), "avoid": ("избегать", "avoid"),
            "welcome": ("вместе", "together")}
    lines = []
    for p in rules.pairs:
        w = word[p.policy][1 if lang == "en" else 0]
        tail = "" if p.hard else f" {p.weight}"
        lines.append(f"{nick.get(p.first, p.first)}, {nick.get(p.second, p.second)}: {w}{tail}")
    return "\n".join(lines)


def conflict_lines(rules: TournamentRules, players: Sequence[model.Player]) -> str:
    nick = {p.id: p.nickname for p in players}
    return "\n".join(f"{c.judge}: {nick.get(c.player, c.player)}" for c in rules.conflicts)


# --- the store --------------------------------------------------------------------------------


def _codes(s: Session, tid: int) -> tuple[dict[int, str], dict[str, int]]:
    rows = list(s.execute(select(db.Participant.player_id, db.Participant.code)
                          .where(db.Participant.tournament_id == tid)))
    return {p: c for p, c in rows}, {c: p for p, c in rows}


def read_rules(s: Session, tid: int) -> TournamentRules:
    """The tournament's rules (the defaults when none were saved), with the server's pairs
    among its players."""
    row = s.get(db.SeatingRules, tid)
    code_of, _person = _codes(s, tid)
    pairs: list[PairPolicy] = []
    server: list[PairPolicy] = []
    for r in s.scalars(select(db.SeatingPair).where(
            (db.SeatingPair.tournament_id == tid) | db.SeatingPair.tournament_id.is_(None))
            .order_by(db.SeatingPair.id)):
        a, b = code_of.get(r.first_person), code_of.get(r.second_person)
        if a is None or b is None:
            continue
        pol = PairPolicy(a, b, r.policy, r.weight, server=r.tournament_id is None)
        (server if pol.server else pairs).append(pol)
    conflicts = tuple(Conflict(r.judge, r.player_code) for r in s.scalars(
        select(db.SeatingConflict).where(db.SeatingConflict.tournament_id == tid)
        .order_by(db.SeatingConflict.id)))
    if row is None:
        return TournamentRules(pairs=tuple(pairs), conflicts=conflicts,
                               server_pairs=tuple(server))
    return TournamentRules(row.clubs, row.clubs_weight, row.teams, row.teams_weight,
                           tuple(pairs), conflicts, tuple(server))


def write_rules(s: Session, tid: int, rules: TournamentRules, actor: str) -> None:
    """Replace the tournament's rules (its own pairs and conflicts; the server's stay)."""
    check_rules(rules)
    _code_of, person = _codes(s, tid)
    row = s.get(db.SeatingRules, tid)
    if row is None:
        row = db.SeatingRules(tournament_id=tid)
        s.add(row)
    row.clubs, row.clubs_weight = rules.clubs, rules.clubs_weight
    row.teams, row.teams_weight = rules.teams, rules.teams_weight
    row.updated_by = actor
    s.execute(delete(db.SeatingPair).where(db.SeatingPair.tournament_id == tid))
    s.execute(delete(db.SeatingConflict).where(db.SeatingConflict.tournament_id == tid))
    for p in rules.pairs:
        if p.first not in person or p.second not in person:
            raise RulesRefused("rules_unknown_player", ref=p.first if p.first not in person
                               else p.second, line="")
        s.add(db.SeatingPair(tournament_id=tid, first_person=person[p.first],
                             second_person=person[p.second], policy=p.policy, weight=p.weight,
                             made_by=actor))
    seen: set[tuple[str, str]] = set()
    for c in rules.conflicts:
        if (c.judge, c.player) in seen:
            continue
        seen.add((c.judge, c.player))
        s.add(db.SeatingConflict(tournament_id=tid, judge=c.judge, player_code=c.player,
                                 made_by=actor))
    s.flush()


class SeatingRulesService:
    """Read and save a tournament's seating rules (its staff), and the server's pairs (the
    administrator)."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def rules(self, tournament: int, *, actor: str) -> TournamentRules:
        with self.store.read() as s:
            require_role(s, tournament_row(s, tournament), actor, STAFF, "manage")
            return read_rules(s, tournament)

    def team_count(self, tournament: int) -> int:
        """How many teams the tournament has (the teams' rule is offered when it has)."""
        from mafiatab.services.teams import teams_in

        with self.store.read() as s:
            return len(teams_in(s, tournament))

    def save(self, tournament: int, rules: TournamentRules, *, actor: str) -> TournamentRules:
        """Replace the tournament's rules; audited with what they became."""
        with self.store.write() as s:
            require_role(s, tournament_row(s, tournament), actor, STAFF, "manage")
            write_rules(s, tournament, rules, actor)
            record_audit(s, actor, tournament, "seating_rules", rules.as_json())
            return read_rules(s, tournament)

    def set_server_pair(self, first_person: int, second_person: int, policy: str | None,
                        weight: int = 5, *, actor: str) -> None:
        """A pair of people for every tournament of the server (None: forget it). Only the
        server's administrator: it binds tournaments he does not run."""
        with self.store.write() as s:
            if not s.scalar(select(db.User.admin).where(db.User.name == actor)):
                raise RulesRefused("rules_server_admin")
            if policy is not None:
                check_rules(TournamentRules(pairs=(PairPolicy("a", "b", policy, weight),)))
            for pid in (first_person, second_person):
                if s.get(db.Player, pid) is None:
                    raise RulesRefused("rules_unknown_player", ref=str(pid), line="")
            s.execute(delete(db.SeatingPair).where(
                db.SeatingPair.tournament_id.is_(None),
                ((db.SeatingPair.first_person == first_person)
                 & (db.SeatingPair.second_person == second_person))
                | ((db.SeatingPair.first_person == second_person)
                   & (db.SeatingPair.second_person == first_person))))
            if policy is not None:
                s.add(db.SeatingPair(tournament_id=None, first_person=first_person,
                                     second_person=second_person, policy=policy,
                                     weight=weight, made_by=actor))
            record_audit(s, actor, None, "seating_server_pair",
                         {"first": first_person, "second": second_person, "policy": policy,
                          "weight": weight})


__all__ = ["Conflict", "PairPolicy", "RulesRefused", "SeatingRulesService", "TournamentRules",
           "check_rules", "conflict_lines", "pair_lines", "parse_conflict_lines",
           "parse_pair_lines", "read_rules", "write_rules"]
