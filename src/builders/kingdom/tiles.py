"""The eight location tiles: one small rule per tile (rules.md, "The eight tiles").

Build tiles give the mask of hexes where the extra settlement may go; move tiles give the list of
their actions (``from > to``). Every function reads the position of seat ``p`` in state ``st``.
"""

from __future__ import annotations

from builders.kingdom.board import (
    BIT,
    DESERT,
    DIRECTIONS,
    GRASS,
    JUMP_DELTA,
    JUMP_FROM,
    bit_list,
    shift,
)
from builders.kingdom.notation import BARN, HARBOR, PADDOCK, SHIFT, SRC_SHIFT
from builders.kingdom.protocol import Position


def adjacent_if_possible(candidates: int, near: int) -> int:
    """Building rule 3: the candidates next to the player's settlements if any, else all of them."""
    return (candidates & near) or candidates


# -- build tiles: one extra settlement from the supply ------------------------------------------


def oracle_targets(st: Position, p: int) -> int:
    """Oracle: a free hex of the played terrain; adjacent if possible."""
    t = st.hand[p]
    if t < 0:
        return 0
    return adjacent_if_possible(st.board.code_mask[t] & ~st.occ, st.near[p])


def farm_targets(st: Position, p: int) -> int:
    """Farm: a free grass hex; adjacent if possible."""
    return adjacent_if_possible(st.board.code_mask[GRASS] & ~st.occ, st.near[p])


def oasis_targets(st: Position, p: int) -> int:
    """Oasis: a free desert hex; adjacent if possible."""
    return adjacent_if_possible(st.board.code_mask[DESERT] & ~st.occ, st.near[p])


def tower_targets(st: Position, p: int) -> int:
    """Tower: a free buildable hex on the edge of the map; adjacent if possible among those."""
    return adjacent_if_possible(st.board.edge_buildable & ~st.occ, st.near[p])


def tavern_line_ends(own: int) -> int:
    """Every hex at either end of a straight line of 3 or more hexes of ``own`` (any axis)."""
    ends = 0
    for o in DIRECTIONS:
        a = shift(own, o)  # hexes x whose neighbour x - o is in own
        starts = own & a & shift(a, o)  # x, x - o, x - 2o all in own
        ends |= shift(starts, o)
    return ends


def tavern_targets(st: Position, p: int) -> int:
    """Tavern: a free buildable hex at either end of a line of 3+ own settlements; no adjacency."""
    return tavern_line_ends(st.own[p]) & st.board.buildable & ~st.occ


# -- move tiles: lift one own settlement, put it elsewhere ---------------------------------------


def near_once(own: int) -> int:
    """Every hex next to exactly one hex of ``own`` (whole-board shifts, one per direction)."""
    one = two = 0
    for d in DIRECTIONS:
        m = shift(own, d)
        two |= one & m
        one |= m
    return one & ~two


def lift_moves(st: Position, p: int, terrain: int, code: int) -> list[int]:
    """Moves onto a free hex of ``terrain`` (a mask), adjacency judged without the lifted settlement.

    The lifted hex counts as free (it may be the target). For each source, the targets next to the
    remaining settlements are those next to the player's settlements less the ones whose only
    neighbouring own settlement is the source itself (found with whole-board masks). Most sources
    have the same targets: that list is made once and only combined with each source.
    """
    nbr_mask = st.board.nbr_mask
    own = st.own[p]
    cand = terrain & ~st.occ
    near_cand = cand & st.near[p]
    lonely = near_cand & near_once(own) if near_cand else 0
    common = bit_list(near_cand or cand)
    out: list[int] = []
    code_bits = code << SHIFT
    for s in bit_list(own):
        sb = BIT[s]
        base = code_bits | (s << SRC_SHIFT)
        nb = nbr_mask[s]
        back = sb & terrain
        if back or lonely & nb:
            adj = near_cand & ~(lonely & nb)
            if back and nb & own:
                adj |= sb
            out += map(base.__or__, bit_list(adj or (cand | back)))
        else:
            out += map(base.__or__, common)
    return out


def barn_moves(st: Position, p: int) -> list[int]:
    """Barn: move a settlement to a free hex of the played terrain; adjacent if possible."""
    t = st.hand[p]
    if t < 0:
        return []
    return lift_moves(st, p, st.board.code_mask[t], BARN)


def harbor_moves(st: Position, p: int) -> list[int]:
    """Harbor: move a settlement to a free water hex; adjacent if possible."""
    return lift_moves(st, p, st.board.water, HARBOR)


#: per direction: the index change of a jump, the hexes it may start from, and the paddock action
#: of each target hex (or None where no jump of that direction ends)
_JUMPS = [
    (
        JUMP_DELTA[d],
        JUMP_FROM[d],
        [
            (PADDOCK << SHIFT) | ((t - JUMP_DELTA[d]) << SRC_SHIFT) | t if 0 <= t - JUMP_DELTA[d] < 400 else None
            for t in range(400)
        ],
    )
    for d in DIRECTIONS
]


def paddock_moves(st: Position, p: int) -> list[int]:
    """Paddock: move a settlement exactly 2 hexes in a straight line, jumping anything, onto a free
    buildable hex; adjacency does not apply. One whole-board shift per direction gives every target
    of that direction at once."""
    own = st.own[p]
    free = st.board.buildable & ~st.occ
    out: list[int] = []
    for delta, origin, base in _JUMPS:
        src = own & origin
        if not src:
            continue
        targets = (src << delta if delta > 0 else src >> -delta) & free
        if targets:
            # a target of a jump is where the jump ends: its entry is never None
            out += map(base.__getitem__, bit_list(targets))  # type: ignore[arg-type]
    return out


def paddock_reaches(src: int, dst: int) -> bool:
    """Whether ``dst`` is exactly 2 hexes in a straight line from ``src``."""
    for delta, origin, _ in _JUMPS:
        if BIT[src] & origin and src + delta == dst:
            return True
    return False


#: build tiles by kind (data.SECTION_NAMES order: oracle, farm, oasis, tower, tavern)
BUILD_TILES = {0: oracle_targets, 1: farm_targets, 2: oasis_targets, 3: tower_targets, 4: tavern_targets}
#: move tiles by kind (barn, harbor, paddock)
MOVE_TILES = {5: barn_moves, 6: harbor_moves, 7: paddock_moves}
