"""JSON Schemas of the two documents other programs exchange with mafiatab: the tournament
file (format 1, `mafiatab.tournament/1`) and the standings output (`mafiatab.standings/1`).
`mafiatab schema tournament|standings` prints them; docs/tournament-file.md explains them.

Both are generated from the types the program itself reads and writes (msgspec's schema
of `domain.protocol.Tournament` and of `formats.standings_json.StandingsDocument`), so
they cannot drift from the code. msgspec knows the types; what a type alone does not say
is added here from the code's own constants: the closed word lists (roles, results, stage
kinds, penalty kinds, rule sets), the seat numbers, points as JSON numbers (the reader
takes them exactly, as Decimal), and the optional fields importers add. The field under
which the reader keeps unknown fields is the reader's bookkeeping, never a file's, so it
is left out: the schema describes a file the reader takes without a warning.
"""

from __future__ import annotations

import json
from typing import Any, Final

import msgspec

from mafiatab.domain import protocol as model
from mafiatab.domain.provenance import FIELD as ORIGIN
from mafiatab.formats.standings_json import FORMAT as STANDINGS_FORMAT
from mafiatab.formats.standings_json import StandingsDocument
from mafiatab.formats.tournament_json import FORMAT as TOURNAMENT_FORMAT
from mafiatab.rules import PROFILES

DRAFT: Final = "https://json-schema.org/draft/2020-12/schema"
SEAT: Final = {"type": "integer", "minimum": 1, "maximum": 10}
SEAT_KEY: Final = {"pattern": "^([1-9]|10)$"}
#: what a point value is in a file: a JSON number (or its exact text), read as Decimal
POINTS: Final = {"anyOf": [{"type": "number"}, {"type": "string", "pattern": r"^-?\d+(\.\d+)?$"}]}
NAMES: Final = ("tournament", "standings")


def _walk(node: Any) -> None:
    """Points as numbers wherever msgspec wrote a Decimal as text."""
    if isinstance(node, dict):
        if node.get("type") == "string" and node.get("format") == "decimal":
            node.clear()
            node.update(POINTS)
            return
        for value in node.values():
            _walk(value)
    elif isinstance(node, list):
        for value in node:
            _walk(value)


def _props(defs: dict[str, Any], name: str) -> dict[str, Any]:
    props: dict[str, Any] = defs[name]["properties"]
    return props


def _published_results() -> dict[str, Any]:
    """`published_results`, as `import-records --from csv` writes it (docs/importers.md)."""
    number = {"type": "string", "pattern": r"^-?\d+(\.\d+)?$"}
    mark = {"type": "object", "properties": {"field": {"type": "string"},
                                             "ru": {"type": "string"},
                                             "en": {"type": "string"}},
            "required": ["field"]}
    row: dict[str, Any] = {
        "type": "object",
        "properties": {
            "player": {"type": "string"}, "nickname": {"type": "string"},
            **{k: {"type": "integer", "minimum": 0}
               for k in ("place", "games", "wins", "first_killed")},
            **{k: number for k in ("total", "main", "extra", "best_move", "compensation",
                                   "penalties")},
            "game_points": {"type": "array", "items": {"anyOf": [number, {"type": "null"}]}},
            "marks": {"type": "array", "items": mark},
        },
        "required": ["player", "nickname"],
    }
    return {"description": "A standings table another system published, kept as published "
                           "(import-records --from csv)",
            "type": "object",
            "properties": {"source": {"type": "string"},
                           "rules_scales": {"enum": sorted(PROFILES)},
                           "lenient": {"type": "boolean"},
                           "columns": {"type": "array", "items": {"type": "string"}},
                           "rows": {"type": "array", "items": row}},
            "required": ["source", "rows"]}


