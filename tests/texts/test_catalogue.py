"""The one catalogue (`mafiatab.texts`): every key in both languages with the same
placeholders, and every key the code and the templates ask for is there."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from mafiatab import texts
from mafiatab.domain.problems import Problem, Word, stated

SRC = Path(texts.__file__).resolve().parent.parent
CYRILLIC = re.compile(r"[А-Яа-яЁё]")
SECTIONS = texts.sections()


@pytest.mark.parametrize("name", sorted(SECTIONS))
def test_every_key_has_both_languages_with_the_same_placeholders(name: str) -> None:
    section = SECTIONS[name]
    assert section, name
    for key, pair in section.items():
        assert isinstance(pair, tuple) and len(pair) == 2, (name, key)
        ru, en = pair
        assert ru.strip() and en.strip(), (name, key)
        assert texts.placeholders(ru) == texts.placeholders(en), (name, key, ru, en)
        assert not CYRILLIC.search(en), (name, key, en)


#: (files, the call whose first argument is a key, the sections it reads)
USES: list[tuple[str, str, tuple[str, ...]]] = [
    ("web/templates/*.html", r"\bw\(", ("web", "core")),
    ("web/templates/*.html", r"\baw\(", ("web_appeals",)),
    ("web/templates/*.html", r"(?<![\w.])s\(", ("web_seating", "web_setup")),
    ("web/*.py", r"\bword\(", ("web", "core")),
    ("**/*.py", r"\bi18n\.t\(", ("core",)),
    ("formats/*.py", r"(?<![\w.])w\(", ("print",)),
    ("storage/cli.py", r"(?<![\w.])t\(", ("storage",)),
    ("**/*.py", r"\b(?:ServiceError|NotFound|StateError|PermissionDenied|ScreenRefused)\(",
     ("service",)),
    ("**/*.py", r"\b(?:AccountError|Denied)\(", ("account",)),
    ("**/*.py", r"\b(?:BackupError|DatabaseError)\(", ("storage",)),
    ("**/*.py", r"\bProblem\(", ("problem",)),
    # the services whose refusals read a section of `texts.refusals`
    ("services/roster.py", r"\bRosterError\(", ("roster",)),
    ("services/roster.py", r"\bRefusal\([^,]+,[^,]+,", ("roster_reason",)),
    ("services/account_admin.py", r"\bAdminRefused\(", ("admin",)),
    ("services/rights.py", r"\bRightsDenied\(", ("rights",)),
    ("**/*.py", r"\bSetup(?:Refused|Invalid)\(", ("setup",)),
    ("services/people.py", r"\bPeople(?:Error|NotFound|Denied)\(", ("people",)),
    ("services/checkin.py", r"\bDay(?:NotFound|Refused)\(", ("day",)),
    ("services/teams.py", r"\bTeamsInvalid\(", ("teams",)),
    ("services/jobs.py", r"\bJobRefused\(", ("jobs",)),
    # the file readers' refusals (`texts.files`)
    ("formats/archive.py", r"\b_bad\(", ("files",)),
    ("**/*.py", r"\b(?:ArchiveError|CrosswalkError|PolemicaError|RecordError|PointsCsvError)\(",
     ("files",)),
    ("seating/*.py", r"\bInfeasibleRequest\(", ("seating_request",)),
    ("**/*.py", r"\bSeatingRefused\(", ("seating_desk",)),
    # the web layer's own refusals (`texts.refusals.WEB_REFUSAL`)
    ("web/*.py", r"\b(?:WebRefused|BadInput|SignInFailed|Forbidden|Missing|Stale|Unprocessable)\(",
     ("web_refusal",)),
    # the registration and the awards (`texts.register`)
    ("web/templates/*.html", r"\b(?:rw|cw)\(", ("register_page",)),
    ("web/register_pages.py", r"\brw\(", ("register_page",)),
    ("services/registration.py", r"\bRegistration(?:Error|NotFound|State)\(",
     ("registration",)),
    ("services/awards.py", r"\bAwardError\(", ("award_refusal",)),
]
KEY = r"""\s*['"]([a-z][a-z0-9_]*)['"]"""


def _uses() -> list[tuple[str, str, tuple[str, ...]]]:
    found = []
    for pattern, call, names in USES:
        rx = re.compile(call + KEY)
        for path in sorted(SRC.glob(pattern)):
            if "texts" in path.parts and path.suffix == ".py":
                continue
            for key in rx.findall(path.read_text(encoding="utf-8")):
                found.append((str(path.relative_to(SRC)), key, names))
    return found


def test_every_key_the_code_and_the_templates_use_exists() -> None:
    uses = _uses()
    assert len(uses) > 300  # the scan sees the pages and the services, not nothing
    def known(key: str, names: tuple[str, ...]) -> bool:
        if key.endswith("_"):  # a prefix the template completes with a code ('state_' ~ s)
            return any(k.startswith(key) for n in names for k in SECTIONS[n])
        return any(key in SECTIONS[n] for n in names)

    missing = sorted({(f, k) for f, k, names in uses if not known(k, names)})
    assert missing == []


def test_a_refusal_reads_in_both_languages_and_gives_codes_to_the_api() -> None:
    p = Problem("extra_loser_max", game="g7", seat=3, clause="FSM 8.3.2",
                params={"value": "+0,5"})
    assert p.message("ru").startswith("игра g7, место 3: ")
    assert "ФСМ 8.3.2" in p.message("ru") and "FSM 8.3.2" in p.message("en")
    said = stated("задержка: до 60 секунд", "delay: up to 60 seconds")
    assert said.message("ru") == "задержка: до 60 секунд"
    assert said.as_dict("en")["message"] == "delay: up to 60 seconds"
    state = Problem("bad_state", params={"state": Word("confirmed", "подтверждён", "confirmed")},
                    texts={"bad_state": ("в состоянии «{state}»", "in state {state}")})
    assert state.message("ru") == "в состоянии «подтверждён»"
    assert state.as_dict("ru")["params"] == {"state": "confirmed"}


@pytest.mark.parametrize(("n", "ru", "en"), [
    (1, "1 стол", "1 table"), (2, "2 стола", "2 tables"), (5, "5 столов", "5 tables"),
    (11, "11 столов", "11 tables"), (21, "21 стол", "21 tables"), (104, "104 стола", "104 tables"),
])
def test_plurals_agree_with_their_number(n: int, ru: str, en: str) -> None:
    assert texts.count(n, "table", "ru") == ru
    assert texts.count(n, "table", "en") == en


def test_russian_numbers_have_a_decimal_comma_and_a_real_minus() -> None:
    from decimal import Decimal

    assert texts.number(Decimal("-0.4"), "ru") == "−0,4"
    assert texts.number(Decimal("-0.4"), "en") == "-0.4"
    assert texts.number(12345, "ru") == "12\xa0345"
    assert texts.number(12345, "en") == "12,345"


def _refusal_classes() -> list[type]:
    import importlib
    import pkgutil

    import mafiatab
    from mafiatab.domain.problems import Refused

    for info in pkgutil.walk_packages(mafiatab.__path__, "mafiatab."):
        if ".web" in info.name or info.name.endswith("__main__"):
            continue
        importlib.import_module(info.name)
    found: list[type] = []
    todo: list[type] = [Refused]
    while todo:
        cls = todo.pop()
        found.append(cls)
        todo.extend(cls.__subclasses__())
    return found


def test_no_refusal_says_words_past_the_catalogue() -> None:
    """Every refusal's words are the catalogue's: no class of the family overrides
    `message` with words of its own, and a class that names its section names one the
    catalogue lists (so the test above checks its keys in both languages)."""
    from mafiatab.domain.problems import Refused

    classes = _refusal_classes()
    assert len(classes) > 20
    own = [c.__qualname__ for c in classes if c is not Refused and "message" in vars(c)]
    assert own == []
    listed = {id(section) for section in SECTIONS.values()}
    unlisted = [c.__qualname__ for c in classes
                if "texts" in vars(c) and id(vars(c)["texts"]) not in listed]
    assert unlisted == []


def test_a_moved_refusal_reads_in_both_languages_with_its_code() -> None:
    from mafiatab.services.clock import BadZone
    from mafiatab.services.roster import Refusal, RosterError
    from mafiatab.services.video import BadVideo

    zone = BadZone("Mars/Olympus")
    assert zone.message("ru").startswith("часовой пояс 'Mars/Olympus' неизвестен")
    assert zone.message("en").startswith("time zone 'Mars/Olympus' is unknown")
    assert zone.as_dict("en")["problems"][0]["code"] == "bad_zone"
    video = BadVideo("scheme")
    assert video.message("ru") == "ссылка должна начинаться с http:// или https://"
    assert video.as_dict("en")["problems"][0]["params"] == {"why": "scheme"}
    why = Refusal(0, "", "long_nickname", {"n": 100}).word()
    player = RosterError("bad_player", player="p1", reason=why)
    assert player.message("ru") == "игрок p1: ник длиннее 100 символов"
    assert player.message("en") == "player p1: a nickname longer than 100 characters"
    assert player.as_dict("ru")["problems"][0]["params"] == {"player": "p1",
                                                             "reason": "long_nickname"}


#: where `stated` (words given past the catalogue) may be called: only for a text that
#: comes from outside the program; none does today
STATED_STAYS: set[str] = set()


def test_words_go_past_the_catalogue_only_where_listed() -> None:
    """`stated(ru, en)` lets a caller give literal words; the file readers', the seating
    request's and the seating desk's refusals say codes of the catalogue instead."""
    calls = {str(path.relative_to(SRC)) for path in SRC.rglob("*.py")
             if "domain/problems.py" not in str(path)
             and re.search(r"\bstated\(", path.read_text(encoding="utf-8"))}
    assert calls == STATED_STAYS


def test_a_file_reader_refuses_with_a_code_and_its_params() -> None:
    from mafiatab.formats.archive import ArchiveError, unpack
    from mafiatab.formats.crosswalk import CrosswalkError, parse_crosswalk

    with pytest.raises(ArchiveError) as e:
        unpack(b"not a zip")
    got = e.value.as_dict("ru")["problems"][0]
    assert got["code"] == "archive_not_zip" and got["message"].startswith("не zip-архив (")
    assert e.value.message("en").startswith("not a zip archive (")
    with pytest.raises(CrosswalkError) as c:
        parse_crosswalk({"gomafia": {"17": 5}})
    assert c.value.as_dict("en")["problems"][0]["params"] == {"system": "gomafia", "ext": "17"}
    assert c.value.message("ru") == "crosswalk.gomafia.17: ожидался id игрока (текст)"


def test_a_seating_request_refuses_with_counted_words_and_numbers_for_the_api() -> None:
    from mafiatab.seating.model import InfeasibleRequest, build_request

    with pytest.raises(InfeasibleRequest) as e:
        build_request(30, 7, tables=2)
    assert e.value.reason("ru").startswith("30 игроков × 7 игр = 210 мест, это не кратно 20")
    assert e.value.reason("en").startswith("30 players × 7 games = 210 seats, not a multiple")
    got = e.value.as_dict("en")["problems"][0]
    assert got["code"] == "seating_not_multiple"
    assert got["params"] == {"players": "30", "games": "7", "seats": "210", "multiple": 20,
                             "tables": 2}


def test_the_seating_desk_refuses_with_codes_and_carries_a_requests_problem() -> None:
    from mafiatab.seating.model import InfeasibleRequest, build_request
    from mafiatab.services.seating_web import (
        MAX_GAMES,
        SeatingParams,
        SeatingRefused,
        check_bounds,
    )

    with pytest.raises(SeatingRefused) as e:
        check_bounds(SeatingParams("qual", 0))
    assert e.value.as_dict("en")["problems"][0]["params"] == {"bound": "games"}
    assert e.value.reason("ru") == f"Рассадка: игр на игрока — от 1 до {MAX_GAMES}."
    assert e.value.reason("en") == f"Seating: games per player are 1 to {MAX_GAMES}."
    with pytest.raises(InfeasibleRequest) as r:
        build_request(5, 1)
    carried = SeatingRefused.carrying(r.value)
    assert carried.status == 422 and carried.problems == r.value.problems
    assert carried.reason("en") == "At least 10 players are needed, got 5."
