"""Every pair of account kinds × every act on an account, against a table written here
(the rights order of docs/security.md worked out by hand), on SQLite and PostgreSQL:

* `decide` itself says yes or no as the table does;
* each use case that changes an account's rights asks it: the real service call (rolled
  back after each pair) refuses with `RightsDenied` exactly where the table says no, and
  never where it says yes (it may still refuse for a reason of the data: a code for a
  password account, a reset of a code account).

Rows are the actor, columns the target, in `KINDS` order:
admin, organizer, admin_only, t_organizer, t_head_judge, t_judge, t_viewer, t_player_code,
u_account, no_roles. "Y" allowed, "." refused.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from mafiatab.domain import appeals as ap
from mafiatab.services.errors import ServiceError
from mafiatab.services.jobs import Jobs
from mafiatab.services.rights import (
    AccountRef,
    Act,
    MergeRef,
    PeopleRef,
    RightsDenied,
    TournamentRef,
    decide,
)
from mafiatab.storage.models import JUDGE, PLAYER
from tests.rights.conftest import KINDS, World, undone

ORDER = list(KINDS)

#                 targets: adm org a-o t-o hj  j   v   pc  u   no
TABLE: dict[Act, str] = {
    Act.RESET_PASSWORD: """
        admin         .   Y   Y   Y   Y   Y   Y   Y   Y   Y
        organizer     .   .   .   .   .   .   .   .   Y   .
        admin_only    Y   Y   .   Y   Y   Y   Y   Y   Y   Y
        t_organizer   .   .   .   .   Y   Y   Y   Y   .   .
        t_head_judge  .   .   .   .   .   .   .   .   .   .
        t_judge       .   .   .   .   .   .   .   .   .   .
        t_viewer      .   .   .   .   .   .   .   .   .   .
        t_player_code .   .   .   .   .   .   .   .   .   .
        u_account     .   .   .   .   .   .   .   .   .   .
        no_roles      .   .   .   .   .   .   .   .   .   .
    """,
    Act.SET_RIGHTS: """
        admin         .   Y   Y   Y   Y   Y   Y   Y   Y   Y
        organizer     .   .   .   .   .   .   .   .   .   .
        admin_only    Y   Y   .   Y   Y   Y   Y   Y   Y   Y
        t_organizer   .   .   .   .   .   .   .   .   .   .
        t_head_judge  .   .   .   .   .   .   .   .   .   .
        t_judge       .   .   .   .   .   .   .   .   .   .
        t_viewer      .   .   .   .   .   .   .   .   .   .
        t_player_code .   .   .   .   .   .   .   .   .   .
        u_account     .   .   .   .   .   .   .   .   .   .
        no_roles      .   .   .   .   .   .   .   .   .   .
    """,
    # a judge's role in T, given or taken (never given to an account that holds nothing:
    # the administrator's, and the role would put it within the giver's reach)
    Act.GRANT_ROLE: """
        admin         .   .   .   .   .   .   .   .   .   .
        organizer     .   .   .   .   .   .   .   .   .   .
        admin_only    .   .   .   .   .   .   .   .   .   .
        t_organizer   Y   Y   Y   .   Y   Y   Y   Y   Y   .
        t_head_judge  Y   Y   Y   .   .   Y   Y   Y   Y   .
        t_judge       .   .   .   .   .   .   .   .   .   .
        t_viewer      .   .   .   .   .   .   .   .   .   .
        t_player_code .   .   .   .   .   .   .   .   .   .
        u_account     .   .   .   .   .   .   .   .   .   .
        no_roles      .   .   .   .   .   .   .   .   .   .
    """,
    Act.REVOKE_ROLE: """
        admin         .   .   .   .   .   .   .   .   .   .
        organizer     .   .   .   .   .   .   .   .   .   .
        admin_only    .   .   .   .   .   .   .   .   .   .
        t_organizer   Y   Y   Y   .   Y   Y   Y   Y   Y   Y
        t_head_judge  Y   Y   Y   .   .   Y   Y   Y   Y   Y
        t_judge       .   .   .   .   .   .   .   .   .   .
        t_viewer      .   .   .   .   .   .   .   .   .   .
        t_player_code .   .   .   .   .   .   .   .   .   .
        u_account     .   .   .   .   .   .   .   .   .   .
        no_roles      .   .   .   .   .   .   .   .   .   .
    """,
    # a judge's sign-in code of T: it opens the whole account
    Act.ISSUE_CODE: """
        admin         .   .   .   .   .   .   .   .   .   .
        organizer     .   .   .   .   .   .   .   .   .   .
        admin_only    .   .   .   .   .   .   .   .   .   .
        t_organizer   .   .   .   .   Y   Y   Y   Y   .   Y
        t_head_judge  .   .   .   .   .   Y   Y   Y   .   Y
        t_judge       .   .   .   .   .   .   .   .   .   .
        t_viewer      .   .   .   .   .   .   .   .   .   .
        t_player_code .   .   .   .   .   .   .   .   .   .
        u_account     .   .   .   .   .   .   .   .   .   .
        no_roles      .   .   .   .   .   .   .   .   .   .
    """,
    # a player's sign-in code of T revoked (the target: the code's account)
    Act.REVOKE_CODE: """
        admin         .   .   .   .   .   .   .   .   .   .
        organizer     .   .   .   .   .   .   .   .   .   .
        admin_only    .   .   .   .   .   .   .   .   .   .
        t_organizer   Y   Y   Y   .   Y   Y   Y   Y   Y   Y
        t_head_judge  Y   Y   Y   .   .   Y   Y   Y   Y   Y
        t_judge       .   .   .   .   .   .   .   .   .   .
        t_viewer      .   .   .   .   .   .   .   .   .   .
        t_player_code .   .   .   .   .   .   .   .   .   .
        u_account     .   .   .   .   .   .   .   .   .   .
        no_roles      .   .   .   .   .   .   .   .   .   .
    """,
}
#: the role each act within T names
ROLE_OF: dict[Act, str] = {Act.GRANT_ROLE: JUDGE, Act.REVOKE_ROLE: JUDGE,
                           Act.ISSUE_CODE: JUDGE, Act.REVOKE_CODE: PLAYER}

#: merges of person records (kept, merged) and their splits; columns:
#: T+U (kept plays in T, merged in U), U+T, T+none (merged never played), I+T (I: nobody
#: organizes it)
RECORDS = [("pT", "pU"), ("pU", "pT"), ("pT", "p0"), ("pI", "pT")]
RECORD_TABLE = """
        admin         Y   Y   Y   Y
        organizer     .   .   .   .
        admin_only    Y   Y   Y   Y
        t_organizer   .   .   Y   .
        t_head_judge  .   .   .   .
        t_judge       .   .   .   .
        t_viewer      .   .   .   .
        t_player_code .   .   .   .
        u_account     .   .   .   .
        no_roles      .   .   .   .
