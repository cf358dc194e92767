"""The WebSocket of a game, ``/ws/games/{id}``.

The client's first message is ``{"type": "hello", "token": str | null, "seat": int?}``: a seat token,
or null with the session cookie of the page (same origin only) for the signed-in player's seat
(``seat`` chooses among several), or null for a spectator; the server answers with the client's view, ``{"type": "state", ...}``, and sends a new one after every
change of the game. The client sends ``action``, ``undo`` and ``ping`` messages; anything wrong gets
``{"type": "error", "message": ...}`` and changes nothing.

A socket whose hello was recognised by the session cookie or a personal API token is closed (code
4401, with the reason) when that credential ends: see :class:`builders.server.accounts.OpenSockets`.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections import deque
from typing import Any

from fastapi import WebSocket, WebSocketDisconnect

from sqlalchemy.exc import SQLAlchemyError

from builders.core.messages import Message, msg
from builders.server.games import ApiError, GameService, Live
from builders.server.messages import language, refusal, translate
from builders.server.privacy import account_of
from builders.server.store import unreachable

log = logging.getLogger("builders.server")

MAX_MESSAGE = 8 * 1024
QUEUE_LIMIT = 512
#: a socket must say hello within this many seconds
HELLO_SECONDS = 10.0
#: after hello a socket may stay silent (a spectator only listens): dead peers are found by the
#: WebSocket ping/pong of the server (every 20 s, 20 s to answer); a number here closes silent ones
IDLE_SECONDS: float | None = None


def _error(ws: WebSocket, message: Message, code: int | None = None) -> str:
    """An error message for the client of ``ws``, in its language: the text, the HTTP-like status
    (``code``), and the message's ``key`` and ``params`` (builders.server.messages)."""
    said = refusal(message, language(ws))
    out: dict[str, Any] = {"type": "error", "message": said["detail"]}
    if code is not None:
        out["code"] = code
    out.update(key=said["code"], params=said["params"])
    return json.dumps(out)


class Messages:
    """A token bucket: at most ``rate`` messages a second from one socket, ``burst`` at once."""

    def __init__(self, rate: float = 20.0, burst: float = 40.0):
        self.rate = rate
        self.burst = burst
        self.tokens = burst
        self.at = time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens < 1.0:
            return False
        self.tokens -= 1.0
        return True


class Connection:
    """One socket: messages go out in order through a queue drained by a writer task, so a slow
    client never holds up the game or the other clients. (A deque and one future to wake the
    writer: every action sends each socket of the game a message, and ``asyncio.Queue`` costs more.)"""

    def __init__(self, ws: WebSocket):
        self.ws = ws
        self.seat: int | None = None
        #: the language of its views' log (builders.server.messages; the account's once hello has seen it)
        self.lang = language(ws)
        #: what is to go out, in order (None: close the socket)
        self.pending: deque[str | None] = deque()
        #: the future the idle writer waits on (None while it writes)
        self._waiting: asyncio.Future[None] | None = None
        self.writer = asyncio.get_running_loop().create_task(self._write())
        self.closed = False
        #: the close code and reason once the socket is let go of
        self.close_with: tuple[int, Message | None] = (1008, None)
        #: the session or API token the socket's hello was recognised by (None: a seat token, none)
        self.credential: tuple[str, str] | None = None

    def _put(self, text: str | None) -> None:
        self.pending.append(text)
        waiting = self._waiting
        if waiting is not None and not waiting.done():
            waiting.set_result(None)

    def end(self, code: int, reason: Message) -> None:
        """Close the socket with ``code`` and ``reason`` (in the socket's language) once what is
        queued went out; nothing it sends is handled any more."""
        if self.closed:
            return
        self.close_with = (code, reason)
        self.closed = True
        self._put(None)

    def send(self, text: str) -> None:
        if self.closed:
            return
        if len(self.pending) >= QUEUE_LIMIT:  # the client does not read: let it go
            self.closed = True
            self._put(None)
            return
        self._put(text)

    async def _write(self) -> None:
        pending = self.pending
        loop = asyncio.get_running_loop()
        try:
            while True:
                while not pending:
                    self._waiting = loop.create_future()
                    try:
                        await self._waiting
                    finally:
                        self._waiting = None
                text = pending.popleft()
                if text is None:
                    code, reason = self.close_with
                    await self.ws.close(code=code, reason=close_reason(reason, self.lang))
                    return
                await self.ws.send_text(text)
        except Exception:  # the socket is gone; the reader sees it too
            self.closed = True

    async def finish(self) -> None:
        self.closed = True
        self.writer.cancel()
        try:
            await self.writer
        except (asyncio.CancelledError, Exception):
            pass


