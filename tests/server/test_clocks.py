"""Clocks, with short times (seconds): the server charges the seat to move, adds the increment, starts
turn-based clocks afresh each turn, hands a seat whose clock ran out to the bot chosen at creation,
and keeps each clock across a restart without charging the time it was down."""

from __future__ import annotations

import time

import httpx
import pytest

from builders.server.clocks import remaining
from tests.server.helpers import ProcessServer


def create(api, clock, seats=None, game="kingdom"):
    r = api.post(
        "/api/games", json={"game": game, "seats": seats or [{"type": "human"}, {"type": "human"}], "clock": clock}
    )
    assert r.status_code == 201, r.text
    data = r.json()
    return data["id"], {s["seat"]: s.get("token") for s in data["seats"]}


def view(api, gid, token=None):
    return api.get(f"/api/games/{gid}/state", headers={"X-Seat-Token": token} if token else {}).json()


def first_move(api, gid, token):
    """The first action of the game (not the end of the turn): the clocks start with it."""
    v = view(api, gid, token)
    action = next(a for a in v["legal"] if a != "end")
    r = api.post(f"/api/games/{gid}/actions", json={"action": action}, headers={"X-Seat-Token": token})
    assert r.status_code == 200, r.text
    return r.json()


def play_turn(api, gid, token):
    """Seat of ``token`` plays its whole turn (first legal actions, then end)."""
    v = view(api, gid, token)
    seat = v["seat"]
    while v["to_move"] == seat and v["status"] != "finished":
        action = "end" if "end" in v["legal"] else v["legal"][0]
        r = api.post(f"/api/games/{gid}/actions", json={"action": action}, headers={"X-Seat-Token": token})
        assert r.status_code == 200, r.text
        v = r.json()
    return v


@pytest.mark.parametrize(
    "clock, words",
    [
        ({"kind": "live"}, "total time"),
        ({"kind": "live", "total": 60, "per_turn": 60}, "total time"),
        ({"kind": "turn", "total": 60}, "time per turn only"),
        ({"kind": "turn", "per_turn": 60, "increment": 5}, "time per turn only"),
    ],
)
def test_bad_clocks_are_refused(server, api, clock, words):
    store = server.app.state.store
    before = store.counts()
    r = api.post(
        "/api/games", json={"game": "kingdom", "seats": [{"type": "human"}, {"type": "human"}], "clock": clock}
    )
    assert r.status_code == 400 and words in r.json()["detail"], r.text
    assert store.counts() == before


def test_a_live_clock_charges_the_mover_and_adds_the_increment(server, api):
    gid, tokens = create(api, {"kind": "live", "total": 60, "increment": 5})
    start = view(api, gid)["clock"]
    # nobody's time runs before the first move of the game (as on lichess)
    assert start["kind"] == "live" and start["running"] is None and start["left"] == [60.0, 60.0]
    time.sleep(0.5)
    first = first_move(api, gid, tokens[0])["clock"]
    assert first["running"] == 0 and first["left"] == [60.0, 60.0]
    time.sleep(1.0)
    after = play_turn(api, gid, tokens[0])["clock"]
    assert after["running"] == 1
    # seat 0 spent about a second, then got 5 back
    assert 62.5 < after["left"][0] < 64.0, after
    assert after["left"][1] == 60.0
    left = remaining(after)
    assert left[1] <= 60.0 and left[0] == after["left"][0]


def test_a_turn_based_clock_starts_each_turn_afresh(server, api):
    gid, tokens = create(api, {"kind": "turn", "per_turn": 3600})
    time.sleep(0.5)
    clock = play_turn(api, gid, tokens[0])["clock"]
    assert clock["left"][1] == 3600.0 and clock["running"] == 1
    assert 3590 < clock["left"][0] < 3600
    clock = play_turn(api, gid, tokens[1])["clock"]
    assert clock["running"] == 0 and clock["left"][0] == 3600.0


def test_a_clock_that_runs_out_hands_the_seat_to_the_chosen_bot(server, api):
    gid, tokens = create(
        api, {"kind": "live", "total": 1, "bot": "easy"}, seats=[{"type": "human"}, {"type": "bot", "level": "hard"}]
    )
    first_move(api, gid, tokens[0])
    deadline = time.monotonic() + 20
    while True:
        summary = api.get(f"/api/games/{gid}").json()
        if summary["seats"][0]["type"] == "bot":
            break
        assert time.monotonic() < deadline, "the clock never ran out"
        time.sleep(0.1)
    assert summary["seats"][0]["level"] == "easy" and not summary["seats"][0]["resigned"]
    v = view(api, gid, tokens[0])
    assert v["clock"]["flagged"] == [0] and v["clock"]["left"][0] == 0.0
    # the seat's player can no longer act; the bots play on
    r = api.post(f"/api/games/{gid}/actions", json={"action": "end"}, headers={"X-Seat-Token": tokens[0]})
    assert r.status_code in (403, 409), r.text
    while api.get(f"/api/games/{gid}").json()["status"] != "finished":
        assert time.monotonic() < deadline + 60, "the bots did not finish the game"
        time.sleep(0.2)


