"""The fault suite: two server processes on PostgreSQL with Redis, scripted players acting through
both of them over HTTP and over sockets, while Redis is SIGKILLed for 2 s and for 10 s, PostgreSQL
is stopped for 5 s, or a server process is SIGKILLed.

Each time it asserts: no accepted action lost and none applied twice (the stored record holds
exactly the actions the players saw accepted, in order), no game wedged (every game goes on after
the fault), no answer 500, the service back within 2 s of the dependency's return, and the sockets
on a surviving process still receive every move. The guarantees are written in docs/deploy.md
("Faults and recovery").
"""

from __future__ import annotations

import asyncio
import json
import random
import signal
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

import httpx
import pytest
import websockets

from tests.server.services import Postgres, Redis
from tests.server.test_processes import Server, ok, post

#: games played at once, each by an HTTP player (seat 0) and a socket player (seat 1)
GAMES = 3
#: seconds a player waits after each accepted action (a game lasts about a minute then, longer than
#: a test)
PACE = 0.1
#: what a player may be answered while a dependency is away (never 500)
ALLOWED = {200, 201, 409, 503}


@pytest.fixture(scope="module")
def pg():
    """A PostgreSQL server of this module's own (the tests stop and start it)."""
    server = Postgres(Path(tempfile.mkdtemp(prefix="builders-faults-pg-"))).start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def redis(tmp_path):
    server = Redis(Path(tempfile.mkdtemp(prefix="builders-faults-redis-"))).start()
    try:
        yield server
    finally:
        server.stop()


class Tally:
    """What the players saw: every HTTP status and socket error code, and the keys of the actions
    each game's players saw accepted, in the order of the record (position -> key)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.statuses: Counter = Counter()
        self.accepted: dict[str, dict[int, str]] = {}
        #: (time, game, server url) of every accepted action
        self.times: list[tuple[float, str, str]] = []

    def status(self, code: int | str) -> None:
        with self.lock:
            self.statuses[code] += 1

    def accept(self, gid: str, n: int, key: str, url: str) -> None:
        with self.lock:
            found = self.accepted.setdefault(gid, {})
            assert found.get(n, key) == key, f"game {gid}: position {n} accepted for two keys"
            found[n] = key
            self.times.append((time.monotonic(), gid, url))

    def accepted_after(self, moment: float, url: str | None = None) -> int:
        with self.lock:
            return sum(1 for t, _, u in self.times if t > moment and (url is None or u == url))


def _choose(legal: list[str], rng: random.Random) -> str:
    """A legal action, the end of the turn now and then (so that both seats play)."""
    others = [a for a in legal if a != "end"]
    if "end" in legal and (not others or rng.random() < 0.3):
        return "end"
    return rng.choice(others)


def _landed(view: dict, n: int, seat: int, action: str) -> bool:
    """Whether the view's record holds ``action`` of ``seat`` at position ``n``."""
    log = view.get("log") or []
    return len(log) > n and log[n].get("action") == action and log[n].get("seat", seat) == seat


