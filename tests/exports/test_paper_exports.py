"""The spreadsheets carry the paper protocol's columns too (fouls, nominations
and votes per day, who left, explanations, the protest, the video), in words, and a file
with every paper field checks with no unknown field."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import msgspec
from openpyxl import load_workbook
from typer.testing import CliRunner

from mafiatab.cli import app
from mafiatab.domain.protocol import Day, Nomination, Protest, Video, VoteRound
from mafiatab.formats.tournament_json import dumps_tournament, read_tournament
from mafiatab.sample import sample_tournament

runner = CliRunner()


def _file(tmp_path: Path) -> tuple[Path, str]:
    t = sample_tournament("fsm", 10, 2, seed=7)
    g = t.games[0]
    nick = {p.id: p.nickname for p in t.players}[g.player_at(2)]
    paper = msgspec.structs.replace(
        g, fouls={2: 1, 7: 3},
        days=[Day(day=1, nominations=[Nomination(seat=5, by=2), Nomination(seat=9, by=4)],
                  votes=[VoteRound(kind="vote", counts={5: 5, 9: 5}),
                         VoteRound(kind="revote", counts={5: 4, 9: 6}),
                         VoteRound(kind="lift", count=7)],
                  left=[])],
        explanations={4: "лучшая речь дня"},
        protest=Protest(by=7, at="21:40", text="голосование проведено неверно",
                        decision="отклонён"),
        video=Video(url="https://video.example.org/w?v=1", offset=5025))
    t.games = [paper, *t.games[1:]]
    path = tmp_path / "paper.json"
    path.write_text(dumps_tournament(t), encoding="utf-8")
    return path, nick


def test_every_paper_field_checks_with_no_unknown_field(tmp_path: Path) -> None:
    path, _nick = _file(tmp_path)
    r = runner.invoke(app, ["check", str(path), "--json", "--lang", "en"])
    assert r.exit_code == 0, r.output
    report = json.loads(r.output)
    assert not [p for p in report["problems"] if p["code"] == "unknown_field"], report
    back, problems = read_tournament(path.read_text(encoding="utf-8"))
    assert back is not None and back.games[0].video == Video(url="https://video.example.org/w?v=1",
                                                             offset=5025)
    assert back.games[0].days[0].votes[2].count == 7


def test_a_video_that_is_no_web_link_is_refused_on_reading(tmp_path: Path) -> None:
    path, _nick = _file(tmp_path)
    data = json.loads(path.read_text(encoding="utf-8"))
    data["games"][0]["video"] = {"url": "javascript:alert(1)", "offset": 0}
    back, problems = read_tournament(json.dumps(data, ensure_ascii=False))
    assert any(p.field == "video.url" for p in problems)
    assert back is None or back.games[0].video is None


def test_the_spreadsheets_carry_the_paper_fields_in_words(tmp_path: Path) -> None:
    path, nick = _file(tmp_path)
    xlsx, paper = tmp_path / "cup.xlsx", tmp_path / "paper.csv"
    r = runner.invoke(app, ["export-standings", str(path), "--xlsx", str(xlsx),
                            "--paper-csv", str(paper)])
    assert r.exit_code == 0, r.output
    rows = list(csv.reader(io.StringIO(paper.read_text(encoding="utf-8-sig"))))
    assert rows[0][:5] == ["Игра", "Стадия", "Тур", "Стол", "Что"]
    what = {row[4] for row in rows[1:]}
    assert {"фолы", "выставление", "голосование", "переголосование", "голосование за подъём",
            "пояснение судьи", "протест", "решение по протесту", "видео"} <= what
    assert not what & {"vote", "revote", "lift", "fouls"}  # words, not the file's codes
    fouls = next(row for row in rows if row[4] == "фолы" and row[6] == "2")
    assert (fouls[7], fouls[9]) == (nick, "1")
    nomination = next(row for row in rows if row[4] == "выставление" and row[6] == "5")
    assert (nomination[5], nomination[8]) == ("1", "2")
    wb = load_workbook(xlsx)
    assert wb.sheetnames[-1] == "Протоколы"
    sheet = [[c.value for c in line] for line in wb["Протоколы"].iter_rows()]
    assert len(sheet) == len(rows)
    assert any(line[4] == "переголосование" and line[9] == 6 for line in sheet)


def test_fsm_8_9_1_appeal_check_on_the_moscow_clock(tmp_path: Path) -> None:
    """`appeal-check --time-zone`: times without an offset are on the tournament's clock,
    the deadline is shown on it with the zone's name (Moscow is UTC+3)."""
    from tests.helpers import EXAMPLES

    f = str(EXAMPLES / "fsm-20-players.json")
    sched = tmp_path / "schedule.json"
    sched.write_text('{"rounds": [' + ",".join(
        f'{{"stage": "qual", "round": {r}, "day": 1, "starts": "2026-03-07T{9 + r:02d}:00:00+00:00"}}'
        for r in range(1, 7)) + "]}", encoding="utf-8")
    base = ["appeal-check", f, "--game", "g1", "--player", "p012", "--schedule", str(sched),
            "--awarded", "0.8", "--claimed", "1", "--time-zone", "Europe/Moscow"]
    # published 13:55 Moscow = 10:55 UTC; two rounds after it: closed when round 4 starts
    ok = runner.invoke(app, [*base, "--published", "2026-03-07T13:55", "--now", "2026-03-07T14:30"])
    assert ok.exit_code == 0, ok.output
    assert "до 07.03.2026 16:00 (Москва, UTC+3)" in ok.output and "ФСМ 8.9.1" in ok.output
    late = runner.invoke(app, [*base, "--published", "2026-03-07T13:55", "--now", "2026-03-07T16:00"])
    assert late.exit_code == 1 and "07.03.2026 16:00 (Москва, UTC+3)" in late.output
    bad = runner.invoke(app, [*base[:-1], "Mars/Olympus", "--now", "2026-03-07T14:30"])
    assert bad.exit_code == 2


