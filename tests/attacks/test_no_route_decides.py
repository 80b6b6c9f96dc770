"""No route decides who may do what: every route module of the web app (src/mafiatab/web)
only parses, calls a service with the actor, and renders; the service refuses (403) inside
its own transaction, the same for the page, the JSON API and the CLI. A route may send a
signed-out visitor to sign in (`require_user`), and nothing else of the kind.

Read from the modules' syntax trees, so a route that checks a role itself again fails
here before any matrix of roles has to notice it:

* no refusal made in the web layer: no 403 (`Forbidden(...)`, `status_code=403`),
  except the two that are no one's role: a write without the session's CSRF token, and
  the operator's metrics (this machine or a token);
* no role helper of its own: no `require_role`, nothing from the rights model
  (`services.rights`), none of the services' own checks (`require_published`, `staff_in`,
  `roles_in`);
* no `if` on a role (`me.has`, `me.is_staff`, `me.organizer`, `me.roles`, a service's
  `may_*`) whose branch raises: what a page *offers* (a link, a button) may follow the
  asker's roles; what he may *do* or *read* is the service's.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

WEB = Path(__file__).resolve().parents[2] / "src" / "mafiatab" / "web"
#: the 403s that are no role's: (module, function)
NOT_ROLES = {("security.py", "check_csrf"), ("watch.py", "metrics")}
#: what refusing for want of a role looks like from the web layer
ROLE_HELPERS = {"require_role", "require_published", "staff_in", "roles_in"}
ROLE_TESTS = {"has", "is_staff", "organizer", "roles"}


def modules() -> list[Path]:
    found = sorted(WEB.glob("*.py"))
    assert len(found) > 15, "the web modules were not found"
    return found


def _name(node: ast.AST) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return ""


def _is_403(call: ast.Call) -> bool:
    if _name(call.func) == "Forbidden":  # the web layer's own 403 (`web.refusals`)
        return True
    values = list(call.args[:1]) + [k.value for k in call.keywords if k.arg == "status_code"]
    return any(isinstance(v, ast.Constant) and v.value == 403 for v in values)


def _asks_a_role(test: ast.AST) -> bool:
    for node in ast.walk(test):
        name = _name(node)
        if name in ROLE_TESTS and isinstance(node, ast.Attribute):
            return True
        if isinstance(node, ast.Call) and _name(node.func).startswith("may_"):
            return True
    return False


def decisions(path: Path) -> list[str]:
    """Every place of the module where the web layer decides by role, with its line."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: list[str] = []
    where = f"{path.name}"

    def visit(node: ast.AST, function: str) -> None:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            function = node.name
        if isinstance(node, ast.ImportFrom) and (node.module or "").endswith("services.rights"):
            found.append(f"{where}:{node.lineno} imports the rights model")
        if isinstance(node, ast.ImportFrom):
            for alias in node.names:
                if alias.name in ROLE_HELPERS:
                    found.append(f"{where}:{node.lineno} imports {alias.name}")
        if isinstance(node, ast.Call):
            name = _name(node.func)
            if name in ROLE_HELPERS:
                found.append(f"{where}:{node.lineno} calls {name}")
            if _is_403(node) and (path.name, function) not in NOT_ROLES:
                found.append(f"{where}:{node.lineno} answers 403 in {function}")
        if isinstance(node, ast.If) and _asks_a_role(node.test) and any(
                isinstance(n, ast.Raise) for b in node.body for n in ast.walk(b)):
            found.append(f"{where}:{node.lineno} refuses by a role in {function}")
        for child in ast.iter_child_nodes(node):
            visit(child, function)

    visit(tree, "")
    return found


@pytest.mark.parametrize("path", modules(), ids=lambda p: p.name)
def test_no_route_module_decides_by_role(path: Path) -> None:
    assert decisions(path) == []


def test_the_scan_finds_what_it_looks_for(tmp_path: Path) -> None:
    """The scan itself can fail: a route written the old way is found on every count."""
    old = tmp_path / "old_route.py"
    old.write_text(
        "from fastapi import HTTPException\n"
        "from mafiatab.services.web_support import STAFF\n"
        "from mafiatab.web.security import require_role, require_user\n"
        "def confirm(me, svc, tid):\n"
        "    user = require_role(me, tid, STAFF)\n"
        "def message(me, svc, tid, case):\n"
        "    user = require_user(me)\n"
        "    if not svc.appeals.may_write(tid, case, user):\n"
        "        raise HTTPException(status_code=403)\n"
        "def ended(me, tid):\n"
        "    if not me.is_staff(tid):\n"
        "        raise HTTPException(403)\n"
        "def shown(me, tid):\n"
        "    return {'staff': me.is_staff(tid)}\n"
        "def refused(me, tid):\n"
        "    raise Forbidden('csrf')\n", encoding="utf-8")
    found = decisions(old)
    assert any("imports require_role" in f for f in found)
    assert any("calls require_role" in f for f in found)
    assert sum("answers 403" in f for f in found) == 3
    assert sum("refuses by a role" in f for f in found) == 2
    # a page's offer (what it shows) by the asker's roles is not a decision
    assert not any(f.startswith("old_route.py:14") for f in found)
