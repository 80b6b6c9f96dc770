"""Appeals on the tournament's clock: FSM 8.9.2 at filing, deadlines shown in
the tournament's zone with its name (daylight saving time included), never shown as open
when past, and "decide by" never before the filing."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from zoneinfo import ZoneInfo, available_timezones

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mafiatab.domain.appeals import (
    Filing,
    GameTimes,
    Kind,
    RoundTime,
    Schedule,
    Subject,
    check_filing,
    deadlines,
    decide_by,
    file_case,
    filing_deadline,
    is_open,
)
from mafiatab.domain.clock import local_time
from mafiatab.domain.protocol import Game
from mafiatab.i18n import local_time as words_time
from mafiatab.i18n import zone_words
from mafiatab.rules import FIIM2018, FSM
from mafiatab.services.clock import UTC_ALIASES, BadZone, TournamentClock, valid_zone
from mafiatab.services.store import Store
from tests.appeals.conftest import HJ, JUDGE, PLAYER, Cup
from tests.helpers import game as game_dict

T0 = datetime(2026, 3, 7, 10, 0, tzinfo=UTC)
#: six rounds on one day, an hour apart: round 6 is the last
ONE_DAY = Schedule(rounds=[RoundTime(stage="qual", round=r, day=1,
                                     starts=T0 + timedelta(hours=r - 1)) for r in range(1, 7)])
DEADLINE_CODES = {"protest_too_late", "appeal_rounds_passed", "appeal_next_day",
                  "appeal_last_round", "appeal_on_last_round", "appeal_tables_closed"}


def _game(gid: str, rnd: int) -> Game:
    return msgspec.convert(game_dict(gid, rnd=rnd), Game, strict=False)


def _appeal(gid: str) -> Filing:
    return Filing(kind=Kind.APPEAL, player="p3", game=gid, subject=Subject.POSITIVE_EXTRA,
                  awarded=Decimal("0.2"), claimed=Decimal("0.6"))


def _times(rnd: int) -> GameTimes:
    start = T0 + timedelta(hours=rnd - 1)
    return GameTimes(ended=start + timedelta(minutes=45), published=start + timedelta(minutes=50))


# --- FSM 8.9.2 at filing -------------------------------------------------------------


def test_fsm_8_9_2_an_appeal_on_the_last_round_is_refused_at_filing() -> None:
    g = _game("g6", 6)
    moment = T0 + timedelta(hours=5, minutes=55)  # right after the game and its protocol
    refused = check_filing(_appeal("g6"), g, FSM, ONE_DAY, _times(6), [], moment)
    assert [r.code for r in refused] == ["appeal_on_last_round"]
    assert refused[0].clause == "FSM 8.9.2"
    assert "последнего тура" in refused[0].message("ru") and "(ФСМ 8.9.2)" in refused[0].message("ru")
    # the page shows it as closed, never as open
    assert not is_open(filing_deadline(Kind.APPEAL, g, FSM, ONE_DAY, _times(6)), moment)


def test_fsm_8_9_2_the_round_before_the_last_closes_when_the_last_starts() -> None:
    g = _game("g5", 5)
    last = T0 + timedelta(hours=5)
    assert check_filing(_appeal("g5"), g, FSM, ONE_DAY, _times(5), [], last - timedelta(minutes=1)) == []
    refused = check_filing(_appeal("g5"), g, FSM, ONE_DAY, _times(5), [], last)
    assert [r.code for r in refused] == ["appeal_last_round"]


def test_fsm_8_9_2_a_derived_schedule_does_not_know_the_last_round() -> None:
    """Without an entered schedule the latest started round is not surely the last: an
    appeal on it is not refused by 8.9.2 (the cases' page warns that no schedule is in)."""
    derived = msgspec.structs.replace(ONE_DAY, last_round_known=False)
    g = _game("g6", 6)
    moment = T0 + timedelta(hours=5, minutes=55)
    assert check_filing(_appeal("g6"), g, FSM, derived, _times(6), [], moment) == []


def test_fsm_8_9_2_is_profile_data_fiim_has_no_score_appeals() -> None:
    assert FSM.appeal_closed_before_last_round.value is True
    assert FIIM2018.appeal_closed_before_last_round.value is False
    found, _ = deadlines(Kind.APPEAL, _game("g6", 6), FIIM2018, ONE_DAY, _times(6))
    assert found == []


def test_fsm_8_9_2_decide_by_is_never_before_the_filing() -> None:
    g = _game("g2", 2)
    filed = T0 + timedelta(hours=1, minutes=55)
    case = file_case(_appeal("g2"), g, FSM, ONE_DAY, _times(2), [], filed, "A1")
    assert decide_by(case, FSM, ONE_DAY) == T0 + timedelta(hours=5)
    # the schedule was entered later with the last round before the filing: no deadline
    # earlier than the filing is shown
    early = Schedule(rounds=[RoundTime(stage="qual", round=r, day=1,
                                       starts=T0 + timedelta(minutes=10 * r)) for r in range(1, 7)])
    assert decide_by(case, FSM, early) is None
    assert decide_by(case, FIIM2018, ONE_DAY) is None


# --- deadlines in a zone, daylight saving time included ----------------------------------


def test_fsm_8_9_2_deadline_on_the_moscow_clock() -> None:
    g = _game("g5", 5)
    refused = check_filing(_appeal("g5"), g, FSM, ONE_DAY, _times(5), [], T0 + timedelta(hours=6))
    moscow = ZoneInfo("Europe/Moscow")
    # the last round starts 15:00 UTC = 18:00 in Moscow (UTC+3 all year)
    assert "07.03.2026 18:00 (Europe/Moscow)" in refused[0].message("ru", moscow)
    assert "2026-03-07 18:00 (Europe/Moscow)" in refused[0].message("en", moscow)
    assert "(UTC)" in refused[0].message("ru")
    # the pages' words: the zone by its place and offset, in the reader's language
    ru = refused[0].message("ru", moscow, lambda v: words_time(v, moscow, "ru"))
    en = refused[0].message("en", moscow, lambda v: words_time(v, moscow, "en"))
    assert "07.03.2026 18:00 (Москва, UTC+3)" in ru and "Europe" not in ru
    assert "2026-03-07 18:00 (Moscow, UTC+3)" in en and "Europe" not in en


def test_a_zone_reads_as_its_place_and_offset_in_both_languages() -> None:
    moscow, berlin = ZoneInfo("Europe/Moscow"), ZoneInfo("Europe/Berlin")
    assert zone_words(moscow, "ru", T0) == "Москва (UTC+3)"
    assert zone_words(moscow, "en", T0) == "Moscow (UTC+3)"
    # the offset is the one at the moment: summer time shows
    assert zone_words(berlin, "ru", T0) == "Берлин (UTC+1)"
    assert zone_words(berlin, "en", datetime(2026, 7, 1, tzinfo=UTC)) == "Berlin (UTC+2)"
    assert zone_words(ZoneInfo("Asia/Kolkata"), "en", T0) == "Kolkata (UTC+5:30)"
    assert zone_words(ZoneInfo("America/New_York"), "ru", T0) == "Нью-Йорк (UTC−5)"
    # an alias reads as its zone; UTC and its aliases as UTC; fixed offsets by the offset
    assert zone_words(ZoneInfo("W-SU"), "ru", T0) == "Москва (UTC+3)"
    for name in (*UTC_ALIASES, "Etc/UTC", "Etc/Universal", "Etc/Zulu"):
        for lang in ("ru", "en"):
            assert zone_words(ZoneInfo(name), lang, T0) == "UTC", name
    assert zone_words(UTC, "ru") == "UTC"
    assert zone_words(ZoneInfo("Etc/GMT+3"), "ru", T0) == "UTC−3"  # the database's sign is inverted
    assert words_time(T0, moscow, "ru") == "07.03.2026 13:00 (Москва, UTC+3)"
    assert words_time(T0, ZoneInfo("UTC"), "en") == "2026-03-07 10:00 (UTC)"
    assert words_time(T0, moscow, "ru", with_zone=False) == "07.03.2026 13:00"


def test_no_zone_reads_in_latin_letters_on_a_russian_page() -> None:
    """Every zone of the database (what the select offers and any alias) in Russian: the
    place in Cyrillic, nothing Latin but "UTC"."""
    for name in sorted(available_timezones()):
        words = zone_words(ZoneInfo(name), "ru", T0)
        assert re.fullmatch(r"([^A-Za-z/]+ \()?UTC([+−]\d{1,2}(:\d\d)?)?\)?", words), (name, words)


def test_fiim_8_9_1_protest_deadline_across_new_yorks_dst_change() -> None:
    """On 8 March 2026 New York's clocks go from 2:00 EST to 3:00 EDT: a deadline at
    06:50 UTC is 1:50 on the clock, one at 07:10 UTC is 3:10."""
    ny = ZoneInfo("America/New_York")
    g = _game("g1", 1)
    for ended, shown in ((datetime(2026, 3, 8, 6, 40, tzinfo=UTC), "08.03.2026 01:50"),
                         (datetime(2026, 3, 8, 7, 0, tzinfo=UTC), "08.03.2026 03:10")):
        times = GameTimes(ended=ended)
        protest = Filing(kind=Kind.PROTEST, player="p3", game="g1")
        late = check_filing(protest, g, FIIM2018, ONE_DAY, times, [],
                            ended + timedelta(minutes=10, seconds=1))
        assert [r.code for r in late] == ["protest_too_late"]
        assert f"{shown} (America/New_York)" in late[0].message("ru", ny)
        assert check_filing(protest, g, FIIM2018, ONE_DAY, times, [],
                            ended + timedelta(minutes=10)) == []


# --- properties ----------------------------------------------------------------------------

moments = st.datetimes(min_value=datetime(2026, 1, 1), max_value=datetime(2026, 12, 31),
                       timezones=st.just(UTC))
zones = st.sampled_from(["Europe/Moscow", "America/New_York", "Asia/Kolkata", "UTC",
                         "Australia/Lord_Howe"])


@st.composite
def worlds(draw: st.DrawFn) -> tuple[Schedule, GameTimes, int, datetime]:
    start = draw(moments)
    gaps = draw(st.lists(st.integers(30, 600), min_size=2, max_size=8))
    rounds, at = [], start
    for i, gap in enumerate(gaps, start=1):
        rounds.append(RoundTime(stage="qual", round=i, day=1 + (at - start).days, starts=at))
        at += timedelta(minutes=gap)
    rnd = draw(st.integers(1, len(rounds)))
    played = rounds[rnd - 1].starts
    times = GameTimes(ended=played + timedelta(minutes=draw(st.integers(20, 90))),
                      published=played + timedelta(minutes=draw(st.integers(20, 180))))
    closed = draw(st.none() | st.just(played + timedelta(minutes=draw(st.integers(0, 900)))))
    schedule = Schedule(rounds=rounds, tables_closed_at=closed,
                        last_round_known=draw(st.booleans()))
    now = played + timedelta(minutes=draw(st.integers(0, 3000)))
    return schedule, times, rnd, now


@settings(max_examples=300, deadline=None)
@given(worlds(), st.sampled_from([FSM, FIIM2018]), st.sampled_from(list(Kind)))
def test_a_deadline_shown_as_open_is_never_in_the_past(
        world: tuple[Schedule, GameTimes, int, datetime], profile: object, kind: Kind) -> None:
    """What the filing page shows as open (`is_open` of the earliest deadline) is exactly
    what filing accepts as in time, and an open deadline is after now."""
    schedule, times, rnd, now = world
    g = _game(f"g{rnd}", rnd)
    filing = _appeal(g.id) if kind is Kind.APPEAL else Filing(kind=kind, player="p3", game=g.id)
    found = filing_deadline(kind, g, profile, schedule, times)  # type: ignore[arg-type]
    refused = check_filing(filing, g, profile, schedule, times, [], now)  # type: ignore[arg-type]
    late = [r for r in refused if r.code in DEADLINE_CODES]
    assert is_open(found, now) == (not late)
    if found is not None and is_open(found, now):
        # "не позднее" (FIIM 8.9.1): the deadline's own moment is still in time
        assert found.at > now or (found.inclusive and found.at == now)


@settings(max_examples=200, deadline=None)
@given(moments, zones)
def test_a_moment_shown_on_the_clock_reads_back_as_the_same_minute(at: datetime, name: str) -> None:
    zone = ZoneInfo(name)
    text = local_time(at, zone, "en")
    assert text.endswith(f"({name})")
    shown = datetime.strptime(text[:16], "%Y-%m-%d %H:%M")
    back = shown.replace(tzinfo=zone, fold=at.astimezone(zone).fold).astimezone(UTC)
    assert back == at.replace(second=0, microsecond=0)


# --- the tournament's zone (services/clock.py) -------------------------------------------


def test_the_zone_is_validated_and_set_by_staff_only(cup: Cup) -> None:
    clock = TournamentClock(Store(cup.svc.engine))
    assert valid_zone("Europe/Moscow") is not None
    for bad in ("Mars/Olympus", "../../etc/passwd", "Europe/Moscow" + "x" * 60, ""):
        assert valid_zone(bad) is None
    with pytest.raises(BadZone):
        clock.set_zone(cup.tid, "Mars/Olympus", actor=HJ)
    from mafiatab.services.errors import PermissionDenied

    for nobody in (PLAYER, JUDGE):
        with pytest.raises(PermissionDenied):
            clock.set_zone(cup.tid, "Europe/Moscow", actor=nobody)
    assert clock.set_zone(cup.tid, "America/New_York", actor=HJ) == "America/New_York"
    assert clock.zone(cup.tid) == ZoneInfo("America/New_York")
    assert any(a[2] == "set_time_zone" for a in cup.svc.tournaments.audit_log(cup.tid, actor=HJ))
    clock.set_zone(cup.tid, "", actor=HJ)  # back to the server's zone
    assert not clock.is_set(cup.tid)


def test_fsm_8_9_2_the_stored_schedule_knows_the_last_round(cup: Cup) -> None:
    """The stored schedule (rounds 1-4 before publication, 5-7 and the final after):
    the final is the last round; an appeal on a game of it is refused with the clause."""
    from mafiatab.domain.appeals import Refused

    svc = cup.svc
    last = svc.appeals.schedule(cup.tid, actor=HJ).last_round_start()
    assert last is not None and svc.appeals.schedule(cup.tid, actor=HJ).last_round_known
    with pytest.raises(Refused) as refused:
        svc.appeals.file(cup.tid, _appeal("g1"), actor=PLAYER, now=last + timedelta(minutes=1))
    codes = {r.code: r.clause for r in refused.value.refusals}
    assert codes.get("appeal_last_round") == "FSM 8.9.2"
