"""The attacks on rights that were found, each a test that failed before the one rights
model (it uses only calls that existed then), on SQLite and PostgreSQL:

* CRITICAL: an account with the organizer right but not the administrator right reset the
  password of an account holding the administrator right and no role (what `mafiatab db
  grant-admin NAME` without `--organizer` makes), signed in as it, and from there reset
  the main administrator's password and gave himself the administrator right;
* MEDIUM: another tournament's organizer merged his own player into any person's record:
  only the merged side's tournaments were checked, so the kept record (a person of a
  tournament he does not organize) showed his tournament's games.
"""

from __future__ import annotations

import pytest
from sqlalchemy import select

from mafiatab.services.errors import PermissionDenied
from mafiatab.storage import models as db
from mafiatab.storage.models import JUDGE
from tests.rights.conftest import PASSWORD, World


def records(world: World) -> dict[int, int]:
    """Whose record each tournament's player "p2" is (tournament -> person id)."""
    with world.svc.store.read() as s:
        return {int(t): int(p) for t, p in s.execute(
            select(db.Participant.tournament_id, db.Participant.player_id)
            .where(db.Participant.code == "p2"))}


def test_an_organizer_does_not_reset_an_admin_only_account(world: World) -> None:
    svc = world.svc
    assert svc.account_admin.is_administrator("keeper")
    assert not svc.account_admin.is_administrator("org")
    with pytest.raises(PermissionDenied):
        svc.account_admin.reset_password("keeper", "taken-over-2026", actor="org")
    assert svc.accounts.check_password("keeper", PASSWORD)
    assert not svc.accounts.check_password("keeper", "taken-over-2026")
    # nor is the account offered to him on the accounts page
    assert "keeper" not in [name for name, _o, _a in svc.account_admin.accounts(actor="org")]
    # the rest of the chain stays shut too: the organizer resets neither the main
    # administrator's password nor gives himself the administrator right
    with pytest.raises(PermissionDenied):
        svc.account_admin.reset_password("root", "taken-over-2026", actor="org")
    with pytest.raises(PermissionDenied):
        svc.account_admin.set_rights("org", admin=True, actor="org")
    assert svc.accounts.check_password("root", PASSWORD)
    assert not svc.account_admin.is_administrator("org")


def test_an_organizer_does_not_reset_an_account_without_roles(world: World) -> None:
    """The vacuous case: an account holding nothing is the administrator's (a right may
    be given to it later, as to "keeper")."""
    with pytest.raises(PermissionDenied):
        world.svc.account_admin.reset_password("plain", "taken-over-2026", actor="org")
    assert world.svc.accounts.check_password("plain", PASSWORD)


def test_a_merge_checks_the_kept_side_too(world: World) -> None:
    svc, p = world.svc, world.people
    before = records(world)
    assert before[world.t] == p["pT"] and before[world.u] == p["pU"]
    # org organizes U: his U player merged into T's person (kept) changes T's record
    with pytest.raises(PermissionDenied):
        svc.people.merge(p["pT"], p["pU"], actor="org", reason="один человек")
    assert records(world) == before
    assert svc.people.person(p["pU"]).id == p["pU"]
    # and the other way round: T's person merged into his
    with pytest.raises(PermissionDenied):
        svc.people.merge(p["pU"], p["pT"], actor="org", reason="один человек")
    assert records(world) == before
    assert svc.people.person(p["pT"]).id == p["pT"]


def test_a_split_checks_both_sides(world: World) -> None:
    svc, p = world.svc, world.people
    before = records(world)
    merge = svc.people.merge(p["pT"], p["pU"], actor="root", reason="один человек")
    merged = records(world)
    assert merged[world.t] == merged[world.u] == p["pT"]
    try:
        # each organizer owns one side only: the split would change the other's record
        for actor in ("org", "t_org"):
            with pytest.raises(PermissionDenied):
                svc.people.split(merge, actor=actor)
        assert records(world) == merged
    finally:
        svc.people.split(merge, actor="root")
    assert records(world) == before


def test_an_organizer_does_not_take_an_account_without_roles_by_giving_it_one(
        world: World) -> None:
    """The vacuous case by a detour: a role given to an account that holds nothing would
    put it within his reach (every role it holds is then in his tournament), and the
    reset after it took the account over. The role is refused; so is the reset."""
    svc = world.svc
    with pytest.raises(PermissionDenied) as refused:
        svc.access.grant(world.t, "plain", JUDGE, actor="t_org")
    assert refused.value.code == "grant_unowned" and "plain" in refused.value.message("ru")
    with pytest.raises(PermissionDenied):  # the CLI's way, and a player's link, alike
        svc.access.grant_role(world.t, "plain", JUDGE, actor="t_org")
    with pytest.raises(PermissionDenied):
        svc.appeals.link_player(world.t, "p3", "plain", actor="t_org")
    assert "plain" not in {u for u, _r in svc.access.staff(world.t, actor="t_org")}
    with pytest.raises(PermissionDenied):
        svc.account_admin.reset_password("plain", "taken-over-2026", actor="t_org")
    assert svc.accounts.check_password("plain", PASSWORD)
    # a new account, made by the grant with its password, is the organizer's to invite
    svc.access.grant(world.t, "t_new_judge", JUDGE, actor="t_org", password=PASSWORD)
    assert "t_new_judge" in {u for u, _r in svc.access.staff(world.t, actor="t_org")}
    svc.access.revoke_role(world.t, "t_new_judge", JUDGE, actor="t_org")
