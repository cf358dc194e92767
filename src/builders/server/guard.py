"""Holding up against abuse: what is refused before a request reaches the game service.

:class:`Guard` is an ASGI middleware around the whole application:

- an optional list of allowed ``Host`` names (400 for another);
- rate limits per client address and kind of request (create, join, action, login, chat, hint, and
  read: every GET but the static files): a token bucket each (:mod:`builders.server.limits`: shared
  by the server processes through Redis when there is one), 429 with ``Retry-After`` when empty;
- ``Retry-After`` (whole seconds) on every 429 of the application too: the seconds its detail names,
  else :data:`RETRY_AFTER_429`;
- a request body not complete within :attr:`Limits.body_seconds` of the request's start gets 408
  (JSON detail) and the connection is closed;
- a cap on the game sockets open at once per client address (the socket is refused with 403);
- the ``Origin`` check: a WebSocket opened by a page of another site is refused, and so is a request
  that changes something and carries a cookie (the only credential a browser adds by itself);
- security headers on every answer (CSP with ``frame-ancestors 'none'``, ``nosniff``,
  ``Referrer-Policy: no-referrer``); gzip for the pages and static files; HEAD on the pages;
- a request body sent in chunks (no ``Content-Length``) is read up to the limit first: a larger one
  gets 413;
- the ``Idempotency-Key`` header of an action is handed to the game service (see
  :data:`builders.server.live.REQUEST_KEY`).

:class:`GuardedHttpTools` is the HTTP protocol of ``builders serve``: it also drops a connection whose
request headers are not complete within :attr:`Limits.header_seconds` (slow loris), or whose request
body is still not complete a second after :attr:`Limits.body_seconds` (a body the application did not
wait for: 408 when no answer was sent yet), and caps the TCP connections per client address.
"""

from __future__ import annotations

import asyncio
import json
import math
import re
import time
from dataclasses import dataclass, field
from typing import Any

from starlette.exceptions import HTTPException
from starlette.middleware.gzip import GZipMiddleware

from builders.core.messages import Message, msg, word
from builders.server.messages import refusal, scope_language
from builders.server.limits import LocalLimits, shared

#: the pages the web client serves (HEAD is answered like GET for them)
PAGE = re.compile(r"^/(|play/[^/]+|replay/[^/]+|account|players/[^/]+|rules)$")
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; "
    "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
    "frame-ancestors 'none'"
)
SECURITY_HEADERS = [
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
]
#: the Retry-After of a 429 whose detail names no number of seconds
RETRY_AFTER_429 = 60
#: "... in 12 seconds", "wait 3 s": the seconds a 429's detail names
_SECONDS = re.compile(rb"(\d+) ?(?:s|seconds?)\b")
#: GET requests not counted by the "read" limit (monitoring; and files under /static/, which browsers
#: keep and which cost the server no database work)
UNCOUNTED = ("/healthz", "/metrics")


@dataclass
class Limits:
    """Rates are (requests, per seconds) per client address and kind of request."""

    rates: dict[str, tuple[int, float]] = field(
        default_factory=lambda: {
            "create": (30, 60.0),
            "join": (60, 60.0),
            "action": (1200, 60.0),
            "login": (10, 60.0),
            "chat": (30, 60.0),
            "hint": (60, 60.0),
            "read": (600, 60.0),
        }
    )
    #: game sockets open at once per client address
    sockets_per_address: int = 64
    #: messages a second one game socket may send, and at once (builders.server.ws)
    socket_messages: tuple[float, float] = (20.0, 40.0)
    #: TCP connections open at once per client address (GuardedHttpTools)
    connections_per_address: int = 1024
    #: seconds for a client to send complete request headers (GuardedHttpTools)
    header_seconds: float = 10.0
    #: seconds for a client to send a complete request body, from the end of its headers
    body_seconds: float = 10.0
    #: Host names accepted (None: any)
    allowed_hosts: list[str] | None = None
    #: origins (scheme://host[:port]) besides the server's own whose pages may use the API
    allowed_origins: list[str] = field(default_factory=list)
    #: largest request body (bytes)
    max_body: int = 16 * 1024
    #: games of bots alone (every seat a bot from the start) not yet over, per creator (their account
    #: and their address each) and on the whole server: each keeps a bot thinking until its end
    bots_only_per_creator: int = 2
    bots_only_games: int = 20
    #: bot turns of games without a person in them computed at once (the people's bots keep the
    #: other workers, whatever the games of bots alone)
    bots_only_turns_at_once: int = 1
    #: games one person may have waiting for players (an open or invited seat not taken) and going on
    #: (not over), counted by account and by address each (builders.server.games.GameService.check_caps)
    games_waiting_per_creator: int = 5
    games_per_creator: int = 30
    #: open games of one creator the lobby lists (the others are reached by their links)
    lobby_per_creator: int = 3
    #: seconds a game nobody uses (no socket, no request, no change, no bot thinking) stays in memory
    idle_game_seconds: float = 600.0


