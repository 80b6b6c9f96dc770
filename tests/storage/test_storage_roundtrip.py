"""Every spec example through each database: import, export, compare; standings equal."""

from __future__ import annotations

from pathlib import Path

from mafiatab.formats.standings_json import standings_to_dict
from mafiatab.formats.tournament_json import tournament_to_dict
from mafiatab.services.facade import Services
from mafiatab.services.tournament_file import load_tournament, standings_of


def test_round_trip_is_lossless(service: Services, example: Path) -> None:
    data = example.read_bytes()
    loaded = load_tournament(data)
    tid = service.tournaments.import_file(data)
    exported = service.tournaments.export(tid)
    assert tournament_to_dict(exported) == tournament_to_dict(loaded.tournament)
    # and the export is itself a sound file that imports again to the same
    again = service.tournaments.import_file(tournament_to_dict_bytes(exported))
    assert tournament_to_dict(service.tournaments.export(again)) == tournament_to_dict(loaded.tournament)


def test_standings_from_db_equal_file(service: Services, example: Path) -> None:
    data = example.read_bytes()
    loaded = load_tournament(data)
    tid = service.tournaments.import_file(data)
    from_file = standings_to_dict(standings_of(loaded))
    assert standings_to_dict(service.standings.compute(tid)) == from_file
    expected = example.with_name(example.stem + ".standings.json")
    if expected.exists():
        import json

        assert from_file["standings"] == json.loads(expected.read_text())["standings"]
    for stage in loaded.tournament.stages:
        assert (standings_to_dict(service.standings.compute(tid, [stage.id]))
                == standings_to_dict(standings_of(loaded, [stage.id])))


def test_players_keep_one_identity(service: Services, example: Path) -> None:
    """The same file twice: two tournaments, the same players (by nickname and club)."""
    from sqlalchemy import func, select

    from mafiatab.storage import models as db

    data = example.read_bytes()
    service.tournaments.import_file(data)
    with service.engine.connect() as conn:
        before = conn.scalar(select(func.count()).select_from(db.Player))
    service.tournaments.import_file(data)
    with service.engine.connect() as conn:
        after = conn.scalar(select(func.count()).select_from(db.Player))
    assert before == after == len(load_tournament(data).tournament.players)


def tournament_to_dict_bytes(t: object) -> bytes:
    from mafiatab.formats.tournament_json import dumps_tournament

    return dumps_tournament(t).encode("utf-8")  # type: ignore[arg-type]


def test_unknown_fields_survive(service: Services, example_file: Path) -> None:
    """Fields the program does not know are kept through the database; their numbers come
    back as written (free-form numbers are held as the JSON reader gives them, floats,
    whose shortest text is the number written)."""
    import json

    from mafiatab.formats.tournament_json import dumps_tournament

    data = json.loads(example_file.read_text(encoding="utf-8"))
    data["sponsor"] = {"name": "Клуб", "budget": 0.1}
    data["games"][0]["venue"] = {"hall": "B", "temperature": 21.5}
    raw = json.dumps(data, ensure_ascii=False).encode("utf-8")
    loaded = load_tournament(raw)
    assert loaded.tournament.other["sponsor"] == {"name": "Клуб", "budget": 0.1}
    tid = service.tournaments.import_file(raw)
    exported = service.tournaments.export(tid)
    assert tournament_to_dict(exported) == tournament_to_dict(loaded.tournament)
    text = dumps_tournament(exported)
    assert '"budget": 0.1' in text and '"temperature": 21.5' in text


def test_sample_tournaments(service: Services) -> None:
    """Generated tournaments of both rule sets, with a final: standings equal the file's."""
    from mafiatab.sample import sample_tournament

    for rules in ("fiim2018", "fsm"):
        t = sample_tournament(rules, 30, 8, seed=4, final_round=True)
        data = tournament_to_dict_bytes(t)
        loaded = load_tournament(data)
        tid = service.tournaments.import_file(data)
        assert tournament_to_dict(service.tournaments.export(tid)) == tournament_to_dict(loaded.tournament)
        assert (standings_to_dict(service.standings.compute(tid))
                == standings_to_dict(standings_of(loaded)))
