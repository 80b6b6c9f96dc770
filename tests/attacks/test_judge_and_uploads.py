"""A table's judge and the set-up's uploads.

* The game's video is staff's to set (`PUT .../video`: organizer, head judge; a judge
  gets 403). On main a judge put any link in his protocol draft (`"video": {...}`) and
  it was stored and, once confirmed, shown on the public game page; now a judge's draft
  keeps the stored video (as it keeps the approvals).
* An XLSX of players is a zip: on main a 300 KB upload whose shared strings unpack to
  300 MB took about a gigabyte of the server's memory and five seconds, and the 2 MiB
  the upload allows would take several gigabytes; now the parts' unpacked sizes are
  read first and a workbook of more than 32 MiB unpacked is refused before openpyxl.
"""

from __future__ import annotations

import io
import time
import zipfile
from collections.abc import Callable

from fastapi.testclient import TestClient

from mafiatab.web.demo import HEAD_JUDGE_NAME, ORGANIZER_NAME
from tests.attacks.conftest import World, csrf_of


def test_a_judge_cannot_set_the_video_through_his_draft(
        client_as: Callable[[str], TestClient], world: World) -> None:
    game = world.demo.open_games[0]  # judge1's table
    j = client_as("judge1")
    h = {"X-CSRF-Token": csrf_of(j)}
    assert j.put(f"/api/t/{world.a}/games/{game}/video", json={"url": "https://evil.example/"},
                 headers=h).status_code == 403
    head = j.get(f"/api/t/{world.a}/games/{game}").json()
    sent = dict(head["protocol"], video={"url": "https://evil.example/x", "offset": 0})
    r = j.put(f"/api/t/{world.a}/games/{game}/draft",
              json={"protocol": sent, "base_revision": head["revision"]}, headers=h)
    assert r.status_code == 200, r.text
    assert j.get(f"/api/t/{world.a}/games/{game}").json()["protocol"].get("video") is None
    # the head judge sets it; the judge's next draft keeps it
    hj = client_as(HEAD_JUDGE_NAME)
    r = hj.put(f"/api/t/{world.a}/games/{game}/video",
               json={"url": "https://video.example/final", "offset": 30},
               headers={"X-CSRF-Token": csrf_of(hj)})
    assert r.status_code == 200, r.text
    head = j.get(f"/api/t/{world.a}/games/{game}").json()
    sent = dict(head["protocol"], video={"url": "https://evil.example/y", "offset": 0})
    r = j.put(f"/api/t/{world.a}/games/{game}/draft",
              json={"protocol": sent, "base_revision": head["revision"]}, headers=h)
    assert r.status_code == 200, r.text
    stored = j.get(f"/api/t/{world.a}/games/{game}").json()["protocol"]["video"]
    assert stored == {"url": "https://video.example/final", "offset": 30}
    del sent["video"]  # a draft without the field keeps it too
    r = j.put(f"/api/t/{world.a}/games/{game}/draft",
              json={"protocol": sent, "base_revision": r.json()["revision"]}, headers=h)
    assert r.status_code == 200, r.text
    assert j.get(f"/api/t/{world.a}/games/{game}").json()["protocol"]["video"] == stored


_PARTS = {
    "[Content_Types].xml": (
        '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/'
        'content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-'
        'package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>'
        '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-'
        'officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/'
        'sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.'
        'worksheet+xml"/><Override PartName="/xl/sharedStrings.xml" ContentType="application/'
        'vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/></Types>'),
    "_rels/.rels": (
        '<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/'
        '2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/'
        'officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/>'
        '</Relationships>'),
    "xl/workbook.xml": (
        '<?xml version="1.0"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/'
        '2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/'
        'relationships"><sheets><sheet name="S" sheetId="1" r:id="rId1"/></sheets></workbook>'),
    "xl/_rels/workbook.xml.rels": (
        '<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/'
        '2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/'
        'officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/>'
        '<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/'
        'relationships/sharedStrings" Target="sharedStrings.xml"/></Relationships>'),
    "xl/worksheets/sheet1.xml": (
        '<?xml version="1.0"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/'
        '2006/main"><sheetData><row r="1"><c r="A1" t="s"><v>0</v></c></row></sheetData>'
        '</worksheet>'),
}


