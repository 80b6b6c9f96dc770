"""The charts of a tournament or a player, whether or not their drawing library is installed.

matplotlib is the `charts` extra (mafiatab[charts]): with it, `drawn_charts` draws the
places round by round and the win rates by role and by seat as PNG or SVG. Without it the
web pages still ask for their SVG charts and get a picture of words that says what is
missing and the command that installs it; the CLI says the same words and writes no file
(`require`). Presence is looked up at each call, never at import.
"""

from __future__ import annotations

from collections.abc import Iterable
from xml.sax.saxutils import escape

from mafiatab import extras
from mafiatab.domain.progress import Progress, Rate
from mafiatab.domain.protocol import Tournament
from mafiatab.formats.labels import w
from mafiatab.rules.profile import RuleProfile

FORMATS = ("png", "svg")


class ChartsMissing(RuntimeError):
    """matplotlib is not installed; the message is the reader's words."""


def available() -> bool:
    return extras.installed("charts")


def missing_words(lang: str) -> list[str]:
    """What is missing and how to install it, one sentence a line."""
    return [w("charts_missing", lang),
            w("charts_install", lang, command=extras.install_command("charts"))]


def require(lang: str) -> None:
    """Raise ChartsMissing (with the words) when the charts cannot be drawn."""
    if not available():
        raise ChartsMissing(" ".join(missing_words(lang)))


def missing_svg(lang: str) -> bytes:
    """An SVG picture of the words, where a chart would be."""
    lines = missing_words(lang)
    size, step = 14, 22
    width = 20 + int(max(len(line) for line in lines) * size * 0.58)
    height = 24 + step * len(lines)
    texts = "".join(
        f'<text x="10" y="{26 + i * step}">{escape(line)}</text>' for i, line in enumerate(lines))
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
            f'width="{width}" height="{height}" role="img" aria-label="{escape(lines[0])}">'
            f'<rect width="100%" height="100%" fill="#fff3e0"/>'
            f'<g font-family="DejaVu Sans, Arial, sans-serif" font-size="{size}" fill="#333">'
            f"{texts}</g></svg>").encode()


def _check(fmt: str, lang: str) -> bool:
    """True when the chart can be drawn; False when the words stand in (SVG only)."""
    if fmt not in FORMATS:
        raise ValueError(f"chart format {fmt!r}: png or svg")
    if available():
        return True
    if fmt == "png":
        require(lang)
    return False


def places_chart(progress: Progress, title: str, lang: str, fmt: str = "png") -> bytes:
    """A line per player: his place after each round (1 on top), his name at the end."""
    if not _check(fmt, lang):
        return missing_svg(lang)
    from mafiatab.formats import drawn_charts

    return drawn_charts.places_chart(progress, title, lang, fmt)


def roles_chart(by_role: dict[str, Rate], title: str, lang: str, fmt: str = "png") -> bytes:
    if not _check(fmt, lang):
        return missing_svg(lang)
    from mafiatab.formats import drawn_charts

    return drawn_charts.roles_chart(by_role, title, lang, fmt)


def seats_chart(by_seat: dict[int, Rate], title: str, lang: str, fmt: str = "png") -> bytes:
    if not _check(fmt, lang):
        return missing_svg(lang)
    from mafiatab.formats import drawn_charts

    return drawn_charts.seats_chart(by_seat, title, lang, fmt)


def all_charts(t: Tournament, p: RuleProfile, lang: str, fmt: str = "png",
               stages: Iterable[str] | None = None) -> dict[str, bytes]:
    """File name -> content: places.FMT, roles.FMT, seats.FMT (ChartsMissing when matplotlib
    is not installed: files of words would be mistaken for charts)."""
    require(lang)
    from mafiatab.formats import drawn_charts

    return drawn_charts.all_charts(t, p, lang, fmt, stages)


__all__ = ["FORMATS", "ChartsMissing", "all_charts", "available", "missing_svg",
           "missing_words", "places_chart", "require", "roles_chart", "seats_chart"]
