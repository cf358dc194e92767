"""Running the server with uvicorn (``builders serve`` and ``python -m builders.server``)."""

from __future__ import annotations

import argparse
import os
import sys

#: the largest WebSocket frame uvicorn accepts; the game socket refuses messages over 8 KiB itself
WS_MAX_SIZE = 64 * 1024


def address(host: str, port: int) -> str:
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}/"


def default_bot_workers() -> int:
    """Worker processes for bots: every core but one (kept for the server), at least one."""
    return max(1, (os.cpu_count() or 2) - 1)


def run(host: str = "127.0.0.1", port: int = 8000, db: str | None = None, *, bot_delay: float = 0.3,
        bot_mode: str = "process", bot_workers: int | None = None, quiet: bool = False) -> None:
    """Serve until interrupted (prints the address to open first)."""
    import uvicorn

    from builders.server.app import create_app
    from builders.server.store import database_url, default_db_url

    url = database_url(db) if db else default_db_url()
    app = create_app(url, bot_mode=bot_mode, bot_delay=bot_delay, bot_workers=bot_workers or default_bot_workers())
    print(f"Builders server: open {address(host, port)} (games in {url})", flush=True)
    uvicorn.run(app, host=host, port=port, ws_max_size=WS_MAX_SIZE, ws_per_message_deflate=False,
                log_level="warning" if quiet else "info",
                access_log=not quiet)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m builders.server", description="Run the game server.")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--db", default=None, help="database URL (default: a SQLite file in the data folder)")
    parser.add_argument("--bot-delay", type=float, default=0.3, help="seconds before each bot move")
    parser.add_argument("--bot-mode", choices=("process", "thread", "inline"), default="process")
    parser.add_argument("--bot-workers", type=int, default=None, help="bot worker processes (default: cores - 1)")
    parser.add_argument("--quiet", action="store_true", help="no access log")
    args = parser.parse_args(argv)
    if not 0 < args.port < 65536:
        parser.error("--port must be from 1 to 65535")
    if args.bot_delay < 0:
        parser.error("--bot-delay must be 0 or more")
    if args.bot_workers is not None and not 1 <= args.bot_workers <= 64:
        parser.error("--bot-workers must be from 1 to 64")
    run(args.host, args.port, args.db, bot_delay=args.bot_delay, bot_mode=args.bot_mode,
        bot_workers=args.bot_workers, quiet=args.quiet)


if __name__ == "__main__":
    main(sys.argv[1:])
