"""Kingdom Builder's native core against the Python engine, decision by decision (see diff_kingdom.py).

These tests need the native module (``make native``): without it they fail, they do not skip."""

from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np
import pytest

from builders.ai.factory import make_bot
from builders.core.record import replay, steps
from builders.core.rng import Rng
from builders.kingdom import native
from builders.kingdom.game import KingdomBuilder
from builders.kingdom.state import KingdomState
from tests.kingdom.golden.make_golden import moves_hash
from tests.native.diff_kingdom import (
    Tally,
    play_both,
    random_games,
    random_policy,
    state_difference,
)

if not native.available():
    pytest.fail("the native core is not built: run `make native` (pip install ./native)", pytrace=False)

GOLDEN = sorted((Path(__file__).parents[1] / "kingdom" / "golden").glob("*.json"))
FORMAT1 = json.loads((Path(__file__).parents[1] / "kingdom" / "format1" / "records.json").read_text("utf-8"))


def test_random_games_agree_over_100000_decisions():
    tally = Tally()
    random_games(0, 690, tally, scores_every=3)
    assert tally.disagreements == []
    assert tally.decisions >= 100_000
    assert tally.players_seen == {2, 3, 4}
    assert tally.tiles_used == set(range(8))  # every tile was used
    assert len(tally.cards_seen) == 10  # every scoring card was scored


def test_format_1_games_agree():
    """Games under the rules of record format 1 (the reshuffle waits for the next draw)."""
    tally = Tally()
    game = KingdomBuilder()
    for seed in range(40):
        setup = game.random_setup(2 + seed % 3, 50_000 + seed)
        py = game.state_for_record(setup, 1)
        assert py.legacy
        _play_from(py, random_policy(seed), tally)
    assert tally.disagreements == []
    assert tally.decisions > 5000


def _play_from(py: KingdomState, policy, tally: Tally) -> None:
    nat = native.from_python(py)
    while not py.is_over():
        legal = py.legal_actions()
        assert nat.legal_actions() == legal
        action = policy(py, legal)
        py.apply(action)
        nat.apply(action)
        tally.decisions += 1
        diff = state_difference(py, nat.to_python())
        if diff:
            tally.disagreements.append(diff)
            return
    assert nat.is_over()
    assert nat.to_record() == py.to_record()


@pytest.mark.parametrize("level", ["medium", "easy"])
def test_bot_games_agree(level):
    """The bots' policies (greedy, greedy with noise) choosing on the Python state."""
    tally = Tally()
    game = KingdomBuilder()
    for seed in range(3):
        bot = make_bot("kingdom", level, seed)
        play_both(game.random_setup(2 + seed, 900 + seed), lambda st, legal, bot=bot: bot.act(st), tally)
    assert tally.disagreements == []
    assert tally.decisions > 300


def test_a_bot_plays_the_same_on_the_native_state():
    game = KingdomBuilder()
    py = game.new_state(game.random_setup(3, 77))
    nat = native.from_python(py)
    on_python, on_native = make_bot("kingdom", "medium", 5), make_bot("kingdom", "medium", 5)
    while not py.is_over():
        action = on_python.act(py)
        assert on_native.act(nat) == action
        py.apply(action)
        nat.apply(action)
    assert nat.to_record() == py.to_record()


@pytest.mark.parametrize("path", GOLDEN, ids=[p.stem for p in GOLDEN])
def test_golden_records_replay_on_the_native_core(path, monkeypatch):
    monkeypatch.setenv("BUILDERS_CORE", "native")
    data = json.loads(path.read_text(encoding="utf-8"))
    state = KingdomBuilder().new_state(data["setup"])
    assert type(state) is native.NativeKingdomState
    for i, (action, outcomes) in enumerate(steps(data["history"])):
        moves = sorted(state.action_to_string(a) for a in state.legal_actions())
        assert (i, len(moves), moves_hash(moves)) == (i, data["counts"][i], data["hashes"][i])
        state.forced = list(outcomes)
        state.apply_string(action)
        assert state.forced == []
    assert state.is_over()
    assert state.result().to_json("cards") == data["result"]
    assert state.to_json() == data["final_position"]
    assert state.history_strings() == data["history"]


