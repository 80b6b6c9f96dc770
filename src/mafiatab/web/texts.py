"""Words of the web pages, Russian first and English second (the core's `i18n` holds the
words the CLI shares: column headers, roles, results, parts of a score)."""

from __future__ import annotations

from mafiatab import i18n
from mafiatab.texts.web import ROLE_MARK, WEB  # noqa: F401  (read through this module too)


def word(key: str, lang: str, **params: object) -> str:
    """A word of the pages; falls back to the core's words, then to the key itself."""
    pair = WEB.get(key) or i18n.TEXT.get(key)
    if pair is None:
        return key
    text = pair[0] if lang == "ru" else pair[1]
    return text.format(**params) if params else text


__all__ = ["ROLE_MARK", "WEB", "word"]
