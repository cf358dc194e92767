"""Pig through the registry and the core: setups, refusals, records that replay."""

from __future__ import annotations

import pytest

from builders.core.agents import RandomAgent, play
from builders.core.errors import IllegalAction, InvalidSetup, RecordError
from builders.core.games import game_names, get_game
from builders.core.plugins import GamePlugin, plugin, register
from builders.core.record import replay
from builders.core.view import get_view
from tests.thirdgame.game import PigState
from tests.thirdgame.view import PigView


def test_pig_is_a_registered_game_beside_the_two():
    assert game_names()[-1] == "pig" and {"kingdom", "middle-ages"} <= set(game_names())
    assert type(get_game("pig")).__name__ == "Pig" and isinstance(get_view("pig"), PigView)
    assert plugin("pig").title == "Pig"


def test_a_name_taken_is_refused_and_an_unknown_game_named():
    with pytest.raises(ValueError) as e:
        register(GamePlugin(name="pig", title="Other", game="x:Y", view="x:V"))
    assert str(e.value) == "a game named 'pig' is registered already"
    with pytest.raises(RecordError) as e:
        get_game("chess")
    assert str(e.value) == "unknown game 'chess'; the games are kingdom, middle-ages, pig"


def test_a_random_game_ends_and_its_record_replays_exactly():
    state = get_game("pig").new_state({"players": 3, "target": 15, "seed": 4})
    play(state, [RandomAgent(s) for s in range(3)])
    assert state.is_over() and max(state.banked) >= 15
    again = replay(state.to_record())
    assert again.to_json() == state.to_json() and again.history == state.history


@pytest.mark.parametrize(
    "setup, message",
    [
        ({"players": 1}, "Pig has 2 to 4 players, not 1"),
        ({"players": 2, "target": 5}, "the target of Pig is 10 to 50 points, not 5"),
        ({"players": 2, "seed": 1.5}, "the seed must be a number or a text, not 1.5"),
    ],
)
def test_bad_setups_are_refused(setup, message):
    with pytest.raises(InvalidSetup) as e:
        PigState(setup)
    assert str(e.value) == message


def test_a_turn_starts_with_a_roll_and_a_one_loses_the_pot():
    state = PigState({"players": 2, "seed": 1})
    with pytest.raises(IllegalAction) as e:
        state.apply_string("hold")
    assert str(e.value) == "a turn starts with a roll"
    state.forced = ["5", "1"]
    state.apply_string("roll")
    assert (state.pot, state.to_move, state.legal_actions()) == (5, 0, [0, 1])
    state.apply_string("roll")
    assert (state.pot, state.to_move, state.banked) == (0, 1, [0, 0])
