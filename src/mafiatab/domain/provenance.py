"""Where a tournament's results come from when another system recorded them.

The importers keep the origin among the tournament's own fields: a standings table as
another system published it names its file (`published_results.source`, domain/published.py);
game records converted from another system name the system and their files
(`imported_from`: `{"system": "Polemica", "files": ["day1.json"]}`). Every page that shows
such a tournament, or the points and games it gave (the tournament's, a person's, a
club's, the rating), marks it as imported and names this source: `import_source` is the
one phrase they all show, so no page can name it differently.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from mafiatab.domain.published import source_of

#: the tournament file's field that names the system and files of imported game records
FIELD: Final = "imported_from"
#: files named in the phrase (a season's import can hold hundreds)
FILES_SHOWN: Final = 3
#: the longest phrase a page shows
LONGEST: Final = 200


def records_origin(system: str, files: Sequence[str]) -> dict[str, Any]:
    """The `imported_from` field an importer of game records writes."""
    return {"system": system, "files": [str(f) for f in files]}


def import_source(other: Mapping[str, Any]) -> str | None:
    """"Polemica: day1.json, day2.json", a published table's file name, or None when the
    tournament was played here (its fields beyond format 1's: `Tournament.other`)."""
    published = source_of(other)
    if published is not None:
        return published[:LONGEST]
    raw = other.get(FIELD)
    if not isinstance(raw, dict):
        return None
    system = str(raw.get("system") or "").strip() or "—"
    listed = raw.get("files")
    files = [f for f in listed if isinstance(f, str) and f] if isinstance(listed, list) else []
    if not files:
        return system[:LONGEST]
    shown = ", ".join(files[:FILES_SHOWN]) + (", …" if len(files) > FILES_SHOWN else "")
    return f"{system}: {shown}"[:LONGEST]


__all__ = ["FIELD", "import_source", "records_origin"]
