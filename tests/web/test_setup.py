"""Setting a tournament up from scratch through the real app on a real SQLite
file: players pasted as nickname;club (with and without a header) or uploaded as CSV/XLSX,
bad lines refused beside their reasons, a player corrected and withdrawn, the rules
changed until the first game and refused after, the first-run path, judges' codes on the
blank protocols (read back with pdftotext, the QR code compared module by module), the
administrator's password reset and the rehash of old password hashes."""

from __future__ import annotations

import io
import re
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from argon2 import PasswordHasher
from fastapi.testclient import TestClient
from openpyxl import Workbook
from sqlalchemy import select

from mafiatab.services.accounts import needs_rehash, parse_code
from mafiatab.services.facade import Services
from mafiatab.services.roster import parse_file, parse_text
from mafiatab.storage import models as db
from mafiatab.storage.engine import make_engine, upgrade
from mafiatab.web.app import create_app
from tests.web.conftest import RELAXED

ORG, ORG_PASS = "org", "organizer-pass-1"
NAMES = [f"Игрок{i:02d}" for i in range(1, 21)]
CLUBS = ["Север", "Юг", "Восток", "Запад"]


@dataclass
class Hall:
    url: str
    app: object
    svc: Services


@pytest.fixture()
def hall(tmp_path: Path) -> Iterator[Hall]:
    url = f"sqlite:///{tmp_path}/setup.sqlite"
    engine = make_engine(url)
    upgrade(engine)
    Services(engine).accounts.add_account(ORG, ORG_PASS, actor=ORG)
    engine.dispose()
    app = create_app(url, secret="setup-test", limits=RELAXED)
    yield Hall(url, app, app.state.services)


def _client(hall: Hall, user: str = ORG, password: str = ORG_PASS,
            base: str = "http://testserver") -> TestClient:
    c = TestClient(hall.app, base_url=base)  # type: ignore[arg-type]
    r = c.post("/api/login", json={"user": user, "password": password},
               headers={"X-CSRF-Token": _csrf(c)})
    assert r.status_code == 200, r.text
    return c


def _csrf(c: TestClient) -> str:
    token: str = c.get("/api/session").json()["csrf"]
    return token


def _post(c: TestClient, url: str, data: dict[str, str] | None = None, **kw: object
          ) -> object:
    return c.post(url, data={"csrf": _csrf(c), **(data or {})}, **kw)  # type: ignore[arg-type]


def _new(c: TestClient, rules: str = "fsm") -> int:
    r = c.post("/new", data={"name": "Кубок зала", "rules": rules, "csrf": _csrf(c)},
               follow_redirects=False)
    assert r.status_code == 303, r.text
    return int(r.headers["location"].split("/")[2])


def _paste(c: TestClient, tid: int, text: str) -> str:
    r = c.post(f"/t/{tid}/setup/players", data={"players": text, "csrf": _csrf(c)})
    assert r.status_code in (200, 422)
    return r.text


def _roster(hall: Hall, tid: int) -> dict[str, tuple[str, str | None, bool]]:
    return {p.nickname: (p.id, p.club, p.withdrawn) for p in hall.svc.roster.lines(tid)}


# --- reading the lists ----------------------------------------------------------------------


def test_nickname_club_is_read_as_nickname_and_club_with_or_without_header() -> None:
    plain = parse_text("Алиса;Север\nБорис\n  \nВика;\nГена\tЮг")
    assert [(e.line, e.nickname, e.club, e.id) for e in plain.entries] == [
        (1, "Алиса", "Север", ""), (2, "Борис", None, ""), (4, "Вика", None, ""),
        (5, "Гена", "Юг", "")]
    assert plain.refused == []
    headed = parse_text("Клуб;Ник;ID\nСевер;Алиса;a1\nЮг;Борис;b-2")
    assert [(e.nickname, e.club, e.id) for e in headed.entries] == [
        ("Алиса", "Север", "a1"), ("Борис", "Юг", "b-2")]
    english = parse_text("nickname;club\nAlice;North")
    assert [(e.nickname, e.club) for e in english.entries] == [("Alice", "North")]