def tournament_schema() -> dict[str, Any]:
    """The JSON Schema of a format-1 tournament file."""
    schema: dict[str, Any] = msgspec.json.schema(model.Tournament)
    defs: dict[str, Any] = schema["$defs"]
    for d in defs.values():
        d.get("properties", {}).pop(model.UNKNOWN_KEY, None)
    _walk(schema)
    t = _props(defs, "Tournament")
    t["format"] = {"const": TOURNAMENT_FORMAT}
    t["rules"] = {"enum": sorted(PROFILES)}
    t["participants"] = {"anyOf": [{"type": "integer", "minimum": 1}, {"type": "null"}]}
    t["crosswalk"] = {
        "description": "Other systems' player ids: system -> its id -> players[].id",
        "type": "object",
        "additionalProperties": {"type": "object", "additionalProperties": {"type": "string"}}}
    t["published_results"] = _published_results()
    t[ORIGIN] = {
        "description": "The system and files imported game records come from "
                       "(import-records --from polemica); pages name them beside the games",
        "type": "object",
        "properties": {"system": {"type": "string"},
                       "files": {"type": "array", "items": {"type": "string"}}},
        "required": ["system"]}
    defs["Tournament"]["required"] = ["format", "name", "rules", "players", "stages"]
    _props(defs, "Stage")["kind"] = {"enum": list(model.STAGE_KINDS)}
    seat = _props(defs, "Seat")
    seat["seat"] = dict(SEAT)
    seat["role"] = {"enum": list(model.ROLES)}
    g = _props(defs, "Game")
    g["round"] = g["table"] = {"type": "integer", "minimum": 1}
    g["seats"] = {"type": "array", "items": {"$ref": "#/$defs/Seat"}, "minItems": 10,
                  "maxItems": 10}
    g["result"] = {"enum": list(model.RESULTS)}
    g["first_killed"] = g["night_killed"] = {"anyOf": [dict(SEAT), {"type": "null"}]}
    g["best_move"] = {"type": "array", "items": dict(SEAT)}
    g["day1_vote_left"] = {"type": "integer", "minimum": 0}
    for key in ("scores", "fouls", "explanations"):
        g[key]["propertyNames"] = dict(SEAT_KEY)
    g["live"] = {"description": "The live screen's bookkeeping of the game log (the "
                                "program's own; kept as written)", "type": "object"}
    _props(defs, "Penalty")["kind"] = {"enum": list(model.PENALTY_KINDS)}
    entry = _props(defs, "ProtocolEntry")
    entry["seat"] = dict(SEAT)
    entry["colour"] = {"enum": ["red", "black"]}
    entry["tag"] = {"anyOf": [{"enum": list(model.ENTRY_TAGS)}, {"type": "null"}]}
    _props(defs, "Version")["situation"] = {"enum": list(model.VERSION_SITUATIONS)}
    _props(defs, "VoteRound")["kind"] = {"enum": list(model.VOTE_KINDS)}
    return {"$schema": DRAFT, "$id": "urn:mafiatab:tournament:1",
            "title": f"{TOURNAMENT_FORMAT}: a tournament file", **schema}


def standings_schema() -> dict[str, Any]:
    """The JSON Schema of the standings output (`mafiatab standings --json`)."""
    schema: dict[str, Any] = msgspec.json.schema(StandingsDocument)
    defs: dict[str, Any] = schema["$defs"]
    doc = _props(defs, "StandingsDocument")
    doc["format"] = {"const": STANDINGS_FORMAT}
    doc["rules"] = {"enum": sorted(PROFILES)}
    row = _props(defs, "StandingsRow")
    row["place"] = {"type": "integer", "minimum": 1}
    for d in defs.values():
        d["required"] = sorted(d.get("properties", {}))
    # exhibition players' lines: only when there are any
    defs["StandingsDocument"]["required"].remove("exhibition")
    return {"$schema": DRAFT, "$id": "urn:mafiatab:standings:1",
            "title": f"{STANDINGS_FORMAT}: a tournament's standings", **schema}


def schema_of(name: str) -> dict[str, Any]:
    if name == "tournament":
        return tournament_schema()
    if name == "standings":
        return standings_schema()
    raise KeyError(name)


def dumps_schema(name: str) -> str:
    return json.dumps(schema_of(name), ensure_ascii=False, indent=1) + "\n"


__all__ = ["NAMES", "dumps_schema", "schema_of", "standings_schema", "tournament_schema"]
