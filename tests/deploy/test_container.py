"""The container image and the compose stack, built and run, where a container engine
answers (`docker info`); skipped, saying why, where none does (then test_entrypoint.py
checks the same entrypoint and settings without one).

The image is built from deploy/Dockerfile offline: the wheels of the program's
dependencies are made on this machine first (`pip wheel`) and put in the build context's
deploy/wheelhouse, so the build needs no index inside the container. It must run as a
user other than root, on a read-only root file system (it writes only its volumes),
become healthy by its own HEALTHCHECK (`mafiatab health`), stop with status 0, and run
any other command through its entrypoint on the same volumes. The compose stack
(deploy/compose.yaml) must serve /healthz through Caddy's TLS, refuse /metrics through
the proxy without the token and show it with the token, run `serve --workers 2` as no
root, and its backup service must write backups, verify them and keep the newest N; a
stop ends the app with status 0 and the backup loop at once.

Where the official postgres and caddy images cannot be pulled (a machine that reaches
Debian's packages but no image registry), stand-ins built from Debian's packages
(tests/deploy/standins) take their place. `MAFIATAB_TEST_IMAGE_BASE` names the base image
(default python:3.11-slim-bookworm) for such a machine too. Slow (several minutes: the
image installs the whole program), hence marked `slow` and run only when asked for with
MAFIATAB_CONTAINER_TESTS=1 (the suite's time budget).
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families

ROOT = Path(__file__).resolve().parents[2]
STANDINS = Path(__file__).resolve().parent / "standins"
BASE = os.environ.get("MAFIATAB_TEST_IMAGE_BASE", "python:3.11-slim-bookworm")

pytestmark = pytest.mark.slow


def _sh(*args: str, timeout: float = 1800, env: dict[str, str] | None = None,
        cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(list(args), capture_output=True, text=True, timeout=timeout,
                          env=env, cwd=cwd)


def _engine() -> None:
    if os.environ.get("MAFIATAB_CONTAINER_TESTS") != "1":
        pytest.skip("the image's build takes about ten minutes: run with "
                    "MAFIATAB_CONTAINER_TESTS=1 where a container engine answers; "
                    "tests/deploy/test_entrypoint.py checks the entrypoint and settings always")
    if shutil.which("docker") is None:
        pytest.skip("no container engine here (no docker command); tests/deploy/"
                    "test_entrypoint.py checks the entrypoint and settings without one")
    info = _sh("docker", "info", timeout=60)
    if info.returncode != 0:
        reason = (info.stderr.strip().splitlines() or ["no answer"])[-1]
        pytest.skip(f"no container engine answers (docker info: {reason}); tests/deploy/"
                    "test_entrypoint.py checks the entrypoint and settings without one")


def _compose() -> list[str]:
    if _sh("docker", "compose", "version", timeout=60).returncode == 0:
        return ["docker", "compose"]
    if shutil.which("docker-compose") and _sh("docker-compose", "version").returncode == 0:
        return ["docker-compose"]
    pytest.skip("no compose (neither `docker compose` nor docker-compose)")


def _image(name: str) -> bool:
    """The image is here, or could be pulled."""
    if _sh("docker", "image", "inspect", name, timeout=60).returncode == 0:
        return True
    return _sh("docker", "pull", name, timeout=900).returncode == 0


def _until(check: Callable[[], bool], what: str, seconds: float = 900) -> None:
    """Wait for a state (the bound only ends a hung test)."""
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, what
        time.sleep(1)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def image(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The program's image, built from deploy/Dockerfile with an offline wheelhouse."""
    _engine()
    if not _image(BASE):
        pytest.skip(f"the base image {BASE} is neither here nor to be pulled; name another "
                    "in MAFIATAB_TEST_IMAGE_BASE")
    context = tmp_path_factory.mktemp("image")
    for name in ("pyproject.toml", "README.md", ".dockerignore"):
        shutil.copy2(ROOT / name, context / name)
    ignore = shutil.ignore_patterns("__pycache__", "wheelhouse")
    shutil.copytree(ROOT / "src", context / "src", ignore=ignore)
    shutil.copytree(ROOT / "deploy", context / "deploy", ignore=ignore)
    wheels = context / "deploy" / "wheelhouse"
    made = _sh(sys.executable, "-m", "pip", "wheel", "-q", str(context), "-w", str(wheels))
    assert made.returncode == 0, made.stderr[-3000:]
    tools = _sh(sys.executable, "-m", "pip", "download", "-q", "setuptools>=77", "wheel",
                "-d", str(wheels))
    assert tools.returncode == 0, tools.stderr[-3000:]
    for own in wheels.glob("mafiatab-*.whl"):  # the image builds the program from source
        own.unlink()
    tag = f"mafiatab-test:{uuid.uuid4().hex[:8]}"
    built = _sh("docker", "build", "-q", "-f", str(context / "deploy" / "Dockerfile"),
                "--build-arg", f"BASE={BASE}", "-t", tag, str(context), timeout=3600)
    assert built.returncode == 0, (built.stdout + built.stderr)[-5000:]
    yield tag
    _sh("docker", "image", "rm", "-f", tag, timeout=300)


