"""On the web, every live event keeps its wall-clock time, shown on
the tournament's clock; a game's video gives each event a timecode link on the game page
and in an appeal's thread; the tournament's zone is the organizer's to set."""

from __future__ import annotations

import html
import json
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from fastapi.testclient import TestClient

from tests.web.conftest import World, csrf_of
from tests.web.test_live import ROLES, Table, fresh_table

VIDEO = "https://video.example.org/watch?v=final-2026"


def _iso(at: datetime) -> str:
    return at.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _h(c: TestClient) -> dict[str, str]:
    return {"X-CSRF-Token": csrf_of(c)}


@pytest.fixture(scope="module")
def played(world: World, client_for: Callable[[str], TestClient]) -> dict[str, Any]:
    """The open table's first events, tapped with the screen's own times: the deal five
    minutes ago, seat 1's speech a minute later; one tap from a phone whose clock is an
    hour ahead, one from two days ago (both get the server's time)."""
    org = client_for("organizer")
    r = org.put(f"/api/t/{world.demo.tournament}/time-zone", headers=_h(org),
                json={"time_zone": "Europe/Moscow"})
    assert r.status_code == 200, r.text
    t = fresh_table(world, client_for)
    now = datetime.now(UTC).replace(microsecond=0)
    deal_at, speech_at = now - timedelta(minutes=5), now - timedelta(minutes=4)
    seq = t.state()["seq"]
    ops = [{"id": "t-deal", "seq": seq + 1, "at": _iso(deal_at),
            "event": {"type": "deal", "roles": ROLES}},
           {"id": "t-s1", "seq": seq + 2, "at": _iso(speech_at),
            "event": {"type": "speech", "seat": 1}},
           {"id": "t-s2", "seq": seq + 3, "at": _iso(now + timedelta(hours=1)),
            "event": {"type": "speech", "seat": 2}},
           {"id": "t-s3", "seq": seq + 4, "at": _iso(now - timedelta(days=2)),
            "event": {"type": "speech", "seat": 3}}]
    r = t.post(ops)
    assert r.status_code == 200, r.text
    return {"table": t, "state": r.json(), "deal": deal_at, "speech": speech_at, "now": now}


def test_every_live_event_keeps_its_time_on_the_tournaments_clock(
        played: dict[str, Any], world: World) -> None:
    state = played["state"]
    events = state["events"][-4:]
    stored = [e["event"]["at"] for e in events]
    assert stored[:2] == [_iso(played["deal"]), _iso(played["speech"])]
    moscow = ZoneInfo("Europe/Moscow")
    assert events[0]["time"] == played["deal"].astimezone(moscow).strftime("%H:%M:%S")
    # an hour ahead or two days old: the server's time, in order, never before the last
    server = [datetime.fromisoformat(x.replace("Z", "+00:00")) for x in stored[2:]]
    for at in server:
        assert played["now"] - timedelta(minutes=1) <= at <= datetime.now(UTC) + timedelta(seconds=1)
    assert stored == sorted(stored)
    # the same batch again: skipped, nothing re-stamped
    t: Table = played["table"]
    again = t.post([{"id": "t-s1", "seq": 1, "event": {"type": "speech", "seat": 1}}])
    assert again.status_code == 200 and again.json()["duplicates"] == 1
    assert [e["event"]["at"] for e in again.json()["events"][-4:]] == stored


