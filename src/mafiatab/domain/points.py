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


def format_points(value: Hundredths | Points, lang: str = "en", sign: bool = False,
                  fixed: bool = False) -> str:
    """Text for people: `+0.4` / `+0,4` (Russian uses a decimal comma); `fixed`: always two
    places, for columns of a table."""
    h = value.hundredths if isinstance(value, Points) else value
    d = to_decimal(h)
    text = format(d, "f")
    if "." in text and not fixed:
        text = text.rstrip("0").rstrip(".")
    if text in ("-0", "", "-0.00"):
        text = "0.00" if fixed else "0"
    if (sign or isinstance(value, Points)) and d > 0:
        text = "+" + text
    if lang == "ru":
        text = text.replace(".", ",").replace("-", "−")
    return text


#: written value -> hundredths: a tournament writes the same few values (0.2, -0.4, ...)
#: thousands of times, and a dictionary look-up is several times cheaper than Decimal
#: arithmetic. Only values with at most two places are kept, so the cache stays small.
_HUNDREDTHS: dict[Decimal, int] = {}


def hundredths_of(value: Decimal) -> int | None:
    """A written point value as whole hundredths; None when it has more than two decimal
    places (or is not a finite number)."""
    if not value.is_finite():
        return None
    known = _HUNDREDTHS.get(value)
    if known is not None:
        return known
    scaled = value * 100
    whole = scaled.to_integral_value()
    if scaled != whole:
        return None
    if len(_HUNDREDTHS) < 4096:
        _HUNDREDTHS[value] = int(whole)
    return int(whole)


def h(value: Decimal) -> int:
    """Hundredths of a value already checked by `hundredths_of` (validation)."""
    known = _HUNDREDTHS.get(value) if value.is_finite() else None
    return known if known is not None else int(value * 100)


def decimal_of(hundredths: int) -> Decimal:
    """Hundredths back to the written decimal: 40 -> Decimal('0.4')."""
    if hundredths % 100 == 0:
        return Decimal(hundredths // 100)
    if hundredths % 10 == 0:
        return Decimal(hundredths // 10).scaleb(-1)
    return Decimal(hundredths).scaleb(-2)
