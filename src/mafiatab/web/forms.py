"""The protocol form (FIIM section 9) to a `Game` and back, and problems to form slots.

The form is flat HTML fields (`role_3`, `extra_7`, `day_2_votes`…) so that it works with
plain form posts and htmx alike; this module is the one place that knows the names. What
the sheet records but nothing scores (fouls, nominations and votes, explanations, the
protest) goes into the game's format-1 fields of the same names (docs/format.md).

Nothing typed is dropped silently: a value that cannot be read (a seat 11, a word where
seats go) is a problem with its field, shown beside it, and refuses the submit; its text,
exactly as typed, goes with the draft (`Parsed.typed`, `domain.typed`) so that a reload
shows it again beside its field.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from decimal import Decimal, InvalidOperation
from typing import Final

from mafiatab.domain import protocol as model
from mafiatab.domain.course import unplaced
from mafiatab.domain.problems import Problem, Typed
from mafiatab.domain.typed import RawField, expected
from mafiatab.rules.profile import RuleProfile

SEATS: Final = tuple(range(1, 11))
DAYS: Final = (1, 2, 3, 4, 5)
PU_ENTRIES: Final = (1, 2, 3)
BEST_MOVE_SLOTS: Final = (1, 2, 3)
#: penalties per seat on the form: field names `pen_kind_4`, `pen2_kind_4`, `pen3_kind_4`
#: (a player may carry several: FSM 8.5.1 "penalties for different actions add up")
PENALTY_SLOTS: Final = ("pen", "pen2", "pen3")
#: game-level slots beside which problems are shown; anything else goes to "general"
GAME_SLOTS: Final = ("result", "first_killed", "best_move", "seats", "scores", "pu",
                     "day1_vote_left", "broken_table", "days", "protest", "general")

Form = Mapping[str, str]


@dataclass(slots=True)
class Parsed:
    game: model.Game
    #: problems of the typing itself (a number that is not one), with their slots
    problems: list[Problem] = field(default_factory=list)
    #: the text of each field that could not be read, as typed, with its problems
    typed: dict[str, RawField] = field(default_factory=dict)


def _text(form: Form, name: str) -> str:
    return (form.get(name) or "").strip()


def _seat(form: Form, name: str, problems: list[Problem] | None = None,
          game: str | None = None, field: str | None = None) -> int | None:
    """A seat typed or chosen; anything else that is not blank is a problem of `field`."""
    value = _text(form, name)
    if value.isdecimal() and len(value) <= 2 and 1 <= int(value) <= 10:
        return int(value)
    if value and problems is not None:
        problems.append(Problem("seat_number", game, None, field or name, "scoring.md 1",
                                {"value": Typed(value)}))
    return None


def _points(form: Form, name: str, seat: int | None, fname: str,
            problems: list[Problem], game: str) -> Decimal | None:
    typed = _text(form, name)
    raw = typed.replace(",", ".").replace("−", "-")
    if not raw:
        return None
    try:
        value = Decimal(raw) if len(raw) <= 12 else Decimal("NaN")
        exact = value.is_finite() and value == value.quantize(Decimal("0.01"))
    except InvalidOperation:
        exact = False
    if not exact:
        problems.append(Problem("points_format", game, seat, fname, None,
                                {"value": Typed(typed)}))
        return None
    return value


_TOKEN = re.compile(r"[^\s,;]+")
_NOMINATION = re.compile(r"^(?:(\d{1,3})\s*(?:>|→|->))?\s*(\d{1,3})$", re.ASCII)
_COUNT = re.compile(r"^(\d{1,3})\s*[:=]\s*(\d{1,3})$", re.ASCII)


def _small(tok: str) -> bool:
    """A short whole number in any script's decimal digits (int() reads them); superscripts
    and thousands of digits are no number here (int() would fail or take long on them)."""
    return tok.isdecimal() and len(tok) <= 3


def _unreadable(problems: list[Problem], game: str, field: str, raw: str,
                what: str, seat: int | None = None) -> None:
    problems.append(Problem("type", game, seat, field, None,
                            {"expected": expected(what), "got": Typed(raw)}))


def _seats_list(text: str, problems: list[Problem], game: str, field: str) -> list[int]:
    """'4 7' to [4, 7]; a seat outside 1-10 or a word is a problem of `field` (the
    value is kept out of the protocol, the message stays beside the field)."""
    out: list[int] = []
    for tok in _TOKEN.findall(text):
        if not _small(tok):
            _unreadable(problems, game, field, tok, "seats")
        elif not 1 <= int(tok) <= 10:
            problems.append(Problem("seat_number", game, None, field, "scoring.md 1",
                                    {"value": Typed(tok)}))
        else:
            out.append(int(tok))
    return out


def _nominations(text: str, problems: list[Problem], game: str,
                 field: str) -> list[model.Nomination]:
    """'2>5 4>7' (who > whom), or '5 7' (whom only)."""
    out: list[model.Nomination] = []
    for tok in re.findall(r"\d+\s*(?:>|→|->)\s*\d+|[^\s,;]+", text):
        m = _NOMINATION.match(tok.replace(" ", ""))
        if m is None:
            _unreadable(problems, game, field, tok, "nominations")
            continue
        by, seat = (int(m[1]) if m[1] else None), int(m[2])
        bad = [t for x, t in ((by, m[1]), (seat, m[2])) if x is not None and not 1 <= x <= 10]
        if bad:
            problems.append(Problem("seat_number", game, None, field, "scoring.md 1",
                                    {"value": Typed(bad[0])}))
            continue
        out.append(model.Nomination(seat=seat, by=by))
    return out


def _counts(text: str, problems: list[Problem], game: str, field: str) -> dict[int, int]:
    """'3:4 5:6' (seat: votes) to {3: 4, 5: 6}."""
    out: dict[int, int] = {}
    for tok in re.findall(r"\d+\s*[:=]\s*\d+|[^\s,;]+", text):
        m = _COUNT.match(tok.replace(" ", ""))
        if m is None:
            _unreadable(problems, game, field, tok, "votes")
            continue
        seat, n = int(m[1]), int(m[2])
        if not 1 <= seat <= 10:
            problems.append(Problem("seat_number", game, None, field, "scoring.md 1",
                                    {"value": Typed(m[1])}))
            continue
        out[seat] = n
    return out


class _Typing:
    """The problems of the typing, each field's remembered with the text typed there."""

    def __init__(self, form: Form) -> None:
        self.form = form
        self.problems: list[Problem] = []
        self.typed: dict[str, RawField] = {}
        self._start = 0
        self._name = ""

    def field(self, name: str) -> str:
        """The text of the input `name`; its problems from now on are its own."""
        self._start = len(self.problems)
        self._name = name
        return _text(self.form, name)

    def done(self) -> None:
        """Keep the text of the field just read when it raised a problem."""
        if len(self.problems) > self._start:
            self.typed[self._name] = RawField(_text(self.form, self._name),
                                              tuple(self.problems[self._start:]))
        self._start = len(self.problems)


