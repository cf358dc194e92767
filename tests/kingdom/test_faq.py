"""The clarifications of the official FAQ (seed 003) and the points settled in
kingdom-builder/rules.md, each checked on a crafted position.

Citations: "FAQ build N" is point N of "Правила строительства" (building rules), "FAQ score N" of
"Подсчет очков" (scoring), "FAQ tile N" of "Жетоны действий" (tile actions), all in
seeds/003_92d4faf59636d3d5.txt; "rules.md <section>" is the project's specification.

Every expected move list below was worked out by hand from the map letters (boards.md) and the
neighbour rule for odd-r rows; the comments name the hexes that matter.
"""

from __future__ import annotations

import pytest

from builders.core.errors import IllegalAction, InvalidPosition
from tests.kingdom.helpers_positions import (
    BARN_MAP,
    BENCH_MAP,
    builds,
    filler,
    free_of,
    hexes,
    load,
    locations,
    moves,
    neighbours,
    moves_of,
    player,
    position,
    tile,
)

CARDS = ["fishermen", "miners", "workers"]


def tiles_of(state, seat: int) -> list[tuple[str, tuple[int, int], str]]:
    return sorted((t["kind"], tuple(t["from"]), t["state"]) for t in state.to_json()["players"][seat]["tiles"])


def taken_from(state, seat: int) -> set[tuple[int, int]]:
    return {tuple(h) for h in state.to_json()["players"][seat]["taken_from"]}


def tiles_left(state) -> dict[tuple[int, int], int]:
    return {tuple(t["at"]): t["count"] for t in state.to_json()["tiles_left"]}


def build_any(state) -> None:
    """Play one mandatory build (the first in notation order)."""
    state.apply_string(moves_of(state, "build")[0])


def refused(state, text: str, reason: str) -> None:
    """``text`` is refused with IllegalAction giving ``reason``, and the position does not change."""
    before = state.to_json()
    with pytest.raises(IllegalAction) as err:
        state.apply_string(text)
    assert str(err.value) == reason
    assert state.to_json() == before


# -- setup ---------------------------------------------------------------------------------------


def test_two_tiles_on_every_location_hex_and_one_hex_for_oracle_and_harbor():
    """FAQ setup 2; rules.md "Components and setup": 2 tiles lie on every location hex; the Oracle
    and Harbor sections have one location hex each, so there are only 2 tiles of each."""
    st = load(position(BENCH_MAP, CARDS, [player([]), player([])]))
    left = tiles_left(st)
    assert left == {(3, 7): 2, (2, 18): 2, (6, 11): 2, (17, 6): 2, (11, 17): 2, (15, 12): 2}
    kinds = {h: k for h, k in locations(BENCH_MAP).items()}
    per_kind = {}
    for h, n in left.items():
        per_kind[kinds[h]] = per_kind.get(kinds[h], 0) + n
    assert per_kind == {"oracle": 2, "harbor": 2, "paddock": 4, "farm": 4}


def test_a_turned_section_is_rotated_by_180_degrees():
    """FAQ setup 1; boards.md "Geometry": a turned section moves local (r, c) to (9 - r, 9 - c).
    The Oracle section's castle (1,3) is at (8,6) when it is turned, and its location (3,7) at (6,2)."""
    turned = [["oracle", True]] + BENCH_MAP[1:]
    with pytest.raises(InvalidPosition) as err:
        load(position(turned, CARDS, [player([(8, 6)]), player([])]))
    assert str(err.value) == "seat 0: a settlement on hex 8,6, a castle hex, where nothing can stand"
    st = load(position(turned, CARDS, [player([(1, 3)]), player([])]))
    assert (6, 2) in tiles_left(st) and (3, 7) not in tiles_left(st)


# -- building rules ------------------------------------------------------------------------------


def test_mandatory_builds_go_next_to_own_settlements_anywhere_on_the_map():
    """FAQ build 1: each of the three builds goes next to one of the player's settlements if a hex of
    the played terrain allows it; the three need not form one group (canyons in the north and the
    south). rules.md "Building rules" 3.

    Seat 0 has (5,3), next to the canyons (4,3), (4,4), (5,2), and (16,9), next to canyon (17,9);
    seat 1 stands on (4,4)."""
    pos = position(
        BENCH_MAP,
        CARDS,
        [
            player([(5, 3), (16, 9)], terrain="canyon"),
            player([(4, 4)], terrain="grass"),
        ],
    )
    st = load(pos)
    assert moves(st) == ["build 17,9", "build 4,3", "build 5,2"]
    st.apply_string("build 17,9")
    # (17,9) brings canyon (18,9) next to the player
    assert moves(st) == ["build 18,9", "build 4,3", "build 5,2"]
    st.apply_string("build 18,9")
    # (18,9) brings the canyons (18,8), (19,8), (19,9)
    assert moves(st) == ["build 18,8", "build 19,8", "build 19,9", "build 4,3", "build 5,2"]


def test_no_played_terrain_next_to_own_settlements_allows_any_hex_of_it():
    """FAQ build 1 (third case): if no hex of the played terrain is next to the player's settlements,
    any free hex of that terrain may be chosen. Seat 0's only settlement, forest (13,3), has forest
    and water around it; the played terrain is desert."""
    pos = position(
        BENCH_MAP,
        CARDS,
        [
            player([(13, 3)], terrain="desert"),
            player([(13, 8)], terrain="grass"),
        ],
    )
    st = load(pos)
    expected = builds(free_of(BENCH_MAP, "D", [(13, 8)]))
    assert len(expected) == 15 + 15 + 14 + 12 - 1
    assert moves(st) == expected