class HttpPlayer(threading.Thread):
    """Plays seat 0 of a game over HTTP, on the servers in turn (the next one when a server does not
    answer). An action is retried with its idempotency key until the record shows it, or another
    position is reached."""

    def __init__(self, gid: str, token: str, urls: list[str], tally: Tally, stop: threading.Event, seed: int):
        super().__init__(daemon=True)
        self.gid, self.token, self.urls, self.tally, self.stop_event = gid, token, urls, tally, stop
        self.rng = random.Random(seed)
        self.turn = 0
        #: the key of the action sent and not yet seen accepted or refused
        self.pending: str | None = None

    def url(self) -> str:
        return self.urls[self.turn % len(self.urls)]

    def run(self) -> None:
        with httpx.Client(timeout=10) as client:
            pending: tuple[int, str, str] | None = None  # (position, action, key)
            while not self.stop_event.is_set():
                url = self.url()
                try:
                    r = client.get(f"{url}/api/games/{self.gid}/state", headers={"X-Seat-Token": self.token})
                except httpx.HTTPError:
                    self.turn += 1
                    time.sleep(0.05)
                    continue
                self.tally.status(r.status_code)
                if r.status_code != 200:
                    time.sleep(0.05)
                    continue
                view = r.json()
                if pending is not None:
                    n, action, key = pending
                    if view["actions"] > n:
                        if _landed(view, n, 0, action):
                            self.tally.accept(self.gid, n, key, url)
                        pending = None
                if view["to_move"] != 0 or not view["legal"]:
                    time.sleep(0.05)
                    continue
                if pending is None:
                    n = view["actions"]
                    action = _choose(view["legal"], self.rng)
                    pending = (n, action, f"{self.gid}:0:{n}")
                n, action, key = pending
                self.pending = key
                try:
                    r = client.post(
                        f"{url}/api/games/{self.gid}/actions",
                        json={"action": action, "version": view["version"]},
                        headers={"X-Seat-Token": self.token, "Idempotency-Key": key},
                    )
                except httpx.HTTPError:
                    self.turn += 1
                    continue
                self.tally.status(r.status_code)
                if r.status_code == 200 and _landed(r.json(), n, 0, action):
                    self.tally.accept(self.gid, n, key, url)
                    pending = None
                    self.turn += 1  # the next action through the other process
                    time.sleep(PACE)
                elif r.status_code in (503, 429):
                    time.sleep(0.1)


class SocketPlayer(threading.Thread):
    """Plays seat 1 of a game over a socket on ``urls[0]`` (the next server when it is gone), and
    reconnects with a short wait whenever the socket closes."""

    def __init__(self, gid: str, token: str, urls: list[str], tally: Tally, stop: threading.Event, seed: int):
        super().__init__(daemon=True)
        self.gid, self.token, self.urls, self.tally, self.stop_event = gid, token, urls, tally, stop
        self.rng = random.Random(seed)
        self.closes: Counter = Counter()
        self.pending: str | None = None

    def run(self) -> None:
        asyncio.run(self.play())

    async def play(self) -> None:
        pending: tuple[int, str, str] | None = None
        which = 0
        while not self.stop_event.is_set():
            url = self.urls[which % len(self.urls)].replace("http://", "ws://")
            sent = None  # the version an action was sent from on this socket (sent once a version)
            try:
                async with websockets.connect(f"{url}/ws/games/{self.gid}", open_timeout=3) as ws:
                    await ws.send(json.dumps({"type": "hello", "token": self.token}))
                    while not self.stop_event.is_set():
                        try:
                            raw = await asyncio.wait_for(ws.recv(), 0.5)
                        except asyncio.TimeoutError:
                            continue
                        msg = json.loads(raw)
                        if msg["type"] == "error":
                            self.tally.status(f"socket {msg.get('code')}")
                            continue
                        if msg["type"] != "state":
                            continue
                        if pending is not None and msg["actions"] > pending[0]:
                            n, action, key = pending
                            if _landed(msg, n, 1, action):
                                self.tally.accept(self.gid, n, key, url)
                                await asyncio.sleep(PACE)
                            pending = None
                        if msg["to_move"] != 1 or not msg["legal"] or msg["version"] == sent:
                            continue
                        sent = msg["version"]
                        if pending is None or pending[0] != msg["actions"]:
                            n = msg["actions"]
                            pending = (n, _choose(msg["legal"], self.rng), f"{self.gid}:1:{n}")
                        self.pending = pending[2]
                        await ws.send(
                            json.dumps(
                                {"type": "action", "action": pending[1], "id": pending[2], "version": msg["version"]}
                            )
                        )
            except websockets.ConnectionClosed as e:
                self.closes[e.rcvd.code if e.rcvd else None] += 1
            except (OSError, asyncio.TimeoutError, websockets.InvalidHandshake):
                which += 1  # the server is gone: the next one
            await asyncio.sleep(0.2)


