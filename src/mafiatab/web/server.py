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
from typing import TYPE_CHECKING, Annotated

import typer

if TYPE_CHECKING:
    from mafiatab.settings import Settings


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


#: how long a stop waits for the requests still running (a write finishes well within);
#: the event streams are told to end at once, so a stop never waits on an open screen
GRACEFUL_SECONDS = 20


def _stop_cleanly() -> None:
    """Exit status 0 after a stop by SIGTERM (systemd's, docker's): uvicorn stops
    gracefully, then raises the signal again with the handler it found, this one."""
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread():
        return

    def stopped(_signum: int, _frame: object) -> None:
        raise SystemExit(0)

    signal.signal(signal.SIGTERM, stopped)


def export_settings(settings: Settings) -> None:
    """The settings the app reads in each process (`--workers` starts fresh ones), put in
    their environment variables: the metrics token, the sign-in limits' storage, the
    request log's format, the seating jobs."""
    os.environ["MAFIATAB_JOBS_RUNNING"] = str(settings.seating_jobs)
    os.environ["MAFIATAB_LOG_FORMAT"] = settings.log_format
    if settings.metrics_token is not None and settings.metrics_token.get_secret_value():
        os.environ["MAFIATAB_METRICS_TOKEN"] = settings.metrics_token.get_secret_value()
    if settings.limits:
        os.environ["MAFIATAB_LIMITS"] = settings.limits


def run(db: str | None, host: str, port: int, secret_file: Path | None, *,
        certfile: Path | None = None, keyfile: Path | None = None,
        trust_proxy: bool = False, workers: int = 1, forwarded_allow_ips: str | None = None,
        log_format: str = "text") -> None:
    """Serve under uvicorn. The session cookie is Secure on HTTPS requests only: uvicorn's
    own TLS (`certfile`), or a proxy's X-Forwarded-Proto when `trust_proxy` (uvicorn then
    believes the forwarded headers of `forwarded_allow_ips`, by default 127.0.0.1 only).
    With `workers` > 1 uvicorn starts that many processes, each building the app
    (`worker_app`), on one socket. SIGTERM or Ctrl+C stops gracefully: no new
    connections, the event streams end, the requests running finish (`GRACEFUL_SECONDS`
    at most). `log_format` json: uvicorn's own messages as JSON lines too (the requests'
    lines are web/watch.py's)."""
    import uvicorn

    from mafiatab.web.watch import log_config

    check_workers(db, workers)
    _stop_cleanly()
    allowed = forwarded_allow_ips or os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1")
    options: dict[str, object] = dict(
        host=host, port=port, log_level="warning", proxy_headers=trust_proxy,
        forwarded_allow_ips=allowed,
        ssl_certfile=str(certfile) if certfile else None,
        ssl_keyfile=str(keyfile) if keyfile else None,
        timeout_keep_alive=5, limit_concurrency=500, h11_max_incomplete_event_size=64 * 1024,
        timeout_graceful_shutdown=GRACEFUL_SECONDS, log_config=log_config(log_format))
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
    host: Annotated[str | None, typer.Option(
        help="Address to listen on (default 127.0.0.1) / адрес")] = None,
    port: Annotated[int | None, typer.Option(help="Port (default 8000) / порт")] = None,
    user: Annotated[str | None, typer.Option(
        "--add-user", help="Create an account or reset its password (asks it); the first "
        "account is an organizer and the administrator / учётная запись (первая — "
        "организатор и администратор)")] = None,
    secret_file: Annotated[Path | None, typer.Option(
        help="Session key file (default mafiatab-secret.key) / файл ключа сессий")] = None,
    https: Annotated[Path | None, typer.Option(
        "--https", help="TLS certificate (PEM) to serve HTTPS / сертификат для HTTPS")] = None,
    https_key: Annotated[Path | None, typer.Option(
        "--https-key", help="Its private key, if not in the certificate file / ключ")] = None,
    trust_proxy: Annotated[bool | None, typer.Option(
        "--trust-proxy", help="Behind an HTTPS proxy: believe its X-Forwarded-Proto/-For "
        "/ за прокси с HTTPS")] = None,
    workers: Annotated[int | None, typer.Option(
        "--workers", help="Server processes on one socket (PostgreSQL only) / число "
        "процессов (только PostgreSQL)")] = None,
    seating_jobs: Annotated[int | None, typer.Option(
        "--seating-jobs", help="Seating searches running at once on the whole server "
        "/ одновременных подборов рассадки")] = None,
    log_format: Annotated[str | None, typer.Option(
        "--log-format", help="text, or json: one JSON line per request with its id / "
        "журнал запросов")] = None,
    config: Annotated[Path | None, typer.Option(
        "--config", help="Settings file (TOML; default: $MAFIATAB_CONFIG) / файл "
        "настроек")] = None,
) -> None:
    """The web app for a real tournament / веб-приложение.

    Over plain HTTP (a hall's network without certificates) the app works and phones stay
    signed in; the organizer's page says what that means. Cookies are Secure over HTTPS:
    --https with a certificate, or --trust-proxy behind a proxy that serves HTTPS.
    --workers N on PostgreSQL runs N processes that share only the database. Every option
    may come from the environment (MAFIATAB_PORT, ...) or a settings file instead
    (docs/deploy.md).
    """
    from mafiatab.settings import SettingsError, load

    try:
        settings = load(config, database_url=db, host=host, port=port, secret_file=secret_file,
                        https_cert=https, https_key=https_key, trust_proxy=trust_proxy,
                        workers=workers, seating_jobs=seating_jobs, log_format=log_format)
    except SettingsError as e:
        raise typer.BadParameter(str(e), param_hint="settings") from None
    db = settings.database_url
    try:
        check_workers(db, settings.workers)
    except WorkersRefused as e:
        raise typer.BadParameter(str(e), param_hint="--workers") from None
    if settings.secret is not None and settings.secret.get_secret_value():
        os.environ["MAFIATAB_SECRET"] = settings.secret.get_secret_value()
    export_settings(settings)
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
    scheme = "https" if settings.https_cert else "http"
    typer.echo(f"{scheme}://{settings.host}:{settings.port}/")
    run(db, settings.host, settings.port, settings.secret_file, certfile=settings.https_cert,
        keyfile=settings.https_key, trust_proxy=settings.trust_proxy, workers=settings.workers,
        forwarded_allow_ips=settings.forwarded_allow_ips, log_format=settings.log_format)


