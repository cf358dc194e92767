"""The FastAPI application: the HTTP API under ``/api``, the game sockets under ``/ws`` and the web
client's pages.

``create_app(db_url)`` builds it; ``builders serve`` runs it with uvicorn.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, Literal

from fastapi import Body, FastAPI, Header, Path as PathParam, Query, Request, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from sqlalchemy.exc import SQLAlchemyError
from starlette.exceptions import HTTPException as StarletteHTTPException

from builders.core.messages import Message, msg
from builders.core.plugins import plugins
from builders.server import accounts as accounts_module, seats as seats_module
from builders.server.accounts import Accounts
from builders.server.clocks import Clocks, initial as initial_clock
from builders.server import ratings as ratings_module
from builders.server import settings
from builders.server.ratings import Ratings, check_claim, check_rated
from builders.server import chat as chat_module
from builders.server.chat import Chat
from builders.server import analysis as analysis_module
from builders.server.analysis import Analyses
from builders.server.bots import AgentFactory, BotRunner
from builders.server.jobs import JobQueue
from builders.server.cluster import Cluster
from builders.server.games import ApiError, GameService
from builders.server.guard import Guard, Limits
from builders.server.messages import http_message, language, load as load_catalogues, refusal, scope_language
from builders.server.migrate import prepare as prepare_database
from builders.server.ops import RETRY_AFTER, install_ops
from builders.server.privacy import visible
from builders.server.schemas import (
    GAME_ID_PATTERN, ActionBody, Created, CreateGame, ErrorModel, Join, Joined, RecordModel, ReplayView,
    TEXT_ERROR, ResignBody, Summary, View,
)
from builders.server.store import Store, default_db_url, unreachable
from builders.server.seats import account_for_seat_claim, seat_for
from builders.server.ws import game_socket

log = logging.getLogger("builders.server")

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

GameId = PathParam(pattern=GAME_ID_PATTERN, description="the game's id")
Token = Header(None, alias="X-Seat-Token", description="the seat's secret token")
SeatChoice = Query(None, ge=0, le=3, description="which of your seats (signed in with several seats of the game)")


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


def _address(client: str) -> str:
    """The digest the caps of games of bots alone know a client's address by."""
    return hashlib.sha256(client.encode()).hexdigest()[:24]


def _json(text: str, status: int = 200) -> Response:
    return Response(content=text, status_code=status, media_type="application/json")


