"""Alembic's environment: run against the connection bot/service/migrate.py hands over (no alembic.ini needed)."""

from __future__ import annotations

from alembic import context

from bot.service.tables import metadata

connection = context.config.attributes["connection"]
context.configure(connection=connection, target_metadata=metadata, render_as_batch=True)  # batch: SQLite ALTERs
with context.begin_transaction():
    context.run_migrations()
