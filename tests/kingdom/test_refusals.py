"""The exact refusal of a bad target of the farm, the oasis and the barn (rules.md, "The eight tiles"),
on hand-made positions. Maps: FIRST (tavern, paddock, oasis, farm) and OTBH (oracle, tower, barn,
harbor), none turned; the terrain codes follow data.TERRAINS (grass is code 0)."""

from __future__ import annotations

import pytest

from builders.core.errors import IllegalAction
from builders.kingdom import KingdomState
from builders.kingdom.data import map_rows

FIRST = [["tavern", False], ["paddock", False], ["oasis", False], ["farm", False]]
OTBH = [["oracle", False], ["tower", False], ["barn", False], ["harbor", False]]
CARDS = ["fishermen", "merchants", "knights"]


def state(sections, players):
    return KingdomState.from_json({"sections": sections, "cards": CARDS, "players": players})


def error(st, text):
    before = st.to_json()
    with pytest.raises(IllegalAction) as e:
        st.apply_string(text)
    assert st.to_json() == before
    return str(e.value)


def test_an_oasis_target_that_is_not_desert_is_refused_with_the_word_desert():
    """rules.md, The eight tiles: Oasis builds on desert. 16,9 is canyon: the refusal names desert
    (not the farm's grass)."""
    st = state(
        FIRST,
        [
            {
                "settlements": [[16, 6], [16, 7]],
                "terrain": "grass",
                "tiles": [{"kind": "oasis", "from": [17, 5], "state": "ready"}],
            },
            {"settlements": [], "terrain": "canyon"},
        ],
    )
    assert error(st, "oasis 16,9") == "hex 16,9 is not desert"


def test_a_farm_target_that_is_not_grass_is_refused_with_the_word_grass():
    """rules.md, The eight tiles: Farm builds on grass. 15,8 is desert."""
    st = state(
        FIRST,
        [
            {
                "settlements": [[15, 11]],
                "terrain": "canyon",
                "tiles": [{"kind": "farm", "from": [15, 12], "state": "ready"}],
            },
            {"settlements": [], "terrain": "canyon"},
        ],
    )
    assert error(st, "farm 15,8") == "hex 15,8 is not grass"


def test_the_barn_with_grass_played_names_grass():
    """rules.md, The eight tiles: Barn moves a settlement to a hex of the played terrain. Grass is the
    first terrain (code 0): it is a played terrain like any other, so a move to desert (12,8) is refused
    for not being grass, not for a missing terrain card."""
    st = state(
        OTBH,
        [
            {
                "settlements": [[12, 7]],
                "terrain": "grass",
                "tiles": [{"kind": "barn", "from": [12, 6], "state": "ready"}],
            },
            {"settlements": [], "terrain": "canyon"},
        ],
    )
    assert error(st, "barn 12,7>12,8") == "hex 12,8 is not grass (the played terrain)"


def test_a_tile_build_with_an_empty_supply_is_refused_for_the_supply():
    """rules.md, Location tiles / The eight tiles: a tile that builds takes a settlement from the supply;
    with all 40 on the map, the farm (a tile, not the mandatory build) is refused for the empty supply."""
    rows = map_rows([tuple(s) for s in FIRST])
    grass = [[r, c] for r in range(20) for c in range(20) if rows[r][c] == "G" and [r, c] != [15, 11]][:39]
    st = state(
        FIRST,
        [
            {
                "settlements": grass + [[15, 11]],
                "terrain": "canyon",
                "tiles": [{"kind": "farm", "from": [15, 12], "state": "ready"}],
            },
            {"settlements": [], "terrain": "canyon"},
        ],
    )
    assert error(st, "farm 14,11") == "you have no settlements left in your supply"