def test_moving_next_to_a_location_takes_a_tile():
    """FAQ build 2: moving a settlement next to a location with a tile (Paddock here) takes a tile,
    as building there does. Seat 0 jumps (1,7) -> (3,8), next to the Oracle location (3,7)."""
    pos = position(
        BENCH_MAP,
        CARDS,
        [
            player([(1, 7), (6, 10)], terrain="grass", tiles=[tile("paddock", (6, 11))], taken_from=[[6, 11]]),
            player([(13, 8)], terrain="grass"),
        ],
    )
    st = load(pos)
    assert moves_of(st, "paddock") == [
        "paddock 1,7>1,9",
        "paddock 1,7>3,6",
        "paddock 1,7>3,8",
        "paddock 6,10>4,11",
        "paddock 6,10>6,12",
        "paddock 6,10>6,8",
        "paddock 6,10>8,11",
        "paddock 6,10>8,9",
    ]
    st.apply_string("paddock 1,7>3,8")
    assert tiles_of(st, 0) == [("oracle", (3, 7), "new"), ("paddock", (6, 11), "used")]
    assert taken_from(st, 0) == {(6, 11), (3, 7)}
    assert tiles_left(st)[(3, 7)] == 1


def test_a_tile_taken_this_turn_cannot_be_used_until_the_next_turn():
    """FAQ build 3: a tile can be used from the next turn on, not in the turn it was taken.
    Seat 0 builds (2,7) next to the Oracle location (3,7) and then may not use the Oracle tile; on
    its next turn it may."""
    pos = position(
        BENCH_MAP,
        CARDS,
        [
            player([(1, 7)], terrain="grass"),
            player([(13, 8)], terrain="grass"),
        ],
    )
    st = load(pos)
    # grass next to (1,7): (1,6), (2,7), (2,8)
    assert moves(st) == ["build 1,6", "build 2,7", "build 2,8"]
    st.apply_string("build 2,7")
    assert tiles_of(st, 0) == [("oracle", (3, 7), "new")]
    st.apply_string("build 2,8")
    st.apply_string("build 1,6")
    assert moves(st) == ["end"]
    refused(st, "oracle 0,6", "your oracle tile was taken this turn: it can be used from your next turn")
    st.apply_string("end")
    assert st.current_player == 1
    # seat 1 plays grass: next to (13,8) there is none, so it may build on any free grass
    for _ in range(3):
        build_any(st)
    st.apply_string("end")
    assert st.current_player == 0
    assert tiles_of(st, 0) == [("oracle", (3, 7), "ready")]
    assert moves_of(st, "oracle") != []


def test_tiles_before_and_after_the_mandatory_build_never_during_it():
    """FAQ build 4; rules.md "A turn" 3: tiles may be used before or after the three builds, not
    between them; the turn cannot end before the mandatory build.

    Seat 0 (10,18) holds a Farm tile; played terrain forest. Forest next to it: (9,18), (10,17);
    grass next to it: (9,17), (10,19), (11,18)."""
    pos = position(
        BENCH_MAP,
        CARDS,
        [
            player([(10, 18)], terrain="forest", tiles=[tile("farm", (11, 17))], taken_from=[[11, 17]]),
            player([(13, 8)], terrain="grass"),
        ],
    )
    st = load(pos)
    assert moves(st) == ["build 10,17", "build 9,18", "farm 10,19", "farm 11,18", "farm 9,17"]
    refused(st, "end", "you must build 3 settlements before ending the turn")
    st.apply_string("build 9,18")
    assert moves(st) == ["build 10,17", "build 8,19", "build 9,19"]
    refused(st, "farm 9,17", "tiles cannot be used during the mandatory build")
    st.apply_string("build 10,17")
    assert moves(st) == ["build 10,16", "build 11,16", "build 8,19", "build 9,19"]
    refused(st, "farm 9,17", "tiles cannot be used during the mandatory build")
    refused(st, "end", "the mandatory build is not finished (2 of 3 built)")
    st.apply_string("build 8,19")
    assert moves(st) == [
        "end",
        "farm 10,19",
        "farm 11,18",
        "farm 7,18",
        "farm 8,18",
        "farm 9,16",
        "farm 9,17",
    ]
    st.apply_string("farm 7,18")
    assert moves(st) == ["end"]
    assert tiles_of(st, 0) == [("farm", (11, 17), "used")]


def test_a_tile_used_before_the_mandatory_build():
    """FAQ build 4: one or more tiles may be used before the three builds. After the Farm build the
    mandatory build follows, then the turn may end."""
    pos = position(
        BENCH_MAP,
        CARDS,
        [
            player([(10, 18)], terrain="forest", tiles=[tile("farm", (11, 17))], taken_from=[[11, 17]]),
            player([(13, 8)], terrain="grass"),
        ],
    )
    st = load(pos)
    st.apply_string("farm 9,17")
    # (9,17)'s forest neighbours are (9,18) and (10,17), already next to (10,18)
    assert moves(st) == ["build 10,17", "build 9,18"]
    assert st.to_json()["players"][0]["supply"] == 38


