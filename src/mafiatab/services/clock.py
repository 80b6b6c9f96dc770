"""Use case: a tournament's time zone, over `Store`.

People read deadlines and game events on the clock of the hall, which need not be the
server's: a tournament in Moscow run from a server in another zone must show "до 14:30
(Europe/Moscow)". The zone is an IANA name (`zoneinfo`), so daylight saving time is the
zone database's business, never ours. A tournament without one shows the server's zone
(its IANA name when the system says it, else UTC).

Only the organizer (or the head judge) sets it; the name is validated against the zone
database and bounded.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import os
import re
from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path
from typing import ClassVar, Final
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from mafiatab.services.errors import ServiceError
from mafiatab.services.store import Store, record_audit, require_role, tournament_row
from mafiatab.storage import models as db
from mafiatab.storage.models import HEAD_JUDGE, ORGANIZER
from mafiatab.texts.refusals import ZONE

#: who sets the zone
SETTERS: Final = frozenset({ORGANIZER, HEAD_JUDGE})
#: an IANA name: "Europe/Moscow", "America/Argentina/Buenos_Aires", "UTC", "Etc/GMT+3"
_NAME: Final = re.compile(r"[A-Za-z][A-Za-z0-9_+\-]*(/[A-Za-z0-9_+\-]+){0,3}")
MAX_NAME: Final = 64


class BadZone(ServiceError):
    """The name is not a time zone of the zone database."""

    texts: ClassVar[Mapping[str, tuple[str, str]]] = ZONE

    def __init__(self, name: str) -> None:
        super().__init__("bad_zone", zone=name[:MAX_NAME])


@lru_cache(maxsize=1)
def _known() -> frozenset[str]:
    return frozenset(available_timezones())


def valid_zone(name: str) -> ZoneInfo | None:
    """The zone of an IANA name, or None when it is not one (bounded, listed, loadable)."""
    if not (0 < len(name) <= MAX_NAME and _NAME.fullmatch(name)):
        return None
    if name not in _known() and name != "UTC":
        return None
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError, OSError):
        return None


#: the names the zone database gives UTC itself
UTC_ALIASES = frozenset({"UTC", "UCT", "Universal", "Zulu", "GMT", "GMT0", "GMT+0", "GMT-0",
                         "Greenwich"})


@lru_cache(maxsize=1)
def server_zone_name() -> str:
    """The server's zone as an IANA name: `TZ`, else what /etc/localtime points to, else
    /etc/timezone, else UTC."""
    candidates: list[str] = []
    tz = os.environ.get("TZ", "").lstrip(":")
    if tz:
        candidates.append(tz)
    try:
        target = str(Path("/etc/localtime").resolve())
        if "zoneinfo/" in target:
            candidates.append(target.split("zoneinfo/", 1)[1])
    except OSError:
        pass
    with contextlib.suppress(OSError):
        candidates.append(Path("/etc/timezone").read_text(encoding="utf-8").strip())
    for name in candidates:
        if valid_zone(name) is not None:
            # the zone database's aliases of UTC ("Etc/UTC" on Debian) read as UTC
            return "UTC" if name.removeprefix("Etc/") in UTC_ALIASES else name
    return "UTC"


def utcnow() -> dt.datetime:
    """The moment now, in UTC: the one clock the services read."""
    return dt.datetime.now(dt.UTC)


class TournamentClock:
    """The tournament's time zone: read it, set it."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def zone_name(self, tournament: int) -> str:
        """The tournament's zone's name (the server's when none is set)."""
        with self.store.read() as s:
            row = s.get(db.TournamentClock, tournament)
            return row.time_zone if row is not None else server_zone_name()

    def zone(self, tournament: int) -> ZoneInfo:
        """The tournament's zone (a stored name no longer in the zone database: UTC)."""
        return valid_zone(self.zone_name(tournament)) or ZoneInfo("UTC")

    def is_set(self, tournament: int) -> bool:
        with self.store.read() as s:
            return s.get(db.TournamentClock, tournament) is not None

    def set_zone(self, tournament: int, name: str, *, actor: str) -> str:
        """Set the tournament's zone (organizer, head judge); an empty name goes back to
        the server's. Returns the name in force. Refused: `BadZone`."""
        name = name.strip()
        if name and valid_zone(name) is None:
            raise BadZone(name)
        with self.store.write() as s:
            t = tournament_row(s, tournament)
            require_role(s, t, actor, SETTERS, "manage")
            row = s.get(db.TournamentClock, t.id)
            before = row.time_zone if row is not None else None
            if not name:
                if row is not None:
                    s.delete(row)
            elif row is None:
                s.add(db.TournamentClock(tournament_id=t.id, time_zone=name))
            else:
                row.time_zone = name
            record_audit(s, actor, t.id, "set_time_zone", {"before": before, "zone": name or None})
        return name or server_zone_name()


__all__ = ["BadZone", "SETTERS", "TournamentClock", "server_zone_name", "utcnow", "valid_zone"]