def test_the_video_gives_every_event_a_timecode_link(
        played: dict[str, Any], world: World, client_for: Callable[[str], TestClient]) -> None:
    tid, code = world.demo.tournament, world.demo.open_games[0]
    hj = client_for("headjudge")
    judge = client_for("judge1")
    url = f"/api/t/{tid}/games/{code}/video"
    # refused: not a web link, an offset that is no time, a judge (not staff)
    for body, status in (({"url": "javascript:alert(1)", "offset": 0}, 400),
                         ({"url": "https://x.org/v" + "x" * 600, "offset": 0}, 400),
                         ({"url": VIDEO, "offset": "an hour"}, 400),
                         ({"url": VIDEO, "offset": 10 ** 7}, 400)):
        r = hj.put(url, headers=_h(hj), json=body)
        assert r.status_code == status, (body, r.text)
    assert judge.put(url, headers=_h(judge), json={"url": VIDEO, "offset": 0}).status_code == 403
    r = hj.put(url, headers=_h(hj), json={"url": VIDEO, "offset": "1:23:45"})
    assert r.status_code == 200, r.text
    m = hj.get(f"/api/t/{tid}/games/{code}/moments").json()
    assert m["time_zone"] == "Europe/Moscow" and m["video"] == {"url": VIDEO, "offset": 5025}
    first, second = m["moments"][-4], m["moments"][-3]
    assert (first["second"], first["timecode"]) == (5025, "1:23:45")
    assert first["link"] == VIDEO + "&t=5025s"
    assert second["second"] == 5025 + 60 and second["link"].endswith("&t=5085s")
    # the game page: each event's time on the Moscow clock and its timecode link
    page = hj.get(f"/t/{tid}/games/{code}").text
    assert 'id="moments"' in page and "время — Москва (UTC+3)" in page
    assert "Europe/Moscow" not in page  # the zone in words, never its IANA name
    assert html.escape(VIDEO + "&t=5085s") in page and ">1:24:45<" in page
    moscow = ZoneInfo("Europe/Moscow")
    assert played["speech"].astimezone(moscow).strftime("%H:%M:%S") in page
    # the live screen still works on top of the video's revision (its base moved)
    t: Table = played["table"]
    assert t.send(type="speech", seat=4)["events"][-1]["time"]


def test_an_appeal_on_the_game_links_its_moments(
        played: dict[str, Any], world: World, client_for: Callable[[str], TestClient]) -> None:
    tid, code = world.demo.tournament, world.demo.open_games[0]
    hj = client_for("headjudge")
    player = world.open_game(1).seats[0].player
    r = hj.post(f"/api/t/{tid}/games/{code}/appeals", headers=_h(hj),
                json={"kind": "protest", "player": player, "text": "the vote"})
    assert r.status_code == 201, r.text
    case = r.json()["id"]
    page = hj.get(f"/t/{tid}/appeals/{case}").text
    assert 'id="moments"' in page and html.escape(VIDEO + "&t=5025s") in page
    assert "(Москва, UTC+3)" in page  # the filing's time, on the tournament's clock
    assert "Europe/Moscow" not in page
    listing = hj.get(f"/t/{tid}/appeals").text
    assert "Время — Москва (UTC+3)" in listing
    # the IANA name only as the zone select's value, never as text
    assert listing.count("Europe/Moscow") == listing.count('value="Europe/Moscow"') == 1
    # the filing page of the round-1 game: its deadline on the Moscow clock, still open
    from tests.web.appeal_world import appeal_game

    filing = hj.get(f"/t/{tid}/games/{appeal_game(world)}/appeal").text
    line = filing.split('id="deadline-appeal">', 1)[1].split("</p>", 1)[0]
    assert "Подать можно до" in line and "(Москва, UTC+3)" in line, line
    assert "Europe/Moscow" not in filing
    # and in English
    hj.get("/lang/en")
    try:
        filing = hj.get(f"/t/{tid}/games/{appeal_game(world)}/appeal").text
        line = filing.split('id="deadline-appeal">', 1)[1].split("</p>", 1)[0]
        assert "(Moscow, UTC+3)" in line and "Europe/Moscow" not in filing, line
        listing = hj.get(f"/t/{tid}/appeals").text
        assert "Times: Moscow (UTC+3)" in listing
    finally:
        hj.get("/lang/ru")


def test_a_bad_zone_is_refused_with_its_reason(world: World,
                                               client_for: Callable[[str], TestClient]) -> None:
    org = client_for("organizer")
    r = org.put(f"/api/t/{world.demo.tournament}/time-zone", headers=_h(org),
                json={"time_zone": "Moon/Tranquility"})
    assert r.status_code == 400 and "Moon/Tranquility" in r.text
    viewer = client_for("viewer")
    r = viewer.put(f"/api/t/{world.demo.tournament}/time-zone", headers=_h(viewer),
                   json={"time_zone": "UTC"})
    assert r.status_code == 403


