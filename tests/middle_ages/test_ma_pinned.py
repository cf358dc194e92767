"""Small behaviours pinned exactly: the default start player, InvalidSetup for malformed card entries of a
setup, and the cost of a send as the game reports it (issue 10, part 5)."""

import pytest

from builders.core.errors import InvalidSetup
from builders.core.rng import Rng
from builders.middle_ages.cards import APPRENTICES, BUILDING_DECK, IDS, WORKERS
from builders.middle_ages.setup import random_setup
from builders.middle_ages.view import MiddleAgesView
from tests.middle_ages.ma_helpers import GAME, play, position, setup_with


def test_the_default_start_player_is_seat_0():
    """rules.md "Setup": the start player is chosen at setup, by default seat 0."""
    for players in (2, 3, 4):
        for seed in (0, 1, 99, "abc"):
            assert random_setup(players, seed)["start_player"] == 0
            assert GAME.new_state(GAME.random_setup(players, seed)).current_player == 0
    setup = setup_with(players=3)
    del setup["start_player"]
    state = GAME.new_state(setup)
    assert (state.current_player, state.to_json()["start_player"], state.setup["start_player"]) == (0, 0, 0)


def test_a_random_start_player_is_the_last_draw_of_the_seed():
    """rules.md "Setup": optionally the start player is drawn at random from the game's seed: after the
    building deck, the apprentices and the worker deck are shuffled, one draw below the player count."""
    for players, seed in ((2, 1), (3, 7), (4, 5), (4, 12)):
        rng = Rng(seed)
        for cards in ([IDS[i] for i in BUILDING_DECK], [IDS[i] for i in APPRENTICES]):
            rng.shuffle(cards)
        rng.shuffle([None] * (len(WORKERS) - players))  # the worker deck: its size sets the draws
        expected = rng.randbelow(players)
        setup = random_setup(players, seed, random_start=True)
        assert setup["start_player"] == expected
        assert GAME.new_state(setup).current_player == expected
        assert {k: v for k, v in setup.items() if k != "start_player"} == {
            k: v for k, v in random_setup(players, seed).items() if k != "start_player"
        }


@pytest.mark.parametrize("key", ["buildings", "workers", "apprentices"])
@pytest.mark.parametrize(
    "entry,written",
    [
        (5, "5"),
        (None, "None"),
        (["W01"], "['W01']"),
        ({"card": "W01"}, "{'card': 'W01'}"),
        (1.5, "1.5"),
        (True, "True"),
        (10**30, "a number too large"),
        ([[[["W01"]]]], "[[[...]]]"),
        (list(range(9)), "[0, 1, 2, 3, ...]"),
    ],
)
def test_malformed_card_entries_are_invalid_setups(key, entry, written):
    """A setup's card lists hold card ids; anything else is refused with InvalidSetup (never a TypeError),
    the entry written short."""
    good = setup_with()
    bad = dict(good, **{key: [entry] + good[key][1:]})
    with pytest.raises(InvalidSetup) as e:
        GAME.new_state(bad)
    assert type(e.value) is InvalidSetup
    assert str(e.value) == f'{key} must hold card ids (strings like "W07"), not {written}'
    long_id = "W" + "0" * 100
    with pytest.raises(InvalidSetup) as e:
        GAME.new_state(dict(good, **{key: [long_id] + good[key][1:]}))
    assert str(e.value) == f"unknown card id 'W{'0' * 36}'... in {key}"


@pytest.mark.parametrize(
    "value,message",
    [
        ("W01", "buildings must be a list of card ids, not str"),
        ({"B01": 1}, "buildings must be a list of card ids, not dict"),
        (None, "the setup has no 'buildings' list"),
    ],
)
def test_malformed_card_lists_are_invalid_setups(value, message):
    with pytest.raises(InvalidSetup) as e:
        GAME.new_state(dict(setup_with(), buildings=value))
    assert type(e.value) is InvalidSetup and str(e.value) == message


def test_the_reported_cost_of_a_send():
    """rules.md "Send a worker": the worker's cost in coins (0 for a machine); 1 action for the first worker
    sent to a site this turn, 2 for the second, 3 for the third. The game's view reports exactly that."""
    state = position(
        crews=[["W01", "W36", "M1"], []],
        sites=[{"B34": [], "B33": []}, {}],
        completed=[["M1"], []],
        coins=[40, 10],
        actions=6,
        sent={"B33": 2},
    )
    view = MiddleAgesView()
    costs = view.legal_costs(state, state.legal_actions())
    sends = {text: cost for text, cost in costs.items() if text.startswith("send")}
    assert sends == {
        "send W01 B34": {"actions": 1, "coins": 2},
        "send W36 B34": {"actions": 1, "coins": 5},
        "send M1 B34": {"actions": 1, "coins": 0},
        "send W01 B33": {"actions": 3, "coins": 2},
        "send W36 B33": {"actions": 3, "coins": 5},
        "send M1 B33": {"actions": 3, "coins": 0},
    }
    assert costs["coins 3"] == {"actions": 3, "coins": -6} and costs["buy"] == {"actions": -1, "coins": 5}
    play(state, "send W01 B34")
    after = view.legal_costs(state, state.legal_actions())
    assert after["send W36 B34"] == {"actions": 2, "coins": 5} and after["send M1 B33"] == {"actions": 3, "coins": 0}
    assert (state.actions, state.coins[0]) == (5, 38)
