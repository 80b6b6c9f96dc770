"""Properties of the rights order over random accounts (hypothesis): nobody climbs.

* Taking over an account gives nothing new: whoever may reset B's password (or change
  B's rights), and B may act on C, may act on C himself (C not being him): a chain of
  takeovers never reaches an account its first link could not.
* An actor without the administrator right acts only on accounts that hold no global
  right and whose every role is in a tournament he organizes, and never on himself.

The accounts are made in memory (`Known` filled by hand): `decide` reads nothing more."""

from __future__ import annotations

from typing import cast

from hypothesis import given, settings
from hypothesis import strategies as st
from sqlalchemy.orm import Session

from mafiatab.services.rights import AccountRef, Act, Holder, Known, decide
from mafiatab.storage.models import ORGANIZER, ROLES

TOURNAMENTS = (1, 2, 3)
NO_DATABASE = cast(Session, None)


@st.composite
def holders(draw: st.DrawFn, name: str) -> Holder:
    roles = draw(st.dictionaries(st.sampled_from(TOURNAMENTS),
                                 st.frozensets(st.sampled_from(ROLES), min_size=1),
                                 max_size=3))
    return Holder(name, True, True, draw(st.booleans()), draw(st.booleans()), roles)


def known(*accounts: Holder) -> Known:
    k = Known()
    k.holders.update({h.name: h for h in accounts})
    k.names.update({t: f"T{t}" for t in TOURNAMENTS})
    return k


def may(k: Known, actor: str, act: Act, target: str) -> bool:
    return decide(NO_DATABASE, actor, act, AccountRef(target), known=k) is None


@settings(max_examples=400, deadline=None)
@given(holders("a"), holders("b"), holders("c"),
       st.sampled_from([Act.RESET_PASSWORD, Act.SET_RIGHTS]))
def test_a_takeover_reaches_nothing_new(a: Holder, b: Holder, c: Holder, act: Act) -> None:
    k = known(a, b, c)
    for first, second, third in (("a", "b", "c"), ("b", "c", "a"), ("c", "a", "b")):
        if (may(k, first, Act.RESET_PASSWORD, second)
                and may(k, second, act, third) and third != first):
            assert may(k, first, act, third), (first, second, third)


@settings(max_examples=400, deadline=None)
@given(holders("a"), holders("b"), st.sampled_from([Act.RESET_PASSWORD, Act.SET_RIGHTS]))
def test_an_actor_holds_every_right_of_whom_he_acts_on(a: Holder, b: Holder, act: Act) -> None:
    k = known(a, b)
    assert not may(k, "a", act, "a")
    if not may(k, "a", act, "b"):
        return
    assert a.admin or (act is Act.RESET_PASSWORD and a.organizer)
    if not a.admin:
        assert not b.admin and not b.organizer
        assert b.roles, "an account with no role is the administrator's"
        assert all(ORGANIZER in a.roles.get(t, ()) for t in b.roles)


@settings(max_examples=400, deadline=None)
@given(holders("a"), holders("b"))
def test_restoring_an_archived_role_reaches_whom_a_reset_reaches(a: Holder, b: Holder) -> None:
    """An archive import restores a role on another's account exactly when the importer
    could reset that account's password: the archive hands him nobody new."""
    k = known(a, b)
    assert may(k, "a", Act.RESTORE_ROLE, "b") == may(k, "a", Act.RESET_PASSWORD, "b")
    assert may(k, "a", Act.RESTORE_ROLE, "a") == (a.admin or a.organizer)