def create_app(db_url: str | None = None, *, redis_url: str | None = None, limits: Limits | None = None,
               upgrade: bool = True, bot_mode: str = "process", bot_delay: float = 0.3,
               bot_factory: AgentFactory | None = None, bot_workers: int = 1,
               static_dir: str | Path | None = None, login_limits: dict[str, tuple[int, float]] | None = None,
               clock_checkpoint: float = 5.0, expire_open_days: float | None = None,
               idle_days: float | None = None,
               analysis_iterations: int | None = None, analysis_workers: int | None = None,
               hint_workers: int | None = None) -> FastAPI:
    """The server application over the database ``db_url`` (default: a SQLite file in the user's
    data folder).

    ``bot_mode`` is where bot moves are computed: "process" (a worker process, the default),
    "thread" or "inline"; ``bot_delay`` the pause in seconds before each bot move (0 in tests);
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
    service = GameService(store, BotRunner(bot_mode, bot_factory, bot_workers, jobs), bot_delay=bot_delay,
                          bots_only_turns_at_once=limits.bots_only_turns_at_once,
                          keep_idle=limits.idle_game_seconds, lobby_per_creator=limits.lobby_per_creator)
    #: one creation of a game at a time: the counts of the caps and the new game agree
    creating = asyncio.Lock()
    # hints and post-game analyses (see builders.server.analysis): worker processes, iterations of the
    # analyses' search (the hints' budget too)
    analyses = Analyses(service, bot_mode, analysis_workers, analysis_iterations, jobs, hint_workers)
    cluster = Cluster(service, store, redis_url)
    accounts = Accounts(store, redis_url=redis_url, **(login_limits or {}))
    # housekeeping: days before an unstarted game is deleted and an untimed idle game is settled
    # (arguments, else the environment variables BUILDERS_EXPIRE_OPEN_DAYS and BUILDERS_IDLE_DAYS)
    expire_open_days = settings.number("BUILDERS_EXPIRE_OPEN_DAYS", expire_open_days)
    idle_days = settings.number("BUILDERS_IDLE_DAYS", idle_days)
    clocks = Clocks(service, checkpoint=clock_checkpoint, expire_open=expire_open_days * 86400,
                    idle=idle_days * 86400)
    ratings = Ratings(service, accounts)
    service.names = accounts.names
    service.check_seat_name = accounts.check_seat_name
    static = Path(static_dir) if static_dir is not None else default_static_dir()

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        await cluster.start()
        await service.start()
        await clocks.start()
        await ratings.start()
        await analyses.start()
        try:
            yield
        finally:
            await clocks.stop()
            await cluster.stop()
            await analyses.stop()
            await service.stop()
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
    app.add_middleware(Guard, limits=limits, metrics=install_ops(app, service, store, cluster), redis_url=redis_url)

    def refused(request: Request, message: Message, status: int, headers: dict[str, str] | None = None):
        """A refusal in the reader's language, with its key and parameters (builders.server.messages)."""
        return JSONResponse(refusal(message, language(request)), status_code=status, headers=headers)

    @app.exception_handler(ApiError)
    async def api_error(request: Request, exc: ApiError):
        retry = {"Retry-After": str(RETRY_AFTER)} if exc.status == 503 else None
        return refused(request, exc.message, exc.status, retry)

    @app.exception_handler(SQLAlchemyError)
    async def database_error(request: Request, exc: SQLAlchemyError):
        if unreachable(exc):
            log.warning("the database cannot be reached: %s %s answered 503", request.method, request.url.path)
            return refused(request, msg("the database cannot be reached just now; nothing changed, "
                                        "try again in a few seconds"), 503, {"Retry-After": str(RETRY_AFTER)})
        log.exception("request failed: %s %s", request.method, request.url.path)
        return refused(request, msg("the server failed to handle this request"), 500)

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, exc: RequestValidationError):
        errors = exc.errors()
        first = errors[0] if errors else {}
        if first.get("type") == "json_invalid":
            return refused(request, msg("the request body is not valid JSON"), 400)
        texts = [e for e in errors if e.get("type") == TEXT_ERROR]  # a control character, a bad name
        if texts:
            return refused(request, texts[0].get("ctx", {}).get("message") or str(texts[0]["msg"]), 400)
        where = ".".join(str(part) for part in first.get("loc", ()) if part != "body") or "request"
        # pydantic's own sentence stays English (it is about the request's form, for programs)
        problem = str(first.get("msg", "is not valid"))[:300 - len(where)]
        return refused(request, msg("{field}: {problem}", field=where, problem=problem), 422)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException):
        said = getattr(exc, "message", None) or http_message(exc.status_code, str(exc.detail))
        return refused(request, said, exc.status_code,
                       getattr(exc, "headers", None))

    @app.exception_handler(Exception)
    async def crashed(request: Request, exc: Exception):
        log.exception("request failed: %s %s", request.method, request.url.path)
        return refused(request, msg("the server failed to handle this request"), 500)

    # -- games ---------------------------------------------------------------------------------
    @app.post("/api/games", status_code=201, response_model=Created, tags=["games"],
              summary="Create a game")
    async def create_game(body: CreateGame, request: Request) -> dict[str, Any]:
        who = accounts.identify(request, write=True)
        creator = who.account.id if who.account else None
        if body.hints and body.rated:
            raise ApiError(400, msg("a rated game has no hints: leave hints out or make the game unrated"))
        check_rated(body, who.account)

        def find_user(name: str) -> int | None:
            found = accounts.by_username(name)
            return found.id if found else None

        extra: dict[str, Any] = {"clock": initial_clock(body.clock, len(body.seats))} if body.clock else {}
        if body.rated:
            extra["rated"] = True
        if body.hints:
            extra["hints"] = True
        address = _address(request.client.host if request.client else "?")
        # a few games waiting for players and a few dozen going on per creator, by account and by
        # address (guest accounts cost nothing)
        opening = any(seat.type == "human" and (seat.open or seat.invite) for seat in body.seats)
        bots_only = all(seat.type == "bot" for seat in body.seats)
        if bots_only:
            # a game of bots alone keeps a bot thinking to its end and nobody plays in it: a few at once
            # per creator (account and address) and on the server
            extra.update(bots_only=True, address=address)
        async with creating:
            await asyncio.to_thread(service.check_caps, creator, address, limits.games_waiting_per_creator,
                                    limits.games_per_creator, opening)
            if bots_only:
                await asyncio.to_thread(service.check_bots_only, creator, address,
                                        limits.bots_only_per_creator, limits.bots_only_games)
            created = await service.open(body, creator, find_user, extra, address)
        if body.hints:
            analyses.warm(created["id"], [i for i, seat in enumerate(body.seats) if seat.type == "human"])
        if body.clock:
            clocks.changed(service.live[created["id"]])
        return created

    @app.get("/api/games", response_model=list[Summary], tags=["games"], summary="List games, newest first")
    async def list_games(status: Literal["open", "running", "finished"] | None = Query(None)):
        return service.list_games(status)

    @app.get("/api/games/{game_id}", response_model=Summary, tags=["games"], summary="One game's summary")
    async def game_summary(request: Request, game_id: str = GameId, x_seat_token: str | None = Token):
        return service.summary(await visible(service, accounts, game_id, request, x_seat_token))

    @app.post("/api/games/{game_id}/join", response_model=Joined, tags=["seats"],
              summary="Claim an open seat")
    async def join(body: Join, request: Request, game_id: str = GameId):
        live = await visible(service, accounts, game_id, request)
        who = accounts.identify(request, write=True)
        check_claim(live, who.account, service)
        return service.join(game_id, body.seat, body.name, account_for_seat_claim(accounts, request))

    @app.get("/api/games/{game_id}/state", response_model=View, tags=["play"],
             summary="The view of a seat (with its token) or of a spectator (without)")
    async def state(request: Request, game_id: str = GameId, x_seat_token: str | None = Token,
                    seat: int | None = SeatChoice):
        live = await visible(service, accounts, game_id, request, x_seat_token)
        return _json(service.view_text(live, seat_for(service, accounts, live, request, x_seat_token, seat, False),
                                       language(request)))

    @app.post("/api/games/{game_id}/actions", response_model=View, tags=["play"],
              summary="Play an action for the seat of the token")
    async def act(body: ActionBody, request: Request, game_id: str = GameId, x_seat_token: str | None = Token,
                  seat: int | None = SeatChoice):
        live = await visible(service, accounts, game_id, request, x_seat_token)
        who = seat_for(service, accounts, live, request, x_seat_token, seat, True)
        await service.act_as(live, who, body.action, body.version)
        return _json(service.view_text(live, who, language(request)))

    @app.post("/api/games/{game_id}/undo", response_model=View, tags=["play"],
              summary="Take back the seat's last action of its turn")
    async def undo(request: Request, game_id: str = GameId, x_seat_token: str | None = Token,
                   seat: int | None = SeatChoice):
        live = await visible(service, accounts, game_id, request, x_seat_token)
        who = seat_for(service, accounts, live, request, x_seat_token, seat, True)
        await service.undo_as(live, who)
        return _json(service.view_text(live, who, language(request)))

    @app.post("/api/games/{game_id}/resign", response_model=Summary, tags=["seats"],
              summary="Resign (a loss: placed last; with one player left the game ends), or with "
                      "{\"bot\": level} hand the seat over to a bot")
    async def resign(request: Request, game_id: str = GameId, x_seat_token: str | None = Token,
                     body: ResignBody | None = Body(None), seat: int | None = SeatChoice):
        live = await visible(service, accounts, game_id, request, x_seat_token)
        who = seat_for(service, accounts, live, request, x_seat_token, seat, True)
        client = request.client.host if request.client else "?"
        await service.resign_as(live, who, body.bot if body else None, _address(client),
                                (limits.bots_only_per_creator, limits.bots_only_games))
        return service.summary(live)

    @app.post("/api/games/{game_id}/take-back", response_model=Summary, tags=["seats"],
              summary="Play again a seat you handed over to a bot (unrated games)")
    async def take_back(request: Request, game_id: str = GameId, x_seat_token: str | None = Token,
                        seat: int | None = SeatChoice):
        live = await visible(service, accounts, game_id, request, x_seat_token)
        who = seat_for(service, accounts, live, request, x_seat_token, seat, True)
        await service.take_back(live, who)
        return service.summary(live)

    @app.post("/api/games/{game_id}/abort", status_code=204, tags=["seats"],
              summary="End the game without a result, before every player has made a first move")
    async def abort(request: Request, game_id: str = GameId, x_seat_token: str | None = Token,
                    seat: int | None = SeatChoice):
        live = await visible(service, accounts, game_id, request, x_seat_token)
        seat_for(service, accounts, live, request, x_seat_token, seat, True)  # a player of the game
        await service.abort(live)
        return Response(status_code=204)

    @app.get("/api/games/{game_id}/record", response_model=RecordModel, tags=["records"],
             summary="The record of a finished game")
    async def record(request: Request, game_id: str = GameId, x_seat_token: str | None = Token):
        return service.finished_record((await visible(service, accounts, game_id, request, x_seat_token)).id)

    @app.get("/api/games/{game_id}/replay/{n}", response_model=ReplayView, tags=["records"],
             summary="A finished game's position after n actions")
    async def replay(request: Request, game_id: str = GameId, n: int = PathParam(ge=0, le=100_000),
                     x_seat_token: str | None = Token):
        return service.replay_view((await visible(service, accounts, game_id, request, x_seat_token)).id, n,
                                   language(request))

    @app.websocket("/ws/games/{game_id}")
    async def socket(ws: WebSocket, game_id: str):
        await game_socket(ws, game_id, service, accounts)

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
    app.include_router(analysis_module.router(service, accounts, analyses))

    # -- pages ---------------------------------------------------------------------------------
    def page(name: str):
        path = static / name
        if path.is_file():
            return FileResponse(path)
        return HTMLResponse("<!doctype html><title>Builders</title><p>The web client is not installed. "
                            "The API is described at <a href=\"/docs\">/docs</a>.</p>", status_code=404)

    @app.get("/", include_in_schema=False)
    async def lobby():
        return page("index.html")

    @app.get("/play/{game_id}", include_in_schema=False)
    async def play_page(game_id: str):
        return page("play.html")

    @app.get("/replay/{game_id}", include_in_schema=False)
    async def replay_page(game_id: str):
        return page("replay.html")

    @app.get("/account", include_in_schema=False)
    async def account_page():
        return page("account.html")

    @app.get("/players/{username}", include_in_schema=False)
    async def profile_page(username: str):
        return page("profile.html")

    for game in plugins():  # a game packaged on its own brings its web files (builders.core.plugins)
        if game.web_dir is not None:
            app.mount(f"/static/games/{game.name}", StaticFiles(directory=game.web_folder()), name=f"web-{game.name}")
    app.mount("/static", StaticFiles(directory=static, check_dir=False), name="static")
    return app
