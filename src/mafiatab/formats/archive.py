"""The tournament archive: one zip file, its manifest and its checksums.

A federation keeps a finished tournament as one file that holds everything the database
knew of it, in documents a person or another program can read without mafiatab:

- `tournament.json`: format 1, the confirmed protocols (what `mafiatab export` gives);
- `seating.json`: the rounds, their schedule, the tables, each game's place and seats
  (also of games not confirmed yet), the judges' tables;
- `protocols.json`: every revision of every protocol, with its state, author and time;
- `appeals.json`: the protests and appeals, their threads and decisions;
- `audit.json`: the tournament's audit log;
- `access.json`: the tournament's settings, the accounts named in it and their roles;
- `photos.json` and `photos/<sha256>.jpg`: the players' photos (the server's own square
  JPEGs, one file per image, named by its checksum), and whose each is;
- `manifest.json`: the archive's format, and each member's size and SHA-256.

This module only packs and unpacks (bytes in, bytes out, no database): the archive is
written deterministically (members and keys in a fixed order, a fixed date in the zip
headers) so that a tournament exported, imported and exported again gives the very same
bytes, which is how "imports back identically" is checked. Unpacking verifies the
manifest and every checksum before anything is read, and bounds the sizes it accepts.
"""

from __future__ import annotations

import hashlib
import io
import re
import zipfile
from collections.abc import Mapping
from typing import Any, Final

import msgspec

from mafiatab.domain.problems import Problem, Refused
from mafiatab.texts.files import FILES

FORMAT: Final = "mafiatab.archive/2"
MANIFEST: Final = "manifest.json"
MEMBERS: Final = ("tournament.json", "seating.json", "protocols.json", "appeals.json",
                  "audit.json", "access.json", "photos.json")
#: the members each readable format must have (format 1 had no photos)
FORMATS: Final[dict[str, tuple[str, ...]]] = {"mafiatab.archive/1": MEMBERS[:-1],
                                              FORMAT: MEMBERS}
#: a photo's file: its SHA-256, so that no name a person typed becomes a path
PHOTO: Final = re.compile(r"photos/[0-9a-f]{64}\.jpg")
#: the largest photo file accepted (the upload's bound, services.photos.MAX_BYTES)
MAX_PHOTO_BYTES: Final = 3 * 1024 * 1024
#: the most photo files accepted (a tournament has far fewer players)
MAX_PHOTOS: Final = 10_000
#: the largest member accepted, uncompressed (a 100,000-game tournament is far below)
MAX_MEMBER_BYTES: Final = 512 * 1024 * 1024
#: all the members together, uncompressed (what the archive's directory declares, read
#: before anything is unpacked: a small zip may not unpack into gigabytes)
MAX_UNPACKED_BYTES: Final = 1024 * 1024 * 1024
#: the zip headers' date: a fixed one, so that equal content gives equal bytes
ZIP_DATE: Final = (1980, 1, 1, 0, 0, 0)

#: keys in the order they are built (and JSON columns keep theirs), so that a document
#: read back and written again is the same text
_ENCODER = msgspec.json.Encoder(decimal_format="number")


class ArchiveError(Refused):
    """An archive that is not one, or whose content does not match its manifest."""

    def __init__(self, code: str, **params: Any) -> None:
        super().__init__([Problem(code, params=params, texts=FILES)])
        self.ru, self.en = self.message("ru"), self.message("en")


def dumps_member(value: Any) -> bytes:
    """A member document: JSON, exact decimals, one-space indents."""
    return msgspec.json.format(_ENCODER.encode(value), indent=1) + b"\n"


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def pack(members: Mapping[str, bytes], about: Mapping[str, Any]) -> bytes:
    """The zip of the members (each of `MEMBERS`, then the photo files in the order of
    their names) with the manifest first."""
    missing = [m for m in MEMBERS if m not in members]
    if missing:
        raise ValueError(f"archive members missing: {missing}")
    photos = sorted(n for n in members if n not in MEMBERS)
    if not all(PHOTO.fullmatch(n) for n in photos):
        raise ValueError(f"archive members unknown: {photos}")
    names = [*MEMBERS, *photos]
    manifest = {"format": FORMAT, **about,
                "files": [{"name": name, "bytes": len(members[name]),
                           "sha256": sha256(members[name])} for name in names]}
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data in [(MANIFEST, dumps_member(manifest))] + [
            (n, members[n]) for n in names
        ]:
            info = zipfile.ZipInfo(name, date_time=ZIP_DATE)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            zf.writestr(info, data)
    return buf.getvalue()


def _bad(code: str, **params: Any) -> ArchiveError:
    return ArchiveError(code, **params)


def unpack(data: bytes) -> tuple[dict[str, Any], dict[str, bytes]]:
    """The manifest and the members of an archive (photo files too), every checksum
    verified; a format-1 archive (no photos) reads too."""
    try:
        zf = zipfile.ZipFile(io.BytesIO(data))
    except zipfile.BadZipFile as e:
        raise _bad("archive_not_zip", detail=str(e)) from None
    with zf:
        infos = {i.filename: i for i in zf.infolist()}
        unexpected = sorted(n for n in set(infos) - {MANIFEST, *MEMBERS}
                            if not PHOTO.fullmatch(n))
        if unexpected:
            raise _bad("archive_unexpected", names=", ".join(unexpected))
        if MANIFEST not in infos:
            raise _bad("archive_no_manifest")
        photos = sorted(n for n in infos if PHOTO.fullmatch(n))
        if len(photos) > MAX_PHOTOS:
            raise _bad("archive_too_large", name="photos/", size=len(photos))
        for info in infos.values():
            limit = MAX_PHOTO_BYTES if PHOTO.fullmatch(info.filename) else MAX_MEMBER_BYTES
            if info.file_size > limit:
                raise _bad("archive_too_large", name=info.filename, size=info.file_size)
        unpacked = sum(info.file_size for info in zf.infolist())  # a name twice counts twice
        if unpacked > MAX_UNPACKED_BYTES:
            raise _bad("archive_too_large", name="zip", size=unpacked)
        try:
            manifest = msgspec.json.decode(zf.read(MANIFEST))
        except (msgspec.DecodeError, zipfile.BadZipFile) as e:
            raise _bad("archive_manifest_unreadable", detail=str(e)) from None
        if not isinstance(manifest, dict) or manifest.get("format") not in FORMATS:
            raise _bad("archive_manifest_format", format=FORMAT)
        required = FORMATS[manifest["format"]]
        files = manifest.get("files")
        listed: dict[str, dict[str, Any]] = {
            str(f.get("name")): f for f in files if isinstance(f, dict)
        } if isinstance(files, list) else {}
        if sorted(listed) != sorted([*required, *photos]):
            raise _bad("archive_manifest_files")
        members: dict[str, bytes] = {}
        for name in [*required, *photos]:
            if name not in infos:
                raise _bad("archive_member_missing", name=name)
            try:
                content = zf.read(name)
            except (zipfile.BadZipFile, OSError) as e:
                raise _bad("archive_member_damaged", name=name, detail=str(e)) from None
            entry = listed[name]
            if len(content) != entry.get("bytes") or sha256(content) != entry.get("sha256"):
                raise _bad("archive_checksum", name=name)
            members[name] = content
    return manifest, members
