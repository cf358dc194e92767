"""Running the server with uvicorn (``builders serve`` and ``python -m builders.server``)."""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any

#: the largest WebSocket frame uvicorn accepts; the game socket refuses messages over 8 KiB itself
WS_MAX_SIZE = 64 * 1024


def address(host: str, port: int) -> str:
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}/"


def default_bot_workers() -> int:
    """Worker processes for bots: ``BUILDERS_BOT_WORKERS``, else one per core (they run at a lower
    priority than the server, which keeps answering people first)."""
    found = os.environ.get("BUILDERS_BOT_WORKERS", "").strip()
    if found.isdigit() and 1 <= int(found) <= 64:
        return int(found)
    return max(1, os.cpu_count() or 1)


def limits_from_env() -> Any:
    """The abuse limits of this server (``BUILDERS_ALLOWED_HOSTS``: comma-separated host names)."""
    from builders.server import settings
    from builders.server.guard import Limits

    hosts = os.environ.get("BUILDERS_ALLOWED_HOSTS")
    limits = Limits(allowed_hosts=[h.strip() for h in hosts.split(",") if h.strip()] if hosts else None)
    if os.environ.get("BUILDERS_HEADER_SECONDS"):
        limits.header_seconds = float(os.environ["BUILDERS_HEADER_SECONDS"])
    if os.environ.get("BUILDERS_BODY_SECONDS"):
        limits.body_seconds = float(os.environ["BUILDERS_BODY_SECONDS"])
    if os.environ.get("BUILDERS_SOCKETS_PER_ADDRESS"):
        limits.sockets_per_address = int(os.environ["BUILDERS_SOCKETS_PER_ADDRESS"])
    if os.environ.get("BUILDERS_SOCKET_RATE"):  # messages a second per socket
        rate = float(os.environ["BUILDERS_SOCKET_RATE"])
        limits.socket_messages = (rate, 2 * rate)
    for item in (os.environ.get("BUILDERS_RATES") or "").split(","):  # "create=100/60,read=1200/60"
        kind, _, rate = item.strip().partition("=")
        if kind in limits.rates and "/" in rate:
            count, per = rate.split("/", 1)
            limits.rates[kind] = (int(count), float(per))
    limits.bots_only_per_creator = settings.number("BUILDERS_BOT_GAMES_PER_PLAYER")
    limits.bots_only_games = settings.number("BUILDERS_BOT_GAMES")
    limits.bots_only_turns_at_once = settings.number("BUILDERS_BOT_GAMES_AT_ONCE")
    limits.games_waiting_per_creator = settings.number("BUILDERS_WAITING_GAMES_PER_PLAYER")
    limits.games_per_creator = settings.number("BUILDERS_GAMES_PER_PLAYER")
    limits.idle_game_seconds = settings.number("BUILDERS_KEEP_IDLE_SECONDS")
    return limits


def sign_in_limits_from_env() -> dict[str, tuple[int, float]]:
    """The sign-in limits (``BUILDERS_SIGN_IN_RATES="name=10/300,name_address=5/300,address=30/300"``:
    attempts per seconds; see builders.server.accounts)."""
    found = {}
    for item in (os.environ.get("BUILDERS_SIGN_IN_RATES") or "").split(","):
        kind, _, rate = item.strip().partition("=")
        if kind in ("name", "name_address", "address") and "/" in rate:
            count, per = rate.split("/", 1)
            found[f"login_per_{kind}"] = (int(count), float(per))
    return found


def more_files() -> None:
    """Raise this process's limit of open files to the hard limit (every connection is one)."""
    try:
        import resource

        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        if soft < hard:
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    except (ImportError, ValueError, OSError):
        pass


def app_from_env():
    """The application of a uvicorn worker process (``--workers N``): its settings come from the
    environment the parent process set (BUILDERS_DB, BUILDERS_REDIS, BUILDERS_BOT_DELAY, ...)."""
    from builders.server.app import create_app
    from builders.server.guard import GuardedHttpTools

    GuardedHttpTools.limits = limits_from_env()
    return create_app(
        os.environ["BUILDERS_DB"],
        redis_url=os.environ.get("BUILDERS_REDIS") or None,
        limits=GuardedHttpTools.limits,
        upgrade=os.environ.get("BUILDERS_UPGRADE", "1") == "1",
        bot_mode=os.environ.get("BUILDERS_BOT_MODE", "process"),
        bot_delay=float(os.environ.get("BUILDERS_BOT_DELAY", "0.3")),
        bot_workers=int(os.environ.get("BUILDERS_BOT_WORKERS", "1")),
        login_limits=sign_in_limits_from_env(),
    )


