"""Words shown to people, in Russian (first) and English; and how a part of a score reads.

Problems carry their own texts (`domain.problems`); this module holds the rest: column
headers, role names, and the sentence that explains each part of a player's points.
"""

from __future__ import annotations

import datetime as dt
from fractions import Fraction
from functools import lru_cache
from typing import Any

from babel import Locale
from babel.core import get_global
from babel.dates import get_timezone_location

from mafiatab.domain import clock
from mafiatab.domain.points import format_points
from mafiatab.rules import cite
from mafiatab.texts import count, noun, number, pick  # noqa: F401  (the catalogue's, read here too)
from mafiatab.texts.core import (  # noqa: F401  (the tables, read through this module too)
    NOUNS,
    PART,
    PENALTY,
    RESULT,
    ROLE,
    TAG,
    TEAM,
    TEAM_OF,
    TEXT,
    VERSION,
)


def federation(text: str, lang: str) -> str:
    """A rule set's name or a clause in the reader's language: `ФСМ`, `ФИИМ 2018` (each
    registered profile names its federation in its own words)."""
    return cite(text, lang)


def t(key: str, lang: str, **params: Any) -> str:
    ru, en = TEXT[key]
    return (ru if lang == "ru" else en).format(**params)




def utc_offset(offset: dt.timedelta | None) -> str:
    """An offset from UTC as people write it: "UTC+3", "UTC−3:30" (a real minus), "UTC+0"."""
    minutes = int((offset or dt.timedelta()).total_seconds()) // 60
    h, m = divmod(abs(minutes), 60)
    return f"UTC{'+' if minutes >= 0 else '−'}{h}" + (f":{m:02d}" if m else "")


@lru_cache(maxsize=1024)
def zone_place(name: str, lang: str) -> str | None:
    """The place a zone is named after, in the reader's language (CLDR's exemplar city,
    by Babel; aliases too): "Москва", "Buenos Aires". None for a zone of no place: UTC and
    its aliases, the database's fixed offsets ("Etc/GMT+3"), the old US rules ("EST5EDT")."""
    name = get_global("zone_aliases").get(name, name)  # "W-SU" is "Europe/Moscow"
    if "/" not in name or name.startswith(("Etc/", "SystemV/", "posix/", "right/")):
        return None
    try:
        return get_timezone_location(name, locale=Locale.parse("ru" if lang == "ru" else "en"),
                                     return_city=True) or None
    except LookupError:
        return None


def _zone_parts(zone: dt.tzinfo, lang: str, moment: dt.datetime | None) -> tuple[str | None, str]:
    """The zone's place (or None) and its offset at the moment (now when not given)."""
    at = clock.aware(moment) if moment is not None else dt.datetime.now(dt.UTC)
    offset = at.astimezone(zone).utcoffset()
    key = getattr(zone, "key", None)
    place = zone_place(key, lang) if isinstance(key, str) and key else None
    if place is None:
        return None, utc_offset(offset) if offset else "UTC"
    return place, utc_offset(offset)


def zone_words(zone: dt.tzinfo, lang: str, moment: dt.datetime | None = None) -> str:
    """A time zone as people read it, in their language: «Москва (UTC+3)», "Moscow
    (UTC+3)"; a zone of no place by its offset ("UTC−3"), UTC and its aliases as «UTC».
    The offset is the one at `moment` (now when not given): summer time shows."""
    place, offset = _zone_parts(zone, lang, moment)
    return f"{place} ({offset})" if place else offset


def local_time(value: dt.datetime, zone: dt.tzinfo, lang: str, with_zone: bool = True) -> str:
    """A moment on the tournament's clock, with the zone in words: «07.03.2026 14:30
    (Москва, UTC+3)», "2026-03-07 14:30 (Moscow, UTC+3)", «07.03.2026 11:30 (UTC)»."""
    text = clock.local_time(value, zone, lang, with_zone=False)
    if not with_zone:
        return text
    place, offset = _zone_parts(zone, lang, value)
    return f"{text} ({place}, {offset})" if place else f"{text} ({offset})"


