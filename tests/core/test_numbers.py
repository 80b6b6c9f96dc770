"""Typed whole numbers: ASCII digits only, bounded (domain/numbers.py)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from mafiatab.domain.numbers import ascii_int


def test_other_digits_and_signs_are_not_numbers() -> None:
    for text in ["²", "１２", "٣", "", " 1", "-1", "+1", "1.0", "1e3"]:
        assert ascii_int(text) is None, text
    assert ascii_int("0012") == 12
    assert ascii_int("1234", 3) is None and ascii_int("123", 3) == 123


@given(st.text(max_size=20))
def test_never_raises_and_agrees_with_int_on_ascii_digits(text: str) -> None:
    value = ascii_int(text, 12)
    if value is None:
        assert not (text.isascii() and text.isdigit() and len(text) <= 12)
    else:
        assert value == int(text)