class Watcher(threading.Thread):
    """A spectator's socket on one server: the highest version of each game it received."""

    def __init__(self, url: str, gids: list[str], stop: threading.Event):
        super().__init__(daemon=True)
        self.url, self.gids, self.stop_event = url.replace("http://", "ws://"), gids, stop
        self.seen: dict[str, int] = {}
        self.lock = threading.Lock()

    def run(self) -> None:
        asyncio.run(self.watch())

    async def watch(self) -> None:
        await asyncio.gather(*(self.one(gid) for gid in self.gids))

    async def one(self, gid: str) -> None:
        while not self.stop_event.is_set():
            try:
                async with websockets.connect(f"{self.url}/ws/games/{gid}", open_timeout=3) as ws:
                    await ws.send(json.dumps({"type": "hello", "token": None}))
                    while not self.stop_event.is_set():
                        try:
                            msg = json.loads(await asyncio.wait_for(ws.recv(), 0.5))
                        except asyncio.TimeoutError:
                            continue
                        if msg.get("type") == "state":
                            with self.lock:
                                self.seen[gid] = max(self.seen.get(gid, 0), msg["version"])
            except (websockets.ConnectionClosed, OSError, asyncio.TimeoutError, websockets.InvalidHandshake):
                await asyncio.sleep(0.2)


