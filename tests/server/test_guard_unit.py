"""The HTTP protocol of ``builders serve`` (:class:`GuardedHttpTools`) in the test's own process: a
real uvicorn on 127.0.0.1 in a thread, spoken to over raw sockets. Headers or a body that do not come
in time close the connection (with the body's 408 when nothing was answered yet), and the connections
per address are capped and counted out again. Then what :class:`Guard` leaves of the application's
own answers (a 429 with its own ``Retry-After``, gzip from 800 bytes on)."""

from __future__ import annotations

import asyncio
import json
import socket
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager

import httpx
import uvicorn
import websockets

from builders.server.guard import Guard, GuardedHttpTools, Limits, _origin_ok
from tests.server.helpers import free_port


def tools(**limits) -> type[GuardedHttpTools]:
    """The protocol with ``limits`` and a count of connections of its own."""
    return type("Tools", (GuardedHttpTools,), {"limits": Limits(**limits), "open_per_address": {}})


async def app(scope, receive, send):
    """/slow answers 200 after 2.5 s and /stall after 8 s, without reading the body; /early answers its
    start at once, without reading the body, and its end after 8 s; a socket is accepted and echoes;
    anything else: 200 "ok"."""
    if scope["type"] == "lifespan":
        return
    if scope["type"] == "websocket":
        await receive()
        await send({"type": "websocket.accept"})
        while (message := await receive())["type"] == "websocket.receive":
            await send({"type": "websocket.send", "text": message.get("text")})
        return
    headers = [(b"content-type", b"text/plain"), (b"content-length", b"2")]
    if scope["path"] == "/early":
        await send({"type": "http.response.start", "status": 200, "headers": headers})
        await asyncio.sleep(8)
        await send({"type": "http.response.body", "body": b"ok"})
        return
    if scope["path"] in ("/slow", "/stall"):
        await asyncio.sleep(2.5 if scope["path"] == "/slow" else 8)
    await send({"type": "http.response.start", "status": 200, "headers": headers})
    await send({"type": "http.response.body", "body": b"ok"})


