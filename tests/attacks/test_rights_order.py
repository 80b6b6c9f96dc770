"""The rights order through the web API, each a test that failed before the
one rights model (`services/rights.py`):

* an organizer took over the server: he reset the password of an account holding only
  the administrator right (`mafiatab db grant-admin keeper` without `--organizer`),
  signed in as it, reset the administrator's password and gave himself the right;
* another tournament's organizer merged his own player into any person's record (only
  the merged side was checked);
* `GET /api/t/{tid}/games/{code}/deadline` told any signed-in account of any tournament
  whether a game is published.
"""

from __future__ import annotations

from collections.abc import Callable

from fastapi.testclient import TestClient
from sqlalchemy import select

from mafiatab.services.facade import Services
from mafiatab.storage import models as db
from mafiatab.web.demo import DEMO_PASSWORD, ORGANIZER_NAME, VIEWER_NAME
from tests.attacks.conftest import ADMIN, ORG2, World, csrf_of

KEEPER = "keeper"
TAKEN = "taken-over-2026"


def _identity(services: Services, tid: int, code: str) -> int:
    with services.store.read() as s:
        pid = s.scalar(select(db.Participant.player_id).where(
            db.Participant.tournament_id == tid, db.Participant.code == code))
    assert pid is not None
    return int(pid)


def test_an_organizer_does_not_take_over_the_server(
        client_as: Callable[[str], TestClient], services: Services) -> None:
    # what `mafiatab db grant-admin keeper` does: the administrator right, no other
    services.accounts.add_account(KEEPER, DEMO_PASSWORD, actor=KEEPER)
    services.account_admin.set_rights(KEEPER, actor=KEEPER, operator=True, admin=True)
    assert services.account_admin.is_administrator(KEEPER)
    for attacker in (ORGANIZER_NAME, ORG2):  # A's organizer, B's organizer
        c = client_as(attacker)
        assert f'<option value="{KEEPER}">' not in c.get("/admin/accounts").text
        r = c.post("/admin/accounts/reset", data={
            "user": KEEPER, "password": TAKEN, "csrf": csrf_of(c)}, follow_redirects=False)
        assert r.status_code == 403, (attacker, r.status_code, r.text[:300])
        # the next steps of the chain, had he got in: each refused on its own
        r = c.post("/admin/accounts/reset", data={
            "user": ADMIN, "password": TAKEN, "csrf": csrf_of(c)}, follow_redirects=False)
        assert r.status_code == 403
        r = c.post("/api/admin/rights", json={"user": attacker, "admin": True},
                   headers={"X-CSRF-Token": csrf_of(c)})
        assert r.status_code == 403
    # the keeper's password is his: the attacker's does not open it
    anon = TestClient(client_as("anon").app)
    r = anon.post("/api/login", json={"user": KEEPER, "password": TAKEN},
                  headers={"X-CSRF-Token": csrf_of(anon)})
    assert r.status_code in (401, 403), r.text
    assert services.accounts.check_password(KEEPER, DEMO_PASSWORD)
    assert services.accounts.check_password(ADMIN, DEMO_PASSWORD)
    assert not services.account_admin.is_administrator(ORGANIZER_NAME)
    assert not services.account_admin.is_administrator(ORG2)
    # the administrator may (and the keeper is still his to look after)
    root = client_as(ADMIN)
    r = root.post("/admin/accounts/reset", data={
        "user": KEEPER, "password": "keeper-new-pass-1", "csrf": csrf_of(root)},
        follow_redirects=False)
    assert r.status_code == 303
    assert services.accounts.check_password(KEEPER, "keeper-new-pass-1")


def test_another_organizer_does_not_merge_his_player_into_this_tournaments_record(
        client_as: Callable[[str], TestClient], services: Services, world: World) -> None:
    a_player, b_player = world.players_a[1], world.players_b[1]
    mine, theirs = _identity(services, world.b, b_player), _identity(services, world.a, a_player)
    page = client_as("anon").get(f"/api/people/{theirs}").json()
    assert [t["tournament"] for t in page["tournaments"]] == [world.a]
    org2 = client_as(ORG2)
    # A's record kept, his B player merged into it: A's person would show B's games
    r = org2.post(f"/api/people/{theirs}/merge", json={"other": mine, "reason": "same man"},
                  headers={"X-CSRF-Token": csrf_of(org2)})
    assert r.status_code == 403, r.text
    page = client_as("anon").get(f"/api/people/{theirs}").json()
    assert [t["tournament"] for t in page["tournaments"]] == [world.a]
    assert _identity(services, world.b, b_player) == mine


def test_the_deadline_answers_only_those_who_may_see_the_game(
        client_as: Callable[[str], TestClient], world: World) -> None:
    game = world.demo.open_games[0]
    path = f"/api/t/{world.a}/games/{game}/deadline"
    for outsider in (ORG2, "code-b", ADMIN):  # B's organizer, B's player, no role in A
        r = client_as(outsider).get(path)
        assert r.status_code == 403, (outsider, r.status_code, r.text[:200])
        assert "open" not in r.json()
    assert client_as("anon").get(path).status_code == 401
    for insider in (VIEWER_NAME, "code-a", ORGANIZER_NAME):
        r = client_as(insider).get(path)
        assert r.status_code == 200, (insider, r.text[:200])
        assert "open" in r.json()
    # B's own game answers B's player
    r = client_as("code-b").get(f"/api/t/{world.b}/games/{world.games_b[0]}/deadline")
    assert r.status_code == 200
