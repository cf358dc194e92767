"""The FastAPI application: the HTTP API under ``/api``, the game sockets under ``/ws`` and the web
client's pages.

``create_app(db_url)`` builds it; ``builders serve`` runs it with uvicorn.
"""

from __future__ import annotations

import json
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles

from builders.core.messages import msg
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
from builders.server.messages import load as load_catalogues, refusal, scope_language
from builders.server.migrate import prepare as prepare_database
from builders.server.ops import install_ops
from builders.server.schemas import ErrorModel
from builders.server.store import Store, default_db_url
from builders.server.workers import WorkerPool

#: the largest HTTP request body accepted (bytes)
MAX_BODY = 16 * 1024

_ERRORS: dict[int | str, dict[str, Any]] = {
    code: {"model": ErrorModel, "description": text} for code, text in (
        (400, "malformed request or illegal action"), (401, "missing or wrong seat token or session"),
        (403, "not this seat's turn, not your seat, or the CSRF token is missing"), (404, "no such game"), (409, "conflict with the game's state"),
        (413, "request body too large"), (422, "a field of the request is not valid"),
        (503, "the database could not save the change (nothing changed)"),
    )
}

def default_static_dir() -> Path:
    return Path(__file__).resolve().parent.parent / "web" / "static"


class BodyLimit:
    """Refuses request bodies larger than ``limit`` bytes with 413 (declared or streamed)."""

    def __init__(self, app, limit: int = MAX_BODY):
        self.app = app
        self.limit = limit

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        for name, value in scope.get("headers", []):
            if name == b"content-length":
                try:
                    too_big = int(value) > self.limit
                except ValueError:
                    too_big = False
                if too_big:
                    return await self._refuse(scope, send)
        seen = 0

        async def limited():
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.limit:
                    raise _TooLarge
            return message

        started = False

        async def tracking_send(message):
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, limited, tracking_send)
        except _TooLarge:
            if not started:
                await self._refuse(scope, send)

    async def _refuse(self, scope, send):
        body = json.dumps(refusal(msg("the request body is too large: at most {count} bytes", count=self.limit),
                                    scope_language(scope))).encode()
        await send({"type": "http.response.start", "status": 413,
                    "headers": [(b"content-type", b"application/json"),
                                (b"content-length", str(len(body)).encode())]})
        await send({"type": "http.response.body", "body": body})


class _TooLarge(Exception):
    pass


def create_app(db_url: str | None = None, *, redis_url: str | None = None, limits: Limits | None = None,
               upgrade: bool = True, bot_mode: str = "process", bot_delay: float = 0.3,
               bot_factory: AgentFactory | None = None, bot_workers: int = 1,
               static_dir: str | Path | None = None, login_limits: dict[str, tuple[int, float]] | None = None,
               clock_checkpoint: float = 5.0, expire_open_days: float | None = None,
               idle_days: float | None = None,
               analysis_iterations: int | None = None, analysis_workers: int | None = None) -> FastAPI:
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
    store = Store(prepare_database(db_url or default_db_url(), upgrade), create=False)
    # with Redis, bot moves and analyses are jobs for `builders worker` processes (builders.server.jobs)
    jobs = JobQueue(redis_url) if redis_url else None
    limits = limits or Limits()
    accounts = Accounts(store, redis_url=redis_url, **(login_limits or {}))
    # one pool of workers for bot moves and hints (served first) and analyses (in the background)
    pool = WorkerPool(bot_workers, bot_mode, background=settings.number("BUILDERS_ANALYSIS_WORKERS", analysis_workers),
                      initializer=prepare_worker)
    service = GameService(store, BotRunner(factory=bot_factory, jobs=jobs, pool=pool), bot_delay=bot_delay,
                          bots_only_turns_at_once=limits.bots_only_turns_at_once,
                          keep_idle=limits.idle_game_seconds, lobby_per_creator=limits.lobby_per_creator,
                          names=accounts.names, check_seat_name=accounts.check_seat_name,
                          clock_after=Clocks.advance)
    # hints and post-game analyses (see builders.server.analysis): iterations of the analyses' search
    # (the hints' budget too)
    analyses = Analyses(service, analysis_iterations=analysis_iterations, jobs=jobs, pool=pool)
    cluster = Cluster(service, store, redis_url)
    # housekeeping: days before an unstarted game is deleted and an untimed idle game is settled
    # (arguments, else the environment variables BUILDERS_EXPIRE_OPEN_DAYS and BUILDERS_IDLE_DAYS)
    expire_open_days = settings.number("BUILDERS_EXPIRE_OPEN_DAYS", expire_open_days)
    idle_days = settings.number("BUILDERS_IDLE_DAYS", idle_days)
    clocks = Clocks(service, checkpoint=clock_checkpoint, expire_open=expire_open_days * 86400,
                    idle=idle_days * 86400)
    ratings = Ratings(service, accounts)
    static = Path(static_dir) if static_dir is not None else default_static_dir()

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        await cluster.start()
        await service.start()
        await clocks.start()
        await ratings.start()
        await analyses.start()
        pool.warm()     # the workers start with the server: a first bot move does not wait for one
        try:
            yield
        finally:
            await clocks.stop()
            await cluster.stop()
            await analyses.stop()
            await service.stop()
            pool.close()
            if jobs is not None:
                await jobs.close()
            store.close()

    app = FastAPI(
        title="Builders game server",
        version="1",
        description=f"Play {' and '.join(game.title for game in plugins())} over the network. "
                    "Game sockets: /ws/games/{id} (see docs/server.md).",
        lifespan=lifespan,
        responses=_ERRORS,
    )
    app.state.service = service
    app.state.store = store
    app.state.accounts = accounts
    app.state.clocks = clocks
    app.state.ratings = ratings
    app.add_middleware(BodyLimit, limit=MAX_BODY)
    app.state.cluster = cluster
    metrics = install_ops(app, service, store, cluster)
    app.add_middleware(Guard, limits=limits, metrics=metrics, redis_url=redis_url)

    errors.install(app)
    app.include_router(routes_games.router(service, accounts, analyses, clocks, limits))
    app.include_router(routes_play.router(service, accounts, limits, metrics))
    app.include_router(routes_records.router(service, accounts))

    async def adopt_guest(guest: int, account: int) -> None:
        await seats_module.adopt(service, guest, account)

    async def leave_games(account: int) -> None:
        await accounts_module.leave_games(service, account)

    app.include_router(accounts_module.router(accounts, adopt_guest, leave_games))
    app.include_router(seats_module.router(service, accounts))
    chat = Chat(service, accounts)
    app.state.chat = chat
    app.include_router(chat_module.router(service, accounts, chat))
    app.include_router(ratings_module.router(ratings))
    app.state.analyses = analyses
    app.state.workers = pool
    app.include_router(analysis_module.router(service, accounts, analyses))

    app.include_router(routes_pages.router(static))
    for game in plugins():  # a game packaged on its own brings its web files (builders.core.plugins)
        if game.web_dir is not None:
            app.mount(f"/static/games/{game.name}", StaticFiles(directory=game.web_folder()), name=f"web-{game.name}")
    app.mount("/static", StaticFiles(directory=static, check_dir=False), name="static")
    return app
