"""`mafiatab day ...` end to end: the same service calls as the pages, on the same data."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from mafiatab.cli import app
from mafiatab.services.checkin import CheckinService
from mafiatab.services.teams import TeamService
from tests.day.conftest import ORGANIZER, PLAYERS, Day
from tests.helpers import EXAMPLES

runner = CliRunner()


def _run(*args: str) -> str:
    result = runner.invoke(app, list(args))
    assert result.exit_code == 0, result.output
    return result.output


def test_the_desk_from_the_command_line(day: Day) -> None:
    tid = day.tournament("CLI cup")
    db = str(day.db)
    first = sorted((g for g in day.svc.games.overview(tid) if g.round == 1), key=lambda g: g.table)
    seats = [s.player for s in sorted(day.svc.games.head(tid, first[1].code).game_struct().seats,
                                      key=lambda s: s.seat)]
    absent = {seats[0], seats[9]} - {"p01"}
    here = [p.id for p in PLAYERS if p.id not in absent]
    assert "Отмечено" in _run("day", "present", str(tid), *here, "--as", ORGANIZER, "--db", db)
    shown = json.loads(_run("day", "no-shows", str(tid), "--as", ORGANIZER, "--db", db, "--json"))
    plan = CheckinService(day.svc.store).next_round(tid, actor=ORGANIZER)
    assert plan is not None
    assert shown["no_shows"] == [{"player": n.player, "table": n.table, "seat": n.seat,
                                  "suggested": n.suggested} for n in plan.no_shows]
    first_ns = plan.no_shows[0]
    assert first_ns.suggested is not None
    _run("day", "replace", str(tid), first_ns.player, first_ns.suggested, "--as", ORGANIZER,
         "--db", db)
    out = _run("day", "reseat", str(tid), "--as", ORGANIZER, "--db", db, "--lang", "en")
    assert "Re-seated" in out
    again = json.loads(_run("day", "no-shows", str(tid), "--as", ORGANIZER, "--db", db,
                            "--json"))
    assert again["no_shows"] == [] and again["metrics"]["club_clashes"] == 0
    refused = runner.invoke(app, ["day", "reseat", str(tid), "--as", "nobody", "--db", db])
    assert refused.exit_code == 1


def test_team_standings_from_the_command_line(day: Day) -> None:
    data = json.loads((EXAMPLES / "fiim2018-30-players-with-final.json").read_text())
    ids = [p["id"] for p in data["players"]]
    data["teams"] = [{"id": f"t{i}", "name": f"Команда {i}", "members": ids[i * 6:i * 6 + 6]}
                     for i in range(5)]
    tid = day.svc.tournaments.import_file(json.dumps(data, ensure_ascii=False).encode(), actor=ORGANIZER)
    shown = json.loads(_run("day", "teams", str(tid), "--db", str(day.db), "--json"))
    rows = TeamService(day.svc.store, day.svc.standings.compute).standings(tid)
    assert [(x["team"], x["place"]) for x in shown] == [(r.team, r.place) for r in rows]


def test_the_command_line_answers_a_team_or_job_refusal_with_exit_1(
        day: Day, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """`TeamsInvalid` and `JobRefused` are of the `Refused` family: `main` lists their
    words in the language asked for and exits 1, no traceback. (No command registers
    teams or queues a job yet, so a one-command app stands in for the command set; the
    refusals are the real services'.)"""
    import sys

    import typer

    import mafiatab.cli as cli
    from mafiatab.services.jobs import Jobs
    from mafiatab.services.teams import parse_teams

    tid = day.tournament("CLI refusals")
    one = typer.Typer()

    @one.command()
    def refuse(what: str, lang: str = "ru") -> None:
        if what == "teams":
            parse_teams("Север: nobody-here", [])
        Jobs(day.svc.store).cancel(tid, "seating", actor="org")

    monkeypatch.setattr(cli, "app", one)
    for argv, words in [
            (["teams"], "игрок «nobody-here» не зарегистрирован в турнире"),
            (["teams", "--lang", "en"], "player 'nobody-here' is not registered"),
            (["job"], "нечего отменять: рассадка не составляется"),
            (["job", "--lang", "en"], "nothing to cancel: no seating is being generated")]:
        monkeypatch.setattr(sys, "argv", ["mafiatab", *argv])
        with pytest.raises(SystemExit) as e:
            cli.main()
        assert e.value.code == 1
        err = capsys.readouterr().err
        assert words in err and "Traceback" not in err
