"""The writer of a game socket (builders.server.ws.Connection): messages go out in order, a close
goes out after what was queued, and a client that does not read is let go of at QUEUE_LIMIT. The
socket is Starlette's WebSocket over an ASGI channel held here (the server's side of the network)."""

from __future__ import annotations

import asyncio

from starlette.websockets import WebSocket

from builders.core.messages import msg
from builders.server.ws import QUEUE_LIMIT, Connection


class Channel:
    """The ASGI side of one socket: what the application sent, and a gate that holds its sends
    (a client that does not read)."""

    def __init__(self) -> None:
        self.sent: list[dict] = []
        self.open = asyncio.Event()
        self.open.set()

    async def receive(self) -> dict:
        return {"type": "websocket.connect"}

    async def send(self, message: dict) -> None:
        await self.open.wait()
        self.sent.append(message)

    def texts(self) -> list[str]:
        return [m["text"] for m in self.sent if m["type"] == "websocket.send"]

    def closes(self) -> list[tuple[int, str]]:
        return [(m["code"], m["reason"]) for m in self.sent if m["type"] == "websocket.close"]


async def connection() -> tuple[Connection, Channel]:
    channel = Channel()
    ws = WebSocket(
        {"type": "websocket", "path": "/ws/games/x", "headers": [], "query_string": b""}, channel.receive, channel.send
    )
    await ws.accept()
    return Connection(ws), channel


async def settle() -> None:
    for _ in range(20):
        await asyncio.sleep(0)


def test_messages_go_out_in_order_and_the_close_after_them():
    async def main():
        conn, channel = await connection()
        for i in range(5):
            conn.send(f"m{i}")
        await settle()
        conn.send("m5")  # the writer was idle: it is woken again
        conn.end(4401, msg("the session ended"))
        conn.send("after the end")  # not sent
        await asyncio.wait_for(conn.writer, 5)
        assert channel.texts() == ["m0", "m1", "m2", "m3", "m4", "m5"]
        assert channel.closes() == [(4401, "the session ended")]
        assert conn.closed

    asyncio.run(main())


def test_a_client_that_does_not_read_is_let_go_of_at_the_queue_limit():
    async def main():
        conn, channel = await connection()
        channel.open.clear()  # the client reads nothing: the first send waits
        conn.send("first")
        await settle()
        for i in range(QUEUE_LIMIT):
            conn.send(f"m{i}")
        assert not conn.closed
        conn.send("one too many")  # the backlog is full: the socket is let go of
        assert conn.closed
        conn.send("later")
        channel.open.set()
        await asyncio.wait_for(conn.writer, 5)
        assert channel.texts() == ["first", *[f"m{i}" for i in range(QUEUE_LIMIT)]]
        assert channel.closes() == [(1008, "")]

    asyncio.run(main())


def test_finish_stops_an_idle_writer_and_nothing_more_goes_out():
    async def main():
        conn, channel = await connection()
        conn.send("m0")
        await settle()
        await conn.finish()
        assert conn.writer.done() and conn.closed
        conn.send("m1")
        await settle()
        assert channel.texts() == ["m0"] and channel.closes() == []

    asyncio.run(main())
