"""The optional parts: presence looked up at each use, the install command for this Python."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from mafiatab import extras


def test_an_extra_installed_while_running_is_seen(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(extras.EXTRAS, "late", ("mafiatab_late_module",))
    monkeypatch.syspath_prepend(str(tmp_path))
    assert extras.missing("late") == ("mafiatab_late_module",)
    assert not extras.installed("late")
    (tmp_path / "mafiatab_late_module.py").write_text("")  # as pip would, later
    assert extras.missing("late") == ()
    assert extras.installed("late")


def test_the_install_command_names_this_python_and_the_extra() -> None:
    assert extras.install_command("charts") == f"{sys.executable} -m pip install 'mafiatab[charts]'"


def test_the_test_install_has_every_extra() -> None:
    """CI installs `.[test]`, which brings `all`: every part is tested."""
    assert all(extras.installed(name) for name in extras.EXTRAS)
