"""Holding up against abuse: what is refused before a request reaches the game service.

:class:`Guard` is an ASGI middleware around the whole application:

- an optional list of allowed ``Host`` names (400 for another);
- rate limits per client address and kind of request (create, join, action, login, chat): a token
  bucket each, 429 with ``Retry-After`` when empty;
- a cap on the game sockets open at once per client address (the socket is refused with 403);
- the ``Origin`` check: a WebSocket opened by a page of another site is refused, and so is a request
  that changes something and carries a cookie (the only credential a browser adds by itself);
- security headers on every answer (CSP with ``frame-ancestors 'none'``, ``nosniff``,
  ``Referrer-Policy: no-referrer``); gzip for the pages and static files; HEAD on the pages;
- a request body sent in chunks (no ``Content-Length``) is read up to the limit first: a larger one
  gets 413;
- the ``Idempotency-Key`` header of an action is handed to the game service (see
  :data:`builders.server.games.REQUEST_KEY`).

:class:`GuardedHttpTools` is the HTTP protocol of ``builders serve``: it also drops a connection whose
request headers are not complete within :attr:`Limits.header_seconds` (slow loris) and caps the TCP
connections per client address.
"""

from __future__ import annotations

import math
import re
import time
from dataclasses import dataclass, field
from typing import Any

from starlette.middleware.gzip import GZipMiddleware

#: the pages the web client serves (HEAD is answered like GET for them)
PAGE = re.compile(r"^/(|play/[^/]+|replay/[^/]+|account|players/[^/]+|rules)$")
CSP = ("default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; "
       "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
       "frame-ancestors 'none'")
SECURITY_HEADERS = [
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
]


@dataclass
class Limits:
    """Rates are (requests, per seconds) per client address and kind of request."""

    rates: dict[str, tuple[int, float]] = field(default_factory=lambda: {
        "create": (30, 60.0), "join": (60, 60.0), "action": (1200, 60.0), "login": (10, 60.0),
        "chat": (30, 60.0), "hint": (60, 60.0),
    })
    #: game sockets open at once per client address
    sockets_per_address: int = 64
    #: messages a second one game socket may send, and at once (builders.server.ws)
    socket_messages: tuple[float, float] = (20.0, 40.0)
    #: TCP connections open at once per client address (GuardedHttpTools)
    connections_per_address: int = 1024
    #: seconds for a client to send complete request headers (GuardedHttpTools)
    header_seconds: float = 10.0
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


def kind_of(method: str, path: str) -> str | None:
    """The rate-limited kind of a request (None: not limited)."""
    if method != "POST":
        return None
    if path == "/api/games":
        return "create"
    if path.startswith("/api/games/"):
        tail = path.rsplit("/", 1)[-1]
        if tail in ("actions", "undo", "resign"):
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
    """Token buckets per (address, kind); an address not seen for a while is forgotten."""

    def __init__(self, rates: dict[str, tuple[int, float]]):
        self.rates = rates
        self.buckets: dict[tuple[str, str], tuple[float, float]] = {}
        self.swept = time.monotonic()

    def take(self, address: str, kind: str) -> float:
        """0 if the request may go on, else the seconds until it may."""
        capacity, per = self.rates[kind]
        rate = capacity / per
        now = time.monotonic()
        tokens, at = self.buckets.get((address, kind), (float(capacity), now))
        tokens = min(float(capacity), tokens + (now - at) * rate)
        if tokens < 1.0:
            self.buckets[(address, kind)] = (tokens, now)
            return (1.0 - tokens) / rate
        self.buckets[(address, kind)] = (tokens - 1.0, now)
        if now - self.swept > 60:
            self.swept = now
            longest = max(p for _, p in self.rates.values())
            self.buckets = {k: v for k, v in self.buckets.items() if now - v[1] < longest}
        return 0.0


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
    def __init__(self, app: Any, limits: Limits | None = None, metrics: Any = None):
        self.app = app
        self.limits = limits or Limits()
        self.buckets = Buckets(self.limits.rates)
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
                return await self._refuse(scope, send, 400, "this server does not answer for that host name")
        address = (scope.get("client") or ("?", 0))[0]
        if scope["type"] == "websocket":
            return await self._socket(scope, receive, send, address)
        method, path = scope["method"], scope["path"]
        origin = _header(scope, b"origin")
        if (method not in ("GET", "HEAD", "OPTIONS") and origin is not None and _header(scope, b"cookie")
                and not _origin_ok(scope, origin, self.limits)):
            return await self._refuse(scope, send, 403, "requests from pages of other sites are refused")
        kind = kind_of(method, path)
        if kind is not None:
            wait = self.buckets.take(address, kind)
            if wait > 0:
                return await self._refuse(scope, send, 429, f"too many {kind} requests from your address: "
                                          f"try again in {math.ceil(wait)} s",
                                          [(b"retry-after", str(math.ceil(wait)).encode())])
        if method in ("POST", "PUT", "PATCH", "DELETE") and _header(scope, b"content-length") is None:
            receive = await self._buffered(receive)
            if receive is None:
                return await self._refuse(scope, send, 413, f"the request body is too large: at most "
                                                            f"{self.limits.max_body} bytes")
        if method == "HEAD" and PAGE.match(path):
            scope = {**scope, "method": "GET"}
            send = _no_body(send)
        if kind == "action":
            from builders.server.games import REQUEST_KEY

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
            return await self._refuse(scope, send, 403, "sockets from pages of other sites are refused")
        if self.sockets.get(address, 0) >= self.limits.sockets_per_address:
            return await self._refuse(scope, send, 429, "too many open sockets from your address")
        self.sockets[address] = self.sockets.get(address, 0) + 1
        try:
            return await self.app({**scope, "builders.limits": self.limits}, receive, send)
        finally:
            left = self.sockets[address] - 1
            if left:
                self.sockets[address] = left
            else:
                del self.sockets[address]

    async def _refuse(self, scope, send, status: int, detail: str, headers: list | None = None):
        if scope["type"] == "websocket":  # refused before the handshake: an HTTP answer
            await send({"type": "websocket.close", "code": 1008, "reason": detail[:120]})
            return
        import json

        body = json.dumps({"detail": detail}).encode()
        await send({"type": "http.response.start", "status": status,
                    "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                                *SECURITY_HEADERS, *(headers or [])]})
        await send({"type": "http.response.body", "body": body})


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

    def _release(self) -> None:
        if self._header_timer is not None:
            self._header_timer.cancel()
            self._header_timer = None
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
