"""A process killed (SIGKILL) in the middle of an import leaves the database as it was:
the same rows in every table, and SQLite's integrity check passes."""

from __future__ import annotations

import os
import re
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from sqlalchemy import func, select

from mafiatab.formats.tournament_json import dumps_tournament
from mafiatab.sample import sample_tournament
from mafiatab.services.facade import Services
from mafiatab.storage import models as db
from mafiatab.storage.engine import make_engine, upgrade

CLI = [sys.executable, "-c", "from mafiatab.cli import main; main()"]
TABLES = [db.Tournament, db.Player, db.Participant, db.Stage, db.Round, db.GameTable,
          db.Game, db.ProtocolRevision, db.User, db.RoleGrant, db.AuditEntry]


@pytest.fixture(scope="module")
def big_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("big") / "archive.json"
    path.write_text(dumps_tournament(sample_tournament("fsm", 200, 500, seed=9)),
                    encoding="utf-8")
    return path


def _counts(url: str) -> dict[str, int]:
    engine = make_engine(url)
    try:
        with engine.connect() as conn:
            return {m.__tablename__: conn.scalar(select(func.count()).select_from(m)) or 0
                    for m in TABLES}
    finally:
        engine.dispose()


def test_killed_import_leaves_nothing(db_url: str, big_file: Path, example_file: Path) -> None:
    engine = make_engine(db_url)
    upgrade(engine)
    Services(engine).tournaments.import_file(example_file.read_bytes())
    engine.dispose()
    before = _counts(db_url)

    proc = subprocess.Popen([*CLI, "import", str(big_file), "--db", db_url],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert proc.stderr is not None
    seen = ""
    for line in proc.stderr:
        seen += line
        m = re.search(r"(\d+)/(\d+)", line)
        if m and 0 < int(m.group(1)) < int(m.group(2)):
            os.kill(proc.pid, signal.SIGKILL)
            break
    proc.wait(timeout=60)
    assert proc.returncode == -signal.SIGKILL, f"not killed mid-import: {seen}"

    assert _counts(db_url) == before
    if not db_url.startswith("postgresql"):
        with sqlite3.connect(db_url) as conn:
            assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
    # and the database still takes the import
    done = subprocess.run([*CLI, "import", str(big_file), "--db", db_url, "--lang", "en"],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    after = _counts(db_url)
    assert after["games"] == before["games"] + 10_000
    assert after["tournaments"] == before["tournaments"] + 1

