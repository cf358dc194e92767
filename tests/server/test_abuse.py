"""The server holds up against abuse: silent and slow clients are dropped, sockets and request rates
are capped per address (429 with Retry-After), other sites' pages are refused, pages carry security
headers, and refusals change nothing. Real servers on 127.0.0.1."""

from __future__ import annotations

import asyncio
import gzip
import json
import socket
import time
from concurrent.futures import ThreadPoolExecutor

import httpx
import pytest
import websockets

import builders.server.ws as ws_module
from builders.server.guard import Limits
from tests.server.conftest import make_app
from tests.server.helpers import ThreadServer

HUMANS = [{"type": "human"}, {"type": "human"}]


@pytest.fixture
def guarded(tmp_path, monkeypatch):
    """A server with small limits: 3 creates a minute, 2 sockets per address, 5 messages a second."""
    monkeypatch.setattr(ws_module, "HELLO_SECONDS", 0.5)
    limits = Limits(rates={**Limits().rates, "create": (3, 60.0)}, sockets_per_address=2, socket_messages=(5.0, 5.0))
    app = make_app(tmp_path, limits=limits)
    with ThreadServer(app) as srv:
        srv.store = app.state.store
        yield srv


def test_rate_limit_answers_429_with_retry_after_and_creates_nothing(guarded):
    with httpx.Client(base_url=guarded.url, timeout=10) as api:
        for _ in range(3):
            assert api.post("/api/games", json={"game": "kingdom", "seats": HUMANS}).status_code == 201
        before = guarded.store.counts()
        r = api.post("/api/games", json={"game": "kingdom", "seats": HUMANS})
        assert r.status_code == 429
        assert r.json()["detail"].startswith("too many create requests from your address: try again in ")
        assert 1 <= int(r.headers["retry-after"]) <= 20
        assert guarded.store.counts() == before
        # other kinds of requests are not held up
        assert api.get("/api/games").status_code == 200


def test_a_socket_that_never_says_hello_is_closed(guarded):
    with httpx.Client(base_url=guarded.url, timeout=10) as api:
        gid = api.post("/api/games", json={"game": "kingdom", "seats": HUMANS}).json()["id"]

    async def silent():
        async with websockets.connect(f"{guarded.ws_url}/ws/games/{gid}") as ws:
            msg = json.loads(await asyncio.wait_for(ws.recv(), 5))
            assert msg == {
                "type": "error",
                "message": 'say hello within 0.5 s: {"type": "hello", "token": ...}',
                "code": 408,
                "key": 'say hello within {seconds:g} s: {{"type": "hello", "token": ...}}',
                "params": {"seconds": 0.5},
            }
            with pytest.raises(websockets.ConnectionClosed) as closed:
                await asyncio.wait_for(ws.recv(), 5)
            assert closed.value.rcvd.code == 4408

    asyncio.run(silent())


def test_sockets_per_address_are_capped_and_other_sites_refused(guarded):
    with httpx.Client(base_url=guarded.url, timeout=10) as api:
        gid = api.post("/api/games", json={"game": "kingdom", "seats": HUMANS}).json()["id"]
    url = f"{guarded.ws_url}/ws/games/{gid}"

    async def scenario():
        with pytest.raises(websockets.InvalidStatus) as refused:
            await websockets.connect(url, origin="http://evil.example")
        assert refused.value.response.status_code == 403
        own = await websockets.connect(url, origin=guarded.url)  # a page of this server
        other = await websockets.connect(url)  # a program (no Origin)
        with pytest.raises(websockets.InvalidStatus) as capped:
            await websockets.connect(url)
        assert capped.value.response.status_code == 403
        await own.close()
        await asyncio.sleep(0.2)
        again = await websockets.connect(url)  # a place is free again
        await again.send(json.dumps({"type": "hello", "token": None}))
        assert json.loads(await asyncio.wait_for(again.recv(), 5))["type"] == "state"
        await again.close()
        await other.close()

    asyncio.run(scenario())