def _days(t: _Typing, code: str) -> list[model.Day]:
    problems = t.problems
    days: list[model.Day] = []
    for d in DAYS:
        where = f"days.{d}"
        noms = _nominations(t.field(f"day_{d}_nominated"), problems, code,
                            where + ".nominations")
        t.done()
        votes: list[model.VoteRound] = []
        for kind, name in (("vote", "votes"), ("revote", "revote")):
            counts = _counts(t.field(f"day_{d}_{name}"), problems, code, where + ".votes")
            t.done()
            if counts:
                votes.append(model.VoteRound(kind=kind, counts=counts))
        lift = t.field(f"day_{d}_lift")
        if lift:
            if _small(lift):
                votes.append(model.VoteRound(kind="lift", count=int(lift)))
            else:
                _unreadable(problems, code, where + ".votes", lift, "count")
        t.done()
        left = _seats_list(t.field(f"day_{d}_left"), problems, code, where + ".left")
        t.done()
        if noms or votes or left:
            days.append(model.Day(day=d, nominations=noms, votes=votes, left=left))
    return days


def _clause(profile: RuleProfile, field: str) -> str:
    """The rule a field's typing answers to: points to the rule of their scale, what the
    sheet records to the rule of the judge's protocol."""
    name = field.split(".", 1)[0]
    by_field = {"extra": profile.extra_limits.clause, "pu_extra": profile.pu_extra_scale.clause,
                "will": profile.will_scale.clause, "protocol": profile.protocol_scale.clause,
                "penalties": profile.penalty_game_action_fixed.clause,
                "first_killed": profile.best_move_max_numbers.clause,
                "best_move": profile.best_move_max_numbers.clause,
                "pu_protocol": profile.pu_protocol_versions.clause}
    return by_field.get(name, profile.paper_clause)


