"""The database fixtures of the storage tests: each service test runs on SQLite and
PostgreSQL."""

from tests.storage.conftest import (  # noqa: F401  (fixtures)
    db_url,
    engine,
    migrated_sqlite,
    pg_url,
    service,
    sqlite_url,
)
