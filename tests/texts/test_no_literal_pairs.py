"""No refusal and no report builds its own `("…Russian…", "…English…")` pair past the
catalogue: an AST scan of the package outside `mafiatab/texts/` (the words of a refusal
are a code of a section with its params; the section is in `texts.SECTIONS`)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from mafiatab import texts

SRC = Path(texts.__file__).resolve().parent.parent
CYRILLIC = re.compile(r"[А-Яа-яЁё]")
#: the calls that write a line of an import report
REPORT_CALLS = {"mapped", "not_mapped", "marked", "lost"}
#: the importers whose report lines are still literal pairs (to move into the catalogue;
#: a file may leave this set, none may join it)
REPORTS_STILL_LITERAL = {"formats/mafiaratings.py", "formats/points_csv.py",
                         "formats/polemica.py"}


def _text(node: ast.AST) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(v.value for v in node.values
                       if isinstance(v, ast.Constant) and isinstance(v.value, str)) or " "
    return None


def _russian(node: ast.AST) -> bool:
    text = _text(node)
    return text is not None and CYRILLIC.search(text) is not None


def _other(node: ast.AST) -> bool:
    text = _text(node)
    return text is not None and CYRILLIC.search(text) is None


def _pair(nodes: list[ast.expr]) -> bool:
    """A Russian literal beside a non-Russian one: the two languages, built here."""
    return any(_russian(n) for n in nodes) and any(_other(n) for n in nodes)


def parse(source: str) -> ast.Module:
    """`ast.parse`, tried again on CPython 3.11's "AST constructor recursion depth
    mismatch": its counter is shared by the threads of a process (the suite runs servers in
    threads), and a parse beside another thread's may trip it without anything wrong."""
    for attempt in range(3):
        try:
            return ast.parse(source)
        except SystemError:
            if attempt == 2:
                raise
    raise AssertionError("unreachable")


def scan(root: Path) -> dict[str, list[tuple[str, int]]]:
    """Every literal pair outside `texts/`, by kind: at a `raise`, assigned to a
    `*_ru`/`*_en` attribute (a stored reason), in an import report's line."""
    found: dict[str, list[tuple[str, int]]] = {"raise": [], "reason": [], "report": []}
    for path in sorted(root.rglob("*.py")):
        rel = path.relative_to(root).as_posix()
        if rel.startswith("texts/"):
            continue
        for node in ast.walk(parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Raise) and node.exc is not None:
                if any(isinstance(sub, ast.Call) and _pair(sub.args + [k.value for k in
                                                                       sub.keywords])
                       or isinstance(sub, ast.Tuple) and _pair(sub.elts)
                       for sub in ast.walk(node.exc)):
                    found["raise"].append((rel, node.lineno))
            elif isinstance(node, ast.Assign) and any(
                    isinstance(t, ast.Attribute) and t.attr.endswith(("_ru", "_en"))
                    or isinstance(t, ast.Tuple) and any(
                        isinstance(e, ast.Attribute) and e.attr.endswith(("_ru", "_en"))
                        for e in t.elts)
                    for t in node.targets):
                if any(_russian(sub) for sub in ast.walk(node.value)):
                    found["reason"].append((rel, node.lineno))
            elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                  and node.func.attr in REPORT_CALLS
                  and any(_russian(sub) for sub in ast.walk(node))):
                found["report"].append((rel, node.lineno))
    return found


def test_no_refusal_builds_its_own_pair_of_languages() -> None:
    """A raise says a code and params (`Refused` family), never `("…", "…")` words."""
    assert scan(SRC)["raise"] == []


def test_no_stored_reason_is_a_literal_pair() -> None:
    """A reason kept in both languages (a job's `reason_ru`/`reason_en`) comes from the
    catalogue's section, not from words written where it is stored."""
    assert scan(SRC)["reason"] == []


def test_report_lines_come_from_the_catalogue() -> None:
    """An import report's lines: no importer but the listed ones writes literal pairs."""
    assert {rel for rel, _ in scan(SRC)["report"]} <= REPORTS_STILL_LITERAL


def test_moved_words_read_in_both_languages_with_their_codes() -> None:
    from mafiatab.cli.seating import BadCommandLine
    from mafiatab.domain.teams import TeamsRefused
    from mafiatab.texts.refusals import JOBS

    bad = BadCommandLine("cli_bad_pin", part="x")
    assert bad.message("ru") == "неверное закрепление «x», нужно ИГРОК:СТОЛ"
    assert bad.message("en") == "bad pin 'x', expected PLAYER:TABLE"
    assert bad.as_dict("en")["problems"][0]["code"] == "cli_bad_pin"
    clubs = BadCommandLine("cli_clubs_not_object")  # literal braces, no placeholder
    assert clubs.message("en") == "clubs file must be a JSON object {player number: club}"
    teams = TeamsRefused(in_two=["p1"], empty=["t2"])
    assert teams.message("ru") == ("игрок p1 входит в две команды; "
                                   "в команде 't2' нет игроков")
    assert [p["code"] for p in teams.as_dict("en")["problems"]] == ["team_in_two",
                                                                      "team_empty"]
    assert JOBS["job_process_lost"][1].startswith("The server process")
