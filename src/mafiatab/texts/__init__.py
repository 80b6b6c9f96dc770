"""The one catalogue of the words people read, Russian first and English second.

Every text is a key of a section with a pair `(ru, en)`; a placeholder in braces is filled
from the parameters (`say`). Sections live beside the words' readers when those are
edited together (the domain's problems stay in `domain.problems`, since the pure core
imports nothing but `rules`), and in this package otherwise; `sections()` names them all,
so that one test sees that every key has both languages with the same placeholders and
that every key the code and the templates use exists.

Counted nouns and numbers go through Babel (CLDR): the plural form a number asks for
(2 стола, 5 столов), the decimal comma and the real minus of Russian.
"""

from __future__ import annotations

import importlib
import string
from collections.abc import Mapping
from decimal import Decimal
from functools import lru_cache
from typing import Any, Final

from babel import Locale
from babel.numbers import format_decimal

from mafiatab.texts.core import NOUNS

Pair = tuple[str, str]
Section = Mapping[str, Pair]
LANGS: Final = ("ru", "en")

#: every section of the catalogue: its name -> (module, table)
SECTIONS: Final[dict[str, tuple[str, str]]] = {
    "core": ("mafiatab.texts.core", "TEXT"),
    "role": ("mafiatab.texts.core", "ROLE"),
    "result": ("mafiatab.texts.core", "RESULT"),
    "team": ("mafiatab.texts.core", "TEAM"),
    "team_of": ("mafiatab.texts.core", "TEAM_OF"),
    "part": ("mafiatab.texts.core", "PART"),
    "tag": ("mafiatab.texts.core", "TAG"),
    "version": ("mafiatab.texts.core", "VERSION"),
    "penalty": ("mafiatab.texts.core", "PENALTY"),
    "web": ("mafiatab.texts.web", "WEB"),
    "role_mark": ("mafiatab.texts.web", "ROLE_MARK"),
    "print": ("mafiatab.texts.prints", "WORDS"),
    "role_letter": ("mafiatab.texts.prints", "ROLE_LETTER"),
    "service": ("mafiatab.texts.service", "SERVICE"),
    "action": ("mafiatab.texts.service", "ACTIONS"),
    "state": ("mafiatab.texts.service", "STATES"),
    "account": ("mafiatab.texts.service", "ACCOUNT"),
    "roles": ("mafiatab.texts.service", "ROLES"),
    "roster": ("mafiatab.texts.refusals", "ROSTER"),
    "roster_reason": ("mafiatab.texts.refusals", "ROSTER_REASON"),
    "admin": ("mafiatab.texts.refusals", "ADMIN"),
    "rights": ("mafiatab.texts.rights", "RIGHTS"),
    "setup": ("mafiatab.texts.refusals", "SETUP"),
    "people": ("mafiatab.texts.refusals", "PEOPLE"),
    "day": ("mafiatab.texts.refusals", "DAY"),
    "zone": ("mafiatab.texts.refusals", "ZONE"),
    "video": ("mafiatab.texts.refusals", "VIDEO"),
    "video_why": ("mafiatab.texts.refusals", "VIDEO_WHY"),
    "teams": ("mafiatab.texts.refusals", "TEAMS"),
    "jobs": ("mafiatab.texts.refusals", "JOBS"),
    "photos": ("mafiatab.texts.refusals", "PHOTOS"),
    "web_refusal": ("mafiatab.texts.refusals", "WEB_REFUSAL"),
    "files": ("mafiatab.texts.files", "FILES"),
    "seating_request": ("mafiatab.texts.seating", "SEATING_REQUEST"),
    "seating_desk": ("mafiatab.texts.seating", "SEATING_DESK"),
    "seating_bound": ("mafiatab.texts.seating", "SEATING_BOUND"),
    "seating_cli": ("mafiatab.texts.seating", "SEATING_CLI"),
    "seating_rule": ("mafiatab.texts.seating", "RULE_NAMES"),
    "seating_group": ("mafiatab.texts.seating", "GROUP_OF"),
    "seating_breach": ("mafiatab.texts.seating", "RULE_BREACHES"),
    "seating_rules": ("mafiatab.texts.seating", "RULES_REFUSAL"),
    "seating_figure": ("mafiatab.texts.seating", "FIGURES"),
    "storage": ("mafiatab.texts.storage", "STORAGE"),
    "audit": ("mafiatab.texts.audit", "AUDIT"),
    "audit_field": ("mafiatab.texts.audit", "FIELDS"),
    "problem": ("mafiatab.domain.problems", "MESSAGES"),
    "problem_field": ("mafiatab.domain.problems", "FIELD_WORDS"),
    "appeal": ("mafiatab.domain.appeals", "MESSAGES"),
    "appeal_what": ("mafiatab.domain.appeals", "WHAT"),
    "appeal_who": ("mafiatab.domain.appeals", "WHO"),
    "appeal_change": ("mafiatab.domain.appeals", "CHANGE_WORDS"),
    "appeal_change_part": ("mafiatab.domain.appeals", "CHANGE_PARTS"),
    # the sections kept beside their screens (edited with them)
    "web_appeals": ("mafiatab.web.appeals", "WORDS"),
    "web_hall": ("mafiatab.web.hall", "WORDS"),
    "web_live": ("mafiatab.web.live", "WORDS"),
    "web_offline": ("mafiatab.web.offline", "WORDS"),
    "step": ("mafiatab.domain.words", "STEP"),
    "web_live_event": ("mafiatab.web.live", "EVENT_TEXT"),
    "web_live_result": ("mafiatab.domain.course", "RESULT_TEXT"),
    "web_overlay": ("mafiatab.web.overlay", "WORDS"),
    "web_overlay_out": ("mafiatab.web.overlay", "OUT"),
    "web_overlay_role": ("mafiatab.web.overlay", "ROLE_WORDS"),
    "web_screen": ("mafiatab.web.overlay", "SCREEN_WORDS"),
    "web_seating": ("mafiatab.texts.pages", "SEATING"),
    "web_setup": ("mafiatab.texts.pages", "SETUP"),
    "rules_choice": ("mafiatab.formats.rules_doc", "CHOICES"),
    "rules_stage_kind": ("mafiatab.formats.rules_doc", "STAGE_KINDS"),
    "rules_decider": ("mafiatab.formats.rules_doc", "DECIDERS"),
    "rules_criterion": ("mafiatab.formats.rules_doc", "CRITERIA"),
    "rules_k": ("mafiatab.formats.rules_doc", "K_FORMULA"),
    "rules_unset": ("mafiatab.formats.rules_doc", "UNSET"),
    "seating_method": ("mafiatab.cli.seating", "METHODS"),
    "reg_state": ("mafiatab.texts.register", "REG_STATE"),
    "registration": ("mafiatab.texts.register", "REGISTRATION"),
    "award_refusal": ("mafiatab.texts.register", "AWARD_REFUSAL"),
    "award": ("mafiatab.texts.register", "AWARD"),
    "register_page": ("mafiatab.texts.register", "REGISTER_PAGE"),
}


