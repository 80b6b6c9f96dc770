"""`mafiatab demo` through the command line: its database is kept between starts (what
the newcomer did is still there) unless `--fresh`, and the code it prints is a judge's
with a table waiting for his protocol, a code that signs in."""

from __future__ import annotations

import re
from pathlib import Path

from fastapi.testclient import TestClient

from mafiatab.services.facade import Services
from mafiatab.storage.engine import make_engine
from mafiatab.web.app import create_app
from mafiatab.web.demo import CODE_USER
from tests.cli.test_commands import run

CODE = re.compile(r"Личный код входа судьи (\S+) \(его ждёт стол (\d+)\): ([0-9A-Z]{4}(?:-[0-9A-Z]{4})+)")
KEPT = "База демо сохранена с прошлого запуска"


def _code_and_table(stdout: str) -> tuple[str, int]:
    m = CODE.search(stdout)
    assert m is not None, stdout
    assert m.group(1) == CODE_USER
    return m.group(3), int(m.group(2))


def _check_the_code_opens_its_table(db: Path, code: str, table: int) -> None:
    engine = make_engine(str(db))
    try:
        mine = [g for g in Services(engine).games.overview(1)
                if g.judge == CODE_USER and not g.confirmed_revision]
        assert [g.table for g in mine] == [table]
        c = TestClient(create_app(engine, secret="s"))
        csrf = c.get("/api/session").json()["csrf"]
        r = c.post("/api/login", json={"code": code}, headers={"X-CSRF-Token": csrf})
        assert r.status_code == 200, r.text
        page = c.get("/t/1/judge")
        assert page.status_code == 200
        assert mine[0].code in page.text  # his table's game is there to fill in
    finally:
        engine.dispose()


def _accounts(db: Path) -> set[str]:
    import sqlalchemy as sa

    engine = make_engine(str(db))
    try:
        with engine.connect() as c:
            return {n for (n,) in c.execute(sa.text("SELECT name FROM users"))}
    finally:
        engine.dispose()


def test_demo_keeps_its_database_and_prints_a_judge_with_a_table(tmp_path: Path) -> None:
    db = tmp_path / "mafiatab-demo.sqlite"
    first = run("demo", "--no-serve", cwd=tmp_path)
    assert first.returncode == 0, first.stderr
    assert KEPT not in first.stdout
    code, table = _code_and_table(first.stdout)
    _check_the_code_opens_its_table(db, code, table)
    # the newcomer does something: an account of his own
    engine = make_engine(str(db))
    try:
        Services(engine).accounts.add_account("newcomer", "newcomer-pass-1", actor="organizer")
    finally:
        engine.dispose()

    second = run("demo", "--no-serve", cwd=tmp_path)
    assert second.returncode == 0, second.stderr
    assert KEPT in second.stdout and "mafiatab demo --fresh" in second.stdout
    assert "newcomer" in _accounts(db)
    code2, table2 = _code_and_table(second.stdout)
    assert table2 == table  # the same judge keeps the same table
    _check_the_code_opens_its_table(db, code2, table2)

    fresh = run("demo", "--no-serve", "--fresh", cwd=tmp_path)
    assert fresh.returncode == 0, fresh.stderr
    assert KEPT not in fresh.stdout
    assert "newcomer" not in _accounts(db)
    _check_the_code_opens_its_table(db, *_code_and_table(fresh.stdout))