def health_command(
    url: Annotated[str | None, typer.Option(
        "--url", help="The server's /healthz (default: this machine's, on the port of the "
        "settings) / адрес проверки")] = None,
    config: Annotated[Path | None, typer.Option(
        "--config", help="Settings file (TOML) / файл настроек")] = None,
) -> None:
    """Ask a running server whether it is healthy (its database reachable, its schema
    current): exit 0 if so, 1 if not. The container's HEALTHCHECK runs it / проверка
    работающего сервера."""
    import json
    import ssl
    import urllib.error
    import urllib.request

    from mafiatab.settings import SettingsError, load

    if url is None:
        try:
            settings = load(config)
        except SettingsError as e:
            raise typer.BadParameter(str(e), param_hint="settings") from None
        scheme = "https" if settings.https_cert else "http"
        url = f"{scheme}://127.0.0.1:{settings.port}/healthz"
    # this machine's own server: its certificate names the public host, not 127.0.0.1
    context = ssl._create_unverified_context() if url.startswith("https://127.0.0.1") \
        else None
    try:
        with urllib.request.urlopen(url, timeout=5, context=context) as r:  # noqa: S310
            body = json.loads(r.read())
            status = r.status
    except urllib.error.HTTPError as e:
        body, status = json.loads(e.read() or b"{}"), e.code
    except (OSError, ValueError) as e:
        typer.echo(f"{url}: {e}", err=True)
        raise typer.Exit(1) from None
    typer.echo(f"{url}: {status} {json.dumps(body, ensure_ascii=False)}")
    if status != 200 or body.get("status") != "ok":
        raise typer.Exit(1)
