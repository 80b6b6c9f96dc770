"""The course of a game as the judge's live screen shows it: the next step, the events that
move the game on, who may speak, and the refusal of a wrong tap, in the screen's words.

One definition for the server and the phone: the server builds the live screen's state with
`course_view`, and the phone runs this very module (with the engine and the rules it
imports) in the browser under Pyodide (web/static/course.js), so an offline screen says
what the server would say and refuses what the server would refuse, by the same clause.
The server stays the authority: every event the phone queued is replayed again when it
arrives (services/live_log.py).

`Course` keeps one game's replay and takes its events one by one (a tap costs one event's
replay, not the whole log's); the `*_json` methods are the boundary the browser calls, with
JSON text in and out.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from mafiatab.domain.gamelog_engine import GameReplay
from mafiatab.domain.gamelog_events import parse_event
from mafiatab.domain.gamelog_state import NextStep, Step, note_text
from mafiatab.domain.problems import Problem, translate_clause
from mafiatab.rules import get_profile
from mafiatab.rules.profile import RuleProfile

#: the result of a game in words, Russian first
RESULT_TEXT: dict[str, tuple[str, str]] = {
    "red": ("победа красных", "the red team wins"),
    "black": ("победа чёрных", "the black team wins"),
    "draw": ("ничья", "a draw"),
}
#: the events a judge may record while the game goes on, whatever the step (FIIM 6.7, 6.8)
DISCIPLINE: tuple[str, ...] = ("foul", "disqualify", "team_loss")


def _pick(pair: tuple[str, str], lang: str) -> str:
    return pair[0] if lang == "ru" else pair[1]


def unplaced(p: Problem, lang: str) -> str:
    """A problem's text without its place (the screen shows it beside the refused tap)."""
    text = p.message(lang)
    where = p.where(lang)
    if where and text.startswith(where + ": "):
        return text[len(where) + 2:]
    return text


def refusal(p: Problem, lang: str) -> dict[str, Any]:
    """A refused event's problem as the screen and the JSON API give it."""
    return dict(p.as_dict(lang), text=unplaced(p, lang))


def speech_seconds(state: GameReplay, step: NextStep) -> int:
    """The speaker's time: 30 s before a repeated vote, and for a speaker with three fouls
    at a table of three or four (FIIM 7.7); otherwise 60 s."""
    if step.step is Step.DEFENCE:
        return 30
    if step.seat is not None and step.seat in state.lost_speech and (
            len(state.at_table) in state.p.short_speech_table_sizes.value):
        return 30
    return 60


def step_view(state: GameReplay, step: NextStep, lang: str) -> dict[str, Any]:
    """The next step as the screen draws it: its line, the events that move the game on
    (`kinds`), who speaks (`seat`, `last_words`), the candidates and the notes."""
    return {
        "text": step.text(lang),
        "line": step.line(lang, state.first_killed, state.best_move_open),
        "phase": step.phase.label(lang), "kind": step.step.value,
        # the tied candidates' speeches done, the vote now is the repeated one
        "revote": step.step is Step.DEFENCE,
        "kinds": list(step.kinds), "seat": step.seat, "candidates": list(step.candidates),
        "last_words": list(step.last_words), "at_table": list(step.at_table),
        "seconds": speech_seconds(state, step),
        "notes": [t for t in (note_text(n, lang) for n in step.notes) if t.strip()],
    }


def finished_result(state: GameReplay) -> str | None:
    """The result once the log's last events are settled (a day whose only nominee
    leaves): what the protocol takes from the log."""
    if state.result is not None:
        return state.result
    probe = state.clone()
    probe.finish(probe.count)
    return probe.result


def course_view(state: GameReplay, lang: str, result: str | None = None) -> dict[str, Any]:
    """What the live screen shows of the game's course. `result`: the protocol's, when it
    has one (else the log's)."""
    step = state.next_step()
    ended = state.step is Step.ENDED or step.step is Step.ENDED
    out: dict[str, Any] = {
        "step": step_view(state, step, lang),
        "discipline": list(DISCIPLINE) if _discipline_open(state) else [],
        "fouls": {str(s): n for s, n in state.fouls.items()},
        "first_killed": state.first_killed,
        "best_move_open": state.best_move_open,
        "applied": [note_text(n, lang) for n in state.applied],
        "ended": ended, "result": None,
    }
    if ended:
        final = result or finished_result(state)
        out["result"] = final
        text = _pick(RESULT_TEXT[final], lang) if final in RESULT_TEXT else ""
        why = state.end_reason
        if why is not None:
            text += f" ({translate_clause(why.clause, lang)})"
        out["result_text"] = text
    return out


