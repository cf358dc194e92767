"""Batched stepping of Kingdom Builder games inside the native core (KingdomBatch) against the Python
engine played through the research kit's index encoding: the same masks, games, rewards and board
planes at every step."""

from __future__ import annotations

import numpy as np
import pytest

from builders.kingdom import native
from builders.kingdom.bench import workload_setup
from builders.kingdom.game import KingdomBuilder
from tests.native.test_kingdom_diff import encoding

if not native.available():
    pytest.fail("the native core is not built: run `make native` (pip install ./native)", pytrace=False)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_batched_steps_are_the_python_games(players):
    from builders.rl.base import make_codec
    from builders.rl.kingdom import index_to_action

    size, seed = 5, 40 * players
    batch = native.KingdomBatch(size, players, seed=seed, pick_seed=players)
    codec = make_codec("kingdom", players)
    game = KingdomBuilder()
    next_seed = seed + size
    states = [game.new_state(workload_setup(players, seed + i)) for i in range(size)]
    prefixes: list[list[int]] = [[] for _ in range(size)]
    ended = 0
    for step in range(1500):
        planes = batch.observe()
        for i, st in enumerate(states):
            mask = codec.mask(st.legal_actions(), prefixes[i])
            assert np.array_equal(batch.masks[i], mask), (step, i)
            if step % 7 == 0:
                flat = encoding(codec, st, st.current_player, prefixes[i], mask)
                assert np.array_equal(planes[i].ravel(), flat[: planes[i].size]), (step, i)
        actions = batch.sample().copy()
        _, rewards, dones, to_move = batch.step(actions)
        for i in range(size):
            prefixes[i].append(int(actions[i]))
            expected = np.zeros(players, dtype=np.float32)
            if not codec.needs_more(prefixes[i]):
                states[i].apply(index_to_action(prefixes[i]))
                prefixes[i] = []
                if states[i].is_over():
                    expected[:] = states[i].result().returns()
                    states[i] = game.new_state(workload_setup(players, next_seed))
                    next_seed += 1
                    ended += 1
            assert np.array_equal(rewards[i], expected)
            assert dones[i] == expected.any()
            assert to_move[i] == states[i].current_player
    assert ended >= 5
    state, prefix = batch.state(0)
    assert state.to_json() == states[0].to_json() and prefix == prefixes[0]


def test_a_masked_out_index_is_refused_and_nothing_is_played():
    batch = native.KingdomBatch(3, 2, seed=1)
    before = [batch.state(i)[0].to_json() for i in range(3)]
    actions = batch.sample().copy()
    bad = int(np.flatnonzero(batch.masks[1] == 0)[0])
    actions[1] = bad
    with pytest.raises(ValueError, match=f"^game 1: index {bad} is not allowed by its mask$"):
        batch.step(actions)
    assert [batch.state(i)[0].to_json() for i in range(3)] == before
    actions[1] = 409
    with pytest.raises(ValueError, match="^game 1: index 409 is not allowed by its mask$"):
        batch.step(actions)
    with pytest.raises(ValueError, match="^step: one entry per game$"):
        batch.step(actions[:2])


def test_random_steps_inside_the_core_end_games():
    batch = native.KingdomBatch(4, 2, seed=3)
    assert batch.run_random(2000) >= 4
    assert batch.masks.sum(axis=1).min() >= 1
