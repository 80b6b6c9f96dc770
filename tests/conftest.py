"""Test-wide settings.

In CI (env CI set) hypothesis runs derandomized: the same examples every run, so a
landing never depends on the luck of a draw. Locally it explores new examples each run
(and keeps failures in .hypothesis/), which is where new bugs are found.
"""

from __future__ import annotations

import os

from hypothesis import settings

settings.register_profile("ci", derandomize=True, deadline=None, print_blob=True)
settings.register_profile("dev", deadline=None, print_blob=True)
settings.load_profile("ci" if os.environ.get("CI") else "dev")
