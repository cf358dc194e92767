"""Bad positions and setups at the engine level: whatever JSON comes in, loading it either works or
raises the project's own error (InvalidPosition, InvalidSetup) with one sentence; never a TypeError,
KeyError, RecursionError or the like. Hypothesis mutates valid positions and setups: wrong types,
missing and extra keys, nesting, huge numbers."""

from __future__ import annotations

import copy
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from builders.core.errors import InvalidPosition, InvalidSetup
from builders.kingdom import KingdomBuilder, KingdomState
from builders.kingdom.render import render_svg, render_terminal_text
from builders.kingdom.setup import new_state
from tests.kingdom.helpers_positions import BENCH_MAP

GAME = KingdomBuilder()


def _mid_game_position(players: int, seed: int, actions: int) -> dict:
    state = GAME.new_state(GAME.random_setup(players, seed))
    rnd = random.Random(seed)
    for _ in range(actions):
        acts = state.legal_actions()
        state.apply(acts[rnd.randrange(len(acts))])
    return state.to_json()


POSITIONS = [
    {
        "sections": BENCH_MAP,
        "cards": ["miners", "fishermen", "workers"],
        "players": [{"settlements": [[1, 7], [6, 10]]}, {"settlements": [[13, 8]]}],
    },
    _mid_game_position(2, 3, 40),
    _mid_game_position(4, 5, 90),
    dict(_mid_game_position(3, 7, 60), format=1),
]
SETUPS = [GAME.first_game_setup(2), GAME.random_setup(3, 11), GAME.random_setup(4, 12)]

json_leaves = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.integers(min_value=10**30, max_value=10**4000),
    st.integers(max_value=-(10**30)),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=8),
    st.sampled_from(["grass", "swamp", "oracle", "ready", "miners", "", "\ud800"]),
)
json_values = st.recursive(
    json_leaves,
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=6), inner, max_size=4)),
    max_leaves=8,
)


def _containers(value):
    """The containers inside ``value`` down to 12 levels: the places a mutation can go."""
    out, todo = [], [(value, 0)]
    while todo:
        box, depth = todo.pop()
        if isinstance(box, (dict, list)) and depth <= 12:
            out.append(box)
            todo.extend((child, depth + 1) for child in (box.values() if isinstance(box, dict) else box))
    return out


def _nest(value, depth: int):
    for _ in range(depth):
        value = [value]
    return value


@st.composite
def mutated(draw, originals):
    doc = copy.deepcopy(draw(st.sampled_from(originals)))
    for _ in range(draw(st.integers(1, 3))):
        box = draw(st.sampled_from(_containers(doc)))
        keys = list(box.keys()) if isinstance(box, dict) else list(range(len(box)))
        how = draw(st.sampled_from(["replace", "delete", "extra", "wrap", "nest", "huge"]))
        if how == "extra":
            if isinstance(box, dict):
                box[draw(st.text(max_size=8))] = draw(json_values)
            else:
                box.append(draw(json_values))
            continue
        if not keys:
            continue
        key = draw(st.sampled_from(keys))
        if how == "replace":
            box[key] = draw(json_values)
        elif how == "delete":
            del box[key]
        elif how == "wrap":
            box[key] = draw(st.sampled_from([[box[key]], {"x": box[key]}]))
        elif how == "nest":
            box[key] = _nest(box[key], draw(st.integers(5, 3000)))
        else:
            box[key] = draw(st.sampled_from([10**100, -(10**100), 2**64, 10**5000, 1e308, -1]))
    return doc


def _one_sentence(error: Exception) -> None:
    text = str(error)
    assert text and "\n" not in text and len(text) < 400, text


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated(POSITIONS))
def test_a_mutated_position_loads_or_is_refused_with_invalid_position(position):
    try:
        state = KingdomState.from_json(position)
    except InvalidPosition as e:
        _one_sentence(e)
        return
    # what loads is a working state
    state.legal_actions()
    assert KingdomState.from_json(state.to_json()).to_json() == state.to_json()


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated(SETUPS))
def test_a_mutated_setup_starts_a_game_or_is_refused_with_invalid_setup(setup):
    try:
        state = new_state(setup)
    except InvalidSetup as e:
        _one_sentence(e)
        return
    state.legal_actions()


