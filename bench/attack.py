"""An attacker's run against a real server on this machine, on demand: `python bench/attack.py`
(`--pg`: the core again on PostgreSQL with `serve --workers 2`). It starts `mafiatab demo`
in a scratch folder on a free loopback port, adds the other identities through the services
(the server's administrator, an administrator-only "keeper", a second organizer with a
tournament of his own, a player's code), tries each finding of the rights-and-resources
review again, sweeps every route of the built app with odd ids and fields as each identity,
and prints the figures: requests, answers by status, every 5xx (route and body), the
server's peak memory (VmHWM) and the limits hit (429, 413, 503).

Bounded: a fixed number of requests per step, every wait has a deadline, the whole run
stops after `--max-seconds`; only 127.0.0.x addresses are ever contacted; the server is
stopped at the end."""

from __future__ import annotations

import argparse
import contextlib
import functools
import io
import os
import queue
import random
import re
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from PIL import Image

from server import free_port, fresh_postgres, wait_up

PASSWORD = "demo-pass-2026"
ORGANIZER = "organizer"
ADMIN = "root"
KEEPER = "keeper"
ORG2 = "org2"
TAKEN = "taken-over-pass-1"
ROLES = ["red", "red", "don", "red", "black", "red", "sheriff", "red", "black", "red"]
ROLE_WORDS = re.compile(r"(?<!\w)(шериф\w{0,3}|дон\w{0,2}|мафи\w{0,3}|sheriff|don|mafia"
                        r"|don_check|sheriff_check)(?!\w)", re.IGNORECASE)
#: the identities with no role in tournament A (the player's code is A's, but a player)
OUTSIDERS = ("anon", "code", ORG2)
#: what anyone may send into A: signing in, the language, a player's own appeal
OUTSIDER_WRITES = ("/api/login", "/login", "/code", "/login/code", "/lang/{lang}")
ROUTES_DIR = tempfile.TemporaryDirectory(prefix="mafiatab-attack-routes-")
SKIP = ("/logout", "/api/logout", "/logout/everywhere", "/api/logout/everywhere",
        "/account/password", "/api/account/password")
PATH_VALUES = ["0", "-1", "99999999999999999999999", "²", "%2F..", "x" * 300, "финал",
               "qual-r3-t1", "p001", "A1", " "]
FIELD_VALUES = ["", "1", "-1", "99999999999999999999", "²", "x" * 20_000, "qual", "p001",
                "<script>", "=1+1", "\x00", "on", "3", "Europe/Moscow", "javascript:alert(1)"]
FIELDS = ["stage", "round", "absent", "present", "nickname", "club", "players", "rules",
          "url", "time_zone", "roles_delay", "other", "reason", "game", "judge", "seed", "name",
          "user", "password", "code", "next", "games", "tables", "key", "action", "text",
          "base", "person", "role", "admin", "organizer", "delay_minutes", "outcome"]


def loopback(url: str) -> str:
    """The URL, only when it points at 127.0.0.x (the run never leaves this machine)."""
    host = httpx.URL(url).host
    if not re.fullmatch(r"127\.0\.0\.\d{1,3}", host):
        raise SystemExit(f"refused: {host} is not a loopback address")
    return url


@dataclass
class Tally:
    """Every answer the run got, by status; the 5xx ones with route and body."""
    statuses: Counter[int] = field(default_factory=Counter)
    errors: list[str] = field(default_factory=list)
    findings: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, r: httpx.Response, route: str = "") -> httpx.Response:
        with self.lock:
            self.statuses[r.status_code] += 1
            if r.status_code >= 500:
                self.errors.append(f"{r.request.method} {route or r.request.url.path[:80]} "
                                   f"{r.status_code} {r.text[:160]!r}")
        return r

    @property
    def total(self) -> int:
        return sum(self.statuses.values())


