"""The clocks' parts, each pinned by its exact outcome in the test's process (issue 43: mutation testing
of ``server/clocks.py``): housekeeping keeps a game opened just now and notes a settled seat as a
timeout; a forgotten game's timer stops and the deadline query loads the game again when its clock runs
out within two checkpoints; clocks not started leave the games' timers alone; a server started again
goes on with a running clock without charging the time it was down. Real servers on SQLite."""

from __future__ import annotations

import asyncio
import logging
import time

import httpx

from builders.server.clocks import Clocks, remaining
from builders.server.repos.leases import LeaseRepo
from tests.server.conftest import make_app
from tests.server.helpers import SocketClient, ThreadServer
from tests.server.test_clocks import create, first_move, play_turn, view


def in_loop_of(server) -> asyncio.AbstractEventLoop:
    """The event loop of ``server`` (its clocks' timers live there)."""
    return server.app.state.clocks.ticker.get_loop()


def in_loop(server, coroutine, timeout: float = 30):
    """Run ``coroutine`` on the event loop of ``server``."""
    return asyncio.run_coroutine_threadsafe(coroutine, in_loop_of(server)).result(timeout)


def test_housekeeping_keeps_a_game_opened_now_and_settles_an_idle_seat_as_a_timeout(server, api):
    clocks = server.app.state.clocks
    waiting, _ = create(api, None, seats=[{"type": "human"}, {"type": "human", "open": True}])
    idle, tokens = create(api, None)
    play_turn(api, idle, tokens[0])
    now = in_loop(server, clocks.housekeeping(time.time()))
    assert waiting not in now["expired"] and idle not in now["settled"]
    assert api.get(f"/api/games/{waiting}").status_code == 200
    later = in_loop(server, clocks.housekeeping(time.time() + 400 * 86400))
    assert waiting in later["expired"] and idle in later["settled"]
    events = [(e["kind"], e["seat"], e["bot"]) for e in view(api, idle)["events"]]
    assert events == [("timeout", 1, "medium")]


def test_a_forgotten_game_s_timer_stops_and_its_game_is_loaded_again_when_due(server, api):
    service, clocks = server.app.state.service, server.app.state.clocks
    assert clocks.checkpoint == 5.0
    gid, tokens = create(api, {"kind": "live", "total": 3600})
    first_move(api, gid, tokens[0])  # seat 0's clock runs out an hour from now

    async def forget() -> tuple[bool, bool, bool]:
        timer = clocks.timers[gid]
        service.forget(gid)
        await asyncio.sleep(0)
        return timer.cancelled(), gid in clocks.timers, gid in service.live

    assert in_loop(server, forget()) == (True, False, False)
    # a checkpoint 3,575 s from now does not reach it (due within two checkpoints: 3,585 s); one at
    # 3,595 s does
    assert gid not in in_loop(server, clocks.due(time.time() + 3575))
    assert gid not in service.live
    assert gid in in_loop(server, clocks.due(time.time() + 3595))
    assert gid in service.live and gid in clocks.timers


def test_clocks_not_started_leave_the_games_timers_alone(server, api):
    service = server.app.state.service
    gid, tokens = create(api, {"kind": "live", "total": 600})
    first_move(api, gid, tokens[0])

    async def change() -> dict:
        idle = Clocks(service)
        idle.changed(service.live[gid])
        idle.arm(service.live[gid])
        timers = dict(idle.timers)
        for timer in timers.values():
            timer.cancel()
        return timers

    assert in_loop(server, change()) == {}


def test_a_server_started_again_goes_on_with_a_running_clock_without_charging_its_downtime(tmp_path):
    with ThreadServer(make_app(tmp_path)) as first:
        with httpx.Client(base_url=first.url, timeout=20) as api:
            gid, tokens = create(api, {"kind": "live", "total": 600})
            began = time.time()
            first_move(api, gid, tokens[0])  # seat 0's clock runs
        stopping = time.time()
    # a graceful stop stores the time of its last checkpoint
    assert LeaseRepo(first.app.state.store.engine).expires("clocks") >= stopping
    time.sleep(3.0)  # down: not charged
    with ThreadServer(make_app(tmp_path)) as second:
        with httpx.Client(base_url=second.url, timeout=20) as api:
            clock = view(api, gid)["clock"]
            seen = time.time()
    assert clock["running"] == 0 and clock["left"][1] == 600.0
    charged = 600.0 - remaining(clock, seen)[0]
    assert 0.0 < charged < seen - began - 3.0, (charged, seen - began)


