"""Backups in a folder, newest kept: `db backup DIR --keep N` writes a file named by the
time it was made and then removes the oldest of the program's backups past N.

Only files whose names the program gives (`mafiatab-<UTC time>.sqlite` or
`.dump.gz`) are ever removed, never anything else an operator keeps in the folder; and only
after the new backup is written whole, so a failing backup never costs an old one.
"""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path
from typing import Final

PREFIX: Final = "mafiatab-"
SUFFIXES: Final = (".sqlite", ".dump.gz")
#: the names the program gives: the time to the microsecond (two backups in one second
#: keep both), which also sorts them oldest first
NAME: Final = re.compile(r"^mafiatab-(\d{8}T\d{6}\.\d{6}Z)(\.sqlite|\.dump\.gz)$")


def new_name(suffix: str, now: dt.datetime | None = None) -> str:
    moment = (now or dt.datetime.now(dt.UTC)).astimezone(dt.UTC)
    return f"{PREFIX}{moment.strftime('%Y%m%dT%H%M%S.%fZ')}{suffix}"


def backups(folder: Path) -> list[Path]:
    """The program's backups in `folder`, oldest first."""
    found = [p for p in folder.iterdir() if p.is_file() and NAME.match(p.name)]
    return sorted(found, key=lambda p: NAME.match(p.name).group(1))  # type: ignore[union-attr]


def rotate(folder: Path, keep: int) -> list[Path]:
    """Remove the oldest of the program's backups past `keep`; the files removed."""
    if keep < 1:
        raise ValueError("keep at least one backup")
    old = backups(folder)[:-keep]
    for path in old:
        path.unlink(missing_ok=True)
    return old