def test_each_bad_line_is_refused_with_its_reason() -> None:
    got = parse_text("Алиса;Север;лишнее\n;Юг\n" + "Я" * 101 + "\nБорис;Юг")
    assert [(r.line, r.code) for r in got.refused] == [
        (1, "too_many_fields"), (2, "empty_nickname"), (3, "long_nickname")]
    assert [e.nickname for e in got.entries] == ["Борис"]
    assert "заголовка" in got.refused[0].reason("ru")
    assert "header" in got.refused[0].reason("en")


def test_a_file_needs_a_header_it_recognizes() -> None:
    csv_cp1251 = "Ник;Клуб\r\nАлиса;Север\r\nБорис;Юг\r\n".encode("cp1251")
    assert [(e.nickname, e.club) for e in parse_file(csv_cp1251, "list.csv").entries] == [
        ("Алиса", "Север"), ("Борис", "Юг")]
    comma = "\ufeffid,nickname,club\nx1,Alice,North\n".encode()
    assert [(e.id, e.nickname, e.club) for e in parse_file(comma, "l.csv").entries] == [
        ("x1", "Alice", "North")]
    from mafiatab.services.roster import RosterError

    with pytest.raises(RosterError) as e:
        parse_file("Алиса;Север\n".encode(), "l.csv")
    assert "заголов" in e.value.message("ru")


# --- the set-up through the app ----------------------------------------------------------------


def test_new_tournament_needs_the_rules_chosen(hall: Hall) -> None:
    c = _client(hall)
    page = c.get("/").text
    assert re.search(r'<select name="rules" id="new-rules" required><option value="" selected '
                     r'disabled>', page)
    r = c.post("/new", data={"name": "Без правил", "csrf": _csrf(c)})
    assert r.status_code == 400 and "выберите правила" in r.text
    assert hall.svc.tournaments.list_tournaments() == []


