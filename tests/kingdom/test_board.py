"""The map: section data, turning, geometry and the precomputed masks (boards.md)."""

from __future__ import annotations

from collections import Counter

import pytest

from builders.kingdom.board import (
    CELLS,
    DIRECTIONS,
    EDGE,
    JUMP_DELTA,
    JUMP_FROM,
    bits,
    cell,
    dilate,
    get_board,
    index,
    neighbours,
    on_map,
    shift,
    step,
)
from builders.kingdom.data import SECTION_NAMES, SECTIONS, section_rows

# boards.md, "The sections (unturned)": terrain counts per section
COUNTS = {
    "oracle": dict(G=16, C=14, D=15, F=15, T=15, W=17, M=5),
    "farm": dict(G=14, C=14, D=12, F=14, T=15, W=26, M=2),
    "oasis": dict(G=14, C=12, D=11, F=14, T=12, W=34, M=0),
    "tower": dict(G=15, C=15, D=16, F=15, T=13, W=13, M=10),
    "tavern": dict(G=17, C=15, D=15, F=15, T=16, W=10, M=9),
    "barn": dict(G=16, C=17, D=18, F=13, T=15, W=5, M=13),
    "harbor": dict(G=16, C=14, D=14, F=13, T=14, W=21, M=5),
    "paddock": dict(G=16, C=14, D=15, F=14, T=15, W=10, M=13),
}
# boards.md: castles and location hexes of each section (local coordinates, unturned)
CASTLES = {
    "oracle": [(1, 3), (7, 2)],
    "farm": [(1, 1)],
    "oasis": [(7, 1)],
    "tower": [(6, 7)],
    "tavern": [(3, 3)],
    "barn": [(7, 7)],
    "harbor": [(4, 2), (8, 2)],
    "paddock": [(7, 5)],
}
LOCATIONS = {
    "oracle": [(3, 7)],
    "farm": [(1, 7), (5, 2)],
    "oasis": [(2, 7), (7, 5)],
    "tower": [(3, 5), (7, 2)],
    "tavern": [(6, 2), (6, 7)],
    "barn": [(2, 6), (6, 2)],
    "harbor": [(7, 6)],
    "paddock": [(2, 8), (6, 1)],
}
FIRST = [("tavern", False), ("paddock", False), ("oasis", False), ("farm", False)]


def cells_of(name, letter, turned=False):
    rows = section_rows(name, turned)
    return [(r, c) for r in range(10) for c in range(10) if rows[r][c] == letter]


@pytest.mark.parametrize("name", SECTION_NAMES)
def test_section_terrain_counts(name):
    """boards.md: terrain counts per section; 10 x 10 hexes."""
    rows = SECTIONS[name]
    assert len(rows) == 10 and all(len(r) == 10 for r in rows)
    counts = Counter("".join(rows))
    expected = dict(COUNTS[name], K=len(CASTLES[name]), L=len(LOCATIONS[name]))
    assert {k: v for k, v in counts.items() if v} == {k: v for k, v in expected.items() if v}


@pytest.mark.parametrize("name", SECTION_NAMES)
def test_section_castles_and_locations(name):
    """boards.md: the castles and location hexes of each section."""
    assert cells_of(name, "K") == CASTLES[name]
    assert cells_of(name, "L") == LOCATIONS[name]


def test_totals():
    """boards.md, "Totals": 10 castles, 14 location hexes, 28 tiles (2 per location hex)."""
    assert sum(len(v) for v in CASTLES.values()) == 10
    assert sum(len(v) for v in LOCATIONS.values()) == 14
    tiles = Counter({name: 2 * len(LOCATIONS[name]) for name in SECTION_NAMES})
    assert tiles == Counter(oracle=2, harbor=2, farm=4, oasis=4, tower=4, tavern=4, barn=4, paddock=4)
    assert sum(tiles.values()) == 28


@pytest.mark.parametrize("name", SECTION_NAMES)
def test_specials_off_the_ring_apart_and_no_hex_touches_two(name):
    """boards.md, "Totals": no castle or location on a section's outer ring; no two touch; no
    buildable hex touches two."""
    specials = set(cells_of(name, "K") + cells_of(name, "L"))
    for r, c in specials:
        assert 0 < r < 9 and 0 < c < 9
        assert not specials & set(neighbours(r, c))
    for r in range(10):
        for c in range(10):
            if SECTIONS[name][r][c] in "GCDFT":
                assert len(specials & set(neighbours(r, c))) <= 1


