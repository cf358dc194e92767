"""The guard in front of the application, as its own unit: an ASGI application behind :class:`Guard`,
asked through httpx's ASGI transport. Each refusal with its exact status, words and headers; what
passes through reaches the application unchanged."""

from __future__ import annotations

import asyncio
import json

import httpx

from builders.server.guard import CSP, Buckets, Guard, Limits, _origin_ok, kind_of


async def echo(scope, receive, send):
    """The application: answers what it got (method, body) as JSON; /busy answers a 429 of its own."""
    body = b""
    while True:
        message = await receive()
        body += message.get("body", b"")
        if not message.get("more_body", False):
            break
    if scope["path"].startswith("/busy"):
        detail = scope["path"].removeprefix("/busy").strip("/") or "too busy"
        out = json.dumps({"detail": detail.replace("-", " ")}).encode()
        status = 429
    else:
        out = json.dumps({"method": scope["method"], "body": body.decode(), "path": scope["path"]}).encode()
        status = 200
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(out)).encode())],
        }
    )
    await send({"type": "http.response.body", "body": out})


def ask(limits: Limits, *requests, host: str = "testserver"):
    """The answers of a Guard around :func:`echo` to ``requests`` (method, path, keyword arguments)."""
    guard = Guard(echo, limits=limits)

    async def run():
        transport = httpx.ASGITransport(app=guard, client=("203.0.113.5", 4000))
        async with httpx.AsyncClient(transport=transport, base_url=f"http://{host}") as client:
            return [await client.request(method, path, **kw) for method, path, kw in requests]

    return asyncio.run(run())


def detail(r: httpx.Response) -> tuple[int, str]:
    return r.status_code, r.json()["detail"]


def test_the_kinds_of_requests_that_are_counted():
    assert kind_of("DELETE", "/api/account") == "login"
    assert kind_of("DELETE", "/api/account/tokens/1") is None
    assert kind_of("PUT", "/api/games") is None and kind_of("OPTIONS", "/api/games") is None
    assert kind_of("POST", "/api/games/abc/take-back") == kind_of("POST", "/api/games/abc/abort") == "action"
    assert kind_of("POST", "/api/games/abc/hint") == "hint"
    assert kind_of("POST", "/api/games/abc/analysis") is None
    assert kind_of("POST", "/api/account/tokens") == "login"
    assert kind_of("POST", "/api/other") is None
    assert kind_of("GET", "/static/app.js") is None and kind_of("HEAD", "/static/app.js") is None
    assert kind_of("GET", "/staticx") == "read"


def test_buckets_count_each_address_and_kind_and_leave_other_kinds_alone():
    buckets = Buckets({"chat": (2, 60.0)})

    async def run():
        return [
            await buckets.take("a", "chat"),
            await buckets.take("a", "chat"),
            await buckets.take("a", "chat"),
            await buckets.take("b", "chat"),
            await buckets.take("a", "create"),
        ]

    got = asyncio.run(run())
    assert got[:2] == [0.0, 0.0] and 29.0 < got[2] <= 30.0 and got[3:] == [0.0, 0.0]


def test_an_origin_is_the_servers_own_or_one_allowed():
    scope = {"headers": [(b"host", b"Games.Example:8000")]}
    limits = Limits(allowed_origins=["https://Friends.Example/"])
    assert _origin_ok(scope, "https://games.example:8000", limits)
    assert _origin_ok(scope, "http://games.example:8000/", limits)
    assert _origin_ok(scope, "https://friends.example", limits)
    assert not _origin_ok(scope, "https://games.example", limits)
    assert not _origin_ok(scope, "https://evil.example", limits)
    assert not _origin_ok({"headers": []}, "https://games.example:8000", Limits())
    assert _origin_ok(scope, "https://friends.example/", limits)  # an allowed origin with its slash
    assert not _origin_ok({"headers": []}, "https://xxxx", Limits())  # no Host: no origin is the server's


def test_a_host_not_allowed_is_refused_in_its_words():
    limits = Limits(allowed_hosts=["Games.Example", "::1"])
    ok, port, other = ask(
        limits,
        ("GET", "/x", {}),
        ("GET", "/x", {"headers": {"host": "games.example:8443"}}),
        ("GET", "/x", {"headers": {"host": "evil.example"}}),
        host="games.example",
    )
    assert ok.status_code == 200 and port.status_code == 200
    assert detail(other) == (400, "this server does not answer for that host name")
    (v6,) = ask(limits, ("GET", "/x", {}), host="[::1]:8000")
    assert v6.status_code == 200


def test_a_request_over_its_rate_is_refused_with_the_seconds_to_wait():
    limits = Limits(rates={"create": (2, 60.0)})
    answers = ask(limits, *[("POST", "/api/games", {"json": {}})] * 3, ("GET", "/api/games", {}))
    assert [a.status_code for a in answers] == [200, 200, 429, 200]
    assert answers[2].headers["retry-after"] == "30"
    assert detail(answers[2]) == (429, "too many create requests from your address: try again in 30 s")
    assert answers[2].headers["x-content-type-options"] == "nosniff"
    assert answers[2].headers["content-type"] == "application/json"


