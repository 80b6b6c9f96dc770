"""Games recorded by mafiaratings (szotin/mafiaratings, game format 1.x) as format-1 logs.

Why: a log engine that has only met games written by its own tests misses what real tables
do; mafiaratings publishes its game record, so real-shaped games can be replayed through
the rules (docs/gamelog.md). The conversion is pure: a record in, a format-1 game with its
`log` out, and a report of what was carried over and what the log could not take.

The record, as its public description has it: `players` (10, seat order), each with
`role` (civ, sheriff, maf, don), `death` (a round, a type, or an object with `round`,
`type` — day, night, warnings, techFouls, kickOut, teamKickOut, giveUp — and `time`),
`nominating` and `voting` (per round from 0; a vote is a seat or a list of seats, one per
voting round, ending with a boolean for the vote on lifting), `shooting` (per night from
1), `don` and `sheriff` (the round the player was checked in), `legacy` (the best move),
`warnings` (a count, or the game times they came at), `bonus`, `comment`. Round r is
night r then day r; our days are numbered from 1, so their day r is our day r + 1.

The order of speeches, the lost speeches and the cancelled votes are not in the record:
the converter asks the replay engine who speaks next, so the log it writes is one the
engine accepts, or the first event it refuses is reported with its rule.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from mafiatab.domain.gamelog_engine import GameReplay
from mafiatab.domain.gamelog_events import parse_event
from mafiatab.domain.gamelog_state import Step
from mafiatab.domain.problems import Problem, Refused, Word
from mafiatab.domain.protocol import BLACK_ROLES
from mafiatab.domain.provenance import FIELD, records_origin
from mafiatab.rules.profile import RuleProfile
from mafiatab.texts.files import FILES

SOURCE = "mafiaratings"
ROLES = {"civ": "red", "sheriff": "sheriff", "maf": "black", "don": "don"}
RESULTS = {"civ": "red", "maf": "black", "tie": "draw"}
#: game times of a night, in order (mafiaratings' "gametime" words)
_NIGHT_START = ("start", "arrangement", "relaxed sitting", "night start", "shooting")
_SEATS = range(1, 11)
#: "any speaker" for `flush` (None means: no speaker given)
_ANY = -1


@dataclass(frozen=True, slots=True)
class Note:
    """One line of the report, Russian first."""

    ru: str
    en: str

    def text(self, lang: str = "en") -> str:
        return self.ru if lang == "ru" else self.en


@dataclass(slots=True)
class Conversion:
    """A converted game: the format-1 game, what was mapped, what was not, the refusal."""

    game: dict[str, Any]
    players: list[dict[str, str]]
    mapped: list[Note] = field(default_factory=list)
    unmapped: list[Note] = field(default_factory=list)
    #: the replay's refusal (the log stops before the refused event), or a contradiction
    problems: list[Problem] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


class RecordError(Refused):
    """The record is not a mafiaratings game (no 10 players, an unknown role)."""

    def __init__(self, code: str, **params: Any) -> None:
        super().__init__([Problem(code, params=params, texts=FILES)])
        self.ru, self.en = self.message("ru"), self.message("en")


@dataclass(frozen=True, slots=True)
class _Time:
    """A mafiaratings game time: the round and what was happening."""

    round: int
    time: str
    speaker: int | None = None
    voting_round: int = 0
    nominee: int | None = None


@dataclass(slots=True)
class _Death:
    round: int | None
    type: str | None
    time: _Time | None


def _time(raw: object) -> _Time | None:
    if not isinstance(raw, Mapping) or not isinstance(raw.get("round"), int):
        return None
    speaker = raw.get("speaker")
    nominee = raw.get("nominee")
    vr = raw.get("votingRound")
    return _Time(int(raw["round"]), str(raw.get("time", "start")),
                 speaker if isinstance(speaker, int) else None,
                 vr if isinstance(vr, int) else 0,
                 nominee if isinstance(nominee, int) else None)


def _death(raw: object) -> _Death | None:
    if raw is None or raw is False:
        return None
    if raw is True:
        return _Death(None, None, None)
    if isinstance(raw, int):
        return _Death(raw, None, None)
    if isinstance(raw, str):
        return _Death(None, raw, None)
    if isinstance(raw, Mapping):
        rnd = raw.get("round")
        kind = raw.get("type")
        when = _time(raw.get("time"))
        if not isinstance(rnd, int) and when is not None:
            rnd = when.round
        return _Death(rnd if isinstance(rnd, int) else None,
                      kind if isinstance(kind, str) else None, when)
    return _Death(None, None, None)


def _per_round(raw: object) -> list[Any]:
    return list(raw) if isinstance(raw, list) else []


@dataclass(slots=True)
class _Pending:
    """A foul or removal waiting for its moment in the log."""

    when: _Time
    event: dict[str, Any]
    what: Note


class _Converter:
    def __init__(self, record: Mapping[str, Any], profile: RuleProfile,
                 game_id: str) -> None:
        players = record.get("players")
        if not isinstance(players, list) or len(players) != 10:
            raise RecordError("mafiaratings_ten")
        self.p = [dict(pl) if isinstance(pl, Mapping) else {} for pl in players]
        self.roles: dict[int, str] = {}
        for seat, pl in zip(_SEATS, self.p, strict=True):
            role = pl.get("role", "civ")
            if role not in ROLES:
                raise RecordError("mafiaratings_role", seat=seat, role=role)
            self.roles[seat] = ROLES[role]
        self.profile = profile
        self.game_id = game_id
        self.state = GameReplay(self.roles, profile, game_id)
        self.log: list[dict[str, Any]] = []
        self.mapped: list[Note] = []
        self.unmapped: list[Note] = []
        self.problems: list[Problem] = []
        self.deaths = {s: _death(pl.get("death")) for s, pl in zip(_SEATS, self.p, strict=True)}
        self.pending: list[_Pending] = []
        self.stopped = False
        self.counts: dict[str, int] = {}
        self.no_best_move: set[int] = set()

    # ---------------------------------------------------------------- helpers ---
    def pl(self, seat: int) -> dict[str, Any]:
        return self.p[seat - 1]

    def count(self, what: str) -> None:
        self.counts[what] = self.counts.get(what, 0) + 1

    def emit(self, event: dict[str, Any], what: str | None = None) -> bool:
        """Apply one event to the replay; a refusal stops the conversion there."""
        if self.stopped:
            return False
        parsed = parse_event(event, len(self.log), self.game_id)
        problems = [parsed] if isinstance(parsed, Problem) else self.state.apply(
            parsed, len(self.log))
        if problems:
            self.problems.extend(problems)
            self.stopped = True
            return False
        self.log.append(event)
        if what:
            self.count(what)
        return True

    def lost(self, ru: str, en: str) -> None:
        self.unmapped.append(Note(ru, en))

    def died(self, seat: int, kind: str, rnd: int) -> bool:
        d = self.deaths[seat]
        return d is not None and d.type == kind and d.round == rnd

    # ------------------------------------------------------------ discipline ---
    def collect_discipline(self) -> None:
        """Fouls and removals with their game time; those without one are reported."""
        for seat in _SEATS:
            pl = self.pl(seat)
            warnings = pl.get("warnings")
            d = self.deaths[seat]
            by_fouls = d is not None and d.type == "warnings"
            if isinstance(warnings, int) and warnings > 0 and not by_fouls:
                self.lost(f"место {seat}: {warnings} фол(а) без времени в игре — не записаны",
                          f"seat {seat}: {warnings} foul(s) without their time in the game"
                          " — not written")
            elif isinstance(warnings, list):
                for raw in warnings:
                    when = _time(raw)
                    if when is None:
                        self.lost(f"место {seat}: фол без времени", f"seat {seat}: a foul"
                                  " without its time")
                        continue
                    self.pending.append(_Pending(when, {"type": "foul", "seat": seat},
                                                 Note("фол", "foul")))
            tech = pl.get("techFouls")
            if tech:
                n = len(tech) if isinstance(tech, list) else tech
                self.lost(f"место {seat}: технические фолы ({n}) — в логе нет такого события",
                          f"seat {seat}: technical fouls ({n}) — the log has no such event")
            if d is not None and by_fouls:
                self.fourth_foul(seat, d, warnings)
            if d is None or d.type in (None, "day", "night", "warnings"):
                continue
            removal: dict[str, Any]
            if d.type == "teamKickOut":
                removal = {"type": "team_loss", "seat": seat, "note": "mafiaratings: teamKickOut"}
            else:
                removal = {"type": "disqualify", "seat": seat, "note": f"mafiaratings: {d.type}"}
            when = d.time
            if when is None and d.round is not None:
                when = _Time(d.round, "end")
                self.lost(f"место {seat}: удаление без времени — записано в конце дня {d.round + 1}",
                          f"seat {seat}: a removal without its time — written at the end "
                          f"of day {d.round + 1}")
            if when is None:
                self.lost(f"место {seat}: удаление без раунда — не записано",
                          f"seat {seat}: a removal without its round — not written")
                continue
            self.pending.append(_Pending(when, removal, Note("удаление", "removal")))

    def fourth_foul(self, seat: int, d: _Death, warnings: object) -> None:
        """Removed by 4 warnings whose times the record lacks: the missing fouls are
        written at the removal's moment, so that the player leaves when he did."""
        timed = sum(1 for raw in warnings if _time(raw) is not None) if isinstance(
            warnings, list) else 0
        when = d.time or (_Time(d.round, "end") if d.round is not None else None)
        if timed >= 4 or when is None:
            return
        for _ in range(4 - timed):
            self.pending.append(_Pending(when, {"type": "foul", "seat": seat},
                                         Note("фол", "foul")))
        self.lost(f"место {seat}: {4 - timed} фол(а) без времени записаны в момент удаления",
                  f"seat {seat}: {4 - timed} foul(s) without their time written at the "
                  "moment of the removal")

    def flush(self, rnd: int | None, times: tuple[str, ...] | None = None,
              speaker: int | None = _ANY, voting_round: int | None = None) -> None:
        """Write the pending fouls and removals whose game time is this moment."""
        def match(t: _Time) -> bool:
            return ((rnd is None or t.round == rnd) and (times is None or t.time in times)
                    and (speaker == _ANY or t.speaker == speaker)
                    and (voting_round is None or t.voting_round == voting_round))

        for item in [x for x in self.pending if match(x.when)]:
            self.pending.remove(item)
            self.emit(item.event, item.event["type"])

    # ------------------------------------------------------------------ night ---
    def night(self, r: int) -> None:
        self.flush(r, _NIGHT_START)
        if r == 0:
            return
        killed = [s for s in _SEATS if self.died(s, "night", r)]
        target = killed[0] if killed else None
        shot: dict[str, Any] = {"type": "shot", "target": target}
        seated = self.state.next_step().at_table  # as the night finds the table
        blacks = sorted(s for s in seated if self.roles[s] in BLACK_ROLES)
        aims: dict[str, int | None] = {}
        unrecorded: list[int] = []
        recorded_any = any("shooting" in self.pl(s) for s in _SEATS)
        for s in blacks:
            shooting = _per_round(self.pl(s).get("shooting"))
            if r - 1 < len(shooting) and isinstance(shooting[r - 1], int):
                aims[str(s)] = shooting[r - 1]
            elif target is not None:
                unrecorded.append(s)
            else:
                aims[str(s)] = None  # "did not make a shot"
        if recorded_any:
            shot["shots"] = aims
            if unrecorded:
                shot["unrecorded"] = unrecorded
                self.lost(f"ночь {r}: не записан выстрел мест {_seats(unrecorded)}",
                          f"night {r}: the aim of seats {_seats(unrecorded)} is not recorded")
            elif target is None:
                hits = {a for a in aims.values()}
                if len(hits) == 1 and None not in hits:
                    self.problems.append(Problem(
                        "log_shot_mismatch", self.game_id, None, f"log[{len(self.log)}]",
                        f"{self.profile.federation}, course of the game: the shot",
                        {"value": "—"}))
                    self.stopped = True
                    return
        self.emit(shot, "shot")
        self.flush(r, ("don",))
        self.check(r, "don")
        self.flush(r, ("sheriff",))
        self.check(r, "sheriff")
        if target is not None and isinstance(self.pl(target).get("legacy"), list):
            seats = [n for n in self.pl(target)["legacy"] if isinstance(n, int)]
            if "best_move" in self.state.next_step().kinds:
                self.emit({"type": "best_move", "seat": target, "seats": seats}, "best_move")
            else:
                self.no_best_move.add(target)
                self.lost(f"место {target}: лучший ход, которого правила не дают "
                          f"({self.profile.no_best_move_day1_leavers.clause}), — не записан",
                          f"seat {target}: a best move the rules do not give "
                          f"({self.profile.no_best_move_day1_leavers.clause}) — not written")

    def check(self, r: int, role: str) -> None:
        checked = [s for s in _SEATS if self.pl(s).get(role) == r]
        for s in checked:
            kind = "don_check" if role == "don" else "sheriff_check"
            self.emit({"type": kind, "target": s}, kind)

    # -------------------------------------------------------------------- day ---
    def day(self, r: int) -> None:
        self.flush(r, ("day start",))
        for s in self.state.next_step().last_words:
            self.emit({"type": "last_words", "seat": s}, "last_words")
            self.flush(r, ("night kill speaking",), speaker=s)
        self.flush(r, ("night kill speaking",))
        spoke: set[int] = set()
        while not self.stopped:
            step = self.state.next_step()
            if step.step in (Step.ENDED, Step.SHOT) or "speech" not in step.kinds:
                break
            if step.seat is None:
                break
            seat = step.seat
            speech: dict[str, Any] = {"type": "speech", "seat": seat}
            nominating = _per_round(self.pl(seat).get("nominating"))
            if r < len(nominating) and isinstance(nominating[r], int):
                speech["nominates"] = nominating[r]
            self.emit(speech, "speech")
            spoke.add(seat)
            self.flush(r, ("speaking",), speaker=seat)
        for s in _SEATS:
            nominating = _per_round(self.pl(s).get("nominating"))
            if s not in spoke and r < len(nominating) and isinstance(nominating[r], int):
                self.lost(f"день {r + 1}: выставление места {nominating[r]} местом {s}, "
                          "у которого не было речи, — не записано",
                          f"day {r + 1}: seat {s} nominated {nominating[r]} without a "
                          "speech — not written")
        self.flush(r, ("speaking", "voting start"))
        self.votes(r)
        self.flush(r, ("voting", "voting kill all"))
        for s in self.state.next_step().last_words:
            self.emit({"type": "last_words", "seat": s}, "last_words")
            self.flush(r, ("day kill speaking",), speaker=s)
        self.flush(r)

    def ballots(self, r: int) -> tuple[list[dict[int, list[int]]], list[int] | None]:
        """The voting rounds of day r (candidate -> voters) and who voted to lift all."""
        rounds: list[dict[int, list[int]]] = []
        lift: list[int] | None = None
        for s in _SEATS:
            voting = _per_round(self.pl(s).get("voting"))
            if r >= len(voting) or voting[r] is None:
                continue
            v = voting[r]
            seq = v if isinstance(v, list) else [v]
            if seq and isinstance(seq[-1], bool):
                lift = lift if lift is not None else []
                if seq[-1]:
                    lift.append(s)
                seq = seq[:-1]
            for j, cand in enumerate(seq):
                while len(rounds) <= j:
                    rounds.append({})
                if isinstance(cand, int):
                    rounds[j].setdefault(cand, []).append(s)
        return rounds, lift

    def votes(self, r: int) -> None:
        rounds, lift = self.ballots(r)
        held = 0
        while not self.stopped:
            step = self.state.next_step()
            if step.step is Step.DEFENCE and step.seat is not None:
                seat = step.seat
                self.emit({"type": "defence", "seat": seat}, "defence")
                self.flush(r, ("voting",), speaker=seat, voting_round=held - 1)
                continue
            if step.step is Step.VOTE and not rounds:
                leaves = [c for c in step.candidates if self.died(c, "day", r)]
                self.emit({"type": "vote", "leaves": leaves}, "vote_outcome")
                self.lost(f"день {r + 1}: голосование без голосов — записано только, кто "
                          f"покинул игру ({_seats(leaves) or 'никто'})",
                          f"day {r + 1}: the vote without its votes — only who left is "
                          f"written ({_seats(leaves) or 'nobody'})")
                break
            if step.step in (Step.VOTE, Step.DEFENCE):
                if held >= len(rounds):
                    self.lost(f"день {r + 1}: голосование не записано ({held} тур(а) из записи)",
                              f"day {r + 1}: a vote the record does not have "
                              f"({held} voting round(s) recorded)")
                    self.problems.append(self.unfinished())
                    self.stopped = True
                    return
                self.flush(r, ("voting",), speaker=None, voting_round=held)
                ballot = {str(c): sorted(v) for c, v in rounds[held].items()}
                self.emit({"type": "vote", "votes": ballot}, "vote")
                held += 1
                continue
            if step.step is Step.LIFT:
                self.flush(r, ("voting kill all",))
                if lift is not None:
                    self.emit({"type": "lift", "voters": sorted(lift)}, "lift")
                else:
                    passed = all(self.died(c, "day", r) for c in step.candidates)
                    self.emit({"type": "lift", "passed": passed}, "lift_passed")
                    self.lost(f"день {r + 1}: голосование за подъём без голосов — "
                              f"записан только исход ({'да' if passed else 'нет'})",
                              f"day {r + 1}: the vote on lifting without its voters — "
                              f"only its outcome is written ({'yes' if passed else 'no'})")
                continue
            break
        if held < len(rounds):
            self.lost(f"день {r + 1}: голоса записи не нужны по ходу игры "
                      f"({len(rounds) - held} тур(а)) — не записаны",
                      f"day {r + 1}: recorded votes the course of the game does not hold "
                      f"({len(rounds) - held} round(s)) — not written")

    # ---------------------------------------------------------------- the rest ---
    def last_round(self) -> int:
        last = 0
        for s in _SEATS:
            pl = self.pl(s)
            for key in ("nominating", "voting"):
                last = max(last, len(_per_round(pl.get(key))) - 1)
            last = max(last, len(_per_round(pl.get("shooting"))))
            for key in ("don", "sheriff"):
                if isinstance(pl.get(key), int):
                    last = max(last, pl[key])
            d = self.deaths[s]
            if d is not None and d.round is not None:
                last = max(last, d.round)
        return last

    def run(self) -> None:
        self.emit({"type": "deal", "roles": [self.roles[s] for s in _SEATS]}, "deal")
        self.collect_discipline()
        last = self.last_round()
        r = 0
        while not self.stopped and not self.ended() and r <= last + 1:
            self.night(r)
            if self.stopped or self.ended():
                break
            self.day(r)
            r += 1
        if self.ended():
            for s in self.state.next_step().last_words:
                self.emit({"type": "last_words", "seat": s}, "last_words")
                self.flush(None, ("night kill speaking", "day kill speaking"), speaker=s)
        self.flush(None)
        if not self.stopped:
            self.state.finish(len(self.log))
            if self.state.step is not Step.ENDED:
                self.problems.append(self.unfinished())

    def ended(self) -> bool:
        return self.state.next_step().step is Step.ENDED

    def unfinished(self) -> Problem:
        step = self.state.next_step()
        return Problem("log_unfinished", self.game_id, None, "log", SOURCE,
                       {"next": Word(step.step.value, step.text("ru"), step.text("en"))})

    def extras(self) -> None:
        for s in _SEATS:
            pl = self.pl(s)
            if pl.get("bonus") not in (None, 0, []):
                self.lost(f"место {s}: бонус {pl['bonus']!r} — допбаллы ставит судья в протоколе",
                          f"seat {s}: bonus {pl['bonus']!r} — the judge writes extras in the"
                          " protocol")
            if pl.get("comment"):
                self.lost(f"место {s}: комментарий судьи — не в логе",
                          f"seat {s}: the judge's comment — not in the log")
            if isinstance(pl.get("arranged"), int):
                self.lost(f"место {s}: договорка дона (ночь {pl['arranged']}) — не в логе",
                          f"seat {s}: the don's arrangement (night {pl['arranged']}) — not "
                          "in the log")
            if isinstance(pl.get("legacy"), list) and s not in self.no_best_move and not any(
                e["type"] == "best_move" and e["seat"] == s for e in self.log
            ):
                self.lost(f"место {s}: лучший ход не записан (он не первый убитый)",
                          f"seat {s}: the best move is not written (not the first killed)")


