"""Alembic environment: run from the package, on a connection the program hands over.

`mafiatab db upgrade` (and the import) call `storage.engine.upgrade`, which passes an open
connection in `config.attributes["connection"]`; no alembic.ini is needed at run time.
"""

from __future__ import annotations

from alembic import context

from mafiatab.storage.models import Base

config = context.config
connection = config.attributes.get("connection")
if connection is None:  # pragma: no cover - only the program runs these migrations
    raise RuntimeError("mafiatab migrations run through mafiatab.storage.engine.upgrade")

context.configure(
    connection=connection,
    target_metadata=Base.metadata,
    render_as_batch=connection.dialect.name == "sqlite",
    compare_type=True,
)
with context.begin_transaction():
    context.run_migrations()
