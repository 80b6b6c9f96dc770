"""Players' photos on the stream overlay, in Debian's Chromium at 1920×1080: the head judge
uploads photos of six of table 1's players through the JSON API; the overlay shows each
photo on its seat's card and a placeholder (the nickname's first letter) on the other
four, within the app's CSP (images from the site itself). Screenshots:
test-artifacts/overlay-photos-*.png (kept in docs/screens/)."""

from __future__ import annotations

import io
from typing import Any

from PIL import Image, ImageDraw

from tests.web.conftest import World
from tests.web.test_browser import _shot, browser, live  # noqa: F401 (fixtures)
from tests.web.test_live import ROLES
from tests.web.test_overlay_push import Staff, judge1_at_table_1

FULL_HD = {"width": 1920, "height": 1080}
TIMEOUT = 10_000
#: the stand-in portraits' colours (background, face)
TONES = [((52, 92, 140), (236, 200, 170)), ((120, 60, 60), (210, 170, 140)),
         ((40, 110, 80), (240, 210, 180)), ((90, 70, 130), (200, 160, 130)),
         ((150, 120, 40), (230, 190, 160)), ((60, 60, 60), (220, 185, 150))]


def portrait(i: int, size: tuple[int, int] = (600, 800)) -> bytes:
    """A stand-in for a player's photo: a head and shoulders on a coloured ground, taller
    than wide (the crop keeps its centre)."""
    bg, face = TONES[i % len(TONES)]
    img = Image.new("RGB", size, bg)
    d = ImageDraw.Draw(img)
    w, h = size
    d.ellipse((w * .3, h * .22, w * .7, h * .55), fill=face)
    d.ellipse((w * .12, h * .58, w * .88, h * 1.1), fill=tuple(max(0, c - 40) for c in bg))
    out = io.BytesIO()
    img.save(out, format="JPEG", quality=90)
    return out.getvalue()


def test_the_overlay_shows_photos_and_placeholders(
        live: tuple[str, World], browser: Any) -> None:  # noqa: F811
    base, world = live
    tid = world.demo.tournament
    code = world.demo.open_games[0]
    head = Staff(base, "headjudge")
    seated = world.open_game(1)
    players = [s.player for s in sorted(seated.seats, key=lambda s: s.seat)]
    with_photo = {1, 2, 4, 5, 7, 10}
    for i, seat in enumerate(sorted(with_photo)):
        head.call("PUT", f"/api/t/{tid}/players/{players[seat - 1]}/photo",
                  content=portrait(i), headers={"content-type": "image/jpeg"})
    try:
        page = browser.new_context(viewport=FULL_HD).new_page()
        refused: list[str] = []
        page.on("console", lambda m: refused.append(m.text) if "Content Security" in m.text
                else None)
        # the streamer's link (the key's): the roles as soon as the delay allows
        key = head.call("POST", f"/api/t/{tid}/screens/overlay-key")["key"]
        page.goto(f"{base}/t/{tid}/overlay/{code}?key={key}")
        page.locator("#ov-seat-10 .ov-name").wait_for(timeout=TIMEOUT)
        page.wait_for_timeout(800)  # the images load (the CSP forbids a string predicate)
        sizes = page.evaluate("""() => [...document.querySelectorAll('.ov-seat')].map(c => {
            const img = c.querySelector('.ov-photo img');
            return {seat: Number(c.id.split('-').pop()), loaded: img ? img.naturalWidth : 0,
                    letter: c.querySelector('.ov-photo.none span')?.textContent || null,
                    box: c.querySelector('.ov-photo').getBoundingClientRect().height};
        })""")
        assert [s["seat"] for s in sizes] == list(range(1, 11))
        for s in sizes:
            if s["seat"] in with_photo:
                assert s["loaded"] == 256 and s["letter"] is None, s
            else:
                assert s["loaded"] == 0 and s["letter"], s
            assert s["box"] > 80, s  # each card has its picture's room
        assert refused == []
        page.add_style_tag(content="html { background: #55606a }")
        _shot(page, "overlay-photos-1920", full=False)
        # the game goes on: roles shown at once (no delay), a player out, a foul
        judge1_at_table_1(world)
        head.call("POST", f"/api/t/{tid}/screens", json={"roles_delay": 0})
        judge = Staff(base, "judge1")
        url = f"/api/t/{tid}/games/{code}/live"
        for n, event in enumerate([{"type": "deal", "roles": ROLES},
                                   {"type": "foul", "seat": 4}]):
            st = judge.call("GET", url)
            judge.call("POST", url, json={"base_revision": st["revision"], "events": [
                {"id": f"ph-{n}", "seq": st["seq"] + 1, "event": event}]})
        page.locator("#ov-role-3").wait_for(timeout=20_000)
        page.locator("#ov-seat-4 .ov-fouls i").wait_for(timeout=TIMEOUT)
        assert page.locator(".ov-photo img").count() == len(with_photo)
        _shot(page, "overlay-photos-live-1920", full=False)
        # a photo uploaded while the overlay is open shows without a reload (pushed)
        head.call("PUT", f"/api/t/{tid}/players/{players[2]}/photo", content=portrait(3),
                  headers={"content-type": "image/jpeg"})
        page.locator("#ov-seat-3 .ov-photo img").wait_for(timeout=TIMEOUT)
        with_photo.add(3)
        # the operator may switch the photos off
        plain = browser.new_context(viewport=FULL_HD).new_page()
        plain.goto(f"{base}/t/{tid}/overlay/{code}?hide=photos")
        plain.locator("#ov-seat-10 .ov-name").wait_for(timeout=TIMEOUT)
        assert plain.locator(".ov-photo").count() == 0
    finally:
        head.call("POST", f"/api/t/{tid}/screens", json={"roles_delay": None})
        for seat in with_photo:
            head.call("DELETE", f"/api/t/{tid}/players/{players[seat - 1]}/photo")