def test_the_head_judges_correction_in_the_spreadsheets_and_the_check(tmp_path: Path) -> None:
    """format 1 `corrections`: no unknown field for `mafiatab check`; the «Протоколы»
    sheet and the paper CSV say «исправлено главным судьёй» with what and why, once for
    the correction and once beside the judge's explanation of the seat it changed."""
    from decimal import Decimal

    from mafiatab.domain.protocol import Change, Correction, SeatScores

    t = sample_tournament("fsm", 10, 2, seed=7)
    g = t.games[0]
    seat = next(s.seat for s in g.seats if s.seat != g.first_killed)
    old = g.scores.get(seat, SeatScores())
    corrected = msgspec.structs.replace(
        g, scores={**g.scores, seat: msgspec.structs.replace(old, extra=Decimal("0.4"))},
        explanations={seat: "+0,8 за точную версию"},
        corrections=[Correction(by="hj", at="2026-03-07T14:05:00Z", reason="версия частичная",
                                changes=[Change(path=f"scores.{seat}.extra", old="0.8",
                                                new="0.4")])])
    t.games = [corrected, *t.games[1:]]
    path = tmp_path / "corrected.json"
    path.write_text(dumps_tournament(t), encoding="utf-8")
    r = runner.invoke(app, ["check", str(path), "--json", "--lang", "en"])
    assert r.exit_code == 0, r.output
    assert not [p for p in json.loads(r.output)["problems"] if p["code"] == "unknown_field"]
    xlsx, paper = tmp_path / "cup.xlsx", tmp_path / "paper.csv"
    r = runner.invoke(app, ["export-standings", str(path), "--xlsx", str(xlsx),
                            "--paper-csv", str(paper)])
    assert r.exit_code == 0, r.output
    sheet = [[c.value for c in line] for line in load_workbook(xlsx)["Протоколы"].iter_rows()]
    marks = [row for row in sheet if row[4] == "исправлено главным судьёй"]
    words = f"место {seat}: доп. балл: +0,8 → +0,4. Причина: версия частичная"
    assert [row[6] for row in marks] == [seat, None]
    assert all(words in str(row[10]) for row in marks)
    rows = list(csv.reader(io.StringIO(paper.read_text(encoding="utf-8-sig"))))
    assert sum(1 for row in rows if "исправлено главным судьёй" in row) == 2
