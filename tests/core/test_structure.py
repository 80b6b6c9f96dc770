"""The package's structure rules, read from its source (ast), so that a break fails CI:

* no private name crosses a module: nothing imports `_name` from another mafiatab module,
  nor reaches `module._name` through an imported mafiatab module (a package's own private
  module, such as `seating._kernel`, is its package's business);
* services are composed, never inherited: no class in the package inherits a service
  class (a class of `mafiatab.services` that is built over a `Store`), and no service
  class inherits another class of the package;
* comments say why the code is as it is, not which issue wrote it.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from pathlib import Path

import pytest

import mafiatab

PACKAGE = Path(mafiatab.__file__).resolve().parent


@dataclass(frozen=True)
class Module:
    name: str
    path: Path
    tree: ast.Module


def _modules() -> list[Module]:
    out = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if "migrations" in path.parts:
            continue
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out.append(Module(".".join(parts), path, ast.parse(path.read_text(encoding="utf-8"))))
    return out


MODULES = _modules()


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def _package_of(module: str) -> str:
    return module.rsplit(".", 1)[0]


def _allowed_private_module(importer: str, target: str) -> bool:
    """`seating.optimize` may import `seating._kernel`: one package's private module."""
    head, _, last = target.rpartition(".")
    return _private(last) and _package_of(importer) == head


def private_crossings(modules: list[Module]) -> list[str]:
    names = {m.name for m in modules}
    found: list[str] = []
    for m in modules:
        aliases: dict[str, str] = {}  # local name -> mafiatab module it stands for
        for node in ast.walk(m.tree):
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0 \
                    and node.module.split(".")[0] == "mafiatab":
                for alias in node.names:
                    full = f"{node.module}.{alias.name}"
                    if full in names:  # a module imported from its package
                        aliases[alias.asname or alias.name] = full
                        if _private(alias.name) and not _allowed_private_module(m.name, full):
                            found.append(f"{m.name}:{node.lineno} imports module {full}")
                    elif _private(alias.name):
                        found.append(f"{m.name}:{node.lineno} imports {alias.name} "
                                     f"from {node.module}")
                if any(_private(p) for p in node.module.split(".")) \
                        and not _allowed_private_module(m.name, node.module):
                    found.append(f"{m.name}:{node.lineno} imports from {node.module}")
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name.split(".")[0] == "mafiatab" and alias.asname:
                        aliases[alias.asname] = alias.name
        for node in ast.walk(m.tree):
            if isinstance(node, ast.Attribute) and _private(node.attr) \
                    and isinstance(node.value, ast.Name) and node.value.id in aliases \
                    and aliases[node.value.id] != m.name:
                found.append(f"{m.name}:{node.lineno} uses "
                             f"{aliases[node.value.id]}.{node.attr}")
    return found


def _is_service(node: ast.ClassDef) -> bool:
    """A use-case class: one built over a `Store` (its `__init__` takes one)."""
    for item in node.body:
        if isinstance(item, ast.FunctionDef) and item.name == "__init__":
            for arg in item.args.args[1:] + item.args.kwonlyargs:
                if arg.arg == "store" or (arg.annotation is not None
                                          and ast.unparse(arg.annotation) == "Store"):
                    return True
    return False


def inherited_services(modules: list[Module]) -> list[str]:
    """Every class that inherits a service class, and every service class that inherits
    a class of the package (services are composed: they hold each other)."""
    classes: dict[str, tuple[str, ast.ClassDef]] = {}
    for m in modules:
        for node in ast.walk(m.tree):
            if isinstance(node, ast.ClassDef):
                classes.setdefault(node.name, (m.name, node))
    services = {name for name, (mod, node) in classes.items()
                if mod.startswith("mafiatab.services") and _is_service(node)}
    found = []
    for name, (mod, node) in sorted(classes.items()):
        bases = {ast.unparse(b).rsplit(".", 1)[-1] for b in node.bases}
        for base in sorted(bases):
            if base in services:
                found.append(f"{mod}.{name} inherits the service {base}")
            elif name in services and base in classes and base != "object":
                found.append(f"{mod}.{name} (a service) inherits {base}")
    return found


def test_services_are_composed_not_inherited() -> None:
    assert inherited_services(MODULES) == []


def test_the_services_are_seen() -> None:
    """The check knows the services it guards (a service renamed away from the rule's
    notice would make it pass vacuously)."""
    names = {node.name for m in MODULES if m.name.startswith("mafiatab.services")
             for node in ast.walk(m.tree) if isinstance(node, ast.ClassDef) and _is_service(node)}
    assert {"Accounts", "Access", "Tournaments", "Games", "Protocols", "StandingsBoard",
            "Appeals", "ScreenService", "Exports"} <= names
    fake = Module("mafiatab.services.fake", PACKAGE / "services" / "fake.py", ast.parse(
        "class Store: ...\n"
        "class Base:\n    def __init__(self, store: Store) -> None: ...\n"
        "class Child(Base): ...\n"))
    assert inherited_services([fake]) == ["mafiatab.services.fake.Child inherits the service Base"]


