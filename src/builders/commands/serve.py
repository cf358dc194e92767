"""``builders serve``: run the game server (the web app and its API)."""

from __future__ import annotations

import typer

from builders.commands._errors import fail
from builders.commands._extras import need


def serve(
    host: str = typer.Option("127.0.0.1", help="Address to listen on."),
    port: int = typer.Option(8000, min=1, max=65535, help="Port to listen on."),
    db: str = typer.Option(
        None,
        help="Database URL or SQLite file (default: a SQLite file in your data folder); "
        "for example postgresql://builders@localhost/builders.",
    ),
    redis: str = typer.Option(
        None,
        help="Redis URL (redis://host:6379/0): fan changes out to the other server "
        "processes of the same database. Not needed with one process.",
    ),
    workers: int = typer.Option(1, help="Server processes on this port (they share the database; use --redis)."),
    allowed_hosts: str = typer.Option(None, help="Comma-separated host names to answer for (default: any)."),
    upgrade: bool = typer.Option(
        True, "--upgrade/--no-upgrade", help="Upgrade an older database schema at start, or refuse to start."
    ),
    bot_workers: int = typer.Option(
        None,
        help="Processes computing bot moves in each server process (default: "
        "BUILDERS_BOT_WORKERS, else one per core). With --redis, "
        "`builders worker` processes compute them while one runs.",
    ),
) -> None:
    """Start the game server and print the address to open in a browser."""
    need("server")
    from builders.server.run import run

    if not 1 <= workers <= 64:
        fail(f"--workers must be from 1 to 64, not {workers}")
    if bot_workers is not None and not 1 <= bot_workers <= 64:
        fail(f"--bot-workers must be from 1 to 64, not {bot_workers}")
    if redis is not None and not redis.startswith(("redis://", "rediss://", "unix://")):
        fail(f"--redis must be a Redis URL (redis://host:port/db), not {redis!r}")
    if workers > 1 and redis is None:
        typer.echo("note: without --redis the processes see each other's moves within a second (polling)", err=True)
    hosts = [h.strip() for h in allowed_hosts.split(",") if h.strip()] if allowed_hosts else None
    if allowed_hosts is not None and not hosts:
        fail("--allowed-hosts needs at least one host name")
    if db is not None:
        _check_db_file(db)
    from builders.server.settings import check_environment

    try:
        check_environment()
    except ValueError as exc:
        fail(str(exc))
    run(host, port, db, redis=redis, workers=workers, allowed_hosts=hosts, upgrade=upgrade, bot_workers=bot_workers)


def _check_db_file(db: str) -> None:
    """A plain file path for --db (not a URL) must name a file in an existing folder."""
    from pathlib import Path

    if "://" in db:
        return
    if not db.strip() or "\0" in db:
        fail(f"--db must be a database URL or a file name, not {db!r}")
    path = Path(db).expanduser()
    if path.is_dir():
        fail(f"--db {db} is a folder, not a database file")
    if not path.resolve().parent.is_dir():
        fail(f"--db {db}: no such folder {path.resolve().parent}")
