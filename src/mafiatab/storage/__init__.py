"""Tournaments in a database: SQLite by default, PostgreSQL for federations.

`models` is the schema, `engine` chooses and opens the database and runs the migrations
shipped in `migrations/`, `backup` copies SQLite files safely, `cli` holds the commands.
The use cases that own transactions are in `mafiatab.services.tournaments`.
"""
