"""Several `builders serve` processes on one database (a SQLite file, and PostgreSQL): nothing lost,
nothing applied twice, no game wedged; Redis fans changes out between processes; one process (the
lease holder) plays the bots, and another takes over when it is killed with SIGKILL."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import threading
import time

import httpx
import pytest
import websockets

from builders.core.record import replay
from tests.server.helpers import ROOT, ProcessServer


class Server(ProcessServer):
    """``python -m builders.server`` with extra options (--redis ...)."""

    def __init__(self, db_url, *options: str, bot_delay: float = 0.0, log_path=None):
        super().__init__(db_url, bot_delay=bot_delay, log_path=log_path)
        self.options = list(options)

    def start(self, timeout: float = 30.0) -> Server:
        env = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
        out = open(self.log_path, "ab") if self.log_path else subprocess.DEVNULL
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "builders.server",
                "--host",
                "127.0.0.1",
                "--port",
                str(self.port),
                "--db",
                self.db_url,
                "--bot-delay",
                str(self.bot_delay),
                "--bot-mode",
                "thread",
                "--quiet",
                *self.options,
            ],
            stdout=out,
            stderr=out,
            env=env,
        )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the server exited with {self.proc.returncode}")
            try:
                if httpx.get(self.url + "/healthz", timeout=1).status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        self.kill()
        raise RuntimeError("the server did not answer")

    def health(self) -> dict:
        return httpx.get(self.url + "/healthz", timeout=10).json()


def post(url, path, token=None, headers=None, **body):
    h = dict(headers or {})
    if token:
        h["X-Seat-Token"] = token
    return httpx.post(url + path, json=body or None, headers=h, timeout=30)


def ok(response) -> dict:
    assert response.status_code in (200, 201), response.text
    return response.json()


def view(url, gid, token=None) -> dict:
    r = httpx.get(f"{url}/api/games/{gid}/state", headers={"X-Seat-Token": token} if token else {}, timeout=30)
    return ok(r)


def record_of(db_url: str, gid: str) -> list[str]:
    """The actions stored for a game, in order, read from the database itself."""
    from sqlalchemy import create_engine, text

    engine = create_engine(db_url)
    with engine.connect() as conn:
        rows = conn.execute(text("SELECT n, action FROM actions WHERE game_id = :g ORDER BY n"), {"g": gid}).all()
    engine.dispose()
    assert [n for n, _ in rows] == list(range(len(rows)))
    return [a for _, a in rows]


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request, tmp_path):
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'games.sqlite3'}"
    return request.getfixturevalue("pg_url")


def two_processes(request, tmp_path_factory, *options: str):
    """Two processes on a new database of ``request.param``'s kind, started with ``options``; stopped
    when the fixture's tests are done."""
    folder = tmp_path_factory.mktemp("pair")
    if request.param == "sqlite":
        db_url = f"sqlite:///{folder / 'games.sqlite3'}"
    else:
        db_url = request.getfixturevalue("postgres").new_database()
    servers = [Server(db_url, *options, log_path=folder / f"{name}.log") for name in "ab"]
    request.addfinalizer(lambda: [s.stop() for s in servers])
    return [s.start() for s in servers]


# The processes are shared by the module's tests of a database (each plays games of its own):
# starting them is most of such a test's time.
@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def pair(request, tmp_path_factory):
    return two_processes(request, tmp_path_factory)


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def redis_pair(request, tmp_path_factory, redis_server):
    """Two processes that fan changes out through Redis."""
    return two_processes(request, tmp_path_factory, "--redis", redis_server.url)


