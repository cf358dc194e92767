"""The lines the clocks write to the server's log (issue 43: mutation testing of ``server/clocks.py``):
a clock that runs out names the game, the seat and the bot that takes over; housekeeping counts what it
deleted and settled; a clock that cannot be stored because the game changed meanwhile says so."""

from __future__ import annotations

import asyncio
import logging
import time

from tests.server.test_clocks import create, first_move, play_turn, view


def said(caplog) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name == "builders.server"]


def test_a_clock_that_runs_out_is_logged_with_its_game_seat_and_bot(server, api, caplog):
    with caplog.at_level(logging.INFO, "builders.server"):
        gid, tokens = create(api, {"kind": "live", "total": 1, "bot": "medium"})
        first_move(api, gid, tokens[0])
        deadline = time.monotonic() + 20
        while api.get(f"/api/games/{gid}").json()["seats"][0]["type"] != "bot":
            assert time.monotonic() < deadline, "the clock never ran out"
            time.sleep(0.05)
    assert f"game {gid}: the clock of seat 0 ran out; a medium bot takes over" in said(caplog)
    assert view(api, gid)["clock"]["flagged"] == [0]


def test_housekeeping_logs_what_it_deleted_and_settled(server, api, caplog):
    clocks = server.app.state.clocks
    waiting, _ = create(api, None, seats=[{"type": "human"}, {"type": "human", "open": True}])
    idle, tokens = create(api, None)
    play_turn(api, idle, tokens[0])
    loop = clocks.ticker.get_loop()
    with caplog.at_level(logging.INFO, "builders.server"):
        done = asyncio.run_coroutine_threadsafe(clocks.housekeeping(time.time() + 400 * 86400), loop).result(30)
        again = asyncio.run_coroutine_threadsafe(clocks.housekeeping(time.time()), loop).result(30)
    expired, settled = len(done["expired"]), len(done["settled"])
    assert waiting in done["expired"] and idle in done["settled"]
    assert again == {"expired": [], "settled": []}
    lines = [m for m in said(caplog) if m.startswith("housekeeping:")]
    # nothing to do the second time: no line
    assert lines == [f"housekeeping: {expired} abandoned games deleted, {settled} idle games settled"]


def test_a_clock_not_stored_because_the_game_changed_meanwhile_is_logged(server, api, caplog):
    clocks = server.app.state.clocks
    service = server.app.state.service
    gid, tokens = create(api, {"kind": "live", "total": 600})
    first_move(api, gid, tokens[0])
    live = service.live[gid]
    stale = type("Stale", (), {"id": gid, "version": live.version - 1, "options": live.options})()
    with caplog.at_level(logging.INFO, "builders.server"):
        clocks._save(stale)
    assert said(caplog) == [f"the clock of game {gid} was not saved: the game changed meanwhile"]