def test_players_pasted_corrected_withdrawn_and_not_seated_again(hall: Hall) -> None:
    c = _client(hall)
    tid = _new(c)
    text = "Ник;Клуб\n" + "\n".join(f"{n};{CLUBS[i % 4]}" for i, n in enumerate(NAMES))
    page = _paste(c, tid, text + "\n;Юг\nИгрок01;Север")
    roster = _roster(hall, tid)
    assert len(roster) == 20 and roster["Игрок01"] == ("p1", "Север", False)
    assert roster["Игрок02"][1] == "Юг"
    # the roster names a player by his nickname and club; his id (the players' file's column)
    # only inside his fold, with its label
    summary = re.search(r'id="player-p1"><summary>(.*?)</summary>', page, re.S)
    assert summary and "p1" not in summary.group(1) and "Игрок01" in summary.group(1)
    assert "№ в файле: p1<" in page
    # the two bad lines come back beside their reasons, in the box to fix them
    refused = re.findall(r'<li class="refused-line" data-line="(\d+)">.*?<code>(.*?)</code> — '
                         r'<span class="err">(.*?)</span></li>', page)
    assert [(n, why) for n, _t, why in refused] == [
        ("22", "нет ника"), ("23", "ник «Игрок01» уже был в строке 2")]
    assert ";Юг\nИгрок01;Север</textarea>" in page
    # sent again, a nickname that is registered is refused, nothing is doubled
    again = _paste(c, tid, "игрок01;Север")
    assert "ник «игрок01» уже в турнире" in again and len(_roster(hall, tid)) == 20
    # an XLSX with a header adds more
    book = Workbook()
    sheet = book.active
    assert sheet is not None
    for row in (["Клуб", "Ник"], ["Север", "Игрок21"], [None, "Игрок22"]):
        sheet.append(row)
    buf = io.BytesIO()
    book.save(buf)
    r = c.post(f"/t/{tid}/setup/players", data={"csrf": _csrf(c)},
               files={"file": ("list.xlsx", buf.getvalue(), "application/octet-stream")})
    assert r.status_code == 200, r.text
    assert _roster(hall, tid)["Игрок22"][1] is None and _roster(hall, tid)["Игрок21"][1] == "Север"

    # corrected: the participant keeps his id; the old identity is not renamed
    pid = roster["Игрок03"][0]
    r = _post(c, f"/t/{tid}/setup/players/{pid}", {"nickname": "Игрок03 Новый", "club": "Юг"},
              follow_redirects=False)
    assert r.status_code == 303  # type: ignore[attr-defined]
    assert _roster(hall, tid)["Игрок03 Новый"] == (pid, "Юг", False)
    with hall.svc.store.read() as s:
        assert s.scalar(select(db.Player.id).where(db.Player.nickname == "Игрок03")) is not None
    # a correction to a nickname taken is refused with the reason
    r = _post(c, f"/t/{tid}/setup/players/{pid}", {"nickname": "Игрок04", "club": ""})
    assert r.status_code == 400 and "уже в турнире" in r.text  # type: ignore[attr-defined]

    # withdrawn: still listed, not in the seating's players
    gone = roster["Игрок05"][0]
    _post(c, f"/t/{tid}/setup/players/{gone}", {"action": "withdraw"})
    assert _roster(hall, tid)["Игрок05"][2] is True
    from mafiatab.services.seating_web import SeatingDesk, SeatingParams

    _post(c, f"/t/{tid}/setup/players/{_roster(hall, tid)['Игрок22'][0]}",
          {"action": "withdraw"})
    players, _request = SeatingDesk(hall.svc).build(tid, SeatingParams("qual", 1, 2, 0, False),
                                                  actor=ORG)
    assert gone not in {p.id for p in players} and len(players) == 20
    # a typed seating that seats him is refused with the reason
    ids = [roster[n][0] for n in NAMES[:10]]
    r = _post(c, f"/t/{tid}/setup/seating", {"seating": f"qual 1 1 {' '.join(ids)}"})
    assert r.status_code == 400 and "снят" in r.text  # type: ignore[attr-defined]
    audit = [a for _at, _u, a, _d in hall.svc.tournaments.audit_log(tid, actor=ORG)]
    assert {"register_players", "edit_player", "withdraw_player"} <= set(audit)


def _seat_round(c: TestClient, hall: Hall, tid: int, judges: list[str]) -> list[str]:
    roster = _roster(hall, tid)
    ids = [roster[n][0] for n in NAMES]
    lines = [f"qual 1 {t + 1} {' '.join(ids[10 * t:10 * t + 10])} {judges[t]}" for t in range(2)]
    r = _post(c, f"/t/{tid}/setup/seating", {"seating": "\n".join(lines)},
              follow_redirects=False)
    assert r.status_code == 303, r.text  # type: ignore[attr-defined]
    return [g.code for g in hall.svc.games.overview(tid)]


