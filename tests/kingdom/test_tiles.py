"""Location tiles (rules.md, "Location tiles" and "The eight tiles"; FAQ seed 003, "Правила
строительства" 2-10 and "Жетоны действий" 1-9), on hand-made positions.

Maps: FIRST (tavern, paddock, oasis, farm) and OTBH (oracle, tower, barn, harbor), none turned.
OTBH locations: oracle 3,7; tower 3,15 and 7,12; barn 12,6 and 16,2; harbor 17,16.
"""

from __future__ import annotations

import pytest

from builders.core.errors import IllegalAction
from builders.kingdom import KingdomState
from builders.kingdom.data import map_rows

FIRST = [["tavern", False], ["paddock", False], ["oasis", False], ["farm", False]]
OTBH = [["oracle", False], ["tower", False], ["barn", False], ["harbor", False]]
CARDS = ["fishermen", "merchants", "knights"]


def letters(sections, letter):
    rows = map_rows([tuple(s) for s in sections])
    return [(r, c) for r in range(20) for c in range(20) if rows[r][c] == letter]


def state(sections, players, **kw):
    pos = {"sections": sections, "cards": CARDS, "players": players}
    pos.update(kw)
    return KingdomState.from_json(pos)


def tile(kind, r, c, state="ready"):
    return {"kind": kind, "from": [r, c], "state": state}


def legal(st, prefix=""):
    return sorted(s for s in (st.action_to_string(a) for a in st.legal_actions()) if s.startswith(prefix))


def error(st, text):
    before = st.to_json()
    with pytest.raises(IllegalAction) as e:
        st.apply_string(text)
    assert st.to_json() == before
    return str(e.value)


def other(terrain="canyon"):
    return {"settlements": [], "terrain": terrain}


# -- taking and keeping tiles --------------------------------------------------------------------


def test_building_next_to_a_location_takes_a_new_tile():
    """rules.md, Location tiles 1; A turn 3 / FAQ 3: a tile taken this turn cannot be used until
    the next turn."""
    st = state(OTBH, [{"settlements": [[1, 6]], "terrain": "grass"}, other()])
    st.apply_string("build 2,7")
    pos = st.to_json()
    assert pos["players"][0]["tiles"] == [tile("oracle", 3, 7, "new")]
    assert pos["players"][0]["taken_from"] == [[3, 7]]
    assert pos["tiles_left"][0] == {"at": [3, 7], "count": 1}
    st.apply_string("build 2,8")
    st.apply_string("build 0,6")
    assert legal(st) == ["end"]
    assert error(st, "oracle 1,6") == ("your oracle tile was taken this turn: it can be used from your next turn")
    st.apply_string("end")
    assert st.to_json()["players"][0]["tiles"] == [tile("oracle", 3, 7, "ready")]


def test_one_tile_per_location_hex_per_player_ever():
    """rules.md, Location tiles 1; FAQ building rules 5: no second tile from the same hex, even after
    the first was lost."""
    st = state(OTBH, [{"settlements": [[1, 6]], "terrain": "grass", "taken_from": [[3, 7]]}, other()])
    st.apply_string("build 2,7")
    pos = st.to_json()
    assert pos["players"][0]["tiles"] == []
    assert pos["tiles_left"][0] == {"at": [3, 7], "count": 1}  # 2 less the one taken before


def test_no_tile_when_none_is_left():
    """rules.md, Location tiles 1: "if any tile is left there"."""
    st = state(OTBH, [{"settlements": [[1, 6]], "terrain": "grass"}, other()], tiles_left=[{"at": [3, 7], "count": 0}])
    st.apply_string("build 2,7")
    assert st.to_json()["players"][0]["tiles"] == []
    assert st.to_json()["players"][0]["taken_from"] == []