class Table:
    """Two server processes on one PostgreSQL database with Redis, ``GAMES`` games of two people,
    the players and a spectator socket on each process."""

    def __init__(self, pg: Postgres, redis: Redis, tmp_path: Path):
        self.db_url = pg.new_database()
        self.servers = [
            Server(self.db_url, "--redis", redis.url, log_path=tmp_path / f"{name}.log").start() for name in ("a", "b")
        ]
        self.tally = Tally()
        self.stop_event = threading.Event()
        self.watchers_stop = threading.Event()
        a, b = self.servers
        self.games = []
        for i in range(GAMES):
            g = ok(post(a.url, "/api/games", game="middle-ages", seats=[{"type": "human"}, {"type": "human"}]))
            self.games.append((g["id"], [s["token"] for s in g["seats"]]))
        gids = [gid for gid, _ in self.games]
        self.players: list[threading.Thread] = []
        for i, (gid, tokens) in enumerate(self.games):
            self.players.append(HttpPlayer(gid, tokens[0], [a.url, b.url], self.tally, self.stop_event, i))
            self.players.append(SocketPlayer(gid, tokens[1], [b.url, a.url], self.tally, self.stop_event, 100 + i))
        self.watchers = [Watcher(s.url, gids, self.watchers_stop) for s in self.servers]

    def start(self) -> Table:
        for t in [*self.players, *self.watchers]:
            t.start()
        return self

    def play(self, seconds: float) -> None:
        time.sleep(seconds)

    def finish(self) -> None:
        """Stop the players (the spectators' sockets go on until :meth:`check` has read them)."""
        self.stop_event.set()
        for t in self.players:
            t.join(timeout=10)

    def stored(self, gid: str) -> tuple[list[str | None], int]:
        """The keys of a game's stored actions in order, and its stored version."""
        from sqlalchemy import create_engine, text

        engine = create_engine(self.db_url)
        try:
            with engine.connect() as conn:
                keys = [
                    k
                    for (k,) in conn.execute(
                        text("SELECT client_key FROM actions WHERE game_id = :g ORDER BY n"), {"g": gid}
                    )
                ]
                version = conn.execute(text("SELECT version FROM games WHERE id = :g"), {"g": gid}).scalar_one()
        finally:
            engine.dispose()
        return keys, version

    def check(self, alive: list[Server], moment: float) -> None:
        """Nothing lost, nothing doubled, no 500, no game wedged, the sockets of ``alive`` up to date."""
        bad = {
            code: n
            for code, n in self.tally.statuses.items()
            if code not in ALLOWED and not (isinstance(code, str) and code in ("socket 409", "socket 503"))
        }
        assert not bad, f"answers that should never be given: {bad} (all: {dict(self.tally.statuses)})"
        in_flight = {getattr(p, "pending", None) for p in self.players}  # sent as the players stopped
        for gid, _ in self.games:
            keys, version = self.stored(gid)
            accepted = self.tally.accepted.get(gid, {})
            assert len(keys) == len(set(keys)), f"game {gid}: an action stored twice"
            # exactly the actions the players saw accepted, in order: none lost, none added behind
            # their back (but the one a player sent as it stopped, whose answer it did not wait for)
            seen = [accepted.get(n) for n in range(len(keys))]
            if keys and seen[-1] is None and keys[-1] in in_flight:
                seen[-1] = keys[-1]
            assert len(accepted) <= len(keys), f"game {gid}: accepted actions lost: {sorted(accepted)[len(keys) :]}"
            wrong = [(n, k, a) for n, (k, a) in enumerate(zip(keys, seen)) if k != a]
            assert not wrong, f"game {gid}: stored vs accepted differ at {wrong[:5]}"
        # every game went on after the fault, through every surviving process
        for gid, _ in self.games:
            if not any(t > moment and g == gid for t, g, _ in self.tally.times):
                views = [httpx.get(f"{s.url}/api/games/{gid}/state", timeout=5).json() for s in alive]
                raise AssertionError(
                    f"game {gid} is wedged: {[(v['version'], v['to_move']) for v in views]}, "
                    f"stored {self.stored(gid)[1]}, {dict(self.tally.statuses)}, "
                    f"{[(p.pending, getattr(p, 'closes', None)) for p in self.players]}"
                )
        for server in alive:
            assert self.tally.accepted_after(moment, server.url) > 0, f"{server.url} accepted nothing after the fault"
        # the spectators' sockets on the surviving processes saw the last version of every game
        deadline = time.monotonic() + 5
        for watcher in self.watchers:
            if watcher.url.replace("ws://", "http://") not in [s.url for s in alive]:
                continue
            for gid, _ in self.games:
                _, version = self.stored(gid)
                while watcher.seen.get(gid, 0) < version and time.monotonic() < deadline:
                    time.sleep(0.05)
                assert watcher.seen.get(gid, 0) == version, f"{watcher.url} saw {watcher.seen.get(gid)} of {version}"
        self.watchers_stop.set()

    def close(self) -> None:
        self.stop_event.set()
        self.watchers_stop.set()
        for s in self.servers:
            s.stop()


@pytest.fixture
def table(pg, redis, tmp_path, monkeypatch):
    # the scripted players all come from 127.0.0.1, many times a second: raise the address limits
    monkeypatch.setenv("BUILDERS_RATES", "create=1000/60,action=100000/60,read=100000/60")
    monkeypatch.setenv("BUILDERS_SOCKET_RATE", "1000")
    t = Table(pg, redis, tmp_path)
    try:
        yield t
    finally:
        t.close()


def _back_within(servers: list[Server], ready, seconds: float) -> float:
    """Seconds until ``ready(server)`` holds for every server (fails past ``seconds``)."""
    started = time.monotonic()
    waiting = list(servers)
    while waiting and time.monotonic() - started < seconds:
        waiting = [s for s in waiting if not ready(s)]
        if waiting:
            time.sleep(0.05)
    assert not waiting, f"{[s.url for s in waiting]} not back within {seconds} s"
    return time.monotonic() - started


def _health(server: Server) -> tuple[int, dict]:
    try:
        r = httpx.get(server.url + "/healthz", timeout=3)
    except httpx.HTTPError:
        return 0, {}
    return r.status_code, r.json()


def _stops_on_sigterm(server: Server, seconds: float = 5.0) -> float:
    assert server.proc is not None
    started = time.monotonic()
    server.proc.send_signal(signal.SIGTERM)
    server.proc.wait(timeout=seconds)
    return time.monotonic() - started