def test_the_issue_scenario_two_processes_one_truth(pair):
    """A plays "coins 1"; B reads; A plays "coins 2"; B undoes for the same seat: B takes back
    "coins 2" (its copy is brought up to date first), both processes then show "coins 1" only, and
    the game goes on through either process, also after both restart."""
    a, b = pair
    db_url = a.db_url
    g = ok(post(a.url, "/api/games", game="middle-ages", seats=[{"type": "human"}, {"type": "human"}]))
    gid, tokens = g["id"], [s["token"] for s in g["seats"]]
    ok(post(a.url, f"/api/games/{gid}/actions", tokens[0], action="coins 1"))
    assert view(b.url, gid, tokens[0])["log"][-1]["action"] == "coins 1"
    ok(post(a.url, f"/api/games/{gid}/actions", tokens[0], action="coins 2"))
    undone = ok(post(b.url, f"/api/games/{gid}/undo", tokens[0]))
    assert [e["action"] for e in undone["log"]] == ["coins 1"]
    assert record_of(db_url, gid) == ["coins 1"]
    on_a = view(a.url, gid, tokens[0])
    assert on_a["version"] == undone["version"] == 3 and [e["action"] for e in on_a["log"]] == ["coins 1"]
    # an action chosen from a view older than the other process's change is refused with 409, and
    # the game is not wedged: the next action with the right version goes through
    r = post(a.url, f"/api/games/{gid}/actions", tokens[0], action="coins 2", version=2)
    assert r.status_code == 409 and "version 3" in r.json()["detail"]
    ok(post(b.url, f"/api/games/{gid}/actions", tokens[0], action="coins 2", version=3))
    ok(post(a.url, f"/api/games/{gid}/actions", tokens[0], action="end"))
    assert record_of(db_url, gid) == ["coins 1", "coins 2", "end"]
    # both processes stop and start again (on their ports: the module's other tests go on with them)
    for s in pair:
        s.stop()
    for s in pair:
        s.start()
    for s in pair:
        assert [e["action"] for e in view(s.url, gid)["log"]] == ["coins 1", "coins 2", "end"]
    last = ok(post(b.url, f"/api/games/{gid}/actions", tokens[1], action="coins 1"))
    assert last["version"] == 6 and view(a.url, gid)["version"] == 6


def test_racing_actions_and_undos_lose_nothing_and_double_nothing(pair):
    """Both processes get the same seat's actions and undos at once, from several threads: every
    answer is 200 or 409 (never 5xx), the stored record is the accepted actions minus the accepted
    undos, and both processes end with the stored game."""
    a, b = pair
    db_url = a.db_url
    g = ok(post(a.url, "/api/games", game="middle-ages", seats=[{"type": "human"}, {"type": "human"}]))
    gid, tokens = g["id"], [s["token"] for s in g["seats"]]
    answers: list[tuple[str, int]] = []
    lock = threading.Lock()

    def worker(server, i):
        with httpx.Client(base_url=server.url, timeout=30) as client:
            for k in range(12):
                current = client.get(f"/api/games/{gid}/state", headers={"X-Seat-Token": tokens[0]}).json()
                seat = current["to_move"]
                if (i + k) % 3 == 0:
                    r = client.post(f"/api/games/{gid}/undo", headers={"X-Seat-Token": tokens[seat]})
                    kind = "undo"
                else:
                    legal = [x for x in current["legal"] if x != "end"] or current["legal"]
                    if not legal:
                        legal = ["end"]
                    r = client.post(
                        f"/api/games/{gid}/actions",
                        json={"action": legal[k % len(legal)]},
                        headers={"X-Seat-Token": tokens[seat]},
                    )
                    kind = "action"
                with lock:
                    answers.append((kind, r.status_code))

    threads = [threading.Thread(target=worker, args=(server, i)) for i, server in enumerate([a, b, a, b])]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    codes = {code for _, code in answers}
    assert codes <= {200, 400, 403, 409}, answers
    accepted = sum(1 for kind, code in answers if kind == "action" and code == 200)
    undone = sum(1 for kind, code in answers if kind == "undo" and code == 200)
    stored = record_of(db_url, gid)
    assert accepted >= 1 and len(stored) == accepted - undone
    final_a, final_b = view(a.url, gid), view(b.url, gid)
    assert final_a["version"] == final_b["version"] == accepted + undone
    assert [e["action"] for e in final_a["log"]] == [e["action"] for e in final_b["log"]] == stored
    # the stored record replays
    rec = httpx.get(f"{a.url}/api/games/{gid}/state", timeout=10).json()
    assert rec["actions"] == len(stored)