def test_two_tiles_of_one_kind_from_two_location_hexes_give_two_uses():
    """FAQ build 5; rules.md "A turn" 3: two tiles of one kind, taken from two location hexes, give
    two uses in one turn. Seat 0 holds Farm tiles from (11,17) and (15,12)."""
    pos = position(
        BENCH_MAP,
        CARDS,
        [
            player(
                [(10, 18), (14, 12)],
                terrain="forest",
                tiles=[tile("farm", (11, 17)), tile("farm", (15, 12))],
                taken_from=[[11, 17], [15, 12]],
            ),
            player([(13, 8)], terrain="grass"),
        ],
        built_this_turn=3,
    )
    st = load(pos)
    # grass next to (10,18): (9,17), (10,19), (11,18); next to (14,12): (14,11), (15,11)
    assert moves(st) == ["end", "farm 10,19", "farm 11,18", "farm 14,11", "farm 15,11", "farm 9,17"]
    st.apply_string("farm 9,17")
    assert tiles_of(st, 0) == [("farm", (11, 17), "used"), ("farm", (15, 12), "ready")]
    # (9,17) adds grass (8,17), (8,18), (9,16)
    assert moves(st) == [
        "end",
        "farm 10,19",
        "farm 11,18",
        "farm 14,11",
        "farm 15,11",
        "farm 8,17",
        "farm 8,18",
        "farm 9,16",
    ]
    st.apply_string("farm 15,11")
    assert moves(st) == ["end"]
    refused(st, "farm 10,19", "your farm tiles were both already used this turn")


def test_never_a_second_tile_from_the_same_location_hex():
    """FAQ build 5: a location hex gives a player one tile in the whole game, even after that tile
    was lost. Seat 0 already took a Farm tile from (11,17) (held) and one from (15,12) (lost);
    building next to both again takes nothing."""
    pos = position(
        BENCH_MAP,
        CARDS,
        [
            player(
                [(10, 18), (14, 11)], terrain="grass", tiles=[tile("farm", (11, 17))], taken_from=[[11, 17], [15, 12]]
            ),
            player([(13, 8)], terrain="grass"),
        ],
    )
    st = load(pos)
    assert tiles_left(st)[(11, 17)] == 1 and tiles_left(st)[(15, 12)] == 1
    st.apply_string("build 11,18")  # next to Farm (11,17)
    st.apply_string("build 14,12")  # next to Farm (15,12)
    st.apply_string("build 15,11")  # next to Farm (15,12)
    assert tiles_of(st, 0) == [("farm", (11, 17), "ready")]
    assert taken_from(st, 0) == {(11, 17), (15, 12)}
    assert tiles_left(st)[(11, 17)] == 1 and tiles_left(st)[(15, 12)] == 1


def test_a_second_location_of_the_same_kind_gives_a_second_tile():
    """FAQ build 5: two tiles of one kind by settling next to both locations of that kind."""
    pos = position(
        BENCH_MAP,
        CARDS,
        [
            player([(10, 18), (14, 11)], terrain="grass", tiles=[tile("farm", (11, 17))], taken_from=[[11, 17]]),
            player([(13, 8)], terrain="grass"),
        ],
    )
    st = load(pos)
    st.apply_string("build 14,12")
    assert tiles_of(st, 0) == [("farm", (11, 17), "ready"), ("farm", (15, 12), "new")]
    assert tiles_left(st)[(15, 12)] == 1


def test_losing_one_of_two_tiles_of_a_kind_loses_the_one_used_this_turn():
    """FAQ build 6; rules.md "Location tiles": with two tiles of one kind, the one already used this
    turn is the one lost. Seat 0 used its Paddock tile of (6,11); its only settlement next to the
    Paddock location (2,18) is (1,17); the Harbor moves it onto water (1,15): one Paddock tile is lost,
    and the player keeps an unused one, so it may still jump this turn."""
    pos = position(
        BENCH_MAP,
        CARDS,
        [
            player(
                [(1, 17), (5, 10), (16, 7)],
                terrain="grass",
                tiles=[tile("paddock", (6, 11), "used"), tile("paddock", (2, 18)), tile("harbor", (17, 6))],
                taken_from=[[6, 11], [2, 18], [17, 6]],
            ),
            player([(13, 8)], terrain="grass"),
        ],
        built_this_turn=3,
    )
    st = load(pos)
    st.apply_string("harbor 1,17>1,15")
    assert tiles_of(st, 0) == [("harbor", (17, 6), "used"), ("paddock", (6, 11), "ready")]
    assert taken_from(st, 0) == {(6, 11), (2, 18), (17, 6)}
    assert tiles_left(st)[(2, 18)] == 1
    assert moves_of(st, "paddock") != []


def test_moving_the_last_settlement_by_a_location_to_another_hex_by_it_keeps_the_tile():
    """FAQ build 7; rules.md "Location tiles": the Paddock jumps (6,10) over its location (6,11) to
    (6,12), still next to it: the tile stays (used), and no new tile is taken."""
    pos = position(
        BENCH_MAP,
        CARDS,
        [
            player([(6, 10)], terrain="grass", tiles=[tile("paddock", (6, 11))], taken_from=[[6, 11]]),
            player([(13, 8)], terrain="grass"),
        ],
        built_this_turn=3,
    )
    st = load(pos)
    st.apply_string("paddock 6,10>6,12")
    assert tiles_of(st, 0) == [("paddock", (6, 11), "used")]
    assert tiles_left(st)[(6, 11)] == 1


