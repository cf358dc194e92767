"""Setups (rules.md, "Components and setup"): validation, the first game, random setups, initial
draws."""

from __future__ import annotations

import pytest

from builders.core.errors import InvalidSetup
from builders.core.games import get_game
from builders.kingdom import KingdomBuilder, KingdomState
from builders.kingdom.data import CARDS, SECTION_NAMES, TERRAINS

GAME = KingdomBuilder()
FIRST = [["tavern", False], ["paddock", False], ["oasis", False], ["farm", False]]


def setup(**kw):
    s = {"players": 2, "sections": FIRST, "cards": ["fishermen", "merchants", "knights"]}
    s.update(kw)
    return s


def test_registry_and_class_attributes():
    game = get_game("kingdom")
    assert isinstance(game, KingdomBuilder)
    assert (game.name, game.title, game.min_players, game.max_players) == ("kingdom", "Kingdom Builder", 2, 4)


def test_first_game_setup():
    """boards.md, "The recommended first game"; seed 000 p. 8."""
    assert GAME.first_game_setup(3) == {
        "players": 3,
        "sections": FIRST,
        "cards": ["fishermen", "merchants", "knights"],
        "start_player": 0,
        "seed": 0,
    }


def test_random_setup_is_explicit_and_reproducible():
    """rules.md, setup: 4 distinct sections, random slots and orientations, 3 random cards; the
    same seed gives the same game."""
    a = GAME.random_setup(4, 12345)
    assert a == GAME.random_setup(4, 12345)
    assert a != GAME.random_setup(4, 12346)
    assert a["players"] == 4 and a["start_player"] == 0 and a["seed"] == 12345
    names = [n for n, _ in a["sections"]]
    assert len(set(names)) == 4 and set(names) <= set(SECTION_NAMES)
    assert all(isinstance(t, bool) for _, t in a["sections"])
    assert len(set(a["cards"])) == 3 and set(a["cards"]) <= set(CARDS)
    assert sorted(a["deck"]) == sorted(TERRAINS * 5)
    seen_turned = {t for s in range(30) for _, t in GAME.random_setup(2, s)["sections"]}
    assert seen_turned == {True, False}


def test_initial_draws_from_the_deck_in_seat_order_from_the_start_player():
    """rules.md, setup: each player draws 1 card; the deck is given top first."""
    deck = ["grass", "canyon", "desert", "flower", "forest"] * 5
    state = GAME.new_state(setup(players=3, start_player=1, deck=deck))
    pos = state.to_json()
    assert [p["terrain"] for p in pos["players"]] == ["desert", "grass", "canyon"]
    assert pos["deck"] == deck[3:]
    assert state.current_player == 1
    assert state.history == []
    assert [p["supply"] for p in pos["players"]] == [40, 40, 40]
    assert pos["tiles_left"][0] == {"at": [2, 18], "count": 2}


def test_setup_without_deck_shuffles_from_the_seed():
    a = GAME.new_state(setup(seed=7)).to_json()
    b = GAME.new_state(setup(seed=7)).to_json()
    c = GAME.new_state(setup(seed=8)).to_json()
    assert a == b and a["deck"] != c["deck"]
    assert GAME.new_state(setup(seed=7)).setup == setup(seed=7, start_player=0)


@pytest.mark.parametrize(
    "bad, message",
    [
        (dict(players=5), "Kingdom Builder is for 2 to 4 players, not 5"),
        (dict(players=1), "Kingdom Builder is for 2 to 4 players, not 1"),
        (dict(players="2"), "players must be a whole number from 2 to 4, not '2'"),
        (dict(sections=FIRST[:3]), "the map needs 4 sections, not 3"),
        (
            dict(sections=[["x", False]] + FIRST[1:]),
            "unknown section name 'x' in slot 0 (the sections are oracle, farm, oasis, tower, tavern, barn, "
            "harbor, paddock)",
        ),
        (dict(sections=[["farm", True]] + FIRST[1:]), "duplicate section 'farm': the map needs 4 different sections"),
        (dict(sections=[["tavern", "yes"]] + FIRST[1:]), "section 0 (tavern): turned must be true or false, not 'yes'"),
        (
            dict(cards=["fishermen", "merchants", "knights", "lords", "farmers"]),
            "a game uses 3 Kingdom Builder cards, not 5",
        ),
        (
            dict(cards=["fishermen", "merchants", "kings"]),
            "unknown card 'kings' (the cards are fishermen, miners, merchants, workers, discoverers, knights, "
            "hermits, lords, citizens, farmers)",
        ),
        (dict(cards=["lords", "lords", "knights"]), "duplicate card 'lords': the game uses 3 different cards"),
        (
            dict(deck=["grass"] * 6 + ["canyon"] * 4 + ["desert", "flower", "forest"] * 5),
            "the deck has 6 grass, not 5 (25 cards: 5 of each terrain)",
        ),
        (dict(deck=["grass"] * 5), "the deck has 0 canyon, not 5 (25 cards: 5 of each terrain)"),
        (
            dict(deck=["gras"] * 25),
            "unknown terrain 'gras' in the deck (the terrains are grass, canyon, desert, flower, forest)",
        ),
        (dict(start_player=2), "start_player must be a seat from 0 to 1, not 2"),
        (dict(seed=1.5), "the seed must be an integer, not 1.5"),
        (
            dict(colour="red"),
            "unknown setup key 'colour' (the keys are players, sections, cards, start_player, deck, seed)",
        ),
    ],
)
def test_invalid_setups(bad, message):
    with pytest.raises(InvalidSetup) as e:
        GAME.new_state(setup(**bad))
    assert str(e.value) == message


def test_missing_keys():
    with pytest.raises(InvalidSetup) as e:
        GAME.new_state({"players": 2, "sections": FIRST})
    assert str(e.value) == "the setup has no 'cards'"
    with pytest.raises(InvalidSetup) as e:
        GAME.random_setup(6, 1)
    assert str(e.value) == "Kingdom Builder is for 2 to 4 players, not 6"


def test_from_json_is_a_kingdom_state():
    state = KingdomState.from_json(
        {
            "sections": FIRST,
            "cards": ["lords", "hermits", "miners"],
            "players": [{"settlements": []}, {"settlements": []}],
        }
    )
    assert state.num_players == 2 and state.cards == ("lords", "hermits", "miners")