def test_no_private_name_crosses_a_module() -> None:
    assert private_crossings(MODULES) == []


def test_the_checker_sees_a_crossing() -> None:
    """The rule's own check: a made-up module importing a private name is caught."""
    fake = Module("mafiatab.web.fake", PACKAGE / "web" / "fake.py", ast.parse(
        "from mafiatab.cli import _secret\nfrom mafiatab import cli as base\nbase._load()\n"))
    real = [m for m in MODULES if m.name == "mafiatab.cli"]
    assert private_crossings([*real, fake]) == [
        "mafiatab.web.fake:1 imports _secret from mafiatab.cli",
        "mafiatab.web.fake:3 uses mafiatab.cli._load"]


#: a comment or docstring naming the issue that wrote the code, not why the code is so
ISSUE_NOTE = re.compile(r"\bissues? \d+", re.IGNORECASE)


def _issue_notes(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines() if ISSUE_NOTE.search(line)]


def test_comments_say_why_not_which_issue() -> None:
    """Which issue wrote a piece of code belongs in its commit message; the code's own words
    say why it is as it is."""
    package = Path(mafiatab.__file__).parent
    root = Path(__file__).resolve().parents[2]
    places = [package, root / "tests", root / "bench", root / "scripts"]
    found = {str(p): notes
             for place in places for p in sorted(place.rglob("*"))
             if p.suffix in {".py", ".html", ".js", ".css", ".mjs", ""} and p.is_file()
             and "pyodide" not in p.parts and p != Path(__file__).resolve()
             and (notes := _issue_notes(p.read_text("utf-8", errors="replace")))}
    assert found == {}


def test_the_issue_note_check_can_fail() -> None:
    assert _issue_notes("x = 1  # issues 14-15: teams\n") == ["x = 1  # issues 14-15: teams"]
    assert _issue_notes('"""Seating (issue 6, item 3): the page."""\nx = 1\n') == [
        '"""Seating (issue 6, item 3): the page."""']


def import_cycles(package: str) -> list[tuple[str, str]]:
    """Each pair (a, b) where `a` imports `b` directly and `b` leads back to `a`: the edges
    of the package's import cycles (grimp's graph counts every import, those inside
    functions too)."""
    import grimp

    graph = grimp.build_graph(package, cache_dir=None)
    return sorted((m, n) for m in graph.modules for n in graph.find_modules_directly_imported_by(m)
                  if graph.chain_exists(importer=n, imported=m))


def test_no_import_cycle_in_the_package() -> None:
    """Route modules render through `web.rendering`, not through `web.app` (which imports
    them); the middleware gets the public table from the app; teams' Ci lives beside the
    players' in `domain.standings`; the CLI prints problems from `cli.problems`."""
    assert import_cycles("mafiatab") == []


def test_the_cycle_check_can_fail(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pkg = tmp_path / "cyclepkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text("from cyclepkg import b\n")
    (pkg / "b.py").write_text("def f() -> None:\n    from cyclepkg import a\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    assert import_cycles("cyclepkg") == [("cyclepkg.a", "cyclepkg.b"), ("cyclepkg.b", "cyclepkg.a")]


def built_by_the_facade() -> set[str]:
    """The classes `Services.__init__` builds (and the store and the facade itself)."""
    path = Path(__file__).resolve().parents[2] / "src" / "mafiatab" / "services" / "facade.py"
    tree = ast.parse(path.read_text(encoding="utf-8"))
    init = next(n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)
                and n.name == "__init__")
    names = {n.func.id for n in ast.walk(init)
             if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id[:1].isupper()}
    return names | {"Services", "Store", "Jobs"}


def services_built_in(path: Path, services: set[str]) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [f"{path.name}:{n.lineno} builds {n.func.id}" for n in ast.walk(tree)
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in services]


def test_no_route_module_builds_a_service() -> None:
    """The services are built once, by the facade; only the entry points build the facade
    (`create_app`, the `serve` command's account step, the demo's builder)."""
    services = built_by_the_facade()
    assert {"Exports", "SeatingDesk", "MyPageService", "TeamService"} <= services
    web = Path(__file__).resolve().parents[2] / "src" / "mafiatab" / "web"
    found = [f for p in sorted(web.glob("*.py")) if p.name not in ("app.py", "server.py", "demo.py")
             for f in services_built_in(p, services)]
    assert found == []


def test_the_service_scan_can_fail(tmp_path: Path) -> None:
    route = tmp_path / "route.py"
    route.write_text("def desk(svc):\n    return SeatingDesk(svc)\n", encoding="utf-8")
    assert services_built_in(route, built_by_the_facade()) == ["route.py:2 builds SeatingDesk"]