def test_jumping_the_only_settlement_away_from_the_paddock_loses_its_tile_for_good():
    """FAQ tile 9; rules.md "Location tiles": jumping the only settlement next to the Paddock location
    away works but loses the tile, out of the game; coming back does not give it again."""
    pos = position(
        BENCH_MAP,
        CARDS,
        [
            player([(6, 10)], terrain="canyon", tiles=[tile("paddock", (6, 11))], taken_from=[[6, 11]]),
            player([(13, 8)], terrain="grass"),
        ],
    )
    st = load(pos)
    st.apply_string("paddock 6,10>6,8")
    assert tiles_of(st, 0) == []
    assert taken_from(st, 0) == {(6, 11)}
    assert tiles_left(st)[(6, 11)] == 1
    # canyon: (7,8) is next to (6,8), (7,9) next to (7,8), and (6,10) (by the Paddock location)
    # next to (7,9)
    st.apply_string("build 7,8")
    st.apply_string("build 7,9")
    st.apply_string("build 6,10")
    assert tiles_of(st, 0) == []
    assert tiles_left(st)[(6, 11)] == 1


def test_tiles_before_the_mandatory_build_may_use_up_the_supply():
    """FAQ build 8; rules.md "A turn" 2: tiles may be used before the mandatory build even if no
    settlement is then left for it; with fewer than 3 in the supply, the player builds all that remain.
    Seat 0 has 1 settlement left and an Oracle tile."""
    base = [(2, 7)]
    fill = filler(BENCH_MAP, 38, avoid="F", exclude=base + [(13, 8)])
    pos = position(
        BENCH_MAP,
        CARDS,
        [
            player(base + fill, terrain="flower", tiles=[tile("oracle", (3, 7))], taken_from=[[3, 7]]),
            player([(13, 8)], terrain="grass"),
        ],
    )
    st = load(pos)
    assert st.to_json()["players"][0]["supply"] == 1
    # flower next to (2,7): (3,6) only; the mandatory build and the Oracle both want it
    assert moves(st) == ["build 3,6", "oracle 3,6"]
    st.apply_string("oracle 3,6")
    assert st.to_json()["players"][0]["supply"] == 0
    assert moves(st) == ["end"]


def test_with_two_settlements_left_the_mandatory_build_is_two():
    """FAQ build 8; rules.md "A turn" 2: fewer than 3 in the supply: build all that remain."""
    base = [(2, 7)]
    fill = filler(BENCH_MAP, 37, avoid="F", exclude=base + [(13, 8)])
    pos = position(
        BENCH_MAP,
        CARDS,
        [
            player(base + fill, terrain="flower", tiles=[tile("oracle", (3, 7))], taken_from=[[3, 7]]),
            player([(13, 8)], terrain="grass"),
        ],
    )
    st = load(pos)
    assert moves(st) == ["build 3,6", "oracle 3,6"]
    st.apply_string("build 3,6")
    # (3,6) brings flower (4,6), (4,7); the Oracle waits until after the mandatory build

    assert moves(st) == ["build 4,6", "build 4,7"]
    st.apply_string("build 4,7")
    assert st.to_json()["players"][0]["supply"] == 0
    assert moves(st) == ["end"]


def test_the_played_card_is_discarded_and_a_new_one_drawn_at_the_end_of_the_turn():
    """FAQ build 9; rules.md "A turn" 4: at the end of the turn the played card goes to the discard
    pile and the player draws a new one."""
    pos = position(
        BENCH_MAP,
        CARDS,
        [
            player([(1, 7)], terrain="grass"),
            player([(13, 8)], terrain="desert"),
        ],
    )
    st = load(pos)
    before = st.to_json()
    for text in ("build 1,6", "build 2,7", "build 2,8", "end"):
        st.apply_string(text)
    after = st.to_json()
    assert after["discard"] == before["discard"] + ["grass"]
    assert len(after["deck"]) == len(before["deck"]) - 1
    assert after["players"][0]["terrain"] == before["deck"][0]
    assert st.current_player == 1


def test_the_turn_goes_on_after_the_last_settlement_is_built():
    """FAQ build 10; rules.md "A turn": placing the last settlement does not end the turn; move
    tiles may still be used. Seat 0 has 3 settlements left and a Paddock tile."""
    base = [(6, 10)]
    fill = filler(BENCH_MAP, 36, avoid="C", exclude=base + [(13, 8)])
    pos = position(
        BENCH_MAP,
        CARDS,
        [
            player(base + fill, terrain="canyon", tiles=[tile("paddock", (6, 11))], taken_from=[[6, 11]]),
            player([(13, 8)], terrain="grass"),
        ],
    )
    st = load(pos)
    for _ in range(3):
        build_any(st)
    assert st.to_json()["players"][0]["supply"] == 0
    assert "end" in moves(st)
    assert moves_of(st, "paddock") != []
    assert not st.is_over()


def test_an_empty_supply_still_takes_turns_with_move_tiles():
    """rules.md "A turn": a player whose supply is empty still takes turns and may use move tiles.
    Seat 1 (the last seat) has an empty supply and a Paddock tile; seat 0 emptied its supply too,
    so this is the final round."""
    base = [(6, 10)]
    fill = filler(BENCH_MAP, 39, avoid="", exclude=base + [(13, 8)])
    other = filler(BENCH_MAP, 80, avoid="", exclude=base + [(13, 8)] + fill)[40:]
    pos = position(
        BENCH_MAP,
        CARDS,
        [
            player([(13, 8)] + other[:39], terrain="grass"),
            player(base + fill, terrain="canyon", tiles=[tile("paddock", (6, 11))], taken_from=[[6, 11]]),
        ],
        to_move=1,
        final_round=True,
    )
    st = load(pos)
    assert st.to_json()["players"][1]["supply"] == 0
    paddock = moves_of(st, "paddock")
    assert paddock != []
    assert moves(st) == sorted(paddock + ["end"])
    st.apply_string("end")
    assert st.is_over()


