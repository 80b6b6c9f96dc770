"""`mafiatab serve` and `mafiatab demo`: the app under uvicorn (one process; SQLite or
PostgreSQL by URL). Kept apart from cli.py so the CLI imports no web code until asked."""

from __future__ import annotations

import os
import secrets
from pathlib import Path
from typing import Annotated

import typer

LOOPBACK = ("127.0.0.1", "localhost", "::1")


def _secret(path: Path | None) -> str:
    """The session-signing key: MAFIATAB_SECRET, else a key file kept beside the data
    (made on first start, readable by its owner only), so sessions outlive a restart."""
    env = os.environ.get("MAFIATAB_SECRET")
    if env:
        return env
    if path is None:
        return secrets.token_urlsafe(32)
    if not path.exists():
        path.write_text(secrets.token_urlsafe(32), encoding="utf-8")
        path.chmod(0o600)
    return path.read_text(encoding="utf-8").strip()


def run(db: str | None, host: str, port: int, secret_file: Path | None) -> None:
    import uvicorn

    from mafiatab.web.app import create_app

    secure = host not in LOOPBACK
    app = create_app(db, secret=_secret(secret_file), secure_cookies=secure)
    uvicorn.run(app, host=host, port=port, log_level="warning", proxy_headers=secure)


def serve_command(
    db: Annotated[str | None, typer.Option("--db", help="Database URL / база данных")] = None,
    host: Annotated[str, typer.Option(help="Address to listen on / адрес")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port / порт")] = 8000,
    user: Annotated[str | None, typer.Option(
        "--add-user", help="Create or reset an account (asks its password) / учётная запись")] = None,
    secret_file: Annotated[Path, typer.Option(help="Session key file")] = Path("mafiatab-secret.key"),
) -> None:
    """The web app for a real tournament / веб-приложение.

    Cookies are marked Secure unless --host is a loopback address: put the app behind
    HTTPS (a reverse proxy) when phones reach it over the hall's network.
    """
    from mafiatab.services.web_support import MIN_PASSWORD, WebService
    from mafiatab.storage.engine import make_engine, upgrade

    engine = make_engine(db)
    upgrade(engine)
    if user:
        password = typer.prompt(f"password for {user}", hide_input=True,
                                confirmation_prompt=True)
        if len(password) < MIN_PASSWORD:
            raise typer.BadParameter(f"at least {MIN_PASSWORD} characters")
        svc = WebService(engine)
        svc.ensure_schema()
        svc.set_password(user, password, actor=user)
    engine.dispose()
    typer.echo(f"http://{host}:{port}/")
    run(db, host, port, secret_file)
