"""`mafiatab awards` end to end: the head judge names an award from the command line (the
same service call as the page); anyone else is refused with exit 1."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from mafiatab.cli import app
from mafiatab.domain import protocol as model
from mafiatab.services.facade import Services
from mafiatab.storage.engine import make_engine, upgrade

runner = CliRunner()


def test_awards_from_the_command_line(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path}/awards.sqlite"
    engine = make_engine(db)
    upgrade(engine)
    svc = Services(engine)
    svc.accounts.add_account("org", "organizer-pass-1", actor="org")
    tid = svc.tournaments.new_tournament("Кубок наград", "fiim2018", actor="org", stages=[
        model.Stage(id="qual", name="Отбор", kind="qualification")])
    svc.roster.add_text(tid, "Альфа;Север\nБета", actor="org")
    svc.access.grant_role(tid, "gs", "head_judge", actor="org")
    engine.dispose()
    refused = runner.invoke(app, ["awards", str(tid), "mvp", "p1", "--as", "org", "--db", db])
    assert refused.exit_code == 1
    assert runner.invoke(app, ["awards", str(tid), "mvp", "p1", "--db", db]).exit_code == 2
    done = runner.invoke(app, ["awards", str(tid), "mvp", "p1", "--as", "gs", "--db", db])
    assert done.exit_code == 0, done.output
    assert "лучший игрок турнира: Альфа" in done.output and "лучший дон: не назначена" in done.output
    listed = runner.invoke(app, ["awards", str(tid), "--json", "--db", db])
    assert json.loads(listed.output)[0] == {"award": "mvp", "player": "p1", "nickname": "Альфа"}
    taken = runner.invoke(app, ["awards", str(tid), "mvp", "-", "--as", "gs", "--db", db,
                                "--lang", "en"])
    assert "MVP: not named" in taken.output
