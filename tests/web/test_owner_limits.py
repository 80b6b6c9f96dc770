"""Sign-in limits that slow a guesser without locking the owner out (docs/security.md).

On main, 100 wrong passwords for one account within a minute, from any number of
addresses, refused the account's own correct password too: anyone could keep the head
judge out during a round by guessing her name's password from a few hundred phones. Now
the account's budget of wrong passwords (`per_account_all`) only stops the addresses that
have themselves got this account's password wrong (`per_account_slips` an hour): the owner,
signing in from her own phone, passes; every address of the flood gets its few guesses an
hour and no more.

The limits are the real `Guard` on the real storages (memory, and the database on SQLite
and PostgreSQL), and once through the real app with its real password hashing."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from limits import parse
from sqlalchemy import Engine

from mafiatab.services.facade import Services
from mafiatab.services.rate_limits import DatabaseStorage
from mafiatab.storage.engine import make_engine, upgrade
from mafiatab.web.app import create_app
from mafiatab.web.security import Guard, SignInLimits, TooMany
from tests.storage.conftest import db_url, pg_url, sqlite_url  # noqa: F401 - fixtures

OWNER = "headjudge"
PASSWORD = "owner-secret-pass"


@pytest.fixture
def engine(db_url: str) -> Iterator[Engine]:  # noqa: F811 - the imported fixture
    eng = make_engine(db_url)
    upgrade(eng)
    yield eng
    eng.dispose()


def _flood(guard: Guard, n: int) -> int:
    """`n` wrong passwords for the owner's account, each from an address of its own (a
    botnet's phones); how many were refused before they were tried."""
    refused = 0
    for i in range(n):
        address = f"10.{i // 250}.{i % 250}.1"
        try:
            guard.attempt(address, account=OWNER)
        except TooMany:
            refused += 1
            continue
        guard.failed(address, account=OWNER)
    return refused


@pytest.mark.parametrize("storage", ["memory", "database"])
def test_a_flood_from_many_addresses_does_not_lock_the_owner_out(
        engine: Engine, storage: str) -> None:
    guard = Guard(SignInLimits(), DatabaseStorage(engine) if storage == "database" else None)
    _flood(guard, 130)  # past the account's 100 a minute
    guard.attempt("192.168.1.20", account=OWNER)  # the owner's phone: she passes (main: 429)
    # an address of the flood that got it wrong keeps its few guesses an hour and no more
    flooder = "10.0.7.1"
    tried = 0
    with pytest.raises(TooMany) as e:
        for _ in range(10):
            guard.attempt(flooder, account=OWNER)
            guard.failed(flooder, account=OWNER)
            tried += 1
    assert tried < parse(SignInLimits().per_account_slips).amount
    assert 1 <= e.value.retry_after <= 60  # it is let in again when the budget frees


def test_an_owner_who_mistyped_once_still_passes_during_the_flood() -> None:
    guard = Guard(SignInLimits())
    guard.attempt("192.168.1.20", account=OWNER)
    guard.failed("192.168.1.20", account=OWNER)  # her own typo, before the flood
    _flood(guard, 120)
    guard.attempt("192.168.1.20", account=OWNER)
    # another account is not touched by this one's flood
    guard.attempt("10.0.0.1", account="judge1")


def test_through_the_app_the_owners_password_signs_her_in_during_the_flood(
        tmp_path: Path) -> None:
    db = tmp_path / "owner.sqlite"
    engine = make_engine(str(db))
    upgrade(engine)
    Services(engine).accounts.add_account(OWNER, PASSWORD, actor=OWNER)
    engine.dispose()
    # a small budget, so that the flood is short (the real hashing runs for each guess)
    app = create_app(str(db), secret="owner", limits=SignInLimits(per_account_all="5/minute"))

    def login(address: str, password: str) -> int:
        c = TestClient(app, client=(address, 40000))
        csrf = c.get("/api/session").json()["csrf"]
        return c.post("/api/login", json={"user": OWNER, "password": password},
                      headers={"X-CSRF-Token": csrf}).status_code

    answers = [login(f"10.1.0.{i}", f"guess-{i}") for i in range(1, 9)]
    assert answers == [401] * 8  # each new address gets its guess, and it is wrong
    assert login("10.1.0.1", "guess-again") == 401  # its second: within its few an hour
    assert login("192.168.1.20", PASSWORD) == 200  # main: 429, the owner locked out
    statuses = [login("10.1.0.2", f"more-{i}") for i in range(5)]
    assert statuses[-1] == 429 and statuses.count(401) < 3
