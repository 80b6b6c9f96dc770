"""The demo: a tournament made by `sample_tournament`, stored through the service as a
real one would be (players registered, protocols saved, submitted and confirmed by
accounts), with its last qualification round seated and waiting for the judges."""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import Final

from sqlalchemy import Engine

from mafiatab.domain.protocol import Tournament
from mafiatab.domain.standings import Standings
from mafiatab.sample import sample_tournament
from mafiatab.services.facade import Services
from mafiatab.storage.engine import make_engine, upgrade
from mafiatab.storage.models import HEAD_JUDGE, JUDGE, VIEWER

ORGANIZER_NAME: Final = "organizer"
HEAD_JUDGE_NAME: Final = "headjudge"
VIEWER_NAME: Final = "viewer"
DEMO_PASSWORD: Final = "demo-pass-2026"
#: the account the demo's sign-in code makes (a code makes an account of its own)
CODE_USER: Final = "reserve-judge"


@dataclass(slots=True)
class Demo:
    db_path: Path
    tournament: int
    accounts: list[tuple[str, str, str]]  # (name, password, role)
    code: str  # a judge's sign-in code
    code_user: str
    open_games: list[str]
    #: the round left open for the judges, and its tables
    open_round: int = 0
    open_tables: list[int] | None = None


def build_demo(db_path: Path, t: Tournament | None = None, *, rules: str = "fsm",
               players: int = 20, rounds: int = 4, name: str = "Демо-турнир") -> Demo:
    """A fresh demo database at `db_path` (an old one there is replaced)."""
    for suffix in ("", "-wal", "-shm"):
        Path(str(db_path) + suffix).unlink(missing_ok=True)
    if t is None:
        t = sample_tournament(rules, players, rounds, seed=2026, final_round=True, name=name)
    engine = make_engine(str(db_path))
    try:
        return populate(engine, t, db_path)
    finally:
        engine.dispose()


def populate(engine: Engine, t: Tournament, db_path: Path) -> Demo:
    """Store the sample tournament `t` in an empty database through the service: every
    qualification round but the last played, submitted and confirmed; the last one seated
    with a judge per table."""
    upgrade(engine)
    svc = Services(engine)
    tid = svc.tournaments.create_tournament(t.name, t.rules, actor=ORGANIZER_NAME, stages=t.stages,
                                rule_options=t.rule_options, participants=t.participants)
    svc.tournaments.register_players(tid, t.players, actor=ORGANIZER_NAME)
    qual = [g for g in t.games if g.stage == t.stages[0].id]
    last = max(g.round for g in qual)
    tables = sorted({g.table for g in qual})
    judges = [f"judge{n}" for n in tables]
    accounts = [(ORGANIZER_NAME, DEMO_PASSWORD, "organizer")]
    svc.accounts.add_account(ORGANIZER_NAME, DEMO_PASSWORD, actor=ORGANIZER_NAME)  # the first: an organizer
    svc.access.grant(tid, HEAD_JUDGE_NAME, HEAD_JUDGE, actor=ORGANIZER_NAME, password=DEMO_PASSWORD)
    accounts.append((HEAD_JUDGE_NAME, DEMO_PASSWORD, HEAD_JUDGE))
    for j in judges:
        svc.access.grant(tid, j, JUDGE, actor=ORGANIZER_NAME, password=DEMO_PASSWORD)
        accounts.append((j, DEMO_PASSWORD, JUDGE))
    svc.access.grant(tid, VIEWER_NAME, VIEWER, actor=ORGANIZER_NAME, password=DEMO_PASSWORD)
    accounts.append((VIEWER_NAME, DEMO_PASSWORD, VIEWER))
    open_games: list[str] = []
    for g in qual:
        judge = judges[tables.index(g.table)]
        if g.round == last:
            info = svc.games.enter_seating(tid, g.stage, g.round, g.table,
                                     [s.player for s in sorted(g.seats, key=lambda x: x.seat)],
                                     actor=HEAD_JUDGE_NAME, judge=judge)
            open_games.append(info.game)
            continue
        g.judge = judge
        info = svc.games.add_game(tid, g, actor=HEAD_JUDGE_NAME)
        svc.games.assign_judge(tid, g.id, judge, actor=HEAD_JUDGE_NAME)
        info = svc.protocols.submit(tid, g.id, actor=judge, base_revision=info.number)
        svc.protocols.confirm(tid, g.id, actor=HEAD_JUDGE_NAME, base_revision=info.number)
    # a code makes an account of its own: a reserve judge for this tournament
    code_user = CODE_USER
    code = svc.access.create_code(tid, code_user, JUDGE, actor=ORGANIZER_NAME)
    return Demo(db_path, tid, accounts, code, code_user, open_games, last, tables)