class Client:
    """An httpx client that counts its answers and carries its CSRF token."""

    def __init__(self, base: str, tally: Tally, source: str = "127.0.0.1") -> None:
        transport = httpx.HTTPTransport(local_address=source)
        self.c = httpx.Client(base_url=loopback(base), transport=transport,
                              timeout=httpx.Timeout(30, read=300))
        self.t = tally
        self.csrf = ""

    def session(self) -> dict[str, Any]:
        r = self.t.add(self.c.get("/api/session"))
        got: dict[str, Any] = r.json()
        self.csrf = got["csrf"]
        return got

    def login(self, user: str, password: str = PASSWORD) -> int:
        self.session()
        r = self.t.add(self.c.post("/api/login", json={"user": user, "password": password},
                                   headers={"X-CSRF-Token": self.csrf}))
        if r.status_code == 200:
            self.csrf = r.json()["csrf"]
        return r.status_code

    def code(self, code: str) -> int:
        self.session()
        r = self.t.add(self.c.post("/login/code", data={"code": code, "csrf": self.csrf},
                                   follow_redirects=False))
        self.session()
        return r.status_code

    def get(self, path: str, route: str = "", **kw: Any) -> httpx.Response:
        return self.t.add(self.c.get(path, **kw), route)

    def send(self, method: str, path: str, route: str = "", **kw: Any) -> httpx.Response:
        if path.startswith("/api"):
            kw.setdefault("headers", {})["X-CSRF-Token"] = self.csrf
        else:
            kw["data"] = {**kw.get("data", {}), "csrf": self.csrf}
        return self.t.add(self.c.request(method, path, follow_redirects=False, **kw), route)


