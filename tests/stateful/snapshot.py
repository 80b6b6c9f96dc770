"""The whole database as plain rows, and what one step changed: the stateful test's
evidence that a refused step changed nothing, that every change has its audit entry and
that nobody changed anything outside his rights.

Every table of the schema is dumped but three, which change by design without anybody's
step and are nobody's record: `rate_hits` and `rate_counters` (sign-in limits count
attempts, refused ones above all) and `web_sessions` (a sign-in's cookie; the service
calls of the test open none). Rows are keyed by their primary key; values become plain
comparable text (times as ISO strings, JSON canonical).
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any, Final

from sqlalchemy import JSON, Engine, Table, select, text

from mafiatab.storage import models as db

#: tables whose rows change by design without a step's record (see the module)
VOLATILE: Final = frozenset({"rate_hits", "rate_counters", "web_sessions"})

Row = dict[str, Any]
Dump = dict[str, dict[tuple[Any, ...], Row]]


def _plain(value: Any) -> Any:
    if isinstance(value, dt.datetime):
        return (value if value.tzinfo else value.replace(tzinfo=dt.UTC)).isoformat()
    if isinstance(value, dict | list):
        return json.dumps(value, sort_keys=True, default=str)
    if isinstance(value, Decimal | bytes):
        return str(value)
    return value


def tables() -> list[Table]:
    return [t for t in db.Base.metadata.sorted_tables if t.name not in VOLATILE]


def dump(engine: Engine) -> Dump:
    """Every row of every table (but the volatile ones), by primary key: on PostgreSQL
    in one query (each table's rows as JSON), elsewhere a query a table."""
    if engine.dialect.name == "postgresql":
        return _dump_pg(engine)
    out: Dump = {}
    with engine.connect() as conn:
        for t in tables():
            keys = [c.name for c in t.primary_key.columns]
            rows: dict[tuple[Any, ...], Row] = {}
            for r in conn.execute(select(t)).mappings():
                rows[tuple(r[k] for k in keys)] = {k: _plain(v) for k, v in r.items()}
            out[t.name] = rows
    return out


def _dump_pg(engine: Engine) -> Dump:
    parts = ", ".join(f"'{t.name}', (SELECT coalesce(json_agg(x), '[]') FROM \"{t.name}\" x)"
                      for t in tables())
    with engine.connect() as conn:
        everything = conn.execute(text(f"SELECT json_build_object({parts})")).scalar_one()
    out: Dump = {}
    for t in tables():
        keys = [c.name for c in t.primary_key.columns]
        json_columns = {c.name for c in t.columns if isinstance(c.type, JSON)}
        rows: dict[tuple[Any, ...], Row] = {}
        for r in everything[t.name]:
            # a JSON column arrives parsed, text that holds JSON as text: alike as text
            row = {k: _plain(v) if k in json_columns or not isinstance(v, str) else v
                   for k, v in r.items()}
            rows[tuple(r[k] for k in keys)] = row
        out[t.name] = rows
    return out


def wipe(engine: Engine) -> None:
    """Empty every table (a fresh start for the next example, ids from 1 again)."""
    names = [t.name for t in db.Base.metadata.sorted_tables]
    with engine.begin() as conn:
        if engine.dialect.name == "postgresql":
            conn.execute(text("TRUNCATE " + ", ".join(f'"{n}"' for n in names)
                              + " RESTART IDENTITY CASCADE"))
        else:
            for n in reversed(names):
                conn.execute(text(f'DELETE FROM "{n}"'))


@dataclass
class Diff:
    """What changed between two dumps: per table the added, removed and changed rows
    (changed: (before, after))."""

    added: dict[str, list[Row]] = field(default_factory=dict)
    removed: dict[str, list[Row]] = field(default_factory=dict)
    changed: dict[str, list[tuple[Row, Row]]] = field(default_factory=dict)

    def tables(self) -> set[str]:
        return set(self.added) | set(self.removed) | set(self.changed)

    def empty(self) -> bool:
        return not self.tables()

    def rows(self, table: str) -> list[Row]:
        """Every row of the table the step touched (as it is after, or was before)."""
        return (self.added.get(table, []) + self.removed.get(table, [])
                + [after for _, after in self.changed.get(table, [])])

    def without(self, table: str, keep: Iterable[Row]) -> Diff:
        """The diff less the added rows `keep` of `table`."""
        drop = [dict(r) for r in keep]
        added = {k: [r for r in v if not (k == table and r in drop)]
                 for k, v in self.added.items()}
        return Diff({k: v for k, v in added.items() if v}, dict(self.removed),
                    dict(self.changed))

    def __str__(self) -> str:
        parts = []
        for name in sorted(self.tables()):
            parts.append(f"{name}: +{self.added.get(name, [])} -{self.removed.get(name, [])} "
                         f"~{self.changed.get(name, [])}")
        return "\n".join(parts)


def diff(before: Dump, after: Dump) -> Diff:
    out = Diff()
    for name in after:
        a, b = before.get(name, {}), after[name]
        added = [b[k] for k in b if k not in a]
        removed = [a[k] for k in a if k not in b]
        changed = [(a[k], b[k]) for k in b if k in a and a[k] != b[k]]
        if added:
            out.added[name] = added
        if removed:
            out.removed[name] = removed
        if changed:
            out.changed[name] = changed
    return out


class Where:
    """Which tournament a row belongs to (None: global), read from a dump."""

    def __init__(self, *dumps: Dump) -> None:
        self.games: dict[int, int] = {}
        self.game_codes: dict[int, str] = {}
        self.stages: dict[int, int] = {}
        self.rounds: dict[int, int] = {}
        self.cases: dict[int, int] = {}
        for d in dumps:
            for r in d["games"].values():
                self.games[r["id"]] = r["tournament_id"]
                self.game_codes[r["id"]] = r["code"]
            for r in d["stages"].values():
                self.stages[r["id"]] = r["tournament_id"]
            for r in d["rounds"].values():
                self.rounds[r["id"]] = self.stages.get(r["stage_id"], -1)
            for r in d["appeal_cases"].values():
                self.cases[r["id"]] = r["tournament_id"]

    def tournament(self, table: str, row: Mapping[str, Any]) -> int | None:
        if "tournament_id" in row:
            return row["tournament_id"]  # type: ignore[no-any-return]
        if "game_id" in row:
            return self.games.get(row["game_id"], -1)
        if "case_id" in row:
            return self.cases.get(row["case_id"], -1)
        if table == "rounds":
            return self.stages.get(row["stage_id"], -1)
        if table == "tables":
            return self.rounds.get(row["round_id"], -1)
        if table == "round_times":
            return self.rounds.get(row["round_id"], -1)
        return None


def roles_by_user(d: Dump) -> dict[str, dict[int, set[str]]]:
    """account name -> tournament -> roles, as the dump has them."""
    names = {r["id"]: r["name"] for r in d["users"].values()}
    out: dict[str, dict[int, set[str]]] = {}
    for r in d["user_roles"].values():
        out.setdefault(names[r["user_id"]], {}).setdefault(r["tournament_id"], set()).add(r["role"])
    return out


def user_flags(d: Dump, name: str) -> tuple[bool, bool, bool]:
    """(organizer right, administrator right, has a password) of an account."""
    for r in d["users"].values():
        if r["name"] == name:
            return bool(r["organizer"]), bool(r["admin"]), r["password_hash"] is not None
    return False, False, False


__all__ = ["Diff", "Dump", "VOLATILE", "Where", "diff", "dump", "roles_by_user", "tables",
           "user_flags", "wipe"]