#: the kinds of requests as a refusal names them, each a word to translate
KIND_WORDS = {
    w.key: w
    for w in (
        word("requests", "read"),
        word("requests", "login"),
        word("requests", "create"),
        word("requests", "action"),
        word("requests", "join"),
        word("requests", "chat"),
        word("requests", "hint"),
    )
}


def kind_of(method: str, path: str) -> str | None:
    """The rate-limited kind of a request (None: not limited)."""
    if method in ("GET", "HEAD"):
        return None if path in UNCOUNTED or path.startswith("/static/") else "read"
    if method == "DELETE" and path == "/api/account":  # a password is checked
        return "login"
    if method != "POST":
        return None
    if path == "/api/games":
        return "create"
    if path.startswith("/api/games/"):
        tail = path.rsplit("/", 1)[-1]
        if tail in ("actions", "undo", "resign", "take-back", "abort"):
            return "action"
        if tail in ("join", "claim"):
            return "join"
        if tail == "chat":
            return "chat"
        if tail == "hint":  # a second of the hints' worker each: a player asks one a decision
            return "hint"
        if tail == "rematch":
            return "create"
        return None
    if path.startswith(("/api/session", "/api/accounts", "/api/account/")):  # sign up, in, password
        return "login"
    return None


class Buckets:
    """The rate limits per (address, kind) of :attr:`Limits.rates` (a kind not there is not limited):
    on Redis when ``redis_url`` is given (shared by every server process; this process's own
    buckets while Redis is away), else in this process."""

    def __init__(self, rates: dict[str, tuple[int, float]], redis_url: str | None = None):
        self.rates = rates
        self.limits = shared(redis_url) if redis_url else LocalLimits()

    async def take(self, address: str, kind: str) -> float:
        """0 if the request may go on, else the seconds until it may."""
        rate = self.rates.get(kind)
        if rate is None:
            return 0.0
        return await self.limits.take_async(f"{kind}:{address}", *rate)


class BodyTimeout(HTTPException):
    """The request body did not come in time (408; the connection is closed after the answer)."""

    def __init__(self, seconds: float):
        self.message = msg("the request body was not complete within {seconds:g} s", seconds=seconds)
        super().__init__(408, str(self.message), headers={"Connection": "close"})


