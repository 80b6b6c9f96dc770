"""The one settings object: the TOML file under the environment under the command line,
a wrong value or an unknown key refused with its name, the file's database reaching every
database command, and the server's settings handed to its worker processes."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from mafiatab.cli import app
from mafiatab.settings import CONFIG_ENV, Settings, SettingsError, load
from mafiatab.storage.engine import resolve_url

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def clean_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in list(os.environ):
        if name.startswith("MAFIATAB_") or name == "FORWARDED_ALLOW_IPS":
            monkeypatch.delenv(name)


def _file(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "mafiatab.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_file_then_environment_then_command_line(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    config = _file(tmp_path, 'port = 8100\nhost = "0.0.0.0"\nworkers = 3\n'
                             'log_format = "json"\nbackup_keep = 5\n')
    s = load(config)
    assert (s.port, s.host, s.workers, s.log_format, s.backup_keep) == (8100, "0.0.0.0", 3,
                                                                        "json", 5)
    monkeypatch.setenv("MAFIATAB_PORT", "8200")
    monkeypatch.setenv("MAFIATAB_WORKERS", "2")
    s = load(config)
    assert (s.port, s.workers, s.host) == (8200, 2, "0.0.0.0")  # the environment over the file
    s = load(config, port=8300, workers=None)
    assert (s.port, s.workers) == (8300, 2)  # the command line over both; None = not given
    monkeypatch.setenv(CONFIG_ENV, str(config))
    assert load().backup_keep == 5  # MAFIATAB_CONFIG names the file
    # a [mafiatab] table is read as well as the top level
    assert load(_file(tmp_path, '[mafiatab]\nhost = "10.0.0.1"\n')).host == "10.0.0.1"
    monkeypatch.delenv("MAFIATAB_PORT")
    assert load(_file(tmp_path, "")).port == Settings.model_fields["port"].default == 8000


def test_wrong_values_and_unknown_keys_are_refused_by_name(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(SettingsError, match="port"):
        load(_file(tmp_path, 'port = "eighty"\n'))
    with pytest.raises(SettingsError, match="unknown settings: prot"):
        load(_file(tmp_path, "prot = 80\n"))
    with pytest.raises(SettingsError, match="log_format"):
        load(_file(tmp_path, 'log_format = "xml"\n'))
    with pytest.raises(SettingsError, match="mafiatab.toml"):
        load(_file(tmp_path, "port = \n"))
    monkeypatch.setenv("MAFIATAB_WORKERS", "0")
    with pytest.raises(SettingsError, match="workers"):
        load()
    monkeypatch.delenv("MAFIATAB_WORKERS")
    r = CliRunner().invoke(app, ["serve", "--config", str(_file(tmp_path, "port = 0\n"))])
    assert r.exit_code == 2 and "port" in r.output


def test_the_files_database_reaches_every_database_command(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "from-file.sqlite"
    folder = tmp_path / "backups"
    folder.mkdir()
    config = _file(tmp_path, f'database_url = "{db}"\nbackup_dir = "{folder}"\n'
                             "backup_keep = 1\n")
    runner = CliRunner()
    monkeypatch.setenv(CONFIG_ENV, str(config))
    assert resolve_url(None).database == str(db)
    assert runner.invoke(app, ["db", "upgrade"]).exit_code == 0
    assert db.exists()
    for _ in range(2):
        r = runner.invoke(app, ["db", "backup", "--lang", "en"])
        assert r.exit_code == 0, r.output
    assert len(list(folder.iterdir())) == 1  # backup_keep from the file
    # the environment's database over the file's
    other = tmp_path / "from-env.sqlite"
    monkeypatch.setenv("MAFIATAB_DATABASE_URL", str(other))
    assert resolve_url(None).database == str(other)
    # --config on the command line instead of the variable
    monkeypatch.delenv(CONFIG_ENV)
    monkeypatch.delenv("MAFIATAB_DATABASE_URL")
    r = runner.invoke(app, ["db", "backup", "--config", str(config), "--lang", "en"])
    assert r.exit_code == 0 and str(db) in r.output


def test_the_server_hands_its_settings_to_its_processes(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from mafiatab.services.jobs import JobLimits
    from mafiatab.web.server import export_settings
    from mafiatab.web.watch import LOG_FORMAT_ENV, TOKEN_ENV

    config = _file(tmp_path, 'metrics_token = "from-file"\nlimits = "memory"\n'
                             'log_format = "json"\nseating_jobs = 3\n')
    settings = load(config)
    for name in (TOKEN_ENV, "MAFIATAB_LIMITS", LOG_FORMAT_ENV, "MAFIATAB_JOBS_RUNNING"):
        monkeypatch.setenv(name, "")  # put back as it was after the test
    export_settings(settings)
    assert os.environ[TOKEN_ENV] == "from-file"
    assert os.environ["MAFIATAB_LIMITS"] == "memory"
    assert os.environ[LOG_FORMAT_ENV] == "json"
    assert JobLimits.from_env().running == 3


def test_every_setting_is_documented() -> None:
    """docs/deploy.md's table names every setting with its variable, and no other."""
    text = (ROOT / "docs" / "deploy.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| `(\w+)` \| `(MAFIATAB_\w+)` \|", text, flags=re.M)
    assert {name for name, _ in rows} == set(Settings.model_fields)
    assert all(var == f"MAFIATAB_{name.upper()}" for name, var in rows)