def run(
    host: str = "127.0.0.1",
    port: int = 8000,
    db: str | None = None,
    *,
    bot_delay: float = 0.3,
    bot_mode: str = "process",
    bot_workers: int | None = None,
    quiet: bool = False,
    redis: str | None = None,
    workers: int = 1,
    allowed_hosts: list[str] | None = None,
    upgrade: bool = True,
) -> None:
    """Serve until interrupted (prints the address to open first). With ``workers`` > 1, uvicorn runs
    that many server processes on the port (they share the database; ``redis`` fans changes out)."""
    import uvicorn

    from builders.server.store import database_url, default_db_url

    more_files()
    url = database_url(db) if db else default_db_url()
    os.environ.update(
        BUILDERS_DB=url,
        BUILDERS_REDIS=redis or "",
        BUILDERS_BOT_DELAY=str(bot_delay),
        BUILDERS_BOT_MODE=bot_mode,
        BUILDERS_BOT_WORKERS=str(bot_workers or default_bot_workers()),
        BUILDERS_UPGRADE="1" if upgrade else "0",
        BUILDERS_ALLOWED_HOSTS=",".join(allowed_hosts or []),
    )
    shown = url.split("@")[-1] if "@" in url else url  # never print a password
    from builders.server.migrate import SchemaError, prepare

    from sqlalchemy.exc import SQLAlchemyError

    try:  # once here, before the worker processes start
        prepare(url, upgrade)
    except SchemaError as e:
        print(f"error: {e}", file=sys.stderr)
        raise SystemExit(2) from None
    except SQLAlchemyError as e:
        reason = str(getattr(e, "orig", None) or e).strip().splitlines()[0]
        print(f"error: the database {shown} cannot be used: {reason}", file=sys.stderr)
        raise SystemExit(2) from None
    if redis:
        import redis as redis_client

        try:
            redis_client.Redis.from_url(redis, socket_connect_timeout=5).ping()
        except (redis_client.RedisError, ValueError) as e:
            print(f"error: Redis at {redis.split('@')[-1]} cannot be reached: {e}", file=sys.stderr)
            raise SystemExit(2) from None
    print(
        f"Builders server: open {address(host, port)} (games in {shown}"
        f"{', ' + str(workers) + ' processes' if workers > 1 else ''})",
        flush=True,
    )
    common = dict(
        host=host,
        port=port,
        ws_max_size=WS_MAX_SIZE,
        ws_per_message_deflate=False,
        ws_ping_interval=20.0,
        ws_ping_timeout=20.0,
        timeout_keep_alive=5,
        http="builders.server.guard:GuardedHttpTools",
        log_level="warning" if quiet else "info",
        access_log=not quiet,
    )
    if workers > 1:
        uvicorn.run("builders.server.run:app_from_env", factory=True, workers=workers, **common)
    else:
        uvicorn.run(app_from_env(), **common)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m builders.server", description="Run the game server.")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--db", default=None, help="database URL (default: a SQLite file in the data folder)")
    parser.add_argument("--bot-delay", type=float, default=0.3, help="seconds before each bot move")
    parser.add_argument("--bot-mode", choices=("process", "thread", "inline"), default="process")
    parser.add_argument(
        "--bot-workers",
        type=int,
        default=None,
        help="bot worker processes (default: BUILDERS_BOT_WORKERS, else one per core)",
    )
    parser.add_argument("--quiet", action="store_true", help="no access log")
    parser.add_argument("--redis", default=None, help="Redis URL: fan changes out to the other server processes")
    parser.add_argument("--workers", type=int, default=1, help="server processes on this port")
    parser.add_argument("--allowed-hosts", default=None, help="comma-separated host names to answer for")
    parser.add_argument("--no-upgrade", action="store_true", help="refuse to start on an old database schema")
    args = parser.parse_args(argv)
    if not 1 <= args.workers <= 64:
        parser.error("--workers must be from 1 to 64")
    if not 0 < args.port < 65536:
        parser.error("--port must be from 1 to 65535")
    if args.bot_delay < 0:
        parser.error("--bot-delay must be 0 or more")
    if args.bot_workers is not None and not 1 <= args.bot_workers <= 64:
        parser.error("--bot-workers must be from 1 to 64")
    from builders.server.settings import check_environment

    try:
        check_environment()
    except ValueError as exc:
        parser.error(str(exc))
    run(
        args.host,
        args.port,
        args.db,
        bot_delay=args.bot_delay,
        bot_mode=args.bot_mode,
        bot_workers=args.bot_workers,
        quiet=args.quiet,
        redis=args.redis,
        workers=args.workers,
        allowed_hosts=args.allowed_hosts.split(",") if args.allowed_hosts else None,
        upgrade=not args.no_upgrade,
    )


if __name__ == "__main__":
    main(sys.argv[1:])
