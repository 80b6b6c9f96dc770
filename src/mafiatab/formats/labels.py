"""Words of the printouts, spreadsheets and charts, in Russian (first) and English.

Kept beside the exports rather than in `mafiatab.i18n`: they are the printed form's own
words (FIIM section 9), and the exports use `i18n` for everything the screen shows too.
"""

from __future__ import annotations

from typing import Any

from mafiatab.texts.prints import ROLE_LETTER, WORDS


def w(key: str, lang: str, **params: Any) -> str:
    """A word in the reader's language."""
    ru, en = WORDS[key]
    return (ru if lang == "ru" else en).format(**params)


def role_letter(role: str, lang: str) -> str:
    pair = ROLE_LETTER.get(role)
    return role if pair is None else pair[0 if lang == "ru" else 1]


__all__ = ["ROLE_LETTER", "WORDS", "role_letter", "w"]