def test_turning_moves_r_c_to_9_minus():
    """boards.md, "Geometry": a turned section moves cell (r, c) to (9 - r, 9 - c)."""
    for name in SECTION_NAMES:
        turned = section_rows(name, True)
        for r in range(10):
            for c in range(10):
                assert turned[9 - r][9 - c] == SECTIONS[name][r][c]
    assert cells_of("oracle", "K", turned=True) == [(2, 7), (8, 6)]
    assert cells_of("oracle", "L", turned=True) == [(6, 2)]


def test_map_slots_and_location_kinds():
    """boards.md, "Geometry": slot k puts local (r, c) at global (r + 10*(k >= 2), c + 10*(k odd))."""
    board = get_board(FIRST)
    assert [(cell(h), board.kind_name(h)) for h in board.locations] == [
        ((2, 18), "paddock"),
        ((6, 2), "tavern"),
        ((6, 7), "tavern"),
        ((6, 11), "paddock"),
        ((11, 17), "farm"),
        ((12, 7), "oasis"),
        ((15, 12), "farm"),
        ((17, 5), "oasis"),
    ]
    assert [cell(h) for h in board.castles] == [(3, 3), (7, 15), (11, 11), (17, 1)]
    turned = get_board([("oracle", True), ("tower", False), ("barn", False), ("harbor", True)])
    assert [cell(h) for h in turned.castles] == [(2, 7), (6, 17), (8, 6), (11, 17), (15, 17), (17, 7)]
    assert [(cell(h), turned.kind_name(h)) for h in turned.locations] == [
        ((3, 15), "tower"),
        ((6, 2), "oracle"),
        ((7, 12), "tower"),
        ((12, 6), "barn"),
        ((12, 13), "harbor"),
        ((16, 2), "barn"),
    ]


def test_board_is_cached():
    assert get_board(FIRST) is get_board([["tavern", False], ["paddock", False], ["oasis", False], ["farm", False]])


def test_neighbours_odd_r():
    """boards.md, "Geometry": neighbours for even and odd rows, dropping cells off the map."""
    assert sorted(neighbours(4, 4)) == [(3, 3), (3, 4), (4, 3), (4, 5), (5, 3), (5, 4)]
    assert sorted(neighbours(3, 4)) == [(2, 4), (2, 5), (3, 3), (3, 5), (4, 4), (4, 5)]
    assert sorted(neighbours(0, 0)) == [(0, 1), (1, 0)]
    assert sorted(neighbours(19, 19)) == [(18, 19), (19, 18)]
    assert sorted(neighbours(1, 19)) == [(0, 19), (1, 18), (2, 19)]


def test_neighbours_across_seams():
    """boards.md: "the seams need no special case": (9, 9) touches all four sections."""
    assert sorted(neighbours(9, 9)) == [(8, 9), (8, 10), (9, 8), (9, 10), (10, 9), (10, 10)]
    assert sorted(neighbours(10, 10)) == [(9, 9), (9, 10), (10, 9), (10, 11), (11, 9), (11, 10)]


def test_board_neighbour_masks_and_dilate():
    """The precomputed neighbour masks match the neighbour rule, and dilate() is their union."""
    board = get_board(FIRST)
    for h in range(CELLS):
        assert sorted(cell(j) for j in bits(board.nbr_mask[h])) == sorted(neighbours(*cell(h)))
        assert dilate(1 << h) == board.nbr_mask[h]
    m = (1 << index(0, 0)) | (1 << index(9, 9)) | (1 << index(19, 19))
    assert dilate(m) == board.nbr_mask[0] | board.nbr_mask[189] | board.nbr_mask[399]


def test_shift_is_one_step_and_jumps_are_two():
    """Straight lines (Tavern, Paddock) are repeated steps in one of the six directions."""
    for h in range(CELLS):
        r, c = cell(h)
        for d in DIRECTIONS:
            r1, c1 = step(r, c, d)
            assert shift(1 << h, d) == ((1 << index(r1, c1)) if on_map(r1, c1) else 0)
            r2, c2 = step(r1, c1, d)
            if on_map(r2, c2):
                assert JUMP_FROM[d] >> h & 1 and h + JUMP_DELTA[d] == index(r2, c2)
            else:
                assert not JUMP_FROM[d] >> h & 1


def test_edge_and_sectors():
    """boards.md: the edge is row 0 or 19 or column 0 or 19; sectors are the four sections."""
    assert EDGE.bit_count() == 76
    board = get_board(FIRST)
    assert board.sector_of[index(9, 10)] == 1 and board.sector_of[index(10, 9)] == 2
    assert board.edge_buildable.bit_count() == sum(
        1 for r in range(20) for c in range(20) if (r in (0, 19) or c in (0, 19)) and board.letter(r, c) in "GCDFT"
    )
