"""``builders db``: the server's database (schema upgrades)."""

from __future__ import annotations

import typer

from builders.commands._errors import fail
from builders.commands._extras import need

app = typer.Typer(no_args_is_help=True, add_completion=False)


@app.command("upgrade")
def upgrade(
    db: str = typer.Option(None, help="Database URL or SQLite file (default: the SQLite file `builders serve` uses)."),
) -> None:
    """Bring the database to the schema of this version (its games are kept)."""
    need("server")
    from sqlalchemy.exc import SQLAlchemyError

    from builders.server.migrate import upgrade as run_upgrade
    from builders.server.store import database_url, default_db_url

    url = database_url(db) if db else default_db_url()
    shown = url.split("@")[-1] if "@" in url else url
    try:
        before, after = run_upgrade(url)
    except SQLAlchemyError as e:
        fail(f"the database {shown} cannot be upgraded: {str(e.orig if hasattr(e, 'orig') else e).splitlines()[0]}")
    if before == after:
        typer.echo(f"{shown}: already at migration {after}")
    else:
        typer.echo(
            f"{shown}: upgraded from {'an empty database' if before is None else 'migration ' + before} "
            f"to migration {after}"
        )


@app.command("current")
def current(
    db: str = typer.Option(None, help="Database URL or SQLite file (default: the SQLite file `builders serve` uses)."),
) -> None:
    """Print the migration the database is at, and the newest one."""
    need("server")
    from sqlalchemy.exc import SQLAlchemyError

    from builders.server.migrate import current as current_revision, head
    from builders.server.store import database_url, default_db_url

    url = database_url(db) if db else default_db_url()
    try:
        at = current_revision(url)
    except SQLAlchemyError as e:
        fail(f"the database cannot be read: {str(e.orig if hasattr(e, 'orig') else e).splitlines()[0]}")
    typer.echo(f"at {at or 'nothing (empty)'}; newest {head()}")