def test_rules_change_until_the_first_game_then_refused_with_the_reason(hall: Hall) -> None:
    c = _client(hall)
    tid = _new(c, "fsm")
    page = c.get(f"/t/{tid}/setup").text
    assert 'id="rules-select"' in page and "ФСМ" in page
    r = _post(c, f"/t/{tid}/setup/rules", {"rules": "fiim2018", "opt_fiim_7_6": "on"},
              follow_redirects=False)
    assert r.status_code == 303  # type: ignore[attr-defined]
    t, _p, _s = hall.svc.tournaments.context(tid)
    assert (t.rules, t.rule_options) == ("fiim2018", {"fiim_7_6": "on"})
    # an FIIM tournament's page offers its own options with its own clauses only
    page = c.get(f"/t/{tid}/setup").text
    assert "ФИИМ 7.6" in page and "ФСМ 7" not in page
    # every option in words (no code like `opt_comp_per_team`), each with its own clause
    shown = re.sub(r'(name|value)="[^"]*"', "", page)
    assert "opt_" not in shown
    assert 'Компенсация Ci (командный марафон) <span class="muted">(ФИИМ 8.6.1)' in page
    _paste(c, tid, "\n".join(NAMES))
    codes = _seat_round(c, hall, tid, ["j1", "j2"])
    # the seating's drafts are no games entered: the rules still change
    r = _post(c, f"/t/{tid}/setup/rules", {"rules": "fsm"}, follow_redirects=False)
    assert r.status_code == 303  # type: ignore[attr-defined]
    head = hall.svc.games.head(tid, codes[0])
    hall.svc.protocols.save_draft(tid, codes[0], head.game_struct(), actor=ORG,
                                  base_revision=head.number)
    r = _post(c, f"/t/{tid}/setup/rules", {"rules": ""})
    assert r.status_code == 400 and "выберите правила турнира: ФИИМ 2018, ФСМ" in r.text  # type: ignore[attr-defined]
    assert "fiim2018" not in r.text.split("<body", 1)[-1].replace('value="fiim2018"', "")  # type: ignore[attr-defined]
    r = _post(c, f"/t/{tid}/setup/rules", {"rules": "fiim2018"})
    assert r.status_code == 409  # type: ignore[attr-defined]
    assert f"игра {codes[0]} уже внесена" in r.text  # type: ignore[attr-defined]
    assert hall.svc.tournaments.context(tid)[0].rules == "fsm"
    page = c.get(f"/t/{tid}/setup").text
    assert 'id="rules-locked"' in page and 'id="rules-select"' not in page


def _steps(c: TestClient, tid: int) -> dict[str, str]:
    page = c.get(f"/t/{tid}/manage").text
    return dict(re.findall(r'<li class="step (\w+)" data-step="(\w+)">', page)[i][::-1]
                for i in range(7))


