"""The head judge's correction in words (glossary.md), Russian first: points with their
sign and decimal comma, roles by letter, results and penalties in words, a player by his
nickname, and the seat a change touched; never a format-1 path or a code."""

from __future__ import annotations

from mafiatab.domain.corrections import change_words, correction_words, seat_changes, seat_of
from mafiatab.domain.protocol import Change, Correction


def test_points_roles_results_and_players_read_as_words() -> None:
    assert change_words(Change(path="scores.4.extra", old="0.8", new="1.2"), "ru") == \
        "место 4: доп. балл: +0,8 → +1,2"
    assert change_words(Change(path="scores.4.extra", old=None, new="-0.3"), "en") == \
        "seat 4: extra points: — → -0.3"
    assert change_words(Change(path="seats.2.role", old='"red"', new='"black"'), "ru") == \
        "место 3: роль: К → Ч"
    assert change_words(Change(path="result", old='"red"', new='"draw"'), "ru") == \
        "результат: победа красных → ничья"
    assert change_words(Change(path="seats.0.player", old='"p1"', new='"p2"'), "ru",
                        {"p1": "Альфа", "p2": "Бета"}) == "место 1: игрок: Альфа → Бета"
    penalty = '[{"kind": "game_action", "points": -0.4}]'
    assert change_words(Change(path="scores.10.penalties", old=penalty, new=None), "ru") == \
        "место 10: штрафы: негативное игровое действие −0,4 → —"


def test_a_correction_names_who_what_and_why_and_the_seats_it_touched() -> None:
    c = Correction(by="hj", at="2026-03-07T14:05:00Z", reason="версия частичная",
                   changes=[Change(path="scores.6.extra", old="0.8", new="0.4"),
                            Change(path="result", old='"red"', new='"black"')])
    assert correction_words(c, "ru") == (
        "исправлено главным судьёй hj: место 6: доп. балл: +0,8 → +0,4; результат: "
        "победа красных → победа чёрных. Причина: версия частичная")
    assert seat_changes([c], 6, "ru") == [
        "исправлено главным судьёй hj: место 6: доп. балл: +0,8 → +0,4. Причина: версия "
        "частичная"]
    assert seat_changes([c], 5, "ru") == []
    assert [seat_of(p) for p in ("scores.6.extra", "seats.0.role", "fouls.3", "result")] == \
        [6, 1, 3, None]