@pytest.mark.parametrize("case", range(len(FORMAT1)))
def test_format_1_records_replay_on_the_native_core(case, monkeypatch):
    record = FORMAT1[case]["record"]
    monkeypatch.setenv("BUILDERS_CORE", "python")
    expected = replay(record)
    monkeypatch.setenv("BUILDERS_CORE", "native")
    state = replay(record)
    assert type(state) is native.NativeKingdomState and state.record_format == 1
    assert state.to_record() == expected.to_record()
    assert state.to_json() == expected.to_json()


def encoding(codec, state, seat: int, prefix: list[int], mask) -> np.ndarray:
    """The research kit's observation of ``seat`` as one flat uint8 vector, the board planes first."""
    if hasattr(codec, "encode"):
        return codec.encode(state, seat, prefix)
    return np.concatenate(
        [np.asarray(v, dtype=np.uint8).ravel() for v in codec.observe(state, seat, prefix, mask).values()]
    )


def test_observation_arrays_agree():
    """The research kit's observation arrays (every seat, every decision) of both cores."""
    from builders.rl.base import make_codec

    game = KingdomBuilder()
    checked = 0
    for seed in range(3):
        py = game.new_state(game.random_setup(2 + seed, 300 + seed))
        nat = native.from_python(py)
        codec = make_codec("kingdom", py.num_players)
        rnd = random.Random(seed)
        while not py.is_over():
            legal = py.legal_actions()
            mask = codec.mask(legal, [])
            assert np.array_equal(codec.mask(nat.legal_actions(), []), mask)
            for seat in range(py.num_players):
                assert np.array_equal(encoding(codec, nat, seat, [], mask), encoding(codec, py, seat, [], mask))
                assert nat.observation(seat) == py.observation(seat)
            action = legal[rnd.randrange(len(legal))]
            py.apply(action)
            nat.apply(action)
            checked += 1
    assert checked > 300


def test_playouts_inside_the_core_are_the_games_python_plays_with_the_same_picks():
    game = KingdomBuilder()
    for seed in range(12):
        py = game.new_state(game.random_setup(2 + seed % 3, seed))
        nat = native.from_python(py)
        decisions = nat.playout(seed)
        rng = Rng(seed)
        count = 0
        while not py.is_over():
            legal = py.legal_actions()
            py.apply(legal[rng.randbelow(len(legal))])
            count += 1
        assert decisions == count
        assert nat.to_record() == py.to_record()


def test_copies_are_independent():
    game = KingdomBuilder()
    nat = native.from_python(game.new_state(game.random_setup(2, 3)))
    before = nat.to_json()
    other = nat.copy()
    other.playout(1)
    assert other.is_over() and not nat.is_over()
    assert nat.to_json() == before


def test_new_games_made_inside_the_core_are_the_python_setups():
    """random_games starts each game from the full deck shuffled by the seed, as setup.start_state."""
    from builders.kingdom.native import native_board

    game = KingdomBuilder()
    setup = {
        "players": 3,
        "sections": [["oracle", False], ["paddock", False], ["harbor", False], ["farm", False]],
        "cards": ["miners", "fishermen", "workers"],
        "start_player": 0,
        "seed": 12,
    }
    py = game.new_state(setup)
    made = native._native.KBState.new_game(native_board(py.board), 3, [1, 0, 3], 0, 12)
    nat = native.from_python(py)
    assert (made.deck, made.hand, made.rng_state) == (nat.deck, nat.hand, nat.rng_state)
    other = nat.copy()
    other.assign(made)
    assert state_difference(py, other.to_python()) is None
    made_here = native.new_state(setup)
    assert state_difference(py, made_here.to_python()) is None
    assert made_here.setup == py.setup and made_here.cards == py.cards


def test_new_states_on_the_native_core_are_the_python_ones():
    game = KingdomBuilder()
    for seed in range(30):
        setup = game.random_setup(2 + seed % 3, seed)
        if seed % 2:
            del setup["deck"]  # then the deck is shuffled with the seed
        py, nat = game.new_state(setup), native.new_state(setup)
        assert state_difference(py, nat.to_python()) is None
        assert nat.to_record() == py.to_record()
