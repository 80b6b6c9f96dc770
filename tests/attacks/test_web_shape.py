"""The web layer answers every refusal one way: no route module raises a bare
`HTTPException` (the web layer's own refusals are `web.refusals`, of the `Refused`
family, answered by the app's one handler) and no route builds a refusal's JSON of its
own (`refusals.problem_body` does). Read from the modules' syntax trees; the shape
itself is asked of the real app in tests/web/test_refusal_shape.py."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

WEB = Path(__file__).resolve().parents[2] / "src" / "mafiatab" / "web"


def _name(node: ast.AST) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return ""


def bare_refusals(path: Path) -> list[str]:
    """Each `HTTPException(...)` made in the module, and each JSON answer whose body is a
    dict literal with an `error` key (a refusal shaped by hand)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: list[str] = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        if _name(node.func) == "HTTPException":
            found.append(f"{path.name}:{node.lineno} HTTPException")
        if _name(node.func) == "JSONResponse" and node.args and isinstance(node.args[0], ast.Dict) \
                and any(isinstance(k, ast.Constant) and k.value == "error"
                        for k in node.args[0].keys):
            found.append(f"{path.name}:{node.lineno} a refusal's JSON by hand")
    return found


def web_modules() -> list[Path]:
    found = sorted(WEB.glob("*.py"))
    assert len(found) > 15, "the web modules were not found"
    return found


@pytest.mark.parametrize("path", web_modules(), ids=lambda p: p.name)
def test_no_bare_http_exception_in_the_web_layer(path: Path) -> None:
    assert bare_refusals(path) == []


def test_the_scan_finds_a_bare_refusal(tmp_path: Path) -> None:
    old = tmp_path / "old_route.py"
    old.write_text(
        "from fastapi import HTTPException\n"
        "from fastapi.responses import JSONResponse\n"
        "def page(tid):\n"
        "    raise HTTPException(status_code=404)\n"
        "def api(tid):\n"
        "    return JSONResponse({'error': 'queue_id'}, status_code=422)\n"
        "def fine(tid):\n"
        "    return JSONResponse({'files': []})\n", encoding="utf-8")
    assert bare_refusals(old) == ["old_route.py:4 HTTPException",
                                  "old_route.py:6 a refusal's JSON by hand"]