def test_racing_joins_give_each_seat_once(pair):
    a, b = pair
    games = [
        ok(post(a.url, "/api/games", game="kingdom", seats=[{"type": "human"}, {"type": "human", "open": True}]))
        for _ in range(4)
    ]
    results: dict[str, list[int]] = {g["id"]: [] for g in games}

    def join(server, gid):
        r = post(server.url, f"/api/games/{gid}/join", seat=1, name="racer")
        results[gid].append(r.status_code)

    threads = [threading.Thread(target=join, args=(s, g["id"])) for g in games for s in (a, b, a, b)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for gid, codes in results.items():
        assert sorted(codes) == [200, 409, 409, 409], codes
        for s in (a, b):
            seats = view(s.url, gid)["seats"]
            assert seats[1]["claimed"] and seats[1]["name"] == "racer"


def test_idempotency_key_applies_a_retried_action_once(pair):
    a, b = pair
    db_url = a.db_url
    g = ok(post(a.url, "/api/games", game="middle-ages", seats=[{"type": "human"}, {"type": "human"}]))
    gid, tokens = g["id"], [s["token"] for s in g["seats"]]
    key = {"Idempotency-Key": "retry-1"}
    first = ok(post(a.url, f"/api/games/{gid}/actions", tokens[0], headers=key, action="coins 1"))
    again = ok(post(a.url, f"/api/games/{gid}/actions", tokens[0], headers=key, action="coins 1"))
    elsewhere = ok(post(b.url, f"/api/games/{gid}/actions", tokens[0], headers=key, action="coins 1"))
    assert first["version"] == again["version"] == elsewhere["version"] == 1
    assert record_of(db_url, gid) == ["coins 1"]
    # another key is another action; the same key for another seat is refused
    ok(post(b.url, f"/api/games/{gid}/actions", tokens[0], headers={"Idempotency-Key": "retry-2"}, action="coins 1"))
    assert record_of(db_url, gid) == ["coins 1", "coins 1"]
    r = post(a.url, f"/api/games/{gid}/actions", tokens[0], headers={"Idempotency-Key": "x" * 101}, action="end")
    assert r.status_code == 400 and "idempotency key" in r.json()["detail"]


def test_exactly_one_process_plays_the_bots_and_another_takes_over_after_sigkill(db_url, tmp_path):
    """Only the lease holder (A) plays bots, also for a person playing through B; a bots' game runs
    while both processes are up; A is killed with SIGKILL; B takes the lease within a few seconds
    and finishes the game; every bot move is stored once (the record replays to the end)."""
    a = Server(db_url, bot_delay=0.05, log_path=tmp_path / "a.log").start()
    time.sleep(0.3)
    b = Server(db_url, bot_delay=0.05, log_path=tmp_path / "b.log").start()
    try:
        acting = [s.health()["acting"] for s in (a, b)]
        assert acting == [True, False]
        # a person plays through B (which plays no bot); A's bot answers, once per turn
        h = ok(
            post(b.url, "/api/games", game="middle-ages", seats=[{"type": "human"}, {"type": "bot", "level": "easy"}])
        )
        for action in ("coins 1", "coins 1", "coins 1", "end"):
            ok(post(b.url, f"/api/games/{h['id']}/actions", h["seats"][0]["token"], action=action))
        deadline = time.monotonic() + 30
        while view(b.url, h["id"])["to_move"] != 0:
            assert time.monotonic() < deadline, "the bot did not play"
            time.sleep(0.05)
        bot_turn = view(b.url, h["id"])["log"][4:]
        assert bot_turn and {e["seat"] for e in bot_turn} == {1} and bot_turn[-1]["action"] == "end"
        assert [e["action"] for e in view(b.url, h["id"])["log"]] == record_of(db_url, h["id"])
        g = ok(
            post(
                b.url,
                "/api/games",
                game="middle-ages",
                seats=[{"type": "bot", "level": "easy"}, {"type": "bot", "level": "easy"}],
            )
        )
        gid = g["id"]
        deadline = time.monotonic() + 30
        while view(b.url, gid)["actions"] < 6:
            assert time.monotonic() < deadline, "the bots did not play"
            time.sleep(0.05)
        a.kill()
        killed_at = time.monotonic()
        deadline = killed_at + 10
        while not b.health()["acting"]:
            assert time.monotonic() < deadline, "the other process did not take the lease over"
            time.sleep(0.1)
        took_over = time.monotonic() - killed_at
        assert took_over < 6
        deadline = time.monotonic() + 90
        while view(b.url, gid)["status"] != "finished":
            assert time.monotonic() < deadline, "the bots did not finish"
            time.sleep(0.2)
        record = httpx.get(f"{b.url}/api/games/{gid}/record", timeout=10).json()
        assert replay(record).is_over()
        assert len(record_of(db_url, gid)) == view(b.url, gid)["actions"]
    finally:
        a.kill()
        b.stop()


def test_redis_fans_moves_out_to_sockets_of_the_other_process(redis_pair):
    """A socket on process A sees every move made through process B within 100 ms (median of 8
    moves; none later than 1 s), the seats present through B count as connected on A, and chat
    said through B reaches A's players."""
    a, b = redis_pair
    g = ok(post(a.url, "/api/games", game="middle-ages", seats=[{"type": "human"}, {"type": "human"}]))
    gid, tokens = g["id"], [s["token"] for s in g["seats"]]

    async def scenario():
        async with (
            websockets.connect(f"{a.ws_url}/ws/games/{gid}") as on_a,
            websockets.connect(f"{b.ws_url}/ws/games/{gid}") as on_b,
        ):
            await on_a.send(json.dumps({"type": "hello", "token": tokens[1]}))
            first = json.loads(await asyncio.wait_for(on_a.recv(), 10))
            assert first["type"] == "state" and first["version"] == 0
            await on_b.send(json.dumps({"type": "hello", "token": tokens[0]}))
            json.loads(await asyncio.wait_for(on_b.recv(), 10))
            # seat 0 is connected through B: A's socket is told so
            while True:
                msg = json.loads(await asyncio.wait_for(on_a.recv(), 5))
                if msg["type"] == "state" and msg["seats"][0]["connected"]:
                    break
            delays = []
            async with httpx.AsyncClient(base_url=b.url, timeout=10) as http:
                for i in range(8):
                    action = "coins 1" if i % 2 == 0 else "undo"
                    started = time.perf_counter()
                    if action == "undo":
                        r = await http.post(f"/api/games/{gid}/undo", headers={"X-Seat-Token": tokens[0]})
                    else:
                        r = await http.post(
                            f"/api/games/{gid}/actions",
                            json={"action": action},
                            headers={"X-Seat-Token": tokens[0]},
                        )
                    assert r.status_code == 200, r.text
                    version = r.json()["version"]
                    while True:
                        msg = json.loads(await asyncio.wait_for(on_a.recv(), 5))
                        if msg["type"] == "state" and msg["version"] == version:
                            break
                    delays.append(time.perf_counter() - started)
                # chat said through B reaches the players' sockets on A
                r = await http.post(
                    f"/api/games/{gid}/chat", json={"text": "hello from B"}, headers={"X-Seat-Token": tokens[0]}
                )
                assert r.status_code == 201, r.text
            while True:
                msg = json.loads(await asyncio.wait_for(on_a.recv(), 5))
                if msg["type"] == "chat":
                    assert msg["text"] == "hello from B" and msg["seat"] == 0 and msg["channel"] == "players"
                    break
            return delays

    delays = asyncio.run(scenario())
    delays.sort()
    assert delays[len(delays) // 2] < 0.1 and delays[-1] < 1.0, delays


def test_a_spectator_on_one_process_is_counted_on_the_other(redis_pair):
    """A spectator watching through process B is counted in the views a player on process A gets;
    when it leaves, A's player is told 0 again."""
    a, b = redis_pair
    g = ok(post(a.url, "/api/games", game="kingdom", seats=[{"type": "human"}, {"type": "human"}]))
    gid, tokens = g["id"], [s["token"] for s in g["seats"]]

    async def next_count(ws, wanted):
        while True:
            msg = json.loads(await asyncio.wait_for(ws.recv(), 5))
            if msg["type"] == "state" and msg["spectators"] == wanted:
                return msg

    async def scenario():
        async with websockets.connect(f"{a.ws_url}/ws/games/{gid}") as player:
            await player.send(json.dumps({"type": "hello", "token": tokens[0]}))
            first = json.loads(await asyncio.wait_for(player.recv(), 10))
            assert first["type"] == "state" and first["seat"] == 0 and first["spectators"] == 0
            async with websockets.connect(f"{b.ws_url}/ws/games/{gid}") as watcher:
                await watcher.send(json.dumps({"type": "hello", "token": None}))
                seen = json.loads(await asyncio.wait_for(watcher.recv(), 10))
                assert seen["type"] == "state" and seen["seat"] is None and seen["spectators"] == 1
                told = await next_count(player, 1)
                assert told["seat"] == 0 and told["seats"][0]["connected"]
            await next_count(player, 0)

    asyncio.run(scenario())


def test_builders_serve_with_workers_postgresql_and_redis(pg_url, redis_server, tmp_path):
    """`builders serve --workers 2 --db postgresql://... --redis redis://...`: requests land on either
    process; a game played through both stays one game, and a socket sees every move."""
    from tests.server.helpers import free_port

    port = free_port()
    plain_url = pg_url.replace("postgresql+psycopg://", "postgresql://")
    log = open(tmp_path / "serve.log", "ab")
    proc = subprocess.Popen(
        [
            str(ROOT / ".venv" / "bin" / "builders") if (ROOT / ".venv" / "bin" / "builders").exists() else "builders",
            "serve",
            "--port",
            str(port),
            "--workers",
            "2",
            "--db",
            plain_url,
            "--redis",
            redis_server.url,
        ],
        stdout=log,
        stderr=log,
        env=dict(os.environ, PYTHONPATH=str(ROOT / "src")),
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            assert proc.poll() is None and time.monotonic() < deadline, (tmp_path / "serve.log").read_text()
            try:
                if httpx.get(url + "/healthz", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.2)
        g = ok(post(url, "/api/games", game="middle-ages", seats=[{"type": "human"}, {"type": "human"}]))
        gid, tokens = g["id"], [s["token"] for s in g["seats"]]

        async def scenario():
            async with websockets.connect(f"ws://127.0.0.1:{port}/ws/games/{gid}") as ws:
                await ws.send(json.dumps({"type": "hello", "token": None}))
                seen = [json.loads(await asyncio.wait_for(ws.recv(), 10))["version"]]
                for i in range(10):
                    seat = (await asyncio.to_thread(view, url, gid))["to_move"]
                    current = await asyncio.to_thread(view, url, gid, tokens[seat])
                    action = "end" if "end" in current["legal"] and i % 3 == 2 else current["legal"][0]
                    r = await asyncio.to_thread(
                        post,
                        url,
                        f"/api/games/{gid}/actions",
                        tokens[seat],
                        None,
                        action=action,
                        version=current["version"],
                    )
                    assert r.status_code == 200, r.text
                    while seen[-1] < r.json()["version"]:
                        msg = json.loads(await asyncio.wait_for(ws.recv(), 5))
                        if msg["type"] == "state":
                            seen.append(msg["version"])
                return seen

        seen = asyncio.run(scenario())
        assert seen[-1] == 10 and seen == sorted(seen)
        assert len(record_of(pg_url, gid)) == 10
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def test_a_lease_of_another_machine_is_taken_over_once_it_expires(db_url):
    """The holder is on another machine (its process cannot be checked): the lease is taken over
    only after it expired."""
    from builders.server.cluster import Lease
    from builders.server.migrate import upgrade
    from builders.server.store import Store

    upgrade(db_url)
    store = Store(db_url, create=False)
    try:
        elsewhere = Lease(store, seconds=1.0)
        elsewhere.host = "another-machine"
        elsewhere.holder = "another-machine:4242:abcd"
        assert elsewhere.hold()
        here = Lease(store, seconds=1.0)
        assert not here.hold()
        time.sleep(1.2)
        assert here.hold() and not elsewhere.hold()
        here.release()
        assert elsewhere.hold()
    finally:
        store.close()


def test_unreachable_redis_or_database_is_one_line_error(tmp_path):
    from tests.server.helpers import free_port

    port = free_port()
    env = {"PYTHONPATH": str(ROOT / "src"), "PATH": ""}
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "builders.server",
            "--db",
            str(tmp_path / "g.sqlite3"),
            "--redis",
            f"redis://127.0.0.1:{port}/0",
            "--port",
            str(free_port()),
        ],
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
    )
    assert done.returncode == 2 and done.stderr.startswith(
        f"error: Redis at redis://127.0.0.1:{port}/0 cannot be reached: "
    )
    assert len(done.stderr.strip().splitlines()) == 1
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "builders.server",
            "--db",
            f"postgresql://nobody@127.0.0.1:{port}/x",
            "--port",
            str(free_port()),
        ],
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
    )
    assert done.returncode == 2 and done.stderr.startswith(f"error: the database 127.0.0.1:{port}/x cannot be used: ")
    assert len(done.stderr.strip().splitlines()) == 1
