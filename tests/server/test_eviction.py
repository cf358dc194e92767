"""Unused games leave memory and come back when asked for: a game forgotten by the sweep is played on
through HTTP and through a socket; at start only the games that need the process (a bot to move, a
clock running) are loaded, found by a query; a bot to move and a clock running out are attended to in
games that are not in memory."""

from __future__ import annotations

import asyncio
import importlib.util
import time

import httpx

from tests.server.conftest import make_app
from tests.server.test_clocks import first_move
from tests.server.helpers import ROOT, SocketClient, ThreadServer


def _benchmark():
    spec = importlib.util.spec_from_file_location("server_memory", ROOT / "benchmarks" / "server_memory.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def on_loop(app, make):
    """Run the coroutine ``make()`` on the server's event loop (from the test's thread); its result."""
    loop = app.state.service.sweeper.get_loop()
    return asyncio.run_coroutine_threadsafe(make(), loop).result(20)


def forget_all(app) -> list[str]:
    """The sweep, as if every game had been unused for long."""
    service = app.state.service

    async def sweep():
        return service.sweep(now=time.monotonic() + service.keep_idle + 1)

    return on_loop(app, sweep)


def two_people(api) -> tuple[str, list[str]]:
    r = api.post("/api/games", json={"game": "kingdom", "seats": [{"type": "human"}, {"type": "human"}]})
    assert r.status_code == 201
    return r.json()["id"], [s["token"] for s in r.json()["seats"]]


def play(api, gid: str, token: str) -> dict:
    view = api.get(f"/api/games/{gid}/state", headers={"X-Seat-Token": token}).json()
    r = api.post(
        f"/api/games/{gid}/actions",
        json={"action": view["legal"][0], "version": view["version"]},
        headers={"X-Seat-Token": token},
    )
    assert r.status_code == 200, r.text
    return r.json()


def test_a_forgotten_game_is_played_on_through_http_and_a_socket(tmp_path):
    app = make_app(tmp_path)
    service = app.state.service
    with ThreadServer(app) as server, httpx.Client(base_url=server.url, timeout=10) as api:
        gid, tokens = two_people(api)
        first = play(api, gid, tokens[0])
        forget_all(app)
        assert gid not in service.live and service.evicted >= 1
        second = play(api, gid, tokens[0])  # loaded again, from the database
        assert second["version"] == first["version"] + 1 and second["log"][:1] == first["log"][:1]
        assert gid in service.live
        forget_all(app)
        assert gid not in service.live

        async def on_socket() -> dict:
            async with SocketClient(server.ws_url, gid, tokens[0]) as seat0:
                assert seat0.latest["version"] == second["version"]
                forget_all(app)  # a game with a socket open stays
                assert gid in service.live
                await seat0.send({"type": "action", "action": seat0.latest["legal"][0], "version": second["version"]})
                return await seat0.state(second["version"] + 1)

        third = asyncio.run(on_socket())
        assert third["actions"] == second["actions"] + 1
        assert service.store.game(gid)["version"] == third["version"]


def test_start_loads_only_the_games_that_need_it_and_a_bot_plays_after_a_restart(tmp_path):
    bench = _benchmark()
    url = f"sqlite:///{tmp_path / 'games.sqlite3'}"
    stored = bench.store_games(url, 300)
    # a bot to move, stored while no bot could play (its pause is an hour), then the server stops
    slow = make_app(tmp_path, bot_delay=3600)
    with ThreadServer(slow) as server, httpx.Client(base_url=server.url, timeout=10) as api:
        r = api.post(
            "/api/games", json={"game": "kingdom", "seats": [{"type": "bot", "level": "easy"}, {"type": "human"}]}
        )
        waiting = r.json()["id"]
        assert slow.state.service.store.game(waiting)["bot_turn"] is True
    again = make_app(tmp_path)
    with ThreadServer(again) as server, httpx.Client(base_url=server.url, timeout=10) as api:
        service = again.state.service
        # the 300 games of people were not loaded; the game with a bot to move was, and its bot played
        assert not set(stored) & set(service.live)
        deadline = time.monotonic() + 20
        while service.store.game(waiting)["actions"] == 0 and time.monotonic() < deadline:
            time.sleep(0.05)
        row = service.store.game(waiting)
        assert row["actions"] >= 1 and row["to_move"] == 1 and row["bot_turn"] is False
        assert api.get("/healthz").json()["games"] == len(service.live) == 1
        # a stored game answers when asked for, and is held from then on until the sweep
        view = api.get(f"/api/games/{stored[0]}/state").json()
        assert view["id"] == stored[0] and view["actions"] == service.store.game(stored[0])["actions"] >= 2
        assert stored[0] in service.live


def test_a_clock_runs_out_in_a_game_not_in_memory(tmp_path):
    app = make_app(tmp_path, clock_checkpoint=0.2)
    service = app.state.service
    with ThreadServer(app) as server, httpx.Client(base_url=server.url, timeout=10) as api:
        r = api.post(
            "/api/games",
            json={
                "game": "kingdom",
                "seats": [{"type": "human"}, {"type": "human"}],
                "clock": {"kind": "live", "total": 3, "increment": 0, "bot": "easy"},
            },
        )
        gid = r.json()["id"]
        first_move(api, gid, r.json()["seats"][0]["token"])  # the clocks start with the first move
        row = service.store.game(gid)
        assert row["deadline"] is not None and abs(row["deadline"] - (row["options"]["clock"]["since"] + 3)) < 1e-6
        forget_all(app)
        assert gid not in service.live and gid not in app.state.clocks.timers
        deadline = time.monotonic() + 15  # flagged, then the bot plays seat 0's turn through
        while service.store.game(gid)["to_move"] != 1 and time.monotonic() < deadline:
            time.sleep(0.05)
        row = service.store.game(gid)
        assert row["seats"][0]["type"] == "bot" and row["seats"][0]["level"] == "easy"
        assert row["options"]["clock"]["flagged"] == [0]
        # seat 1's clock runs now: its deadline is stored with the change
        clock = row["options"]["clock"]
        assert clock["running"] == 1 and abs(row["deadline"] - (clock["since"] + clock["left"][1])) < 1e-6


def test_a_clock_forgotten_while_it_ran_is_charged_the_time_the_server_was_up(tmp_path):
    first = make_app(tmp_path, clock_checkpoint=0.2)
    with ThreadServer(first) as server, httpx.Client(base_url=server.url, timeout=10) as api:
        r = api.post(
            "/api/games",
            json={
                "game": "kingdom",
                "seats": [{"type": "human"}, {"type": "human"}],
                "clock": {"kind": "turn", "per_turn": 3600, "bot": "easy"},
            },
        )
        gid = r.json()["id"]
        first_move(api, gid, r.json()["seats"][0]["token"])  # the clocks start with the first move
        forget_all(first)
        forgotten = time.time()
        time.sleep(2.0)  # up, with the game not in memory: this time is the player's
    stopped = time.time()
    time.sleep(1.0)  # down: not charged
    again = make_app(tmp_path, clock_checkpoint=0.2)
    with ThreadServer(again):
        assert gid in again.state.service.live  # a clock running: loaded at start
        clock = again.state.service.store.game(gid)["options"]["clock"]
        charged = 3600 - clock["left"][0]
        assert stopped - forgotten - 0.5 <= charged <= stopped - forgotten + 0.5, charged


def test_idle_untimed_games_not_in_memory_are_settled(tmp_path):
    app = make_app(tmp_path)
    service = app.state.service
    with ThreadServer(app) as server, httpx.Client(base_url=server.url, timeout=10) as api:
        gid, tokens = two_people(api)
        play(api, gid, tokens[0])
        to_move = service.store.game(gid)["to_move"]
        forget_all(app)
        assert gid not in service.live
        clocks = app.state.clocks
        done = on_loop(app, lambda: clocks.housekeeping(now=time.time() + clocks.idle + 60))
        assert done == {"expired": [], "settled": [gid]}
        seats = service.store.game(gid)["seats"]
        assert (seats[to_move]["type"], seats[to_move]["level"]) == ("bot", "medium")
        assert seats[1 - to_move]["type"] == "human"
