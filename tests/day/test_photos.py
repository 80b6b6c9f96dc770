"""Players' photos: which files are taken and what is stored of them,
and who may change whose photo (the access rule is per tournament, accounts are global).

Every image here is made by Pillow in the test; the app is the real one on a real SQLite
file (tests/day/conftest.py)."""

from __future__ import annotations

import io
import zipfile
from collections.abc import Callable

import pytest
from fastapi.testclient import TestClient
from PIL import Image

from mafiatab.services.photos import (
    MAX_BYTES,
    SIDE,
    DecodeQueue,
    PhotoBusy,
    PhotoRefused,
    normalise,
)
from tests.day.conftest import HEAD, ORGANIZER, PASSWORD, Day, code_client, csrf_of


def _image(fmt: str = "JPEG", size: tuple[int, int] = (800, 600), mode: str = "RGB",
           exif: Image.Exif | None = None) -> bytes:
    """Left half red, right half blue (so that a rotation shows)."""
    img = Image.new(mode, size, (200, 20, 20, 255) if mode == "RGBA" else (200, 20, 20))
    img.paste((20, 20, 200) if mode == "RGB" else (20, 20, 200, 255),
              (size[0] // 2, 0, size[0], size[1]))
    out = io.BytesIO()
    img.save(out, format=fmt, **({"exif": exif} if exif is not None else {}))
    return out.getvalue()


def _refused(data: bytes) -> str:
    with pytest.raises(PhotoRefused) as e:
        normalise(data)
    return e.value.code


# --- what is taken, what is stored ---------------------------------------------------------


def test_a_photo_is_re_encoded_to_a_small_square_with_its_rotation_and_no_metadata() -> None:
    exif = Image.Exif()
    exif[0x0112] = 6  # orientation: turn 90° clockwise to show
    exif[0x010F] = "Camera maker"
    exif[0x010E] = "Home at 55.75N 37.62E"  # what a photo should not carry away
    stored = normalise(_image(exif=exif))
    img = Image.open(io.BytesIO(stored))
    assert img.format == "JPEG" and img.size == (SIDE, SIDE) and img.mode == "RGB"
    assert not img.getexif() and b"Exif" not in stored and b"Camera maker" not in stored
    assert b"55.75N" not in stored
    # the left (red) half of the file is the top once turned; the crop is the centre
    top, bottom = img.getpixel((SIDE // 2, 10)), img.getpixel((SIDE // 2, SIDE - 10))
    assert top[0] > 150 > top[2] and bottom[2] > 150 > bottom[0], (top, bottom)


@pytest.mark.parametrize("fmt,mode", [("PNG", "RGBA"), ("WEBP", "RGB"), ("GIF", "RGB")])
def test_png_webp_and_gif_are_taken(fmt: str, mode: str) -> None:
    img = Image.open(io.BytesIO(normalise(_image(fmt, (300, 500), mode))))
    assert img.format == "JPEG" and img.size == (SIDE, SIDE)


def test_what_is_not_an_image_is_refused() -> None:
    assert _refused(b"") == "photo_empty"
    assert _refused(b"<html><script>alert(1)</script></html>") == "photo_not_image"
    assert _refused(b"%PDF-1.4\n1 0 obj << >> endobj\n%%EOF") == "photo_not_image"
    svg = b'<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'
    assert _refused(svg) == "photo_not_image"
    good = _image()
    assert _refused(good[: len(good) // 2]) == "photo_not_image"  # a truncated JPEG
    assert _refused(_image("BMP")) == "photo_not_image"  # an image, not of a format taken
    assert _refused(_image(size=(40, 40))) == "photo_too_small"


def test_huge_files_and_pictures_are_refused_before_they_are_decoded() -> None:
    assert _refused(_image() + b"\0" * MAX_BYTES) == "photo_too_big"
    bomb = io.BytesIO()
    Image.new("1", (12_000, 12_000)).save(bomb, format="PNG")  # 144 million pixels
    assert len(bomb.getvalue()) < 100_000
    assert _refused(bomb.getvalue()) == "photo_too_large"


def test_the_pixel_budget_is_an_avatars_read_from_the_header() -> None:
    """16 million pixels at most (a 256-pixel card; a 12-megapixel phone photo passes):
    a 20-megapixel picture is refused by its header, whatever its file's size."""
    big = io.BytesIO()
    Image.new("1", (5_000, 4_000)).save(big, format="PNG")  # 20 million pixels, a few KB
    assert _refused(big.getvalue()) == "photo_too_large"
    phone = _image(size=(4_000, 3_000))  # 12 million pixels
    assert Image.open(io.BytesIO(normalise(phone))).size == (SIDE, SIDE)


@pytest.mark.parametrize("fmt", ["JPEG", "PNG"])
def test_a_large_picture_is_reduced_before_it_is_turned(fmt: str) -> None:
    """A large picture is decoded at a reduced scale (JPEG's draft) or reduced at once
    (the others); its EXIF orientation still applies, its colours are still its own."""
    exif = Image.Exif()
    exif[0x0112] = 6
    stored = normalise(_image(fmt, size=(3_200, 2_400), exif=exif))
    img = Image.open(io.BytesIO(stored))
    assert img.size == (SIDE, SIDE)
    top, bottom = img.getpixel((SIDE // 2, 10)), img.getpixel((SIDE // 2, SIDE - 10))
    assert top[0] > 150 > top[2] and bottom[2] > 150 > bottom[0], (top, bottom)


def test_decodes_wait_in_a_short_queue_and_past_it_are_refused_as_busy() -> None:
    """One decode at a time, one upload waiting: the next is refused at once (429, in
    both languages), and the waiting one goes when the slot is free."""
    import threading
    import time

    queue = DecodeQueue(slots=1, waiting=1, wait=120)
    inside, release, waited = threading.Event(), threading.Event(), threading.Event()

    def hold() -> None:
        with queue.slot():
            inside.set()
            release.wait(60)

    def wait_in_line() -> None:
        with queue.slot():
            waited.set()

    holder = threading.Thread(target=hold)
    holder.start()
    assert inside.wait(30)
    waiter = threading.Thread(target=wait_in_line)
    waiter.start()
    deadline = time.monotonic() + 60
    while queue.waiting < 1:  # the state: one upload waits
        assert time.monotonic() < deadline, "the second upload never queued"
        time.sleep(0.01)
    with pytest.raises(PhotoBusy) as e, queue.slot():
        pass
    assert e.value.status == 429 and queue.refused == 1
    assert "другие фото" in e.value.message("ru") and "other photos" in e.value.message("en")
    assert not waited.is_set()
    release.set()
    assert waited.wait(30)
    holder.join()
    waiter.join()


def test_a_polyglot_keeps_only_its_picture() -> None:
    """An image with a page and an archive glued behind it (a browser that sniffs, or
    an unzip, would find them): what is stored is our JPEG alone."""
    archive = io.BytesIO()
    with zipfile.ZipFile(archive, "w") as z:
        z.writestr("x.html", "<script>alert(1)</script>")
    for fmt in ("JPEG", "PNG", "GIF"):
        poly = _image(fmt) + b"<html><script>alert(document.cookie)</script>" + archive.getvalue()
        stored = normalise(poly)
        assert stored.startswith(b"\xff\xd8") and stored.endswith(b"\xff\xd9")
        assert b"<script" not in stored and b"PK\x03\x04" not in stored
        with pytest.raises(zipfile.BadZipFile):
            zipfile.ZipFile(io.BytesIO(stored))


# --- through the pages: who may change whose photo ------------------------------------------


def _post(c: TestClient, tid: int, pid: str, data: bytes, name: str = "me.jpg",
          kind: str = "image/jpeg") -> int:
    r = c.post(f"/t/{tid}/players/{pid}/photo", data={"csrf": csrf_of(c), "next": "/"},
               files={"photo": (name, data, kind)}, follow_redirects=False)
    return r.status_code


@pytest.fixture(scope="module")
def photo_cup(day: Day) -> tuple[int, int]:
    """A tournament with photos, and another with its own organizer."""
    tid = day.tournament("Photo cup")
    other = day.tournament("Other cup")
    day.svc.accounts.add_account("org2", PASSWORD, actor=ORGANIZER)
    day.svc.access.grant(other, "org2", "organizer", actor=ORGANIZER)
    return tid, other


def test_staff_set_any_players_photo_a_player_only_his_own(
        day: Day, photo_cup: tuple[int, int], client_for: Callable[[str], TestClient]) -> None:
    tid, other = photo_cup
    org, head, org2 = client_for(ORGANIZER), client_for(HEAD), client_for("org2")
    assert _post(org, tid, "p02", _image()) == 303
    assert _post(head, tid, "p03", _image("PNG", mode="RGBA"), "p.png", "image/png") == 303
    # the organizer of another tournament: not here (his own players: yes)
    assert _post(org2, tid, "p04", _image()) == 403
    assert _post(org2, other, "p04", _image()) == 303
    assert org2.post(f"/t/{tid}/players/p02/photo/remove",
                     data={"csrf": csrf_of(org2)}, follow_redirects=False).status_code == 403
    # a player signed in with his code: his own photo, and nobody else's
    _account, code = day.svc.appeals.player_code(tid, "p05", actor=ORGANIZER)
    phone = code_client(client_for, code)
    assert _post(phone, tid, "p05", _image()) == 303
    assert _post(phone, tid, "p06", _image()) == 403
    assert _post(phone, tid, "p02", _image()) == 403
    assert phone.post(f"/t/{tid}/players/p02/photo/remove",
                      data={"csrf": csrf_of(phone)}, follow_redirects=False).status_code == 403
    assert _post(phone, other, "p05", _image()) == 403  # the same player id elsewhere
    assert _post(client_for("anon"), tid, "p07", _image()) in (401, 403)
    assert _post(org, tid, "nobody", _image()) == 404
    # his page shows his photo and its form
    page = phone.get(f"/t/{tid}/me")
    assert page.status_code == 200 and f"/t/{tid}/players/p05/photo.jpg?v=" in page.text
    assert set(day.svc.photos.digests(tid)) == {"p02", "p03", "p05"}
    assert set(day.svc.photos.digests(other)) == {"p04"}
    # a refused file changes nothing and says why
    before = day.svc.photos.digests(tid)["p05"]
    assert _post(phone, tid, "p05", b"<html>not a photo</html>", "x.jpg") == 422
    assert _post(phone, tid, "p05", _image() + b"\0" * MAX_BYTES) == 422
    assert _post(phone, tid, "p05", b"\0" * (5 * 1024 * 1024)) == 413  # the body limit
    assert day.svc.photos.digests(tid)["p05"] == before
    # the audit says who changed which
    assert phone.post(f"/t/{tid}/players/p05/photo/remove", data={"csrf": csrf_of(phone)},
                      follow_redirects=False).status_code == 303
    assert "p05" not in day.svc.photos.digests(tid)


def test_the_image_is_served_with_a_validator_to_those_who_may_watch(
        day: Day, photo_cup: tuple[int, int], client_for: Callable[[str], TestClient]) -> None:
    tid, _other = photo_cup
    org = client_for(ORGANIZER)
    assert _post(org, tid, "p08", _image()) == 303
    url = f"/t/{tid}/players/p08/photo.jpg"
    r = org.get(url)
    assert r.status_code == 200 and r.headers["content-type"] == "image/jpeg"
    assert r.headers["x-content-type-options"] == "nosniff"
    assert "default-src 'self'" in r.headers["content-security-policy"]
    etag = r.headers["etag"]
    assert etag.strip('"') == day.svc.photos.digests(tid)["p08"]
    again = org.get(url, headers={"If-None-Match": etag})
    assert again.status_code == 304 and not again.content
    assert org.get(f"/t/{tid}/players/p09/photo.jpg").status_code == 404
    # the JSON API: the same service call
    h = {"X-CSRF-Token": csrf_of(org), "content-type": "image/png"}
    put = org.put(f"/api/t/{tid}/players/p09/photo", content=_image("PNG"), headers=h)
    assert put.status_code == 200 and put.json()["url"].startswith(f"/t/{tid}/players/p09/")
    bad = org.put(f"/api/t/{tid}/players/p09/photo", content=b"GIF89a-not-really", headers=h)
    assert bad.status_code == 422 and bad.json()["problems"][0]["code"] == "photo_not_image"
    gone = org.delete(f"/api/t/{tid}/players/p09/photo", headers=h)
    assert gone.status_code == 200 and gone.json()["removed"] is True