def test_moving_next_to_a_location_takes_a_tile():
    """FAQ, building rules 2: moving a settlement next to a location takes a tile too."""
    # 7,7 is next to the tavern location 6,7; 7,10 stays next to the paddock location 6,11
    st = state(
        FIRST, [{"settlements": [[7, 10], [7, 9]], "terrain": "forest", "tiles": [tile("paddock", 6, 11)]}, other()]
    )
    st.apply_string("paddock 7,9>7,7")
    pos = st.to_json()["players"][0]
    assert pos["tiles"] == [tile("tavern", 6, 7, "new"), tile("paddock", 6, 11, "used")]


# -- build tiles --------------------------------------------------------------------------------


def test_oracle_builds_on_the_played_terrain_adjacent_if_possible():
    """rules.md, The eight tiles, Oracle; FAQ tiles 3. Tiles before the mandatory build (A turn 3)."""
    st = state(OTBH, [{"settlements": [[2, 7]], "terrain": "grass", "tiles": [tile("oracle", 3, 7)]}, other()])
    assert legal(st) == ["build 1,6", "build 2,8", "oracle 1,6", "oracle 2,8"]
    st.apply_string("oracle 1,6")
    assert st.to_json()["players"][0]["supply"] == 38
    assert st.to_json()["players"][0]["tiles"] == [tile("oracle", 3, 7, "used")]
    assert legal(st) == ["build 0,6", "build 2,8"]
    assert error(st, "oracle 0,6") == "your oracle tile was already used this turn"


def test_tile_after_the_mandatory_build_but_not_during_it():
    """rules.md, A turn 3; FAQ building rules 4: before or after the mandatory build, never during."""
    st = state(OTBH, [{"settlements": [[2, 7]], "terrain": "grass", "tiles": [tile("oracle", 3, 7)]}, other()])
    st.apply_string("build 2,8")
    assert legal(st) == ["build 1,6"]
    assert error(st, "oracle 1,6") == "tiles cannot be used during the mandatory build"
    st.apply_string("build 1,6")
    assert legal(st) == ["build 0,6"]
    st.apply_string("build 0,6")
    # no free grass next to 2,7 2,8 1,6 0,6 any more: the oracle may go on any free grass hex
    grass = sorted(f"oracle {r},{c}" for r, c in letters(OTBH, "G") if (r, c) not in [(1, 6), (0, 6), (2, 7), (2, 8)])
    assert legal(st) == ["end"] + grass


def test_farm_and_oasis():
    """rules.md, The eight tiles: Farm on grass, Oasis on desert, adjacent if possible."""
    st = state(FIRST, [{"settlements": [[15, 11]], "terrain": "canyon", "tiles": [tile("farm", 15, 12)]}, other()])
    assert legal(st, "farm") == ["farm 14,11", "farm 14,12", "farm 15,10", "farm 16,11", "farm 16,12"]
    assert error(st, "farm 15,13") == "hex 15,13 is not grass"
    st = state(
        FIRST, [{"settlements": [[16, 6], [16, 7]], "terrain": "grass", "tiles": [tile("oasis", 17, 5)]}, other()]
    )
    assert legal(st, "oasis") == ["oasis 16,8", "oasis 17,6", "oasis 17,7"]
    assert error(st, "oasis 18,7") == "hex 18,7 is not next to your settlements, and 16,8 is"
    assert error(st, "farm 16,5") == "you have no farm tile"


def test_tower_on_the_edge_adjacent_among_edge_candidates():
    """rules.md, The eight tiles, Tower; FAQ tiles 4."""
    st = state(
        OTBH, [{"settlements": [[2, 16], [16, 1]], "terrain": "forest", "tiles": [tile("tower", 3, 15)]}, other()]
    )
    assert legal(st, "tower") == ["tower 15,0", "tower 16,0", "tower 17,0"]
    st = state(OTBH, [{"settlements": [[2, 16]], "terrain": "forest", "tiles": [tile("tower", 3, 15)]}, other()])
    rows = map_rows([tuple(s) for s in OTBH])
    edge = sorted(
        f"tower {r},{c}"
        for r in range(20)
        for c in range(20)
        if (r in (0, 19) or c in (0, 19)) and rows[r][c] in "GCDFT"
    )
    assert legal(st, "tower") == edge
    assert error(st, "tower 2,17") == "hex 2,17 is not a buildable hex on the edge of the map"


