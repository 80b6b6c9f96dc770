"""The head judge's correction of a submitted protocol in words (glossary.md), Russian
first: «исправлено главным судьёй: место 4: доп. балл +0,8 → +1,2. Причина: …».

A correction (`protocol.Correction`) keeps what changed as format-1 paths with the
values' JSON text, exact; this module turns them into what people read on the game page,
the printout and the spreadsheets, and says which seats a correction touched, so that a
judge's explanation of a seat's points is never shown alone beside points the head judge
changed.
"""

from __future__ import annotations

import json
from decimal import Decimal
from typing import Any, Final

from mafiatab.domain.points import format_points, hundredths_of
from mafiatab.domain.protocol import Change, Correction
from mafiatab.domain.words import PENALTY, ROLE_LETTER

#: the words of a game's fields and of a seat's values (glossary.md), ru and en
FIELD: Final[dict[str, tuple[str, str]]] = {
    "result": ("результат", "result"),
    "first_killed": ("ПУ", "first killed"),
    "best_move": ("ЛХ", "best move"),
    "day1_vote_left": ("ушли голосованием в первый день", "left by the first day's vote"),
    "broken_table": ("сломанный стол", "broken table"),
    "night_killed": ("убит в первую ночь стрельбы", "shot in the first shooting night"),
    "limits_approved": ("превышение лимитов одобрено ГС", "limits approved by the head judge"),
    "date": ("дата", "date"),
    "judge": ("судья стола", "table judge"),
    "days": ("дни: выставления и голосования", "days: nominations and votes"),
    "protest": ("протест", "protest"),
    "video": ("видео", "video"),
    "log": ("лог игры", "game log"),
    "extra": ("доп. балл", "extra points"),
    "pu_extra": ("доп. балл ПУ", "first killed's extra"),
    "will": ("оценка завещания", "will evaluation"),
    "protocol": ("оценка протокола", "protocol evaluation"),
    "same_as_will": ("протокол как завещание", "protocol same as the will"),
    "pu_protocol": ("протокол ПУ", "first killed's protocol"),
    "penalties": ("штрафы", "penalties"),
    "approved": ("одобрено ГС", "approved by the head judge"),
    "role": ("роль", "role"),
    "player": ("игрок", "player"),
    "fouls": ("фолы", "fouls"),
    "explanations": ("пояснение судьи", "judge's explanation"),
}
RESULT: Final[dict[str, tuple[str, str]]] = {
    "red": ("победа красных", "red win"), "black": ("победа чёрных", "black win"),
    "draw": ("ничья", "draw"),
}
#: the values that are points (shown with a sign and the reader's decimal mark)
_POINTS: Final = frozenset({"extra", "pu_extra", "will", "protocol", "points"})
WORDS: Final[dict[str, tuple[str, str]]] = {
    "seat": ("место {seat}", "seat {seat}"),
    "none": ("—", "—"),
    "yes": ("да", "yes"),
    "no": ("нет", "no"),
    "mark": ("исправлено главным судьёй {by}: {what}. Причина: {reason}",
             "corrected by the head judge {by}: {what}. Reason: {reason}"),
    "short": ("исправлено главным судьёй", "corrected by the head judge"),
    "changed": ("изменено", "changed"),
}


def _w(key: str, lang: str, **params: Any) -> str:
    ru, en = WORDS[key]
    return (en if lang == "en" else ru).format(**params)


def _pick(table: dict[str, tuple[str, str]], code: str, lang: str) -> str:
    pair = table.get(code)
    return code if pair is None else pair[1 if lang == "en" else 0]


def _value(text: str | None) -> Any:
    if text is None:
        return None
    try:
        return json.loads(text, parse_float=Decimal)
    except ValueError:
        return text


def _points(value: Decimal, lang: str) -> str:
    h = hundredths_of(value)
    return format(value, "f") if h is None else format_points(h, lang, sign=True)


