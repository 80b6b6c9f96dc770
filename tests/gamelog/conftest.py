"""Fixtures: an empty log to write, under each rule profile."""

from __future__ import annotations

import pytest

from mafiatab.rules import FIIM2018, FSM
from tests.gamelog.script import Script


@pytest.fixture
def fiim() -> Script:
    return Script(FIIM2018)


@pytest.fixture
def fsm() -> Script:
    return Script(FSM)
