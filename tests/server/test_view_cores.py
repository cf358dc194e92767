"""The views the server sends are the same on both engines: the native core's observations, scores,
legal actions and their costs (read from the core's own fields) and the whole JSON of every seat's and
the spectators' view after every action, against the Python engine's, over many random games.

These tests need the native module (``make native``): without it they fail, they do not skip."""

from __future__ import annotations

import asyncio
import random

import orjson
import pytest

from builders.core.errors import BuildersError
from builders.core.games import get_game
from builders.core.view import get_view
from builders.kingdom import native as kingdom_native
from builders.middle_ages import native as middle_ages_native
from builders.server.bots import BotRunner
from builders.server.games import GameService
from builders.server.live import dumps, log_in
from builders.server.schemas import CreateGame
from builders.server.store import Store
from tests.server.test_hot_path import Socket

if not (kingdom_native.available() and middle_ages_native.available()):
    pytest.fail("the native core is not built: run `make native` (pip install ./native)", pytrace=False)

NATIVE = {"kingdom": kingdom_native.from_python, "middle-ages": middle_ages_native.from_python}


def refusal(state, text):
    """What parsing ``text`` on ``state`` gives: the action, or the error's class and words."""
    try:
        return state.parse_action(text)
    except BuildersError as e:
        return type(e).__name__, str(e)


@pytest.mark.parametrize("game", ["kingdom", "middle-ages"])
def test_the_native_core_shows_every_position_of_random_games_as_the_python_engine(game, monkeypatch):
    monkeypatch.setenv("BUILDERS_CORE", "python")
    view = get_view(game)
    positions = 0
    for seed in range(20):
        py = get_game(game).new_state(view.setup(2 + seed % 3, seed))
        nat = NATIVE[game](py)
        assert type(nat) is not type(py)
        rnd = random.Random(seed)
        while True:
            public = view.observe(nat, None)
            assert public == view.observe(py, None)
            for seat in range(py.num_players):
                assert view.observe(nat, seat) == view.observe(py, seat)
                assert view.seat_view(nat, seat, public) == view.observe(py, seat)
            assert view.score_parts(nat) == view.score_parts(py)
            assert view.shared(nat, {}) == view.shared(py, {})
            positions += 1
            if py.is_over():
                break
            legal = py.legal_actions()
            assert nat.legal_actions() == legal
            texts = [py.action_to_string(a) for a in legal]
            assert [nat.action_to_string(a) for a in legal] == texts
            assert view.legal_costs(nat, legal) == view.legal_costs(py, legal)
            for text in (rnd.choice(texts), "end", "coins 3", "build 0,0", "open nothing", "x"):
                assert refusal(nat.copy(), text) == refusal(py.copy(), text)
            text = rnd.choice(texts)
            before = len(py.history)
            py.apply(py.parse_action(text))
            nat.apply(nat.parse_action(text))
            chance = [str(c) for c in py.history[before + 1 :]]
            assert [str(c) for c in nat.history[before + 1 :]] == chance
            assert str(view.log_message(nat, text, chance)) == str(view.log_message(py, text, chance))
    assert positions > 1500


@pytest.mark.parametrize("game", ["kingdom", "middle-ages"])
def test_the_server_sends_the_same_views_on_both_cores(game, tmp_path, monkeypatch):
    """Two services, one on each engine, play the same random games: every socket gets the same
    messages (but for the game's id and creation time)."""
    stores, services = [], []
    for core in ("python", "native"):
        store = Store(f"sqlite:///{tmp_path / core}.sqlite3")
        stores.append(store)
        services.append(GameService(store, BotRunner("inline"), bot_delay=0))
    kinds = set()
    for seed in range(4):
        tables = []
        for core, service in zip(("python", "native"), services):
            monkeypatch.setenv("BUILDERS_CORE", core)
            req = {"game": game, "seats": [{"type": "human"}] * (2 + seed % 3), "setup": {"seed": 40 + seed}}
            created = service.create(CreateGame.model_validate(req))
            live = service.live[created["id"]]
            kinds.add(type(live.state).__name__)
            sockets = [Socket(s) for s in range(len(live.seats))] + [Socket(None)]
            for s in sockets:
                service.add_client(live, s)
            tables.append((service, live, sockets))
        monkeypatch.delenv("BUILDERS_CORE")
        rnd = random.Random(seed)

        async def play():
            while not tables[0][1].state.is_over():
                mover = tables[0][1].state.current_player
                text = rnd.choice(tables[0][0].view(tables[0][1], mover)["legal"])
                for service, live, _ in tables:
                    await service.act_as(live, mover, text, live.version)

        asyncio.run(play())
        (_, first, sockets_a), (_, second, sockets_b) = tables
        assert len(first.steps) > 20 and len(sockets_a[0].sent) > len(first.steps)
        for a, b in zip(sockets_a, sockets_b):
            assert len(a.sent) == len(b.sent)
            for x, y in zip(a.sent, b.sent):
                assert x.replace(first.id, "-").replace(repr(first.created), "-") == y.replace(second.id, "-").replace(
                    repr(second.created), "-"
                )
                assert orjson.loads(x)["view"] == orjson.loads(y)["view"]
    assert len(kinds) == 2
    for store in stores:
        store.close()


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_log_s_text_is_kept_and_the_view_is_the_whole_view_encoded(tmp_path, lang):
    """The shared part of the views keeps the log's text from one change to the next: the view's text
    is still the encoding of the whole view, its log in the reader's language, after every action and
    an undo."""
    store = Store(f"sqlite:///{tmp_path / 'games.sqlite3'}")
    service = GameService(store, BotRunner("inline"), bot_delay=0)
    req = {"game": "middle-ages", "seats": [{"type": "human"}] * 2, "setup": {"seed": 8}}
    created = service.create(CreateGame.model_validate(req))
    live = service.live[created["id"]]
    tokens = [s["token"] for s in created["seats"]]
    rnd = random.Random(8)
    undone: list[int] = []

    def whole(seat):
        own = service.views._own(live, seat)
        shared = {**service.views._common(live), "log": log_in(live.log, lang)}
        return dumps(own)[:-1] + "," + dumps(shared)[1:-1] + "}"

    async def play():
        for k in range(40):
            mover = live.state.current_player
            await service.act_as(live, mover, rnd.choice(service.view(live, mover)["legal"]), live.version)
            for seat in (0, 1, None):
                assert service.view_text(live, seat, lang) == whole(seat)
            if k >= 20 and live.undo and not undone:
                await service.undo(live.id, tokens[live.state.current_player])
                assert service.view_text(live, 0, lang) == whole(0)
                undone.append(k)

    asyncio.run(play())
    assert undone  # an undo came between the actions
    assert len(live.log) == len(live.steps) >= 39
    # the log's text is kept with its last line only, and is the log in the reader's language
    assert [lang in line.__dict__.get("joined", {}) for line in live.log] == [False] * (len(live.log) - 1) + [True]
    lines = orjson.loads("[" + live.log[-1].joined[lang] + "]")
    assert lines == [orjson.loads(dumps(e)) for e in log_in(live.log, lang)]
    assert (lines == [orjson.loads(dumps(e)) for e in live.log]) == (lang == "en")
    store.close()