def test_a_played_terrain_with_no_free_hex_is_removed_and_replaced():
    """FAQ build 1 (first case); rules.md "Building rules" 4; seed 000 "Правила строительства" 2:
    when no hex of the played terrain is free, in the middle of the mandatory build too, the card is
    removed from the game and a new one drawn, which is the played terrain for the rest of the turn.

    Every desert hex but (14,6) and (14,7) is taken; seat 0 (at (13,5), next to (14,6)) plays desert
    and builds both; the next card of the deck, forest, becomes the played terrain."""
    deserts = [h for h in hexes(BENCH_MAP, "D") if h not in [(14, 6), (14, 7)]]
    deck = ["forest"] + ["desert"] * 4 + ["grass"] * 4 + ["canyon"] * 5 + ["flower"] * 5 + ["forest"] * 4
    pos = position(
        BENCH_MAP,
        CARDS,
        [
            player([(13, 5)] + deserts[:20], terrain="desert"),
            player(deserts[20:], terrain="grass"),
        ],
        deck=deck,
    )
    st = load(pos)
    assert moves(st) == ["build 14,6"]
    st.apply_string("build 14,6")
    assert moves(st) == ["build 14,7"]
    st.apply_string("build 14,7")
    after = st.to_json()
    assert after["players"][0]["terrain"] == "forest"
    assert after["removed"] == ["desert"]
    assert after["discard"] == []
    assert after["deck"] == deck[1:]
    assert after["built_this_turn"] == 2
    own = [(13, 5), (14, 6), (14, 7)] + deserts[:20]
    occupied = own + deserts[20:]
    near = {n for h in own for n in neighbours(*h)}
    free = free_of(BENCH_MAP, "T", occupied)
    expected = builds([h for h in free if h in near] or free)
    assert moves(st) == expected


# -- tile actions --------------------------------------------------------------------------------


def test_the_oracle_builds_on_the_played_terrain_next_to_own_settlements():
    """FAQ tile 3 and tile 1: the Oracle builds on the played terrain, next to own settlements if
    possible. Seat 0 (2,7) plays flower: the only flower next to it is (3,6)."""
    pos = position(
        BENCH_MAP,
        CARDS,
        [
            player([(2, 7)], terrain="flower", tiles=[tile("oracle", (3, 7))], taken_from=[[3, 7]]),
            player([(13, 8)], terrain="grass"),
        ],
        built_this_turn=3,
    )
    st = load(pos)
    assert moves(st) == ["end", "oracle 3,6"]


def test_the_tower_builds_on_the_edge_next_to_own_settlements_if_possible():
    """FAQ tile 4; rules.md "The eight tiles": the Tower builds on any buildable edge hex, next to own
    settlements if one of those is. Seat 0 at (0,5) (desert, top edge): edge hexes (0,4), (0,6);
    (2,16), by the Tower location (3,15), is far from the edge."""
    pos = position(
        BARN_MAP,
        CARDS,
        [
            player([(0, 5), (2, 16)], terrain="grass", tiles=[tile("tower", (3, 15))], taken_from=[[3, 15]]),
            player([(13, 8)], terrain="grass"),
        ],
        built_this_turn=3,
    )
    st = load(pos)
    assert moves(st) == ["end", "tower 0,4", "tower 0,6"]


def test_the_tower_builds_anywhere_on_the_edge_when_no_edge_hex_is_next_to_own_settlements():
    """FAQ tile 4: no edge hex next to own settlements: any free buildable edge hex."""
    pos = position(
        BARN_MAP,
        CARDS,
        [
            player([(2, 16)], terrain="grass", tiles=[tile("tower", (3, 15))], taken_from=[[3, 15]]),
            player([(0, 5)], terrain="grass"),
        ],
        built_this_turn=3,
    )
    st = load(pos)
    edge = [h for h in hexes(BARN_MAP, "GCDFT") if h[0] in (0, 19) or h[1] in (0, 19)]
    expected = builds([h for h in edge if h != (0, 5)], "tower")
    assert len(expected) == 58
    assert moves(st) == ["end"] + expected


def test_the_tavern_extends_straight_lines_only():
    """FAQ tile 5; rules.md "The eight tiles": the Tavern builds at either end of a straight line of 3
    or more own settlements, never at the end of a bent one.

    Seat 0: (9,5), (9,6), (9,7) in a west-east line: ends (9,4) water (no) and (9,8) forest (yes);
    (8,7), (9,7), (9,6) is bent ((8,7)-(9,7) runs NW-SE, (9,7)-(9,6) west-east) and (9,6), (8,7),
    (7,7) is no line: (7,7) is a castle. (17,11) keeps the Tavern tile of (16,12)."""
    pos = position(
        BARN_MAP,
        CARDS,
        [
            player(
                [(9, 5), (9, 6), (9, 7), (8, 7), (17, 11)],
                terrain="grass",
                tiles=[tile("tavern", (16, 12))],
                taken_from=[[16, 12]],
            ),
            player([(13, 8)], terrain="grass"),
        ],
        built_this_turn=3,
    )
    st = load(pos)
    assert moves(st) == ["end", "tavern 9,8"]


