"""`mafiatab serve` and `mafiatab demo`: the app under uvicorn (SQLite or PostgreSQL by
URL). Kept apart from cli.py so the CLI imports no web code until asked.

`--workers N` (PostgreSQL only) runs N processes on one socket (uvicorn's supervisor).
They share nothing but the database: sessions, sign-in counts, seating jobs and their
proposals, and the stamps that tell the screens of a change all live there, so any
request may reach any process. SQLite stays one process: its single writer and its
file are the laptop-in-the-hall setup, and a second process would only queue on its
write lock.
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path
from typing import Annotated

import typer


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


#: what a worker process of `--workers N` reads its settings from (set by the parent)
WORKER_DB_ENV = "MAFIATAB_WORKER_DB"


class WorkersRefused(Exception):
    """`--workers` > 1 asked of a database that one process must serve."""


def check_workers(db: str | None, workers: int) -> None:
    """Several processes only on PostgreSQL (see the module's text)."""
    from mafiatab.storage.engine import is_sqlite, resolve_url

    if workers < 1:
        raise WorkersRefused("--workers is 1 or more / число процессов — от 1")
    if workers > 1 and is_sqlite(resolve_url(db)):
        raise WorkersRefused(
            "--workers > 1 needs PostgreSQL (--db postgresql://...): a SQLite file is served "
            "by one process. / Несколько процессов (--workers > 1) — только с PostgreSQL: "
            "файл SQLite обслуживает один процесс.")


def worker_app() -> object:
    """The app of one worker process (uvicorn's factory): the database and the session
    key come from the environment the parent set, so every worker signs cookies alike."""
    from mafiatab.web.app import create_app

    return create_app(os.environ[WORKER_DB_ENV], secret=os.environ["MAFIATAB_SECRET"])


def run(db: str | None, host: str, port: int, secret_file: Path | None, *,
        certfile: Path | None = None, keyfile: Path | None = None,
        trust_proxy: bool = False, workers: int = 1) -> None:
    """Serve under uvicorn. The session cookie is Secure on HTTPS requests only: uvicorn's
    own TLS (`certfile`), or a proxy's X-Forwarded-Proto when `trust_proxy` (uvicorn then
    believes the forwarded headers of FORWARDED_ALLOW_IPS, by default 127.0.0.1 only).
    With `workers` > 1 uvicorn starts that many processes, each building the app
    (`worker_app`), on one socket."""
    import uvicorn

    check_workers(db, workers)
    options: dict[str, object] = dict(
        host=host, port=port, log_level="warning", proxy_headers=trust_proxy,
        forwarded_allow_ips=os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1"),
        ssl_certfile=str(certfile) if certfile else None,
        ssl_keyfile=str(keyfile) if keyfile else None,
        timeout_keep_alive=5, limit_concurrency=500, h11_max_incomplete_event_size=64 * 1024)
    if workers > 1:
        from mafiatab.storage.engine import resolve_url

        os.environ["MAFIATAB_SECRET"] = _secret(secret_file)
        os.environ[WORKER_DB_ENV] = resolve_url(db).render_as_string(hide_password=False)
        uvicorn.run("mafiatab.web.server:worker_app", factory=True, workers=workers,
                    **options)  # type: ignore[arg-type]
        return
    from mafiatab.web.app import create_app

    app = create_app(db, secret=_secret(secret_file))
    uvicorn.run(app, **options)  # type: ignore[arg-type]


def serve_command(
    db: Annotated[str | None, typer.Option("--db", help="Database URL / база данных")] = None,
    host: Annotated[str, typer.Option(help="Address to listen on / адрес")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port / порт")] = 8000,
    user: Annotated[str | None, typer.Option(
        "--add-user", help="Create an account or reset its password (asks it); the first "
        "account is an organizer and the administrator / учётная запись (первая — "
        "организатор и администратор)")] = None,
    secret_file: Annotated[Path, typer.Option(help="Session key file")] = Path("mafiatab-secret.key"),
    https: Annotated[Path | None, typer.Option(
        "--https", help="TLS certificate (PEM) to serve HTTPS / сертификат для HTTPS")] = None,
    https_key: Annotated[Path | None, typer.Option(
        "--https-key", help="Its private key, if not in the certificate file / ключ")] = None,
    trust_proxy: Annotated[bool, typer.Option(
        "--trust-proxy", help="Behind an HTTPS proxy: believe its X-Forwarded-Proto/-For "
        "/ за прокси с HTTPS")] = False,
    workers: Annotated[int, typer.Option(
        "--workers", help="Server processes on one socket (PostgreSQL only) / число "
        "процессов (только PostgreSQL)")] = 1,
    seating_jobs: Annotated[int, typer.Option(
        "--seating-jobs", help="Seating searches running at once on the whole server "
        "/ одновременных подборов рассадки")] = 1,
) -> None:
    """The web app for a real tournament / веб-приложение.

    Over plain HTTP (a hall's network without certificates) the app works and phones stay
    signed in; the organizer's page says what that means. Cookies are Secure over HTTPS:
    --https with a certificate, or --trust-proxy behind a proxy that serves HTTPS.
    --workers N on PostgreSQL runs N processes that share only the database.
    """
    try:
        check_workers(db, workers)
    except WorkersRefused as e:
        raise typer.BadParameter(str(e), param_hint="--workers") from None
    os.environ["MAFIATAB_JOBS_RUNNING"] = str(max(1, seating_jobs))
    from mafiatab.services.accounts import MIN_PASSWORD, AccountError
    from mafiatab.services.facade import Services
    from mafiatab.storage.engine import make_engine, upgrade

    engine = make_engine(db)
    upgrade(engine)
    if user:
        password = typer.prompt(f"password for {user}", hide_input=True,
                                confirmation_prompt=True)
        if len(password) < MIN_PASSWORD:
            raise typer.BadParameter(f"at least {MIN_PASSWORD} characters")
        svc = Services(engine)
        try:
            organizer = svc.accounts.add_account(user, password, actor=user)
        except AccountError as e:
            raise typer.BadParameter(e.message("en")) from None
        if organizer:
            typer.echo(f"{user}: организатор и администратор / organizer and administrator")
    engine.dispose()
    scheme = "https" if https else "http"
    typer.echo(f"{scheme}://{host}:{port}/")
    run(db, host, port, secret_file, certfile=https, keyfile=https_key, trust_proxy=trust_proxy,
        workers=workers)