def _health(container: str) -> str:
    return _sh("docker", "inspect", "-f", "{{.State.Health.Status}}", container,
               timeout=60).stdout.strip()


def test_the_image_runs_unprivileged_turns_healthy_and_stops_cleanly(image: str) -> None:
    name = f"mafiatab-test-{uuid.uuid4().hex[:8]}"
    port = _free_port()
    # as docs/deploy.md runs it on a hall laptop: named volumes for /data and /backups;
    # and a read-only root: the server writes only those volumes
    volumes = ["-v", f"{name}-data:/data", "-v", f"{name}-backups:/backups"]
    run = _sh("docker", "run", "-d", "--read-only", "--name", name, *volumes,
              "-p", f"127.0.0.1:{port}:8000", image, timeout=300)
    assert run.returncode == 0, run.stderr
    try:
        _until(lambda: _health(name) in ("healthy", "unhealthy"), "no health verdict")
        assert _health(name) == "healthy", _sh("docker", "logs", name).stderr[-3000:]
        uid = _sh("docker", "exec", name, "id", "-u", timeout=60).stdout.strip()
        assert uid == "10001"  # the image's own user, never root
        r = httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=30)
        assert r.status_code == 200 and r.json()["status"] == "ok"
        # SQLite in /data by default; a backup into the image's /backups folder
        backup = _sh("docker", "exec", name, "mafiatab", "db", "backup", "--keep", "3",
                     "--verify", "--lang", "en", timeout=600)
        assert backup.returncode == 0 and "Backup verified" in backup.stdout, backup.stderr
        assert _sh("docker", "stop", "-t", "60", name, timeout=300).returncode == 0
        code = _sh("docker", "inspect", "-f", "{{.State.ExitCode}}", name).stdout.strip()
        assert code == "0", _sh("docker", "logs", name).stderr[-3000:]
        # any command through the entrypoint, on the same volumes: `docker run IMAGE db ...`
        again = _sh("docker", "run", "--rm", "--read-only", *volumes, image, "db", "backup",
                    "--keep", "3", "--verify", "--lang", "en", timeout=600)
        assert again.returncode == 0 and "Backup verified" in again.stdout, again.stderr
        kept = _sh("docker", "run", "--rm", "--entrypoint", "ls", *volumes, image, "/backups",
                   timeout=300).stdout.split()
        assert len(kept) == 2 and all(f.endswith(".sqlite") for f in kept), kept
    finally:
        _sh("docker", "rm", "-f", name, timeout=300)
        _sh("docker", "volume", "rm", f"{name}-data", f"{name}-backups", timeout=300)


def _service_image(official: str, standin: str) -> str:
    if _image(official):
        return official
    tag = f"mafiatab-standin-{standin}:test"
    built = _sh("docker", "build", "-q", "--network", "host", "--build-arg", f"BASE={BASE}",
                "-t", tag, str(STANDINS / standin), timeout=1800)
    assert built.returncode == 0, (built.stdout + built.stderr)[-5000:]
    return tag


