"""The built wheel installs and serves outside the repository, and the light install (no
extras: no numba, OR-Tools, pandas or matplotlib) works and says in words what is missing.

The wheel is built from the repository (`pip wheel --no-deps`) and installed without its
dependencies into a fresh venv in a temporary folder; the dependencies come from this test
run's own environment through a path file (installing 250 MB again would take minutes on
CI's machine, and which dependencies the wheel asks for is checked in its metadata). A
`sitecustomize` on PYTHONPATH makes the extras' modules unimportable, as on a light install.
The processes run in the temporary folder, so nothing is read from the repository or from
`../shared`.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import subprocess
import sys
import sysconfig
import time
import urllib.request
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.helpers import REPO

pytestmark = pytest.mark.slow

#: what the extras bring (and what they bring in turn): unimportable on a light install
HEAVY = ("numba", "llvmlite", "ortools", "pandas", "matplotlib")
BLOCKER = (
    "import sys\n"
    f"for name in {HEAVY!r}:\n"
    "    sys.modules[name] = None  # import fails, importlib.util.find_spec says None\n"
)


@dataclass
class Installed:
    wheel: Path
    venv: Path
    work: Path  # the processes' working folder (outside the repository)
    env: dict[str, str]  # the light install's environment (extras blocked)

    def exe(self, name: str) -> Path:
        return self.venv / "bin" / name

    def run(self, *args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
        return subprocess.run([str(self.exe("mafiatab")), *args], cwd=self.work, env=self.env,
                              capture_output=True, text=True, timeout=timeout)


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Installed]:
    root = tmp_path_factory.mktemp("wheel")
    assert REPO not in root.parents
    # built from a copy of what a source distribution holds: no stale build/ folder of the
    # repository can slip a file into the wheel, and nothing else of the repository is needed
    source = root / "source"
    shutil.copytree(REPO / "src", source / "src",
                    ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(REPO / name, source / name)
    dist = root / "dist"
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "-w",
                    str(dist), str(source)], check=True, timeout=600)
    wheel = next(dist.glob("mafiatab-*.whl"))
    venv = root / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True,
                   timeout=120)
    site = Path(subprocess.run(
        [str(venv / "bin" / "python"), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        check=True, capture_output=True, text=True).stdout.strip())
    subprocess.run([sys.executable, "-m", "pip", "--python", str(venv / "bin" / "python"),
                    "install", "--quiet", "--no-deps", "--no-index", str(wheel)], check=True,
                   timeout=300)
    # the dependencies: this run's site-packages, after the venv's own (where mafiatab is)
    ours = {sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]}
    (site / "zz_dependencies.pth").write_text("\n".join(sorted(ours)) + "\n")
    blocker = root / "light"
    blocker.mkdir()
    (blocker / "sitecustomize.py").write_text(BLOCKER)
    work = root / "work"
    work.mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "MAFIATAB"))}
    env |= {"PYTHONPATH": str(blocker), "HOME": str(work), "MPLCONFIGDIR": str(work / "mpl")}
    yield Installed(wheel, venv, work, env)


def test_the_wheel_holds_the_package_data(installed: Installed) -> None:
    names = set(zipfile.ZipFile(installed.wheel).namelist())
    src = REPO / "src"
    wanted = [p.relative_to(src).as_posix() for p in (src / "mafiatab").rglob("*")
              if p.is_file() and "__pycache__" not in p.parts and p.suffix != ".pyc"]
    assert wanted and not sorted(set(wanted) - names)
    for kind in ("web/templates/", "web/static/", "storage/migrations/versions/",
                 "cli/locale/ru/LC_MESSAGES/messages.mo", "fonts/DejaVuSans.ttf"):
        assert any(n.startswith("mafiatab/" + kind) for n in names), kind


def test_the_wheel_asks_for_the_heavy_parts_only_as_extras(installed: Installed) -> None:
    with zipfile.ZipFile(installed.wheel) as z:
        meta = z.read(next(n for n in z.namelist() if n.endswith(".dist-info/METADATA"))).decode()
    requires = re.findall(r"^Requires-Dist: (.+)$", meta, re.M)
    plain = [r for r in requires if "extra ==" not in r]
    assert plain and not [r for r in plain if r.split()[0].lower().startswith(HEAVY)]
    for extra, package in (("seating", "numba"), ("seating", "ortools"), ("charts", "matplotlib")):
        assert any(r.startswith(package) and f'extra == "{extra}"' in r for r in requires), extra


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _get(url: str) -> tuple[int, str]:
    with urllib.request.urlopen(url, timeout=30) as r:
        return r.status, r.read().decode()


def test_the_light_install_serves_from_the_wheel(installed: Installed) -> None:
    where = subprocess.run([str(installed.exe("python")), "-c",
                            "import mafiatab, sys; print(mafiatab.__file__); "
                            "print('numba' in sys.modules and sys.modules['numba'] is None)"],
                           cwd=installed.work, env=installed.env, capture_output=True, text=True,
                           check=True)
    module, blocked = where.stdout.split()
    assert Path(module).is_relative_to(installed.venv) and blocked == "True"

    built = installed.run("demo", "--no-serve", "--lang", "en")
    assert built.returncode == 0, built.stderr
    db = installed.work / "mafiatab-demo.sqlite"
    port = _port()
    proc = subprocess.Popen([str(installed.exe("mafiatab")), "serve", "--db", str(db),
                             "--port", str(port)], cwd=installed.work, env=installed.env,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 120  # a state, waited for; the bound only ends a hang
        while True:
            assert proc.poll() is None, proc.stdout.read() if proc.stdout else ""
            try:
                status, body = _get(base + "/healthz")
                if status == 200:
                    break
            except OSError:
                pass
            assert time.monotonic() < deadline, "the server did not answer /healthz"
            time.sleep(0.2)
        status, page = _get(base + "/")
        assert status == 200
        tid = re.search(r'href="/t/(\d+)', page)
        assert tid, page[:2000]
        status, standings = _get(f"{base}/t/{tid.group(1)}")
        # the standings say in words where their charts would be, with the install command
        assert status == 200 and 'id="charts-missing"' in standings
        assert "Графики не установлены" in standings and "mafiatab[charts]" in standings
        assert "/charts/roles.svg" not in standings
        # a chart's own address, on a light install: a picture of the same words
        status, svg = _get(f"{base}/t/{tid.group(1)}/charts/roles.svg")
        assert status == 200 and svg.startswith("<svg")
        assert "Графики не установлены" in svg and "mafiatab[charts]" in svg
    finally:
        proc.terminate()
        proc.wait(timeout=60)


def test_the_light_install_prints_and_says_what_is_missing(installed: Installed) -> None:
    demo_file = installed.work / "mafiatab-demo.json"
    if not demo_file.exists():
        made = installed.run("demo", "--no-serve")
        assert made.returncode == 0, made.stderr
    # the printouts need no extra: the font is the package's own
    pdf = installed.work / "standings.pdf"
    printed = installed.run("print", "standings", str(demo_file), "-o", str(pdf))
    assert printed.returncode == 0, printed.stderr
    assert pdf.read_bytes().startswith(b"%PDF")
    # the seating generator and the charts: words and the command, in each language
    seating = installed.run("seating", "--players", "20", "--games", "10")
    assert seating.returncode == 1
    assert "Генератор рассадки не установлен" in seating.stderr, seating.stderr
    assert f"{installed.exe('python')} -m pip install 'mafiatab[seating]'" in seating.stderr
    seating_en = installed.run("seating", "--players", "20", "--games", "10", "--lang", "en")
    assert "The seating generator is not installed" in seating_en.stderr, seating_en.stderr
    charts = installed.run("charts", str(demo_file), "--out", str(installed.work / "charts"),
                           "--lang", "en")
    assert charts.returncode == 1 and not (installed.work / "charts").exists()
    assert "Charts are not installed" in charts.stderr, charts.stderr
    assert "-m pip install 'mafiatab[charts]'" in charts.stderr


def test_the_wheel_reads_nothing_of_the_repository(installed: Installed) -> None:
    """mafiatab runs with neither the repository's sources nor ../shared on its paths (only
    the dependencies' folder of this run, which may lie in the repository's .venv)."""
    paths = subprocess.run([str(installed.exe("python")), "-c",
                            "import json, sys, mafiatab.web.app; print(json.dumps(sys.path))"],
                           cwd=installed.work, env=installed.env, capture_output=True,
                           text=True, check=True)
    deps = Path(sys.prefix).resolve()
    for p in json.loads(paths.stdout):
        path = Path(p or installed.work).resolve()
        assert not path.is_relative_to(REPO.parent / "shared"), p
        assert path.is_relative_to(deps) or not path.is_relative_to(REPO), p
