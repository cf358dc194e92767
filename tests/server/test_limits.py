"""Limits that hold and do not lock the owner out: a request body that dawdles gets 408 and its
connection is closed; every 429 says when to try again (``Retry-After``); GET requests have a
generous limit per address; the limits are shared by the server processes (sign-in attempts through
the database, the address limits through Redis) and fall back to each process's own when Redis is
away; failed sign-ins from rotating addresses slow an attacker without locking the owner out of the
address they signed in from before; leaving a game to bots alone is refused beyond the caps of
games of bots alone. Real servers on 127.x.x.x addresses, SQLite files, PostgreSQL and Redis."""

from __future__ import annotations

import asyncio
import json
import socket
import time
from concurrent.futures import ThreadPoolExecutor

import httpx
import pytest

from builders.server.accounts import Accounts
from builders.server.guard import Limits
from builders.server.limits import DatabaseLimits, LocalLimits, RedisLimits, shared
from builders.server.migrate import prepare
from builders.server.store import Store
from tests.server.conftest import make_app
from tests.server.helpers import ProcessServer, ThreadServer
from tests.server.test_processes import Server

PASSWORD = "correct horse"
HUMANS = [{"type": "human"}, {"type": "human"}]
BOTS = [{"type": "bot", "level": "easy"}, {"type": "bot", "level": "easy"}]
#: every kind of request limited generously (the tests' clients share few addresses)
GENEROUS = {kind: (100_000, 60.0) for kind in Limits().rates}


def client(url: str, address: str = "127.0.0.1") -> httpx.Client:
    """A client whose connections come from ``address`` (any 127.x.x.x reaches the server)."""
    return httpx.Client(base_url=url, timeout=30, transport=httpx.HTTPTransport(local_address=address))


def retry_after(r: httpx.Response) -> int:
    """The Retry-After of a 429, checked to be whole seconds."""
    assert r.status_code == 429, r.text
    value = r.headers["retry-after"]
    assert value.isdigit() and int(value) >= 1, value
    return int(value)


def slow_body(port: int, path: str, gap: float, most: int = 100) -> tuple[bytes, float, bool]:
    """POST ``path`` with Content-Length 100 and the body one byte every ``gap`` seconds: (what the
    server answered, when its answer began, whether it then closed the connection)."""
    with socket.create_connection(("127.0.0.1", port), timeout=30) as s:
        s.sendall(
            f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n"
            f"Content-Length: 100\r\n\r\n".encode()
        )
        started = time.monotonic()
        s.settimeout(gap)
        answer, answered_at, closed = b"", None, False
        for _ in range(most):
            try:
                s.sendall(b" ")
            except OSError:
                closed = True
                break
            try:
                chunk = s.recv(65536)
            except TimeoutError:
                continue
            except OSError:
                closed = True
                break
            if not chunk:
                closed = True
                break
            answer += chunk
            answered_at = answered_at or time.monotonic() - started
        if not closed:  # the body is complete: read what is left
            s.settimeout(5)
            try:
                while chunk := s.recv(65536):
                    answer += chunk
                closed = True
            except OSError:
                pass
        return answer, answered_at if answered_at is not None else time.monotonic() - started, closed


