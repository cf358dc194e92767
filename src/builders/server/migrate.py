"""Schema migrations with Alembic: ``builders db upgrade [--db URL]`` and the upgrade at start.

The migrations live in :mod:`builders.server.migrations` (no ``alembic.ini``: the configuration is
built here). A database made by the first release, before there were migrations, has the tables of
migration 0001 and no ``alembic_version``: it is stamped 0001 first, then upgraded with its games
intact. Several processes may start at once: on PostgreSQL the upgrade holds an advisory lock, on
SQLite a process that loses the race finds the schema already upgraded.
"""

from __future__ import annotations

import logging

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import create_engine, inspect, text
from sqlalchemy.engine import Connection, Engine

from builders.server.store import database_url

log = logging.getLogger("builders.server")

#: the advisory lock PostgreSQL processes take while upgrading
_LOCK = 7_310_412


class SchemaError(Exception):
    """The database's schema is not the one this version of the server needs (one sentence)."""


def config(connection: Connection | None = None) -> Config:
    cfg = Config()
    cfg.set_main_option("script_location", "builders.server:migrations")
    if connection is not None:
        cfg.attributes["connection"] = connection
    return cfg


def head() -> str:
    """The newest migration."""
    found = ScriptDirectory.from_config(config()).get_current_head()
    assert found is not None
    return found


def _engine(url: str) -> Engine:
    url = database_url(url)
    kwargs = {"connect_args": {"check_same_thread": False}} if url.startswith("sqlite") else {}
    return create_engine(url, hide_parameters=True, **kwargs)


def current(url: str) -> str | None:
    """The migration the database is at (None: none yet; "0001" for a file of the first release)."""
    engine = _engine(url)
    try:
        with engine.connect() as conn:
            return _current(conn)
    finally:
        engine.dispose()


def _current(conn: Connection) -> str | None:
    found = MigrationContext.configure(conn).get_current_revision()
    if found is None and inspect(conn).has_table("games"):
        return "0001"
    return found


def upgrade(url: str) -> tuple[str | None, str]:
    """Bring the database to the newest schema; returns (the revision before, the one after)."""
    engine = _engine(url)
    try:
        try:
            return _upgrade(engine)
        except Exception:
            # another process may have upgraded the same SQLite file at the same moment
            with engine.connect() as conn:
                if _current(conn) == head():
                    return head(), head()
            raise
    finally:
        engine.dispose()


def _upgrade(engine: Engine) -> tuple[str | None, str]:
    with engine.begin() as conn:
        if conn.dialect.name == "postgresql":
            conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": _LOCK})
        before = MigrationContext.configure(conn).get_current_revision()
        if before is None and inspect(conn).has_table("games"):
            # made by the first release, before migrations: its tables are those of 0001
            command.stamp(config(conn), "0001")
            before = "0001"
        if before != head():
            command.upgrade(config(conn), "head")
            log.info("database schema upgraded from %s to %s", before or "nothing", head())
    return before, head()


def prepare(url: str, upgrade_schema: bool = True) -> str:
    """Make ``url`` ready for the server: upgrade it, or (``upgrade_schema`` false) check that it is
    at the newest schema already and raise :class:`SchemaError` if not. Returns the URL."""
    if upgrade_schema:
        upgrade(url)
        return url
    at = current(url)
    if at != head():
        shown = f"at migration {at}" if at else "empty"
        raise SchemaError(
            f"the database is {shown}, this server needs migration {head()}: "
            f"run `builders db upgrade` (or start without --no-upgrade)"
        )
    return url