def test_tavern_at_either_end_of_a_line_of_three():
    """rules.md, The eight tiles, Tavern; FAQ tiles 5 (a straight line, in any of the three axes)."""
    own = [[7, 6], [7, 7], [7, 8], [5, 5], [6, 6]]
    st = state(FIRST, [{"settlements": own, "terrain": "desert", "tiles": [tile("tavern", 6, 7)]}, other()])
    assert legal(st, "tavern") == ["tavern 4,5", "tavern 7,5", "tavern 7,9", "tavern 8,7"]
    st = state(
        FIRST,
        [
            {"settlements": own, "terrain": "desert", "tiles": [tile("tavern", 6, 7)]},
            {"settlements": [[7, 9]], "terrain": "canyon"},
        ],
    )
    assert legal(st, "tavern") == ["tavern 4,5", "tavern 7,5", "tavern 8,7"]
    assert error(st, "tavern 7,9") == "hex 7,9 is taken"
    assert error(st, "tavern 8,8") == "hex 8,8 is not at the end of a straight line of 3 or more of your settlements"


def test_build_tiles_need_a_settlement_in_the_supply():
    """rules.md, The eight tiles: build tiles need a settlement in the supply; FAQ 8: a tile may be
    used before the mandatory build even if that leaves fewer settlements for it."""
    setts = [[15, 11]] + [[r, c] for r, c in letters(FIRST, "D")[:38]]
    st = state(FIRST, [{"settlements": setts, "terrain": "forest", "tiles": [tile("farm", 15, 12)]}, other()])
    st.apply_string("farm 14,11")
    assert st.to_json()["players"][0]["supply"] == 0
    assert legal(st) == ["end"]
    assert error(st, "build 16,13") == "you have no settlements left in your supply"


# -- move tiles ---------------------------------------------------------------------------------


def test_barn_lifts_first_faq_example():
    """rules.md, The eight tiles (move: lift first, the hex left counts as free); FAQ tiles 6: three
    settlements on canyon with no other canyon next to them must go back where they were."""
    st = state(
        OTBH,
        [
            {"settlements": [[0, 18], [0, 19], [1, 19], [12, 7]], "terrain": "canyon", "tiles": [tile("barn", 12, 6)]},
            other("grass"),
        ],
    )
    moves = legal(st, "barn")
    assert [m for m in moves if not m.startswith("barn 12,7>")] == [
        "barn 0,18>0,18",
        "barn 0,19>0,19",
        "barn 1,19>1,19",
    ]
    canyons = sorted(f"barn 12,7>{r},{c}" for r, c in letters(OTBH, "C") if (r, c) not in [(0, 18), (0, 19), (1, 19)])
    assert [m for m in moves if m.startswith("barn 12,7>")] == canyons
    assert error(st, "barn 0,18>0,17") == "hex 0,17 is not canyon (the played terrain)"
    assert error(st, "barn 5,5>0,17") == "hex 5,5 is not one of your settlements"


def test_barn_loses_the_tile_when_leaving_the_location():
    """rules.md, Location tiles 2: the tile is lost at once when no own settlement is left next to
    its location; the hex still counts as taken from."""
    st = state(
        OTBH,
        [
            {"settlements": [[0, 18], [0, 19], [1, 19], [12, 7]], "terrain": "canyon", "tiles": [tile("barn", 12, 6)]},
            other("grass"),
        ],
    )
    st.apply_string("barn 12,7>9,9")
    pos = st.to_json()["players"][0]
    assert pos["tiles"] == [] and pos["taken_from"] == [[12, 6]]
    assert pos["settlements"] == [[0, 18], [0, 19], [1, 19], [9, 9]]
    assert pos["supply"] == 36