def _header(scope: dict[str, Any], name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key == name:
            return value.decode("latin-1")
    return None


def _origin_ok(scope: dict[str, Any], origin: str, limits: Limits) -> bool:
    host = _header(scope, b"host") or ""
    own = origin.split("://", 1)[-1].rstrip("/").lower()
    return own == host.lower() or origin.rstrip("/").lower() in {o.rstrip("/").lower() for o in limits.allowed_origins}


class Guard:
    def __init__(self, app: Any, limits: Limits | None = None, metrics: Any = None, redis_url: str | None = None):
        self.app = app
        self.limits = limits or Limits()
        self.buckets = Buckets(self.limits.rates, redis_url)
        self.sockets: dict[str, int] = {}
        self.gzip = GZipMiddleware(app, minimum_size=800)
        self.metrics = metrics
        self.hosts = {h.lower() for h in self.limits.allowed_hosts} if self.limits.allowed_hosts else None

    async def __call__(self, scope, receive, send):
        if scope["type"] not in ("http", "websocket"):
            return await self.app(scope, receive, send)
        if self.hosts is not None:
            host = (_header(scope, b"host") or "").rsplit(":", 1)[0].strip("[]").lower()
            if host not in self.hosts:
                return await self._refuse(scope, send, 400, msg("this server does not answer for that host name"))
        address = (scope.get("client") or ("?", 0))[0]
        if scope["type"] == "websocket":
            return await self._socket(scope, receive, send, address)
        method, path = scope["method"], scope["path"]
        origin = _header(scope, b"origin")
        if (
            method not in ("GET", "HEAD", "OPTIONS")
            and origin is not None
            and _header(scope, b"cookie")
            and not _origin_ok(scope, origin, self.limits)
        ):
            return await self._refuse(scope, send, 403, msg("requests from pages of other sites are refused"))
        kind = kind_of(method, path)
        if kind is not None:
            wait = await self.buckets.take(address, kind)
            if wait > 0:
                return await self._refuse(
                    scope,
                    send,
                    429,
                    msg(
                        "too many {kind} requests from your address: try again in {seconds} s",
                        kind=KIND_WORDS.get(kind, kind),
                        seconds=math.ceil(wait),
                    ),
                    [(b"retry-after", str(math.ceil(wait)).encode())],
                )
        answered: list[bool] = []
        try:
            return await self._http(
                scope, _deadline(receive, self.limits.body_seconds), _retry_after(send, answered), method, path, kind
            )
        except BodyTimeout as e:
            if not answered:
                await self._refuse(scope, send, 408, e.message, [(b"connection", b"close")])

    async def _http(self, scope, receive, send, method: str, path: str, kind: str | None):
        if method in ("POST", "PUT", "PATCH", "DELETE") and _header(scope, b"content-length") is None:
            receive = await self._buffered(receive)
            if receive is None:
                return await self._refuse(
                    scope,
                    send,
                    413,
                    msg("the request body is too large: at most {count} bytes", count=self.limits.max_body),
                )
        if method == "HEAD" and PAGE.match(path):
            scope = {**scope, "method": "GET"}
            send = _no_body(send)
        if kind == "action":
            from builders.server.live import REQUEST_KEY

            token = REQUEST_KEY.set(_header(scope, b"idempotency-key"))
            started = time.perf_counter()
            try:
                return await self.app(scope, receive, _secured(send, path))
            finally:
                REQUEST_KEY.reset(token)
                if self.metrics is not None:
                    self.metrics.round_trip.labels("http").observe(time.perf_counter() - started)
        if method in ("GET", "HEAD") and (path.startswith("/static/") or PAGE.match(path)):
            return await self.gzip(scope, receive, _secured(send, path))
        return await self.app(scope, receive, _secured(send, path))

    async def _buffered(self, receive):
        """The body read up to the limit, then handed on (None: larger than the limit)."""
        chunks, size = [], 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                chunks.append(message)
                break
            size += len(message.get("body", b""))
            if size > self.limits.max_body:
                return None
            chunks.append(message)
            if not message.get("more_body", False):
                break
        body = b"".join(m.get("body", b"") for m in chunks if m["type"] == "http.request")
        done = False

        async def replay():
            nonlocal done
            if not done:
                done = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        return replay

    async def _socket(self, scope, receive, send, address: str):
        origin = _header(scope, b"origin")
        if origin is not None and not _origin_ok(scope, origin, self.limits):
            return await self._refuse(scope, send, 403, msg("sockets from pages of other sites are refused"))
        if self.sockets.get(address, 0) >= self.limits.sockets_per_address:
            return await self._refuse(scope, send, 429, msg("too many open sockets from your address"))
        self.sockets[address] = self.sockets.get(address, 0) + 1
        try:
            return await self.app({**scope, "builders.limits": self.limits}, receive, send)
        finally:
            left = self.sockets[address] - 1
            if left:
                self.sockets[address] = left
            else:
                del self.sockets[address]

    async def _refuse(self, scope, send, status: int, detail: Message, headers: list | None = None):
        text = refusal(detail, scope_language(scope))
        if scope["type"] == "websocket":  # refused before the handshake: an HTTP answer
            await send({"type": "websocket.close", "code": 1008, "reason": text["detail"][:120]})
            return
        body = json.dumps(text).encode()
        await send(
            {
                "type": "http.response.start",
                "status": status,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()),
                    *SECURITY_HEADERS,
                    *(headers or []),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})


def _deadline(receive, seconds: float):
    """``receive`` that raises :class:`BodyTimeout` when the request body is not complete within
    ``seconds`` (from now); once it is, waiting (for the client to go) has no deadline."""
    deadline = time.monotonic() + seconds
    complete = False

    async def timed():
        nonlocal complete
        if complete:
            return await receive()
        left = deadline - time.monotonic()
        if left <= 0:
            raise BodyTimeout(seconds)
        try:
            message = await asyncio.wait_for(receive(), left)
        except TimeoutError:
            raise BodyTimeout(seconds) from None
        if message["type"] != "http.request" or not message.get("more_body", False):
            complete = True
        return message

    return timed