def test_times_and_the_video_make_the_round_trip(
        world: World, client_for: Callable[[str], TestClient], tmp_path: Path) -> None:
    """A whole game from the live screen, its video and its paper fields: exported as a
    format-1 file, `mafiatab check` finds no unknown field and the game reads back equal;
    the archive carries the same protocol to a new tournament."""
    from mafiatab.formats.tournament_json import dumps_tournament, read_tournament
    from mafiatab.services.archive import export_archive, import_archive
    from mafiatab.services.facade import Services
    from mafiatab.storage.engine import make_engine
    from tests.web.test_protocol_whole import _play

    tid, code = world.demo.tournament, world.demo.open_games[0]
    t = fresh_table(world, client_for)
    _play(t)
    hj = client_for("headjudge")
    r = hj.put(f"/api/t/{tid}/games/{code}/video", headers=_h(hj),
               json={"url": VIDEO, "offset": 95})
    assert r.status_code == 200, r.text
    head = hj.get(f"/api/t/{tid}/games/{code}", headers=_h(hj)).json()
    protocol = dict(head["protocol"], explanations={"4": "лучшая речь дня"},
                    protest={"by": 7, "at": "21:40", "text": "голосование", "decision": "отклонён"})
    r = hj.put(f"/api/t/{tid}/games/{code}/draft", headers=_h(hj),
               json={"base_revision": head["revision"], "protocol": protocol})
    assert r.status_code == 200, r.text
    engine = make_engine(str(world.db))
    svc = Services(engine)
    stored = svc.games.head(tid, code).game_struct()
    assert stored.video is not None and stored.video.offset == 95
    assert stored.log and all(e.get("at") for e in stored.log)
    whole = svc.tournaments.tournament(tid)
    whole.games = [g for g in whole.games if g.id != code] + [stored]
    path = tmp_path / "cup.json"
    path.write_text(dumps_tournament(whole), encoding="utf-8")
    from typer.testing import CliRunner

    from mafiatab.cli import app

    result = CliRunner().invoke(app, ["check", str(path), "--json", "--lang", "en"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report["sound"], report
    assert not [p for p in report["problems"] if p["code"] == "unknown_field"], report
    back, _problems = read_tournament(path.read_text(encoding="utf-8"))
    assert back is not None and next(g for g in back.games if g.id == code) == stored
    # the archive: exported, imported as a new tournament, the same protocol
    data = export_archive(engine, tid)
    imported = import_archive(engine, actor="operator", operator=True, data=data)
    again = svc.games.head(imported.tournament, code).game_struct()
    assert again.log == stored.log and again.video == stored.video
    assert export_archive(engine, imported.tournament) != b""
    engine.dispose()


def test_the_live_bookkeeping_keeps_only_what_the_log_does_not(
        world: World, client_for: Callable[[str], TestClient]) -> None:
    """A revision keeps the ids of its log's events once, and besides them only
    the operations no longer in the log (an undo, what it took back), so that a retried
    tap is still applied once; the trace of a tap holds the new event, not the log twice."""
    tid, code = world.demo.tournament, world.demo.open_games[0]
    t = fresh_table(world, client_for)
    seq = t.state()["seq"]
    deal = {"id": "k-deal", "seq": seq + 1, "event": {"type": "deal", "roles": ROLES}}
    s1 = {"id": "k-s1", "seq": seq + 2, "event": {"type": "speech", "seat": 1}}
    undo = {"id": "k-undo", "seq": seq + 3, "undo": "k-s1"}
    assert t.post([deal, s1]).status_code == 200
    assert t.post([undo]).status_code == 200
    # the whole queue sent again (the reply was lost): nothing applied twice
    r = t.post([deal, s1, undo])
    assert r.status_code == 200 and r.json()["duplicates"] == 3 and r.json()["applied"] == 0
    hj = client_for("headjudge")
    head = hj.get(f"/api/t/{tid}/games/{code}", headers=_h(hj)).json()
    live = head["protocol"]["live"]
    assert live["ids"] == ["k-deal"] and sorted(live["done"]) == ["k-s1", "k-undo"]
    assert [e["type"] for e in head["protocol"]["log"]] == ["deal"]
    from mafiatab.services.facade import Services
    from mafiatab.storage.engine import make_engine

    engine = make_engine(str(world.db))
    revisions = Services(engine).games.revisions(tid, code)
    engine.dispose()
    undone = revisions[-1].changes  # the undo: seat 1's speech taken back, alone
    assert undone["log.1"][0]["type"] == "speech" and undone["log.1"][1] is None
    assert "log" not in undone and "live.ids" not in undone
