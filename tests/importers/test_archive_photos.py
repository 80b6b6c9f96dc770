"""Players' photos in the tournament archive: they move with the tournament (SQLite and
PostgreSQL, and from one to the other) byte for byte, and the archive still exports back
to the same bytes; an archived photo is re-validated as an upload is (a file that is not
an image, or too big, refuses the archive whole; one with metadata or data glued behind is
stored re-encoded); an archive of format 1 (no photos) still imports."""

from __future__ import annotations

import io
import json
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from PIL import Image
from sqlalchemy import Engine, select
from sqlalchemy.orm import Session

from mafiatab.formats import archive as fmt
from mafiatab.services.archive import export_archive, import_archive, restore_photo
from mafiatab.services.facade import Services
from mafiatab.services.photos import SIDE
from mafiatab.storage import models as db
from mafiatab.storage.engine import make_engine, upgrade
from tests.appeals.conftest import ORG
from tests.importers.test_archive import _count, _repack, tournament_day


@pytest.fixture
def engine(db_url: str) -> Iterator[Engine]:
    eng = make_engine(db_url)
    upgrade(eng)
    yield eng
    eng.dispose()


def _picture(colour: tuple[int, int, int], size: tuple[int, int] = (400, 300),
             **save: object) -> bytes:
    img = Image.new("RGB", size, colour)
    img.paste((20, 20, 200), (size[0] // 2, 0, size[0], size[1]))
    out = io.BytesIO()
    img.save(out, format="JPEG", **save)  # type: ignore[arg-type]
    return out.getvalue()


def _stored(engine: Engine, tid: int) -> dict[str, tuple[bytes, str, str]]:
    with Session(engine) as s:
        return {p.player_code: (p.image, p.digest, p.by_user) for p in s.scalars(
            select(db.PlayerPhoto).where(db.PlayerPhoto.tournament_id == tid))}


def _with_photos(engine: Engine) -> int:
    cup = tournament_day(engine)
    svc = Services(engine)
    svc.photos.set_photo(cup.tid, "p3", _picture((200, 20, 20)), actor=ORG)
    svc.photos.set_photo(cup.tid, "p7", _picture((20, 160, 20), (300, 500)), actor=ORG)
    return cup.tid


def test_photos_move_with_the_tournament_and_export_back_identically(engine: Engine) -> None:
    tid = _with_photos(engine)
    first = export_archive(engine, tid)
    manifest, members = fmt.unpack(first)
    assert manifest["format"] == fmt.FORMAT
    listed = json.loads(members["photos.json"])["photos"]
    assert [p["player"] for p in listed] == ["p3", "p7"]
    assert all(p["file"] in members and p["by_user"] == ORG for p in listed)
    done = import_archive(engine, actor="operator", operator=True, data=first)
    before, after = _stored(engine, tid), _stored(engine, done.tournament)
    assert after == before and set(after) == {"p3", "p7"}
    assert export_archive(engine, done.tournament) == first
    # the overlay reads them as before
    assert Services(engine).photos.digests(done.tournament) == {
        k: v[1] for k, v in before.items()}


def test_photos_move_from_sqlite_to_another_database(tmp_path: Path, engine: Engine) -> None:
    source = make_engine(str(tmp_path / "source.sqlite"))
    upgrade(source)
    data = export_archive(source, _with_photos(source))
    source.dispose()
    done = import_archive(engine, actor="operator", operator=True, data=data)
    assert set(_stored(engine, done.tournament)) == {"p3", "p7"}
    assert export_archive(engine, done.tournament) == data


def _swap_photo(data: bytes, content: bytes) -> bytes:
    """The archive with p3's photo file replaced (a fresh manifest: checksums agree)."""
    _, members = fmt.unpack(data)
    listed = json.loads(members["photos.json"])
    old = next(p for p in listed["photos"] if p["player"] == "p3")
    del members[old["file"]]
    old["file"] = f"photos/{fmt.sha256(content)}.jpg"
    members[old["file"]] = content
    return _repack(data, **{"photos.json": fmt.dumps_member(listed), old["file"]: content})


def test_an_archived_photo_is_revalidated_as_an_upload(engine: Engine) -> None:
    tid = _with_photos(engine)
    data = export_archive(engine, tid)
    # a square of our size, but with EXIF and a script glued behind: stored re-encoded
    exif = Image.Exif()
    exif[0x010E] = "GPS 55.75,37.61"
    crafted = _picture((200, 20, 20), (SIDE, SIDE), exif=exif.tobytes()) + b"<script>x</script>"
    done = import_archive(engine, actor="operator", operator=True, data=_swap_photo(data, crafted))
    image, digest, _ = _stored(engine, done.tournament)["p3"]
    assert image != crafted and b"<script>" not in image and b"GPS" not in image
    assert digest == fmt.sha256(image)
    with Image.open(io.BytesIO(image)) as img:
        assert img.size == (SIDE, SIDE) and img.format == "JPEG"
    # our own file is kept as it is; a file of another form is re-encoded
    ours = _stored(engine, tid)["p3"][0]
    assert restore_photo(ours) == ours
    assert restore_photo(crafted) != crafted
    # what is not an image, or is bigger than an upload may be: the archive is refused whole
    before = _count(engine)
    for bad in (b"<html>not a photo</html>", b"\xff\xd8" + b"\x00" * (fmt.MAX_PHOTO_BYTES + 1)):
        with pytest.raises(fmt.ArchiveError):
            import_archive(engine, actor="operator", operator=True, data=_swap_photo(data, bad))
    assert _count(engine) == before


def test_a_photo_of_no_player_is_refused(engine: Engine) -> None:
    data = export_archive(engine, _with_photos(engine))
    _, members = fmt.unpack(data)
    listed = json.loads(members["photos.json"])
    listed["photos"][0]["player"] = "nobody"
    before = _count(engine)
    with pytest.raises(fmt.ArchiveError) as e:
        import_archive(engine, actor="operator", operator=True,
                       data=_repack(data, **{"photos.json": fmt.dumps_member(listed)}))
    assert "nobody" in e.value.en
    assert _count(engine) == before


def test_an_archive_of_format_1_still_imports(engine: Engine) -> None:
    cup = tournament_day(engine)
    _, members = fmt.unpack(export_archive(engine, cup.tid))
    old = fmt.FORMATS["mafiatab.archive/1"]
    manifest = {"format": "mafiatab.archive/1", "files": [
        {"name": n, "bytes": len(members[n]), "sha256": fmt.sha256(members[n])} for n in old]}
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        zf.writestr(fmt.MANIFEST, json.dumps(manifest))
        for n in old:
            zf.writestr(n, members[n])
    done = import_archive(engine, actor="operator", operator=True, data=buf.getvalue())
    assert _stored(engine, done.tournament) == {}
    assert done.games == len(json.loads(members["protocols.json"])["games"])