def test_harbor_moves_onto_water():
    """rules.md, The eight tiles, Harbor: to a free water hex, adjacent if possible (judged without
    the lifted settlement)."""
    st = state(
        OTBH, [{"settlements": [[18, 17], [19, 17]], "terrain": "grass", "tiles": [tile("harbor", 17, 16)]}, other()]
    )
    assert legal(st, "harbor") == ["harbor 18,17>19,16", "harbor 19,17>18,16", "harbor 19,17>19,16"]
    assert error(st, "harbor 18,17>18,16") == "hex 18,16 is not next to your settlements, and 19,16 is"
    st.apply_string("harbor 18,17>19,16")
    pos = st.to_json()["players"][0]
    assert pos["settlements"] == [[19, 16], [19, 17]]
    assert pos["tiles"] == []  # no settlement left next to the harbor location 17,16


def test_paddock_jumps_exactly_two_in_a_straight_line():
    """rules.md, The eight tiles, Paddock; FAQ tiles 7-8: two hexes in a straight line, jumping
    anything (here the location 6,11), onto a free buildable hex, no adjacency."""
    st = state(FIRST, [{"settlements": [[7, 10]], "terrain": "grass", "tiles": [tile("paddock", 6, 11)]}, other()])
    assert legal(st) == [
        "build 7,11",
        "build 7,9",
        "build 8,10",
        "build 8,11",
        "paddock 7,10>5,11",
        "paddock 7,10>5,9",
        "paddock 7,10>7,12",
        "paddock 7,10>7,8",
        "paddock 7,10>9,11",
        "paddock 7,10>9,9",
    ]
    st = state(
        FIRST,
        [
            {"settlements": [[7, 10]], "terrain": "grass", "tiles": [tile("paddock", 6, 11)]},
            {"settlements": [[7, 12]], "terrain": "canyon"},
        ],
    )
    assert "paddock 7,10>7,12" not in legal(st)
    assert error(st, "paddock 7,10>7,12") == "hex 7,12 is taken"
    assert error(st, "paddock 7,10>7,11") == "hex 7,11 is not 2 hexes in a straight line from 7,10"
    # targets that are not buildable: from 4,13 the jump W lands on 4,11 (canyon) and E on 4,15 (mountain)
    st = state(
        FIRST, [{"settlements": [[7, 10], [4, 13]], "terrain": "grass", "tiles": [tile("paddock", 6, 11)]}, other()]
    )
    assert error(st, "paddock 4,13>4,15") == "hex 4,15 is mountain, not buildable"


def test_paddock_away_from_its_location_loses_it_but_the_move_stands():
    """FAQ tiles 9: jumping away from the paddock location with the only settlement there loses the
    tile, the move is made."""
    st = state(FIRST, [{"settlements": [[7, 10]], "terrain": "grass", "tiles": [tile("paddock", 6, 11)]}, other()])
    st.apply_string("paddock 7,10>7,8")
    pos = st.to_json()["players"][0]
    assert pos["settlements"] == [[7, 8]] and pos["tiles"] == [] and pos["taken_from"] == [[6, 11]]


def test_moving_next_to_the_same_location_keeps_the_tile():
    """rules.md, Location tiles 3; FAQ building rules 7."""
    st = state(FIRST, [{"settlements": [[7, 10]], "terrain": "grass", "tiles": [tile("paddock", 6, 11)]}, other()])
    st.apply_string("paddock 7,10>5,11")
    assert st.to_json()["players"][0]["tiles"] == [tile("paddock", 6, 11, "used")]


def test_two_tiles_of_a_kind_two_uses_and_the_used_one_is_lost():
    """rules.md, A turn 3 (two tiles of a kind give two uses) and Location tiles 2 (FAQ 6: of two
    tiles of a kind, the one already used this turn is lost)."""
    st = state(
        FIRST,
        [
            {
                "settlements": [[7, 10], [3, 18]],
                "terrain": "grass",
                "tiles": [tile("paddock", 2, 18), tile("paddock", 6, 11)],
            },
            other(),
        ],
    )
    st.apply_string("paddock 7,10>7,8")
    pos = st.to_json()["players"][0]
    assert pos["tiles"] == [tile("paddock", 2, 18, "ready")]
    assert pos["taken_from"] == [[2, 18], [6, 11]]
    assert legal(st, "paddock 7,8>") == [
        "paddock 7,8>5,7",
        "paddock 7,8>5,9",
        "paddock 7,8>7,10",
        "paddock 7,8>7,6",
        "paddock 7,8>9,7",
        "paddock 7,8>9,9",
    ]
    st.apply_string("paddock 7,8>7,10")
    assert st.to_json()["players"][0]["tiles"] == [tile("paddock", 2, 18, "used")]
    assert legal(st, "paddock") == []