def test_the_first_run_path_and_the_judges_codes_on_the_blank_protocols(
        hall: Hall, tmp_path: Path) -> None:
    c = _client(hall)
    tid = _new(c)
    assert _steps(c, tid) == {"create": "done", "players": "next", "stages": "done",
                              "seating": "later", "judges": "later", "blanks": "later",
                              "open": "later"}
    _paste(c, tid, "\n".join(f"{n};{CLUBS[i % 4]}" for i, n in enumerate(NAMES)))
    assert _steps(c, tid)["seating"] == "next"
    codes = _seat_round(c, hall, tid, ["СудьяОдин", "judgepw"])
    assert _steps(c, tid)["judges"] == "done" and _steps(c, tid)["blanks"] == "next"
    hall.svc.access.grant(tid, "judgepw2", "judge", actor=ORG, password="judge-password-1")

    # the codes: one per code judge, shown once with its QR; a password judge needs none
    hall.svc.games.assign_judge(tid, codes[1], "judgepw2", actor=ORG)
    r = _post(c, f"/t/{tid}/setup/round-codes", {"round": "qual|1"})
    assert r.status_code == 200  # type: ignore[attr-defined]
    page: str = r.text  # type: ignore[attr-defined]
    shown = re.findall(r'name="code_(\d+)" value="([^"]+)"', page)
    assert [t for t, _c in shown] == ["1"]
    code = shown[0][1]
    assert re.fullmatch(r"[2-9A-HJKMNP-Z]{4}-[2-9A-HJKMNP-Z]{4}", code)
    assert parse_code(code.lower().replace("-", " ")) is not None
    assert 'src="data:image/svg+xml' in page and "входит по паролю" in page
    with hall.svc.store.read() as s:  # stored as HMAC only
        row = s.scalar(select(db.SignInCode).order_by(db.SignInCode.id.desc()))
        assert row is not None and code.replace("-", "")[4:] not in (row.digest + row.salt)

    r = c.post(f"/t/{tid}/setup/blank.pdf",
               data={"csrf": _csrf(c), "round": "qual|1", "code_1": code,
                     "code_2": "ZZZZ-ZZZZ"})
    assert r.status_code == 200 and r.content.startswith(b"%PDF")
    pdf = tmp_path / "blank.pdf"
    pdf.write_bytes(r.content)
    pages = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True,
                           text=True, check=True).stdout.split("\f")
    front1, back1, front2 = pages[0], pages[1], pages[2]
    for n in NAMES[:10]:
        assert n in front1
    for n in NAMES[10:]:
        assert n in front2
    assert "Кубок зала" in front1 and "Отбор" in front1 and "СудьяОдин" in front1
    assert "judgepw2" in front2
    assert re.search(r"\d\d\.\d\d\.20\d\d", front1)  # the date, as it is written in Russian
    assert code in front1 and f"http://testserver/c/{code}" in back1
    assert "ZZZZ" not in r.text and "Вход судьи" not in pages[3]  # a wrong code is not printed
    assert _qr_in_pdf(pdf) == _qr_modules(f"http://testserver/c/{code}")
    assert _steps(c, tid)["blanks"] == "done" and _steps(c, tid)["open"] == "next"

    # the judge opens the QR's address, presses the button, finds his table
    judge = TestClient(hall.app)  # type: ignore[arg-type]
    form = judge.get(f"/c/{code}").text
    assert f'value="{code}"' in form
    r = judge.post("/login/code", data={"code": code, "csrf": _csrf(judge)},
                   follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == f"/t/{tid}/judge"
    assert codes[0] in judge.get(f"/t/{tid}/judge").text
    head = hall.svc.games.head(tid, codes[0])
    hall.svc.protocols.save_draft(tid, codes[0], head.game_struct(), actor="судьяодин",
                                  base_revision=head.number)
    assert set(_steps(c, tid).values()) == {"done"}


def _qr_modules(url: str) -> list[list[bool]]:
    import segno

    return [[bool(v) for v in row] for row in segno.make(url, error="m").matrix]


def _qr_in_pdf(pdf: Path) -> list[list[bool]]:
    """The QR code printed on the first page, read back module by module: the page
    rendered at 600 dpi, the code's dark box found in the top right corner, each module
    sampled at its centre."""
    from mafiatab.formats.pdf import QR_SIZE, QR_X, QR_Y

    out = pdf.with_suffix("")
    subprocess.run(["pdftoppm", "-r", "600", "-gray", "-f", "1", "-l", "1", "-x",
                    str(int(QR_X / 25.4 * 600) - 20), "-y", str(int(QR_Y / 25.4 * 600) - 20),
                    "-W", str(int(QR_SIZE / 25.4 * 600) + 40),
                    "-H", str(int(QR_SIZE / 25.4 * 600) + 40), str(pdf), str(out)],
                   check=True)
    png = next(out.parent.glob(out.name + "*.pgm"))
    data = png.read_bytes()
    # a binary PGM: "P5\n<w> <h>\n<max>\n" then the bytes
    parts = data.split(b"\n", 3)
    width, height = map(int, parts[1].split())
    pixels = parts[3]

    def dark(x: int, y: int) -> bool:
        return pixels[y * width + x] < 128

    xs = [x for y in range(height) for x in range(width) if dark(x, y)]
    ys = [y for y in range(height) for x in range(width) if dark(x, y)]
    left, right, top = min(xs), max(xs), min(ys)
    # the finder pattern's top left is 7 modules wide: the first dark run tells one module
    run = 0
    while dark(left + run, top):
        run += 1
    n = round((right - left + 1) / (run / 7))
    size = (right - left + 1) / n
    return [[dark(int(left + (c + 0.5) * size), int(top + (r + 0.5) * size))
             for c in range(n)] for r in range(n)]


# --- cookies, plain HTTP, codes --------------------------------------------------------------------


def test_cookie_secure_only_over_https_and_the_plain_http_notice_once(hall: Hall) -> None:
    plain = TestClient(hall.app, base_url="http://192.0.2.2:8410")  # type: ignore[arg-type]
    r = plain.get("/api/session")
    assert "secure" not in r.headers["set-cookie"].lower()
    tls = TestClient(hall.app, base_url="https://hall.example")  # type: ignore[arg-type]
    r = tls.get("/api/session")
    assert "secure" in r.headers["set-cookie"].lower()
    c = _client(hall, base="http://192.0.2.2:8410")
    tid = _new(c)
    first = c.get(f"/t/{tid}/manage").text
    assert 'id="plain-http"' in first and "--https" in first
    assert 'id="plain-http"' not in c.get(f"/t/{tid}/manage").text
    assert 'id="plain-http"' not in c.get(f"/t/{tid}/setup").text


# --- accounts ----------------------------------------------------------------------------------------


def test_an_administrator_resets_another_accounts_password(hall: Hall) -> None:
    c = _client(hall)
    tid = _new(c)
    hall.svc.access.grant(tid, "hj", "head_judge", actor=ORG, password="head-judge-pass1")
    hall.svc.access.grant(tid, "judge", "judge", actor=ORG, password="judge-pass-0001")
    judge = _client(hall, "judge", "judge-pass-0001")
    hj = _client(hall, "hj", "head-judge-pass1")
    # a tournament's head judge is no administrator
    assert hj.get("/admin/accounts").status_code == 403
    r = _post(hj, "/admin/accounts/reset", {"user": "judge", "password": "taken-over-by-hj"})
    assert r.status_code == 403  # type: ignore[attr-defined]
    page = c.get("/admin/accounts").text
    assert '<option value="judge">' in page and '<option value="org">' not in page
    r = _post(c, "/admin/accounts/reset", {"user": "Judge ", "password": "new-judge-pass-1"},
              follow_redirects=False)
    assert r.status_code == 303  # type: ignore[attr-defined]
    assert "n=1" in r.headers["location"]  # type: ignore[attr-defined]
    # the judge's old session ended; the new password works, the old does not
    assert judge.get("/api/session").json()["user"] is None
    assert hall.svc.accounts.check_password("judge", "new-judge-pass-1")
    assert not hall.svc.accounts.check_password("judge", "judge-pass-0001")
    # never one's own account (the rights model): the owner changes it with the old one
    own = _post(c, "/admin/accounts/reset", {"user": "org", "password": "x" * 12})
    assert own.status_code == 403 and "со старым паролем" in own.text  # type: ignore[attr-defined]
    with hall.svc.store.read() as s:
        rows = s.execute(select(db.AuditEntry.user_name, db.AuditEntry.tournament_id,
                                db.AuditEntry.detail)
                         .where(db.AuditEntry.action == "reset_password")).all()
    assert rows == [(ORG, None, {"user": "judge", "sessions_ended": 1})]


def test_an_old_hash_is_made_anew_at_sign_in(hall: Hall) -> None:
    old = PasswordHasher(time_cost=3, memory_cost=65536, parallelism=4).hash("old-params-pass")
    with hall.svc.store.write() as s:
        s.add(db.User(name="veteran", display_name="veteran", password_hash=old))
    assert needs_rehash(old)
    _client(hall, "veteran", "old-params-pass")
    with hall.svc.store.read() as s:
        new = s.scalar(select(db.User.password_hash).where(db.User.name == "veteran"))
    assert new is not None and new != old and not needs_rehash(new)
    assert "m=19456" in new
    assert hall.svc.accounts.check_password("veteran", "old-params-pass")
    # a wrong password changes nothing
    c = TestClient(hall.app)  # type: ignore[arg-type]
    c.post("/api/login", json={"user": "veteran", "password": "wrong-password"},
           headers={"X-CSRF-Token": _csrf(c)})
    with hall.svc.store.read() as s:
        assert s.scalar(select(db.User.password_hash).where(db.User.name == "veteran")) == new


# --- the real server: plain HTTP on the hall's address, HTTPS, a trusted proxy ------------------


def _lan_address() -> str:
    """The machine's address on its network (not loopback), or 0.0.0.0's stand-in."""
    import socket

    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        try:
            s.connect(("192.0.2.1", 9))  # no packet is sent: the route picks the address
            addr: str = s.getsockname()[0]
        except OSError:
            addr = "127.0.0.1"
    return addr


def _serve(tmp_path: Path, port: int, *extra: str) -> subprocess.Popen[bytes]:
    import os
    import sys
    import time

    import httpx

    db_url = f"sqlite:///{tmp_path}/served.sqlite"
    if not (tmp_path / "served.sqlite").exists():
        engine = make_engine(db_url)
        upgrade(engine)
        Services(engine).accounts.add_account(ORG, ORG_PASS, actor=ORG)
        engine.dispose()
    exe = Path(sys.executable).with_name("mafiatab")
    proc = subprocess.Popen([str(exe), "serve", "--db", db_url, "--port", str(port),
                             "--secret-file", str(tmp_path / "secret.key"), *extra],
                            env={**os.environ, "FORWARDED_ALLOW_IPS": "127.0.0.1"})
    scheme = "https" if "--https" in extra else "http"
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            httpx.get(f"{scheme}://127.0.0.1:{port}/api/session", verify=False, timeout=2)
            return proc
        except httpx.TransportError:
            time.sleep(0.2)
    proc.terminate()
    raise AssertionError("the server did not start")


def test_served_over_plain_http_on_the_lan_and_over_https(tmp_path: Path) -> None:
    import httpx

    lan = _lan_address()
    proc = _serve(tmp_path, 8410, "--host", "0.0.0.0", "--trust-proxy")
    try:
        # plain HTTP at the hall's address: the cookie is not Secure (the phones keep it)
        r = httpx.get(f"http://{lan}:8410/api/session")
        assert "secure" not in r.headers["set-cookie"].lower()
        # a forwarded "https" from an address that is not the trusted proxy is not believed
        if lan != "127.0.0.1":
            r = httpx.get(f"http://{lan}:8410/api/session",
                          headers={"X-Forwarded-Proto": "https"})
            assert "secure" not in r.headers["set-cookie"].lower()
        # the trusted proxy (127.0.0.1) says the hall reached it over HTTPS: Secure
        r = httpx.get("http://127.0.0.1:8410/api/session", headers={"X-Forwarded-Proto": "https"})
        assert "; secure" in r.headers["set-cookie"].lower()
        # the organizer at the LAN address is told once what plain HTTP means
        with httpx.Client(base_url=f"http://{lan}:8410",
                          headers={"Host": f"{lan}:8410"}) as c:
            csrf = c.get("/api/session").json()["csrf"]
            assert c.post("/api/login", json={"user": ORG, "password": ORG_PASS},
                          headers={"X-CSRF-Token": csrf}).status_code == 200
            csrf = c.get("/api/session").json()["csrf"]
            r = c.post("/new", data={"name": "Зал", "rules": "fsm", "csrf": csrf})
            assert r.status_code == 303
            tid = r.headers["location"].split("/")[2]
            first = c.get(f"/t/{tid}/manage").text
            plain_here = lan != "127.0.0.1"
            assert ('id="plain-http"' in first) is plain_here
            assert 'id="plain-http"' not in c.get(f"/t/{tid}/manage").text
    finally:
        proc.terminate()
        proc.wait(10)

    key, cert = tmp_path / "key.pem", tmp_path / "cert.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
                    "-subj", "/CN=hall.local", "-keyout", str(key), "-out", str(cert)],
                   check=True, capture_output=True)
    proc = _serve(tmp_path, 8411, "--https", str(cert), "--https-key", str(key))
    try:
        r = httpx.get("https://127.0.0.1:8411/api/session", verify=False)
        assert "; secure" in r.headers["set-cookie"].lower()
    finally:
        proc.terminate()
        proc.wait(10)


