"""Schema migrations (alembic, scripts in bot/service/migrations): the same path for SQLite and PostgreSQL.

`upgrade(engine)` brings any database to the current schema; it runs at every start of the service, the worker
and the commands, under a lock so replicas starting together do not race (PostgreSQL: an advisory lock).
New migration: `python -m bot.service.migrate revision "what changed"` autogenerates from bot/service/tables.py.
"""

from __future__ import annotations

import contextlib
import logging
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import sqlalchemy as sa

if TYPE_CHECKING:
    from alembic.config import Config

SCRIPTS = Path(__file__).resolve().parent / "migrations"
LOCK_KEY = 0x656E7674  # "envt": one advisory lock id for migrations
log = logging.getLogger("envtriage")


def config(connection: sa.Connection) -> Config:
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(SCRIPTS))
    cfg.attributes["connection"] = connection
    return cfg


def upgrade(engine: sa.Engine) -> None:
    """Quiet at every start but one that changes the schema: then one line for a new database (none for one in
    memory, made anew at every run), or one line per migration applied."""
    with quiet_alembic(), engine.begin() as connection:
        from alembic import command  # imported here: importing alembic logs its plugins at INFO
        from alembic.runtime.migration import MigrationContext
        from alembic.script import ScriptDirectory

        if engine.dialect.name == "postgresql":
            connection.execute(sa.text("SELECT pg_advisory_xact_lock(:k)"), {"k": LOCK_KEY})
        cfg = config(connection)
        before = MigrationContext.configure(connection).get_current_revision()
        command.upgrade(cfg, "head")
        after = MigrationContext.configure(connection).get_current_revision()
        applied = [] if after == before else list(ScriptDirectory.from_config(cfg).iterate_revisions(after, before))
    if not applied or engine.url.database in (None, "", ":memory:"):
        return
    if before is None:
        log.info("database schema created at revision %s", after)
        return
    for script in reversed(applied):
        log.info("database migrated to revision %s: %s", script.revision, script.doc)


@contextlib.contextmanager
def quiet_alembic() -> Iterator[None]:
    """Alembic logs its plugins, its DDL mode and every migration at INFO: a dozen lines at each start."""
    logger = logging.getLogger("alembic")
    level = logger.level
    logger.setLevel(logging.WARNING)
    try:
        yield
    finally:
        logger.setLevel(level)


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
        from alembic import command

        command.revision(config(connection), message=argv[2], autogenerate=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
