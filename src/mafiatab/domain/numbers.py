"""Whole numbers typed by people: ASCII digits only. `str.isdigit` also takes «²» and other
digits that `int` refuses (a 500 before), and a bound on the digits keeps a huge number out
of the arithmetic behind it."""

from __future__ import annotations


def ascii_int(text: str, most: int | None = None) -> int | None:
    """The number `text` writes in ASCII digits (at most `most` of them); None otherwise."""
    if not (text.isascii() and text.isdigit()) or (most is not None and len(text) > most):
        return None
    return int(text)
