"""An archive import restores the archive's roles on accounts that exist here only as the
rights model lets the importer act on them: an archive cannot hand its importer the
administrator's account, a peer organizer, or another tournament's staff. Each refused
role is reported in words, Russian and English; roles on accounts the import makes, and
on accounts the importer reaches, are restored."""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import select

from mafiatab.formats import archive as fmt
from mafiatab.services.archive import export_archive, import_archive
from mafiatab.storage import models as db
from mafiatab.storage.models import HEAD_JUDGE, JUDGE, ORGANIZER, VIEWER
from tests.rights.conftest import World

#: accounts of the world that the archive gives a role in the new tournament, and why
#: t_org may not restore it: the administrator only, a peer organizer, U's judge, an
#: account that holds nothing
OUT_OF_REACH = {"keeper": ORGANIZER, "org": HEAD_JUDGE, "u_judge": JUDGE, "plain": VIEWER}


def _archive(world: World, fresh: str) -> bytes:
    """T's archive, its roles also naming the accounts out of t_org's reach and a new one."""
    data = export_archive(world.svc.engine, world.t)
    manifest, members = fmt.unpack(data)
    access: dict[str, Any] = json.loads(members["access.json"])
    for name, role in {**OUT_OF_REACH, fresh: JUDGE}.items():
        access["users"].append({"name": name, "display_name": None})
        access["roles"].append({"user": name, "role": role})
    members["access.json"] = fmt.dumps_member(access)
    return fmt.pack(members, {k: v for k, v in manifest.items() if k not in ("format", "files")})


def _roles(world: World, tournament: int) -> set[tuple[str, str]]:
    with world.svc.store.read() as s:
        return {(n, r) for n, r in s.execute(
            select(db.User.name, db.RoleGrant.role).join(db.RoleGrant)
            .where(db.RoleGrant.tournament_id == tournament))}


def _linked(world: World, tournament: int) -> set[str]:
    with world.svc.store.read() as s:
        return set(s.scalars(select(db.User.name).join(
            db.PlayerUser, db.PlayerUser.user_id == db.User.id)
            .where(db.PlayerUser.tournament_id == tournament)))


def test_an_organizer_restores_only_the_roles_of_accounts_he_reaches(world: World) -> None:
    before = _roles(world, world.t)
    done = import_archive(world.svc.engine, _archive(world, "fresh_a"), actor="t_org")
    got = _roles(world, done.tournament)
    # T's own staff (all within t_org's reach) and the account the import made: restored
    assert before <= got
    assert ("fresh_a", JUDGE) in got
    assert _linked(world, done.tournament) == {"t_player"}
    # the accounts out of reach: not touched, and each one reported
    assert not {n for n, _ in got} & set(OUT_OF_REACH)
    assert {(r.user, r.role): r.refusal.code for r in done.refused} == {
        ("keeper", ORGANIZER): "restore_right", ("org", HEAD_JUDGE): "restore_right",
        ("u_judge", JUDGE): "restore_elsewhere", ("plain", VIEWER): "restore_unowned"}
    u_judge = next(r for r in done.refused if r.user == "u_judge").refusal
    assert "Турнир U" in u_judge.message("ru") and "Турнир U" in u_judge.message("en")
    assert "восстанавливает" in u_judge.message("ru")
    assert "restores" in u_judge.message("en")
    with world.svc.store.read() as s:
        entry = s.scalars(select(db.AuditEntry).where(
            db.AuditEntry.action == "import_archive").order_by(db.AuditEntry.id.desc())).first()
    assert entry is not None and entry.user_name == "t_org"
    assert {(x["user"], x["role"]) for x in entry.detail["not_restored"]} == {
        (n, r) for n, r in OUT_OF_REACH.items()}


def test_a_judge_restores_no_role_of_an_account_that_exists(world: World) -> None:
    done = import_archive(world.svc.engine, _archive(world, "fresh_b"), actor="t_judge")
    got = _roles(world, done.tournament)
    assert got == {("fresh_b", JUDGE)}
    assert all(r.refusal.code == "not_organizer" for r in done.refused)
    assert ("t_org", ORGANIZER) in {(r.user, r.role) for r in done.refused}
    assert _linked(world, done.tournament) == set()


def test_the_administrator_and_the_operator_restore_every_role(world: World) -> None:
    for actor, operator, fresh in (("root", False, "fresh_c"), ("operator", True, "fresh_d")):
        done = import_archive(world.svc.engine, _archive(world, fresh), actor=actor,
                              operator=operator)
        assert done.refused == ()
        got = _roles(world, done.tournament)
        assert set(OUT_OF_REACH.items()) | {(fresh, JUDGE)} <= got
