"""Schema migrations (alembic, scripts in bot/service/migrations): the same path for SQLite and PostgreSQL.

`upgrade(engine)` brings any database to the current schema; it runs at every start of the service, the worker
and the commands, under a lock so replicas starting together do not race (PostgreSQL: an advisory lock).
New migration: `python -m bot.service.migrate revision "what changed"` autogenerates from bot/service/tables.py.
"""

from __future__ import annotations

import sys
from pathlib import Path

import sqlalchemy as sa
from alembic import command
from alembic.config import Config

SCRIPTS = Path(__file__).resolve().parent / "migrations"
LOCK_KEY = 0x656E7674  # "envt": one advisory lock id for migrations


def config(connection: sa.Connection) -> Config:
    cfg = Config()
    cfg.set_main_option("script_location", str(SCRIPTS))
    cfg.attributes["connection"] = connection
    return cfg


def upgrade(engine: sa.Engine) -> None:
    with engine.begin() as connection:
        if engine.dialect.name == "postgresql":
            connection.execute(sa.text("SELECT pg_advisory_xact_lock(:k)"), {"k": LOCK_KEY})
        command.upgrade(config(connection), "head")


def main(argv: list[str]) -> int:
    if len(argv) != 3 or argv[1] != "revision":
        sys.stderr.write(
            'usage: python -m bot.service.migrate revision "message"   (DATABASE_URL: a database at head)\n'
        )
        return 2
    import os

    engine = sa.create_engine(os.environ.get("DATABASE_URL", "sqlite:///envtriage-dev.db"))
    upgrade(engine)
    with engine.begin() as connection:
        command.revision(config(connection), message=argv[2], autogenerate=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
