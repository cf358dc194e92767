"""Positions (docs/kingdom.md, "Positions"): the keys that may be left out and the values they take,
the round trip through JSON, and the exact error of every kind of bad position."""

from __future__ import annotations

import copy
import json
from collections import Counter

import pytest

from builders.core.errors import InvalidPosition
from builders.kingdom.game import KingdomBuilder
from builders.kingdom.position import load_position
from builders.kingdom.state import KingdomState
from tests.kingdom.helpers_positions import BENCH_MAP, hexes, locations

BASE = {
    "sections": [["oracle", False], ["paddock", False], ["harbor", False], ["farm", False]],
    "cards": ["miners", "fishermen", "workers"],
    "players": [{"settlements": [[1, 7], [6, 10]]}, {"settlements": [[13, 8]]}],
}


def test_left_out_keys_take_the_values_of_a_turn_start():
    """rules.md "Components and setup": 40 settlements, 2 tiles per location hex, 25 terrain cards
    (5 of each), one held by each player; nothing happened yet in the turn."""
    pos = KingdomState.from_json(copy.deepcopy(BASE)).to_json()
    assert [p["supply"] for p in pos["players"]] == [38, 39]
    assert [p["tiles"] for p in pos["players"]] == [[], []]
    assert [p["taken_from"] for p in pos["players"]] == [[], []]
    assert pos["tiles_left"] == [{"at": list(h), "count": 2} for h in sorted(locations(BENCH_MAP))]
    assert pos["to_move"] == 0
    assert pos["built_this_turn"] == 0
    assert pos["start_player"] == 0
    assert pos["final_round"] is False
    assert pos["game_over"] is False
    assert pos["discard"] == [] and pos["removed"] == []
    hands = [p["terrain"] for p in pos["players"]]
    assert all(h in ("grass", "canyon", "desert", "flower", "forest") for h in hands)
    assert len(pos["deck"]) == 23
    assert Counter(pos["deck"] + hands) == Counter({t: 5 for t in ("grass", "canyon", "desert", "flower", "forest")})


def test_taken_tiles_leave_fewer_on_the_board():
    """rules.md "Location tiles": a tile taken (held or lost) is no longer on its location hex."""
    pos = copy.deepcopy(BASE)
    pos["players"][0]["tiles"] = [{"kind": "paddock", "from": [6, 11], "state": "ready"}]
    pos["players"][1]["taken_from"] = [[6, 11], [15, 12]]
    left = {tuple(t["at"]): t["count"] for t in KingdomState.from_json(pos).to_json()["tiles_left"]}
    assert left[(6, 11)] == 0 and left[(15, 12)] == 1 and left[(3, 7)] == 2