def _with_clauses(parsed: Parsed, profile: RuleProfile) -> Parsed:
    """Each typing problem cites the tournament's rule for its field."""
    def cite(p: Problem) -> Problem:
        return replace(p, clause=_clause(profile, p.field or ""))
    return Parsed(parsed.game, [cite(p) for p in parsed.problems],
                  {name: RawField(rf.text, tuple(cite(p) for p in rf.problems))
                   for name, rf in parsed.typed.items()})


def game_from_form(form: Form, *, code: str, stage: str, rnd: int, table: int,
                   profile: RuleProfile | None = None) -> Parsed:
    """The game a filled form describes; where, when and which table come from the
    stored game, never from the form (a judge cannot move his protocol elsewhere).
    `profile`: the tournament's rules, whose clauses the typing problems cite."""
    parsed = _game_from_form(form, code=code, stage=stage, rnd=rnd, table=table)
    return parsed if profile is None else _with_clauses(parsed, profile)


def _game_from_form(form: Form, *, code: str, stage: str, rnd: int, table: int) -> Parsed:
    t = _Typing(form)
    problems = t.problems
    seats = [model.Seat(seat=i, player=_text(form, f"player_{i}"), role=_text(form, f"role_{i}"))
             for i in SEATS]
    t.field("first_killed")
    fk = _seat(form, "first_killed", problems, code)
    t.done()
    best: list[int] = []
    for k in BEST_MOVE_SLOTS:
        t.field(f"best_move_{k}")
        b = _seat(form, f"best_move_{k}", problems, code, "best_move")
        t.done()
        if b is not None:
            best.append(b)
    scores: dict[int, model.SeatScores] = {}
    fouls: dict[int, int] = {}
    explanations: dict[int, str] = {}
    for i in SEATS:
        read = {}
        for what in ("extra", "will", "protocol"):
            t.field(f"{what}_{i}")
            read[what] = _points(form, f"{what}_{i}", i, what, problems, code)
            t.done()
        sc = model.SeatScores(
            extra=read["extra"], will=read["will"], protocol=read["protocol"],
            same_as_will=form.get(f"same_{i}") == "on",
            approved=form.get(f"approved_{i}") == "on",
        )
        for slot in PENALTY_SLOTS:
            kind = _text(form, f"{slot}_kind_{i}")
            if not kind:
                # what was written of a penalty whose kind is not chosen yet waits for it
                for part in ("points", "rule", "note"):
                    if t.field(f"{slot}_{part}_{i}"):
                        problems.append(Problem("penalty_no_kind", code, i, "penalties", None,
                                                {"value": Typed(t.field(f"{slot}_{part}_{i}"))}))
                    t.done()
                continue
            t.field(f"{slot}_points_{i}")
            pts = _points(form, f"{slot}_points_{i}", i, "penalties.points", problems, code)
            t.done()
            note = _text(form, f"{slot}_note_{i}") or None
            critical = (form.get(f"{slot}_critical_{i}") == "on"
                        if kind == "disqualification" else None)
            rule = _text(form, f"{slot}_rule_{i}") or None
            sc.penalties.append(model.Penalty(kind=kind, critical=critical, points=pts,
                                              rule=rule, note=note))
        if fk == i:
            t.field("pu_extra")
            sc.pu_extra = _points(form, "pu_extra", i, "pu_extra", problems, code)
            t.done()
            entries = []
            for k in PU_ENTRIES:
                t.field(f"pu_seat_{k}")
                seat = _seat(form, f"pu_seat_{k}", problems, code, "pu_protocol")
                t.done()
                colour = _text(form, f"pu_colour_{k}")
                if seat is not None and colour:
                    entries.append(model.ProtocolEntry(seat=seat, colour=colour,
                                                       tag=_text(form, f"pu_tag_{k}") or None))
            situation = _text(form, "pu_situation")
            version = (model.Version(situation=situation, right=form.get("pu_right") == "on")
                       if situation else None)
            aside = form.get("pu_aside") == "on"
            if entries or version or aside:
                sc.pu_protocol = model.PuProtocol(entries=entries, version=version, aside=aside)
        if sc != model.SeatScores():
            scores[i] = sc
        f = t.field(f"fouls_{i}")
        if _small(f) and int(f):
            fouls[i] = int(f)  # more than 4: the rule checks say so beside the seat
        elif f and not _small(f):
            _unreadable(problems, code, "fouls", f, "number", seat=i)
        t.done()
        e = _text(form, f"expl_{i}")
        if e:
            explanations[i] = e
    if fk is None:
        # the first killed's fields wait for him (they are his seat's)
        for name in ("pu_extra", *(f"pu_seat_{k}" for k in PU_ENTRIES)):
            if t.field(name):
                problems.append(Problem("pu_without_fk", code, None,
                                        "pu_extra" if name == "pu_extra" else "pu_protocol",
                                        None, {"value": Typed(t.field(name))}))
            t.done()
    days = _days(t, code)
    protest = None
    if any(_text(form, n) for n in ("protest", "protest_by", "protest_at", "protest_decision")):
        t.field("protest_by")
        by = _seat(form, "protest_by", problems, code, "protest.by")
        t.done()
        protest = model.Protest(by=by, at=_text(form, "protest_at") or None,
                                text=_text(form, "protest"),
                                decision=_text(form, "protest_decision") or None)
    d1 = t.field("day1_vote_left")
    if d1 and not _small(d1):
        _unreadable(problems, code, "day1_vote_left", d1, "whole")
    t.done()
    game = model.Game(
        id=code, stage=stage, round=rnd, table=table,
        date=_text(form, "date") or None, judge=_text(form, "judge") or None,
        seats=seats, result=_text(form, "result"), first_killed=fk,
        best_move=best,  # without a first killed: refused beside its field, not dropped
        day1_vote_left=int(d1) if _small(d1) else 0,
        broken_table=form.get("broken_table") == "on",
        limits_approved=form.get("limits_approved") == "on",
        scores=scores, fouls=fouls, days=days, explanations=explanations, protest=protest,
    )
    return Parsed(game, problems, t.typed)