def test_the_json_api_calls_the_same_use_cases(hall: Hall) -> None:
    c = _client(hall)
    tid = _new(c)
    h = {"X-CSRF-Token": _csrf(c)}
    r = c.post(f"/api/t/{tid}/players/paste", json={"text": "nickname;club\nAlice;North\n;x"},
               headers=h)
    assert r.status_code == 200
    got = r.json()
    assert got["added"] == [{"id": "p1", "nickname": "Alice", "club": "North"}]
    assert [(x["line"], x["reason"]) for x in got["refused"]] == [(3, "empty_nickname")]
    r = c.post(f"/api/t/{tid}/players/p1", json={"nickname": "Alicia", "club": None,
                                                  "withdrawn": True}, headers=h)
    assert r.json() == {"id": "p1", "nickname": "Alicia", "club": None, "withdrawn": True}
    assert c.post(f"/api/t/{tid}/players/p9", json={"withdrawn": True},
                  headers=h).status_code == 400
    r = c.post(f"/api/t/{tid}/rules", json={"rules": "fiim2018", "options": {}}, headers=h)
    assert r.json() == {"rules": "fiim2018", "options": {}}
    steps = c.get(f"/api/t/{tid}/setup/steps").json()
    assert steps["next"] == "players" and steps["steps"][1] == {
        "key": "players", "done": False, "count": 0, "of": 10}


