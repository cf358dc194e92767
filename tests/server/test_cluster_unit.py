"""The cluster's less travelled paths, in this test process (issue 43: mutation testing of
``server/cluster.py``): the fan-out counters absent from /metrics without Redis, an announced action
played from the message alone, the bots of games in memory when the lease comes back, a process not
heard of for a minute forgotten, the presence told again every 20 s, and which holders of the lease
count as dead processes of this machine.

The clock is moved on by ageing what the cluster remembers (when another process was heard of, when
this one last told its presence) rather than by waiting; the polling runs every 0.2 s here.
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import time

import httpx
import redis
from sqlalchemy import update

from builders.server.cluster import CHANNEL, PRESENCE_SECONDS, Lease
from builders.server.store import Store
from tests.server.conftest import make_app
from tests.server.helpers import SocketClient, ThreadServer
from tests.server.test_cluster_fanout import Pair, next_state
from tests.server.test_jobs import wait_for as wait


def fast_polling(app, seconds: float = 0.2):
    """``app`` with its cluster polling every ``seconds`` (set before the server starts)."""
    app.state.cluster.poll_seconds = seconds
    return app


def new_game(url: str, seats: list[dict], game: str = "middle-ages") -> tuple[str, list[str | None]]:
    r = httpx.post(url + "/api/games", json={"game": game, "seats": seats}, timeout=30)
    assert r.status_code == 201, r.text
    return r.json()["id"], [s.get("token") for s in r.json()["seats"]]


def test_without_redis_the_metrics_have_no_fan_out_counters(tmp_path, redis_server):
    alone, fanned = tmp_path / "alone", tmp_path / "fanned"
    alone.mkdir()
    fanned.mkdir()
    with ThreadServer(make_app(alone)) as server:
        r = httpx.get(server.url + "/metrics", timeout=30)
        assert r.status_code == 200
        assert "builders_accepted_actions_total 0.0" in r.text
        assert "builders_fanout" not in r.text
    with ThreadServer(make_app(fanned, redis_url=redis_server.url)) as server:
        text = httpx.get(server.url + "/metrics", timeout=30).text
        assert "builders_fanout_published_total 0.0" in text
        assert "builders_fanout_received_total 0.0" in text


def test_an_action_announced_with_the_change_is_played_from_the_message_without_reading_the_database(
    tmp_path, redis_server
):
    with Pair(tmp_path, redis_server.url) as pair:
        a = pair.servers[0]
        gid, tokens = pair.game()
        publish = redis.Redis.from_url(redis_server.url)
        live = pair.apps[0].state.service.live[gid]

        async def scenario():
            async with SocketClient(a.ws_url, gid, tokens[1]) as on_a:
                # an action the database does not hold: a copy that read the database would stay at 0
                publish.publish(
                    CHANNEL,
                    json.dumps({"o": "elsewhere", "g": gid, "v": 1, "s": [], "w": 0, "n": 1,
                                "a": [0, "coins 1", [], False, None]}),
                )  # fmt: skip
                seen = await next_state(on_a, lambda m: m["version"] == 1)
                assert [(e["seat"], e["action"]) for e in seen["log"]] == [(0, "coins 1")]
                await asyncio.sleep(0.3)  # (no reading of the database comes after and undoes it)
                assert live.version == 1 and [(s.seat, s.action, s.by_bot) for s in live.steps] == [
                    (0, "coins 1", False)
                ]
                assert pair.apps[0].state.service.store.version(gid) == 0

        asyncio.run(scenario())


def test_a_game_in_memory_whose_bot_is_to_move_plays_when_the_lease_comes_back(tmp_path):
    from builders.server.models import LeaseRow

    app = make_app(tmp_path)
    with ThreadServer(app) as server:
        service = app.state.service
        with service.store.engine.begin() as conn:
            conn.execute(
                update(LeaseRow)
                .where(LeaseRow.name == "machine")
                .values(holder="another-machine:1:0000abcd", expires=time.time() + 3600)
            )
        wait(lambda: not service.acting, timeout=10)
        gid, _ = new_game(server.url, [{"type": "bot"}, {"type": "human"}])
        time.sleep(1.0)
        assert service.live[gid].version == 0  # not acting: its bot waits
        with service.store.engine.begin() as conn:
            conn.execute(update(LeaseRow).where(LeaseRow.name == "machine").values(expires=0.0))
        wait(lambda: service.acting, timeout=10)
        wait(lambda: service.live[gid].version >= 1, timeout=10)
        assert service.live[gid].steps[0].by_bot is True and service.live[gid].steps[0].seat == 0
        assert service.store.version(gid) == service.live[gid].version


def test_a_process_not_heard_of_for_a_minute_is_forgotten_and_the_players_here_are_told(tmp_path, redis_server):
    app = fast_polling(make_app(tmp_path, redis_url=redis_server.url))
    with ThreadServer(app) as server:
        gid, tokens = new_game(server.url, [{"type": "human"}] * 2)
        service, cluster = app.state.service, app.state.cluster
        publish = redis.Redis.from_url(redis_server.url)

        async def scenario():
            async with SocketClient(server.ws_url, gid, tokens[0]) as player:
                publish.publish(CHANNEL, json.dumps({"o": "gone", "g": gid, "v": 0, "s": [1], "w": 2}))
                publish.publish(CHANNEL, json.dumps({"o": "quiet", "g": gid, "v": 0, "s": [], "w": 1}))
                await next_state(player, lambda m: m["seats"][1]["connected"] and m["spectators"] == 3)
                # "gone" last heard of 61 s ago, "quiet" 50 s ago: only "gone" is forgotten
                seen = cluster.presence[gid]
                seen["quiet"] = (*seen["quiet"][:2], time.time() - 50)
                seen["gone"] = (*seen["gone"][:2], time.time() - 61)
                told = await next_state(player, lambda m: not m["seats"][1]["connected"], timeout=5)
                assert told["spectators"] == 1
                assert list(cluster.presence[gid]) == ["quiet"]
                assert gid not in service.remote_seats and service.remote_spectators == {gid: 1}
                # and "quiet" too, once past the minute: the game's presence is dropped
                seen["quiet"] = (*seen["quiet"][:2], time.time() - 61)
                await next_state(player, lambda m: m["spectators"] == 0, timeout=5)
                assert gid not in cluster.presence and gid not in service.remote_spectators

        asyncio.run(scenario())


def test_the_seats_and_spectators_here_are_told_again_every_20_seconds(tmp_path, redis_server):
    app = fast_polling(make_app(tmp_path, redis_url=redis_server.url))
    with ThreadServer(app) as server:
        watched, tokens = new_game(server.url, [{"type": "human"}] * 2)
        nobody, _ = new_game(server.url, [{"type": "human"}] * 2)  # in memory, no client here
        cluster = app.state.cluster
        listener = redis.Redis.from_url(redis_server.url).pubsub(ignore_subscribe_messages=True)
        listener.subscribe(CHANNEL)

        def heard(seconds: float) -> list[dict]:
            out, deadline = [], time.monotonic() + seconds
            while time.monotonic() < deadline:
                msg = listener.get_message(timeout=0.05)
                if msg is not None:
                    out.append(json.loads(msg["data"]))
            return out

        async def scenario():
            async with SocketClient(server.ws_url, watched, tokens[1]) as _, SocketClient(server.ws_url, watched, None):
                await asyncio.to_thread(wait, lambda: cluster.sent.get(watched) == (0, ((1,), 1)))
                assert await asyncio.to_thread(heard, 1.0) != []  # the connections themselves, told at once
                assert await asyncio.to_thread(heard, 1.0) == []  # told less than 20 s ago: nothing more
                cluster.announced = time.time() - PRESENCE_SECONDS - 1
                return await asyncio.to_thread(heard, 1.5)

        told = asyncio.run(scenario())
        assert told == [{"o": cluster.origin, "g": watched, "v": 0, "s": [1], "w": 1, "n": 0}]
        assert nobody in app.state.service.live
        assert time.time() - cluster.announced < 10


def stat_state(pid: int) -> str:
    """The state letter of process ``pid`` (R, S, Z, ...), its name skipped whatever it holds."""
    with open(f"/proc/{pid}/stat") as f:
        return f.read().rsplit(")", 1)[1].split()[0]


NAMED = "import sys; open('/proc/self/comm', 'w').write(sys.argv[1]); print('named', flush=True); sys.stdin.read()"


def test_a_holder_is_a_dead_process_of_this_machine_only_when_its_process_is_gone_or_a_zombie(tmp_path):
    lease = Lease(Store(f"sqlite:///{tmp_path / 'lease.sqlite3'}"))
    here = lease.host
    # a living process whose name makes its /proc line read like a zombie's is alive
    proc = subprocess.Popen(
        [sys.executable, "-c", NAMED, "x) Z ("], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    try:
        assert proc.stdout.readline() == "named\n"
        assert stat_state(proc.pid) in ("R", "S")
        assert lease._dead_here(f"{here}:{proc.pid}:0000abcd") is False
        # ended, not yet reaped: a zombie, dead (its name holds ")" too)
        proc.stdin.close()
        wait(lambda: stat_state(proc.pid) == "Z", timeout=20)
        assert lease._dead_here(f"{here}:{proc.pid}:0000abcd") is True
    finally:
        proc.wait(timeout=20)
    assert lease._dead_here(f"{here}:{proc.pid}:0000abcd") is True  # reaped: gone
    # this very process (an earlier server of it) is dead; other machines and malformed holders are not judged
    assert lease._dead_here(f"{here}:{os.getpid()}:0000abcd") is True
    assert lease._dead_here(f"another-machine:{proc.pid}:0000abcd") is False
    assert lease._dead_here(f"{here}:not-a-pid:0000abcd") is False
    assert lease._dead_here(f"{here}:{proc.pid}") is False
    assert lease._dead_here(f"{here}:1:0000abcd") is False  # init: alive and not ours to signal


# -- the survivors of the second sample (seed 12) ------------------------------------------------------
def test_the_lease_is_renewed_on_a_thread_of_its_own_named_for_it(tmp_path):
    import threading

    app = make_app(tmp_path)
    with ThreadServer(app):
        wait(lambda: app.state.service.acting, timeout=10)
        # (threads of other servers of this test process may be named so too: ask the lease's own)
        named = app.state.cluster.lease_thread.submit(lambda: threading.current_thread().name).result(timeout=10)
        assert named == "lease_0"


def test_while_redis_is_away_the_versions_are_polled_every_second_not_at_the_usual_pace(tmp_path):
    from tests.server.services import Redis

    own = Redis(tmp_path / "redis").start()
    try:
        with Pair(tmp_path, own.url) as pair:
            a = pair.servers[0]
            pair.cluster(0).poll_seconds = 8.0  # with Redis up; while it is away, once a second
            gid, tokens = pair.game()

            async def scenario():
                async with SocketClient(a.ws_url, gid, tokens[1]) as on_a:
                    own.kill()
                    await asyncio.to_thread(wait, lambda: not pair.cluster(0).redis_up, timeout=20)
                    version = pair.act(1, gid, tokens[0], "coins 1")
                    await next_state(on_a, lambda m: m["version"] == version, timeout=20)  # A has just polled
                    started = time.monotonic()
                    version = pair.act(1, gid, tokens[0], "coins 1")
                    await next_state(on_a, lambda m: m["version"] == version, timeout=20)
                    return time.monotonic() - started

            waited = asyncio.run(scenario())
            assert waited < 4.0, waited  # the next poll, a second on (8 s at the usual pace)
    finally:
        own.stop()


def test_changes_waiting_together_are_published_as_one_message_holding_a_list(tmp_path, redis_server):
    app = make_app(tmp_path, redis_url=redis_server.url)
    with ThreadServer(app) as server:
        gid, _ = new_game(server.url, [{"type": "human"}] * 2)
        cluster, live = app.state.cluster, app.state.service.live[gid]
        listener = redis.Redis.from_url(redis_server.url).pubsub(ignore_subscribe_messages=True)
        listener.subscribe(CHANNEL)
        before = cluster.published

        def both() -> None:  # on the server's loop, with nothing in between: the outbox holds two
            cluster.event(live, "one", "all")
            cluster.event(live, "two", "players")

        cluster.tasks[0].get_loop().call_soon_threadsafe(both)
        deadline, found = time.monotonic() + 10, None
        while found is None and time.monotonic() < deadline:
            found = listener.get_message(timeout=0.1)
        assert found is not None
        assert json.loads(found["data"]) == [
            {"o": cluster.origin, "g": gid, "t": "one", "a": "all"},
            {"o": cluster.origin, "g": gid, "t": "two", "a": "players"},
        ]
        wait(lambda: cluster.published == before + 2, timeout=10)


def test_seats_connected_here_that_changed_nothing_are_told_with_the_next_change_read_from_elsewhere(
    tmp_path, redis_server
):
    with Pair(tmp_path, redis_server.url) as pair:
        a, b = pair.servers
        gid, tokens = pair.game()  # made through A
        pair.cluster(0).announced = time.time() + 3600  # no telling again every 20 s meanwhile
        remote_on_b = pair.apps[1].state.service.remote_seats

        async def scenario():
            async with SocketClient(a.ws_url, gid, tokens[1]), SocketClient(b.ws_url, gid, tokens[0]):
                await asyncio.to_thread(wait, lambda: remote_on_b.get(gid) == {1})
                await asyncio.to_thread(wait, lambda: pair.apps[0].state.service.remote_seats == {gid: {0}})
                # seat 0 also through A: the seats present are the same, nothing is published
                async with SocketClient(a.ws_url, gid, tokens[0]):
                    await asyncio.sleep(0.5)
                    assert remote_on_b == {gid: {1}}
                    assert pair.cluster(0).sent[gid] == (0, ((1,), 0))
                    # a change made through B: A brings its copy up to date and tells its seats with it
                    pair.act(1, gid, tokens[0], "coins 1")
                    await asyncio.to_thread(wait, lambda: remote_on_b.get(gid) == {0, 1}, timeout=10)
                    assert pair.cluster(0).sent[gid] == (1, ((0, 1), 0))

        asyncio.run(scenario())
