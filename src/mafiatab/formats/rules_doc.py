"""The rule profiles as Markdown, for docs/rules.md (a test keeps that file up to date)."""

from __future__ import annotations

from enum import Enum

from mafiatab.rules.profile import RuleProfile


def _value(value: object) -> str:
    if isinstance(value, Enum):
        return str(value.value)
    if isinstance(value, frozenset):
        return ", ".join(str(v) for v in sorted(value)) or "—"
    if isinstance(value, dict):
        return "; ".join(f"{k}: {v}" for k, v in value.items()) or "—"
    if value is None:
        return "—"
    return str(value).replace("|", "\\|")


def profile_markdown(profile: RuleProfile) -> str:
    """One table: setting, value (points in hundredths), clause."""
    lines = [f"### {profile.title} (`{profile.id}`)", "",
             "| setting | value | clause |", "|---|---|---|"]
    for name, ruled in profile.settings().items():
        lines.append(f"| `{name}` | {_value(ruled.value)} | {ruled.clause} |")
    return "\n".join(lines) + "\n"