def test_the_compose_stack_serves_over_tls_and_backs_up(image: str) -> None:
    compose = _compose()
    project = f"mtdeploy{uuid.uuid4().hex[:8]}"
    https = _free_port()
    env = {**os.environ,
           "POSTGRES_PASSWORD": uuid.uuid4().hex, "MAFIATAB_IMAGE": image,
           "MAFIATAB_POSTGRES_IMAGE": _service_image("postgres:16-bookworm", "postgres"),
           "MAFIATAB_CADDY_IMAGE": _service_image("caddy:2", "caddy"),
           "MAFIATAB_HTTPS_PORT": str(https), "MAFIATAB_HTTP_PORT": str(_free_port()),
           "MAFIATAB_METRICS_TOKEN": "scrape-" + uuid.uuid4().hex,
           "MAFIATAB_BACKUP_EVERY": "2", "MAFIATAB_BACKUP_KEEP": "2"}
    cmd = [*compose, "-p", project, "-f", str(ROOT / "deploy" / "compose.yaml")]
    up = _sh(*cmd, "up", "-d", "--no-build", env=env, cwd=ROOT / "deploy", timeout=1800)
    try:
        assert up.returncode == 0, (up.stdout + up.stderr)[-5000:]
        base = f"https://localhost:{https}"
        client = httpx.Client(verify=False, timeout=30)  # Caddy's own authority (localhost)

        def healthy() -> bool:
            try:
                return client.get(base + "/healthz").status_code == 200
            except httpx.HTTPError:
                return False

        _until(healthy, "/healthz never answered 200 through the proxy")
        r = client.get(base + "/healthz")
        assert r.json()["status"] == "ok" and r.http_version in ("HTTP/1.1", "HTTP/2")
        session = client.get(base + "/api/session")
        assert "secure" in session.headers["set-cookie"].lower()  # HTTPS seen through the proxy
        assert session.headers["x-request-id"]
        # through the proxy /metrics is not local: the token opens it
        assert client.get(base + "/metrics").status_code == 403
        scraped = client.get(base + "/metrics", headers={
            "Authorization": f"Bearer {env['MAFIATAB_METRICS_TOKEN']}"})
        assert scraped.status_code == 200
        names = {f.name for f in text_string_to_metric_families(scraped.text)}
        assert {"mafiatab_http_requests", "mafiatab_event_streams_open"} <= names

        def listing() -> list[str]:
            ls = _sh(*cmd, "exec", "-T", "backup", "ls", "/backups", env=env,
                     cwd=ROOT / "deploy", timeout=120)
            return ls.stdout.split()

        def rotated() -> bool:
            logs = _sh(*cmd, "logs", "backup", env=env, cwd=ROOT / "deploy", timeout=120)
            return "Old backups removed" in logs.stdout

        _until(rotated, "the backup service never rotated its backups")

        def kept() -> bool:
            # while the next backup is written the newest N and the new one are there: the
            # oldest goes only once the new one is whole
            files = listing()
            return 1 <= len(files) <= 2 and all(f.endswith(".dump.gz") for f in files)

        _until(kept, "the backups were never the newest two")
        logs = _sh(*cmd, "logs", "app", env=env, cwd=ROOT / "deploy", timeout=120).stdout
        assert '"logger": "mafiatab.requests"' in logs  # JSON request lines
        # `--workers N`: the server and its worker processes, none of them root
        app = _sh(*cmd, "ps", "-q", "app", env=env, cwd=ROOT / "deploy").stdout.strip()
        backup = _sh(*cmd, "ps", "-q", "backup", env=env, cwd=ROOT / "deploy").stdout.strip()
        def top() -> str:
            return _sh("docker", "top", app, "-o", "pid,user,args", timeout=60).stdout

        # uvicorn replaces a worker that stops answering (a loaded machine): wait for two
        _until(lambda: top().count("--multiprocessing-fork") == 2, "not two worker processes")
        assert "serve --workers 2" in top() and "root" not in top(), top()
        # a stop: the app's graceful stop ends with status 0; the backup loop stops at once
        # rather than being killed when the stop's time is up (status 137)
        stop = _sh(*cmd, "stop", "-t", "120", env=env, cwd=ROOT / "deploy", timeout=600)
        assert stop.returncode == 0, stop.stderr[-3000:]
        codes = {name: _sh("docker", "inspect", "-f", "{{.State.ExitCode}}", cid).stdout.strip()
                 for name, cid in (("app", app), ("backup", backup))}
        assert codes == {"app": "0", "backup": "0"}, codes
    finally:
        down = _sh(*cmd, "down", "-v", "-t", "30", env=env, cwd=ROOT / "deploy", timeout=600)
        assert down.returncode == 0, down.stderr[-3000:]