def _num(value: Decimal | None) -> str:
    return "" if value is None else format(value, "f")


def form_from_game(g: model.Game) -> dict[str, str]:
    """The values a form shows for a stored protocol (the inverse of `game_from_form`)."""
    v: dict[str, str] = {
        "date": g.date or "", "judge": g.judge or "", "result": g.result,
        "first_killed": str(g.first_killed or ""), "day1_vote_left": str(g.day1_vote_left or ""),
        "broken_table": "on" if g.broken_table else "",
        "limits_approved": "on" if g.limits_approved else "",
    }
    for k, seat in zip(BEST_MOVE_SLOTS, g.best_move, strict=False):
        v[f"best_move_{k}"] = str(seat)
    for s in g.seats:
        v[f"player_{s.seat}"] = s.player
        v[f"role_{s.seat}"] = s.role
    for seat, sc in g.scores.items():
        v[f"extra_{seat}"] = _num(sc.extra)
        v[f"will_{seat}"] = _num(sc.will)
        v[f"protocol_{seat}"] = _num(sc.protocol)
        v[f"same_{seat}"] = "on" if sc.same_as_will else ""
        v[f"approved_{seat}"] = "on" if sc.approved else ""
        for slot, p in zip(PENALTY_SLOTS, sc.penalties, strict=False):
            v[f"{slot}_kind_{seat}"] = p.kind
            v[f"{slot}_points_{seat}"] = _num(p.points)
            v[f"{slot}_note_{seat}"] = p.note or ""
            v[f"{slot}_rule_{seat}"] = p.rule or ""
            v[f"{slot}_critical_{seat}"] = "on" if p.critical else ""
        if seat == g.first_killed:
            v["pu_extra"] = _num(sc.pu_extra)
            if sc.pu_protocol is not None:
                for k, e in zip(PU_ENTRIES, sc.pu_protocol.entries, strict=False):
                    v[f"pu_seat_{k}"] = str(e.seat)
                    v[f"pu_colour_{k}"] = e.colour
                    v[f"pu_tag_{k}"] = e.tag or ""
                if sc.pu_protocol.version is not None:
                    v["pu_situation"] = sc.pu_protocol.version.situation
                    v["pu_right"] = "on" if sc.pu_protocol.version.right else ""
                v["pu_aside"] = "on" if sc.pu_protocol.aside else ""
    for seat, n in g.fouls.items():
        v[f"fouls_{seat}"] = str(n)
    for seat, text in g.explanations.items():
        v[f"expl_{seat}"] = text
    for day in g.days:
        d = day.day
        v[f"day_{d}_nominated"] = " ".join(
            f"{n.by}>{n.seat}" if n.by is not None else str(n.seat) for n in day.nominations)
        for vote in day.votes:
            if vote.kind == "lift":
                v[f"day_{d}_lift"] = str(vote.count or 0)
            else:
                name = "votes" if vote.kind == "vote" else "revote"
                v[f"day_{d}_{name}"] = " ".join(f"{s}:{n}" for s, n in vote.counts.items())
        v[f"day_{d}_left"] = " ".join(map(str, day.left))
    if g.protest is not None:
        v["protest"] = g.protest.text
        v["protest_by"] = str(g.protest.by or "")
        v["protest_at"] = g.protest.at or ""
        v["protest_decision"] = g.protest.decision or ""
    return v


