"""A new game at reset made on the environment's core directly, and the thin step of the wrapper: the
same games, states and records as before, and PettingZoo's checks kept."""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest
from pettingzoo.utils.env_logger import EnvLogger

import builders.rl as rl
from builders.kingdom import native as kb_native
from builders.kingdom import setup as kb_setup
from builders.kingdom.board import Board, get_board
from builders.kingdom.data import SECTION_NAMES
from builders.kingdom.state import KingdomState
from builders.middle_ages import native as ma_native
from builders.middle_ages.state import MiddleAgesState
from builders.rl.base import make_codec


def test_a_random_setup_is_normalized_as_drawn() -> None:
    # the environments hand random setups to the engines without checking them again
    for seed in range(400):
        setup = kb_setup.random_setup(2 + seed % 3, seed * 7919 + 1)
        assert kb_setup.normalize_setup(setup) == setup


def kinds_of(board: Board) -> list[int]:
    kinds = [-1] * 400
    for h, kind in board.loc_kind.items():
        kinds[h] = kind
    return kinds


def test_board_lists_are_the_boards_terrain_and_location_kinds_for_every_section_in_every_slot() -> None:
    seen = set()
    for names in itertools.permutations(SECTION_NAMES, 4):
        for turns in ((False,) * 4, (True,) * 4):
            sections = tuple(zip(names, turns))
            if all(((s, slot) in seen) for slot, s in enumerate(sections)):
                continue
            seen.update((s, slot) for slot, s in enumerate(sections))
            board = Board(sections)
            assert kb_native.board_lists(sections) == (board.terrain, kinds_of(board))
    assert len(seen) == 8 * 2 * 4


def same_kingdom_state(a, b) -> None:
    assert a.to_record() == b.to_record()
    assert a.to_json() == b.to_json()
    assert a.legal_actions() == b.legal_actions()
    assert a.rng_state == b.rng_state


def test_kingdom_states_made_on_the_core_are_those_of_the_python_engine_converted() -> None:
    codec = make_codec("kingdom", 3)
    setups = [
        None,
        "random",
        "first",
        {
            "sections": [["tavern", True], ["oasis", False], ["barn", True], ["farm", False]],
            "cards": ["fishermen", "lords", "hermits"],
        },
    ]
    for setup, seed in itertools.product(setups, (0, 5, 123456)):
        made = codec.new_state(setup, seed, "native")
        python = codec.new_state(setup, seed, "python")
        assert type(made) is kb_native.NativeKingdomState and type(python) is KingdomState
        expected = kb_native.from_python(python)
        same_kingdom_state(made, expected)
        assert made.board is get_board(python.board.sections)  # the Python board, made when asked for
        assert made.cards == python.cards
        rnd = random.Random(seed)
        while not made.is_over():  # the same game from there on
            action = rnd.choice(made.legal_actions())
            made.apply(action)
            expected.apply(action)
        same_kingdom_state(made, expected)
        assert made.result() == expected.result()


def test_middle_ages_states_made_on_either_core_are_the_same_game() -> None:
    codec = make_codec("middle-ages", 2)
    for seed in (0, 9, 77):
        made = codec.new_state(None, seed, "native")
        python = codec.new_state(None, seed, "python")
        assert type(made) is ma_native.NativeMiddleAgesState and type(python) is MiddleAgesState
        assert made.to_record() == python.to_record() and made.legal_actions() == python.legal_actions()
        assert made.to_json() == python.to_json()


@pytest.mark.parametrize("game", ["kingdom", "middle-ages"])
def test_the_same_seed_gives_the_same_games_on_both_cores(game: str) -> None:
    records = {}
    for core in ("native", "python"):
        env = rl.env(game, 2, core=core)
        out = []
        for g in range(3):
            env.reset(seed=40 + g)
            rnd = random.Random(g)
            for _ in range(30):
                obs = env.last()[0]
                env.step(int(rnd.choice(np.flatnonzero(obs["action_mask"]))))
            out.append(env.unwrapped.game_state.to_record())
        records[core] = out
    assert records["native"] == records["python"]


def test_agent_iter_before_reset_is_pettingzoos_error() -> None:
    env = rl.env("kingdom", 2)
    with pytest.raises(AssertionError, match=r"^reset\(\) needs to be called before agent_iter\(\)\.$"):
        env.agent_iter()


def test_agent_iter_needs_a_step_between_agents() -> None:
    env = rl.env("kingdom", 2)
    env.reset(seed=1)
    it = iter(env.agent_iter())
    assert next(it) == "player_0"
    with pytest.raises(AssertionError, match=r"^need to call step\(\) or reset\(\) in a loop over `agent_iter`$"):
        next(it)
    env.step(int(np.flatnonzero(env.last()[0]["action_mask"])[0]))
    assert next(it) == env.unwrapped.agent_selection
    limited = iter(env.agent_iter(max_iter=1))
    env.step(int(np.flatnonzero(env.last()[0]["action_mask"])[0]))
    next(limited)
    env.step(int(np.flatnonzero(env.last()[0]["action_mask"])[0]))
    with pytest.raises(StopIteration):
        next(limited)


def test_a_step_after_the_game_is_done_warns_as_pettingzoo_does() -> None:
    env = rl.env("kingdom", 2)
    env.reset(seed=3)
    rnd = random.Random(3)
    steps = 0
    for agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        env.step(int(rnd.choice(np.flatnonzero(obs["action_mask"]))))
        steps += 1
    assert env.agents == [] and steps > 50
    with pytest.raises(StopIteration):
        next(iter(env.agent_iter()))
    EnvLogger.flush()
    env.step(None)
    assert EnvLogger.mqueue == [
        "[WARNING]: step() called after all agents are terminated or truncated. Should reset() first."
    ]
    assert env.agents == [] and env.unwrapped.game_state.is_over()
