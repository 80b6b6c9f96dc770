"""The documentation stays complete: every setting and every command is described."""

from __future__ import annotations

from mafiatab.cli import app
from mafiatab.formats.rules_doc import profile_markdown
from mafiatab.rules import PROFILES
from tests.helpers import REPO


def test_docs_rules_is_the_profiles_as_they_are() -> None:
    text = (REPO / "docs" / "rules.md").read_text(encoding="utf-8")
    for profile in PROFILES.values():
        assert profile_markdown(profile) in text, (
            f"docs/rules.md is out of date for {profile.id}: regenerate it with "
            f"`mafiatab rules {profile.id} --markdown`")


def test_every_setting_has_a_clause() -> None:
    for profile in PROFILES.values():
        for name, ruled in profile.settings().items():
            assert ruled.clause.strip(), (profile.id, name)
            assert ruled.clause.startswith((profile.federation, "scoring.md")), (profile.id, name)


def test_every_core_command_is_documented() -> None:
    text = (REPO / "docs" / "commands.md").read_text(encoding="utf-8")
    for name in ("standings", "check", "explain", "lots", "rules", "demo"):
        assert f"`mafiatab {name}" in text, name
    registered = {c.name or (c.callback.__name__ if c.callback else "") for c in app.registered_commands}
    assert {"standings", "check", "explain", "lots", "rules", "demo"} <= registered
