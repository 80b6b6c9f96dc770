"""The server's settings, one object: built-in defaults, then a TOML file, then the
environment (`MAFIATAB_…`), then the command line, each overriding the one before.

Why pydantic-settings: it reads the environment and a TOML file into one typed, checked
object, so a wrong value (`MAFIATAB_PORT=eighty`) stops the program at start with the
setting's name, instead of failing later somewhere inside. Every setting is documented in
docs/deploy.md (a test keeps the list and the document alike).

The file is the one `--config FILE` names, else `MAFIATAB_CONFIG`, else none: a program
that reads a file nobody asked for surprises an operator. Its keys are the settings' names
below (`database_url = "postgresql://…"`), at the top level or under `[mafiatab]`.

Read when needed, never cached: a test or a command sets the environment and the next
read sees it.
"""

from __future__ import annotations

import os
import tomllib
from pathlib import Path
from typing import Any, Final, Literal

from pydantic import Field, SecretStr, ValidationError
from pydantic_settings import BaseSettings, PydanticBaseSettingsSource, SettingsConfigDict

#: the environment variable naming the settings file
CONFIG_ENV: Final = "MAFIATAB_CONFIG"


class SettingsError(Exception):
    """A settings file that cannot be read, or a value that is not what its setting takes."""


class Settings(BaseSettings):
    """Every setting of the server and of the database commands (names as in the TOML
    file; the environment variable is `MAFIATAB_` and the name in capitals)."""

    model_config = SettingsConfigDict(env_prefix="MAFIATAB_", extra="ignore",
                                      validate_default=True)

    database_url: str | None = Field(
        None, description="Database: a SQLite file or postgresql://user@host/db "
        "(default: ./mafiatab.sqlite)")
    host: str = Field("127.0.0.1", description="Address `serve` listens on")
    port: int = Field(8000, ge=1, le=65535, description="Port `serve` listens on")
    workers: int = Field(1, ge=1, le=64, description="Server processes (more than one: "
                         "PostgreSQL only)")
    seating_jobs: int = Field(1, ge=1, le=64, description="Seating searches running at "
                              "once on the whole server")
    secret: SecretStr | None = Field(None, description="Session-signing key (else the key "
                                     "file)")
    secret_file: Path = Field(Path("mafiatab-secret.key"), description="Session key file, "
                              "made on first start (0600)")
    trust_proxy: bool = Field(False, description="Behind a reverse proxy: believe its "
                              "X-Forwarded-Proto/-For")
    forwarded_allow_ips: str | None = Field(
        None, description="The proxies whose forwarded headers are believed (comma-separated "
        "addresses, `*` any; default: $FORWARDED_ALLOW_IPS, else 127.0.0.1)")
    https_cert: Path | None = Field(None, description="TLS certificate (PEM) for HTTPS "
                                    "without a proxy")
    https_key: Path | None = Field(None, description="Its private key")
    log_format: Literal["text", "json"] = Field(
        "text", description="`json`: one JSON line per request on stderr, with its id")
    metrics_token: SecretStr | None = Field(None, description="Bearer token that opens "
                                            "/metrics from other machines")
    limits: str = Field("", description="Where sign-in counts live: memory, database or "
                        "redis://… (default: memory on SQLite, the database on PostgreSQL)")
    backup_dir: Path | None = Field(None, description="Folder of `db backup` without a "
                                    "target")
    backup_keep: int = Field(14, ge=1, description="Backups `db backup` keeps in a folder "
                             "(the oldest go)")

    @classmethod
    def settings_customise_sources(
        cls, settings_cls: type[BaseSettings], init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource, dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        # the command line (init), then the environment, then the file (`load` hands it
        # over as the lowest init layer): no .env files, no secrets folder
        return init_settings, env_settings


def _file_values(path: Path) -> dict[str, Any]:
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as e:
        raise SettingsError(f"{path}: {e.strerror or e}") from None
    except tomllib.TOMLDecodeError as e:
        raise SettingsError(f"{path}: {e}") from None
    section = data.get("mafiatab", data)
    if not isinstance(section, dict):
        raise SettingsError(f"{path}: [mafiatab] is a table")
    unknown = sorted(set(section) - set(Settings.model_fields) - {"mafiatab"})
    if unknown:
        raise SettingsError(f"{path}: unknown settings: {', '.join(unknown)}")
    return {k: v for k, v in section.items() if k != "mafiatab"}


def load(config: Path | None = None, **cli: Any) -> Settings:
    """The settings: `cli` (the command line's options; None = not given) over the
    environment over the file (`config`, else MAFIATAB_CONFIG) over the defaults."""
    path = config if config is not None else (Path(os.environ[CONFIG_ENV])
                                              if os.environ.get(CONFIG_ENV) else None)
    file_values = _file_values(path) if path is not None else {}
    given = {k: v for k, v in cli.items() if v is not None}
    # the file is the lowest layer: its values only where neither the environment nor
    # the command line gives one
    below = {k: v for k, v in file_values.items()
             if k not in given and f"MAFIATAB_{k.upper()}" not in os.environ}
    try:
        return Settings(**{**below, **given})
    except ValidationError as e:
        problems = "; ".join(f"{'.'.join(str(p) for p in err['loc'])}: {err['msg']}"
                             for err in e.errors())
        raise SettingsError(problems) from None


def database_url() -> str | None:
    """The database setting alone (what `--db` falls back to), never failing on another
    setting's bad value: the file commands and the database commands need only this."""
    raw = os.environ.get("MAFIATAB_DATABASE_URL")
    if raw:
        return raw
    path = os.environ.get(CONFIG_ENV)
    if path:
        value = _file_values(Path(path)).get("database_url")
        return str(value) if value else None
    return None
