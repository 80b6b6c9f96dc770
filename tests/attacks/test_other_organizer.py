"""Another tournament's organizer against tournament A (the features added after the first attack run).

"org2" holds the organizer right, which every account that creates a tournament needs,
and organizes tournament B only. On main he could

* reset the password of A's head judge (or of A's organizer) on `/admin/accounts` and
  sign in as him: the right that creates tournaments was also the right over every
  account of the server;
* merge a player of A into an identity of his own B, so that A's standings showed B's
  name (and split it back), though merges are a matter of A's organizer.

Both are refused now by the rights model (`services/rights.py`): a merge or a split
changes the records of every tournament on both sides, so only the organizer of all of
them (or the server's administrator) does it."""

from __future__ import annotations

from collections.abc import Callable

from fastapi.testclient import TestClient
from sqlalchemy import select

from mafiatab.services.facade import Services
from mafiatab.storage import models as db
from mafiatab.web.demo import DEMO_PASSWORD, HEAD_JUDGE_NAME, ORGANIZER_NAME
from tests.attacks.conftest import ADMIN, ORG2, World, csrf_of


def _identity(services: Services, tid: int, code: str) -> int:
    with services.store.read() as s:
        pid = s.scalar(select(db.Participant.player_id).where(
            db.Participant.tournament_id == tid, db.Participant.code == code))
    assert pid is not None
    return int(pid)


def _nickname_in(c: TestClient, tid: int, code: str) -> str:
    rows = c.get(f"/api/t/{tid}/standings").json()["standings"]
    return str(next(r["nickname"] for r in rows if r["player"] == code))


def test_another_organizer_cannot_reset_this_tournaments_accounts(
        client_as: Callable[[str], TestClient], services: Services, world: World) -> None:
    org2 = client_as(ORG2)
    csrf = csrf_of(org2)
    for victim in (HEAD_JUDGE_NAME, ORGANIZER_NAME, "judge1", world.code_a[1]):
        r = org2.post("/admin/accounts/reset", data={
            "user": victim, "password": "taken-over-2026", "csrf": csrf},
            follow_redirects=False)
        assert r.status_code in (403, 422), (victim, r.status_code, r.headers)
        assert not services.accounts.check_password(victim, "taken-over-2026")
    assert services.accounts.check_password(HEAD_JUDGE_NAME, DEMO_PASSWORD)
    # the page lists none of them either
    page = org2.get("/admin/accounts").text
    for victim in (HEAD_JUDGE_NAME, ORGANIZER_NAME, "judge1"):
        assert f'<option value="{victim}">' not in page
    # his own tournament's judge is still his to reset
    services.access.grant(world.b, "b-judge", "judge", actor=ORG2, password="b-judge-pass-01")
    assert '<option value="b-judge">' in org2.get("/admin/accounts").text
    r = org2.post("/admin/accounts/reset", data={
        "user": "b-judge", "password": "b-judge-pass-02", "csrf": csrf}, follow_redirects=False)
    assert r.status_code == 303
    assert services.accounts.check_password("b-judge", "b-judge-pass-02")
    # and A's organizer resets A's judge, but not B's
    org = client_as(ORGANIZER_NAME)
    r = org.post("/admin/accounts/reset", data={
        "user": "judge2", "password": "judge2-new-pass", "csrf": csrf_of(org)},
        follow_redirects=False)
    assert r.status_code == 303
    r = org.post("/admin/accounts/reset", data={
        "user": "b-judge", "password": "taken-over-2026", "csrf": csrf_of(org)},
        follow_redirects=False)
    assert r.status_code == 403
    assert services.accounts.check_password("b-judge", "b-judge-pass-02")
    # nor may either organizer hand himself the administrator right that reaches them all
    for who in (ORGANIZER_NAME, ORG2):
        c = client_as(who)
        r = c.post("/api/admin/rights", json={"user": who, "admin": True},
                   headers={"X-CSRF-Token": csrf_of(c)})
        assert r.status_code == 403 and r.json()["error"] == "not_admin"
    assert not services.account_admin.is_administrator(ORG2)
    # the server's administrator may reset it (audited; its sessions end)
    root = client_as(ADMIN)
    r = root.post("/admin/accounts/reset", data={
        "user": "b-judge", "password": "b-judge-pass-03", "csrf": csrf_of(root)},
        follow_redirects=False)
    assert r.status_code == 303
    assert services.accounts.check_password("b-judge", "b-judge-pass-03")


def test_another_organizer_cannot_merge_this_tournaments_players(
        client_as: Callable[[str], TestClient], services: Services, world: World) -> None:
    a_player, b_player = world.code_a[0], world.code_b[0]
    mine, theirs = _identity(services, world.b, b_player), _identity(services, world.a, a_player)
    anon = client_as("anon")
    before = _nickname_in(anon, world.a, a_player)
    org2 = client_as(ORG2)
    r = org2.post(f"/api/people/{mine}/merge", json={"other": theirs, "reason": "same man"},
                  headers={"X-CSRF-Token": csrf_of(org2)})
    assert r.status_code == 403, r.text
    assert _nickname_in(anon, world.a, a_player) == before
    assert _identity(services, world.a, a_player) == theirs
    # nor A's organizer: the kept record is B's, and B's record would show A's games
    org = client_as(ORGANIZER_NAME)
    r = org.post(f"/api/people/{mine}/merge", json={"other": theirs, "reason": "same man"},
                 headers={"X-CSRF-Token": csrf_of(org)})
    assert r.status_code == 403 and r.json()["error"] == "not_their_organizer", r.text
    assert _identity(services, world.a, a_player) == theirs
    # the server's administrator (no role in A or B) merges and splits across them; a
    # split changes both sides again, so neither organizer undoes it
    root = client_as(ADMIN)
    r = root.post(f"/api/people/{mine}/merge", json={"other": theirs, "reason": "same man"},
                  headers={"X-CSRF-Token": csrf_of(root)})
    assert r.status_code == 200, r.text
    merge = r.json()["merge"]
    assert _identity(services, world.a, a_player) == mine
    for c in (org2, org):
        r = c.post(f"/api/people/merges/{merge}/split", headers={"X-CSRF-Token": csrf_of(c)})
        assert r.status_code == 403, r.text
    assert _identity(services, world.a, a_player) == mine
    r = root.post(f"/api/people/merges/{merge}/split", headers={"X-CSRF-Token": csrf_of(root)})
    assert r.status_code == 200, r.text
    assert _identity(services, world.a, a_player) == theirs
    assert _nickname_in(anon, world.a, a_player) == before