def memory(pids: list[int]) -> tuple[int, int]:
    """(resident now, resident peak) in MB, the largest over the server's processes."""
    now = peak = 0
    for pid in pids:
        try:
            text = Path(f"/proc/{pid}/status").read_text()
        except OSError:
            continue
        for line in text.splitlines():
            if line.startswith("VmRSS:"):
                now = max(now, int(line.split()[1]) // 1024)
            elif line.startswith("VmHWM:"):
                peak = max(peak, int(line.split()[1]) // 1024)
    return now, peak


def server_pids(proc: subprocess.Popen[bytes]) -> list[int]:
    """The server's process and its children (uvicorn's workers), from /proc."""
    out = [proc.pid]
    for pid in list(out):
        try:
            for task in Path(f"/proc/{pid}/task").iterdir():
                kids = (task / "children").read_text().split()
                out.extend(int(k) for k in kids)
        except OSError:
            pass
    for pid in list(out[1:]):
        try:
            for task in Path(f"/proc/{pid}/task").iterdir():
                out.extend(int(k) for k in (task / "children").read_text().split())
        except OSError:
            pass
    return out


@dataclass
class World:
    a: int
    b: int
    open_games: list[str]
    game_b: str
    player_code: str
    player: str
    appeal_game: str
    appeal_player: str
    org2_tournaments: list[int]
    #: a tournament of A's organizer whose first round is confirmed (an appeal's place)
    c: int


def build_world(url: str, fresh: bool) -> World:
    """The other identities and tournaments, through the services (as an operator would)."""
    from mafiatab.sample import sample_tournament
    from mafiatab.services.facade import Services
    from mafiatab.storage.engine import make_engine, upgrade
    from mafiatab.web.demo import populate, reopen_demo

    engine = make_engine(url)
    try:
        svc = Services(engine)
        sample = sample_tournament("fsm", 20, 3, seed=2026, final_round=True, name="Cup A")
        if fresh:
            demo = populate(engine, sample, Path("pg"))
        else:
            upgrade(engine)
            found = reopen_demo(Path(url))
            if found is None:
                raise SystemExit(f"no demo in {url}")
            demo = found
        a, open_games = demo.tournament, list(demo.open_games)
        svc.accounts.add_account(ADMIN, PASSWORD, actor=ADMIN)
        svc.account_admin.set_rights(ADMIN, admin=True, actor=ADMIN, operator=True)
        svc.account_admin.set_rights(ORGANIZER, admin=False, actor=ADMIN)
        # what `mafiatab db grant-admin keeper` makes: the administrator right only
        svc.accounts.add_account(KEEPER, PASSWORD, actor=KEEPER)
        svc.account_admin.set_rights(KEEPER, actor=KEEPER, operator=True, admin=True)
        svc.accounts.add_account(ORG2, PASSWORD, actor=ORG2)
        svc.access.give_organizer(ORG2, actor=ADMIN)
        mine: list[int] = []
        game_b = ""
        for n in range(9):
            tb = sample_tournament("fsm", 30, 1, seed=7 + n, name=f"Cup B{n}")
            for p in tb.players:
                p.nickname = f"B{n}-{p.nickname}"
            b = svc.tournaments.create_tournament(tb.name, tb.rules, actor=ORG2,
                                                  stages=tb.stages, participants=len(tb.players))
            svc.tournaments.register_players(b, tb.players, actor=ORG2)
            if n == 0:
                info = svc.games.enter_seating(b, tb.stages[0].id, 1, 1,
                                               [p.id for p in tb.players[:10]], actor=ORG2)
                game_b = info.game
            mine.append(b)
        player = sample.players[0].id
        _acc, code = svc.appeals.player_code(a, player, actor=ORGANIZER)
        # tournament C, A's organizer's and head judge's: its first round played and
        # confirmed, the rest not yet seated, so that an appeal may still be filed
        tc = sample_tournament("fsm", 10, 3, seed=11, name="Cup C")
        c = svc.tournaments.create_tournament(tc.name, tc.rules, actor=ORGANIZER,
                                              stages=tc.stages, participants=len(tc.players))
        svc.tournaments.register_players(c, tc.players, actor=ORGANIZER)
        # two head judges who may each decide (the organizer files, so he may not)
        for name in ("headjudge", "judge2"):
            svc.access.grant(c, name, "head_judge", actor=ORGANIZER)
        first = next(g for g in tc.games if g.stage == tc.stages[0].id and g.round == 1)
        info = svc.games.add_game(c, first, actor=ORGANIZER)
        info = svc.protocols.submit(c, first.id, actor=ORGANIZER, base_revision=info.number)
        svc.protocols.confirm(c, first.id, actor=ORGANIZER, base_revision=info.number)
        return World(a, mine[0], open_games, game_b, code, player, first.id,
                     sorted(first.seats, key=lambda s: s.seat)[0].player, mine, c)
    finally:
        engine.dispose()


@functools.cache
def routes() -> list[tuple[str, str]]:
    """Every (method, path) of the built app, through the included routers."""
    from fastapi.routing import APIRoute

    from mafiatab.web.app import create_app

    def walk(router: Any, prefix: str = "") -> Iterator[tuple[str, APIRoute]]:
        for r in router.routes:
            if isinstance(r, APIRoute):
                yield prefix + r.path, r
            elif hasattr(r, "original_router"):
                ctx = getattr(r, "include_context", None)
                yield from walk(r.original_router, prefix + (getattr(ctx, "prefix", "") or ""))

    from mafiatab.storage.engine import make_engine, upgrade

    # the app's password-hashing slots live beside its first database for the process's
    # life: the folder stays until the run ends
    tmp = ROUTES_DIR.name
    engine = make_engine(str(Path(tmp) / "routes.sqlite"))
    upgrade(engine)
    engine.dispose()
    app = create_app(str(Path(tmp) / "routes.sqlite"), secret="routes")
    return sorted({(m, p) for p, r in walk(app.router) for m in (r.methods or ())
                   if m != "HEAD" and p not in SKIP and not p.endswith("/events")})


def sweep(c: Client, who: str, w: World, rng: random.Random, stop: float,
          per_route: int) -> int:
    """Every route with odd ids and fields; a write that an outsider gets through is noted."""
    sent = 0
    for method, template in routes():
        for k in range(per_route):
            if time.monotonic() > stop:
                return sent
            path = template
            for name in re.findall(r"{(\w+)}", template):
                value = ((str(w.a) if k % 2 == 0 else str(w.b)) if name == "tid"
                         else rng.choice(PATH_VALUES))
                path = path.replace("{" + name + "}", value)
            fields = {f: rng.choice(FIELD_VALUES) for f in rng.sample(FIELDS, 6)}
            if method == "GET":
                r = c.get(path, template, params=dict(list(fields.items())[:2]))
            elif path.startswith("/api"):
                r = c.send(method, path, template, json=fields)
            else:
                r = c.send(method, path, template, data=fields)
            sent += 1
            # an outsider's write into A that is taken (a page's 303 that is no sign-in)
            taken = r.status_code < 300 or (
                r.status_code == 303 and "/login" not in r.headers.get("location", ""))
            if (who in OUTSIDERS and method != "GET" and taken
                    and f"/t/{w.a}/" in path + "/" and template not in OUTSIDER_WRITES):
                c.t.notes.append(f"{who} {method} {template} {r.status_code} "
                                 f"{r.headers.get('location', '')[:60]}")
            if "/seating/generate" in path:
                c.send("POST", path.replace("generate", "cancel"), template)
    return sent


def png(width: int, height: int) -> bytes:
    img = Image.new("RGB", (width, height), (200, 30, 30))
    img.paste((30, 30, 200), (width // 2, 0, width, height))
    out = io.BytesIO()
    img.save(out, format="PNG", compress_level=9)
    return out.getvalue()


def attack(base: str, proc: subprocess.Popen[bytes], w: World, t: Tally, stop: float,
           per_route: int, label: str) -> dict[str, Any]:
    figures: dict[str, Any] = {}
    pids = server_pids(proc)
    figures["rss_start"] = memory(pids)[0]

    # 1. an organizer resets an administrator-only account and climbs
    for attacker in (ORGANIZER, ORG2):
        c = Client(base, t)
        c.login(attacker)
        for target in (KEEPER, ADMIN):
            r = c.send("POST", "/admin/accounts/reset", data={"user": target, "password": TAKEN})
            if r.status_code < 400:
                t.findings.append(f"{label}: {attacker} reset {target}'s password "
                                  f"({r.status_code})")
        r = c.send("POST", "/api/admin/rights", json={"user": attacker, "admin": True})
        if r.status_code < 400:
            t.findings.append(f"{label}: {attacker} gave himself the administrator right")
    if Client(base, t).login(KEEPER, TAKEN) == 200:
        t.findings.append(f"{label}: signed in as {KEEPER} with the attacker's password")

    # 2. another tournament's organizer: the deadline, a merge, a table of A
    c2 = Client(base, t)
    c2.login(ORG2)
    for g in (w.open_games[:1] or [w.appeal_game]):
        r = c2.get(f"/api/t/{w.a}/games/{g}/deadline")
        if r.status_code == 200:
            t.findings.append(f"{label}: org2 read A's deadline of {g}")
        r = c2.get(f"/api/t/{w.a}/games/{g}")
        if r.status_code == 200 and ROLE_WORDS.search(r.text):
            t.findings.append(f"{label}: org2 read A's protocol {g}")

    # 3. a player's code uploads four 40-megapixel PNGs at once
    phone = Client(base, t)
    phone.code(w.player_code)
    huge = png(7_999, 5_000)  # just under the old 40-megapixel limit
    under = png(3_999, 3_999)  # just under a 16-megapixel budget: decoded for real
    answers: list[int] = []
    peak = [0]
    done = threading.Event()

    def watch() -> None:
        while not done.is_set():
            peak[0] = max(peak[0], memory(pids)[0])
            time.sleep(0.05)

    def send(data: bytes) -> None:
        with httpx.Client(base_url=base, cookies=phone.c.cookies,
                          timeout=httpx.Timeout(30, read=300)) as c:
            r = c.put(f"/api/t/{w.a}/players/{w.player}/photo", content=data,
                      headers={"X-CSRF-Token": phone.csrf,
                               "content-type": "application/octet-stream"})
            t.add(r, "/api/t/{tid}/players/{pid}/photo")
            answers.append(r.status_code)

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    started = time.monotonic()
    senders = [threading.Thread(target=send, args=(f,)) for f in [huge] * 4 + [under] * 4]
    for s in senders:
        s.start()
    for s in senders:
        s.join(300)
    done.set()
    watcher.join(5)
    figures["upload_answers"] = sorted(answers)
    figures["upload_seconds"] = round(time.monotonic() - started, 1)
    figures["rss_peak_uploads"] = peak[0]
    until = time.monotonic() + 30
    while memory(pids)[0] >= 300 and time.monotonic() < until:
        time.sleep(0.5)
    figures["rss_after_uploads"] = memory(pids)[0]

    # 4. the keyless overlay of a live game with a role delay, signed out: the role words
    # it shows before and after the table's judge deals the roles and the night's checks
    org = Client(base, t)
    org.login(ORGANIZER)
    org.send("POST", f"/api/t/{w.a}/screens", json={"roles_delay": 1})
    judge = Client(base, t)
    judge.login("judge1")
    anon = Client(base, t)
    game = next((g for g in w.open_games
                 if judge.get(f"/api/t/{w.a}/games/{g}/live").status_code == 200), "")
    paths = [f"/t/{w.a}/overlay/{game}", f"/t/{w.a}/overlay/{game}/state",
             f"/t/{w.a}/overlay/{game}/state?lang=en", f"/t/{w.a}/games/{game}",
             f"/api/t/{w.a}/games/{game}", f"/api/t/{w.a}/games/{game}/live",
             f"/t/{w.a}/standings", f"/api/t/{w.a}/standings"]

    def words() -> Counter[str]:
        out = Counter[str]()
        for path in paths:
            r = anon.get(path)
            if r.status_code == 200:
                out.update(m.lower() for m in ROLE_WORDS.findall(r.text))
        return out

    before = words()
    dealt = 0
    for event in ({"type": "deal", "roles": ROLES}, {"type": "shot", "target": 1},
                  {"type": "don_check", "target": 7}, {"type": "sheriff_check", "target": 3}):
        state = judge.get(f"/api/t/{w.a}/games/{game}/live").json()
        r = judge.send("POST", f"/api/t/{w.a}/games/{game}/live", json={
            "base_revision": state["revision"],
            "events": [{"id": f"atk-{dealt}", "seq": state["seq"] + 1, "event": event}]})
        dealt += r.status_code == 200
    control = judge.get(f"/api/t/{w.a}/games/{game}/live").text
    after = words()
    leaked = after - before
    figures["overlay"] = (f"game {game}: {dealt}/4 events taken, judge sees roles "
                          f"{bool(ROLE_WORDS.search(control))}, new role words signed out "
                          f"{dict(leaked) or 0}")
    if leaked:
        t.findings.append(f"{label}: signed out, a live game's paths show {dict(leaked)}")
    org.send("POST", f"/api/t/{w.a}/screens", json={"roles_delay": None})

    # 5. wrong passwords from 127.0.0.2..9, then the owner's correct one from 127.0.0.1
    limited = Counter[int]()
    for n in range(2, 10):
        c = Client(base, t, source=f"127.0.0.{n}")
        for _ in range(16):
            limited[c.login("headjudge", "wrong-guess-123")] += 1
    figures["flood"] = dict(limited)
    owner = Client(base, t).login("headjudge")
    figures["owner_after_flood"] = owner
    if owner != 200:
        t.findings.append(f"{label}: the owner was refused after the flood ({owner})")

    # 6. one organizer fills the seating queue; then A's organizer asks for one
    queued = Counter[int]()
    for tid in w.org2_tournaments:
        r = c2.send("POST", f"/api/t/{tid}/seating/generate",
                    json={"games": 10, "seed": 1, "time_limit": 20, "separate_clubs": False})
        queued[r.status_code] += 1
        if r.status_code >= 400:
            t.notes.append(f"generate {tid}: {r.status_code} {r.text[:200]}")
    r = org.send("POST", f"/api/t/{w.a}/seating/generate",
                 json={"games": 3, "time_limit": 2, "separate_clubs": False})
    figures["queue_org2"] = dict(queued)
    figures["queue_other_owner"] = f"{r.status_code} {r.text[:160]}"
    if r.status_code == 503:
        t.findings.append(f"{label}: one organizer's jobs shut out A's organizer")
    figures["rss_queue_running"] = memory(pids)[0]
    for tid in w.org2_tournaments:
        c2.send("POST", f"/api/t/{tid}/seating/cancel")
    org.send("POST", f"/api/t/{w.a}/seating/cancel")
    figures["rss_queue_cancelled"] = memory(pids)[0]

    # 7. two appeal decisions at one moment
    filed = org.send("POST", f"/api/t/{w.c}/games/{w.appeal_game}/appeals", json={
        "kind": "appeal", "player": w.appeal_player, "subject": "positive_extra",
        "awarded": "0", "claimed": "0.4", "text": "look again"})
    if filed.status_code == 201:
        case = filed.json()["id"]
        head = Client(base, t)
        head.login("headjudge")
        go = threading.Barrier(2)
        decided: list[str] = []

        def decide(c: Client) -> None:
            go.wait()
            r = c.send("POST", f"/api/t/{w.c}/appeals/{case}/decision",
                       json={"outcome": "rejected", "reason": "race"})
            decided.append(f"{r.status_code} {r.json().get('error', '')}".strip())

        second = Client(base, t)
        second.login("judge2")
        racers = [threading.Thread(target=decide, args=(c,)) for c in (second, head)]
        for racer in racers:
            racer.start()
        for racer in racers:
            racer.join(60)
        figures["decisions"] = sorted(decided)
    else:
        figures["decisions"] = f"not filed ({filed.status_code} {filed.text[:100]})"

    # 8. a revoked code's stream
    got = org.send("POST", f"/api/t/{w.a}/player-access", json={"player": "p003"}).json()
    p3 = Client(base, t)
    p3.code(got["code"])
    events: queue.Queue[str] = queue.Queue()

    def listen() -> None:
        try:
            with p3.c.stream("GET", f"/t/{w.a}/me/events", timeout=httpx.Timeout(10, read=20)) as r:
                events.put(f"status {r.status_code}")
                for line in r.iter_lines():
                    if line.startswith("event:"):
                        events.put(line[6:].strip())
        except httpx.HTTPError:
            pass
        events.put("closed")

    threading.Thread(target=listen, daemon=True).start()
    first = events.get(timeout=10)
    codes = org.get(f"/api/t/{w.a}/codes").json()
    cid = next(x["id"] for x in codes if x["user"] == got["user"])
    org.send("DELETE", f"/api/t/{w.a}/codes/{cid}")
    revoked = time.monotonic()
    seen = ""
    while seen != "closed" and time.monotonic() - revoked < 15:
        with contextlib.suppress(queue.Empty):
            seen = events.get(timeout=1)
    figures["stream"] = (f"{first}; closed {time.monotonic() - revoked:.1f} s after the revoke"
                         if seen == "closed" else "still open 15 s after the revoke")
    if seen != "closed":
        t.findings.append(f"{label}: a revoked code's stream stayed open")

    # 9. every route as each identity
    sweeps: dict[str, int] = {}
    rng = random.Random(2026)
    for who in ("anon", "code", "judge1", ORG2, "headjudge", ORGANIZER):
        c = Client(base, t)
        if who == "code":
            c.code(w.player_code)
        elif who != "anon":
            c.login(who)
        was = dict(t.statuses)
        sweeps[who] = sweep(c, who, w, rng, stop, per_route)
        if who in ("anon", "code", ORG2):
            ok = sum(t.statuses[s] - was.get(s, 0) for s in t.statuses if s < 300)
            sweeps[f"{who} 2xx"] = ok
        sweeps[f"{who} MB"] = memory(pids)[0]
    figures["sweep"] = sweeps
    figures["rss_end"], figures["vm_hwm"] = memory(pids)
    return figures


def start_demo(folder: Path, port: int) -> subprocess.Popen[bytes]:
    exe = Path(sys.executable).with_name("mafiatab")
    return subprocess.Popen([str(exe), "demo", "--port", str(port), "--rounds", "3", "--fresh"],
                            cwd=folder, stdout=subprocess.DEVNULL)


def start_pg(url: str, port: int) -> subprocess.Popen[bytes]:
    exe = Path(sys.executable).with_name("mafiatab")
    return subprocess.Popen([str(exe), "serve", "--db", url, "--workers", "2", "--port",
                             str(port), "--host", "127.0.0.1"], stdout=subprocess.DEVNULL,
                            cwd=ROUTES_DIR.name)  # its secret's file stays out of the tree


def stop_server(proc: subprocess.Popen[bytes]) -> None:
    proc.terminate()
    try:
        proc.wait(20)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(10)


def report(label: str, t: Tally, figures: dict[str, Any], seconds: float) -> None:
    print(f"\n== {label}: {t.total} requests in {seconds:.0f} s")
    print("   by status: " + ", ".join(f"{s}: {n}" for s, n in sorted(t.statuses.items())))
    print(f"   5xx: {sum(n for s, n in t.statuses.items() if s >= 500)}")
    for e in t.errors[:20]:
        print("     " + e)
    print(f"   limits hit: 429 {t.statuses[429]}, 413 {t.statuses[413]}, 503 {t.statuses[503]}")
    for k, v in figures.items():
        print(f"   {k}: {v}")
    for n in t.notes[:40]:
        print("   note: " + n)
    print("   successful attacks: " + ("; ".join(t.findings) if t.findings else "none"))


def run(label: str, start: Any, world: Any, seconds: float, per_route: int) -> bool:
    t = Tally()
    began = time.monotonic()
    port = free_port()
    base = loopback(f"http://127.0.0.1:{port}")
    proc, w = start(port)
    try:
        wait_up(base, 120)
        if w is None:
            w = world()
        figures = attack(base, proc, w, t, began + seconds, per_route, label)
    finally:
        stop_server(proc)
    report(label, t, figures, time.monotonic() - began)
    return not t.errors and not t.findings


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--pg", action="store_true", help="also on PostgreSQL, serve --workers 2")
    p.add_argument("--max-seconds", type=float, default=600)
    p.add_argument("--per-route", type=int, default=2, help="sweep requests per route")
    args = p.parse_args()
    ok = True
    with tempfile.TemporaryDirectory(prefix="mafiatab-attack-") as tmp:
        folder = Path(tmp)
        db = folder / "mafiatab-demo.sqlite"

        def demo(port: int) -> tuple[subprocess.Popen[bytes], None]:
            return start_demo(folder, port), None

        def demo_world() -> World:
            return build_world(str(db), fresh=False)

        ok &= run("SQLite, mafiatab demo", demo, demo_world, args.max_seconds, args.per_route)
    if args.pg:
        name = f"mt_attack_{uuid.uuid4().hex[:8]}"
        url = f"postgresql+psycopg://postgres@127.0.0.1:5432/{name}"
        fresh_postgres(url)

        def pg(port: int) -> tuple[subprocess.Popen[bytes], World]:
            w = build_world(url, fresh=True)
            return start_pg(url, port), w

        try:
            ok &= run("PostgreSQL, serve --workers 2", pg, None, args.max_seconds,
                      args.per_route)
        finally:
            from sqlalchemy import create_engine, text
            from sqlalchemy.engine import make_url
            admin = create_engine(make_url(url).set(database="postgres"),
                                  isolation_level="AUTOCOMMIT")
            with admin.connect() as conn:
                conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
            admin.dispose()
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    main()
