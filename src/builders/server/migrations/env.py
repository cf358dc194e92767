"""Alembic's environment: migrations run on the connection :mod:`builders.server.migrate` gives."""

from __future__ import annotations

from alembic import context

from builders.server.models import Base

target_metadata = Base.metadata


def run_migrations_online() -> None:
    connection = context.config.attributes["connection"]
    context.configure(
        connection=connection, target_metadata=target_metadata, render_as_batch=connection.dialect.name == "sqlite"
    )
    with context.begin_transaction():
        context.run_migrations()


if context.is_offline_mode():
    raise SystemExit("the migrations run on a live database: builders db upgrade --db URL")
run_migrations_online()
