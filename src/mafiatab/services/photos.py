"""Players' photos for the stream overlay.

Who may change whose photo: the access rule is per tournament (accounts are global), so a
photo belongs to a player *of one tournament*. The tournament's organizer and head judge
set or remove any of its players' photos; a player signed in (his code links his account
to his player in this tournament) sets or removes his own, and nobody else's. Staff of
another tournament, judges and the public may not.

What is stored is never the file that was sent: it is decoded by Pillow and only a real
raster image of a known format is taken (JPEG, PNG, WebP, GIF: its first frame); its EXIF
orientation is applied, it is cropped to its centred square and scaled to `SIDE` pixels,
and written anew as a baseline JPEG with no metadata. Whatever else the file carried
(EXIF with a location, a script or an archive glued behind the image) is left behind.
Bounds, because a player's code may send photos and a small file may unpack into a huge
picture:

* `MAX_BYTES` of upload, and `MAX_PIXELS` by the file's header, before any pixel is
  decoded: a budget fit for a 256-pixel card (a phone's 12-megapixel photo passes);
* a JPEG is decoded at a reduced scale (its "draft": 1/2 to 1/8, what the card needs);
  any other picture is reduced right after decoding, before it is turned, converted or
  cropped, so that one full-size copy exists at a time;
* at most `DECODING` decodes at once per server process, and at most `WAITING` uploads
  wait for one (`DecodeQueue`); past that the upload is refused as "busy" (429, try
  again), so that several uploads at once cost one picture's memory, not several;
* the freed memory is handed back to the system after each decode (`memory.give_back`).
"""

from __future__ import annotations

import hashlib
import io
import struct
import threading
import time
import warnings
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, ClassVar, Final

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from mafiatab.services.errors import NotFound, PermissionDenied, ServiceError
from mafiatab.services.memory import give_back
from mafiatab.services.store import Store, account_players, record_audit, roles_in, tournament_row
from mafiatab.storage import models as db
from mafiatab.storage.models import HEAD_JUDGE, ORGANIZER, PLAYER
from mafiatab.texts.refusals import PHOTOS

#: the largest upload taken (bytes)
MAX_BYTES: Final = 3 * 1024 * 1024
#: the largest picture decoded (pixels, read from the header): a 3 MB file may not unpack
#: into gigabytes, and a 256-pixel card needs far less (a 12-megapixel phone photo passes)
MAX_PIXELS: Final = 16_000_000
#: decodes at once per server process, and uploads that may wait for one (429 past that)
DECODING: Final = 1
WAITING: Final = 4
#: the longest an upload waits for its decode (seconds; then 429 as well)
WAIT: Final = 60.0
#: the stored square's side (pixels)
SIDE: Final = 256
#: the formats taken (Pillow's names)
FORMATS: Final = frozenset({"JPEG", "PNG", "WEBP", "GIF"})
#: who may change any player's photo in the tournament
STAFF: Final = frozenset({ORGANIZER, HEAD_JUDGE})

#: the smallest side taken (a thumbnail blown up to the card looks like mud)
MIN_SIDE: Final = 64


class PhotoRefused(ServiceError):
    """A file that is not taken as a photo (422)."""

    status = 422
    texts: ClassVar[Mapping[str, tuple[str, str]]] = PHOTOS


class PhotoBusy(ServiceError):
    """Too many photos are being decoded at once: try again in a moment (429)."""

    status = 429
    texts: ClassVar[Mapping[str, tuple[str, str]]] = PHOTOS


class DecodeQueue:
    """At most `slots` decodes at once in this process and at most `waiting` uploads
    queued for one; an upload past that, or one that waited `wait` seconds, is refused
    (`PhotoBusy`). After each decode the freed memory is handed back (`give_back`)."""

    def __init__(self, slots: int = DECODING, waiting: int = WAITING,
                 wait: float = WAIT) -> None:
        self._cond = threading.Condition()
        self._free = slots
        self._waiting = 0
        self.max_waiting = waiting
        self.wait = wait
        #: how many uploads were refused as busy (the tests and the benchmark read it)
        self.refused = 0

    @property
    def waiting(self) -> int:
        """How many uploads wait for a decode now."""
        with self._cond:
            return self._waiting

    @contextmanager
    def slot(self) -> Iterator[None]:
        with self._cond:
            if self._free <= 0:
                if self._waiting >= self.max_waiting:
                    self.refused += 1
                    raise PhotoBusy("photo_busy")
                self._waiting += 1
                deadline = time.monotonic() + self.wait
                try:
                    while self._free <= 0:
                        left = deadline - time.monotonic()
                        if left <= 0:
                            self.refused += 1
                            raise PhotoBusy("photo_busy")
                        self._cond.wait(left)
                finally:
                    self._waiting -= 1
            self._free -= 1
        try:
            yield
        finally:
            give_back()
            with self._cond:
                self._free += 1
                self._cond.notify()