def test_untimed_games_have_no_clock(server, api):
    gid, _ = create(api, None)
    assert view(api, gid)["clock"] is None


def test_a_restart_keeps_each_clock_without_charging_the_downtime(tmp_path):
    db = f"sqlite:///{tmp_path / 'games.sqlite3'}"
    first = ProcessServer(db).start()
    try:
        with httpx.Client(base_url=first.url, timeout=20) as api:
            gid, tokens = create(api, {"kind": "live", "total": 600, "increment": 0})
            time.sleep(1.0)
            play_turn(api, gid, tokens[0])  # seat 0 spent about a second; seat 1's clock runs
            time.sleep(1.0)
            before = view(api, gid)["clock"]
            before_left = remaining(before)
    finally:
        first.stop()  # a graceful stop checkpoints the clocks
    stopped = time.time()
    time.sleep(6.0)  # the server is down: this is not charged
    second = ProcessServer(db, port=first.port).start()
    try:
        with httpx.Client(base_url=second.url, timeout=20) as api:
            after = view(api, gid)["clock"]
            restarted = time.time()
            left = remaining(after)
    finally:
        second.stop()
    assert after["running"] == 1
    assert abs(left[0] - before_left[0]) < 0.01  # seat 0 is not running: untouched
    charged = before_left[1] - left[1]
    down = restarted - stopped
    assert down > 6.0
    # seat 1 is charged for the time the server was up (a second or two; a few on a loaded machine), never for
    # the 6 s it was down
    assert 0 <= charged < 5.0, (charged, down)


def test_housekeeping_deletes_abandoned_games_and_settles_idle_ones(server, api):
    clocks = server.app.state.clocks
    waiting, _ = create(api, None, seats=[{"type": "human"}, {"type": "human", "open": True}])
    idle, tokens = create(api, None)
    play_turn(api, idle, tokens[0])
    timed, _ = create(api, {"kind": "turn", "per_turn": 3600})
    import asyncio

    store = server.app.state.store
    api.post("/api/session/guest")  # a session that ends within a year
    with store.engine.connect() as conn:
        sessions = conn.exec_driver_sql("select count(*) from sessions").scalar_one()
    assert sessions >= 1
    later = time.time() + 400 * 86400
    done = asyncio.run_coroutine_threadsafe(clocks.housekeeping(later), clocks.ticker.get_loop()).result(20)
    assert waiting in done["expired"] and idle not in done["expired"]
    assert api.get(f"/api/games/{waiting}").status_code == 404
    assert server.app.state.store.game(waiting) is None
    # the untimed game waited 400 days for seat 1: a bot plays it now; the timed one is its clock's
    assert idle in done["settled"] and timed not in done["settled"]
    summary = api.get(f"/api/games/{idle}").json()
    assert summary["seats"][1]["type"] == "bot" and summary["seats"][0]["type"] == "human"
    with store.engine.connect() as conn:
        assert conn.exec_driver_sql("select count(*) from sessions").scalar_one() == 0