def zip_bomb(megabytes: int) -> bytes:
    """A workbook whose one shared string unpacks to `megabytes` MiB (about 1 KB each
    packed)."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as z:
        for name, text in _PARTS.items():
            z.writestr(name, text)
        with z.open("xl/sharedStrings.xml", "w", force_zip64=True) as f:
            f.write(b'<?xml version="1.0"?><sst xmlns="http://schemas.openxmlformats.org/'
                    b'spreadsheetml/2006/main"><si><t>')
            chunk = b"a" * (1 << 20)
            for _ in range(megabytes):
                f.write(chunk)
            f.write(b"</t></si></sst>")
    return buf.getvalue()


def test_an_xlsx_zip_bomb_is_refused_before_it_unpacks(
        client_as: Callable[[str], TestClient], world: World) -> None:
    data = zip_bomb(300)
    assert len(data) < 400_000
    org = client_as(ORGANIZER_NAME)
    csrf = csrf_of(org)
    start = time.perf_counter()
    r = org.post(f"/t/{world.a}/setup/players", data={"csrf": csrf},
                 files={"file": ("players.xlsx", data, "application/vnd.openxmlformats-"
                                 "officedocument.spreadsheetml.sheet")})
    took = time.perf_counter() - start
    assert r.status_code in (400, 413, 422), r.status_code
    assert "MiB" in r.text
    assert took < 2.0, took  # on main: ~5 s and ~1 GB of memory for this one
    # a real workbook still goes in
    from openpyxl import Workbook

    book = Workbook()
    sheet = book.active
    assert sheet is not None
    sheet.append(["nickname", "club"])
    sheet.append(["Xlsx-Одиночка", "Клуб X"])
    out = io.BytesIO()
    book.save(out)
    r = org.post(f"/t/{world.a}/setup/players", data={"csrf": csrf},
                 files={"file": ("players.xlsx", out.getvalue(), "application/octet-stream")})
    assert r.status_code == 200, r.text
    assert "Xlsx-Одиночка" in org.get(f"/t/{world.a}/setup").text


def test_a_csv_with_a_huge_line_or_too_many_lines_is_refused_by_its_lines() -> None:
    """A CSV of players is read line by line within bounds: a line longer than
    `MAX_LINE` is refused beside its number (on main one field over 128 KB raised
    `csv.Error`, a server error), and past `MAX_LINES` the rest is not read."""
    from mafiatab.services.roster import MAX_LINE, MAX_LINES, parse_file

    huge = b"nickname;club\nFine;Club\n" + b"A" * 200_000 + b";X\nAlso fine;Club\n"
    parsed = parse_file(huge, "players.csv")
    assert [e.nickname for e in parsed.entries] == ["Fine", "Also fine"]
    assert [(r.line, r.code) for r in parsed.refused] == [(3, "long_line")]
    assert len(parsed.refused[0].text) <= MAX_LINE + 1
    assert "1000" in parsed.refused[0].reason("ru") or str(MAX_LINE) in parsed.refused[0].reason("en")
    quoted = b'nickname;club\n"' + b"B" * 300_000 + b'";X\n'  # one field across the limit
    parsed = parse_file(quoted, "players.csv")
    assert [(r.line, r.code) for r in parsed.refused] == [(2, "long_line")]
    many = b"nickname;club\n" + b"".join(b"P%d;C\n" % i for i in range(50_000))
    parsed = parse_file(many, "players.csv")
    assert len(parsed.entries) == MAX_LINES
    assert [r.code for r in parsed.refused] == ["too_many_lines"]
    pasted = "\n".join(f"P{i};C" for i in range(50_000))
    from mafiatab.services.roster import parse_text

    parsed = parse_text("Q;C\n" + "Z" * 200_000 + "\n" + pasted)
    assert sorted(r.code for r in parsed.refused) == ["long_line", "too_many_lines"]
    assert len(parsed.entries) == MAX_LINES - 1
