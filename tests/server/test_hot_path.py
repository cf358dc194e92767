"""The server's hot path: an action on SQLite is committed on the event loop when the database
takes it at once, and in a thread (waiting) when another connection holds the write lock; each
seat's view is made once per version and is the view the game's rules give that seat; a recorded
step replays through the one core function."""

from __future__ import annotations

import asyncio
import shutil
import sqlite3
import threading
import time

import pytest

from builders.core.errors import IllegalAction
from builders.core.games import get_game
from builders.core.record import UnusedChance, apply_recorded
from builders.core.view import get_view
from builders.server import store as store_module
from builders.server.bots import BotRunner
from builders.server.games import GameService
from builders.server.schemas import CreateGame
from builders.server.store import Busy, Store, StoredStep


class Socket:
    def __init__(self, seat):
        self.seat = seat
        self.lang = "en"
        self.sent: list[str] = []

    def send(self, text):
        self.sent.append(text)


@pytest.fixture
def service(tmp_path):
    store = Store(f"sqlite:///{tmp_path / 'games.sqlite3'}")
    service = GameService(store, BotRunner("inline"), bot_delay=0)
    yield service
    store.close()


def new_game(service, game="middle-ages"):
    created = service.create(
        CreateGame.model_validate({"game": game, "seats": [{"type": "human"}] * 2, "setup": {"seed": 3}})
    )
    return service.live[created["id"]], [s["token"] for s in created["seats"]]


def test_an_action_waits_for_a_write_lock_held_elsewhere_then_is_committed(service, tmp_path):
    live, tokens = new_game(service)
    other = sqlite3.connect(tmp_path / "games.sqlite3", isolation_level=None)
    other.execute("BEGIN IMMEDIATE")  # another process's write: the lock is held

    async def main():
        task = asyncio.ensure_future(service.act(live.id, tokens[0], "coins 1", 0))
        await asyncio.sleep(0.3)
        assert not task.done() and live.version == 0  # waiting in a thread: nothing told, nothing changed
        other.execute("ROLLBACK")
        await asyncio.wait_for(task, 10)

    asyncio.run(main())
    other.close()
    assert live.version == 1 and [s.action for s in service.store.steps(live.id)] == ["coins 1"]
    assert service.store.stats["append"] == 1


def test_a_write_that_may_not_wait_is_refused_untried_while_the_lock_is_held(service, tmp_path):
    live, _ = new_game(service)
    summary = {"status": "running", "version": 1, "actions": 1, "turn": 0, "to_move": 0, "result": None}
    other = sqlite3.connect(tmp_path / "games.sqlite3", isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    started = time.monotonic()
    with pytest.raises(Busy):
        service.store.append(live.id, 0, StoredStep(0, "coins 1", [], False), summary, 0, wait=False)
    assert time.monotonic() - started < 1.0  # no busy wait on the event loop
    other.execute("ROLLBACK")
    other.close()
    assert service.store.steps(live.id) == [] and service.store.version(live.id) == 0
    service.store.append(live.id, 0, StoredStep(0, "coins 1", [], False), summary, 0, wait=False)
    assert [s.action for s in service.store.steps(live.id)] == ["coins 1"] and service.store.version(live.id) == 1


def test_appends_on_the_loop_are_checkpointed_by_a_thread(service, tmp_path, monkeypatch):
    monkeypatch.setattr(store_module, "CHECKPOINT_EVERY", 5)
    live, tokens = new_game(service)
    started = threading.active_count()

    async def main():
        for k in range(5):
            seat = live.state.current_player
            await service.act_as(live, seat, service.view(live, seat)["legal"][0], live.version)

    asyncio.run(main())
    checkpoint = service.store._checkpointing
    if checkpoint is not None:
        checkpoint.join(10)
    assert service.store._checkpointing is None and service.store._unchecked == 0
    assert threading.active_count() <= started
    # the database file itself holds the actions now: a copy of it without its log (WAL) has them
    shutil.copyfile(tmp_path / "games.sqlite3", tmp_path / "alone.sqlite3")
    plain = sqlite3.connect(tmp_path / "alone.sqlite3")
    assert plain.execute("SELECT count(*) FROM actions WHERE game_id = ?", (live.id,)).fetchone()[0] == 5
    plain.close()


@pytest.mark.parametrize("game", ["kingdom", "middle-ages"])
def test_each_seat_s_view_is_made_once_per_version_and_is_the_rules_view(service, game):
    live, _ = new_game(service, game)
    sockets = [Socket(0), Socket(0), Socket(1), Socket(None), Socket(None)]
    for s in sockets:
        service.add_client(live, s)

    async def main():
        for _ in range(6):
            seat = live.state.current_player
            await service.act_as(live, seat, service.view(live, seat)["legal"][0], live.version)

    asyncio.run(main())
    last = [s.sent[-1] for s in sockets]
    assert last[0] is last[1] and last[3] is last[4]  # one text per seat and version, for every socket
    assert len({id(t) for t in last}) == 3
    presenter = get_view(live.game)
    for seat in (0, 1, None):
        assert service.view(live, seat)["view"] == presenter.observe(live.state, seat)
    assert service.view(live, None)["view"] == live.state.observation(None)


def test_a_spectator_s_observation_holds_only_the_card_of_the_player_to_move():
    view = get_view("kingdom")
    state = get_game("kingdom").new_state(view.setup(3, 11))
    mover = state.current_player
    public = state.observation(None)
    assert [p["terrain"] is not None for p in public["players"]] == [q == mover for q in range(3)]
    assert "deck" not in public and public["deck_count"] == len(state.deck)
    for seat in range(3):
        mine = view.seat_view(state, seat, public)
        assert mine == state.observation(seat)
        assert [p["terrain"] is not None for p in mine["players"]] == [q in (mover, seat) for q in range(3)]
    assert [p["terrain"] is not None for p in public["players"]] == [q == mover for q in range(3)]  # unchanged
    with pytest.raises(ValueError, match="seat must be from 0 to 2"):
        view.seat_view(state, 3, public)


def test_a_recorded_step_replays_with_its_draws_or_says_which_draw_did_not_happen():
    view = get_view("middle-ages")
    state = get_game("middle-ages").new_state(view.setup(2, 5))
    played = state.copy()
    action = played.parse_action("coins 1")
    n = len(played.history)
    played.apply(action)
    drawn = [str(c) for c in played.history[n + 1 :]]
    again = state.copy()
    apply_recorded(again, again.parse_action("coins 1"), drawn)
    assert again.to_json() == played.to_json() and again.forced == []
    extra = state.copy()
    with pytest.raises(UnusedChance) as caught:
        apply_recorded(extra, extra.parse_action("coins 1"), [*drawn, "not drawn"])
    assert caught.value.first == len(drawn) and str(caught.value) == "the action made no such draw"
    assert extra.forced == []
    refused = state.copy()
    with pytest.raises(IllegalAction):
        apply_recorded(refused, 10**6, [])
    assert refused.forced == [] and refused.to_json() == state.to_json()
