"""The Kingdom Builder map: geometry, terrain and precomputed bit masks.

A map is 20 x 20 pointy-top hexes, row 0 on top, odd rows shifted half a hex to the right ("odd-r").
Hex (R, C) has index ``R * 20 + C``; a set of hexes is a Python int with bit ``index`` set (a
"mask"). A :class:`Board` is built once per choice of sections and orientations and cached.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache

from builders.kingdom.data import SECTION_NAMES, map_rows

SIZE = 20
CELLS = SIZE * SIZE
FULL = (1 << CELLS) - 1

#: terrain codes: 0-4 are the buildable terrains in data.TERRAINS order
GRASS, CANYON, DESERT, FLOWER, FOREST, WATER, MOUNTAIN, CASTLE, LOCATION = range(9)
CODE_OF_LETTER = {
    "G": GRASS,
    "C": CANYON,
    "D": DESERT,
    "F": FLOWER,
    "T": FOREST,
    "W": WATER,
    "M": MOUNTAIN,
    "K": CASTLE,
    "L": LOCATION,
}
TERRAIN_WORDS = ("grass", "canyon", "desert", "flower", "forest", "water", "mountain", "castle", "location")

#: the six directions of straight lines
DIRECTIONS = ("W", "E", "NW", "NE", "SW", "SE")
OPPOSITE = {"W": "E", "E": "W", "NW": "SE", "SE": "NW", "NE": "SW", "SW": "NE"}

BIT = [1 << i for i in range(CELLS)]


def index(row: int, col: int) -> int:
    return row * SIZE + col


def on_map(row: int, col: int) -> bool:
    return 0 <= row < SIZE and 0 <= col < SIZE


def step(row: int, col: int, direction: str) -> tuple[int, int]:
    """The hex one step from (row, col) in ``direction`` (it may be off the map)."""
    odd = row & 1
    if direction == "W":
        return row, col - 1
    if direction == "E":
        return row, col + 1
    if direction == "NW":
        return row - 1, col - 1 + odd
    if direction == "NE":
        return row - 1, col + odd
    if direction == "SW":
        return row + 1, col - 1 + odd
    if direction == "SE":
        return row + 1, col + odd
    raise ValueError(f"unknown direction {direction!r}")


def neighbours(row: int, col: int) -> list[tuple[int, int]]:
    """The on-map neighbours of (row, col), in DIRECTIONS order."""
    out = []
    for d in DIRECTIONS:
        r, c = step(row, col, d)
        if on_map(r, c):
            out.append((r, c))
    return out


def _mask(cells: Iterable[tuple[int, int]]) -> int:
    m = 0
    for r, c in cells:
        m |= 1 << index(r, c)
    return m


ALL_CELLS = [(r, c) for r in range(SIZE) for c in range(SIZE)]
ROW_MASKS = [_mask((r, c) for c in range(SIZE)) for r in range(SIZE)]
COL0 = _mask((r, 0) for r in range(SIZE))
COL19 = _mask((r, SIZE - 1) for r in range(SIZE))
EVEN_ROWS = _mask((r, c) for r, c in ALL_CELLS if r % 2 == 0)
ODD_ROWS = FULL ^ EVEN_ROWS
EDGE = _mask((r, c) for r, c in ALL_CELLS if r in (0, SIZE - 1) or c in (0, SIZE - 1))
SECTOR_MASKS = [_mask((r, c) for r, c in ALL_CELLS if (r >= 10) * 2 + (c >= 10) == k) for k in range(4)]
NOT_COL0 = FULL ^ COL0
NOT_COL19 = FULL ^ COL19
_EVEN_NOT_COL0 = EVEN_ROWS & NOT_COL0
_ODD_NOT_COL19 = ODD_ROWS & NOT_COL19


def dilate(m: int) -> int:
    """Every hex next to a hex of ``m`` (not ``m`` itself unless a hex of it has a neighbour in it)."""
    e = m & _EVEN_NOT_COL0
    o = m & _ODD_NOT_COL19
    return (
        ((m & NOT_COL19) << 1)
        | ((m & NOT_COL0) >> 1)
        | (m >> 20)
        | (m << 20)
        | (e >> 21)
        | (e << 19)
        | (o >> 19)
        | (o << 21)
    ) & FULL


def shift(m: int, direction: str) -> int:
    """Every hex one step in ``direction`` from a hex of ``m`` (on the map)."""
    if direction == "E":
        return (m & NOT_COL19) << 1
    if direction == "W":
        return (m & NOT_COL0) >> 1
    e = m & EVEN_ROWS
    o = m & ODD_ROWS
    if direction == "NW":
        return ((e & NOT_COL0) >> 21) | (o >> 20)
    if direction == "NE":
        return (e >> 20) | ((o & NOT_COL19) >> 19)
    if direction == "SW":
        return (((e & NOT_COL0) << 19) | (o << 20)) & FULL
    if direction == "SE":
        return ((e << 20) | ((o & NOT_COL19) << 21)) & FULL
    raise ValueError(f"unknown direction {direction!r}")


#: two steps in one direction move the index by a constant, whatever the row parity
JUMP_DELTA = {"W": -2, "E": 2, "NW": -41, "NE": -39, "SW": 39, "SE": 41}
#: the hexes from which a two-step jump in a direction stays on the map
JUMP_FROM = {d: _mask((r, c) for r, c in ALL_CELLS if on_map(*step(*step(r, c, d), d))) for d in DIRECTIONS}


def bits(m: int) -> list[int]:
    """The indices of the set bits of ``m``, lowest first.

    The loop takes the highest bit each time (one big-int operation per bit, and the mask shrinks as
    it goes) and turns the list round at the end: faster than peeling the lowest bit off."""
    out = []
    while m:
        h = m.bit_length() - 1
        out.append(h)
        m ^= BIT[h]
    out.reverse()
    return out


#: the move generators' name for :func:`bits`
bit_list = bits


def cell(i: int) -> tuple[int, int]:
    return divmod(i, SIZE)


def hex_name(i: int) -> str:
    r, c = divmod(i, SIZE)
    return f"{r},{c}"


#: the geometry every map shares, computed once: each hex's neighbours (DIRECTIONS order), as
#: indices and as a mask, and its sector (the slot of the section it lies in)
NBRS = [[index(r, c) for r, c in neighbours(*cell(i))] for i in range(CELLS)]
NBR_MASK = [_mask(cell(j) for j in ns) for ns in NBRS]
SECTOR_OF = [(r >= 10) * 2 + (c >= 10) for r, c in ALL_CELLS]
SECTOR_HEXES = [[i for i in range(CELLS) if SECTOR_OF[i] == k] for k in range(4)]
_CODE_CHARS = str.maketrans({letter: chr(code) for letter, code in CODE_OF_LETTER.items()})
#: what one section turned one way puts in one slot: the masks and the hexes of each terrain code,
#: the same on every map with it there (at most 8 x 2 x 4 entries)
_QUARTERS: dict[tuple[tuple[str, bool], int], tuple[list[int], list[list[int]]]] = {}


def _quarter(section: tuple[str, bool], slot: int, terrain: list[int]) -> tuple[list[int], list[list[int]]]:
    """(mask of each terrain code, hexes of each code) of the slot ``slot`` of a map with ``section``
    there, whose terrain codes are ``terrain``."""
    key = (section, slot)
    found = _QUARTERS.get(key)
    if found is None:
        masks: list[int] = [0] * 9
        hexes: list[list[int]] = [[] for _ in range(9)]
        for i in SECTOR_HEXES[slot]:
            code = terrain[i]
            masks[code] |= BIT[i]
            hexes[code].append(i)
        found = _QUARTERS[key] = (masks, hexes)
    return found


class Board:
    """One map: 4 sections in slots 0-3, each turned or not. Build it with :func:`get_board`.

    The neighbour lists and masks (``nbrs``, ``nbr_mask``) and ``sector_of`` are the module's own
    lists, the same for every map: read them, never change them."""

    def __init__(self, sections: tuple[tuple[str, bool], ...]):
        self.sections = sections
        self.rows = map_rows(sections)
        self.letters = "".join(self.rows)
        self.terrain = list(self.letters.translate(_CODE_CHARS).encode("latin-1"))
        self.nbrs = NBRS
        self.nbr_mask = NBR_MASK
        quarters = [_quarter(section, slot, self.terrain) for slot, section in enumerate(sections)]
        self.code_mask = [
            quarters[0][0][c] | quarters[1][0][c] | quarters[2][0][c] | quarters[3][0][c] for c in range(9)
        ]
        self.buildable = 0
        for code in range(5):
            self.buildable |= self.code_mask[code]
        self.water = self.code_mask[WATER]
        self.mountain = self.code_mask[MOUNTAIN]
        self.castle = self.code_mask[CASTLE]
        self.location = self.code_mask[LOCATION]
        self.special = self.castle | self.location
        self.castles = bits(self.castle)
        self.locations = bits(self.location)
        #: kind index (SECTION_NAMES order) of each location hex
        self.loc_kind = {}
        self.kind_mask = [0] * len(SECTION_NAMES)
        for h in self.locations:
            r, c = cell(h)
            kind = SECTION_NAMES.index(sections[(r >= 10) * 2 + (c >= 10)][0])
            self.loc_kind[h] = kind
            self.kind_mask[kind] |= 1 << h
        #: ordinal of each location hex (for the tiles-left counters)
        self.loc_ord = {h: n for n, h in enumerate(self.locations)}
        #: per hex, the mask of location hexes next to it
        adj_loc = [0] * CELLS
        for h in self.locations:
            for j in NBRS[h]:
                adj_loc[j] |= BIT[h]
        self.adj_loc = adj_loc
        self.near_water = dilate(self.water)
        self.near_mountain = dilate(self.mountain)
        self.near_special = dilate(self.special)
        self.edge_buildable = EDGE & self.buildable
        #: the hexes of each terrain code, in index order (a list of them less the few taken ones is
        #: cheaper to make than reading a mask of many hexes bit by bit)
        top, bottom = (quarters[0][1], quarters[1][1]), (quarters[2][1], quarters[3][1])  # rows 0-9, rows 10-19
        self.code_hexes = [tuple(sorted(top[0][c] + top[1][c]) + sorted(bottom[0][c] + bottom[1][c])) for c in range(9)]
        #: the tile kinds (sorted) of a set of location hexes, filled as sets come up (at most 2^16)
        self.kinds_of: dict[int, tuple[int, ...]] = {}
        self.sector_of = SECTOR_OF

    def letter(self, row: int, col: int) -> str:
        return self.letters[index(row, col)]

    def terrain_name(self, i: int) -> str:
        return TERRAIN_WORDS[self.terrain[i]]

    def kind_name(self, h: int) -> str:
        return SECTION_NAMES[self.loc_kind[h]]


@lru_cache(maxsize=256)
def _board(sections: tuple[tuple[str, bool], ...]) -> Board:
    return Board(sections)


def get_board(sections: Iterable[Sequence[object]]) -> Board:
    """The (cached) board of 4 ``(name, turned)`` sections in slots 0-3."""
    return _board(tuple((str(n), bool(t)) for n, t in sections))
