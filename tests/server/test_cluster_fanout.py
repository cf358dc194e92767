"""The fan-out between server processes and the lease, run in this test process (issue 43: mutation
testing of ``server/cluster.py``).

test_processes.py runs ``builders serve`` processes; here two servers of this process (two apps,
each with its own service and cluster, on one SQLite file and a redis-server of the test's own) fan
their changes out to each other through Redis, so that the cluster's code runs where a test sees it:
moves, presence, spectators and chat reach the other server's sockets; a message on the channel
that is not a change is ignored; Redis killed and started again; polling without Redis; the lease
lost to another machine and taken back. The second server never holds the lease: both are one
process, and a lease held by this very process counts as an earlier server's (taken over at once).
"""

from __future__ import annotations

import asyncio
import json
import logging
import time

import httpx
import pytest
import redis
from sqlalchemy import update

from builders.server.cluster import CHANNEL
from tests.server.conftest import make_app
from tests.server.helpers import SocketClient, ThreadServer
from tests.server.test_jobs import wait_for as wait


@pytest.fixture
def own_redis(tmp_path):
    """A redis-server of this test alone (it is killed and started again)."""
    from tests.server.services import Redis

    server = Redis(tmp_path / "redis").start()
    yield server
    server.stop()


class Pair:
    """Two servers of this process on one database (``a`` holds the lease, ``b`` has none)."""

    def __init__(self, tmp_path, redis_url: str | None):
        self.apps = [make_app(tmp_path, redis_url=redis_url), make_app(tmp_path, redis_url=redis_url)]
        self.apps[1].state.cluster.lease = None
        self.servers = [ThreadServer(app) for app in self.apps]

    def __enter__(self) -> Pair:
        for s in self.servers:
            s.__enter__()
        return self

    def __exit__(self, *exc) -> None:
        for s in reversed(self.servers):
            s.__exit__(*exc)

    def cluster(self, i: int):
        return self.apps[i].state.cluster

    def game(self, game: str = "middle-ages") -> tuple[str, list[str]]:
        r = httpx.post(
            self.servers[0].url + "/api/games", json={"game": game, "seats": [{"type": "human"}] * 2}, timeout=30
        )
        assert r.status_code == 201, r.text
        return r.json()["id"], [s["token"] for s in r.json()["seats"]]

    def act(self, i: int, gid: str, token: str, action: str) -> int:
        r = httpx.post(
            f"{self.servers[i].url}/api/games/{gid}/actions",
            json={"action": action},
            headers={"X-Seat-Token": token},
            timeout=30,
        )
        assert r.status_code == 200, r.text
        return r.json()["version"]

    def health(self, i: int) -> dict:
        return httpx.get(self.servers[i].url + "/healthz", timeout=30).json()


async def next_state(client: SocketClient, check, timeout: float = 10.0) -> dict:
    """The next state message ``client`` receives for which ``check`` holds."""
    deadline = time.monotonic() + timeout
    while True:
        msg = await client.receive(max(0.01, deadline - time.monotonic()))
        if msg["type"] == "state" and check(msg):
            return msg


def test_moves_presence_spectators_and_chat_reach_the_other_server_s_sockets(tmp_path, own_redis):
    with Pair(tmp_path, own_redis.url) as pair:
        a, b = pair.servers
        gid, tokens = pair.game()
        assert pair.cluster(0).redis_up and pair.cluster(1).redis_up

        async def scenario():
            async with SocketClient(a.ws_url, gid, tokens[1]) as on_a, SocketClient(b.ws_url, gid, tokens[0]) as on_b:
                assert (on_a.latest["seat"], on_b.latest["seat"]) == (1, 0)
                # seat 0 is connected through B: A's player is told so, and A counts it as B's
                await next_state(on_a, lambda m: m["seats"][0]["connected"])
                assert pair.apps[0].state.service.remote_seats == {gid: {0}}
                assert pair.apps[1].state.service.remote_seats == {gid: {1}}
                # moves made through B reach A's socket, version by version
                delays = []
                for action in ["coins 1", "undo", "coins 1"]:
                    started = time.monotonic()
                    if action == "undo":
                        r = httpx.post(f"{b.url}/api/games/{gid}/undo", headers={"X-Seat-Token": tokens[0]}, timeout=30)
                        assert r.status_code == 200, r.text
                        version = r.json()["version"]
                    else:
                        version = pair.act(1, gid, tokens[0], action)
                    seen = await next_state(on_a, lambda m: m["version"] == version)
                    delays.append(time.monotonic() - started)
                    assert seen["seat"] == 1
                assert max(delays) < 2.5, delays  # through Redis, not the polling (every 5 s with Redis)
                assert [e["action"] for e in seen["log"]] == ["coins 1"]
                live_a = pair.apps[0].state.service.live[gid]
                assert live_a.version == version and [s.action for s in live_a.steps] == ["coins 1"]
                # a spectator through B is counted on A
                async with SocketClient(b.ws_url, gid, None) as watcher:
                    assert watcher.latest["spectators"] == 1
                    told = await next_state(on_a, lambda m: m["spectators"] == 1)
                    assert told["seats"][0]["connected"]
                    assert pair.apps[0].state.service.remote_spectators == {gid: 1}
                await next_state(on_a, lambda m: m["spectators"] == 0)
                assert gid not in pair.apps[0].state.service.remote_spectators
                # chat said through B reaches A's players
                r = httpx.post(
                    f"{b.url}/api/games/{gid}/chat",
                    json={"text": "hello from B"},
                    headers={"X-Seat-Token": tokens[0]},
                    timeout=30,
                )
                assert r.status_code == 201, r.text
                while True:
                    msg = await on_a.receive()
                    if msg["type"] == "chat":
                        break
                assert (msg["text"], msg["seat"], msg["channel"]) == ("hello from B", 0, "players")

        asyncio.run(scenario())
        wait(lambda: gid not in pair.apps[0].state.service.remote_seats)
        assert pair.cluster(0).published > 0 and pair.cluster(1).received > 0
        assert pair.cluster(0).received >= 4 and pair.cluster(1).published >= 4
        metrics = httpx.get(a.url + "/metrics", timeout=30).text
        assert f"builders_fanout_published_total {float(pair.cluster(0).published)}" in metrics
        assert f"builders_fanout_received_total {float(pair.cluster(0).received)}" in metrics