"""
#: T's own: its audit log and its jobs (MANAGE), a game's filing deadline (SEE)
TOURNAMENT_TABLE = """
                      MANAGE SEE
        admin         .   .
        organizer     .   .
        admin_only    .   .
        t_organizer   Y   Y
        t_head_judge  Y   Y
        t_judge       .   Y
        t_viewer      .   Y
        t_player_code .   Y
        u_account     .   .
        no_roles      .   .
"""


def parse(table: str, width: int) -> dict[str, list[bool]]:
    rows: dict[str, list[bool]] = {}
    for line in table.strip().splitlines():
        parts = line.split()
        if parts[0] not in KINDS:
            continue
        assert len(parts) == width + 1, line
        rows[parts[0]] = [p == "Y" for p in parts[1:]]
    assert list(rows) == ORDER
    return rows


def test_the_tables_are_whole() -> None:
    for act, table in TABLE.items():
        rows = parse(table, len(ORDER))
        for kind in ORDER:  # never on oneself
            assert not rows[kind][ORDER.index(kind)], (act, kind)
    parse(RECORD_TABLE, len(RECORDS))
    parse(TOURNAMENT_TABLE, 2)


def _target(world: World, act: Act, target: str) -> AccountRef:
    if act in ROLE_OF:
        return AccountRef(target, world.t, ROLE_OF[act])
    return AccountRef(target)


@pytest.mark.parametrize("act", list(TABLE))
def test_decide_gives_the_table(world: World, act: Act) -> None:
    expected = parse(TABLE[act], len(ORDER))
    got: dict[str, list[bool]] = {}
    with world.svc.store.read() as s:
        for kind, actor in KINDS.items():
            got[kind] = [decide(s, actor, act, _target(world, act, KINDS[t])) is None
                         for t in ORDER]
    assert got == expected


def test_decide_gives_the_records_and_tournament_tables(world: World) -> None:
    records = parse(RECORD_TABLE, len(RECORDS))
    own = parse(TOURNAMENT_TABLE, 2)
    p = world.people
    with world.svc.store.read() as s:
        got = {kind: [decide(s, actor, Act.MERGE, PeopleRef(p[k], p[m])) is None
                      for k, m in RECORDS] for kind, actor in KINDS.items()}
        mine = {kind: [decide(s, actor, a, TournamentRef(world.t)) is None
                       for a in (Act.MANAGE, Act.SEE)] for kind, actor in KINDS.items()}
    assert got == records
    assert mine == own


def _service_call(world: World, act: Act, actor: str, target: str) -> Callable[[], Any] | None:
    svc = world.svc
    if act is Act.RESET_PASSWORD:
        return lambda: svc.account_admin.reset_password(target, "a-new-pass-2026",
                                                        actor=actor)
    if act is Act.SET_RIGHTS:
        return lambda: svc.account_admin.set_rights(target, actor=actor, organizer=None,
                                                    admin=None)
    if act is Act.GRANT_ROLE:
        return lambda: svc.access.grant(world.t, target, JUDGE, actor=actor)
    if act is Act.REVOKE_ROLE:
        return lambda: svc.access.revoke_role(world.t, target, JUDGE, actor=actor)
    if act is Act.ISSUE_CODE:
        return lambda: svc.access.create_code(world.t, target, JUDGE, actor=actor)
    if act is Act.REVOKE_CODE and target == "t_player":  # the one account with a code
        return lambda: svc.access.revoke_code(world.t, world.player_code_id, actor=actor)
    return None


@pytest.mark.parametrize("act", list(TABLE))
def test_every_use_case_asks_the_rights_model(world: World, act: Act) -> None:
    expected = parse(TABLE[act], len(ORDER))
    got: dict[str, list[bool]] = {}
    for kind, actor in KINDS.items():
        row = []
        for i, kind_t in enumerate(ORDER):
            call = _service_call(world, act, actor, KINDS[kind_t])
            if call is None:
                row.append(expected[kind][i])
                continue
            _, raised = undone(world.svc, call)
            assert raised is None or isinstance(raised, ServiceError), raised
            assert raised is None or raised.status < 500, raised
            row.append(not isinstance(raised, RightsDenied))
        got[kind] = row
    assert got == expected


def test_merges_and_splits_ask_it_for_both_sides(world: World) -> None:
    records = parse(RECORD_TABLE, len(RECORDS))
    p, svc = world.people, world.svc
    merged: dict[str, list[bool]] = {}
    split: dict[str, list[bool]] = {}
    decided: dict[str, list[bool]] = {}
    for kind, actor in KINDS.items():
        merged[kind], split[kind], decided[kind] = [], [], []
        for k, m in RECORDS:

            def merge(a: str = actor, k: str = k, m: str = m) -> int:
                return svc.people.merge(p[k], p[m], actor=a, reason="один человек")

            _, raised = undone(svc, merge)
            assert raised is None or isinstance(raised, RightsDenied), raised
            merged[kind].append(raised is None)

            def both(a: str = actor, k: str = k, m: str = m) -> bool:
                mid = svc.people.merge(p[k], p[m], actor="root")
                with svc.store.read() as s:
                    said = decide(s, a, Act.SPLIT, MergeRef(mid)) is None
                svc.people.split(mid, actor=a)
                return said

            said, raised = undone(svc, both)
            assert raised is None or isinstance(raised, RightsDenied), raised
            split[kind].append(raised is None)
            decided[kind].append(bool(said) and raised is None)
    assert merged == records
    assert split == records
    assert decided == records


def test_the_tournaments_reads_ask_it(world: World) -> None:
    own = parse(TOURNAMENT_TABLE, 2)
    svc = world.svc
    jobs = Jobs(svc.store)
    got: dict[str, list[bool]] = {}
    for kind, actor in KINDS.items():
        outcomes = []

        def log(a: str = actor) -> object:
            return svc.tournaments.audit_log(world.t, actor=a)

        def cancel(a: str = actor) -> object:
            return jobs.cancel(world.t, "seating", actor=a)

        def deadline(a: str = actor) -> object:
            return svc.appeals.filing_deadline(world.t, world.game, ap.Kind.APPEAL, actor=a)

        for call in (log, cancel, deadline):
            _, raised = undone(svc, call)
            assert raised is None or isinstance(raised, ServiceError), raised
            assert raised is None or raised.status < 500, raised
            outcomes.append(not isinstance(raised, RightsDenied))
        assert outcomes[0] == outcomes[1], (kind, "the log and the jobs are the staff's")
        got[kind] = [outcomes[0], outcomes[2]]
    assert got == own
