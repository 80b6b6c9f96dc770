"""In the pure core: an event's wall-clock time (`at`) as the log keeps it, and
a game's moments in its video (domain/clock.py). The time is passed in: nothing here
reads a clock."""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mafiatab.domain.clock import (
    check_offset,
    check_video_url,
    clock_time,
    game_start,
    instant_text,
    parse_instant,
    parse_timecode,
    seconds_into_video,
    timecode,
    video_at,
)
from mafiatab.domain.gamelog_events import Foul, parse_event
from mafiatab.domain.problems import Problem


def test_an_event_keeps_its_utc_time() -> None:
    event = parse_event({"type": "foul", "seat": 3, "at": "2026-03-07T11:30:05Z"}, 4, "g1")
    assert isinstance(event, Foul) and event.at == "2026-03-07T11:30:05Z"
    bad = parse_event({"type": "foul", "seat": 3, "at": "yesterday"}, 4, "g1")
    assert isinstance(bad, Problem) and bad.code == "log_malformed" and bad.field == "log[4]"


def test_moments_on_the_clock_and_in_the_video() -> None:
    log = [{"type": "deal"}, {"type": "speech", "seat": 1, "at": "2026-03-08T06:59:00Z"},
           {"type": "speech", "seat": 2, "at": "2026-03-08T07:01:05Z"}]
    start = game_start(log)
    assert start == dt.datetime(2026, 3, 8, 6, 59, tzinfo=dt.UTC)
    second = seconds_into_video(parse_instant(log[2]["at"]), start, 5025)  # type: ignore[arg-type]
    assert (second, timecode(second)) == (5150, "1:25:50")
    # New York's clocks jump from 2:00 to 3:00 in between
    ny = ZoneInfo("America/New_York")
    assert [clock_time(parse_instant(e["at"]), ny) for e in log[1:]] == ["01:59:00", "03:01:05"]  # type: ignore[arg-type]
    assert video_at("https://v.example.org/w?v=abc&t=10s", 5150) == \
        "https://v.example.org/w?v=abc&t=5150s"


@pytest.mark.parametrize(("url", "why"), [
    ("https://v.example.org/watch?v=1", None), ("http://v.example.org", None),
    ("javascript:alert(1)", "scheme"), ("ftp://x.org/v", "scheme"), ("https://", "host"),
    ("https://user@evil.org/v", "host"), ("https://x.org/a b", "spaces"),
    ("https://x.org/" + "v" * 500, "too_long"), ("", "empty"),
])
def test_a_video_link_is_http_or_https_and_bounded(url: str, why: str | None) -> None:
    assert check_video_url(url) == why


def test_offsets_and_timecodes() -> None:
    assert [parse_timecode(x) for x in ("1:23:45", "83:45", "5025", "5025s", "1:x", "")] == \
        [5025, 5025, 5025, 5025, None, None]
    assert [check_offset(x) for x in (0, 172800, -1, 172801, True, "5")] == \
        [None, None, "range", "range", "not_number", "not_number"]


@given(st.integers(0, 172800))
def test_a_timecode_reads_back_as_its_seconds(seconds: int) -> None:
    assert parse_timecode(timecode(seconds)) == seconds


@given(st.datetimes(min_value=dt.datetime(2000, 1, 1), max_value=dt.datetime(2100, 1, 1),
                    timezones=st.just(dt.UTC)))
def test_an_instant_reads_back_to_the_second(at: dt.datetime) -> None:
    assert parse_instant(instant_text(at)) == at.replace(microsecond=0)