def test_hello_is_answered_to_the_new_client_only(guarded):
    with httpx.Client(base_url=guarded.url, timeout=10) as api:
        g = api.post("/api/games", json={"game": "middle-ages", "seats": HUMANS}).json()
    gid, token = g["id"], g["seats"][0]["token"]

    async def scenario():
        async with websockets.connect(f"{guarded.ws_url}/ws/games/{gid}") as first:
            await first.send(json.dumps({"type": "hello", "token": None}))
            assert json.loads(await first.recv())["version"] == 0
            async with websockets.connect(f"{guarded.ws_url}/ws/games/{gid}") as second:
                await second.send(json.dumps({"type": "hello", "token": None}))  # another spectator
                assert json.loads(await second.recv())["version"] == 0
                async with httpx.AsyncClient(base_url=guarded.url) as http:
                    r = await http.post(
                        f"/api/games/{gid}/actions", json={"action": "coins 1"}, headers={"X-Seat-Token": token}
                    )
                    assert r.status_code == 200
                # the first spectator's next message is the new state, not its view again
                msg = json.loads(await asyncio.wait_for(first.recv(), 5))
                assert msg["type"] == "state" and msg["version"] == 1

    asyncio.run(scenario())


def test_cookie_requests_from_other_sites_are_refused(guarded):
    with httpx.Client(base_url=guarded.url, timeout=10) as api:
        before = guarded.store.counts()
        r = api.post(
            "/api/games",
            json={"game": "kingdom", "seats": HUMANS},
            headers={"Origin": "http://evil.example", "Cookie": "session=abc"},
        )
        assert r.status_code == 403 and r.json()["detail"] == "requests from pages of other sites are refused"
        assert guarded.store.counts() == before
        same = api.post(
            "/api/games",
            json={"game": "kingdom", "seats": HUMANS},
            headers={"Origin": guarded.url, "Cookie": "session=abc"},
        )
        assert same.status_code == 201


def test_pages_have_security_headers_gzip_and_head(guarded):
    with httpx.Client(base_url=guarded.url, timeout=10) as api:
        page = api.get("/")
        assert page.status_code == 200
        csp = page.headers["content-security-policy"]
        assert "frame-ancestors 'none'" in csp and "default-src 'self'" in csp
        assert page.headers["x-content-type-options"] == "nosniff"
        assert page.headers["referrer-policy"] == "no-referrer"
        head = api.head("/")
        assert head.status_code == 200 and head.content == b"" and head.headers["content-type"].startswith("text/html")
        assert api.head("/play/abc").status_code == 200
        raw = httpx.get(guarded.url + "/static/api.js", headers={"Accept-Encoding": "gzip"})
        assert raw.headers["content-encoding"] == "gzip"
        assert raw.content.startswith(b"//") or raw.content  # httpx decodes; compare with the file
        from builders.server.app import default_static_dir

        assert raw.content == (default_static_dir() / "api.js").read_bytes()
        with httpx.stream("GET", guarded.url + "/static/api.js", headers={"Accept-Encoding": "gzip"}) as r:
            body = b"".join(r.iter_raw())
        assert gzip.decompress(body) == (default_static_dir() / "api.js").read_bytes()
        assert len(body) < len(raw.content)


def test_oversized_chunked_body_gets_413(guarded):
    before = guarded.store.counts()

    def chunks():
        for _ in range(40):
            yield b" " * 1024

    r = httpx.post(guarded.url + "/api/games", content=chunks(), headers={"Content-Type": "application/json"})
    assert r.status_code == 413 and r.json()["detail"] == "the request body is too large: at most 16384 bytes"
    assert guarded.store.counts() == before
    small = httpx.post(
        guarded.url + "/api/games",
        content=iter([json.dumps({"game": "kingdom", "seats": HUMANS}).encode()]),
        headers={"Content-Type": "application/json"},
    )
    assert small.status_code == 201


def test_allowed_hosts(tmp_path):
    app = make_app(tmp_path, limits=Limits(allowed_hosts=["play.example"]))
    with ThreadServer(app) as srv:
        r = httpx.get(srv.url + "/api/games")
        assert r.status_code == 400 and r.json()["detail"] == "this server does not answer for that host name"
        assert httpx.get(srv.url + "/api/games", headers={"Host": "play.example"}).status_code == 200


def test_healthz_and_metrics(guarded):
    with httpx.Client(base_url=guarded.url, timeout=10) as api:
        health = api.get("/healthz").json()
        assert health["status"] == "ok" and health["acting"] is True
        g = api.post("/api/games", json={"game": "middle-ages", "seats": HUMANS}).json()
        r = api.post(
            f"/api/games/{g['id']}/actions",
            json={"action": "coins 1"},
            headers={"X-Seat-Token": g["seats"][0]["token"]},
        )
        assert r.status_code == 200
        text = api.get("/metrics").text
        assert "builders_accepted_actions_total 1.0" in text
        assert 'builders_action_seconds_count{via="http"} 1.0' in text
        assert "builders_open_sockets 0.0" in text
        assert g["seats"][0]["token"] not in text


