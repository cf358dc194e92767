"""Kingdom Builder board data: the 8 base-game sections, unturned, as printed.

Each section is 10 rows of 10 hexes (pointy-top, odd rows shifted half a hex right). Letters:
G grass, C canyon, D desert, F flower field, T forest (the 5 buildable terrains), W water, M mountain,
K castle, L location hex of the section's own kind (the section is named after its location).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

#: section names in their canonical order (also the location / tile kinds)
SECTION_NAMES: tuple[str, ...] = (
    "oracle",
    "farm",
    "oasis",
    "tower",
    "tavern",
    "barn",
    "harbor",
    "paddock",
)

SECTIONS: dict[str, tuple[str, ...]] = {
    "oracle": (
        "GGGTTWGTTT",
        "GGGKTWGTTT",
        "GFFGTTWGGT",
        "FFCGTWFLTT",
        "FFFCCWFFWW",
        "MMCGGWWWDD",
        "CCCMGFFFDD",
        "CCKDMDFFCC",
        "WWWDDDDMCC",
        "WWWWDDDDDC",
    ),
    "farm": (
        "DDCWWTTTGG",
        "DKCWTTTLGG",
        "CCCFFFTCFF",
        "CCFFWDDCCF",
        "CGGWFFDDCC",
        "GGLFWFWDDC",
        "GGGTFFWWDD",
        "GGTTMWWWDW",
        "GMTTWWWWWW",
        "TTTWWWWWWW",
    ),
    "oasis": (
        "DDCWWTTGGG",
        "DCWFFTTTGG",
        "DDWFFTTLFG",
        "WWWFGTFFFF",
        "WWWWGGGGFF",
        "WTTWGGCCDC",
        "WTCTWGCCDC",
        "WKCFWLDDCW",
        "WWCFWWWDDW",
        "WWWWWWWWWW",
    ),
    "tower": (
        "TTTTMMGMCC",
        "TMTTFGMMMC",
        "FFTFFFGGWM",
        "DFFFWLGWMM",
        "DDDDFWGWCC",
        "DCDDDWWCGC",
        "DDCDDWFKGC",
        "CCLDWFFFGG",
        "DCWWWTTFGG",
        "DCCWTTTGGG",
    ),
    "tavern": (
        "FDDMMDDCCC",
        "FFDDDMMCCC",
        "FFFFFFFMMM",
        "WWFKGGTTMM",
        "FFWWGGGTTC",
        "FCCWGTTCCC",
        "DFLCWTTLCG",
        "DDCWTTGGGG",
        "DDDWTTTGGG",
        "DDWWTTTGGG",
    ),
    "barn": (
        "CDDDDDDDDD",
        "CCCDDDDDCD",
        "MMMDMMLDDC",
        "CMMMMMFFCC",
        "CCCMMWFFFC",
        "GCCCMFFWTC",
        "GGLTFFWFFT",
        "GGTTFFGKTT",
        "GGGTTWGGTT",
        "GGGTWGGTTT",
    ),
    "harbor": (
        "GGTTTWGTTF",
        "GFTTWGTTFF",
        "GFFTWGGFFF",
        "FFTTWGMFDD",
        "CFKTWGDDDD",
        "CCTWGGMMDD",
        "CCWWWGDDDC",
        "WWGGWWLCMC",
        "WDKGWMWCCC",
        "WDDWWWWCCC",
    ),
    "paddock": (
        "CCCDDWDDDD",
        "MMCDDWDDDD",
        "MMCMMWDDLF",
        "MCMMWMDFFF",
        "CCTTWMMCFF",
        "CTTWCCCMFF",
        "CLTTWFFFFF",
        "GGTWGKGFGT",
        "GGTTWGGGGT",
        "GGTTWGGGTT",
    ),
}

#: the buildable terrains, in their canonical order (the terrain deck has 5 cards of each)
TERRAINS: tuple[str, ...] = ("grass", "canyon", "desert", "flower", "forest")
TERRAIN_LETTER: dict[str, str] = {"grass": "G", "canyon": "C", "desert": "D", "flower": "F", "forest": "T"}
LETTER_TERRAIN: dict[str, str] = {v: k for k, v in TERRAIN_LETTER.items()}

#: the 10 Kingdom Builder cards
CARDS: tuple[str, ...] = (
    "fishermen",
    "miners",
    "merchants",
    "workers",
    "discoverers",
    "knights",
    "hermits",
    "lords",
    "citizens",
    "farmers",
)

#: the recommended first game: sections (slot order) with orientation, and cards
FIRST_GAME_SECTIONS: tuple[tuple[str, bool], ...] = (
    ("tavern", False),
    ("paddock", False),
    ("oasis", False),
    ("farm", False),
)
FIRST_GAME_CARDS: tuple[str, ...] = ("fishermen", "merchants", "knights")


def section_rows(name: str, turned: bool = False) -> tuple[str, ...]:
    """The 10 rows of a section as placed: turned by 180 degrees, (r, c) moves to (9 - r, 9 - c)."""
    rows = SECTIONS[name]
    if not turned:
        return rows
    return tuple(row[::-1] for row in reversed(rows))


def map_rows(sections: Iterable[tuple[str, bool]]) -> tuple[str, ...]:
    """The 20 rows of 20 letters of the map made of 4 (name, turned) sections in slots 0-3.

    Slot 0 is top-left, 1 top-right, 2 bottom-left, 3 bottom-right. Every location hex is written
    "L"; :func:`location_kind_at` tells its kind.
    """
    placed = [section_rows(name, turned) for name, turned in sections]
    top = tuple(placed[0][r] + placed[1][r] for r in range(10))
    bottom = tuple(placed[2][r] + placed[3][r] for r in range(10))
    return top + bottom


def location_kind_at(sections: Sequence[tuple[str, bool]], row: int, col: int) -> str:
    """The kind of the location hex at global (row, col): the name of the section it lies in."""
    return sections[(row >= 10) * 2 + (col >= 10)][0]