def test_a_change_with_a_cookie_from_another_site_is_refused():
    limits = Limits()
    cross = {"headers": {"origin": "https://evil.example", "cookie": "builders_session=x"}}
    answers = ask(
        limits,
        ("POST", "/api/x", cross),
        ("GET", "/api/x", cross),
        ("POST", "/api/x", {"headers": {"origin": "https://evil.example"}}),
        ("POST", "/api/x", {"headers": {"origin": "http://testserver", "cookie": "builders_session=x"}}),
        ("OPTIONS", "/api/x", cross),
    )
    assert detail(answers[0]) == (403, "requests from pages of other sites are refused")
    assert [a.status_code for a in answers[1:]] == [200, 200, 200, 200]


def test_a_chunked_body_is_read_up_to_the_limit_then_refused():
    limits = Limits(max_body=10)

    def chunks(*parts: bytes):
        async def gen():
            for part in parts:
                yield part

        return gen()

    small, exact, large = ask(
        limits,
        ("POST", "/api/x", {"content": chunks(b"abc", b"def")}),
        ("POST", "/api/x", {"content": chunks(b"01234", b"56789")}),
        ("POST", "/api/x", {"content": chunks(b"01234", b"56789", b"!")}),
    )
    assert small.json()["body"] == "abcdef" and exact.json()["body"] == "0123456789"
    assert detail(large) == (413, "the request body is too large: at most 10 bytes")
    (sized,) = ask(limits, ("POST", "/api/x", {"content": b"x" * 30}))  # with its length: the app's to judge
    assert sized.json()["body"] == "x" * 30


def test_the_applications_own_429_gets_a_retry_after_in_whole_seconds():
    named, plain, short = ask(
        Limits(rates={}), ("GET", "/busy/wait-12-seconds", {}), ("GET", "/busy", {}), ("GET", "/busy/in-0-s", {})
    )
    assert (named.status_code, named.headers["retry-after"]) == (429, "12")
    assert named.json() == {"detail": "wait 12 seconds"}
    assert plain.headers["retry-after"] == "60"
    assert short.headers["retry-after"] == "1"


def test_security_headers_and_head_of_a_page():
    page, api_answer, docs, head = ask(
        Limits(), ("GET", "/play/abc", {}), ("GET", "/api/x", {}), ("GET", "/docs", {}), ("HEAD", "/account", {})
    )
    for answer in (page, api_answer):
        assert answer.headers["content-security-policy"] == CSP
        assert (answer.headers["x-frame-options"], answer.headers["referrer-policy"]) == ("DENY", "no-referrer")
    assert "content-security-policy" not in docs.headers and docs.headers["x-frame-options"] == "DENY"
    assert head.status_code == 200 and head.content == b""
    assert page.json()["method"] == "GET"


def test_a_body_that_does_not_come_in_time_gets_408():
    limits = Limits(body_seconds=0.2)
    guard = Guard(echo, limits=limits)
    sent = []

    async def run():
        async def receive():
            await asyncio.sleep(10)

        async def send(message):
            sent.append(message)

        scope = {
            "type": "http",
            "method": "POST",
            "path": "/api/x",
            "client": ("203.0.113.9", 1),
            "headers": [(b"content-length", b"5")],
            "query_string": b"",
        }
        await asyncio.wait_for(guard(scope, receive, send), 5)

    asyncio.run(run())
    assert sent[0]["status"] == 408 and (b"connection", b"close") in sent[0]["headers"]
    assert json.loads(sent[1]["body"])["detail"] == "the request body was not complete within 0.2 s"


def test_a_socket_from_another_site_or_over_the_cap_is_closed_before_the_handshake():
    async def accept(scope, receive, send):
        await send({"type": "websocket.accept"})
        await asyncio.sleep(0.2)

    guard = Guard(accept, limits=Limits(sockets_per_address=1))

    async def one(origin: str | None):
        sent = []

        async def receive():
            return {"type": "websocket.connect"}

        async def send(message):
            sent.append(message)

        headers = [(b"host", b"games.example")] + ([(b"origin", origin.encode())] if origin else [])
        await guard(
            {
                "type": "websocket",
                "path": "/ws/games/x",
                "client": ("203.0.113.7", 1),
                "headers": headers,
                "query_string": b"",
            },
            receive,
            send,
        )
        return sent

    async def run():
        return await asyncio.gather(one(None), one("http://games.example"), one("https://evil.example"))

    first, second, other_site = asyncio.run(run())
    assert first == [{"type": "websocket.accept"}]
    assert second == [{"type": "websocket.close", "code": 1008, "reason": "too many open sockets from your address"}]
    assert other_site == [
        {"type": "websocket.close", "code": 1008, "reason": "sockets from pages of other sites are refused"}
    ]
    assert guard.sockets == {}  # each socket let in is counted out when it ends