def _fraction(value: Fraction) -> str:
    return str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"


def describe_part(kind: str, detail: dict[str, Any], lang: str) -> str:
    """One line of an explanation: what the part is, with its particulars."""
    ru = lang == "ru"
    name = pick(PART, kind, lang)
    bits: list[str] = []
    if kind == "win" and "k" in detail:
        k = detail["k"]
        head = f"× K = {format_points(k * 100, lang, fixed=True)} ({_fraction(k)})"
        side, games, wins = detail["heavy_side"], detail["games"], detail["heavy_wins"]
        bits.append(f"{head}: «тяжёлая» игра, игр — {games}, побед {pick(TEAM_OF, side, lang)} — {wins}"
                    if ru else f"{head}: heavy game, {games} games, {wins} {side} wins")
    elif kind == "best_move":
        named = ", ".join(str(n) for n in detail.get("named", []))
        bits.append((f"назвал {named}; чёрных: {detail.get('blacks', 0)}") if ru
                    else f"named {named}; blacks: {detail.get('blacks', 0)}")
        if "not_scored_role" in detail:
            bits.append("ПУ не красный — баллов нет" if ru else "black first killed: no points")
        if "dropped_on_draw" in detail:
            bits.append("ничья — положительные баллы не начисляются" if ru
                        else "draw: no positive points")
    elif kind == "compensation":
        ci = detail["ci"]
        share = detail["share"]
        ci_text = f"Ci = {format_points(ci, lang, fixed=True)} ({_fraction(ci / 100)})"
        i, b, games, distance = detail["i"], detail["b"], detail["games"], detail["distance"]
        text = (f"i = {i}, B = {b} (игр на дистанции {distance}: {games}), {ci_text}" if ru
                else f"i = {i}, B = {b} ({games} games in distance {distance}), {ci_text}")
        if share != "1":
            text += " × 1/2 (красные победили)" if ru else " × 1/2 (red team won)"
        bits.append(text)
    elif kind == "penalty":
        bits.append(pick(PENALTY, detail.get("kind", ""), lang))
        if detail.get("critical"):
            bits.append("«на критике»" if ru else "at a critical moment")
        if detail.get("note"):
            bits.append(str(detail["note"]))
    elif kind == "will_protocol":
        bits.append((f"завещание {format_points(detail['will'], lang, True)}, протокол "
                     f"{format_points(detail['protocol'], lang, True)}") if ru else
                    (f"will {format_points(detail['will'], lang, True)}, protocol "
                     f"{format_points(detail['protocol'], lang, True)}"))
    elif kind == "pu_protocol":
        for item in detail.get("items", []):
            if "seat" in item:
                colour = ("чёрный" if item["colour"] == "black" else "красный") if ru else item["colour"]
                ok = ("верно" if item["correct"] else "ошибка") if ru else (
                    "right" if item["correct"] else "wrong")
                tag = f", {pick(TAG, item['tag'], lang)}" if item.get("tag") else ""
                bits.append(f"{item['seat']} {colour} ({ok}{tag}) "
                            f"{format_points(item['points'], lang, True)}")
            elif "version" in item:
                ok = ("верная" if item["right"] else "неверная") if ru else (
                    "right" if item["right"] else "wrong")
                bits.append(("версия " if ru else "version ")
                            + f"«{pick(VERSION, item['version'], lang)}» ({ok}) "
                            f"{format_points(item['points'], lang, True)}")
            elif "not_scored_role" in item:
                bits.append("ПУ не красный — протокол не оценивается" if ru
                            else "black first killed: protocol not scored")
            elif "dropped_on_draw" in item:
                bits.append("ничья — положительный итог снят" if ru
                            else "draw: positive total dropped")
    return name + (": " + "; ".join(bits) if bits else "")


__all__ = ["NOUNS", "PART", "PENALTY", "RESULT", "ROLE", "TAG", "TEAM", "TEAM_OF", "TEXT",
           "VERSION", "count", "describe_part", "federation", "local_time", "noun", "number", "pick",
           "t", "utc_offset", "zone_place", "zone_words"]