def sections() -> dict[str, Section]:
    """Every section by name (imported when asked: some live beside the web pages)."""
    found: dict[str, Section] = {}
    for name, (module, table) in SECTIONS.items():
        found[name] = getattr(importlib.import_module(module), table)
    return found


def placeholders(text: str) -> set[str]:
    """The names in braces of a text (`{n}`, `{ref!r}` -> n, ref)."""
    return {field for _, field, _, _ in string.Formatter().parse(text) if field is not None}


def pick(table: Mapping[str, Pair], key: str, lang: str) -> str:
    """A code's words in the reader's language; the code itself when it has none."""
    pair = table.get(key)
    if pair is None:
        return key
    return pair[0] if lang == "ru" else pair[1]


def say(table: Mapping[str, Pair], key: str, lang: str, **params: Any) -> str:
    """A text of a section with its placeholders filled."""
    ru, en = table[key]
    text = ru if lang == "ru" else en
    return text.format(**params) if params else text


@lru_cache(maxsize=4)
def locale(lang: str) -> Locale:
    return Locale.parse("ru" if lang == "ru" else "en")


def noun(n: int, key: str, lang: str) -> str:
    """The word in the form its number asks for (2 стола, 5 столов; 1 game, 2 games).

    The plural categories come from the CLDR rules through Babel rather than a home-made
    `n % 10` ladder: the same rules every well-localised program uses."""
    ru, en = NOUNS[key]
    form = locale(lang).plural_form(abs(n))
    if lang == "ru":
        return ru[0] if form == "one" else ru[1] if form == "few" else ru[2]
    return en[0] if form == "one" else en[1]


def count(n: int, key: str, lang: str) -> str:
    """`2 стола`, `5 игр`, `1 player`."""
    return f"{number(n, lang, group=False)} {noun(n, key, lang)}"


def number(value: int | Decimal, lang: str, group: bool = True) -> str:
    """A number as the reader writes it: Babel's grouping and decimal sign (1 234,5 in
    Russian), and a real minus (−) rather than a hyphen."""
    text = format_decimal(value, locale=locale(lang), group_separator=group)
    return text.replace("-", "−") if lang == "ru" else text