def _same_origin(ws: WebSocket) -> bool:
    """Whether the socket was opened by a page of this server (a cookie counts only then)."""
    origin = ws.headers.get("origin")
    if origin is None:
        return True  # not a browser
    host = ws.headers.get("host", "")
    return origin.split("://", 1)[-1].rstrip("/").lower() == host.lower()


def _hello_seat(
    service: GameService, accounts: Any, live: Live, ws: WebSocket, data: dict[str, Any]
) -> tuple[int | None, tuple[str, str] | None]:
    """The seat a hello asks for, and the credential (session or API token) it was recognised by."""
    token = data.get("token")
    wanted = data.get("seat")
    if wanted is not None and (isinstance(wanted, bool) or not isinstance(wanted, int)):
        raise ApiError(400, msg('"seat" must be a seat number'))
    if token is not None or accounts is None:
        seat = service.seat_of(live, token)
        if wanted is not None and seat != wanted:
            raise ApiError(403, msg("the seat token is seat {seat}'s, not seat {wanted}'s", seat=seat, wanted=wanted))
        return seat, None
    if not _same_origin(ws):
        return None, None
    who = accounts.identify(ws)
    mine = service.seats_of(live, who.account.id if who.account else None)
    if wanted is not None:
        if wanted not in mine:
            raise ApiError(403, msg("seat {wanted} is not yours in this game", wanted=wanted))
        return wanted, who.credential
    if not mine:
        return None, who.credential
    return (live.to_move if live.to_move in mine else mine[0]), who.credential


#: the most bytes of a close frame's reason (RFC 6455: 125 bytes less the code's 2)
MAX_REASON = 123


def close_reason(reason: Message | None, lang: str) -> str:
    """The reason of a close frame in ``lang``, cut to whole characters within :data:`MAX_REASON`
    bytes of UTF-8."""
    if reason is None:
        return ""
    text = translate(reason, lang).encode()
    return text[:MAX_REASON].decode(errors="ignore")


#: the close code of a socket whose work needs the database while it cannot be reached (the web
#: client reconnects with backoff, as after any close)
TRY_AGAIN = 1013
DATABASE_AWAY = msg("the database cannot be reached just now: connect again in a few seconds")


