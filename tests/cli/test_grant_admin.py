"""`mafiatab db grant-admin`: the server's operator gives and takes the administrator (or
the organizer) right from the command line; a code account or an unknown one is refused
with words, exit 1."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import select

from mafiatab.services.facade import Services
from mafiatab.storage import models as db
from mafiatab.storage.engine import make_engine, upgrade
from tests.cli.test_commands import run


def _rights(path: Path, user: str) -> tuple[bool, bool]:
    engine = make_engine(str(path))
    try:
        with Services(engine).store.read() as s:
            u = s.scalar(select(db.User).where(db.User.name == user))
            assert u is not None
            return bool(u.organizer), bool(u.admin)
    finally:
        engine.dispose()


def test_grant_and_take_the_admin_right(tmp_path: Path) -> None:
    path = tmp_path / "cli.sqlite"
    engine = make_engine(str(path))
    upgrade(engine)
    svc = Services(engine)
    svc.accounts.add_account("root", "root-password-1", actor="root")
    svc.accounts.add_account("Вера", "vera-password-1", actor="Вера")
    engine.dispose()
    assert _rights(path, "вера") == (False, False)
    r = run("db", "grant-admin", "Вера", "--db", str(path))
    assert r.returncode == 0, r.stderr
    assert "Вера: организатор — нет, администратор — да." in r.stdout
    assert _rights(path, "вера") == (False, True)
    r = run("db", "grant-admin", "вера", "--organizer", "--db", str(path), "--lang", "en")
    assert r.returncode == 0 and "organizer — yes, administrator — yes." in r.stdout
    r = run("db", "grant-admin", "вера", "--take", "--db", str(path))
    assert r.returncode == 0 and _rights(path, "вера") == (True, False)
    r = run("db", "grant-admin", "nobody", "--db", str(path))
    assert r.returncode == 1 and "nobody" in r.stderr and "Traceback" not in r.stderr
