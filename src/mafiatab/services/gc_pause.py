"""Pause the cyclic garbage collector while a large tournament is read and scored.

Reading 10,000 games creates hundreds of thousands of small objects and no cycles; with
the collector running, CPython walks the ever-growing heap again and again while they
are made (more than half the time of a large read). Pausing it for the duration of one
call is the standard remedy; it is switched back on afterwards, whatever happens.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def gc_paused() -> Iterator[None]:
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()
