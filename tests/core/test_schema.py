"""The JSON Schemas `mafiatab schema` publishes describe the files the program really reads
and writes: the shared examples and their standings, what both importers
write (a game log, a crosswalk, a published table with its marks), and `standings --json`
of each; a file the reader refuses for its shape fails the schema too. The copies in
docs/schema/ are what the command prints."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from mafiatab.formats.schema import NAMES, schema_of
from tests.helpers import EXAMPLES, REPO
from tests.importers import polemica_records as pr
from tests.importers.test_points_csv import HISTORICAL
from tests.storage.test_storage_cli import invoke

TOURNAMENT = Draft202012Validator(schema_of("tournament"))
STANDINGS = Draft202012Validator(schema_of("standings"))


def _errors(validator: Draft202012Validator, document: Any) -> list[str]:
    return [f"{e.json_path}: {e.message[:200]}" for e in validator.iter_errors(document)]


def _standings_of(path: Path) -> Any:
    code, out, err = invoke("standings", str(path), "--json")
    assert code == 0, err
    return json.loads(out)


@pytest.fixture(scope="module")
def written(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Files the program wrote: a Polemica import (game logs, the paper protocol's days and
    fouls, a crosswalk) and a lenient table's import (a published table with marks)."""
    folder = tmp_path_factory.mktemp("schema")
    records = folder / "records.json"
    records.write_text(json.dumps(pr.all_records(), ensure_ascii=False), encoding="utf-8")
    table = folder / "historical.csv"
    table.write_text(HISTORICAL, encoding="utf-8")
    out = {"polemica": folder / "polemica.json", "csv": folder / "csv.json"}
    code, _, err = invoke("import-records", "--from", "polemica", str(records), "--out",
                          str(out["polemica"]))
    assert code == 0, err
    code, _, err = invoke("import-records", "--from", "csv", str(table), "--lenient",
                          "--rules", "fsm", "--out", str(out["csv"]))
    assert code == 0, err
    return out


def test_the_schemas_are_valid_json_schemas() -> None:
    for name in NAMES:
        Draft202012Validator.check_schema(schema_of(name))


@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("*.json")), ids=lambda p: p.name)
def test_the_shared_examples_and_their_standings_pass(path: Path) -> None:
    document = json.loads(path.read_text(encoding="utf-8"))
    if path.name.endswith(".standings.json"):
        assert _errors(STANDINGS, document) == []
    else:
        assert _errors(TOURNAMENT, document) == []
        assert _errors(STANDINGS, _standings_of(path)) == []


def test_what_the_program_writes_passes(written: dict[str, Path]) -> None:
    for kind, path in written.items():
        document = json.loads(path.read_text(encoding="utf-8"))
        assert _errors(TOURNAMENT, document) == [], kind
        assert _errors(STANDINGS, _standings_of(path)) == [], kind
    polemica = json.loads(written["polemica"].read_text(encoding="utf-8"))
    assert any(g.get("log") for g in polemica["games"]) and polemica["crosswalk"]
    table = json.loads(written["csv"].read_text(encoding="utf-8"))["published_results"]
    assert any(r.get("marks") for r in table["rows"])  # the lenient table's marks


def _first_example() -> dict[str, Any]:
    path = sorted(p for p in EXAMPLES.glob("*.json") if not p.name.endswith(".standings.json"))[0]
    document: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return document


@pytest.mark.parametrize("where, broken", [
    ("role", lambda t: t["games"][0]["seats"][0].update(role="mafia")),
    ("seats", lambda t: t["games"][0]["seats"].pop()),
    ("seat", lambda t: t["games"][0]["seats"][0].update(seat=11)),
    ("result", lambda t: t["games"][0].update(result="blue")),
    ("rules", lambda t: t.update(rules="fiim2019")),
    ("format", lambda t: t.update(format="mafiatab.tournament/2")),
    ("kind", lambda t: t["stages"][0].update(kind="playoff")),
    ("score key", lambda t: t["games"][0].update(scores={"11": {"extra": 0.2}})),
    ("points", lambda t: t["games"][0].update(scores={"3": {"extra": "много"}})),
    ("misspelt", lambda t: t["games"][0]["seats"][0].update(rol="red")),
])
def test_a_broken_file_fails_the_schema(where: str, broken: Any) -> None:
    document = copy.deepcopy(_first_example())
    assert _errors(TOURNAMENT, document) == []
    broken(document)
    assert _errors(TOURNAMENT, document), where


@pytest.mark.parametrize("name", NAMES)
def test_the_command_prints_the_schema_and_docs_keep_it(name: str) -> None:
    code, out, _ = invoke("schema", name)
    assert code == 0 and json.loads(out) == schema_of(name)
    kept = REPO / "docs" / "schema" / f"{name}-1.json"
    assert json.loads(kept.read_text(encoding="utf-8")) == schema_of(name), (
        f"docs/schema/{name}-1.json is out of date: mafiatab schema {name} > {kept}")


def test_an_unknown_schema_is_a_wrong_command_line() -> None:
    code, _, err = invoke("schema", "protocol")
    assert code == 2 and "tournament, standings" in err


def test_a_file_with_an_exhibition_player_and_its_standings_pass(tmp_path: Path) -> None:
    """An exhibition player (format 1's `players[].exhibition`): the file passes, and its
    standings carry his line under `exhibition`, which the schema knows."""
    document = json.loads(sorted(EXAMPLES.glob("fsm*.json"))[0].read_text(encoding="utf-8"))
    document["players"][0]["exhibition"] = True
    path = tmp_path / "exhibition.json"
    path.write_text(json.dumps(document, ensure_ascii=False), encoding="utf-8")
    assert _errors(TOURNAMENT, document) == []
    standings = _standings_of(path)
    assert [r["player"] for r in standings["exhibition"]] == [document["players"][0]["id"]]
    assert _errors(STANDINGS, standings) == []