def value_words(name: str, value: Any, lang: str, names: dict[str, str] | None = None) -> str:
    """One value as people read it: points with their sign, a role by its letter, a
    result, a penalty by its kind, a player by nickname; nothing as «—»."""
    if value is None or value == [] or value == {}:
        return _w("none", lang)
    if isinstance(value, bool):
        return _w("yes" if value else "no", lang)
    if name in _POINTS and isinstance(value, Decimal | int):
        return _points(Decimal(value), lang)
    if name == "result" and isinstance(value, str):
        return _pick(RESULT, value, lang) if value else _w("none", lang)
    if name == "role" and isinstance(value, str):
        return _pick(ROLE_LETTER, value, lang) if value else _w("none", lang)
    if name == "player" and isinstance(value, str):
        return (names or {}).get(value, value)
    if name == "penalties" and isinstance(value, list):
        return ", ".join(value_words("penalty", p, lang) for p in value) or _w("none", lang)
    if name == "penalty" and isinstance(value, dict):
        kind = _pick(PENALTY, str(value.get("kind", "")), lang)
        pts = value.get("points")
        return f"{kind} {_points(Decimal(pts), lang)}" if isinstance(pts, Decimal | int) else kind
    if isinstance(value, list) and all(isinstance(x, int | str) for x in value):
        return ", ".join(str(x) for x in value)
    if isinstance(value, Decimal):
        return format(value, "f").replace(".", ",") if lang == "ru" else format(value, "f")
    if isinstance(value, int | str):
        return str(value)
    return json.dumps(value, ensure_ascii=False, default=str, separators=(", ", ": "))


def seat_of(path: str) -> int | None:
    """The seat a change's path is about (`scores.4.extra` -> 4, `seats.3.role` -> 4,
    the list's fourth entry), or None for a game's own field."""
    parts = path.split(".")
    if len(parts) >= 2 and parts[1].isdigit():
        if parts[0] in ("scores", "fouls", "explanations"):
            return int(parts[1])
        if parts[0] == "seats":
            return int(parts[1]) + 1
    return None


def change_words(ch: Change, lang: str, names: dict[str, str] | None = None) -> str:
    """«место 4: доп. балл +0,8 → +1,2»; «результат: победа красных → ничья»."""
    parts = ch.path.split(".")
    seat = seat_of(ch.path)
    if seat is not None:
        rest = [p for p in parts[2:] if not p.isdigit()]
        name = rest[0] if rest else parts[0]
        if name == "scores" and not rest:
            name = "changed"
    else:
        name = parts[0]
    label = _pick(FIELD, name, lang) if name != "changed" else _w("changed", lang)
    if seat is not None and name == "penalties" and len(parts) > 4:
        name = parts[-1] if parts[-1] in _POINTS else "penalty"
    old = value_words(name, _value(ch.old), lang, names)
    new = value_words(name, _value(ch.new), lang, names)
    head = f"{_w('seat', lang, seat=seat)}: {label}" if seat is not None else label
    return f"{head}: {old} → {new}"


def what_words(c: Correction, lang: str, names: dict[str, str] | None = None) -> str:
    """What one correction changed, every change in words, joined by «; »."""
    return "; ".join(change_words(ch, lang, names) for ch in c.changes) or _w("none", lang)


def correction_words(c: Correction, lang: str, names: dict[str, str] | None = None) -> str:
    """The whole mark: «исправлено главным судьёй hj: место 4: доп. балл +0,8 → +1,2.
    Причина: версия не подтвердилась»."""
    return _w("mark", lang, by=c.by, what=what_words(c, lang, names), reason=c.reason)


def seat_changes(corrections: list[Correction], seat: int, lang: str,
                 names: dict[str, str] | None = None) -> list[str]:
    """The changes of every correction that touched `seat`, in words, with who and why:
    what stands beside the judge's explanation of that seat."""
    out = []
    for c in corrections:
        mine = [ch for ch in c.changes if seat_of(ch.path) == seat]
        if mine:
            what = "; ".join(change_words(ch, lang, names) for ch in mine)
            out.append(_w("mark", lang, by=c.by, what=what, reason=c.reason))
    return out


def short_mark(lang: str) -> str:
    return _w("short", lang)


__all__ = ["FIELD", "RESULT", "WORDS", "change_words", "correction_words", "seat_changes",
           "seat_of", "short_mark", "value_words", "what_words"]