BAD_POSITIONS = [
    (
        "terrain card is a list",
        ("players", 0, "terrain"),
        ["grass"],
        "seat 0: unknown terrain ['grass'] (the terrains are grass, canyon, desert, flower, forest)",
    ),
    (
        "list inside the deck",
        ("deck", 0),
        ["grass"],
        "deck[0]: unknown terrain ['grass'] (the terrains are grass, canyon, desert, flower, forest)",
    ),
    (
        "dict inside the discard pile",
        ("discard",),
        [{"card": "grass"}],
        "discard[0]: unknown terrain {'card': 'grass'} (the terrains are grass, canyon, desert, flower, forest)",
    ),
    (
        "list inside removed",
        ("removed",),
        [[["forest"]]],
        "removed[0]: unknown terrain [['forest']] (the terrains are grass, canyon, desert, flower, forest)",
    ),
    (
        "huge hex",
        ("players", 1, "settlements", 0),
        [10**5000, 3],
        "seat 1: settlement: hex a number too large,3 is off the map",
    ),
    (
        "deep nesting",
        ("players", 0, "settlements"),
        _nest([1, 1], 100_000),
        "seat 0: settlement must be a [R, C] pair, not [[[...]]]",
    ),
    (
        "tile with an unknown key",
        ("players", 0, "tiles"),
        [{"from": [1, 7], "colour": "red"}],
        "seat 0: tile 0: unknown key 'colour' (the keys are kind, from, state)",
    ),
    (
        "tile kind is a list",
        ("players", 0, "tiles"),
        [{"from": [6, 1], "kind": ["oracle"]}],
        "seat 0: tile 0: unknown tile kind ['oracle']",
    ),
    (
        "long text",
        ("cards", 0),
        "x" * 10_000,
        "unknown card 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx'... (the cards are fishermen, miners, merchants, "
        "workers, discoverers, knights, hermits, lords, citizens, farmers)",
    ),
    ("seed is text", ("seed",), "seven", "the seed must be an integer, not 'seven'"),
]


@pytest.mark.parametrize("path, value, message", [c[1:] for c in BAD_POSITIONS], ids=[c[0] for c in BAD_POSITIONS])
def test_bad_values_name_what_and_where(path, value, message):
    pos = copy.deepcopy(POSITIONS[1])
    box = pos
    for key in path[:-1]:
        box = box[key]
    box[path[-1]] = value
    before = copy.deepcopy(pos) if path[-1] != "settlements" else None  # (too deep to copy)
    with pytest.raises(InvalidPosition) as err:
        KingdomState.from_json(pos)
    assert str(err.value) == message
    if before is not None:
        assert pos == before  # loading changes nothing it was given


def test_an_unknown_position_key_is_named():
    pos = dict(POSITIONS[0], colour="red")
    with pytest.raises(InvalidPosition) as err:
        KingdomState.from_json(pos)
    assert str(err.value).startswith("unknown position key 'colour' (the keys are sections, cards, players,")


BAD_SETUPS = [
    ("players", [2], "players must be a whole number from 2 to 4, not [2]"),
    ("players", 10**5000, "Kingdom Builder is for 2 to 4 players, not a number too large"),
    (
        "sections",
        [[["oracle"], False]] * 4,
        "unknown section name ['oracle'] in slot 0 (the sections are oracle, farm, oasis, tower, tavern, barn, "
        "harbor, paddock)",
    ),
    (
        "cards",
        [["miners"], "fishermen", "workers"],
        "unknown card ['miners'] (the cards are fishermen, miners, merchants, workers, discoverers, knights, "
        "hermits, lords, citizens, farmers)",
    ),
    (
        "deck",
        [{"t": "grass"}] * 25,
        "unknown terrain {'t': 'grass'} in the deck (the terrains are grass, canyon, desert, flower, forest)",
    ),
    ("start_player", 1.0, "start_player must be a seat from 0 to 1, not 1.0"),
    ("seed", {"a": 1}, "the seed must be an integer, not {'a': 1}"),
    ("seed", "\ud800", "the seed is a string that is not valid text (unpaired surrogate)"),
]


@pytest.mark.parametrize("key, value, message", BAD_SETUPS, ids=[f"{i}-{c[0]}" for i, c in enumerate(BAD_SETUPS)])
def test_bad_setup_values_raise_invalid_setup(key, value, message):
    setup = dict(GAME.first_game_setup(2), **{key: value})
    with pytest.raises(InvalidSetup) as err:
        new_state(setup)
    assert str(err.value) == message


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated(POSITIONS))
def test_a_mutated_position_is_drawn_or_refused_with_invalid_position(position):
    """The drawings read any position file too (builders kingdom show / svg): the same promise."""
    for draw in (render_terminal_text, render_svg):
        try:
            draw(position)
        except InvalidPosition as e:
            _one_sentence(e)
