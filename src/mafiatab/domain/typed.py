"""What the judge typed that could not be read: kept with its problem, never dropped.

A protocol holds only what was read (a seat 1-10, a number with two places). A value that
is not one — a seat 11 among the nominations, a Cyrillic «о,3» in an extra — stays out of
the protocol, but the draft keeps its text exactly as typed, under the name of the field
it was typed in, together with the problems it raised. A reload shows it again beside its
field with its message, and a submit is refused while any such value is left: the judge
fixes or clears it, the program never does it for him.

These values are the draft's, not the game's facts: they are no part of format 1 and no
export carries them (a submitted protocol never has any).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from mafiatab.domain.problems import Problem, Typed, Word

#: what a field of the form takes, in words (the `type` problem's `expected`)
EXPECTED: Final[dict[str, tuple[str, str]]] = {
    "seats": ("номера мест", "seat numbers"),
    "nominations": ("выставления вида 2>5", "nominations like 2>5"),
    "votes": ("голоса вида 5:6", "votes like 5:6"),
    "count": ("число голосов", "a number of votes"),
    "number": ("число", "a number"),
    "whole": ("целое число", "a whole number"),
}
#: the longest text kept for one field, and the most fields kept (every input bounded)
MAX_TEXT: Final = 500
MAX_FIELDS: Final = 200
#: the longest name of a field
MAX_NAME: Final = 60


def expected(what: str) -> Word:
    """What a field takes, as a problem's parameter: words for people, a code for the API."""
    return Word(what, *EXPECTED[what])


@dataclass(frozen=True, slots=True)
class RawField:
    """One field's text as typed, and why it could not be read."""

    text: str
    problems: tuple[Problem, ...]


def _params_to_json(p: Problem) -> dict[str, Any]:
    return {k: str(v) if isinstance(v, str) else v for k, v in p.params.items()}


def _params_from_json(params: Mapping[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in params.items():
        if k == "expected" and isinstance(v, str) and v in EXPECTED:
            out[k] = expected(v)
        elif isinstance(v, str):
            out[k] = Typed(v)
        else:
            out[k] = v
    return out


def to_json(typed: Mapping[str, RawField]) -> dict[str, Any]:
    """The stored form: {field name: {"text": ..., "problems": [{code, seat, field, clause,
    params}]}} (params as text: a typed value is text)."""
    return {name: {"text": rf.text, "problems": [
        {"code": p.code, "game": p.game, "seat": p.seat, "field": p.field,
         "clause": p.clause, "params": _params_to_json(p)} for p in rf.problems]}
        for name, rf in typed.items()}


def from_json(data: Any) -> dict[str, RawField]:
    """The stored form read back (anything that is not one is no raw field)."""
    if not isinstance(data, dict):
        return {}
    out: dict[str, RawField] = {}
    for name, item in data.items():
        if not (isinstance(name, str) and isinstance(item, dict)
                and isinstance(item.get("text"), str)):
            continue
        problems = tuple(
            Problem(str(p["code"]), p.get("game"), p.get("seat"), p.get("field"),
                    p.get("clause"), _params_from_json(p.get("params") or {}))
            for p in item.get("problems") or [] if isinstance(p, dict) and "code" in p)
        out[name] = RawField(item["text"], problems)
    return out


def problems_of(typed: Mapping[str, RawField]) -> list[Problem]:
    """Every problem of the values kept, field by field."""
    return [p for rf in typed.values() for p in rf.problems]


def bounded(typed: Mapping[str, RawField]) -> bool:
    """Whether the values are within the bounds a draft keeps."""
    return len(typed) <= MAX_FIELDS and all(
        len(name) <= MAX_NAME and len(rf.text) <= MAX_TEXT for name, rf in typed.items())


__all__ = ["EXPECTED", "MAX_FIELDS", "MAX_NAME", "MAX_TEXT", "RawField", "bounded",
           "expected", "from_json", "problems_of", "to_json"]
