"""The typed records of a game's stored JSON (builders.server.records): they write back the shape they
read, and a game row written in an older shape loads and plays on."""

from __future__ import annotations

import time

import httpx
import orjson

from builders.server.clocks import initial
from builders.server.records import Clock
from builders.server.schemas import ClockSpec
from tests.server.conftest import make_app
from tests.server.helpers import ThreadServer
from tests.server.test_clocks import create, play_turn, view


def test_a_clock_is_written_back_in_the_shape_it_was_stored_in():
    new = initial(ClockSpec(kind="live", total=600, increment=5), 2)
    assert list(new) == ["kind", "left", "total", "increment", "per_turn", "bot", "running", "since", "flagged"]
    assert Clock.from_json(new).to_json() == new
    assert orjson.dumps(Clock.from_json(new).to_json()) == orjson.dumps(new)  # the same JSON, byte for byte
    # an older clock (whole seconds, no total, bot nor flagged seats) keeps its numbers and keys, and
    # gains only the list of flagged seats
    old = {"kind": "turn", "per_turn": 30, "left": [30, 12], "running": 1, "since": 100}
    assert Clock.from_json(old).to_json() == {**old, "flagged": []}
    clock = Clock.from_json(old)
    assert (clock.bot, clock.total, clock.flagged) == (None, None, [])
    assert clock.remaining(now=105.0) == [30, 7.0] and clock.left_at(1, now=113.0) == -1.0
    assert clock.remaining(now=113.0) == [30, 0.0]


def test_a_game_row_in_the_old_shape_loads_and_its_clock_runs_on(tmp_path):
    app = make_app(tmp_path)
    with ThreadServer(app) as server, httpx.Client(base_url=server.url, timeout=20) as api:
        gid, tokens = create(api, {"kind": "live", "total": 600, "increment": 0})
        play_turn(api, gid, tokens[0])  # seat 1's clock runs
    # the row as an earlier version wrote it: whole seconds, no total, bot nor flagged seats
    store = app.state.store
    row = store.game(gid)
    since = time.time() - 10.0
    store.update(gid, {"options": {**row["options"], "clock": {"kind": "live", "increment": 0, "left": [600, 590],
                                                                  "running": 1, "since": since}}})
    store.close()
    again = make_app(tmp_path)
    with ThreadServer(again) as server, httpx.Client(base_url=server.url, timeout=20) as api:
        loaded = view(api, gid)["clock"]
        assert {k: loaded[k] for k in ("kind", "increment", "running")} == {"kind": "live", "increment": 0,
                                                                            "running": 1}
        assert loaded["left"][0] == 600
        after = play_turn(api, gid, tokens[1])["clock"]
    # seat 1 was charged its time up to the last checkpoint and its turn; seat 0's clock runs now
    assert after["running"] == 0 and after["flagged"] == [] and after["left"][0] == 600
    assert 570 < after["left"][1] < 590, after
    # stored as the new version writes it, checkpointed when the server stopped (seat 0's time ran)
    stored = again.state.store.game(gid)["options"]["clock"]
    assert list(stored) == ["kind", "left", "increment", "running", "since", "flagged"]
    assert stored["left"][1] == after["left"][1] and stored["running"] == 0 and 590 < stored["left"][0] < 600