def test_no_tavern_without_a_line_of_three():
    """FAQ tile 2 and tile 5: a tile with no target cannot be used; nothing is given instead.
    Seat 0's settlements (9,5), (9,6), (8,7) make no straight line of 3 ((17,11) stands alone)."""
    pos = position(
        BARN_MAP,
        CARDS,
        [
            player(
                [(9, 5), (9, 6), (8, 7), (17, 11)],
                terrain="grass",
                tiles=[tile("tavern", (16, 12))],
                taken_from=[[16, 12]],
            ),
            player([(13, 8)], terrain="grass"),
        ],
        built_this_turn=3,
    )
    st = load(pos)
    assert moves(st) == ["end"]
    refused(st, "tavern 9,7", "hex 9,7 is not at the end of a straight line of 3 or more of your settlements")


def test_the_barn_judges_adjacency_after_lifting_and_may_put_back():
    """FAQ tile 6 (its example): three settlements on a canyon patch with no other canyon next to
    them; the Barn (played terrain canyon) lifts one first, and then the only canyon next to the other
    two is the hex it left, so each can only be put back. Seat 0 stands on the canyons (5,1), (5,2),
    (5,3), next to the Barn location (6,2); the only other canyons next to them, (4,1) and (4,2), hold
    seat 1's settlements."""
    pos = position(
        BARN_MAP,
        CARDS,
        [
            player([(5, 1), (5, 2), (5, 3)], terrain="canyon", tiles=[tile("barn", (6, 2))], taken_from=[[6, 2]]),
            player([(4, 1), (4, 2)], terrain="grass"),
        ],
        built_this_turn=3,
    )
    st = load(pos)
    assert moves(st) == ["barn 5,1>5,1", "barn 5,2>5,2", "barn 5,3>5,3", "end"]
    st.apply_string("barn 5,2>5,2")
    assert {tuple(h) for h in st.to_json()["players"][0]["settlements"]} == {(5, 1), (5, 2), (5, 3)}
    assert tiles_of(st, 0) == [("barn", (6, 2), "used")]
    assert moves(st) == ["end"]


def test_the_harbor_moves_onto_water_next_to_own_settlements():
    """FAQ tile 1 and tile 6; rules.md "The eight tiles": the Harbor moves a settlement onto water, next
    to the player's other settlements if possible (judged after lifting). Seat 0: (3,8) and (2,8);
    water next to (3,8): (4,8), (4,9); next to (2,8): none. Lifting (3,8) leaves (2,8), with no water
    next to it: then any free water hex."""
    pos = position(
        BENCH_MAP,
        CARDS,
        [
            player(
                [(3, 8), (2, 8), (16, 7)],
                terrain="grass",
                tiles=[tile("harbor", (17, 6)), tile("oracle", (3, 7), "used")],
                taken_from=[[17, 6], [3, 7]],
            ),
            player([(13, 8)], terrain="grass"),
        ],
        built_this_turn=3,
    )
    st = load(pos)
    harbor = moves_of(st, "harbor")
    water = hexes(BENCH_MAP, "W")
    # lifting (2,8) or (16,7): water next to the rest is (4,8), (4,9) (next to (3,8))
    assert [m for m in harbor if m.startswith("harbor 2,8>")] == ["harbor 2,8>4,8", "harbor 2,8>4,9"]
    assert [m for m in harbor if m.startswith("harbor 16,7>")] == ["harbor 16,7>4,8", "harbor 16,7>4,9"]
    # lifting (3,8): no water next to (2,8) or (16,7): every water hex
    assert [m for m in harbor if m.startswith("harbor 3,8>")] == sorted(f"harbor 3,8>{r},{c}" for r, c in water)


def test_the_paddock_jumps_two_in_a_line_onto_free_buildable_hexes_only():
    """FAQ tile 7, tile 8; rules.md "The eight tiles": the Paddock jumps exactly 2 hexes in a straight
    line over anything, onto a free buildable hex whatever the played terrain, never onto water,
    mountain, castle, location or a settlement, and ignores adjacency.

    (9,16) jumps: W (9,14) water, E (9,18) seat 1, NW (7,15) castle, NE (7,17) flower, SW (11,15)
    seat 1, SE (11,17) location. (5,14): W (5,12) forest, E (5,16) canyon, NW (3,13) and NE (3,15)
    mountains, SW (7,13) water, SE (7,15) castle. (6,10): W (6,8), E (6,12), NE (4,11), SW (8,9),
    SE (8,11); NW (4,9) is water."""
    pos = position(
        BENCH_MAP,
        CARDS,
        [
            player(
                [(9, 16), (5, 14), (6, 10)], terrain="grass", tiles=[tile("paddock", (6, 11))], taken_from=[[6, 11]]
            ),
            player([(9, 18), (11, 15)], terrain="grass"),
        ],
        built_this_turn=3,
    )
    st = load(pos)
    assert moves(st) == [
        "end",
        "paddock 5,14>5,12",
        "paddock 5,14>5,16",
        "paddock 6,10>4,11",
        "paddock 6,10>6,12",
        "paddock 6,10>6,8",
        "paddock 6,10>8,11",
        "paddock 6,10>8,9",
        "paddock 9,16>7,17",
    ]


# -- end of the game -----------------------------------------------------------------------------


def _low_supply(left: list[int], to_move: int = 0):
    """A position on the benchmark map whose seats have ``left[i]`` settlements in their supply;
    every seat plays grass and has room to build."""
    used: list[tuple[int, int]] = []
    players = []
    for n in left:
        mine = filler(BENCH_MAP, 40 - n, avoid="G", exclude=used)
        used += mine
        players.append(player(mine, terrain="grass"))
    return position(BENCH_MAP, CARDS, players, to_move=to_move)


