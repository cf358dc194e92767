"""The typed records of a game's stored JSON (builders.server.records): they write back the shape they
read, and a game row written in an older shape loads and plays on."""

from __future__ import annotations

import time

import httpx
import orjson
import pytest

from builders.server.clocks import initial
from builders.server.records import Clock, Options, Seat
from builders.server.schemas import ClockSpec
from tests.server.conftest import make_app
from tests.server.helpers import ThreadServer
from tests.server.test_clocks import create, play_turn, view
from tests.server.test_jobs import wait_for


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
    store.update(
        gid,
        {
            "options": {
                **row["options"],
                "clock": {"kind": "live", "increment": 0, "left": [600, 590], "running": 1, "since": since},
            }
        },
    )
    store.close()
    again = make_app(tmp_path)
    with ThreadServer(again) as server, httpx.Client(base_url=server.url, timeout=20) as api:
        loaded = view(api, gid)["clock"]
        assert {k: loaded[k] for k in ("kind", "increment", "running")} == {
            "kind": "live",
            "increment": 0,
            "running": 1,
        }
        assert loaded["left"][0] == 600
        after = play_turn(api, gid, tokens[1])["clock"]
    # seat 1 was charged its time up to the last checkpoint and its turn; seat 0's clock runs now
    assert after["running"] == 0 and after["flagged"] == [] and after["left"][0] == 600
    assert 570 < after["left"][1] < 590, after
    # stored as the new version writes it, checkpointed when the server stopped (seat 0's time ran)
    stored = again.state.store.game(gid)["options"]["clock"]
    assert list(stored) == ["kind", "left", "increment", "running", "since", "flagged"]
    assert stored["left"][1] == after["left"][1] and stored["running"] == 0 and 590 < stored["left"][0] < 600


# -- seats and options -----------------------------------------------------------------------------


def test_a_seat_is_written_back_with_the_keys_it_was_stored_with_and_those_set_since():
    person = {
        "seat": 0,
        "type": "human",
        "level": None,
        "name": "Ada",
        "open": False,
        "claimed": True,
        "resigned": False,
        "token_sha": "ab12",
        "account": None,
        "invite_sha": None,
    }
    bot = {
        "seat": 1,
        "type": "bot",
        "level": "easy",
        "name": None,
        "open": False,
        "claimed": True,
        "resigned": False,
        "token_sha": None,
    }
    for stored in (person, bot):
        assert orjson.dumps(Seat.from_json(stored).to_json()) == orjson.dumps(stored)  # byte for byte
    assert Seat.from_json(bot).bot and not Seat.from_json(person).bot
    # an older seat: no level, resignation, account nor invitation; a key of a later version kept
    old = {"seat": 2, "type": "human", "name": None, "open": True, "claimed": False, "token_sha": None, "later": [1]}
    seat = Seat.from_json(old)
    assert (seat.seat, seat.open, seat.claimed, seat.account, seat.resigned, seat.extra) == (
        2,
        True,
        False,
        None,
        False,
        {"later": [1]},
    )
    assert seat.to_json() == old and list(seat.to_json()) == list(old)
    seat.claimed, seat.account = True, 7
    assert seat.to_json() == {**old, "claimed": True, "account": 7}
    assert list(seat.to_json()) == [*old, "account"]  # the new key after the stored ones


def test_options_are_written_back_in_their_shape_with_the_clock_as_a_record():
    clock = {"kind": "turn", "left": [30, 12], "per_turn": 30, "running": 1, "since": 100, "flagged": []}
    stored = {
        "creator": 3,
        "private": False,
        "seeded": True,
        "format": 2,
        "rated": True,
        "clock": clock,
        "resigned": [1],
        "ended": {"reason": "resignation", "winners": [0]},
        "events": [{"after": 4}],
    }
    options = Options.from_json(stored)
    assert isinstance(options.clock, Clock) and options.clock.per_turn == 30 and options.clock.running == 1
    assert (options.creator, options.rated, options.hints, options.resigned, options.ended["winners"]) == (
        3,
        True,
        False,
        [1],
        [0],
    )
    assert orjson.dumps(options.to_json()) == orjson.dumps(stored)
    # an older game's options: no record format, no seeding; a key this version does not know
    old = {"creator": None, "private": True, "later": {"x": 1}}
    options = Options.from_json(old)
    assert (options.format, options.seeded, options.clock, options.extra) == (None, False, None, {"later": {"x": 1}})
    assert options.to_json() == old
    options.rematch = "abc123"
    assert list(options.to_json()) == ["creator", "private", "later", "rematch"]  # stored keys first
    assert Options.from_json(None).to_json() == {}


@pytest.mark.parametrize("database", ["sqlite", "postgresql"])
def test_a_game_row_with_seats_and_options_in_older_shapes_loads_is_joined_and_played(tmp_path, request, database):
    url = request.getfixturevalue("pg_url") if database == "postgresql" else None
    app = make_app(tmp_path, url)
    with ThreadServer(app) as server, httpx.Client(base_url=server.url, timeout=20) as api:
        made = api.post(
            "/api/games",
            json={
                "game": "kingdom",
                "seats": [{"type": "human"}, {"type": "human", "open": True}, {"type": "bot", "level": "easy"}],
            },
        )
        assert made.status_code == 201, made.text
        gid, token = made.json()["id"], made.json()["seats"][0]["token"]
    store = app.state.store
    row = store.game(gid)
    # the row as an earlier version wrote it: seats without level, resignation, account nor
    # invitation; options without record format nor seeding
    old_seats = [
        {k: v for k, v in s.items() if k not in ("level", "resigned", "account", "invite_sha")}
        if s["type"] == "human"
        else s
        for s in row["seats"]
    ]
    old_options = {"creator": None, "private": False}
    assert old_seats != row["seats"] and "format" in row["options"]
    store.update(gid, {"seats": old_seats, "options": old_options})
    store.close()

    again = make_app(tmp_path, url)
    with ThreadServer(again) as server, httpx.Client(base_url=server.url, timeout=20) as api:
        shown = api.get(f"/api/games/{gid}").json()
        assert shown["status"] == "open" and [s["type"] for s in shown["seats"]] == ["human", "human", "bot"]
        assert shown["seats"][1]["open"] is True and shown["private"] is False and shown["seeded"] is False
        joined = api.post(f"/api/games/{gid}/join", json={"seat": 1, "name": "Bo"})
        assert joined.status_code == 200, joined.text
        second = joined.json()["token"]
        assert api.get(f"/api/games/{gid}").json()["status"] == "running"
        assert play_turn(api, gid, token)["to_move"] == 1  # seat 0 plays its turn; seat 1 (joined) is next
        assert play_turn(api, gid, second)["seats"][1]["name"] == "Bo"  # seat 1 plays; then the bot
        wait_for(lambda: view(api, gid)["to_move"] == 0, timeout=20)
    stored = again.state.store.game(gid)
    # the seats nobody touched are stored as they were; the claimed one keeps its keys and gains the
    # claim's; the options keep their shape
    assert stored["seats"][0] == old_seats[0] and stored["seats"][2] == old_seats[2]
    assert list(stored["seats"][0]) == list(old_seats[0])
    claimed = stored["seats"][1]
    assert claimed == {**old_seats[1], "name": "Bo", "claimed": True, "token_sha": claimed["token_sha"]}
    assert claimed["token_sha"] and list(claimed) == list(old_seats[1])
    assert stored["options"] == old_options