def test_every_checkpoint_saves_the_running_clocks_and_its_time(tmp_path):
    with ThreadServer(make_app(tmp_path, clock_checkpoint=0.2)) as srv:
        with httpx.Client(base_url=srv.url, timeout=20) as api:
            create(api, None)  # untimed, in memory
            create(api, {"kind": "live", "total": 600})  # timed, not started
            gid, tokens = create(api, {"kind": "live", "total": 600})
            first_move(api, gid, tokens[0])
            time.sleep(1.5)
            now = time.time()
            last = LeaseRepo(srv.app.state.store.engine).expires("clocks")
            assert last is not None and now - 3.0 < last <= now
            assert view(api, gid)["clock"]["running"] == 0


def test_a_rated_game_s_clock_running_out_is_a_loss_that_ends_a_game_of_two(server, people):
    ada_name, bo_name = "clockunit_ada", "clockunit_bo"
    ada, _ = people(ada_name), people(bo_name)
    made = ada.post(
        "/api/games",
        json={
            "game": "kingdom",
            "rated": True,
            "clock": {"kind": "live", "total": 1, "bot": "easy"},
            "seats": [{"type": "human"}, {"type": "human", "user": bo_name}],
        },
    )
    assert made.status_code == 201, made.text
    gid = made.json()["id"]
    legal = ada.get(f"/api/games/{gid}/state").json()["legal"]
    assert (
        ada.post(f"/api/games/{gid}/actions", json={"action": next(a for a in legal if a != "end")}).status_code == 200
    )
    deadline = time.monotonic() + 20
    while (summary := ada.get(f"/api/games/{gid}").json())["status"] != "finished":
        assert time.monotonic() < deadline, summary
        time.sleep(0.1)
    assert (summary["seats"][0]["type"], summary["seats"][0]["resigned"]) == ("human", True)
    assert [(e["kind"], e["seat"], e["bot"]) for e in ada.get(f"/api/games/{gid}/state").json()["events"]] == [
        ("timeout", 0, None)
    ]


def test_housekeeping_passes_over_a_waiting_game_with_a_socket_open(server, api):
    clocks = server.app.state.clocks
    watched, tokens = create(api, None, seats=[{"type": "human"}, {"type": "human", "open": True}])
    others = [create(api, None, seats=[{"type": "human"}, {"type": "human", "open": True}])[0] for _ in range(3)]

    async def with_socket() -> dict:
        async with SocketClient(server.ws_url, watched, tokens[0]):
            later = time.time() + 400 * 86400
            return await asyncio.wrap_future(
                asyncio.run_coroutine_threadsafe(clocks.housekeeping(later), in_loop_of(server))
            )

    done = asyncio.run(with_socket())
    assert watched not in done["expired"] and set(others) <= set(done["expired"])
    assert api.get(f"/api/games/{watched}").status_code == 200


def test_a_checkpoint_that_fails_is_logged_and_the_ticker_goes_on(tmp_path, caplog):
    with caplog.at_level(logging.INFO, "builders.server"):
        with ThreadServer(make_app(tmp_path, clock_checkpoint=0.2)) as srv:
            with srv.app.state.store.engine.begin() as conn:
                conn.exec_driver_sql("drop table leases")  # the checkpoints' table is gone
            time.sleep(1.5)
            ticker = srv.app.state.clocks.ticker
            assert not ticker.done()
    failed = [r for r in caplog.records if r.name == "builders.server" and r.getMessage() == "housekeeping failed"]
    assert len(failed) >= 2 and all(r.exc_info for r in failed)