def test_the_round_is_finished_after_a_supply_runs_out():
    """rules.md "End of the game"; seed 000 "Конец игры": when a supply runs out, the round is
    finished: the game ends after the last seat's turn. Seat 0 (start player) of 3 empties its supply;
    seats 1 and 2 still play, seat 0 does not play again."""
    st = load(_low_supply([3, 20, 20]))
    for _ in range(3):
        build_any(st)
    st.apply_string("end")
    assert not st.is_over() and st.current_player == 1
    for seat in (1, 2):
        assert st.current_player == seat
        for _ in range(3):
            build_any(st)
        assert not st.is_over()
        st.apply_string("end")
    assert st.is_over()
    assert [p["supply"] for p in st.to_json()["players"]] == [0, 17, 17]


def test_the_last_seat_emptying_its_supply_ends_the_game_with_its_turn():
    """rules.md "End of the game": if the last seat (right of the start player) empties its own
    supply, the game ends with its turn."""
    st = load(_low_supply([20, 3], to_move=1))
    for _ in range(3):
        build_any(st)
    assert not st.is_over()
    st.apply_string("end")
    assert st.is_over()


def test_the_last_seat_is_the_one_before_the_start_player():
    """rules.md "End of the game"; seed 000 "Конец игры": the last turn is played by the seat to the
    right of the start player. Start player 1 of 3: seat 2 empties its supply, seat 0 (the last seat)
    still plays, seat 1 does not."""
    pos = _low_supply([20, 20, 3], to_move=2)
    pos["start_player"] = 1
    st = load(pos)
    for _ in range(3):
        build_any(st)
    st.apply_string("end")
    assert not st.is_over() and st.current_player == 0
    for _ in range(3):
        build_any(st)
    st.apply_string("end")
    assert st.is_over()


def test_the_game_goes_on_while_no_supply_is_empty():
    """rules.md "End of the game": the game ends only after a supply ran out. Seat 1 (the last seat)
    ends its turn with 1 settlement left: seat 0 plays again."""
    st = load(_low_supply([20, 4], to_move=1))
    for _ in range(3):
        build_any(st)
    st.apply_string("end")
    assert not st.is_over() and st.current_player == 0
    assert st.to_json()["final_round"] is False


# -- scoring -------------------------------------------------------------------------------------


def score(pos) -> dict:
    """The gold of each seat as the position stands: {"players": [{"cards": {...}, "total"}]}."""
    parts = load(pos).score_breakdown()
    return {"players": [{"cards": part, "total": sum(part.values())} for part in parts]}


def cards_of(data, seat):
    return data["players"][seat]["cards"]


def test_castles_score_per_castle_not_per_settlement():
    """FAQ score 1; rules.md "Scoring": 3 gold per castle with at least one own settlement next to
    it. Seat 0: two settlements by the castle (1,3), one by the castle (7,2): 6 gold."""
    pos = position(
        BENCH_MAP,
        ["discoverers", "knights", "hermits"],
        [
            player([(0, 3), (1, 2), (7, 3)]),
            player([(13, 8)]),
        ],
    )
    data = score(pos)
    assert cards_of(data, 0)["castles"] == 6
    assert cards_of(data, 1)["castles"] == 0


def test_fishermen_score_per_settlement_by_water_and_not_on_water():
    """FAQ score 3, score 4: Fishermen give 1 per settlement next to water (not per water hex), and
    nothing for a settlement standing on water (which still counts for the other cards).
    Seat 0: (3,8) next to two water hexes (4,8), (4,9): 1; (3,9) next to (4,9): 1; (5,6) stands on
    water: 0 for Fishermen, but a row and a group for Discoverers and Hermits."""
    pos = position(
        BENCH_MAP,
        ["fishermen", "discoverers", "hermits"],
        [
            player([(3, 8), (3, 9), (5, 6)]),
            player([(13, 8)]),
        ],
    )
    data = score(pos)
    assert cards_of(data, 0) == {"castles": 0, "fishermen": 2, "discoverers": 2, "hermits": 2}
    assert data["players"][0]["total"] == 6


def test_merchants_two_chains_score_like_one_long_chain():
    """FAQ score 5; rules.md "Scoring" (Merchants): groups A-B and C-D score 16, as one chain
    A-B-C-D does. A = castle (7,15), B = Farm (11,17), C = Farm (15,12), D = castle (11,11)."""
    ab = [(8, 16), (9, 16), (10, 17)]
    cd = [(12, 11), (13, 11), (14, 12)]
    bc = [(11, 16), (12, 16), (13, 15), (14, 15), (14, 14), (15, 13)]
    cards = ["merchants", "hermits", "citizens"]
    two = score(position(BENCH_MAP, cards, [player(ab + cd), player([(1, 1)])]))
    assert cards_of(two, 0) == {"castles": 6, "merchants": 16, "hermits": 2, "citizens": 1}
    one = score(position(BENCH_MAP, cards, [player(ab + bc + cd), player([(1, 1)])]))
    # ab + bc is one group of 9; cd joins it only through the location C, which links for Merchants
    assert cards_of(one, 0) == {"castles": 6, "merchants": 16, "hermits": 2, "citizens": 4}
    only_bc = score(position(BENCH_MAP, cards, [player(bc), player([(1, 1)])]))
    assert cards_of(only_bc, 0) == {"castles": 0, "merchants": 8, "hermits": 1, "citizens": 3}
    lone = score(position(BENCH_MAP, cards, [player(ab[:1] + cd[:1]), player([(1, 1)])]))
    assert cards_of(lone, 0)["merchants"] == 0


