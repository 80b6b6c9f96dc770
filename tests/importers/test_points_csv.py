"""A published standings table (CSV with a header row) into format 1: tables written here
in the shapes clubs publish (Russian with semicolons and decimal commas, English with
commas), values on and off today's scales, `lenient` keeping the historical ones marked."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mafiatab.formats.crosswalk import crosswalk_of
from mafiatab.formats.import_report import MAPPED, MARKED, NOT_MAPPED
from mafiatab.formats.points_csv import PointsCsvError, Scales, read_points_csv
from mafiatab.formats.tournament_json import dumps_tournament
from mafiatab.rules import get_profile
from mafiatab.services.tournament_file import load_tournament

RU = (
    "Место;Игрок;Клуб;Итого;Основные;Доп.;Игры;Победы;ЛХ;1;2;3\n"
    "1;Альфа;Red Square;3,45;3;0,45;3;3;0,25;1,25;1,2;1\n"
    "2;Бета;;2,1;2;0,1;3;2;0;1;1,1;0\n"
    "3;Гамма;Клуб Б;1,5;1;0,5;3;1;0,4;1,5;0;0\n"
)
EN = (
    "Rank,Player ID,Nickname,Club,Total,Main,Extra,Games\n"
    "1,311,Alpha,North,7.35,6,1.35,10\n"
    "2,312,Beta,,6.8,6,0.8,10\n"
)


def _read(text: str, *, rules: str = "fiim2018", lenient: bool = False,
          encoding: str = "utf-8", **kw: Any) -> Any:
    t, report = read_points_csv(text.encode(encoding), rules=rules, name="Cup",
                                lenient=lenient, file="cup.csv", **kw)
    load_tournament(dumps_tournament(t))  # what `mafiatab check` runs
    return t, report


def _rows(t: Any) -> list[dict[str, Any]]:
    return list(t.other["published_results"]["rows"])


def test_russian_table_with_decimal_commas() -> None:
    t, report = _read(RU)
    assert [(p.id, p.nickname, p.club) for p in t.players] == [
        ("альфа", "Альфа", "Red Square"), ("бета", "Бета", None), ("гамма", "Гамма", "Клуб Б")]
    assert t.participants == 3 and t.games == []
    first = _rows(t)[0]
    assert first == {"player": "альфа", "nickname": "Альфа", "place": 1, "games": 3,
                     "wins": 3, "total": "3.45", "main": "3", "extra": "0.45",
                     "best_move": "0.25", "game_points": ["1.25", "1.2", "1"]}
    mapped = " | ".join(ln.en for ln in report.of(MAPPED) if ln.where == "header")
    for words in ("'Место' -> place", "'Игрок' -> nickname", "'Доп.' -> extra",
                  "'ЛХ' -> best move", "3 per-game columns"):
        assert words in mapped
    assert any("no game protocols" in ln.en for ln in report.of(NOT_MAPPED))


def test_english_table_with_ids_fills_the_crosswalk() -> None:
    t, _ = _read(EN)
    cw = crosswalk_of(t)
    assert cw.lookup("csv", "311") == "alpha" and cw.lookup("csv", "312") == "beta"
    assert _rows(t)[0]["total"] == "7.35"


def test_windows_1251_is_read() -> None:
    t, report = _read(RU, encoding="cp1251")
    assert t.players[0].nickname == "Альфа"
    assert any(ln.en == "encoding cp1251" for ln in report.of(MAPPED))


def test_an_unknown_column_is_reported_and_a_table_without_nicknames_refused() -> None:
    _, report = _read("Игрок;Итого;Город\nАльфа;1;Москва\n")
    assert [ln.en for ln in report.of(NOT_MAPPED) if ln.where == "header"] == [
        "column 'Город' is not recognised: not carried over"]
    with pytest.raises(PointsCsvError) as e:
        _read("Место;Итого\n1;2\n")
    assert "nickname" in e.value.en


def _ceiling_row(rules: str, extra: Decimal) -> str:
    main = Decimal(1)
    return f"Ник;Основные;Доп;Итого;Игры\nA;{main};{extra};{main + extra};1\n"


@pytest.mark.parametrize("rules", ["fiim2018", "fsm"])
def test_extra_at_the_ceiling_passes_one_hundredth_above_is_refused(rules: str) -> None:
    top = Scales.of(get_profile(rules)).extra_max
    _read(_ceiling_row(rules, top), rules=rules)
    with pytest.raises(PointsCsvError) as e:
        _read(_ceiling_row(rules, top + Decimal("0.01")), rules=rules)
    assert e.value.report is not None
    assert any(ln.en.startswith("extra ") for ln in e.value.report.of(NOT_MAPPED))


HISTORICAL = (
    "Место;Игрок;Итого;Основные;Доп;Игры;1;2\n"
    "1;Альфа;5,125;2;3,125;2;4;1,125\n"       # extras of 2009: 3.125 in two games
    "2;Бета;2,5;2;0,4;2;1,2;1,3\n"            # total is not main + extra
    "3;Гамма;2,6;2;0,6;2;1,3;1,3\n"           # a higher total below place 2
)


def test_values_off_todays_scales_are_refused_each_listed() -> None:
    with pytest.raises(PointsCsvError) as e:
        _read(HISTORICAL)
    report = e.value.report
    assert report is not None
    listed = [ln.en for ln in report.of(NOT_MAPPED) if ln.where.startswith("row")]
    assert any("total 5.125: not in hundredths" in x for x in listed)
    assert any("extra 3.125" in x and "outside" in x for x in listed)
    assert any("game 1: 4 is outside" in x for x in listed)
    assert any("total 2.5 ≠ main 2 + extra 0.4" in x for x in listed)
    assert any("place 3 has a total 2.6 above place 2" in x for x in listed)


def test_lenient_keeps_historical_values_as_published_each_marked() -> None:
    t, report = _read(HISTORICAL, lenient=True)
    rows = _rows(t)
    assert [r["total"] for r in rows] == ["5.125", "2.5", "2.6"]
    assert rows[0]["extra"] == "3.125"
    marks = {r["player"]: sorted({m["field"] for m in r.get("marks", [])}) for r in rows}
    assert marks == {"альфа": ["extra", "game_points", "total"], "бета": ["total"],
                     "гамма": ["place"]}
    assert report.counts()[MARKED] == sum(len(r.get("marks", [])) for r in rows)
    assert all(ln.en.startswith("kept as published") for ln in report.of(MARKED))
    assert t.other["published_results"]["lenient"] is True


def test_an_unreadable_number_is_refused_even_when_lenient() -> None:
    with pytest.raises(PointsCsvError) as e:
        _read("Ник;Итого\nA;много\n", lenient=True)
    assert e.value.report is not None
    assert any("is not a number" in ln.en for ln in e.value.report.of(NOT_MAPPED))


def test_the_crosswalk_of_a_polemica_import_names_the_same_people() -> None:
    from mafiatab.domain.protocol import Player
    from mafiatab.formats.crosswalk import Crosswalk

    known = [Player(id="альфа", nickname="Альфа", club="Red Square")]
    t, report = _read(RU, crosswalk=Crosswalk(), known=known)
    assert t.players[0].id == "альфа"
    assert any(ln.en == "by a known nickname" for ln in report.of(MAPPED)
               if ln.where == "player альфа")


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(["fiim2018", "fsm"]), st.integers(1, 12), st.data())
def test_any_table_within_todays_scales_is_kept_exactly(rules: str, games: int,
                                                         data: st.DataObject) -> None:
    """Property: main and extra anywhere within the scales, in hundredths, written with
    decimal commas, come back as published and unmarked."""
    sc = Scales.of(get_profile(rules))
    cents = st.integers
    main = Decimal(data.draw(cents(0, int(games * sc.main_max * 100)))) / 100
    extra = Decimal(data.draw(cents(int(games * sc.extra_min * 100),
                                    int(games * sc.extra_max * 100)))) / 100
    total = main + extra
    text = f"Ник;Итого;Основные;Доп;Игры\nA;{total};{main};{extra};{games}\n".replace(".", ",")
    t, report = _read(text, rules=rules)
    row = _rows(t)[0]
    assert (Decimal(row["total"]), Decimal(row["main"]), Decimal(row["extra"])) == (
        total, main, extra)
    assert "marks" not in row and report.counts()[MARKED] == 0