def test_empty_supply_can_still_move():
    """rules.md, A turn: "A player whose supply is empty still takes turns: they may use move tiles";
    FAQ building rules 10."""
    setts = [[7, 10]] + [[r, c] for r, c in letters(FIRST, "D")[:39]]
    st = state(FIRST, [{"settlements": setts, "terrain": "grass", "tiles": [tile("paddock", 6, 11)]}, other()])
    assert legal(st, "paddock 7,10>") == [
        "paddock 7,10>5,11",
        "paddock 7,10>5,9",
        "paddock 7,10>7,12",
        "paddock 7,10>7,8",
        "paddock 7,10>9,11",
        "paddock 7,10>9,9",
    ]
    assert "end" in legal(st) and not legal(st, "build")


def test_the_refusal_says_why_no_tile_of_that_kind_is_ready():
    """rules.md, A turn 3: each tile once per turn, and a tile taken this turn waits for the next
    turn. With two farm tiles, one used and one new, neither can be used, and the message says why."""
    st = state(
        FIRST,
        [
            {
                "settlements": [[11, 16], [15, 11]],
                "terrain": "canyon",
                "tiles": [tile("farm", 11, 17, "used"), tile("farm", 15, 12, "new")],
            },
            other(),
        ],
    )
    assert legal(st, "farm") == []
    assert error(st, "farm 14,11") == (
        "your farm tiles are used up this turn: one was used, the other was taken this turn and can be "
        "used from your next turn"
    )


def test_paddock_reaches_exactly_the_hexes_two_steps_along_one_line_never_round_the_edge():
    """rules.md, Paddock: a settlement moves exactly 2 hexes in a straight line. Checked for every pair
    of hexes against two steps of the map's own geometry, so a jump can never wrap round an edge of
    the map (for example from 4,0 two to the west, or from 4,19 two to the east)."""
    from builders.kingdom.board import DIRECTIONS, SIZE, index, on_map, step
    from builders.kingdom.tiles import paddock_reaches

    for r in range(SIZE):
        for c in range(SIZE):
            expect = set()
            for d in DIRECTIONS:
                r1, c1 = step(r, c, d)
                if on_map(r1, c1):
                    r2, c2 = step(r1, c1, d)
                    if on_map(r2, c2):
                        expect.add(index(r2, c2))
            src = index(r, c)
            assert {dst for dst in range(SIZE * SIZE) if paddock_reaches(src, dst)} == expect, (r, c)


def test_losing_a_new_tile_leaves_the_other_tile_of_its_kind_as_it_was():
    """rules.md, Location tiles 2 (FAQ 6: of two tiles of a kind, the used one goes): two barn tiles, the
    one of 12,6 ready and the one of 16,2 taken this turn; the harbor moves the only settlement next to 16,2
    away, so that tile is lost. Neither barn tile was used, so the one kept (12,6) stays ready and can
    still be used this turn (it does not take over the lost tile's "new")."""
    st = state(
        OTBH,
        [
            {
                "settlements": [[12, 7], [17, 1], [16, 16]],
                "terrain": "grass",
                "tiles": [tile("barn", 12, 6), tile("barn", 16, 2, "new"), tile("harbor", 17, 16)],
            },
            other(),
        ],
    )
    st.apply_string("harbor 17,1>17,15")
    assert st.to_json()["players"][0]["tiles"] == [tile("barn", 12, 6), tile("harbor", 17, 16, "used")]
    assert legal(st, "barn") == [
        "barn 12,7>15,15",
        "barn 12,7>16,15",
        "barn 16,16>16,15",
        "barn 17,15>15,15",
        "barn 17,15>16,15",
    ]