@pytest.mark.parametrize("away", [2.0, 10.0])
def test_redis_killed_the_processes_serve_on_and_catch_up(table, redis, away):
    """Issue: Redis away for a second froze every process for good. Now each process keeps serving
    its own clients, /healthz names Redis as down, the processes poll each other's changes from the
    database, and after Redis is back every socket gets every move; SIGTERM stops a process."""
    table.start().play(2.0)
    redis.kill()
    killed = time.monotonic()
    time.sleep(1.0)
    for server in table.servers:
        status, body = _health(server)
        assert status == 200 and body["redis"] == "down" and body["status"] == "degraded", body
    table.play(away - 1.0)
    # both processes went on accepting actions while Redis was away
    for server in table.servers:
        assert table.tally.accepted_after(killed, server.url) > 0, f"{server.url} stopped while Redis was away"
    redis.resume()
    back = time.monotonic()
    took = _back_within(table.servers, lambda s: _health(s)[1].get("redis") == "ok", 2.0)
    table.play(3.0)
    table.finish()
    table.check(table.servers, back)
    assert took <= 2.0
    stops = [_stops_on_sigterm(server) for server in table.servers]
    assert max(stops) < 5.0
    print(
        f"\nRedis away {away:g} s: both processes back on Redis {took:.2f} s after its return; "
        f"SIGTERM stopped them in {max(stops):.2f} s"
    )


def test_postgres_stopped_answers_503_and_comes_back(table, pg):
    """Issue: PostgreSQL away answered 500. Now every route answers 503 with Retry-After, sockets
    that need the database close with 1013 (the client reconnects), and the service is back within
    2 s of the database's return."""
    table.start().play(2.0)
    a, b = table.servers
    pg.halt()
    time.sleep(0.5)
    seen = {}
    with httpx.Client(timeout=10) as client:
        gid, tokens = table.games[0]
        for method, path, headers, body in [
            ("GET", "/healthz", {}, None),
            ("GET", "/api/games", {}, None),
            ("GET", f"/api/games/{gid}/state", {"X-Seat-Token": tokens[0]}, None),
            ("POST", "/api/games", {}, {"game": "kingdom", "seats": [{"type": "human"}, {"type": "human"}]}),
            ("POST", f"/api/games/{gid}/actions", {"X-Seat-Token": tokens[0]}, {"action": "end"}),
            ("GET", "/api/session", {}, None),
            ("POST", "/api/session/guest", {}, None),
        ]:
            r = client.request(method, b.url + path, headers=headers, json=body)
            seen[path] = r.status_code
            if r.status_code == 503:
                assert r.headers.get("retry-after") == "2", (path, r.headers)
            assert r.status_code != 500, (path, r.text)
    assert seen["/healthz"] == 503 and seen["/api/games"] == 503 and seen["/api/session/guest"] == 503, seen
    time.sleep(4.5)
    pg.resume()
    back = time.monotonic()
    took = _back_within(table.servers, lambda s: _health(s)[0] == 200, 2.0)
    table.play(4.0)
    table.finish()
    table.check(table.servers, back)
    first = min(t for t, _, _ in table.tally.times if t > back) - back
    assert took <= 2.0 and first <= 2.0, (took, first)
    print(
        f"\nPostgreSQL away 5 s: /healthz 200 on both processes {took:.2f} s after its return, "
        f"the first action accepted after {first:.2f} s; answers meanwhile: {dict(table.tally.statuses)}"
    )


def test_a_server_process_killed_the_other_plays_on(table):
    """A server process SIGKILLed: its players move to the other process, which takes the lease
    over, and the sockets on the survivor receive every move."""
    table.start().play(2.0)
    a, b = table.servers
    a.kill()
    killed = time.monotonic()
    table.play(5.0)
    table.finish()
    table.check([b], killed)