def _retry_after(send, started: list[bool]):
    """``send`` that gives a 429 without ``Retry-After`` one: the seconds its detail names, else
    :data:`RETRY_AFTER_429` (and notes in ``started`` that an answer began)."""
    held: dict[str, Any] | None = None

    async def sending(message):
        nonlocal held
        if message["type"] == "http.response.start":
            started.append(True)
            headers = message.get("headers", [])
            if message["status"] == 429 and not any(k.lower() == b"retry-after" for k, _ in headers):
                held = message
                return
        elif held is not None and message["type"] == "http.response.body":
            found = _SECONDS.search(message.get("body", b""))
            seconds = max(1, int(found.group(1))) if found else RETRY_AFTER_429
            start, held = held, None
            await send({**start, "headers": [*start.get("headers", []), (b"retry-after", str(seconds).encode())]})
        await send(message)

    return sending


def _secured(send, path: str):
    docs = path.startswith(("/docs", "/redoc"))  # the API pages load their own scripts

    async def secured(message):
        if message["type"] == "http.response.start":
            headers = list(message.get("headers", []))
            headers.extend(SECURITY_HEADERS)
            if not docs:
                headers.append((b"content-security-policy", CSP.encode()))
            message = {**message, "headers": headers}
        await send(message)

    return secured


def _no_body(send):
    async def head(message):
        if message["type"] == "http.response.body":
            message = {**message, "body": b""}
        await send(message)

    return head


# -- the HTTP protocol of `builders serve` ------------------------------------------------------
try:
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
except ImportError:  # pragma: no cover - uvicorn[standard] brings httptools
    HttpToolsProtocol = object  # type: ignore[misc,assignment]


class GuardedHttpTools(HttpToolsProtocol):  # type: ignore[misc,valid-type]
    """uvicorn's httptools protocol that drops a connection whose request headers are not complete
    within ``limits.header_seconds`` (slow loris) and caps the TCP connections per client address
    (the limits of :func:`builders.server.run.run`, read from the environment in worker processes)."""

    limits = Limits()
    open_per_address: dict[str, int] = {}

    def connection_made(self, transport):  # type: ignore[override]
        super().connection_made(transport)
        peer = transport.get_extra_info("peername")
        self._address: str | None = peer[0] if peer else "?"
        count = self.open_per_address.get(self._address, 0) + 1
        self.open_per_address[self._address] = count
        self._header_timer = None
        self._body_timer = None
        if count > self.limits.connections_per_address:
            transport.close()
            return
        self._arm()

    def _arm(self) -> None:
        self._header_timer = self.loop.call_later(self.limits.header_seconds, self._too_slow)

    def _too_slow(self) -> None:
        self._header_timer = None
        if not self.transport.is_closing():
            self.transport.close()

    def on_message_begin(self) -> None:  # type: ignore[override]
        super().on_message_begin()
        if self._header_timer is None:
            self._arm()

    def on_headers_complete(self) -> None:  # type: ignore[override]
        if self._header_timer is not None:
            self._header_timer.cancel()
            self._header_timer = None
        super().on_headers_complete()
        if self._expects_body():  # a second more than the application's own deadline (Guard)
            self._body_timer = self.loop.call_later(self.limits.body_seconds + 1.0, self._body_too_slow)

    def _expects_body(self) -> bool:
        for name, value in self.scope.get("headers", ()):
            if name == b"content-length":
                return value.strip() not in (b"", b"0")
            if name == b"transfer-encoding":
                return True
        return False

    def on_message_complete(self) -> None:  # type: ignore[override]
        if self._body_timer is not None:
            self._body_timer.cancel()
            self._body_timer = None
        super().on_message_complete()

    def _body_too_slow(self) -> None:
        """The body is still coming: 408 if nothing was answered yet, and the connection closed."""
        self._body_timer = None
        if self.transport.is_closing():
            return
        cycle = self.cycle
        if cycle is not None and not cycle.response_started:
            cycle.response_started = True
            body = json.dumps(
                refusal(BodyTimeout(self.limits.body_seconds).message, scope_language(cycle.scope))
            ).encode()
            self.transport.write(
                b"HTTP/1.1 408 Request Timeout\r\ncontent-type: application/json\r\n"
                b"content-length: %d\r\nconnection: close\r\n\r\n%s" % (len(body), body)
            )
        self.transport.close()

    def _release(self) -> None:
        for timer in (self._header_timer, self._body_timer):
            if timer is not None:
                timer.cancel()
        self._header_timer = self._body_timer = None
        if self._address is not None:
            left = self.open_per_address.get(self._address, 1) - 1
            if left > 0:
                self.open_per_address[self._address] = left
            else:
                self.open_per_address.pop(self._address, None)
            self._address = None

    def handle_websocket_upgrade(self) -> None:  # type: ignore[override]
        self._release()  # the socket is the game socket's now (capped by Guard)
        super().handle_websocket_upgrade()

    def connection_lost(self, exc):  # type: ignore[override]
        self._release()
        super().connection_lost(exc)
