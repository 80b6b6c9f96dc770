"""Use case: a game's video and its moments, over `Store`.

A stream's recording is usually uploaded after the game, when the protocol may already
be confirmed. The video is part of the protocol (format 1's `games[].video`, so exports,
the archive and imports keep it), so setting it writes a new revision of the same state
on top of the newest: a confirmed protocol stays confirmed (nothing that scores
changed), the old revision stays readable, and the base revision is checked as for any
save (`StaleRevision` then `ConflictError` upstream). Staff only; the link and the
offset are validated (domain/clock.py) before anything is written.

`moments` turns a game's log into what the pages show: each event's time on the
tournament's clock and, with a video, its timecode and link.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, ClassVar, Final

import msgspec

from mafiatab.domain import protocol as model
from mafiatab.domain.clock import (
    check_offset,
    check_video_url,
    clock_time,
    game_start,
    parse_instant,
    seconds_into_video,
    timecode,
    video_at,
)
from mafiatab.domain.problems import Word
from mafiatab.services.errors import ServiceError
from mafiatab.services.revision_log import whole
from mafiatab.services.store import (
    Store,
    advance_head,
    game_row,
    record_audit,
    require_role,
    revision_row,
    tournament_row,
    user_row,
)
from mafiatab.services.tournaments import decode_game, diff_dicts, encode_game
from mafiatab.storage import models as db
from mafiatab.storage.models import CONFIRMED, HEAD_JUDGE, ORGANIZER
from mafiatab.texts.refusals import VIDEO, VIDEO_WHY

#: who sets a game's video
SETTERS: Final = frozenset({ORGANIZER, HEAD_JUDGE})

class BadVideo(ServiceError):
    """The video link or its offset is refused (nothing was written); `why` is a code
    of the catalogue's `video_why` section."""

    texts: ClassVar[Mapping[str, tuple[str, str]]] = VIDEO

    def __init__(self, why: str) -> None:
        super().__init__("bad_video", why=Word(why, *VIDEO_WHY[why]))


@dataclass(frozen=True, slots=True)
class Moment:
    """One event of a game as the pages show it: its place, its time on the
    tournament's clock, and its moment in the video."""

    index: int
    event: dict[str, Any]
    at: dt.datetime | None
    clock: str | None
    #: seconds into the video, its timecode ("1:23:45") and its link (None: no video)
    second: int | None = None
    timecode: str | None = None
    link: str | None = None


def moments(game: model.Game, zone: dt.tzinfo) -> list[Moment]:
    """The game's events with their times and, when the game has a video, their links."""
    log = game.log or []
    start = game_start(log)
    out: list[Moment] = []
    for i, event in enumerate(log):
        at = parse_instant(event.get("at"))
        m = Moment(index=i, event=event, at=at,
                   clock=clock_time(at, zone) if at is not None else None)
        if at is not None and start is not None and game.video is not None:
            second = seconds_into_video(at, start, game.video.offset)
            m = Moment(index=i, event=event, at=at, clock=m.clock, second=second,
                       timecode=timecode(second), link=video_at(game.video.url, second))
        out.append(m)
    return out


class GameVideo:
    """Set or clear a game's video."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def set_video(self, tournament: int, code: str, url: str | None, offset: int | None = 0,
                  *, actor: str, base_revision: int | None = None) -> int:
        """The game's video (None or "": no video) as a new revision of the same state;
        returns its number. Refused (after the asker is checked): `BadVideo`, or an
        `offset` None (a timecode that could not be read); someone saved in between:
        `StaleRevision`."""
        with self.store.write() as s:
            t = tournament_row(s, tournament)
            require_role(s, t, actor, SETTERS, "manage")
            if offset is None:
                raise ServiceError("bad_input", field="offset")
            video: model.Video | None = None
            if url is not None and url.strip():
                why = check_video_url(url.strip()) or check_offset(offset)
                if why is not None:
                    raise BadVideo(why)
                video = model.Video(url=url.strip(), offset=offset)
            row = game_row(s, t.id, code)
            base = row.head_revision if base_revision is None else base_revision
            head = revision_row(s, row.id, row.head_revision)
            head_text = whole(s, head)
            old = decode_game(head_text)
            if old.video == video:
                return row.head_revision
            new = msgspec.structs.replace(old, video=video)
            text = encode_game(new)
            confirmed = head.state == CONFIRMED and row.confirmed_revision == row.head_revision
            number = advance_head(s, row, base, confirmed=confirmed)
            author = user_row(s, actor)
            old_dict = json.loads(head_text, parse_float=Decimal)
            new_dict = json.loads(text, parse_float=Decimal)
            s.add(db.ProtocolRevision(game_id=row.id, number=number, state=head.state,
                                      protocol=text, author_id=author.id, reason="video",
                                      changes=diff_dicts(old_dict, new_dict)))
            record_audit(s, actor, t.id, "set_video", {
                "game": code, "revision": number,
                "video": msgspec.to_builtins(video) if video is not None else None})
            return number


__all__ = ["BadVideo", "GameVideo", "Moment", "SETTERS", "moments"]