def test_a_position_round_trips_through_json():
    game = KingdomBuilder()
    state = game.new_state(game.random_setup(3, 11))
    for _ in range(40):
        state.apply(state.legal_actions()[len(state.legal_actions()) // 2])
    pos = state.to_json()
    again = KingdomState.from_json(json.loads(json.dumps(pos)))
    assert again.to_json() == pos
    assert sorted(map(again.action_to_string, again.legal_actions())) == sorted(
        map(state.action_to_string, state.legal_actions())
    )


def test_load_position_is_from_json():
    assert load_position(copy.deepcopy(BASE)).to_json() == KingdomState.from_json(copy.deepcopy(BASE)).to_json()


def _with(change):
    pos = copy.deepcopy(BASE)
    change(pos)
    return pos


def _tile(seat, kind, frm, state="ready"):
    def change(pos):
        pos["players"][seat]["tiles"] = [{"kind": kind, "from": frm, "state": state}]

    return change


BAD = [
    ("not an object", [1, 2], "a position is a JSON object with keys sections, cards and players"),
    (
        "unknown key",
        _with(lambda p: p.update(colour="red")),
        "unknown position key 'colour' (the keys are sections, cards, players, tiles_left, to_move, "
        "built_this_turn, deck, deck_count, discard, removed, start_player, final_round, game_over, turn, seed, format)",
    ),
    ("no sections", _with(lambda p: p.pop("sections")), "the position has no 'sections'"),
    ("no cards", _with(lambda p: p.pop("cards")), "the position has no 'cards'"),
    ("no players", _with(lambda p: p.pop("players")), "the position has no 'players'"),
    (
        "unknown section",
        _with(lambda p: p["sections"].__setitem__(0, ["castle", False])),
        "unknown section name 'castle' in slot 0 (the sections are oracle, farm, oasis, tower, tavern, barn, "
        "harbor, paddock)",
    ),
    (
        "section twice",
        _with(lambda p: p["sections"].__setitem__(1, ["oracle", True])),
        "duplicate section 'oracle': the map needs 4 different sections",
    ),
    ("three sections", _with(lambda p: p["sections"].pop()), "the map needs 4 sections, not 3"),
    (
        "turned not a bool",
        _with(lambda p: p["sections"].__setitem__(0, ["oracle", "yes"])),
        "section 0 (oracle): turned must be true or false, not 'yes'",
    ),
    (
        "unknown card",
        _with(lambda p: p["cards"].__setitem__(0, "kings")),
        "unknown card 'kings' (the cards are fishermen, miners, merchants, workers, discoverers, knights, "
        "hermits, lords, citizens, farmers)",
    ),
    (
        "card twice",
        _with(lambda p: p["cards"].__setitem__(0, "workers")),
        "duplicate card 'workers': the game uses 3 different cards",
    ),
    ("two cards", _with(lambda p: p["cards"].pop()), "a game uses 3 Kingdom Builder cards, not 2"),
    ("one player", _with(lambda p: p["players"].pop()), "players must be a list of 2 to 4 player objects"),
    (
        "row off the map",
        _with(lambda p: p["players"][0]["settlements"].append([20, 3])),
        "seat 0: settlement: hex 20,3 is off the map",
    ),
    (
        "column off the map",
        _with(lambda p: p["players"][0]["settlements"].append([3, -1])),
        "seat 0: settlement: hex 3,-1 is off the map",
    ),
    (
        "not a pair",
        _with(lambda p: p["players"][0]["settlements"].append([3])),
        "seat 0: settlement must be a [R, C] pair, not [3]",
    ),
    (
        "two seats on one hex",
        _with(lambda p: p["players"][1]["settlements"].append([1, 7])),
        "hex 1,7 has settlements of seats 0 and 1",
    ),
    (
        "one seat twice on a hex",
        _with(lambda p: p["players"][0]["settlements"].append([1, 7])),
        "seat 0 has two settlements on hex 1,7",
    ),
    (
        "on a mountain",
        _with(lambda p: p["players"][0]["settlements"].append([5, 0])),
        "seat 0: a settlement on hex 5,0, a mountain hex, where nothing can stand",
    ),
    (
        "on a castle",
        _with(lambda p: p["players"][0]["settlements"].append([1, 3])),
        "seat 0: a settlement on hex 1,3, a castle hex, where nothing can stand",
    ),
    (
        "on a location",
        _with(lambda p: p["players"][0]["settlements"].append([3, 7])),
        "seat 0: a settlement on hex 3,7, a location hex, where nothing can stand",
    ),
    (
        "supply does not add up",
        _with(lambda p: p["players"][0].update(supply=30)),
        "seat 0: supply 30 + 2 settlements on the map is not 40",
    ),
    (
        "unknown terrain",
        _with(lambda p: p["players"][0].update(terrain="swamp")),
        "seat 0: unknown terrain 'swamp' (the terrains are grass, canyon, desert, flower, forest)",
    ),
    (
        "unknown player key",
        _with(lambda p: p["players"][0].update(gold=3)),
        "seat 0: unknown key 'gold' (the keys are settlements, supply, terrain, tiles, taken_from)",
    ),
    ("no settlements", _with(lambda p: p["players"][0].pop("settlements")), "seat 0 has no 'settlements'"),
    (
        "tile from a plain hex",
        _with(_tile(0, "paddock", [6, 10])),
        "seat 0: a tile from hex 6,10, which is not a location hex",
    ),
    (
        "tile of the wrong kind",
        _with(_tile(0, "farm", [6, 11])),
        "seat 0: a farm tile cannot come from hex 6,11, a paddock location",
    ),
    ("unknown tile kind", _with(_tile(0, "mill", [6, 11])), "seat 0: tile 0: unknown tile kind 'mill'"),
    (
        "two tiles from one hex",
        _with(lambda p: p["players"][0].update(tiles=[{"kind": "paddock", "from": [6, 11]}] * 2)),
        "seat 0 holds two tiles from hex 6,11; one location gives a player one tile",
    ),
    (
        "unknown tile state",
        _with(_tile(0, "paddock", [6, 11], "done")),
        "seat 0: tile 0: tile state must be ready, used or new, not 'done'",
    ),
    (
        "used tile of a seat not to move",
        _with(_tile(1, "paddock", [6, 11], "used")),
        "seat 1: only the player to move can have a used tile",
    ),
    (
        "tile without a settlement by its location",
        _with(_tile(0, "farm", [11, 17])),
        "seat 0 holds a tile from hex 11,17 but has no settlement next to it",
    ),
    (
        "taken_from a castle",
        _with(lambda p: p["players"][0].update(taken_from=[[1, 3]])),
        "seat 0: taken_from hex 1,3 is not a location hex",
    ),
    (
        "three takers of one hex",
        _with(
            lambda p: [p["players"].append({"settlements": []}), [q.update(taken_from=[[6, 11]]) for q in p["players"]]]
        ),
        "3 players took a tile from hex 6,11, which had only 2",
    ),
    (
        "more tiles left than remain",
        _with(
            lambda p: [
                p.update(tiles_left=[{"at": [6, 11], "count": 2}]),
                [q.update(taken_from=[[6, 11]]) for q in p["players"]],
            ]
        ),
        "hex 6,11 cannot have 2 tiles left: 2 were taken from it",
    ),
    (
        "three tiles left",
        _with(lambda p: p.update(tiles_left=[{"at": [6, 11], "count": 3}])),
        "tiles_left at 6,11 must be a whole number from 0 to 2, not 3",
    ),
    (
        "tiles_left on a plain hex",
        _with(lambda p: p.update(tiles_left=[{"at": [6, 10], "count": 1}])),
        "tiles_left: hex 6,10 is not a location hex",
    ),
    ("to_move out of range", _with(lambda p: p.update(to_move=2)), "to_move must be a whole number from 0 to 1, not 2"),
    (
        "four builds",
        _with(lambda p: p.update(built_this_turn=4)),
        "built_this_turn must be a whole number from 0 to 3, not 4",
    ),
    (
        "too many cards of a terrain",
        _with(lambda p: p.update(deck=["grass"] * 23)),
        "the cards (hands, deck, discard, removed) hold 23 grass, not 5",
    ),
    (
        "final_round not a bool",
        _with(lambda p: p.update(final_round="no")),
        "final_round must be true or false, not 'no'",
    ),
]


@pytest.mark.parametrize("pos, message", [case[1:] for case in BAD], ids=[case[0] for case in BAD])
def test_a_bad_position_is_refused_with_a_precise_reason(pos, message):
    original = copy.deepcopy(pos)
    with pytest.raises(InvalidPosition) as err:
        KingdomState.from_json(pos)
    assert str(err.value) == message
    assert pos == original


def test_an_empty_supply_outside_the_final_round_is_refused():
    """rules.md "End of the game": an empty supply means the final round has begun."""
    pos = copy.deepcopy(BASE)
    pos["players"][0]["settlements"] = [list(h) for h in hexes(BENCH_MAP, "GCDFT")[:40]]
    assert len(pos["players"][0]["settlements"]) == 40
    pos["final_round"] = False
    with pytest.raises(InvalidPosition) as err:
        KingdomState.from_json(pos)
    assert str(err.value) == "final_round must be true: a supply is empty"
    del pos["final_round"]
    assert KingdomState.from_json(pos).to_json()["final_round"] is True