@contextmanager
def serving(protocol: type[GuardedHttpTools]):
    """:func:`app` served with ``protocol`` in a thread; yields its port."""
    port = free_port()
    config = uvicorn.Config(
        app,
        host="127.0.0.1",
        port=port,
        log_level="warning",
        http=protocol,
        lifespan="off",
        timeout_graceful_shutdown=1,
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        assert time.monotonic() < deadline and thread.is_alive(), "the test server did not start"
        time.sleep(0.02)
    try:
        yield port
    finally:
        server.should_exit = True
        thread.join(timeout=20)


def until_closed(s: socket.socket, limit: float = 8.0, send: bytes = b"", every: float = 0.1) -> tuple[float, bytes]:
    """Seconds until the server closes ``s`` (inf if it stays open ``limit`` s) and what it sent; ``send``
    is sent a byte every ``every`` seconds meanwhile."""
    started = time.monotonic()
    got = b""
    s.settimeout(every)
    i = 0
    while time.monotonic() - started < limit:
        if i < len(send):
            s.sendall(send[i : i + 1])
            i += 1
        try:
            data = s.recv(4096)
        except TimeoutError:
            continue
        except ConnectionResetError:
            return time.monotonic() - started, got
        if data == b"":
            return time.monotonic() - started, got
        got += data
    return float("inf"), got


def connect(port: int) -> socket.socket:
    return socket.create_connection(("127.0.0.1", port), timeout=10)


def test_headers_not_complete_in_time_close_the_connection_also_on_a_second_request():
    with serving(tools(header_seconds=0.8, body_seconds=30.0)) as port:
        with connect(port) as s:  # nothing sent
            seconds, got = until_closed(s)
            assert 0.7 < seconds < 6 and got == b""
        with connect(port) as s:  # a byte every 0.1 s: never complete
            seconds, got = until_closed(s, send=b"GET / HTTP/1.1\r\nHost: x\r\nX-Slow: " + b"a" * 200)
            assert 0.7 < seconds < 6 and got == b""
        with connect(port) as s:  # one request answered, then the next one's headers a byte at a time
            s.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
            time.sleep(1.2)  # longer than the header time: the first request's timer is over
            seconds, got = until_closed(s, send=b"GET / HTTP/1.1\r\nHost: x\r\nX-Slow: " + b"a" * 200)
            assert got.startswith(b"HTTP/1.1 200 OK\r\n") and got.endswith(b"\r\n\r\nok")
            assert 0.7 < seconds < 6


def test_a_body_not_complete_in_time_gets_408_from_the_protocol_a_second_after_the_applications_deadline():
    with serving(tools(header_seconds=30.0, body_seconds=0.5)) as port:

        def sent(request: bytes) -> tuple[float, bytes]:
            with connect(port) as s:
                s.sendall(request)
                return until_closed(s)

        # the three at once, each on a connection of its own
        with ThreadPoolExecutor(3) as pool:
            partial, chunked, early = pool.map(
                sent,
                [
                    # 2 of its 5 bytes, and an application that does not read it
                    b"POST /stall HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nAccept-Language: fr\r\n\r\nab",
                    # chunked, its last chunk never sent
                    b"POST /stall HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nab\r\n",
                    # an answer already begun: closed without a second one
                    b"POST /early HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nab",
                ],
            )
        seconds, got = partial
        assert 1.4 < seconds < 6
        head, body = got.split(b"\r\n\r\n", 1)
        assert head == (
            b"HTTP/1.1 408 Request Timeout\r\ncontent-type: application/json\r\n"
            b"content-length: %d\r\nconnection: close" % len(body)
        )
        assert json.loads(body) == {
            "detail": "le corps de la requ\u00eate n'\u00e9tait pas complet en 0,5 s",
            "code": "the request body was not complete within {seconds:g} s",
            "params": {"seconds": 0.5},
        }
        seconds, got = chunked
        assert 1.4 < seconds < 6 and got.startswith(b"HTTP/1.1 408 Request Timeout\r\n")
        seconds, got = early
        assert 1.4 < seconds < 6
        assert got.startswith(b"HTTP/1.1 200 OK\r\n") and b"408" not in got and not got.endswith(b"ok")


def test_a_request_without_a_body_or_with_all_of_it_is_not_cut_off():
    requests = (
        b"POST /slow HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n",
        b"GET /slow HTTP/1.1\r\nHost: x\r\n\r\n",
        b"POST /slow HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nabcde",
        b"POST /slow HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nab\r\n0\r\n\r\n",
    )
    with serving(tools(header_seconds=30.0, body_seconds=0.5)) as port:
        # the four at once, each on a connection of its own: each answer comes after the 2.5 s of /slow,
        # well past the body's 0.5 s
        sockets = [connect(port) for _ in requests]
        try:
            for s, request in zip(sockets, requests):
                s.sendall(request)
                s.settimeout(10)
            for s, request in zip(sockets, requests):
                got = b""
                while not got.endswith(b"ok"):
                    data = s.recv(4096)
                    assert data, (request, got)
                    got += data
                assert got.startswith(b"HTTP/1.1 200 OK\r\n"), request
        finally:
            for s in sockets:
                s.close()


def test_connections_per_address_are_capped_and_counted_out_when_they_end():
    protocol = tools(header_seconds=30.0, connections_per_address=2)
    with serving(protocol) as port:
        first, second = connect(port), connect(port)
        with connect(port) as third:
            seconds, got = until_closed(third, limit=5)
            assert seconds < 5 and got == b""  # at once, not after the header time of 30 s
        first.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        first.settimeout(10)
        assert first.recv(4096).startswith(b"HTTP/1.1 200 OK\r\n")
        first.close()
        second.close()
        deadline = time.monotonic() + 5
        while protocol.open_per_address and time.monotonic() < deadline:
            time.sleep(0.05)
        assert protocol.open_per_address == {}
        with connect(port) as again:  # the two ended: a new one is served
            again.sendall(b"GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            seconds, got = until_closed(again)
            assert got.startswith(b"HTTP/1.1 200 OK\r\n") and got.endswith(b"ok")


def test_a_socket_is_no_longer_counted_as_a_connection_once_upgraded():
    protocol = tools(header_seconds=0.8, connections_per_address=1)
    with serving(protocol) as port:

        async def run():
            async with websockets.connect(f"ws://127.0.0.1:{port}/ws") as ws:
                assert protocol.open_per_address == {}
                with connect(port) as s:  # the socket holds no connection of the cap
                    s.sendall(b"GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                    seconds, got = await asyncio.to_thread(until_closed, s)
                    assert got.startswith(b"HTTP/1.1 200 OK\r\n")
                await asyncio.sleep(1.2)  # longer than the header time: the socket is not dropped
                await ws.send("still here")
                assert await asyncio.wait_for(ws.recv(), 5) == "still here"

        asyncio.run(run())
        deadline = time.monotonic() + 5
        while protocol.open_per_address and time.monotonic() < deadline:
            time.sleep(0.05)
        assert protocol.open_per_address == {}


async def answers(scope, receive, send):
    """/own-429: a 429 with a Retry-After of its own, /429: one without; /static/<n>: ``n`` bytes of text;
    anything else: "ok"."""
    await receive()
    if scope["path"].endswith("429"):
        body = b'{"detail": "wait 12 s"}'
        headers = [(b"content-type", b"application/json"), (b"x-kept", b"yes")]
        if scope["path"] == "/own-429":
            headers.append((b"Retry-After", b"7"))
        status = 429
    else:
        body = b"a" * int(scope["path"].rsplit("/", 1)[-1]) if scope["path"].startswith("/static/") else b"ok"
        headers = [(b"content-type", b"text/plain")]
        status = 200
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


def guarded(*paths: str) -> list[httpx.Response]:
    async def run():
        transport = httpx.ASGITransport(app=Guard(answers, limits=Limits(rates={})), client=("203.0.113.5", 4000))
        async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as client:
            return [await client.get(path, headers={"accept-encoding": "gzip"}) for path in paths]

    return asyncio.run(run())


def test_an_applications_429_keeps_its_own_retry_after_and_its_other_headers():
    own, named = guarded("/own-429", "/429")
    assert own.status_code == 429 and own.headers.get_list("retry-after") == ["7"]
    assert named.status_code == 429 and named.headers.get_list("retry-after") == ["12"]
    for busy in (own, named):
        assert (busy.headers["content-type"], busy.headers["x-kept"]) == ("application/json", "yes")
        assert busy.json() == {"detail": "wait 12 s"}


def test_static_files_are_gzipped_from_800_bytes_on():
    small, exact = guarded("/static/799", "/static/800")
    assert "content-encoding" not in small.headers and small.text == "a" * 799
    assert exact.headers["content-encoding"] == "gzip" and exact.text == "a" * 800


def test_an_origin_with_a_second_scheme_in_it_is_not_the_servers_own():
    scope = {"headers": [(b"host", b"games.example:8000")]}
    assert _origin_ok(scope, "https://games.example:8000", Limits())
    assert not _origin_ok(scope, "https://evil.example://games.example:8000", Limits())


def test_each_address_has_its_own_rates():
    guard = Guard(answers, limits=Limits(rates={"create": (1, 60.0)}))

    async def create(address: str) -> int:
        transport = httpx.ASGITransport(app=guard, client=(address, 4000))
        async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as client:
            return (await client.post("/api/games")).status_code

    async def run():
        return [await create(a) for a in ("203.0.113.5", "203.0.113.6", "203.0.113.5")]

    assert asyncio.run(run()) == [200, 200, 429]


def test_a_chunk_of_a_body_without_its_body_key_counts_as_empty():
    sent, seen = [], []
    messages = iter(
        [{"type": "http.request", "more_body": True}, {"type": "http.request", "body": b"abc", "more_body": False}]
    )

    async def app(scope, receive, send):
        seen.append(await receive())
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b""})

    async def receive():
        return next(messages)

    async def send(message):
        sent.append(message)

    scope = {"type": "http", "method": "POST", "path": "/api/x", "client": ("203.0.113.9", 1), "headers": []}
    asyncio.run(Guard(app, limits=Limits(rates={}))(scope, receive, send))
    assert seen == [{"type": "http.request", "body": b"abc", "more_body": False}] and sent[0]["status"] == 200


def test_the_connections_of_each_address_are_counted_apart():
    protocol = tools(header_seconds=30.0, connections_per_address=1)
    with serving(protocol) as port:
        with connect(port) as first:
            first.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
            first.settimeout(10)
            assert first.recv(4096).startswith(b"HTTP/1.1 200 OK\r\n")
            with socket.create_connection(("127.0.0.1", port), timeout=10, source_address=("127.0.0.2", 0)) as other:
                other.sendall(b"GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                seconds, got = until_closed(other)
                assert got.startswith(b"HTTP/1.1 200 OK\r\n") and got.endswith(b"ok")
            assert protocol.open_per_address == {"127.0.0.1": 1}


def test_a_slow_body_to_the_application_gets_its_408_and_the_connection_is_closed(tmp_path):
    from tests.server.conftest import make_app
    from tests.server.helpers import ThreadServer

    rates = {kind: (100_000, 60.0) for kind in Limits().rates}
    app = make_app(tmp_path, limits=Limits(rates=rates, body_seconds=0.5))
    with ThreadServer(app) as server, connect(server.port) as s:
        s.sendall(
            b"POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 40\r\n\r\n{"
        )
        seconds, got = until_closed(s)
    head, body = got.split(b"\r\n\r\n", 1)
    assert head.startswith(b"HTTP/1.1 408 Request Timeout\r\n") and b"\r\nconnection: close" in head.lower()
    assert json.loads(body)["detail"] == "the request body was not complete within 0.5 s"
    assert 0.4 < seconds < 6
