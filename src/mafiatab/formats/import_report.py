"""The report of an import from another system: what was mapped, and what could not be.

An importer never drops a fact silently: each thing of the source either becomes part of
the format-1 tournament (a `mapped` line), is left out with the reason (`not_mapped`), or
is kept as published but marked as off today's scales (`marked`, `--lenient`). The lines
are data in both languages, so the CLI prints them in the user's language and `--report`
writes them as JSON for a federation's archive.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Final

REPORT_FORMAT: Final = "mafiatab.import-report/1"

MAPPED: Final = "mapped"
NOT_MAPPED: Final = "not_mapped"
MARKED: Final = "marked"
KINDS: Final = (MAPPED, NOT_MAPPED, MARKED)


@dataclass(frozen=True, slots=True)
class Line:
    """One thing of the source and what became of it."""

    kind: str  # MAPPED, NOT_MAPPED or MARKED
    #: where in the source: "game 328635", "row 4", "file"
    where: str
    ru: str
    en: str

    def text(self, lang: str) -> str:
        return f"{self.where}: {self.ru if lang == 'ru' else self.en}"

    def as_dict(self) -> dict[str, str]:
        return {"kind": self.kind, "where": self.where, "ru": self.ru, "en": self.en}


@dataclass(slots=True)
class ImportReport:
    """Every line of one import, in the order the source was read."""

    source: str  # "polemica", "points_csv"
    files: list[str] = field(default_factory=list)
    lines: list[Line] = field(default_factory=list)

    def mapped(self, where: str, ru: str, en: str) -> None:
        self.lines.append(Line(MAPPED, where, ru, en))

    def not_mapped(self, where: str, ru: str, en: str) -> None:
        self.lines.append(Line(NOT_MAPPED, where, ru, en))

    def marked(self, where: str, ru: str, en: str) -> None:
        self.lines.append(Line(MARKED, where, ru, en))

    def of(self, kind: str) -> list[Line]:
        return [ln for ln in self.lines if ln.kind == kind]

    def counts(self) -> dict[str, int]:
        c = Counter(ln.kind for ln in self.lines)
        return {k: c.get(k, 0) for k in KINDS}

    def extend(self, other: ImportReport) -> None:
        self.files.extend(other.files)
        self.lines.extend(other.lines)

    def as_dict(self) -> dict[str, Any]:
        return {"format": REPORT_FORMAT, "source": self.source, "files": list(self.files),
                "counts": self.counts(), "lines": [ln.as_dict() for ln in self.lines]}


def ru_number(value: object) -> str:
    """A number as Russian text shows it: a decimal comma (glossary: words, not codes)."""
    return str(value).replace(".", ",")
