"""Exact points: integers in hundredths, Fractions where Ci and K divide; rounding for display.

Inside the program a point value is an `int` of hundredths (0.4 -> 40) or, once Ci or K
have divided it, a `Fraction` of hundredths. Nothing is rounded until it is shown, and then
half up (away from zero at exactly .5) to two places (scoring.md section 7).
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from math import floor

Hundredths = int | Fraction


@dataclass(frozen=True, slots=True)
class Points:
    """A points parameter of a message (hundredths), rendered in the reader's language."""

    hundredths: int


def round_hundredths(value: Hundredths) -> int:
    """Round to whole hundredths, half away from zero."""
    if isinstance(value, int):
        return value
    if value >= 0:
        return floor(value + Fraction(1, 2))
    return -floor(-value + Fraction(1, 2))


def to_decimal(value: Hundredths) -> Decimal:
    """The value in points, rounded half up to two places: 40 -> Decimal('0.40')."""
    return Decimal(round_hundredths(value)).scaleb(-2)


def to_json_number(value: Hundredths) -> float:
    """A rounded value for JSON output. The float's shortest repr is exactly the 2-place
    decimal (e.g. 7.35), so no precision is lost in the text that is written."""
    return float(to_decimal(value))


def format_points(value: Hundredths | Points, lang: str = "en", sign: bool = False) -> str:
    """Text for people: `+0.4` / `+0,4` (Russian uses a decimal comma)."""
    h = value.hundredths if isinstance(value, Points) else value
    d = to_decimal(h).normalize()
    text = format(d, "f")
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    if text in ("-0", ""):
        text = "0"
    if (sign or isinstance(value, Points)) and d > 0:
        text = "+" + text
    if lang == "ru":
        text = text.replace(".", ",").replace("-", "−")
    return text


def parse_hundredths(value: object) -> int | None:
    """A JSON number as whole hundredths; None when it has more than two decimal places.

    The JSON reader gives a float for `0.4`; a decimal literal with at most two places is
    the double nearest to k/100, and so is `k / 100` (IEEE division is correctly rounded),
    so the equality below holds exactly for those literals and fails for `0.401`. The
    float is only the transport: from here on the value is an exact integer.
    """
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value * 100
    if isinstance(value, float):
        if value != value or value in (float("inf"), float("-inf")):
            return None
        k = round(value * 100)
        return k if k / 100 == value else None
    if isinstance(value, Decimal):
        scaled = value * 100
        return int(scaled) if scaled == scaled.to_integral_value() else None
    return None
