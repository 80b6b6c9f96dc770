"""Fixtures of the importer tests: the storage tests' databases (SQLite and PostgreSQL)."""

from __future__ import annotations

from tests.storage.conftest import db_url, pg_url, sqlite_url  # noqa: F401  (fixtures)