def reopen_demo(db_path: Path) -> Demo | None:
    """The demo database kept from an earlier start (brought to the newest schema), or
    None when there is none to keep: the demo keeps what its user did between starts
    (`mafiatab demo --fresh` builds it anew). Its code is not stored readable, so
    `judge_with_a_table` gives a new one."""
    if not db_path.is_file():
        return None
    engine = make_engine(str(db_path))
    try:
        upgrade(engine)
        svc = Services(engine)
        listed = svc.tournaments.list_tournaments()
        if not listed:
            return None
        tid = min(t.id for t in listed)
        games = svc.games.overview(tid)
        first = svc.tournaments.context(tid)[2][0].id
        qual = [g for g in games if g.stage == first]
        if not qual:
            return None
        tables = sorted({g.table for g in qual})
        last = max(g.round for g in qual)
        waiting = [g for g in qual if g.round == last and not g.confirmed_revision]
    except Exception:  # not a demo database we can read: the caller builds a fresh one
        return None
    finally:
        engine.dispose()
    accounts = [(ORGANIZER_NAME, DEMO_PASSWORD, "organizer"),
                (HEAD_JUDGE_NAME, DEMO_PASSWORD, HEAD_JUDGE),
                *((f"judge{n}", DEMO_PASSWORD, JUDGE) for n in tables),
                (VIEWER_NAME, DEMO_PASSWORD, VIEWER)]
    return Demo(db_path, tid, accounts, "", CODE_USER, [g.code for g in waiting], last,
                [g.table for g in waiting])


def judge_with_a_table(demo: Demo) -> tuple[Demo, int | None]:
    """The demo's code opens a table waiting for its protocol: the code's judge is made
    the judge of the last waiting table (or keeps the one he has), and a code is made
    when the demo has none to show. The table, or None when every game is confirmed."""
    engine = make_engine(str(demo.db_path))
    try:
        svc = Services(engine)
        waiting = [g for g in svc.games.overview(demo.tournament)
                   if g.code in set(demo.open_games) and not g.confirmed_revision]
        mine = [g for g in waiting if g.judge == demo.code_user]
        table: int | None = None
        if mine:
            table = mine[-1].table
        elif waiting:
            svc.games.assign_judge(demo.tournament, waiting[-1].code, demo.code_user,
                                   actor=ORGANIZER_NAME)
            table = waiting[-1].table
        code = demo.code or svc.access.create_code(demo.tournament, demo.code_user, JUDGE,
                                                   actor=ORGANIZER_NAME)
    finally:
        engine.dispose()
    return replace(demo, code=code), table


def as_served(db_path: Path, tournament: int) -> tuple[Tournament, Standings]:
    """The demo tournament as the web app serves it: its confirmed games and the standings
    the site shows, by the same service call. The terminal prints these, so that what the
    demo prints and what the browser shows are one tournament."""
    engine = make_engine(str(db_path))
    try:
        svc = Services(engine)
        return svc.tournaments.tournament(tournament), svc.standings.compute(tournament)
    finally:
        engine.dispose()