# -- bodies with a deadline ---------------------------------------------------------------------------
def test_a_body_sent_a_byte_at_a_time_gets_408_within_the_deadline_and_the_connection_closes(tmp_path):
    app = make_app(tmp_path, limits=Limits(rates=GENEROUS, body_seconds=3.0))
    with ThreadServer(app) as srv:
        before = app.state.store.counts()
        answer, at, closed = slow_body(srv.port, "/api/games", gap=1.0)
        head, _, body = answer.partition(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 408 ")
        assert json.loads(body) == {
            "detail": "the request body was not complete within 3 s",
            "code": "the request body was not complete within {seconds:g} s",
            "params": {"seconds": 3.0},
        }
        assert b"connection: close" in head.lower()
        assert closed and 2.9 <= at <= 4.5
        assert app.state.store.counts() == before
        # a body that comes in time is served as always
        with client(srv.url) as api:
            assert api.post("/api/games", json={"game": "kingdom", "seats": HUMANS}).status_code == 201


def test_builders_serve_drops_a_dawdling_body_also_where_the_application_does_not_wait_for_it(tmp_path, monkeypatch):
    monkeypatch.setenv("BUILDERS_BODY_SECONDS", "2")
    server = ProcessServer(f"sqlite:///{tmp_path / 'games.sqlite3'}", log_path=tmp_path / "serve.log").start()
    try:

        def timed(path: str) -> tuple[tuple[bytes, float, bool], float]:
            started = time.monotonic()
            return slow_body(server.port, path, gap=0.5), time.monotonic() - started

        # the two at once, each on a connection of its own
        with ThreadPoolExecutor(2) as pool:
            creating = pool.submit(timed, "/api/games")
            unread = pool.submit(timed, "/api/games/nosuchgame/undo")
        (answer, at, closed), _ = creating.result()
        assert answer.startswith(b"HTTP/1.1 408 ") and json.loads(answer.partition(b"\r\n\r\n")[2])["detail"] == (
            "the request body was not complete within 2 s"
        )
        assert closed and 1.9 <= at <= 3.5
        # a route that answers without reading the body: the answer comes at once, and the
        # connection is closed a second after the body's deadline however the bytes keep coming
        (answer, at, closed), took = unread.result()
        assert answer.startswith(b"HTTP/1.1 40") and at < 1.5
        assert closed and took < 5.0
    finally:
        server.stop()


# -- Retry-After on every 429, and the limit on GET requests ------------------------------------------
def test_every_429_says_when_to_try_again(tmp_path):
    limits = Limits(rates={**GENEROUS, "read": (5, 60.0), "create": (100_000, 60.0)}, bots_only_per_creator=1)
    app = make_app(tmp_path, limits=limits, bot_delay=60, login_limits={"login_per_name": (2, 600.0)})
    with ThreadServer(app) as srv, client(srv.url) as api:
        # GET requests: 5 a minute here (600 by default); /healthz is not counted
        answers = [api.get("/api/games") for _ in range(6)]
        assert [r.status_code for r in answers] == [200] * 5 + [429]
        assert answers[5].json()["detail"] == (
            f"too many read requests from your address: try again in {retry_after(answers[5])} s"
        )
        assert 11 <= retry_after(answers[5]) <= 13
        assert api.get("/healthz").status_code == 200
        # the caps of games of bots alone (no number of seconds in the detail: a minute)
        assert api.post("/api/games", json={"game": "kingdom", "seats": BOTS}).status_code == 201
        r = api.post("/api/games", json={"game": "kingdom", "seats": BOTS})
        assert retry_after(r) == 60
        # sign-in attempts
        assert api.post("/api/accounts", json={"username": "ada", "password": PASSWORD}).status_code == 201
        with client(srv.url, "127.0.0.2") as eve:
            for _ in range(2):
                assert eve.post("/api/session", json={"username": "ada", "password": "wrong one"}).status_code == 401
            r = eve.post("/api/session", json={"username": "ada", "password": "wrong one"})
            assert r.json()["detail"] == f"too many sign-in attempts; try again in {retry_after(r)} seconds"
            assert 270 <= retry_after(r) <= 300  # one attempt every 300 s once the two are spent


def test_a_game_becoming_one_of_bots_alone_by_its_last_person_leaving_counts_against_the_cap(tmp_path):
    app = make_app(tmp_path, limits=Limits(rates=GENEROUS, bots_only_per_creator=1, bots_only_games=10), bot_delay=60)
    with ThreadServer(app) as srv, client(srv.url) as a:
        assert a.post("/api/games", json={"game": "kingdom", "seats": BOTS}).status_code == 201
        game = a.post("/api/games", json={"game": "kingdom", "seats": [{"type": "human"}, BOTS[0]]}).json()
        token = {"X-Seat-Token": game["seats"][0]["token"]}
        r = a.post(f"/api/games/{game['id']}/resign", json={"bot": "easy"}, headers=token)
        assert (r.status_code, r.json()["detail"]) == (
            409,
            "leaving would leave this game to bots alone: you "
            "already have 1 game of bots alone going on, as many "
            "as one player may have at once",
        )
        seat = a.get(f"/api/games/{game['id']}").json()["seats"][0]
        assert seat["type"] == "human"
        assert len(app.state.store.bots_only_games()) == 1
        # from another address, for a game another person created, leaving is not held by them
        with client(srv.url, "127.0.0.2") as b:
            other = b.post("/api/games", json={"game": "kingdom", "seats": [{"type": "human"}, BOTS[0]]}).json()
            r = b.post(
                f"/api/games/{other['id']}/resign",
                json={"bot": "easy"},
                headers={"X-Seat-Token": other["seats"][0]["token"]},
            )
            assert r.status_code == 200
        assert len(app.state.store.bots_only_games()) == 2


# -- sign-in: slowed for an attacker, never a lock-out for the owner ----------------------------------
@pytest.fixture
def accounts(tmp_path):
    url = f"sqlite:///{tmp_path / 'games.sqlite3'}"
    store = Store(prepare(url, True), create=False)
    # the counts of the defaults, over an hour (an attempt takes Argon2's time: none is given back meanwhile)
    made = Accounts(store, login_per_name=(10, 3600.0), login_per_name_address=(5, 3600.0))
    made.sign_up("ada", PASSWORD, None)
    yield made
    store.close()


def refused(accounts: Accounts, address: str, password: str = PASSWORD) -> int:
    """The status of a sign-in to ada from ``address``."""
    from builders.server.games import ApiError

    try:
        accounts.sign_in("ada", password, address)
    except ApiError as e:
        return e.status
    return 200


def test_rotating_addresses_cannot_lock_the_owner_out_of_the_address_she_signed_in_from(accounts):
    assert refused(accounts, "198.51.100.7") == 200  # ada's usual address
    attempts = [refused(accounts, f"203.0.113.{i}", "guessed wrong") for i in range(1, 25)]
    assert attempts == [401] * 9 + [429] * 15  # ten attempts on the name (ada's own was one), then slowed
    assert refused(accounts, "198.51.100.7") == 200
    assert refused(accounts, "198.51.100.7") == 200
    # a new address of hers waits like the attacker; the right password does not pass the limit
    assert refused(accounts, "192.0.2.200") == 429


def test_an_address_has_five_tries_at_a_name_even_the_owners(accounts):
    assert refused(accounts, "198.51.100.7") == 200
    assert [refused(accounts, "198.51.100.7", "wrong") for _ in range(4)] == [401] * 4
    assert refused(accounts, "198.51.100.7") == 429  # the fifth attempt in 5 minutes from it (the sign-in counts)
    assert refused(accounts, "198.51.100.8") == 200


def test_an_address_has_a_number_of_tries_over_all_names(accounts):
    held = Accounts(accounts.store, login_per_address=(5, 3600.0))  # 30 in 5 minutes by default
    statuses = [refused_name(held, f"name{i}", "203.0.113.9") for i in range(6)]
    assert statuses == [401] * 5 + [429]
    assert refused_name(held, "name9", "203.0.113.10") == 401


def refused_name(accounts: Accounts, name: str, address: str) -> int:
    from builders.server.games import ApiError

    try:
        accounts.sign_in(name, PASSWORD, address)
    except ApiError as e:
        return e.status
    return 200


def test_the_owner_signs_in_over_http_while_others_are_held(tmp_path):
    app = make_app(tmp_path, limits=Limits(rates=GENEROUS), login_limits={"login_per_name": (10, 3600.0)})
    with ThreadServer(app) as srv, client(srv.url, "127.0.0.2") as home:
        assert home.post("/api/accounts", json={"username": "ada", "password": PASSWORD}).status_code == 201
        assert (
            home.delete("/api/session", headers={"X-CSRF-Token": home.get("/api/session").json()["csrf"]}).status_code
            == 204
        )
        assert home.post("/api/session", json={"username": "ada", "password": PASSWORD}).status_code == 200
        for i in range(3, 15):
            with client(srv.url, f"127.0.0.{i}") as eve:
                r = eve.post("/api/session", json={"username": "ada", "password": "guessed wrong"})
                assert r.status_code == (401 if i < 12 else 429)
        with client(srv.url, "127.0.0.2") as again:
            r = again.post("/api/session", json={"username": "ada", "password": PASSWORD})
            assert r.status_code == 200 and r.json()["account"]["username"] == "ada"
        with client(srv.url, "127.0.0.40") as elsewhere:
            r = elsewhere.post("/api/session", json={"username": "ada", "password": PASSWORD})
            assert retry_after(r) >= 1


# -- shared by the processes --------------------------------------------------------------------------
def test_two_processes_on_one_database_share_the_sign_in_attempts(tmp_path, monkeypatch):
    monkeypatch.setenv("BUILDERS_RATES", "login=10000/60")
    monkeypatch.setenv("BUILDERS_SIGN_IN_RATES", "name=10/3600")
    url = f"sqlite:///{tmp_path / 'games.sqlite3'}"
    a = ProcessServer(url, log_path=tmp_path / "a.log").start()
    b = ProcessServer(url, log_path=tmp_path / "b.log").start()
    try:
        with client(a.url, "127.0.0.2") as ada:
            assert ada.post("/api/accounts", json={"username": "ada", "password": PASSWORD}).status_code == 201
        statuses = []
        for i in range(12):  # alternately on each process, each from an address of its own
            server = (a, b)[i % 2]
            with client(server.url, f"127.0.1.{i + 1}") as eve:
                r = eve.post("/api/session", json={"username": "ada", "password": "guessed wrong"})
                statuses.append(r.status_code)
                if r.status_code == 429:
                    retry_after(r)
        assert statuses == [401] * 10 + [429] * 2  # not 10 on each
    finally:
        a.stop()
        b.stop()


def test_two_processes_with_redis_share_the_address_limits(tmp_path, monkeypatch, redis_server):
    monkeypatch.setenv("BUILDERS_RATES", "create=4/60")
    url = f"sqlite:///{tmp_path / 'games.sqlite3'}"
    servers = []
    try:
        for name in ("a", "b"):
            servers.append(Server(url, "--redis", redis_server.url, log_path=tmp_path / f"{name}.log").start())
        a, b = servers
        with client(a.url, "127.0.2.1") as on_a, client(b.url, "127.0.2.1") as on_b:
            made = [c.post("/api/games", json={"game": "kingdom", "seats": HUMANS}) for c in (on_a, on_b, on_a, on_b)]
            assert [r.status_code for r in made] == [201] * 4
            r = on_a.post("/api/games", json={"game": "kingdom", "seats": HUMANS})
            assert retry_after(r) >= 1 and r.json()["detail"].startswith("too many create requests")
            assert retry_after(on_b.post("/api/games", json={"game": "kingdom", "seats": HUMANS})) >= 1
        with client(a.url, "127.0.2.2") as other:  # another address has its own
            assert other.post("/api/games", json={"game": "kingdom", "seats": HUMANS}).status_code == 201
    finally:
        for server in servers:
            server.stop()


def test_the_limits_on_redis_fall_back_to_each_process_while_redis_is_away(redis_server):
    from builders.server import limits as limits_module

    away = RedisLimits("redis://127.0.0.1:9/0", LocalLimits())  # nothing listens on port 9
    started = time.monotonic()
    assert [away.take("k", 2, 60.0) for _ in range(3)][:2] == [0.0, 0.0]
    assert away.take("k", 2, 60.0) > 0  # counted here meanwhile
    assert away.failures == 1 and time.monotonic() - started < 2.0  # one failure, then the fallback
    there = shared(redis_server.url)
    key = f"fallback-{time.time_ns()}"
    assert [there.take(key, 2, 60.0) for _ in range(2)] == [0.0, 0.0]
    assert 29.0 <= there.take(key, 2, 60.0) <= 30.0
    assert there.failures == 0 and limits_module.FALLBACK_SECONDS == 5.0


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_limits_in_the_database_are_shared_by_its_processes(kind, tmp_path, request):
    url = f"sqlite:///{tmp_path / 'games.sqlite3'}" if kind == "sqlite" else request.getfixturevalue("pg_url")
    one, two = Store(prepare(url, True), create=False), Store(url, create=False)
    try:
        first, second = DatabaseLimits(one.engine), DatabaseLimits(two.engine)
        assert [first.take("k", 3, 60.0), second.take("k", 3, 60.0), first.take("k", 3, 60.0)] == [0.0] * 3
        assert 19.0 <= second.take("k", 3, 60.0) <= 20.0
        assert first.take("other", 3, 60.0) == 0.0
    finally:
        one.close()
        two.close()


def test_the_sign_in_limits_fall_back_to_the_database_while_redis_is_away(accounts):
    held = Accounts(accounts.store, redis_url="redis://127.0.0.1:9/0", login_per_name=(2, 3600.0))
    assert [refused(held, f"203.0.113.{i}", "wrong") for i in range(3)] == [401, 401, 429]
    assert held.limits.failures == 1  # Redis tried once, then the database for FALLBACK_SECONDS
    with accounts.store.engine.connect() as conn:
        keys = conn.exec_driver_sql("select key from rate_limits where key like 'login:name:%'").scalars().all()
    assert keys == ["login:name:ada"]


# -- the arithmetic of the limits, exactly ------------------------------------------------------------


def test_gcra_lets_a_burst_of_count_through_then_says_the_exact_wait():
    from builders.server.limits import gcra

    assert gcra(None, 100.0, 2, 10.0) == (105.0, 0.0)
    assert gcra(105.0, 100.0, 2, 10.0) == (110.0, 0.0)  # the second of the burst: exactly the window
    assert gcra(110.0, 100.0, 2, 10.0) == (110.0, 5.0)  # refused: the key's time does not move
    assert gcra(110.0, 104.0, 2, 10.0) == (110.0, 1.0)
    assert gcra(90.0, 100.0, 2, 10.0) == (105.0, 0.0)  # an old time counts from now
    assert gcra(None, 100.0, 1, 10.0) == (110.0, 0.0)
    assert gcra(110.0, 100.0, 1, 10.0) == (110.0, 10.0)
    assert gcra(None, 100.0, 4, 2.0) == (100.5, 0.0)


def test_the_limits_of_one_process_count_each_key_and_forget_old_keys(monkeypatch):
    from builders.server import limits as limits_module

    now = [1000.0]
    monkeypatch.setattr(limits_module.time, "monotonic", lambda: now[0])
    mine = LocalLimits()
    assert [mine.take("a", 2, 10.0) for _ in range(3)] == [0.0, 0.0, 5.0]
    assert mine.take("b", 2, 10.0) == 0.0
    now[0] = 1005.0
    assert mine.take("a", 2, 10.0) == 0.0  # the refused one took nothing
    assert mine.take("a", 2, 10.0) == 5.0
    now[0] = 1058.0
    mine.take("c", 2, 10.0)
    assert sorted(mine.tats) == ["a", "b", "c"]  # swept at most once a minute
    now[0] = 1060.5
    assert mine.take("d", 2, 10.0) == 0.0
    assert sorted(mine.tats) == ["c", "d"] and mine.swept == 1060.5
    assert asyncio.run(mine.take_async("d", 2, 10.0)) == 0.0
    assert asyncio.run(mine.take_async("d", 2, 10.0)) == 5.0


def test_limits_in_the_database_use_the_prefix_cut_long_keys_and_sweep_old_rows(tmp_path, monkeypatch):
    from builders.server import limits as limits_module

    url = f"sqlite:///{tmp_path / 'games.sqlite3'}"
    store = Store(prepare(url, True), create=False)
    now = [10_000.0]
    monkeypatch.setattr(limits_module.time, "time", lambda: now[0])

    def rows() -> dict[str, float]:
        with store.engine.connect() as conn:
            return dict(conn.exec_driver_sql("select key, tat from rate_limits").all())

    try:
        limits = DatabaseLimits(store.engine, prefix="p:")
        assert [limits.take("k", 2, 10.0) for _ in range(3)] == [0.0, 0.0, 5.0]
        assert rows() == {"p:k": 10_010.0}
        long = "x" * 300
        assert limits.take(long, 1, 10.0) == 0.0
        assert ("p:" + long)[:200] in rows() and len(max(rows(), key=len)) == 200
        assert limits.take("x" * 250, 1, 10.0) == 10.0  # the same first 200 characters: the same key
        now[0] = 10_030.0  # past both rows' times, but within a minute of the last sweep
        assert limits.take("new", 1, 10.0) == 0.0
        assert sorted(rows()) == sorted(["p:k", ("p:" + long)[:200], "p:new"])
        now[0] = 10_061.0  # a minute since the sweep: the rows whose time is past are deleted
        assert limits.take("k", 2, 10.0) == 0.0
        assert rows() == {"p:k": 10_066.0}
    finally:
        store.close()


def test_shared_limits_are_on_redis_else_the_database_else_this_process(tmp_path):
    url = f"sqlite:///{tmp_path / 'games.sqlite3'}"
    store = Store(prepare(url, True), create=False)
    try:
        assert type(shared(None)) is LocalLimits
        on_db = shared(None, store.engine, "pre:")
        assert type(on_db) is DatabaseLimits and on_db.prefix == "pre:" and on_db.engine is store.engine
        on_redis = shared("redis://127.0.0.1:9/0", store.engine, "pre:")
        assert type(on_redis) is RedisLimits and on_redis.prefix == "builders:rate:pre:"
        assert type(on_redis.fallback) is DatabaseLimits and on_redis.fallback.prefix == "pre:"
        assert type(shared("redis://127.0.0.1:9/0").fallback) is LocalLimits
        assert on_redis.take("k", 1, 10.0) == 0.0 and on_redis.failures == 1  # nothing there: the database
        assert on_redis.take("k", 1, 10.0) == pytest.approx(10.0, abs=1.0) and on_redis.failures == 1
    finally:
        store.close()


def test_the_limits_on_redis_keep_their_keys_under_their_prefix_in_both_kinds_of_call(redis_server):
    import redis

    stamp = time.time_ns()
    on_redis = RedisLimits(redis_server.url, LocalLimits())
    assert on_redis.prefix == "builders:rate:"
    assert on_redis.take(f"sync-{stamp}", 1, 60.0) == 0.0

    async def twice():
        return [await on_redis.take_async(f"async-{stamp}", 1, 60.0) for _ in range(2)]

    first, again = asyncio.run(twice())
    assert first == 0.0 and 59.0 <= again <= 60.0
    client = redis.Redis.from_url(redis_server.url)
    try:
        assert sorted(k.decode() for k in client.keys(f"*{stamp}")) == [
            f"builders:rate:async-{stamp}",
            f"builders:rate:sync-{stamp}",
        ]
    finally:
        client.close()
    assert on_redis.failures == 0 and on_redis.fallback.tats == {}


def test_the_limits_on_redis_fall_back_for_exactly_the_fallback_seconds(monkeypatch):
    from builders.server import limits as limits_module

    now = [1000.0]
    monkeypatch.setattr(limits_module.time, "monotonic", lambda: now[0])
    away = RedisLimits("redis://127.0.0.1:9/0", LocalLimits())
    assert asyncio.run(away.take_async("k", 2, 60.0)) == 0.0
    assert (away.failures, away.failed_at) == (1, 1000.0)
    assert away.fallback.tats == {"k": 1030.0}  # counted by the fallback, under the same key
    now[0] = 1004.999
    assert away._away() is True
    now[0] = 1005.0  # FALLBACK_SECONDS later: Redis is tried again
    assert away._away() is False
    assert away.take("k", 2, 60.0) == 0.0 and away.failures == 2