async def game_socket(
    ws: WebSocket, game_id: str, service: GameService, accounts: Any = None, metrics: Any = None
) -> None:
    """The game socket of ``game_id``; ``metrics`` (builders.server.ops.Metrics) times its actions."""
    await ws.accept()
    try:
        live = await service.fetch(game_id)
    except ApiError as e:
        await ws.send_text(_error(ws, e.message, e.status))
        await ws.close(code=4404)
        return
    except SQLAlchemyError as e:
        if not unreachable(e):
            raise
        await ws.send_text(_error(ws, DATABASE_AWAY, 503))
        await ws.close(code=TRY_AGAIN)
        return
    conn = Connection(ws)
    limits = ws.scope.get("builders.limits")  # set by builders.server.guard
    budget = Messages(*limits.socket_messages) if limits is not None else Messages()
    timer = metrics.round_trip.labels("socket") if metrics is not None else None  # (looked up once)
    joined = False
    try:
        while True:
            try:
                async with asyncio.timeout(IDLE_SECONDS if joined else HELLO_SECONDS):  # (no task per message)
                    message = await ws.receive()
            except asyncio.TimeoutError:
                text = (
                    msg("idle for too long")
                    if joined
                    else msg('say hello within {seconds:g} s: {{"type": "hello", "token": ...}}', seconds=HELLO_SECONDS)
                )
                await conn.finish()
                await ws.send_text(_error(ws, text, 408))
                await ws.close(code=4408)
                return
            if message["type"] == "websocket.disconnect":
                break
            raw = message.get("text")
            if raw is None:
                raw = message.get("bytes") or b""
                if len(raw) > MAX_MESSAGE:
                    conn.send(_error(ws, msg("message too long: at most {count} bytes", count=MAX_MESSAGE), 413))
                    continue
                try:
                    raw = raw.decode("utf-8")
                except UnicodeDecodeError:
                    conn.send(_error(ws, msg("a message is JSON text in UTF-8"), 400))
                    continue
            if len(raw) > MAX_MESSAGE:
                conn.send(_error(ws, msg("message too long: at most {count} bytes", count=MAX_MESSAGE), 413))
                continue
            try:
                data = json.loads(raw)
            except (ValueError, RecursionError):
                conn.send(_error(ws, msg('a message must be a JSON object, for example {{"type": "ping"}}'), 400))
                continue
            if not isinstance(data, dict) or not isinstance(data.get("type"), str):
                conn.send(
                    _error(ws, msg('a message must be a JSON object with a "type" (hello, action, undo or ping)'), 400)
                )
                continue
            kind = data["type"]
            if not budget.take():
                conn.send(_error(ws, msg("too many messages: at most {rate:g} a second", rate=budget.rate), 429))
                continue
            if kind == "ping":
                conn.send('{"type":"pong"}')
                continue
            if kind == "hello":
                try:
                    seat, credential = _hello_seat(service, accounts, live, ws, data)
                except ApiError as e:
                    conn.send(_error(ws, e.message, e.status))
                    continue
                if seat is None and not service.may_see(live, account_of(accounts, ws if _same_origin(ws) else None)):
                    # a private game is watched by its players only: to others it does not exist
                    await conn.finish()
                    await ws.send_text(_error(ws, service.no_such_game(live.id).message, 404))
                    await ws.close(code=4404)
                    return
                if conn.closed:  # its credential ended meanwhile
                    break
                _hold(accounts, conn, credential)
                conn.lang = language(ws)
                before = service.presence(live)
                conn.seat = seat
                if joined:
                    service.client_changed(live, conn, before)  # its seat (and the seats present) may differ
                else:
                    joined = True
                    service.add_client(live, conn)  # sends this client its view too
                continue
            if not joined:
                conn.send(_error(ws, msg('say hello first: {{"type": "hello", "token": ...}}'), 400))
                continue
            if conn.closed:  # let go of (its credential ended): nothing more is done for it
                break
            if kind in ("action", "undo"):
                if conn.seat is None:
                    conn.send(_error(ws, msg("a spectator cannot play: hello with a seat token first"), 403))
                    continue
                await _play(service, live, conn, data, kind, timer)
                continue
            conn.send(
                _error(ws, msg("unknown message type {kind!r} (hello, action, undo or ping)", kind=kind[:40]), 400)
            )
    except WebSocketDisconnect:
        pass
    except SQLAlchemyError as e:
        if not unreachable(e):
            log.exception("socket of game %s failed", game_id)
        await conn.finish()
        try:
            await ws.send_text(_error(ws, DATABASE_AWAY, 503))
            await ws.close(code=TRY_AGAIN)
        except Exception:
            pass
    except Exception:
        log.exception("socket of game %s failed", game_id)
    finally:
        _hold(accounts, conn, None)
        if joined:
            service.remove_client(live, conn)
        await conn.finish()


def _hold(accounts: Any, conn: Connection, credential: tuple[str, str] | None) -> None:
    """Remember that ``conn`` was opened with ``credential`` (None: with none)."""
    if accounts is None or credential == conn.credential:
        return
    if conn.credential is not None:
        accounts.sockets.remove(conn, conn.credential)
    conn.credential = credential
    if credential is not None:
        accounts.sockets.add(conn, credential)


async def _play(
    service: GameService, live: Live, conn: Connection, data: dict[str, Any], kind: str, timer: Any
) -> None:
    """An action or undo of the socket's seat; ``timer`` (a histogram) observes its round trip."""
    # the seat's token was checked by hello; act() checks the seat's rights again
    started = time.perf_counter()
    try:
        if kind == "action":
            if not isinstance(data.get("action"), str):
                raise ApiError(400, msg('an action message needs "action": a string in the game\'s notation'))
            await service.act_as(live, conn.seat, data["action"], data.get("version"), data.get("id"))
        else:
            await service.undo_as(live, conn.seat)
    except ApiError as e:
        conn.send(_error(conn.ws, e.message, e.status))
        if e.status == 503:  # the database is away: the client reconnects, and its hello is answered
            conn.end(TRY_AGAIN, msg("the database cannot be reached just now"))  # with the state once it is back
    finally:
        if timer is not None:
            timer.observe(time.perf_counter() - started)