def test_a_message_on_the_channel_that_is_not_a_change_is_ignored_and_presence_is_per_origin(tmp_path, own_redis):
    with Pair(tmp_path, own_redis.url) as pair:
        a = pair.servers[0]
        gid, tokens = pair.game("kingdom")
        service = pair.apps[0].state.service
        cluster = pair.cluster(0)
        publish = redis.Redis.from_url(own_redis.url)

        def say(message) -> None:
            publish.publish(CHANNEL, message if isinstance(message, str) else json.dumps(message))

        async def scenario():
            async with SocketClient(a.ws_url, gid, tokens[0]) as player:
                before = cluster.received
                for junk in (
                    "not json",
                    "[1, 2]",
                    json.dumps({"g": gid}),
                    json.dumps({"o": "x", "g": gid, "v": "a"}),
                    json.dumps({"o": "x", "g": gid, "v": 1, "s": 5}),
                    json.dumps({"o": cluster.origin, "g": gid, "v": 50, "s": [1], "w": 3}),
                ):
                    say(junk)
                # another process says seat 1 and two spectators are there, at the version of the copy
                say({"o": "elsewhere", "g": gid, "v": 0, "s": [1], "w": 2})
                told = await next_state(player, lambda m: m["seats"][1]["connected"])
                assert told["spectators"] == 2 and told["version"] == 0
                assert cluster.received == before + 1  # the junk and its own message counted nothing
                assert service.remote_seats == {gid: {1}} and service.remote_spectators == {gid: 2}
                # a second process: the union of the seats, the sum of the spectators
                say({"o": "third", "g": gid, "v": 0, "s": [0], "w": 1})
                told = await next_state(player, lambda m: m["spectators"] == 3)
                assert service.remote_seats == {gid: {0, 1}}
                # only the spectators' count changes: the players are told the count
                say({"o": "elsewhere", "g": gid, "v": 0, "s": [1], "w": 0})
                while True:
                    msg = await player.receive()
                    if msg.get("spectators") == 1:
                        break
                assert service.remote_spectators == {gid: 1}
                # the processes leave: nobody there
                say(
                    [
                        {"o": "elsewhere", "g": gid, "v": 0, "s": [], "w": 0},
                        {"o": "third", "g": gid, "v": 0, "s": [], "w": 0},
                    ]
                )
                told = await next_state(player, lambda m: not m["seats"][1]["connected"] and m["spectators"] == 0)
                assert gid not in service.remote_seats and gid not in service.remote_spectators
                assert cluster.received == before + 5
                # a chat message for a game not in memory here is not counted; one for this game is
                say({"o": "elsewhere", "g": "no-such-game", "t": "{}", "a": "all"})
                say({"o": "elsewhere", "g": gid, "s": [1], "w": 0, "v": 0})
                await next_state(player, lambda m: m["seats"][1]["connected"])
                assert cluster.received == before + 6

        asyncio.run(scenario())


def test_a_change_the_other_server_announced_without_its_action_is_read_from_the_database(tmp_path, own_redis):
    with Pair(tmp_path, own_redis.url) as pair:
        a, b = pair.servers
        gid, tokens = pair.game()
        publish = redis.Redis.from_url(own_redis.url)

        async def scenario():
            async with SocketClient(a.ws_url, gid, tokens[0]) as on_a:
                version = pair.act(1, gid, tokens[0], "coins 1")
                seen = await next_state(on_a, lambda m: m["version"] == version)
                assert [e["action"] for e in seen["log"]] == ["coins 1"]
                # an announcement two versions ahead (no action to play along): A reads the database
                live = pair.apps[1].state.service.live[gid]
                publish.publish(CHANNEL, json.dumps({"o": "elsewhere", "g": gid, "v": version + 5, "s": [], "w": 0}))
                await asyncio.sleep(0.5)
                assert pair.apps[0].state.service.live[gid].version == live.version == version

        asyncio.run(scenario())


