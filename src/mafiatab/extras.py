"""The optional parts of the install and the words that say one is missing.

The default install serves tournaments (SQLite and PostgreSQL), printouts and exports; two
heavy parts are extras of the package, installed on request:

- `seating`: the seating generator (numba compiles its search, OR-Tools' CP-SAT balances the
  seats and table numbers; about 370 MB with llvmlite and pandas);
- `charts`: the charts of places and win rates (matplotlib, about 75 MB).

A command, page or export that needs a missing part says so in the reader's language with
the command that installs it into the very Python that runs mafiatab, and everything else
keeps working. Presence is looked up without importing anything (`find_spec`), at each use:
a server started before the extra was installed sees it once it is.
"""

from __future__ import annotations

import importlib.util
import sys
from typing import Final

#: an extra -> the top-level modules it installs that mafiatab imports
EXTRAS: Final[dict[str, tuple[str, ...]]] = {
    "seating": ("numba", "ortools"),
    "charts": ("matplotlib",),
}


def missing(extra: str) -> tuple[str, ...]:
    """The modules of `extra` this Python cannot import (none when the extra is installed)."""
    gone = _look(extra)
    if gone:
        # installed since this process last looked (a long-running server)? the import
        # system's folder listings are cached: read them again, once, only on a miss
        importlib.invalidate_caches()
        gone = _look(extra)
    return gone


def _look(extra: str) -> tuple[str, ...]:
    gone: list[str] = []
    for name in EXTRAS[extra]:
        try:
            found = importlib.util.find_spec(name) is not None
        except (ImportError, ValueError):  # a broken or half-removed install
            found = False
        if not found:
            gone.append(name)
    return tuple(gone)


def installed(extra: str) -> bool:
    return not missing(extra)


def install_command(extra: str) -> str:
    """The command that adds `extra` to the Python running mafiatab (pip keeps the
    installed mafiatab and adds only what the extra needs)."""
    python = sys.executable or "python3"
    quoted = f"'{python}'" if " " in python else python
    return f"{quoted} -m pip install 'mafiatab[{extra}]'"


__all__ = ["EXTRAS", "install_command", "installed", "missing"]
