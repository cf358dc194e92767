"""The FastAPI application: the HTTP API under ``/api``, the game sockets under ``/ws`` and the web
client's pages.

``create_app(db_url)`` builds it; ``builders serve`` runs it with uvicorn. ``create_app`` reads as the
wiring diagram of the server: each part built in order with the parts it needs passed in, then the
listeners of the game service's changes, then the application (middleware, routers, static files).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles

from builders.core.plugins import plugins
from builders.server import accounts as accounts_module, seats as seats_module
from builders.server.accounts import Accounts
from builders.server.clocks import Clocks
from builders.server import ratings as ratings_module
from builders.server import settings
from builders.server.ratings import Ratings
from builders.server import chat as chat_module
from builders.server.chat import Chat
from builders.server import analysis as analysis_module
from builders.server.analysis import Analyses
from builders.server.bots import AgentFactory, BotRunner, prepare_worker
from builders.server.jobs import JobQueue
from builders.server.cluster import Cluster
from builders.server import errors, routes_games, routes_pages, routes_play, routes_records
from builders.server.games import GameService
from builders.server.guard import Guard, Limits
from builders.server.messages import load as load_catalogues
from builders.server.middleware import MAX_BODY, BodyLimit
from builders.server.migrate import prepare as prepare_database
from builders.server.ops import install_ops
from builders.server.schemas import ErrorModel
from builders.server.store import Store, default_db_url
from builders.server.workers import WorkerPool

__all__ = ["MAX_BODY", "BodyLimit", "create_app", "default_static_dir"]

_ERRORS: dict[int | str, dict[str, Any]] = {
    code: {"model": ErrorModel, "description": text}
    for code, text in (
        (400, "malformed request or illegal action"),
        (401, "missing or wrong seat token or session"),
        (403, "not this seat's turn, not your seat, or the CSRF token is missing"),
        (404, "no such game"),
        (409, "conflict with the game's state"),
        (413, "request body too large"),
        (422, "a field of the request is not valid"),
        (503, "the database could not save the change (nothing changed)"),
    )
}


def default_static_dir() -> Path:
    return Path(__file__).resolve().parent.parent / "web" / "static"


@dataclass
class Parts:
    """The parts of a running server, in the order they are built (the order they start in is
    :func:`lifespan`'s)."""

    store: Store
    jobs: JobQueue | None
    accounts: Accounts
    pool: WorkerPool
    service: GameService
    analyses: Analyses
    cluster: Cluster
    clocks: Clocks
    ratings: Ratings
    chat: Chat


def listen(parts: Parts) -> None:
    """Wire the listeners of the game service's changes, in the order they are called: the fan-out
    to the other processes, the clocks, the ratings. (They are added once the parts exist: each part
    is built with the service it listens to, so the service cannot be given them when it is built.
    A part ignores what it hears before it has started.)"""
    service, cluster, clocks = parts.service, parts.cluster, parts.clocks
    service.on_change += [cluster.changed, clocks.changed, parts.ratings.changed]
    service.on_event.append(cluster.event)
    service.on_load.append(clocks.arm)
    service.on_evict.append(clocks.disarm)


def lifespan(parts: Parts) -> Callable[[FastAPI], Any]:
    """Start the parts in order (the cluster first: it says whether this process acts for the
    machine) and stop them in the reverse order of their needs."""

    @asynccontextmanager
    async def running(app: FastAPI) -> AsyncIterator[None]:
        await parts.cluster.start()
        await parts.service.start()
        await parts.clocks.start()
        await parts.ratings.start()
        await parts.analyses.start()
        parts.pool.warm()  # the workers start with the server: a first bot move does not wait for one
        try:
            yield
        finally:
            await parts.clocks.stop()
            await parts.cluster.stop()
            await parts.analyses.stop()
            await parts.service.stop()
            parts.pool.close()
            if parts.jobs is not None:
                await parts.jobs.close()
            parts.store.close()

    return running


def include_routers(app: FastAPI, parts: Parts, limits: Limits, metrics: Any) -> None:
    """The HTTP API's routers, each given the parts it uses."""
    service, accounts = parts.service, parts.accounts
    app.include_router(routes_games.router(service, accounts, parts.analyses, parts.clocks, limits))
    app.include_router(routes_play.router(service, accounts, limits, metrics))
    app.include_router(routes_records.router(service, accounts))

    async def adopt_guest(guest: int, account: int) -> None:
        await seats_module.adopt(service, guest, account)

    async def leave_games(account: int) -> None:
        await accounts_module.leave_games(service, account)

    app.include_router(accounts_module.router(accounts, adopt_guest, leave_games))
    app.include_router(seats_module.router(service, accounts))
    app.include_router(chat_module.router(service, accounts, parts.chat))
    app.include_router(ratings_module.router(parts.ratings))
    app.include_router(analysis_module.router(service, accounts, parts.analyses))


def mount_static(app: FastAPI, static: Path) -> None:
    """The web client's pages and files, and those each game brings (a game packaged on its own
    brings its web files: builders.core.plugins)."""
    app.include_router(routes_pages.router(static))
    for game in plugins():
        if game.web_dir is not None:
            app.mount(f"/static/games/{game.name}", StaticFiles(directory=game.web_folder()), name=f"web-{game.name}")
    app.mount("/static", StaticFiles(directory=static, check_dir=False), name="static")


def create_app(
    db_url: str | None = None,
    *,
    redis_url: str | None = None,
    limits: Limits | None = None,
    upgrade: bool = True,
    bot_mode: str = "process",
    bot_delay: float = 0.3,
    bot_factory: AgentFactory | None = None,
    bot_workers: int = 1,
    static_dir: str | Path | None = None,
    login_limits: dict[str, tuple[int, float]] | None = None,
    clock_checkpoint: float = 5.0,
    expire_open_days: float | None = None,
    idle_days: float | None = None,
    analysis_iterations: int | None = None,
    analysis_workers: int | None = None,
) -> FastAPI:
    """The server application over the database ``db_url`` (default: a SQLite file in the user's
    data folder).

    ``bot_mode`` is where bot moves, hints and analyses are computed: "process" (the default: one
    pool of ``bot_workers`` worker processes, and at least ``analysis_workers`` + 1, see
    :mod:`builders.server.workers`), "thread" or "inline"; ``bot_delay`` the pause in seconds before each bot move (0 in tests);
    ``bot_factory(game, level, seed)`` replaces the project's bots (a module-level function, so that
    worker processes can import it).

    ``redis_url`` fans changes out to the other server processes of the database (see
    :mod:`builders.server.cluster`); ``limits`` are the abuse limits (:class:`builders.server.guard.Limits`);
    ``upgrade`` false refuses an old database schema (:class:`builders.server.migrate.SchemaError`)
    instead of upgrading it.
    """
    load_catalogues()  # the server's words in every language (builders.server.messages): a broken one stops here
    limits = limits or Limits()
    store = Store(prepare_database(db_url or default_db_url(), upgrade), create=False)
    # with Redis, bot moves and analyses are jobs for `builders worker` processes (builders.server.jobs)
    jobs = JobQueue(redis_url) if redis_url else None
    accounts = Accounts(store, redis_url=redis_url, **(login_limits or {}))
    # one pool of workers for bot moves and hints (served first) and analyses (in the background)
    pool = WorkerPool(
        bot_workers,
        bot_mode,
        background=settings.number("BUILDERS_ANALYSIS_WORKERS", analysis_workers),
        initializer=prepare_worker,
    )
    service = GameService(
        store,
        BotRunner(factory=bot_factory, jobs=jobs, pool=pool),
        bot_delay=bot_delay,
        bots_only_turns_at_once=limits.bots_only_turns_at_once,
        keep_idle=limits.idle_game_seconds,
        lobby_per_creator=limits.lobby_per_creator,
        names=accounts.names,
        check_seat_name=accounts.check_seat_name,
        clock_after=Clocks.advance,
    )
    # hints and post-game analyses: the iterations of the analyses' search (the hints' budget too)
    analyses = Analyses(service, analysis_iterations=analysis_iterations, jobs=jobs, pool=pool)
    cluster = Cluster(service, store, redis_url)
    # housekeeping: days before an unstarted game is deleted and an untimed idle game is settled
    # (arguments, else the environment variables BUILDERS_EXPIRE_OPEN_DAYS and BUILDERS_IDLE_DAYS)
    clocks = Clocks(
        service,
        checkpoint=clock_checkpoint,
        expire_open=settings.number("BUILDERS_EXPIRE_OPEN_DAYS", expire_open_days) * 86400,
        idle=settings.number("BUILDERS_IDLE_DAYS", idle_days) * 86400,
    )
    ratings = Ratings(service, accounts)
    chat = Chat(service, accounts)
    parts = Parts(store, jobs, accounts, pool, service, analyses, cluster, clocks, ratings, chat)
    listen(parts)

    app = FastAPI(
        title="Builders game server",
        version="1",
        description=f"Play {' and '.join(game.title for game in plugins())} over the network. "
        "Game sockets: /ws/games/{id} (see docs/server.md).",
        lifespan=lifespan(parts),
        responses=_ERRORS,
    )
    # the parts the tests and the operators' tools reach
    for name in ("service", "store", "accounts", "clocks", "ratings", "cluster", "chat", "analyses"):
        setattr(app.state, name, getattr(parts, name))
    app.state.workers = pool
    app.add_middleware(BodyLimit, limit=MAX_BODY)
    metrics = install_ops(app, service, store, cluster)
    app.add_middleware(Guard, limits=limits, metrics=metrics, redis_url=redis_url)
    errors.install(app)
    include_routers(app, parts, limits, metrics)
    mount_static(app, Path(static_dir) if static_dir is not None else default_static_dir())
    return app
