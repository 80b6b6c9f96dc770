"""A refusal speaks the glossary's words, never our codes: each kind of bad
input to a protocol, through the page's form and through the JSON API, gives a Russian
message without an enum value (`red`, `team_loss`, `near_reliable`...), a field's name
(`pu_protocol.entries.colour`, `first_killed`) or any other English word; the English
message is English. The codes stay in the API's `code`, `field` and `params`."""

from __future__ import annotations

import re
from collections.abc import Callable
from html import unescape
from typing import Any

import pytest
from fastapi.testclient import TestClient

from mafiatab.web import forms
from tests.web.conftest import World, csrf_of
from tests.web.test_live import Table, fresh_table
from tests.web.test_words_crawl import LATIN_OK, problems_of

#: a protocol's fields and codes that a message might spell out
FIELD_WORDS = ["pu_protocol", "penalties.kind", "first_killed", "best_move", "broken_table",
               "day1_vote_left", "pu_extra", "same_as_will", "version.situation",
               "entries.colour", "entries.tag", "seats.seat"]


@pytest.fixture()
def table(world: World, client_for: Callable[[str], TestClient]) -> Table:
    return fresh_table(world, client_for)


def _codes_in(message: str, lang: str, names: set[str]) -> list[str]:
    """The codes in a message; an English message's place names the file's path
    (`seat 4, penalties.kind: ...`, as the English reader writes files), so there only
    what follows the place is read."""
    if lang == "en":
        message = message.split(": ", 1)[-1] if re.match(r"game |seat ", message) else message
    found = problems_of(message, lang, names)
    found += [f"field {f!r}" for f in FIELD_WORDS
              if re.search(rf"(?<![\w-]){re.escape(f)}(?![\w-])", message)]
    return found


def _names(world: World) -> set[str]:
    names = {p.id.casefold() for p in world.sample.players}
    names |= {p.nickname.casefold() for p in world.sample.players}
    # what was typed is echoed as typed
    names |= {"wolf", "maybe", "wrongdoing", "green", "sure", "odd", "landslide", "abc", "many",
              "two", "eleven", "x", "z"}
    return names | {w for w in LATIN_OK}


#: each kind of bad input, as the form's fields
BAD_FORM: dict[str, str] = {
    "role_1": "", "role_2": "wolf", "result": "maybe",
    "first_killed": "12", "best_move_1": "x", "best_move_2": "1",
    "extra_3": "0.123", "extra_4": "0.7", "will_5": "abc", "fouls_6": "many", "fouls_7": "5",
    "pen_kind_8": "wrongdoing", "pen_points_8": "-0.4",
    "pen_kind_9": "game_action", "pen_points_9": "−0,35",
    "pu_seat_1": "3", "pu_colour_1": "green", "pu_tag_1": "sure", "pu_situation": "odd",
    "day_1_nominated": "2>11 x>4", "day_1_votes": "4:12 5:z", "day_1_left": "4 13",
    "day1_vote_left": "two", "protest_by": "eleven",
}

#: the same kinds through the API, as a protocol's JSON
def _bad_protocol(protocol: dict[str, Any]) -> dict[str, Any]:
    p = dict(protocol)
    seats = [dict(s) for s in p["seats"]]
    seats[0]["role"], seats[1]["role"] = "", "wolf"
    seats[2]["seat"] = 3
    p.update(seats=seats, result="maybe", first_killed=1, best_move=[1, 1, 2, 3, 4],
             day1_vote_left=3)
    p["scores"] = {
        "1": {"pu_extra": 0.33, "pu_protocol": {
            "entries": [{"seat": 3, "colour": "green", "tag": "sure"}],
            "version": {"situation": "odd", "right": True}}},
        "3": {"extra": 0.7}, "4": {"extra": -0.15}, "5": {"will": 0.9},
        "8": {"penalties": [{"kind": "wrongdoing"}, {"kind": "game_action", "points": -0.35}]},
    }
    p["fouls"] = {"6": 5}
    p["days"] = [{"day": 1, "nominations": [{"by": 2, "seat": 11}],
                  "votes": [{"kind": "landslide", "counts": {"4": 12}}], "left": [13]}]
    return p


#: the kinds of bad input the reader refuses before any rule: types of the fields
def _mistyped(protocol: dict[str, Any]) -> dict[str, Any]:
    p = dict(protocol)
    seats = [dict(s) for s in p["seats"]]
    seats[0]["role"], seats[1]["player"], seats[2]["seat"] = 5, None, "x"
    p.update(seats=seats, first_killed="a", best_move="3 9", day1_vote_left=True,
             broken_table="yes", days=[{"day": "one"}, 7], protest=[], video={"url": 1})
    p["scores"] = {"4": {"extra": "0.3", "penalties": [{"kind": 3}]}, "5": []}
    return p


def _page_messages(html: str) -> list[tuple[str, str]]:
    """(code, text) of every problem shown beside a field."""
    found = re.findall(r'data-code="([a-z0-9_]+)"[^>]*>(.*?)</', html, re.S)
    return [(code, unescape(re.sub(r"<[^>]+>", "", text)).strip()) for code, text in found]


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_bad_input_through_the_page_form_is_told_in_words(
        table: Table, world: World, lang: str) -> None:
    c = table.c
    c.get(f"/lang/{lang}")
    try:
        head = c.get(f"/api/t/{world.demo.tournament}/games/{world.demo.open_games[0]}",
                     headers={"X-CSRF-Token": csrf_of(c)}).json()
        values = forms.form_from_game(world.open_game(1))
        values.update(BAD_FORM, csrf=csrf_of(c), base=str(head["revision"]))
        r = c.post(f"/t/{world.demo.tournament}/games/{world.demo.open_games[0]}/check", data=values)
        assert r.status_code == 200
        shown = _page_messages(r.text)
        codes = {code for code, _ in shown}
        assert {"bad_choice", "type", "seat_number", "points_format", "bad_result"} <= codes, codes
        names = _names(world)
        bad = {f"{code}: {text}": found for code, text in shown
               if (found := _codes_in(text, lang, names))}
        assert bad == {}, "\n".join(f"{k} -> {v}" for k, v in bad.items())
    finally:
        c.get("/lang/ru")


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_bad_input_through_the_api_is_told_in_words(
        table: Table, world: World, lang: str) -> None:
    c = table.c
    c.get(f"/lang/{lang}")
    try:
        head = c.get(f"/api/t/{world.demo.tournament}/games/{world.demo.open_games[0]}",
                     headers={"X-CSRF-Token": csrf_of(c)}).json()
        problems: list[dict[str, Any]] = []
        for protocol in (_bad_protocol(head["protocol"]), _mistyped(head["protocol"])):
            r = c.post(f"/api/t/{world.demo.tournament}/games/{world.demo.open_games[0]}/check",
                       headers={"X-CSRF-Token": csrf_of(c)},
                       json={"protocol": protocol, "base_revision": head["revision"]})
            assert r.status_code in (200, 422), r.text
            problems += r.json().get("problems", [])
        codes = {p["code"] for p in problems}
        assert {"bad_choice", "bad_result", "type", "off_scale"} <= codes, codes
        assert any(p["code"] == "bad_choice" and p["params"]["value"] == "wolf"
                   for p in problems)  # the API keeps the code
        names = _names(world)
        bad = {f"{p['code']} {p['field']}: {p['message']}": found for p in problems
               if (found := _codes_in(p["message"], lang, names))}
        assert bad == {}, "\n".join(f"{k} -> {v}" for k, v in bad.items())
    finally:
        c.get("/lang/ru")