def test_a_clock_is_stored_with_the_move_and_a_stale_copy_cannot_overwrite_it(tmp_path):
    """Two server instances on one database. Seat 0 plays its turn through B: the clock (seat 0
    charged, seat 1's running) is stored in the same transaction as the move. A, the instance that
    checkpoints the clocks, still holds the copy from before the move: its checkpoint is refused by
    the version check instead of putting seat 0's clock back, and both instances then show the
    same clock as the database."""
    from tests.server.conftest import make_app
    from tests.server.helpers import ThreadServer

    import asyncio

    with (
        ThreadServer(make_app(tmp_path, clock_checkpoint=0.2)) as a,
        ThreadServer(make_app(tmp_path, clock_checkpoint=0.2)) as b,
    ):
        assert a.app.state.service.acting  # A checkpoints the clocks (in one test process B may too)
        with httpx.Client(base_url=a.url, timeout=20) as on_a, httpx.Client(base_url=b.url, timeout=20) as on_b:
            gid, tokens = create(on_a, {"kind": "live", "total": 600, "increment": 10})
            assert view(on_a, gid)["clock"]["running"] is None
            assert first_move(on_a, gid, tokens[0])["clock"]["running"] == 0
            time.sleep(0.5)
            moved = play_turn(on_b, gid, tokens[0])
            assert moved["to_move"] == 1 and moved["clock"]["running"] == 1
            # A checkpoints at once, from its copy of before the move (unless it was just refreshed)
            loop = a.app.state.clocks.ticker.get_loop()

            async def checkpoint() -> None:
                a.app.state.clocks.save_all()

            asyncio.run_coroutine_threadsafe(checkpoint(), loop).result(10)
            store = a.app.state.store
            for _ in range(10):  # and again with its ticker, every 0.2 s, while it catches up
                assert store.game(gid)["options"]["clock"]["running"] == 1
                time.sleep(0.2)
            stored = store.game(gid)["options"]["clock"]
            # seat 0 spent its half second (and more, under load), then got the 10 s increment;
            # seat 1's clock has run since the move (checkpoints move its start, not its time left)
            assert stored["running"] == 1 and stored["left"][0] == moved["clock"]["left"][0]
            assert 600.0 < stored["left"][0] < 609.6, stored
            assert 590.0 < remaining(stored)[1] < 600.0 - 1.9, stored
            deadline = time.monotonic() + 10
            while view(on_a, gid)["version"] != moved["version"]:
                assert time.monotonic() < deadline, "A never caught up"
                time.sleep(0.1)
            for api in (on_a, on_b):
                clock = view(api, gid)["clock"]
                assert clock["running"] == 1 and clock["left"][0] == stored["left"][0], clock
                assert abs(remaining(clock)[1] - remaining(stored)[1]) < 1.0, (clock, stored)


def test_clocks_start_when_every_seat_is_taken_and_the_first_move_is_made(server, api):
    """Issue: a live clock started before the friend had even joined (4:56 left on arrival). The clocks
    wait for every seat to be taken and for the first move of the game, as on lichess."""
    gid, tokens = create(
        api, {"kind": "live", "total": 300, "increment": 0}, seats=[{"type": "human"}, {"type": "human", "open": True}]
    )
    time.sleep(0.5)
    first_move(api, gid, tokens[0])  # the first move while the friend is on the way: no clock yet
    time.sleep(0.5)
    clock = view(api, gid)["clock"]
    assert clock["running"] is None and clock["left"] == [300.0, 300.0]
    joined = api.post(f"/api/games/{gid}/join", json={"seat": 1, "name": "Friend"})
    assert joined.status_code == 200, joined.text
    clock = view(api, gid)["clock"]
    # every seat taken, a move made: the clock of the seat to move (seat 0, still in its turn) runs
    assert clock["running"] == 0 and clock["left"] == [300.0, 300.0]
    time.sleep(0.5)
    assert 299.0 < remaining(clock)[0] < 299.7


def _spec(**kw):
    from builders.server.schemas import ClockSpec

    return ClockSpec.model_validate(kw)


def test_a_new_clock_is_exactly_its_spec_with_each_seat_s_time(monkeypatch):
    from builders.server import clocks
    from builders.server.games import ApiError

    monkeypatch.setattr(clocks.time, "time", lambda: 1000.0)
    assert clocks.initial(None, 2) is None
    assert clocks.initial(_spec(kind="live", total=300, increment=5, bot="easy"), 3) == {
        "kind": "live",
        "total": 300,
        "increment": 5,
        "per_turn": None,
        "bot": "easy",
        "left": [300.0, 300.0, 300.0],
        "running": None,
        "since": 1000.0,
        "flagged": [],
    }
    assert clocks.initial(_spec(kind="turn", per_turn=86400), 2) == {
        "kind": "turn",
        "total": None,
        "increment": 0,
        "per_turn": 86400,
        "bot": "medium",
        "left": [86400.0, 86400.0],
        "running": None,
        "since": 1000.0,
        "flagged": [],
    }
    live = "a live clock has a total time (and an increment), not a time per turn"
    turn = "a turn-based clock has a time per turn only"
    for spec, words in [
        (_spec(kind="live"), live),
        (_spec(kind="live", total=60, per_turn=60), live),
        (_spec(kind="turn"), turn),
        (_spec(kind="turn", per_turn=60, total=60), turn),
        (_spec(kind="turn", per_turn=60, increment=1), turn),
    ]:
        with pytest.raises(ApiError) as e:
            clocks.initial(spec, 2)
        assert (e.value.status, e.value.detail) == (400, words)