class PhotoNotFound(NotFound):
    """No such player, or no photo (404)."""

    texts: ClassVar[Mapping[str, tuple[str, str]]] = PHOTOS


@dataclass(frozen=True, slots=True)
class Photo:
    player: str
    image: bytes
    #: SHA-256 of the image (hex)
    digest: str


def _opened(data: bytes) -> Any:
    """The upload opened by Pillow, its header checked against the bounds; no pixel
    decoded yet (`PhotoRefused` for what is not taken)."""
    from PIL import Image, UnidentifiedImageError

    if not data:
        raise PhotoRefused("photo_empty")
    if len(data) > MAX_BYTES:
        raise PhotoRefused("photo_too_big", limit=MAX_BYTES // (1024 * 1024))
    try:
        img: Any = Image.open(io.BytesIO(data), formats=sorted(FORMATS))
    except (UnidentifiedImageError, OSError, ValueError, SyntaxError, EOFError,
            IndexError, TypeError, struct.error):
        raise PhotoRefused("photo_not_image") from None
    except (Image.DecompressionBombError, Image.DecompressionBombWarning):
        raise PhotoRefused("photo_too_large", limit=MAX_PIXELS // 1_000_000) from None
    if img.format not in FORMATS:
        raise PhotoRefused("photo_not_image")
    width, height = img.size  # the header's, nothing decoded yet
    if width * height > MAX_PIXELS:
        raise PhotoRefused("photo_too_large", limit=MAX_PIXELS // 1_000_000)
    if min(width, height) < MIN_SIDE:
        raise PhotoRefused("photo_too_small", side=MIN_SIDE)
    return img


def check_header(data: bytes) -> None:
    """Refuse (`PhotoRefused`) what the file's header already shows is not taken: asked
    before an upload waits for a decode, so that a refused file takes no place there."""
    _opened(data).close()


def normalise(data: bytes) -> bytes:
    """The upload as our own `SIDE`×`SIDE` JPEG, or `PhotoRefused` (see the module).
    Pure: no database, no I/O beyond the bytes given."""
    from PIL import Image, ImageOps, UnidentifiedImageError

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            img = _opened(data)
            img.seek(0)
            if img.format == "JPEG":  # decoded at 1/2..1/8 scale, still >= 2 cards a side
                img.draft("RGB", (2 * SIDE, 2 * SIDE))
            img.load()
            img = _reduced(img)
            img = ImageOps.exif_transpose(img)
    except PhotoRefused:
        raise
    except (Image.DecompressionBombError, Image.DecompressionBombWarning):
        raise PhotoRefused("photo_too_large", limit=MAX_PIXELS // 1_000_000) from None
    except (UnidentifiedImageError, OSError, ValueError, SyntaxError, EOFError,
            IndexError, TypeError, struct.error):
        # Pillow says a broken or truncated file in several ways
        raise PhotoRefused("photo_not_image") from None
    if img.mode in ("RGBA", "LA", "PA") or (img.mode == "P" and "transparency" in img.info):
        rgba = img.convert("RGBA")
        flat = Image.new("RGB", rgba.size, (40, 44, 52))  # transparency on the cards' dark
        flat.paste(rgba, mask=rgba.getchannel("A"))
        img = flat
    else:
        img = img.convert("RGB")
    square = ImageOps.fit(img, (SIDE, SIDE), method=Image.Resampling.LANCZOS,
                          centering=(0.5, 0.5))
    out = io.BytesIO()
    square.save(out, format="JPEG", quality=85, optimize=True)  # no exif, no icc, no comment
    return out.getvalue()


def _reduced(img: Any) -> Any:
    """A decoded picture shrunk by a whole factor to at least two cards a side (box
    averaging, cheap), so that turning, converting and cropping copy a small picture;
    the EXIF orientation is kept for `exif_transpose`."""
    factor = min(img.size) // (2 * SIDE)
    if factor < 2:
        return img
    if img.mode not in ("L", "LA", "RGB", "RGBA"):
        keep = "RGBA" if img.mode in ("PA", "RGBa") or "transparency" in img.info else "RGB"
        img = img.convert(keep)
    info, exif = dict(img.info), img.getexif()
    small = img.reduce(factor)
    small.info.update(info)
    if exif:
        small.info["exif"] = exif.tobytes()
    return small


class Photos:
    """The players' photos of a tournament (see the module)."""

    def __init__(self, store: Store, decoding: DecodeQueue | None = None) -> None:
        self.store = store
        self.decoding = decoding or DecodeQueue()

    # --- who may ---
    def _check(self, s: Session, tournament: int, player: str, actor: str, action: str) -> int:
        t = tournament_row(s, tournament)
        if s.scalar(select(db.Participant.id).where(db.Participant.tournament_id == t.id,
                                                    db.Participant.code == player)) is None:
            raise PhotoNotFound("no_player", player=player)
        if roles_in(s, t.id, actor) & STAFF:
            return t.id
        if player not in account_players(s, t.id, actor):
            raise PermissionDenied("not_allowed", user=actor, action=action,
                                   tournament=t.name, roles=sorted(STAFF | {PLAYER}))
        return t.id

    def require_may_change(self, tournament: int, player: str, *, actor: str) -> None:
        """`PermissionDenied` (or `PhotoNotFound` for no such player) unless `actor` may
        set or remove this player's photo: asked before an upload is read."""
        with self.store.read() as s:
            self._check(s, tournament, player, actor, "manage")

    def may_change(self, tournament: int, player: str, *, actor: str) -> bool:
        """Whether `actor` may set or remove this player's photo (staff, or the player)."""
        try:
            with self.store.read() as s:
                self._check(s, tournament, player, actor, "manage")
        except (PermissionDenied, NotFound):
            return False
        return True

    # --- changing ---
    def set_photo(self, tournament: int, player: str, data: bytes, *, actor: str) -> str:
        """Store the player's photo (re-encoded, see `normalise`); audited. Returns its
        digest. The access is checked before the file is decoded and again in the write."""
        with self.store.read() as s:
            self._check(s, tournament, player, actor, "manage")
        check_header(data)
        with self.decoding.slot():
            image = normalise(data)
        digest = hashlib.sha256(image).hexdigest()
        with self.store.write() as s:
            tid = self._check(s, tournament, player, actor, "manage")
            row = s.scalar(select(db.PlayerPhoto).where(db.PlayerPhoto.tournament_id == tid,
                                                        db.PlayerPhoto.player_code == player))
            if row is None:
                s.add(db.PlayerPhoto(tournament_id=tid, player_code=player, image=image,
                                     digest=digest, by_user=actor))
            else:
                row.image, row.digest, row.by_user = image, digest, actor
            record_audit(s, actor, tid, "photo_set", {"player": player, "digest": digest,
                                                      "bytes_sent": len(data)})
        return digest

    def remove_photo(self, tournament: int, player: str, *, actor: str) -> bool:
        """Remove the player's photo (audited); False when he had none."""
        with self.store.write() as s:
            tid = self._check(s, tournament, player, actor, "manage")
            gone = s.execute(delete(db.PlayerPhoto).where(
                db.PlayerPhoto.tournament_id == tid, db.PlayerPhoto.player_code == player))
            removed = bool(getattr(gone, "rowcount", 0))
            if removed:
                record_audit(s, actor, tid, "photo_removed", {"player": player})
        return removed

    # --- reading (the photo itself: ScreenService.photo, which decides who sees it) ---
    def digests(self, tournament: int) -> dict[str, str]:
        """player -> his photo's digest, for every player with a photo (no image read)."""
        with self.store.read() as s:
            rows = s.execute(select(db.PlayerPhoto.player_code, db.PlayerPhoto.digest)
                             .where(db.PlayerPhoto.tournament_id == tournament))
            return {code: digest for code, digest in rows}


__all__ = ["DECODING", "FORMATS", "MAX_BYTES", "MAX_PIXELS", "SIDE", "WAITING", "DecodeQueue",
           "Photo", "PhotoBusy", "PhotoNotFound", "PhotoRefused", "Photos", "check_header",
           "normalise"]
