"""``builders serve``: run the game server (the web app and its API)."""

from __future__ import annotations

import typer


def serve(
    host: str = typer.Option("127.0.0.1", help="Address to listen on."),
    port: int = typer.Option(8000, min=1, max=65535, help="Port to listen on."),
    db: str = typer.Option(None, help="Database URL or SQLite file (default: a SQLite file in your data folder)."),
) -> None:
    """Start the game server and print the address to open in a browser."""
    from builders.server.run import run

    run(host, port, db)