def test_without_redis_each_server_polls_the_versions_and_its_sockets_see_the_other_s_moves(tmp_path):
    with Pair(tmp_path, None) as pair:
        a, b = pair.servers
        assert pair.cluster(0).poll_seconds == pair.cluster(1).poll_seconds == 1.0
        assert "redis" not in pair.health(0)
        gid, tokens = pair.game()

        async def scenario():
            async with SocketClient(a.ws_url, gid, tokens[0]) as on_a:
                started = time.monotonic()
                version = pair.act(1, gid, tokens[0], "coins 1")
                seen = await next_state(on_a, lambda m: m["version"] == version, timeout=10)
                assert [e["action"] for e in seen["log"]] == ["coins 1"]
                return time.monotonic() - started

        waited = asyncio.run(scenario())
        assert waited < 5
        assert pair.cluster(0).published == pair.cluster(1).received == 0


def test_redis_killed_and_started_again_the_servers_poll_meanwhile_and_fan_out_again(tmp_path, own_redis, caplog):
    with caplog.at_level(logging.WARNING, "builders.server"), Pair(tmp_path, own_redis.url) as pair:
        a, b = pair.servers
        gid, tokens = pair.game()
        assert pair.cluster(0).poll_seconds == 5.0
        assert pair.health(0)["redis"] == "ok" and pair.health(0)["status"] == "ok"

        async def scenario():
            async with SocketClient(a.ws_url, gid, tokens[0]) as on_a:
                own_redis.kill()
                await asyncio.to_thread(wait, lambda: not pair.cluster(0).redis_up and not pair.cluster(1).redis_up)
                health = pair.health(0)
                assert (health["status"], health["redis"], health["detail"]) == (
                    "degraded",
                    "down",
                    "Redis is away: this process serves its own clients and polls the database for the others' changes",
                )
                assert pair.cluster(0).redis_outages == 1
                # a move through B reaches A's socket by A's polling (once a second while Redis is away)
                version = pair.act(1, gid, tokens[0], "coins 1")
                await next_state(on_a, lambda m: m["version"] == version, timeout=10)
                own_redis.resume()
                await asyncio.to_thread(wait, lambda: pair.cluster(0).redis_up and pair.cluster(1).redis_up)
                assert pair.health(0)["status"] == "ok" and pair.health(0)["redis"] == "ok"
                assert pair.cluster(0).redis_outages == 1
                # fanned out again through Redis: at once, not at the next poll (5 s)
                await asyncio.sleep(0.5)
                started = time.monotonic()
                version = pair.act(1, gid, tokens[0], "coins 1")
                await next_state(on_a, lambda m: m["version"] == version, timeout=10)
                return time.monotonic() - started

        waited = asyncio.run(scenario())
        assert waited < 3
    said = [r.getMessage() for r in caplog.records if r.name == "builders.server"]
    assert "the Redis subscription was lost (ConnectionError): polling the database until it is back" in said
    assert said.count("Redis is back: catching up with the database") == 2  # each server once


def test_a_lease_taken_by_another_machine_stops_this_server_acting_until_it_is_back(tmp_path, caplog):
    from builders.server.models import LeaseRow

    app = make_app(tmp_path)
    with caplog.at_level(logging.INFO, "builders.server"), ThreadServer(app) as server:
        cluster = app.state.cluster
        store = app.state.service.store
        health = lambda: httpx.get(server.url + "/healthz", timeout=30).json()  # noqa: E731
        assert app.state.service.acting is True and health()["acting"] is True
        with store.engine.begin() as conn:
            conn.execute(
                update(LeaseRow)
                .where(LeaseRow.name == "machine")
                .values(holder="another-machine:1:0000abcd", expires=time.time() + 3600)
            )
        wait(lambda: not app.state.service.acting, timeout=10)
        assert health()["acting"] is False
        with store.engine.begin() as conn:
            conn.execute(update(LeaseRow).where(LeaseRow.name == "machine").values(expires=0.0))
        wait(lambda: app.state.service.acting, timeout=10)
        assert health()["acting"] is True
        assert cluster.lease.rows.holder("machine") == cluster.lease.holder
    said = [r.getMessage() for r in caplog.records if r.name == "builders.server"]
    assert said.count("this process lost the lease: another one acts for the machine now") == 1
    assert said.count("this process now acts for the machine (bots, clocks)") == 1
    # stopped: the lease given up
    with app.state.service.store.engine.connect() as conn:
        from sqlalchemy import select

        assert conn.execute(select(LeaseRow.expires).where(LeaseRow.name == "machine")).scalar() == 0.0