def _discipline_open(state: GameReplay) -> bool:
    """Fouls and removals may come while the game goes on, and after its end only during
    the last words after the last vote or shot (FIIM 7.10)."""
    if state.step is not Step.ENDED:
        return True
    return state.ended_by_vote_or_shot and bool(state.last_words_due or state.speaking_last)


class Course:
    """One game's course, event by event: the live screen's engine, on the server and on
    the phone alike."""

    def __init__(self, roles: Mapping[int, str], profile: RuleProfile, lang: str = "ru",
                 game: str | None = None) -> None:
        self.roles = dict(roles)
        self.profile = profile
        self.lang = lang
        self.game = game
        self.state = GameReplay(self.roles, profile, game)
        self.log: list[dict[str, Any]] = []

    @classmethod
    def of_rules(cls, rules: str, options: Mapping[str, str] | None,
                 roles: Mapping[int, str], lang: str = "ru",
                 game: str | None = None) -> Course:
        """A course under a tournament's rules and switched readings (`rules.get_profile`)."""
        return cls(roles, get_profile(rules, options), lang, game)

    def apply(self, event: Mapping[str, Any]) -> list[Problem]:
        """Record one event; on a problem (malformed or illegal) nothing changes."""
        index = len(self.log)
        parsed = parse_event(dict(event), index, self.game)
        if isinstance(parsed, Problem):
            return [parsed]
        problems = self.state.apply(parsed, index)
        if not problems:
            self.log.append(dict(event))
        return problems

    def extend(self, events: Sequence[Mapping[str, Any]]) -> tuple[int, list[Problem]]:
        """Record events in order up to the first refused one: how many were recorded,
        and the refusal's problems (empty when all were)."""
        for k, event in enumerate(events):
            problems = self.apply(event)
            if problems:
                return k, problems
        return len(events), []

    def undo(self) -> None:
        """Take back the last event (the game is replayed from its start)."""
        log = self.log[:-1]
        self.state = GameReplay(self.roles, self.profile, self.game)
        self.log = []
        self.extend(log)

    def view(self) -> dict[str, Any]:
        return course_view(self.state, self.lang)

    # ------------------------------------------------- the browser's boundary (JSON) ---
    def apply_json(self, event: str) -> str:
        """`apply` for the browser: {"ok": true, "view": ...} or {"ok": false, "problems"}."""
        problems = self.apply(json.loads(event))
        if problems:
            return json.dumps({"ok": False,
                               "problems": [refusal(p, self.lang) for p in problems]},
                              ensure_ascii=False)
        return json.dumps({"ok": True, "view": self.view()}, ensure_ascii=False)

    def view_json(self) -> str:
        return json.dumps(self.view(), ensure_ascii=False)

    def undo_json(self) -> str:
        self.undo()
        return self.view_json()


def open_json(setup: str) -> Course:
    """A course from the browser's JSON: {"rules", "options", "roles" (seat 1 first),
    "lang", "log"} (the log's events are recorded as far as they are legal)."""
    raw = json.loads(setup)
    roles = {n + 1: str(r) for n, r in enumerate(raw["roles"])}
    course = Course.of_rules(str(raw["rules"]), raw.get("options") or {}, roles,
                             str(raw.get("lang") or "ru"), raw.get("game"))
    course.extend(raw.get("log") or [])
    return course


def log_json(course: Course) -> str:
    """The events a course has recorded, as JSON (the browser's `game.log()`)."""
    return json.dumps(course.log, ensure_ascii=False)


__all__ = ["DISCIPLINE", "RESULT_TEXT", "Course", "course_view", "log_json", "open_json", "refusal",
           "step_view", "unplaced"]
