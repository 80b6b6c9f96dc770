"""What the container, the compose file and the systemd units run, checked without a
container engine or systemd (test_container.py runs the real thing where an engine
answers):

* the Dockerfile's entrypoint and command with its environment (the settings it gives:
  address, port, database, key file, backup folder) start a server that its HEALTHCHECK
  command calls healthy, that runs as no particular user, and that stops with status 0;
* every `mafiatab` command line in compose.yaml and in the systemd units is one the
  program knows (it answers `--help`), and the units pass `systemd-analyze verify`
  where that tool is.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
MAFIATAB = [sys.executable, "-m", "mafiatab"]


def _dockerfile() -> dict[str, str]:
    """The final stage's instructions (the last of each kind), continuation lines joined."""
    text = re.sub(r"\\\n\s*", " ", (DEPLOY / "Dockerfile").read_text(encoding="utf-8"))
    final = text.split("\nFROM ")[-1]
    found: dict[str, str] = {}
    for line in final.splitlines():
        if line and not line.startswith("#") and " " in line:
            word, rest = line.split(" ", 1)
            if word.isupper():
                found[word] = (found[word] + " " + rest) if word == "ENV" and word in found \
                    else rest
    return found


def _env_of(env_line: str) -> dict[str, str]:
    return dict(re.findall(r"(\w+)=(\S+)", env_line))


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_the_images_entrypoint_and_settings_serve_healthy_and_stop_0(tmp_path: Path) -> None:
    docker = _dockerfile()
    entry, cmd = json.loads(docker["ENTRYPOINT"]), json.loads(docker["CMD"])
    assert entry == ["mafiatab"] and cmd == ["serve"]
    assert docker["USER"] not in ("root", "0")
    health = json.loads(docker["HEALTHCHECK"].split(" CMD ", 1)[1])
    assert health[0] == "mafiatab"
    image_env = _env_of(docker["ENV"])
    assert image_env["MAFIATAB_HOST"] == "0.0.0.0"  # reachable from outside the container
    # the image's folders, here in the test's: /data and /backups
    data, backups = tmp_path / "data", tmp_path / "backups"
    data.mkdir()
    backups.mkdir()
    settings = {k: v.replace("/data", str(data)).replace("/backups", str(backups))
                for k, v in image_env.items() if k.startswith("MAFIATAB_")}
    port = _free_port()
    settings["MAFIATAB_PORT"] = str(port)
    env = {**{k: v for k, v in os.environ.items() if not k.startswith("MAFIATAB_")},
           **settings}
    proc = subprocess.Popen([*MAFIATAB, *cmd],  # the entrypoint is `mafiatab`
                            cwd=data, env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 180

        def check() -> subprocess.CompletedProcess[str]:
            return subprocess.run([*MAFIATAB, *health[1:]], env=env, capture_output=True,
                                  text=True, timeout=120)

        while (probe := check()).returncode != 0:
            assert proc.poll() is None, proc.stderr.read().decode() if proc.stderr else ""
            assert time.monotonic() < deadline, probe.stdout + probe.stderr
            time.sleep(0.2)
        assert '"status": "ok"' in probe.stdout
        # the settings reached the server: its database and key file in /data
        assert (data / "mafiatab.sqlite").exists() and (data / "mafiatab-secret.key").exists()
        assert httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=30).status_code == 200
        # the image's backup folder is the default target of `db backup`
        backup = subprocess.run([*MAFIATAB, "db", "backup", "--lang", "en"], env=env, cwd=data,
                                capture_output=True, text=True, timeout=300)
        assert backup.returncode == 0, backup.stderr
        assert [p.suffix for p in backups.iterdir()] == [".sqlite"]
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(120) == 0
        # a stopped server: the health command says so with status 1
        assert check().returncode == 1
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(30)


def _compose_commands() -> list[list[str]]:
    """The mafiatab command lines of compose.yaml, defaults put in for the variables."""
    text = (DEPLOY / "compose.yaml").read_text(encoding="utf-8")

    def defaults(s: str) -> str:
        return re.sub(r"\$?\$\{\w+:-([^}]*)\}", r"\1", s)

    found = [["mafiatab", *json.loads(defaults(m))]
             for m in re.findall(r"^\s+command: (\[.*\])$", text, flags=re.M)]
    found += [defaults(m).replace('"', "").split()
              for m in re.findall(r"(mafiatab db backup [^;]*);", text)]
    return found


def _unit_commands() -> list[list[str]]:
    found = []
    for unit in sorted((DEPLOY / "systemd").glob("*.service")):
        for line in unit.read_text(encoding="utf-8").splitlines():
            if line.startswith("ExecStart="):
                found.append(line.removeprefix("ExecStart=").split())
    return found


def test_compose_and_unit_commands_are_the_programs() -> None:
    compose, units = _compose_commands(), _unit_commands()
    assert ["mafiatab", "serve", "--workers", "2", "--trust-proxy"] in compose
    assert any(c[:3] == ["mafiatab", "db", "backup"] and "--keep" in c for c in compose)
    assert ["/opt/mafiatab/bin/mafiatab", "serve"] in units
    assert any(c[1:3] == ["db", "backup"] and "--keep" in c for c in units)
    for command in compose + units:
        assert Path(command[0]).name == "mafiatab", command
        r = subprocess.run([*MAFIATAB, *command[1:], "--help"], capture_output=True, text=True,
                           timeout=120, env={**os.environ, "MAFIATAB_LANG": "en"})
        assert r.returncode == 0, (command, r.stderr)
        for option in (a.split("=")[0] for a in command[1:] if a.startswith("--")):
            assert option in r.stdout, (command, option)


def test_systemd_units_verify(tmp_path: Path) -> None:
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        pytest.skip("no systemd-analyze here; the units' commands are checked above")
    program = shutil.which("mafiatab") or str(Path(sys.executable).with_name("mafiatab"))
    assert Path(program).exists()
    for unit in (DEPLOY / "systemd").iterdir():
        text = unit.read_text(encoding="utf-8").replace("/opt/mafiatab/bin/mafiatab", program)
        (tmp_path / unit.name).write_text(text, encoding="utf-8")
    names = sorted(str(p) for p in tmp_path.iterdir())
    assert {Path(n).name for n in names} == {
        "mafiatab.service", "mafiatab-backup.service", "mafiatab-backup.timer"}
    r = subprocess.run([analyze, "verify", *names], capture_output=True, text=True,
                       timeout=120, cwd=tmp_path)
    # it warns (and still exits 0) about a line it ignores: no word about our units at all
    complaints = [line for line in (r.stdout + r.stderr).splitlines() if str(tmp_path) in line
                  or "mafiatab" in line]
    assert r.returncode == 0 and not complaints, r.stdout + r.stderr
