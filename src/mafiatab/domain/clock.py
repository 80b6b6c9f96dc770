"""Moments as people read them, and a game's moments on its video.

A deadline, a message or a game event happens at one instant, stored in UTC. People at a
tournament read it on the clock of the hall, so every moment is shown in the
tournament's time zone *with the zone named*. This module's `zone_label` and
`local_time` name it by its IANA name ("07.03.2026 14:30 (Europe/Moscow)"), for logs and
machines; the pages, the API's texts and the CLI use `i18n.zone_words` / `i18n.local_time`,
which name it in the reader's words («07.03.2026 14:30 (Москва, UTC+3)», by Babel). The
zone is an argument (a `tzinfo` the caller made, `zoneinfo.ZoneInfo` in the services):
this module reads no clock and no zone file, so it stays in the pure core.

A game may carry a video (a stream's recording) and the second of the video at which
the game's first event was recorded; each event with a wall-clock time then has a
timecode: the offset plus the seconds since that first event ("1:23:45",
`...&t=5025s`).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Any, Final
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

#: the longest video link kept (a stream's URL with its parameters fits easily)
MAX_URL: Final = 500
#: the largest offset into a video: two days of stream
MAX_OFFSET: Final = 2 * 24 * 3600


def zone_label(zone: dt.tzinfo, moment: dt.datetime | None = None) -> str:
    """The zone's IANA name ("Europe/Moscow"), else its abbreviation at the moment."""
    key = getattr(zone, "key", None)
    if isinstance(key, str) and key and not key.startswith("Etc/"):
        return key
    # "Etc/..." names are the database's fixed offsets (with inverted signs): their
    # abbreviation ("UTC", "+03") reads right
    return (moment or dt.datetime(2000, 1, 1, tzinfo=dt.UTC)).astimezone(zone).tzname() or "UTC"


def aware(value: dt.datetime) -> dt.datetime:
    """A naive moment is UTC (SQLite gives naive values back; people type them)."""
    return value if value.tzinfo is not None else value.replace(tzinfo=dt.UTC)


def local_time(value: dt.datetime, zone: dt.tzinfo, lang: str = "en",
               with_zone: bool = True) -> str:
    """The moment on the tournament's clock: "07.03.2026 14:30 (Europe/Moscow)" in
    Russian, "2026-03-07 14:30 (Europe/Moscow)" in English."""
    here = aware(value).astimezone(zone)
    text = here.strftime("%d.%m.%Y %H:%M" if lang == "ru" else "%Y-%m-%d %H:%M")
    return f"{text} ({zone_label(zone, value)})" if with_zone else text


def clock_time(value: dt.datetime, zone: dt.tzinfo, seconds: bool = True) -> str:
    """Only the time of day on the tournament's clock ("14:30:05"), for a game's events."""
    here = aware(value).astimezone(zone)
    return here.strftime("%H:%M:%S" if seconds else "%H:%M")


def parse_instant(text: object) -> dt.datetime | None:
    """An event's stored time ("2026-03-07T11:30:05Z"), or None when it is not one."""
    if not isinstance(text, str) or not 10 <= len(text) <= 40:
        return None
    try:
        value = dt.datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        return None
    return aware(value)


def instant_text(value: dt.datetime) -> str:
    """How an event's time is stored: UTC, whole seconds, "Z" ("2026-03-07T11:30:05Z")."""
    return aware(value).astimezone(dt.UTC).replace(microsecond=0).strftime("%Y-%m-%dT%H:%M:%SZ")


def timecode(seconds: int) -> str:
    """Seconds into a video as a player shows them: "1:23:45", "4:05"."""
    seconds = max(0, int(seconds))
    h, rest = divmod(seconds, 3600)
    m, s = divmod(rest, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


def parse_timecode(text: str) -> int | None:
    """"1:23:45", "83:45", "5025" or "5025s" -> seconds; None when it is none of them."""
    text = text.strip().removesuffix("s")
    if not text or len(text) > 12:
        return None
    parts = text.split(":")
    if len(parts) > 3 or not all(p.isdecimal() and p.isascii() for p in parts):
        return None
    seconds = 0
    for p in parts:
        seconds = seconds * 60 + int(p)
    return seconds


def check_video_url(url: object) -> str | None:
    """Why a video link is refused (None: it is fine): http or https, a host, bounded."""
    if not isinstance(url, str) or not url.strip():
        return "empty"
    if len(url) > MAX_URL:
        return "too_long"
    if any(c.isspace() or ord(c) < 32 for c in url):
        return "spaces"
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https"):
        return "scheme"
    if not parts.netloc or "@" in parts.netloc:
        return "host"
    return None


def check_offset(offset: object) -> str | None:
    """Why a start offset is refused (None: fine): whole seconds, 0 to two days."""
    if not isinstance(offset, int) or isinstance(offset, bool):
        return "not_number"
    if not 0 <= offset <= MAX_OFFSET:
        return "range"
    return None


def video_at(url: str, seconds: int) -> str:
    """The video link opened at a second: its `t` parameter set ("...&t=5025s")."""
    parts = urlsplit(url)
    query = [(k, v) for k, v in parse_qsl(parts.query, keep_blank_values=True) if k != "t"]
    query.append(("t", f"{max(0, int(seconds))}s"))
    return urlunsplit((parts.scheme, parts.netloc, parts.path, urlencode(query), parts.fragment))


def game_start(log: Sequence[dict[str, Any]]) -> dt.datetime | None:
    """The wall-clock time of the game's first timed event (the video's offset is there)."""
    for event in log:
        at = parse_instant(event.get("at"))
        if at is not None:
            return at
    return None


def seconds_into_video(at: dt.datetime, start: dt.datetime, offset: int) -> int:
    """The second of the video at which a moment of the game was recorded."""
    return offset + max(0, int((aware(at) - aware(start)).total_seconds()))


__all__ = [
    "MAX_OFFSET",
    "MAX_URL",
    "aware",
    "check_offset",
    "check_video_url",
    "clock_time",
    "game_start",
    "instant_text",
    "local_time",
    "parse_instant",
    "parse_timecode",
    "seconds_into_video",
    "timecode",
    "video_at",
    "zone_label",
]