def test_a_blank_names_the_stage_in_words_and_dates_it_as_written() -> None:
    """FIIM 9.2: the tournament, stage, round, table and date are on the protocol before
    the game; a stage whose name is only its code is named by its kind."""
    from mafiatab.domain.protocol import Game, Player, Seat, Stage, Tournament
    from mafiatab.formats.pdf import blank_sheets
    from mafiatab.rules import PROFILES

    players = [Player(id=f"p{i}", nickname=f"Ник{i}") for i in range(1, 11)]
    t = Tournament(name="Кубок", rules="fsm", players=players,
                   stages=[Stage(id="final", name="final", kind="final"),
                           Stage(id="q", name="Отбор дня", kind="qualification")])
    seated = Game(id="g1", stage="final", round=2, table=1, result="", judge="Судья",
                  seats=[Seat(seat=i, player=f"p{i}", role="") for i in range(1, 11)])
    ru = blank_sheets(t, PROFILES["fsm"], "final", 2, 2, "ru", seated=[seated],
                      today="2026-12-01", sign_in={1: ("ABCD-EFGH", "http://h/c/ABCD-EFGH")})
    assert (ru[0].stage, ru[0].round, ru[0].table, ru[0].date, ru[0].judge) == (
        "Финал", "2", "1", "01.12.2026", "Судья")
    assert [s.nickname for s in ru[0].seats] == [f"Ник{i}" for i in range(1, 11)]
    assert (ru[0].sign_in_code, ru[1].sign_in_code, ru[1].date) == ("ABCD-EFGH", "", "")
    en = blank_sheets(t, PROFILES["fsm"], "q", 1, 1, "en", today="2026-12-01")
    assert (en[0].stage, en[0].date) == ("Отбор дня", "")


def test_keep_clubmates_apart_is_offered_only_when_clubs_are_given(hall: Hall) -> None:
    """Offered when the players have clubs, and off until the organizer asks (in a small
    city one club is half the field: kept apart by default it refused the seating)."""
    c = _client(hall)
    box = re.compile(r'<select name="clubs" id="rule-clubs">(.*?)</select>', re.S)

    def offered(lines: str) -> str | None:
        tid = _new(c)
        _paste(c, tid, lines)
        found = box.search(c.get(f"/t/{tid}/seating").text)
        if found is None:
            return None
        chosen = re.search(r'<option value="(\w+)" selected>', found.group(1))
        return chosen.group(1) if chosen else None

    assert offered("\n".join(NAMES)) is None
    assert offered("\n".join(f"{n};Север" if i < 3 else n for i, n in enumerate(NAMES))) == "off"
    assert offered("\n".join(f"{n};{CLUBS[i % 2]}" for i, n in enumerate(NAMES))) == "off"
