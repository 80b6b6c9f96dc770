"""A player's code must not drive the server into gigabytes: a real `mafiatab serve`
process, one player signed in with his code, and his photo uploads sent at once.

Four pictures of nearly 40 million pixels (a PNG of a few hundred KB each unpacks into
about 120 MB of pixels, and Pillow's copies make that several hundred) and four just
under the photo budget arrive together; the server's resident memory (`VmHWM`, its peak,
and `VmRSS`, now, from /proc) stays under 600 MB throughout and comes back under 300 MB
once they are answered. Nothing here waits for a time: each step waits for a state (the
server answering, every upload answered, the memory back under its bound)."""

from __future__ import annotations

import io
import os
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest
from PIL import Image

from mafiatab.domain.protocol import Player, Stage
from mafiatab.services.facade import Services
from mafiatab.storage.engine import make_engine, upgrade
from tests.helpers import free_port

ORGANIZER = "org"
PASSWORD = "memory-secret-pass"
#: the server's resident memory may not pass this during the uploads (bytes)
PEAK_BOUND = 600 * 1024 * 1024
#: ... and comes back under this once they are answered
AFTER_BOUND = 300 * 1024 * 1024


def _kib(line: str) -> int:
    return int(line.split()[1]) * 1024


def memory(pid: int) -> tuple[int, int]:
    """(resident now, resident peak) of a process, in bytes (/proc/PID/status)."""
    now = peak = 0
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            now = _kib(line)
        elif line.startswith("VmHWM:"):
            peak = _kib(line)
    return now, peak


@dataclass
class Server:
    base: str
    proc: subprocess.Popen[bytes]
    tid: int
    code: str


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    folder = tmp_path_factory.mktemp("memory")
    db = folder / "memory.sqlite"
    engine = make_engine(str(db))
    upgrade(engine)
    svc = Services(engine)
    svc.accounts.add_account(ORGANIZER, PASSWORD, actor=ORGANIZER)
    tid = svc.tournaments.create_tournament(
        "Кубок памяти", "fsm", actor=ORGANIZER,
        stages=[Stage(id="qual", name="Отбор", kind="qualification")])
    svc.tournaments.register_players(
        tid, [Player(id=f"p{i:02d}", nickname=f"Игрок {i}") for i in range(1, 11)],
        actor=ORGANIZER)
    _account, code = svc.appeals.player_code(tid, "p05", actor=ORGANIZER)
    engine.dispose()
    port = free_port(range(8791, 8799))
    proc = subprocess.Popen(
        [sys.executable, "-m", "mafiatab", "serve", "--db", str(db), "--port", str(port),
         "--secret-file", str(folder / "secret")],
        env={**os.environ, "MAFIATAB_SECRET": "memory-test"},
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120
        while True:
            assert proc.poll() is None, (proc.stderr.read() if proc.stderr else b"").decode()
            try:
                if httpx.get(base + "/api/session", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.2)
        yield Server(base, proc, tid, code)
    finally:
        proc.terminate()
        try:
            proc.wait(30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(10)


def _phone(server: Server) -> tuple[httpx.Client, str]:
    """A phone signed in with the player's code: its client and CSRF token."""
    c = httpx.Client(base_url=server.base, timeout=httpx.Timeout(30, read=600))
    csrf = c.get("/api/session").json()["csrf"]
    r = c.post("/code", data={"code": server.code, "csrf": csrf}, follow_redirects=False)
    assert r.status_code == 303, r.text
    return c, c.get("/api/session").json()["csrf"]


def _png(width: int, height: int) -> bytes:
    """A picture of `width`×`height` that compresses to little: two flat halves."""
    img = Image.new("RGB", (width, height), (200, 30, 30))
    img.paste((30, 30, 200), (width // 2, 0, width, height))
    out = io.BytesIO()
    img.save(out, format="PNG", optimize=False, compress_level=9)
    return out.getvalue()


def _jpeg(width: int, height: int) -> bytes:
    img = Image.new("RGB", (width, height), (30, 160, 30))
    out = io.BytesIO()
    img.save(out, format="JPEG", quality=70)
    return out.getvalue()


def test_four_40_megapixel_uploads_by_one_code_keep_the_server_small(server: Server) -> None:
    huge = _png(7_999, 5_000)  # just under the old 40-megapixel limit
    side = 3_999  # just under a 16-megapixel budget: decoded for real
    files = [huge] * 4 + [_png(side, side), _png(side, side), _jpeg(side, side),
                          _jpeg(side, side)]
    assert all(len(f) < 3 * 1024 * 1024 for f in files)
    phone, csrf = _phone(server)
    start, _peak = memory(server.proc.pid)
    answers: list[int] = []
    lock = threading.Lock()
    go = threading.Barrier(len(files))

    def send(data: bytes) -> None:
        with httpx.Client(base_url=server.base, cookies=phone.cookies,
                          timeout=httpx.Timeout(30, read=600)) as c:
            go.wait()
            r = c.put(f"/api/t/{server.tid}/players/p05/photo", content=data,
                      headers={"X-CSRF-Token": csrf, "content-type": "application/octet-stream"})
            with lock:
                answers.append(r.status_code)

    threads = [threading.Thread(target=send, args=(f,)) for f in files]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    _now, peak = memory(server.proc.pid)
    # every upload answered, none a server error: taken, refused, or "busy, try again"
    assert len(answers) == len(files) and all(a in (200, 422, 429) for a in answers), answers
    assert 200 in answers, answers  # a photo within the budget is taken
    print(f"\nRSS before {start / 2**20:.0f} MB, peak {peak / 2**20:.0f} MB, answers {answers}")
    assert peak < PEAK_BOUND, f"peak {peak / 2**20:.0f} MB"
    # the memory comes back (waited for as a state, with a generous bound)
    deadline = time.monotonic() + 60
    while (now := memory(server.proc.pid)[0]) >= AFTER_BOUND:
        assert time.monotonic() < deadline, f"still {now / 2**20:.0f} MB after the uploads"
        time.sleep(0.5)
    print(f"RSS after {now / 2**20:.0f} MB")
    # the server still serves the player
    assert phone.get(f"/t/{server.tid}/players/p05/photo.jpg").status_code == 200
