"""The importer and archive commands end to end, as a user runs them (subprocesses for
the main flows, Typer's runner in-process for the refusals)."""

from __future__ import annotations

import hashlib
import json
import zipfile
from pathlib import Path

from tests.importers import polemica_records as pr
from tests.importers.test_points_csv import HISTORICAL, RU
from tests.storage.conftest import example_files
from tests.storage.test_storage_cli import invoke, run


def _write(path: Path, value: object) -> Path:
    path.write_text(json.dumps(value, ensure_ascii=False), encoding="utf-8")
    return path


def test_polemica_records_to_a_checked_file_with_its_report(tmp_path: Path) -> None:
    a = _write(tmp_path / "day1.json", pr.all_records()[:3])
    b = _write(tmp_path / "day2.json", {"games": pr.all_records()[3:]})
    out, report = tmp_path / "cup.json", tmp_path / "report.json"
    done = run("import-records", "--from", "polemica", str(a), str(b), "--out", str(out),
               "--report", str(report), "--name", "Polemica Cup", "--lang", "en")
    assert done.returncode == 0, done.stderr
    assert "Written to" in done.stdout and "games: 5, players: 12" in done.stdout
    assert "game 328006: game left out: no result" in done.stdout
    check = run("check", str(out), "--lang", "en")
    assert check.returncode == 0 and "5 games" in check.stdout and "Warnings" not in check.stderr
    rep = json.loads(report.read_text(encoding="utf-8"))
    assert rep["format"] == "mafiatab.import-report/1" and rep["files"] == ["day1.json", "day2.json"]
    assert rep["counts"]["not_mapped"] == sum(1 for ln in rep["lines"] if ln["kind"] == "not_mapped")
    # the next import reuses the ids through the first file's crosswalk
    later = pr.red_win()
    later["id"] = 777
    c = _write(tmp_path / "later.json", later)
    out2 = tmp_path / "later-cup.json"
    again = run("import-records", "--from", "polemica", str(c), "--out", str(out2),
                "--crosswalk", str(out), "--lang", "en")
    assert again.returncode == 0, again.stderr
    first = json.loads(out.read_text(encoding="utf-8"))
    second = json.loads(out2.read_text(encoding="utf-8"))
    assert second["crosswalk"]["polemica"]["101"] == first["crosswalk"]["polemica"]["101"]


def test_a_points_table_refused_then_kept_with_lenient(tmp_path: Path) -> None:
    table = tmp_path / "2009.csv"
    table.write_text(HISTORICAL, encoding="utf-8")
    out = tmp_path / "2009.json"
    refused = run("import-records", "--from", "csv", str(table), "--out", str(out),
                  "--lang", "en")
    assert refused.returncode == 1 and not out.exists()
    assert "off today's scales" in refused.stderr and "extra 3.125" in refused.stdout
    kept = run("import-records", "--from", "csv", str(table), "--out", str(out), "--lenient",
               "--lang", "ru")
    assert kept.returncode == 0, kept.stderr
    assert "Оставлено как опубликовано, с пометкой:" in kept.stdout
    assert run("check", str(out)).returncode == 0
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["published_results"]["rows"][0]["extra"] == "3.125"


def test_command_line_refusals(tmp_path: Path) -> None:
    table = tmp_path / "t.csv"
    table.write_text(RU, encoding="utf-8")
    out = str(tmp_path / "o.json")
    code, _, err = invoke("import-records", "--from", "polemica", str(table), "--out", out,
                          "--lenient", "--lang", "en")
    assert code == 2 and "--lenient is for --from csv only" in err
    code, _, err = invoke("import-records", "--from", "csv", str(table), "--out", out,
                          "--rules", "mafia", "--lang", "en")
    assert code == 2
    code, _, err = invoke("import-records", "--from", "polemica", str(table), "--out", out,
                          "--lang", "en")
    assert code == 1 and "not JSON" in err
    junk = _write(tmp_path / "junk.json", [{"id": 1}])
    code, out_text, err = invoke("import-records", "--from", "polemica", str(junk), "--out",
                                 out, "--lang", "en")
    assert code == 1 and "Nothing imported" in err and not Path(out).exists()


def _a_photo(db_url: str) -> None:
    """The first player of tournament 1 gets a photo (our own form, as an upload stores it)."""
    import io

    from PIL import Image
    from sqlalchemy import select
    from sqlalchemy.orm import Session

    from mafiatab.services.photos import normalise
    from mafiatab.storage import models as db
    from mafiatab.storage.engine import make_engine

    raw = io.BytesIO()
    Image.new("RGB", (300, 200), (200, 20, 20)).save(raw, format="PNG")
    image = normalise(raw.getvalue())
    engine = make_engine(db_url)
    with Session(engine) as s, s.begin():
        code = s.scalar(select(db.Participant.code).where(db.Participant.tournament_id == 1)
                        .order_by(db.Participant.position).limit(1))
        s.add(db.PlayerPhoto(tournament_id=1, player_code=code, image=image,
                             digest=hashlib.sha256(image).hexdigest(), by_user="organizer"))
    engine.dispose()


def test_archive_round_trip_through_the_commands(db_url: str, tmp_path: Path) -> None:
    example = example_files()[0]
    assert run("import", str(example), "--db", db_url).returncode == 0
    _a_photo(db_url)
    first, second = tmp_path / "a.zip", tmp_path / "b.zip"
    done = run("db", "export-archive", "1", "--out", str(first), "--db", db_url, "--lang", "en")
    assert done.returncode == 0, done.stderr
    assert "files: 9." in done.stdout, done.stdout  # seven members, the manifest, the photo
    assert any(n.startswith("photos/") for n in zipfile.ZipFile(first).namelist())
    back = run("db", "import-archive", str(first), "--db", db_url, "--lang", "en")
    assert back.returncode == 0, back.stderr
    assert "tournament #2" in back.stdout
    assert run("db", "export-archive", "2", "--out", str(second), "--db",
               db_url).returncode == 0
    assert first.read_bytes() == second.read_bytes()
    broken = tmp_path / "broken.zip"
    broken.write_bytes(first.read_bytes()[:-40])
    code, _, err = invoke("db", "import-archive", str(broken), "--db", db_url, "--lang", "en")
    assert code == 1 and "broken.zip" in err
    code, _, err = invoke("db", "export-archive", "99", "--out", str(tmp_path / "x.zip"),
                          "--db", db_url, "--lang", "en")
    assert code == 1 and "not found" in err