def test_slow_and_idle_connections_are_dropped(tmp_path, monkeypatch):
    """Request headers sent a byte at a time (slow loris), or nothing at all: the connection is
    closed once the header time is up (1 s here), while a normal request is answered."""
    from tests.server.test_processes import Server

    monkeypatch.setenv("BUILDERS_HEADER_SECONDS", "1")
    server = Server(f"sqlite:///{tmp_path / 'games.sqlite3'}").start()
    try:

        def closed_after(payload_every: float | None) -> float:
            started = time.monotonic()
            with socket.create_connection(("127.0.0.1", server.port), timeout=10) as s:
                s.settimeout(0.25)
                header = b"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: " + b"a" * 200
                i = 0
                while time.monotonic() - started < 8:
                    if payload_every is not None and i < len(header):
                        s.sendall(header[i : i + 1])
                        i += 1
                    try:
                        if s.recv(100) == b"":
                            return time.monotonic() - started
                    except TimeoutError:
                        pass
                    except ConnectionResetError:
                        return time.monotonic() - started
            return float("inf")

        with ThreadPoolExecutor(2) as pool:  # the two at once, each on a connection of its own
            silent, slow = pool.map(closed_after, [None, 0.25])
        assert 0.9 < silent < 3
        assert 0.9 < slow < 3
        assert httpx.get(server.url + "/api/games", timeout=5).status_code == 200
        # 300 connections that never send anything do not keep others out, and are all dropped
        idle = [socket.create_connection(("127.0.0.1", server.port), timeout=10) for _ in range(300)]
        try:
            assert httpx.get(server.url + "/api/games", timeout=5).status_code == 200
            for s in idle:  # each closed within 5 s (the header time is 1 s)
                s.settimeout(5)
                try:
                    assert s.recv(10) == b""
                except ConnectionResetError:
                    pass
        finally:
            for s in idle:
                s.close()
    finally:
        server.stop()


def test_socket_messages_are_rate_limited(guarded):
    with httpx.Client(base_url=guarded.url, timeout=10) as api:
        gid = api.post("/api/games", json={"game": "kingdom", "seats": HUMANS}).json()["id"]

    async def scenario():
        async with websockets.connect(f"{guarded.ws_url}/ws/games/{gid}") as ws:
            for _ in range(12):
                await ws.send(json.dumps({"type": "ping"}))
            answers = [json.loads(await asyncio.wait_for(ws.recv(), 5)) for _ in range(12)]
            pongs = [a for a in answers if a["type"] == "pong"]
            refused = [a for a in answers if a["type"] == "error"]
            assert 5 <= len(pongs) <= 7 and len(pongs) + len(refused) == 12
            assert refused[0] == {
                "type": "error",
                "message": "too many messages: at most 5 a second",
                "code": 429,
                "key": "too many messages: at most {rate:g} a second",
                "params": {"rate": 5.0},
            }

    asyncio.run(scenario())


def test_kinds_of_limited_requests():
    from builders.server.guard import kind_of

    assert kind_of("POST", "/api/games") == "create"
    assert kind_of("POST", "/api/games/abc/rematch") == "create"
    assert kind_of("POST", "/api/games/abc/join") == kind_of("POST", "/api/games/abc/claim") == "join"
    assert {kind_of("POST", f"/api/games/abc/{x}") for x in ("actions", "undo", "resign")} == {"action"}
    assert kind_of("POST", "/api/games/abc/chat") == "chat"
    assert {
        kind_of("POST", p) for p in ("/api/session", "/api/session/guest", "/api/accounts", "/api/account/password")
    } == {"login"}
    assert kind_of("GET", "/api/games") == kind_of("GET", "/api/games/abc/state") == kind_of("HEAD", "/") == "read"
    assert kind_of("GET", "/healthz") is None and kind_of("GET", "/metrics") is None
    assert kind_of("GET", "/static/api.js") is None
    assert kind_of("DELETE", "/api/account") == "login" and kind_of("DELETE", "/api/session") is None
