"""Setups: random from a seed, explicit ones checked (rules.md "Setup")."""

import pytest
from tests.middle_ages.ma_helpers import GAME, setup_with

from builders.core.errors import InvalidSetup
from builders.middle_ages.cards import APPRENTICES, IDS


def test_random_setup_is_explicit_and_seeded():
    """rules.md "Setup": 42 building cards shuffled; one apprentice per player at random, the others
    shuffled with the 36 other workers."""
    a = GAME.random_setup(3, 11)
    assert a == GAME.random_setup(3, 11)
    assert a != GAME.random_setup(3, 12)
    assert a["players"] == 3 and a["start_player"] == 0 and a["seed"] == 11
    assert sorted(a["buildings"]) == sorted([f"B{i:02d}" for i in range(1, 35)] + [f"M{i}" for i in range(1, 9)])
    assert len(a["apprentices"]) == 3 and set(a["apprentices"]) <= {IDS[i] for i in APPRENTICES}
    assert len(a["workers"]) == 39
    assert sorted(a["workers"] + a["apprentices"]) == [f"W{i:02d}" for i in range(1, 43)]


def test_random_setup_first_cards_are_frozen():
    """The same seed gives the same setup on every machine (SplitMix64)."""
    s = GAME.random_setup(2, 1)
    assert (s["buildings"][:5], s["workers"][:5], s["apprentices"]) == (
        ["M4", "B18", "B11", "B01", "B32"],
        ["W19", "W20", "W36", "W12", "W30"],
        ["W06", "W05"],
    )
    assert s == GAME.new_state(s).setup


def test_rows_are_dealt_from_the_top():
    """rules.md "Setup": the top 5 cards of each deck are laid in its row; each player starts with
    10 coins and their apprentice."""
    setup = setup_with(
        buildings=["B31", "M3", "B01", "B02", "B03", "B34"], workers=["W21", "W22", "W23", "W24", "W25", "W40"]
    )
    state = GAME.new_state(setup)
    j = state.to_json()
    assert j["building_row"] == ["B31", "M3", "B01", "B02", "B03"]
    assert j["building_deck"][0] == "B34" and len(j["building_deck"]) == 37
    assert j["worker_row"] == ["W21", "W22", "W23", "W24", "W25"]
    assert j["worker_deck"][0] == "W40" and len(j["worker_deck"]) == 35
    assert [(p["coins"], p["crew"], p["vp"]) for p in j["players"]] == [(10, ["W01"], 0), (10, ["W02"], 0)]
    assert (j["current_player"], j["actions_left"], j["turn"]) == (0, 3, 0)


def test_start_player():
    """rules.md "Setup": the start player is chosen at setup; random_start draws it from the seed."""
    state = GAME.new_state(setup_with(players=3, start_player=2))
    assert state.current_player == 2
    s = GAME.random_setup(4, 5, random_start=True)
    assert s["start_player"] == GAME.random_setup(4, 5, random_start=True)["start_player"]


def _bad(setup, message):
    with pytest.raises(InvalidSetup) as e:
        GAME.new_state(setup)
    assert str(e.value) == message


def test_invalid_setups():
    good = setup_with()
    _bad([], "a setup is a JSON object with keys players, start_player, buildings, workers and apprentices")
    _bad({**good, "players": 5}, "The Builders: Middle Ages is for 2 to 4 players, not 5")
    _bad({**good, "players": 1}, "The Builders: Middle Ages is for 2 to 4 players, not 1")
    _bad({**good, "players": "2"}, "players must be a whole number from 2 to 4, not '2'")
    _bad(
        {**good, "colour": 1},
        "unknown setup key 'colour' (expected players, start_player, buildings, workers, apprentices, seed)",
    )
    _bad({**good, "start_player": 2}, "start_player must be a seat from 0 to 1, not 2")
    _bad({**good, "buildings": ["B99"] + good["buildings"][1:]}, "unknown card id 'B99' in buildings")
    _bad({**good, "buildings": ["B02"] + good["buildings"][1:]}, "B02 appears twice in buildings")
    _bad({**good, "buildings": good["buildings"][1:]}, "buildings must hold all 42 buildings and machines; missing B01")
    _bad(
        {**good, "buildings": ["W09"] + good["buildings"]}, "W09 in buildings is a worker, not a building or a machine"
    )
    _bad({**good, "apprentices": ["W01", "W12"]}, "W12 in apprentices is a labourer, not an apprentice (W01-W06)")
    _bad({**good, "apprentices": ["W01"]}, "apprentices must give one apprentice to each of the 2 seats, not 1")
    _bad({**good, "workers": good["workers"][:-1]}, "workers must hold the 40 workers not dealt to a seat; missing W42")
    _bad({**good, "workers": ["W01"] + good["workers"][1:]}, "W01 is both a seat's apprentice and in the worker deck")
    _bad({**good, "workers": ["B01"] + good["workers"]}, "B01 in workers is not a worker")
    _bad({**good, "workers": 3}, "workers must be a list of card ids, not int")
    _bad({k: v for k, v in good.items() if k != "workers"}, "the setup has no 'workers' list")
    _bad({**good, "seed": 1.5}, "seed must be an integer or a string, not 1.5")


def test_random_setup_checks_players():
    with pytest.raises(InvalidSetup, match="^The Builders: Middle Ages is for 2 to 4 players, not 5$"):
        GAME.random_setup(5, 1)
