"""Action notation: canonical strings, tolerant parsing, exact round trips and error messages."""

from __future__ import annotations

import pytest

from builders.core.errors import IllegalAction
from builders.kingdom import KingdomBuilder, KingdomState
from builders.kingdom.notation import END, decode, encode, parse, to_string

FIRST = [["tavern", False], ["paddock", False], ["oasis", False], ["farm", False]]
CARDS = ["fishermen", "merchants", "knights"]


@pytest.mark.parametrize(
    "text",
    [
        "build 3,7",
        "oracle 0,0",
        "farm 19,19",
        "oasis 12,4",
        "tower 0,19",
        "tavern 5,5",
        "barn 3,4>3,5",
        "harbor 10,2>19,0",
        "paddock 7,7>5,8",
        "end",
    ],
)
def test_canonical_round_trip(text):
    """The API's notation: action_to_string(parse(text)) gives back the canonical text."""
    assert to_string(parse(text)) == text


@pytest.mark.parametrize(
    "text, canonical",
    [
        ("  build 3, 7  ", "build 3,7"),
        ("barn 3,4 > 3,5", "barn 3,4>3,5"),
        ("paddock 7, 7 >5, 8", "paddock 7,7>5,8"),
        (" end ", "end"),
    ],
)
def test_spaces_are_accepted(text, canonical):
    """parse_action accepts surrounding spaces and spaces after commas and around '>'."""
    assert to_string(parse(text)) == canonical


def test_encoding_is_small_ints():
    assert parse("build 3,7") == 67
    assert decode(parse("harbor 10,2>19,0")) == (7, 202, 380)
    assert parse("end") == END
    assert encode(2, 67) == parse("farm 3,7")


@pytest.mark.parametrize(
    "text, message",
    [
        (
            "bild 3,4",
            '"bild 3,4" is not an action (expected build, oracle, farm, oasis, tower, tavern, barn, '
            "harbor, paddock or end)",
        ),
        ("build 21,3", "hex 21,3 is off the map"),
        ("build 3,-1", "hex 3,-1 is off the map"),
        ("build 3;4", "'3;4' is not a hex (expected R,C, for example 3,7)"),
        ("build", '"build" needs a hex: build R,C'),
        ("barn 3,4", "\"barn\" moves a settlement: barn R,C>R,C (from > to), not '3,4'"),
        ("farm 3,4>3,5", "\"farm\" builds on one hex: farm R,C, not '3,4>3,5'"),
        ("end 3,4", "\"end\" takes nothing after it, not '3,4'"),
    ],
)
def test_syntax_errors(text, message):
    with pytest.raises(IllegalAction) as e:
        parse(text)
    assert str(e.value) == message


def test_parse_action_checks_legality_and_round_trips_every_legal_action():
    """parse_action parses AND checks legality; every legal action round-trips exactly."""
    state = KingdomState.from_json(
        {
            "sections": FIRST,
            "cards": CARDS,
            "players": [{"settlements": [[3, 4]], "terrain": "grass"}, {"settlements": [], "terrain": "canyon"}],
        }
    )
    for action in state.legal_actions():
        assert state.parse_action(" " + state.action_to_string(action) + " ") == action
    with pytest.raises(IllegalAction) as e:
        state.parse_action("build 0,0")
    assert str(e.value) == "hex 0,0 is not grass (the played terrain)"
    before = state.to_json()
    with pytest.raises(IllegalAction):
        state.apply_string("end")
    assert state.to_json() == before


def test_history_strings_of_a_game():
    state = KingdomBuilder().new_state(KingdomBuilder().random_setup(2, 3))
    state.apply_string(state.action_to_string(state.legal_actions()[0]))
    assert state.history_strings() == [state.action_to_string(state.history[0])]