def test_discoverers_knights_hermits_citizens_need_no_connection():
    """FAQ score 6, 7, 8, 12: Discoverers 1 per row with a settlement; Knights 2 per settlement of the
    best row (connected or not); Hermits 1 per group (a lone settlement is one); Citizens half the
    largest group. Seat 0: row 12 holds (12,0), (12,1), (12,5), (12,9); rows 13 and 14 hold (13,0)
    and (14,0); {(12,0), (12,1), (13,0), (14,0)} is one group, (12,5) and (12,9) stand alone."""
    pos = position(
        BENCH_MAP,
        ["discoverers", "knights", "hermits"],
        [
            player([(12, 0), (12, 1), (12, 5), (12, 9), (13, 0), (14, 0)]),
            player([(1, 1)]),
        ],
    )
    data = score(pos)
    assert cards_of(data, 0) == {"castles": 0, "discoverers": 3, "knights": 8, "hermits": 3}
    pos["cards"] = ["citizens", "miners", "workers"]
    data = score(pos)
    # the largest group has 4 settlements: 2 gold
    assert cards_of(data, 0)["citizens"] == 2


def test_lords_ties_share_first_and_second_place():
    """FAQ score 9, 10, 11; rules.md "Scoring" (Lords): counts 10, 10, 8, 8 in a sector give 12, 12,
    6, 6; zero counts take part (all 0: all 12)."""
    top = hexes(BENCH_MAP, "GCDFT")
    slot0 = [h for h in top if h[0] < 10 and h[1] < 10]
    assert len(slot0) >= 36
    p = [slot0[0:10], slot0[10:20], slot0[20:28], slot0[28:36]]
    pos = position(BENCH_MAP, ["lords", "hermits", "discoverers"], [player(s) for s in p])
    data = score(pos)
    # sector 0: 10, 10, 8, 8 -> 12, 12, 6, 6; the three other sectors: all 0 -> 12 each
    assert [cards_of(data, s)["lords"] for s in range(4)] == [12 + 36, 12 + 36, 6 + 36, 6 + 36]


def test_lords_a_zero_count_can_be_second():
    """rules.md "Scoring" (Lords): counts 5 and 0 give 12 and 6; FAQ score 11."""
    pos = position(
        BENCH_MAP,
        ["lords", "hermits", "discoverers"],
        [
            player([(0, 0), (0, 1), (0, 2), (0, 3), (0, 4)]),
            player([]),
        ],
    )
    data = score(pos)
    # sector 0: 12 and 6; sectors 1-3: 0 and 0 -> 12 each
    assert cards_of(data, 0)["lords"] == 12 + 36
    assert cards_of(data, 1)["lords"] == 6 + 36


def test_lords_second_place_is_the_second_highest_distinct_count():
    """rules.md "Scoring" (Lords): 12 to every player with the highest count, 6 to every player with
    the second-highest distinct count; FAQ score 9. Sector 0 counts 3, 3, 0: 12, 12, 6."""
    pos = position(
        BENCH_MAP,
        ["lords", "hermits", "discoverers"],
        [
            player([(0, 0), (0, 1), (0, 2)]),
            player([(2, 0), (2, 1), (2, 2)]),
            player([]),
        ],
    )
    data = score(pos)
    assert [cards_of(data, s)["lords"] for s in range(3)] == [12 + 36, 12 + 36, 6 + 36]


def test_knights_count_one_best_row_only():
    """seed 000 (Knights note): with several rows tied for the most settlements, only one scores.
    Seat 0: 2 settlements on row 0 and 2 on row 2: 4 gold."""
    pos = position(
        BENCH_MAP,
        ["knights", "hermits", "discoverers"],
        [
            player([(0, 0), (0, 1), (2, 0), (2, 1)]),
            player([(13, 8)]),
        ],
    )
    assert cards_of(score(pos), 0)["knights"] == 4


def test_farmers_need_a_settlement_in_every_sector():
    """FAQ score 13; rules.md "Scoring" (Farmers): 3 per settlement in the player's weakest sector, 0
    if a sector has none."""
    pos = position(
        BENCH_MAP,
        ["farmers", "hermits", "discoverers"],
        [
            player([(0, 0), (0, 1), (0, 12), (0, 13), (12, 0), (12, 1), (12, 12), (12, 13), (13, 13)]),
            player([(0, 6), (0, 17), (12, 6)]),
        ],
    )
    data = score(pos)
    assert cards_of(data, 0)["farmers"] == 6
    assert cards_of(data, 1)["farmers"] == 0


def test_miners_and_workers_score_per_settlement():
    """FAQ score 4: Miners and Workers give 1 per settlement next to a mountain / castle or location,
    not per hex. Seat 0: (4,0) is next to the mountain (5,0), (4,1) to the mountains (5,0) and (5,1):
    one each; (0,3) and (1,2) are next to the castle (1,3) and (2,8) to the Oracle location (3,7).
    Groups: {(0,3), (1,2)}, {(4,0), (4,1)}, {(2,8)}."""
    pos = position(
        BENCH_MAP,
        ["miners", "workers", "hermits"],
        [
            player([(4, 0), (4, 1), (0, 3), (2, 8), (1, 2)], tiles=[tile("oracle", (3, 7))]),
            player([(13, 8)]),
        ],
    )
    data = score(pos)
    assert cards_of(data, 0) == {"castles": 3, "miners": 2, "workers": 3, "hermits": 3}