def form_with_typed(g: model.Game, typed: Mapping[str, RawField]) -> dict[str, str]:
    """The values a form shows for a stored draft: its protocol, and over it each field's
    text exactly as the judge typed it where it could not be read."""
    v = form_from_game(g)
    v.update({name: rf.text for name, rf in typed.items()})
    return v


def short_message(p: Problem, lang: str) -> str:
    """A problem's text without its place: it is shown beside its field already. A value
    as typed keeps its field's words: a seat's row and the days hold several fields, and
    the judge must see which of them holds what he typed."""
    if any(isinstance(v, Typed) for v in p.params.values()):
        words = p.field_words(lang)
        text = replace(p, game=None, seat=None, field=None).message(lang)
        return f"{words}: {text}" if words else text
    return unplaced(p, lang)  # as the phone's engine words a refusal (domain/course.py)


def slot_of(p: Problem) -> str:
    """Where on the form a problem is shown: beside its seat's row, or its game field."""
    f = p.field or ""
    if f.startswith("pu_") or f == "pu_extra":
        return "pu"
    if f.startswith("days."):
        return "days"
    if f.startswith("protest"):
        return "protest"
    if p.seat is not None and f not in ("best_move", "first_killed", "seats", "scores"):
        return f"seat-{p.seat}"
    for name in GAME_SLOTS:
        if f == name or f.startswith(name + "."):
            return name
    if f in ("role", "player"):
        return "seats"
    return "general"


def slots(problems: list[Problem]) -> dict[str, list[Problem]]:
    """Every slot of the form (seats and game fields), each with its problems (maybe none),
    so that a fix clears the message that was there."""
    out: dict[str, list[Problem]] = {f"seat-{i}": [] for i in SEATS}
    out.update({name: [] for name in GAME_SLOTS})
    for p in problems:
        out[slot_of(p)].append(p)
    return out