_WORDS: dict[str, tuple[str, str]] = {
    "deal": ("раздача ролей", "the deal"),
    "shot": ("выстрелы", "shots"),
    "don_check": ("проверки дона", "the don's checks"),
    "sheriff_check": ("проверки шерифа", "the sheriff's checks"),
    "best_move": ("лучший ход", "the best move"),
    "last_words": ("последние слова", "last words"),
    "speech": ("речи (с выставлениями)", "speeches (with nominations)"),
    "defence": ("оправдательные речи", "speeches before a repeated vote"),
    "vote": ("голосования (кто за кого)", "votes (who voted for whom)"),
    "lift": ("голосования за подъём (кто за)", "votes on lifting (who voted yes)"),
    "lift_passed": ("подъёмы без голосов (только исход)", "lifts without voters (outcome)"),
    "vote_outcome": ("голосования без голосов (кто покинул игру)",
                     "votes without their votes (who left)"),
    "foul": ("фолы со временем", "fouls with their time"),
    "disqualify": ("удаления", "removals"),
    "team_loss": ("присуждения поражения", "team losses awarded"),
}


def _seats(seats: list[int]) -> str:
    return ", ".join(str(s) for s in seats)


def convert_game(record: Mapping[str, Any], profile: RuleProfile,
                 game_id: str | None = None) -> Conversion:
    """One mafiaratings game record as a format-1 game with its log, and the report.

    Raises `RecordError` when the record is not a game at all (no 10 players, a role
    that does not exist); everything else the log cannot take is in `unmapped`.
    """
    gid = game_id or f"mr{record.get('id', '1')}"
    conv = _Converter(record, profile, gid)
    conv.run()
    conv.extras()
    players: list[dict[str, str]] = []
    seats: list[dict[str, Any]] = []
    for s in _SEATS:
        pl = conv.pl(s)
        pid = f"mr{pl['id']}" if pl.get("id") is not None else f"{gid}-seat{s}"
        name = str(pl.get("name") or pl.get("nickname") or pid)
        players.append({"id": pid, "nickname": name})
        seats.append({"seat": s, "player": pid, "role": conv.roles[s]})
    game: dict[str, Any] = {"id": gid, "seats": seats}
    winner = record.get("winner")
    if winner in RESULTS:
        game["result"] = RESULTS[str(winner)]
        conv.mapped.append(Note(f"результат: {winner}", f"result: {winner}"))
        if conv.state.result is not None and conv.state.result != RESULTS[str(winner)]:
            conv.problems.append(Problem("log_contradicts", gid, None, "result", SOURCE,
                                         {"derived": conv.state.result,
                                          "written": RESULTS[str(winner)]}))
    game["log"] = conv.log
    conv.mapped.append(Note("роли 10 мест", "the roles of the 10 seats"))
    for what, n in conv.counts.items():
        ru, en = _WORDS.get(what, (what, what))
        conv.mapped.append(Note(f"{ru}: {n}", f"{en}: {n}"))
    return Conversion(game, players, conv.mapped, conv.unmapped, conv.problems)


def tournament_of(conversion: Conversion, profile: RuleProfile) -> dict[str, Any]:
    """The converted game alone in a format-1 tournament file (for `mafiatab check`)."""
    game = dict(conversion.game, stage="imported", round=1, table=1)
    return {
        "format": "mafiatab.tournament/1",
        "name": f"{SOURCE} {game['id']}",
        "rules": profile.id,
        "players": conversion.players,
        "stages": [{"id": "imported", "name": SOURCE, "kind": "qualification"}],
        "games": [game],
        # pages that show the game name where it comes from (domain/provenance.py)
        FIELD: records_origin(SOURCE, ()),
    }