def test_the_time_left_counts_down_only_for_the_running_seat_and_never_below_zero():
    clock = {"left": [10.0, 20.0], "running": 1, "since": 100.0}
    assert remaining(clock, 105.0) == [10.0, 15.0]
    assert remaining(clock, 130.0) == [10.0, 0.0]
    assert remaining({**clock, "running": 0}, 104.0) == [6.0, 20.0]
    assert remaining({**clock, "running": None}, 500.0) == [10.0, 20.0]
    assert clock["left"] == [10.0, 20.0]  # the stored clock is not changed
    now = time.time()
    assert remaining({"left": [10.0], "running": 0, "since": now - 4.0}) == [pytest.approx(6.0, abs=0.5)]


def test_clocks_start_with_every_seat_taken_and_a_move_made_not_a_card_drawn():
    from types import SimpleNamespace

    from builders.core.state import Chance
    from builders.server.clocks import started
    from builders.server.records import seats_from_json

    seats = seats_from_json([{"type": "human", "claimed": True}, {"type": "bot"}])
    dealt = SimpleNamespace(history=[Chance("grass")])
    moved = SimpleNamespace(history=[Chance("grass"), "settle 1,1"])
    assert started(moved, seats) is True
    assert started(dealt, seats) is False
    assert started(SimpleNamespace(history=[]), seats) is False
    assert (
        started(moved, seats_from_json([{"type": "human", "claimed": True}, {"type": "human", "claimed": False}]))
        is False
    )


def _game(clock, to_move=1, over=False, seats=None, options=None):
    """A game's options, state and seats, as records (builders.server.records), from their JSON."""
    from types import SimpleNamespace

    from builders.server.records import Options, seats_from_json

    seats = seats_from_json(seats or [{"type": "human", "claimed": True}, {"type": "human", "claimed": True}])
    state = SimpleNamespace(is_over=lambda: over, current_player=to_move, history=["a move"])
    return SimpleNamespace(options=Options.from_json({"clock": clock, **(options or {})})), state, seats


def advance(*args, now):
    """The stored clock after ``Clocks.advance`` (None: nothing to store)."""
    from builders.server.clocks import Clocks

    moved = Clocks.advance(*args, now=now)
    return None if moved is None else moved.to_json()


def test_advancing_a_live_clock_charges_the_mover_and_gives_the_increment():
    clock = {"kind": "live", "increment": 5, "left": [60.0, 60.0], "running": 0, "since": 100.0, "flagged": []}
    live, state, seats = _game(clock)
    assert advance(live, state, seats, now=110.0) == {
        "kind": "live",
        "increment": 5,
        "left": [55.0, 60.0],
        "running": 1,
        "since": 110.0,
        "flagged": [],
    }
    assert clock["left"] == [60.0, 60.0] and clock["running"] == 0  # the game's own clock is not touched
    # more than the time left: charged down to 0, then the increment
    assert advance(live, state, seats, now=200.0)["left"] == [5.0, 60.0]
    # its time ran out (flagged): 0, no increment
    flagged = {**clock, "flagged": [0]}
    assert advance(_game(flagged)[0], state, seats, now=101.0)["left"] == [0.0, 60.0]
    # no increment given: none added
    plain = {k: v for k, v in clock.items() if k != "increment"}
    assert advance(_game(plain)[0], state, seats, now=110.0)["left"] == [50.0, 60.0]
    # the same seat still to move: nothing to store
    assert advance(live, _game(clock, to_move=0)[1], seats, now=110.0) is None
    assert advance(_game(None)[0], state, seats, now=110.0) is None


def test_advancing_a_turn_clock_gives_the_next_seat_a_whole_turn_and_stops_when_nobody_plays():
    clock = {"kind": "turn", "per_turn": 30, "increment": 0, "left": [30.0, 12.0], "running": 0, "since": 100.0}
    live, state, seats = _game(clock)
    assert advance(live, state, seats, now=110.0) == {
        "kind": "turn",
        "per_turn": 30,
        "increment": 0,
        "left": [20.0, 30.0],
        "running": 1,
        "since": 110.0,
        "flagged": [],
    }
    stopped = {"left": [20.0, 12.0], "running": None, "since": 110.0, "flagged": []}
    for case in [
        _game(clock, over=True),
        _game(clock, options={"ended": {"reason": "aborted"}}),
        _game(clock, seats=[{"type": "human", "claimed": True}, {"type": "bot"}]),
        _game(clock, seats=[{"type": "human", "claimed": True}, {"type": "human", "claimed": False}]),
    ]:
        moved = advance(*case, now=110.0)
        assert {k: moved[k] for k in stopped} == stopped
    # nothing runs and nobody is to play: nothing to store
    idle = {**clock, "running": None}
    assert advance(*_game(idle, over=True), now=110.0) is None
    assert advance(*_game(idle), now=110.0)["left"] == [30.0, 30.0]
