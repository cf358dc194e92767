"""The building rules and move generation (rules.md, "A turn", "Building rules", "Location tiles").

The functions read and change a :class:`~builders.kingdom.state.KingdomState`; the state calls them
from ``legal_actions`` and ``apply``.
"""

from __future__ import annotations

from builders.core.messages import Message, msg, word
from builders.kingdom.board import BIT, DESERT, GRASS, WATER, bits, dilate, hex_name
from builders.kingdom.notation import (
    BUILD,
    END,
    END_CODE,
    HARBOR,
    PADDOCK,
    SHIFT,
    TWO_HEX,
    decode,
    to_string,
)
from builders.kingdom.protocol import Position
from builders.kingdom.tiles import BUILD_TILES, MOVE_TILES, paddock_reaches, tavern_line_ends


def legal_actions(st: Position) -> list[int]:
    """Every legal action of the player to move, in a fixed order: builds (hex order), tile actions
    (tile order), end. This is ``KingdomState.legal_actions``.

    The state keeps a copy of the list (a tuple) until its next ``apply``: applying one of those
    actions needs no second legality check; any other action is checked as always. The returned list
    is the caller's to change."""
    if st.over:
        st._legal = None
        return []
    p = st.to_move
    built = st.built
    supply = st.supply[p]
    t = st.hand[p]
    acts: list[int] = []
    if built < 3 and supply and t >= 0:
        # mandatory build: a free hex of the played terrain, next to own settlements if possible
        m = st.board.code_mask[t] & st.near[p] & ~st.occ
        if m:  # the usual case, inlined: hexes next to own settlements
            while m:  # highest bit first (see board.bits), then turned round
                h = m.bit_length() - 1
                acts.append(h)
                m ^= BIT[h]
            acts.reverse()
        else:
            acts = free_hexes(st, p, t)
        if built:  # no tile during the mandatory build, no end before it is done
            st._legal = tuple(acts)
            return acts
        done = False
    else:
        done = True
    ready = st.held[p] & ~st.used[p] & ~st.new[p]
    if ready:
        acts.extend(tile_actions(st, p, ready, supply))
    if done:
        acts.append(END)
    st._legal = tuple(acts)
    return acts


def free_hexes(st: Position, p: int, code: int) -> list[int]:
    """The free hexes of terrain ``code`` next to ``p``'s settlements, or all free hexes of it if none
    is (building rule 3), in index order: the mandatory build, the Oracle, the Farm and the Oasis."""
    board = st.board
    terrain = board.code_mask[code]
    occ = st.occ
    m = terrain & st.near[p] & ~occ
    if not m:
        taken = terrain & occ
        if taken.bit_count() < 8:
            # few hexes of the terrain taken: its hex list less those is quicker than reading the
            # mask of its free hexes bit by bit
            acts = list(board.code_hexes[code])
            while taken:
                h = taken.bit_length() - 1
                acts.remove(h)
                taken ^= BIT[h]
            return acts
        m = terrain & ~occ
    acts = []
    while m:  # highest bit first (see board.bits), then turned round
        h = m.bit_length() - 1
        acts.append(h)
        m ^= BIT[h]
    acts.reverse()
    return acts


#: the terrain of the build tiles that build on one terrain (Farm: grass, Oasis: desert); the Oracle
#: builds on the played terrain
_TILE_TERRAIN = {1: GRASS, 2: DESERT}


def tile_actions(st: Position, p: int, ready: int, supply: int) -> list[int]:
    """The actions of the ready tiles (one set per kind, however many tiles of it are held)."""
    board = st.board
    kinds = board.kinds_of.get(ready)
    if kinds is None:
        kinds = board.kinds_of[ready] = tuple(sorted({board.loc_kind[h] for h in bits(ready)}))
    out: list[int] = []
    for kind in kinds:
        if kind in BUILD_TILES:
            if not supply:
                continue
            code_bits = (kind + 1) << SHIFT
            if kind == 0:  # oracle: the played terrain
                t = st.hand[p]
                if t >= 0:
                    out += map(code_bits.__or__, free_hexes(st, p, t))
            elif kind in _TILE_TERRAIN:
                out += map(code_bits.__or__, free_hexes(st, p, _TILE_TERRAIN[kind]))
            else:
                out += map(code_bits.__or__, bits(BUILD_TILES[kind](st, p)))
        else:
            out.extend(MOVE_TILES[kind](st, p))
    return out


def is_legal(st: Position, action: object) -> bool:
    """Whether ``action`` is legal now (the same rules as :func:`legal_actions`, checked directly)."""
    if st.over or type(action) is not int or action < 0:
        return False
    p = st.to_move
    t = st.hand[p]
    supply = st.supply[p]
    if action < 400:  # mandatory build
        if st.built >= 3 or not supply or t < 0:
            return False
        cand = st.board.code_mask[t] & ~st.occ
        return bool(((cand & st.near[p]) or cand) >> action & 1)
    active = st.built < 3 and supply and t >= 0
    if action == END:
        return not active
    code, src, dst = decode(action)
    if code >= END_CODE or src >= 400 or dst >= 400:
        return False
    if active and st.built:
        return False  # no tile during the mandatory build
    kind = code - 1
    if not ready_tile(st, p, kind):
        return False
    if code not in TWO_HEX:
        return not src and bool(supply) and bool(BUILD_TILES[kind](st, p) >> dst & 1)
    sb = BIT[src]
    own = st.own[p]
    if not own & sb:
        return False
    board = st.board
    if code == PADDOCK:
        return paddock_reaches(src, dst) and bool((board.buildable & ~st.occ) >> dst & 1)
    if code == HARBOR:
        terrain = board.water
    elif t < 0:
        return False
    else:
        terrain = board.code_mask[t]
    cand = terrain & ~(st.occ & ~sb)
    return bool(((cand & dilate(own & ~sb)) or cand) >> dst & 1)


def mandatory_done(st: Position) -> bool:
    p = st.to_move
    return st.built >= 3 or not st.supply[p] or st.hand[p] < 0


def ready_tile(st: Position, p: int, kind: int) -> int:
    """The mask of one ready tile of ``kind`` held by ``p`` (the lowest location hex), or 0."""
    ready = st.held[p] & ~st.used[p] & ~st.new[p] & st.board.kind_mask[kind]
    return ready & -ready


def _why_no_ready_tile(st: Position, p: int, kind: int) -> Message:
    """Why ``p`` cannot use a ``kind`` tile now: none held, taken this turn, or used this turn."""
    tile = TILE_WORD[kind]
    held = st.held[p] & st.board.kind_mask[kind]
    if not held:
        return msg("you have no {tile} tile", tile=tile)
    new = held & st.new[p]
    if new == held:
        return msg("your {tile} tile was taken this turn: it can be used from your next turn", tile=tile)
    if not new:
        if held & (held - 1):
            return msg("your {tile} tiles were both already used this turn", tile=tile)
        return msg("your {tile} tile was already used this turn", tile=tile)
    return msg(
        "your {tile} tiles are used up this turn: one was used, the other was taken this turn and "
        "can be used from your next turn",
        tile=tile,
    )


# -- changes ------------------------------------------------------------------------------------


def take_tiles(st: Position, p: int, h: int) -> None:
    """Location tiles rule 1: a settlement put on ``h`` takes a tile from each location next to it
    that still has one and that ``p`` never took from."""
    board = st.board
    m = board.adj_loc[h] & ~st.taken[p]
    while m:
        low = m & -m
        m ^= low
        o = board.loc_ord[low.bit_length() - 1]
        if st.left[o]:
            st.left[o] -= 1
            st.taken[p] |= low
            st.held[p] |= low
            st.new[p] |= low


def lose_tiles(st: Position, p: int, h: int) -> None:
    """Location tiles rule 2: after a settlement left ``h``, lose each tile whose location has no
    own settlement next to it any more; of two tiles of a kind, the one used this turn goes (FAQ 6)."""
    board = st.board
    m = board.adj_loc[h] & st.held[p]
    own = st.own[p]
    while m:
        low = m & -m
        m ^= low
        loc = low.bit_length() - 1
        if board.nbr_mask[loc] & own:
            continue
        other = st.held[p] & board.kind_mask[board.loc_kind[loc]] & ~low
        used = st.used[p]
        if other and used & other and not used & low:
            # the used tile is the one lost: the kept tile (now from the other location) is in the
            # state the lost location's tile was in
            st.used[p] &= ~other
            if st.new[p] & low:
                st.new[p] |= other
        st.held[p] &= ~low
        st.used[p] &= ~low
        st.new[p] &= ~low


def place(st: Position, p: int, h: int) -> None:
    """Put a settlement of ``p`` on ``h`` (the supply is the caller's business) and take tiles."""
    b = BIT[h]
    st.own[p] |= b
    st.occ |= b
    st.near[p] |= st.board.nbr_mask[h]
    if st.board.adj_loc[h] & ~st.taken[p]:
        take_tiles(st, p, h)


def move(st: Position, p: int, src: int, dst: int) -> None:
    """Lift the settlement of ``p`` on ``src``, put it on ``dst``, then lose tiles left behind."""
    b = BIT[src]
    st.own[p] ^= b
    st.occ ^= b
    place(st, p, dst)
    st.near[p] = dilate(st.own[p])
    if st.board.adj_loc[src] & st.held[p]:
        lose_tiles(st, p, src)


# -- explanations of illegal actions ------------------------------------------------------------
#: the terrains (board.TERRAIN_WORDS order) and the location tiles (data.SECTION_NAMES order) as words
#: of the explanations, each translated in its context
TERRAIN_WORD = (
    word("terrain", "grass"),
    word("terrain", "canyon"),
    word("terrain", "desert"),
    word("terrain", "flower"),
    word("terrain", "forest"),
    word("terrain", "water"),
    word("terrain", "mountain"),
    word("terrain", "castle"),
    word("terrain", "location"),
)
TILE_WORD = (
    word("tile", "oracle"),
    word("tile", "farm"),
    word("tile", "oasis"),
    word("tile", "tower"),
    word("tile", "tavern"),
    word("tile", "barn"),
    word("tile", "harbor"),
    word("tile", "paddock"),
)


def _not_played(h: int, t: int) -> Message:
    return msg("hex {hex} is not {terrain} (the played terrain)", hex=hex_name(h), terrain=TERRAIN_WORD[t])


def _not_terrain(h: int, t: int) -> Message:
    return msg("hex {hex} is not {terrain}", hex=hex_name(h), terrain=TERRAIN_WORD[t])


def _not_buildable(st: Position, h: int) -> Message:
    return msg("hex {hex} is {terrain}, not buildable", hex=hex_name(h), terrain=TERRAIN_WORD[st.board.terrain[h]])


def _taken(h: int) -> Message:
    return msg("hex {hex} is taken", hex=hex_name(h))


def _not_legal(action: int) -> Message:
    return msg("{action} is not legal now", action=to_string(action))


def _not_an_action(action: object) -> Message:
    return msg("{action!r} is not an action of this game", action=action)


def _explain_target(p: int, h: int, terrain: int, wrong: Message, occ: int, near: int) -> Message | None:
    """Why ``p`` cannot build on ``h`` among the hexes of ``terrain`` (``wrong``: that ``h`` is not one)."""
    if occ & BIT[h]:
        return _taken(h)
    if not terrain & BIT[h]:
        return wrong
    cand = terrain & ~occ
    adj = cand & near
    if adj and not adj & BIT[h]:
        first = (adj & -adj).bit_length() - 1
        return msg("hex {hex} is not next to your settlements, and {other} is", hex=hex_name(h), other=hex_name(first))
    return None


def why_illegal(st: Position, action: object) -> Message:
    """Why ``action`` is not legal now (for error messages; ``str()`` of it is the English text)."""
    if st.over:
        return msg("the game is over")
    if not isinstance(action, int) or isinstance(action, bool) or action < 0:
        return _not_an_action(action)
    code, src, dst = decode(action)
    if code > END_CODE or src >= 400 or dst >= 400 or (code != END_CODE and code not in TWO_HEX and src):
        return _not_an_action(action)
    p = st.to_move
    board = st.board
    supply = st.supply[p]
    t = st.hand[p]
    done = mandatory_done(st)
    if action == END:
        if done:
            return msg("end is not legal now")
        need = min(3 - st.built, supply) + st.built
        if st.built == 0:
            if need == 1:
                return msg("you must build {need} settlement before ending the turn", need=need)
            return msg("you must build {need} settlements before ending the turn", need=need)
        return msg("the mandatory build is not finished ({built} of {need} built)", built=st.built, need=need)
    if code == END_CODE:
        return _not_an_action(action)
    if code == BUILD:
        if not supply:
            return msg("you have no settlements left in your supply")
        if t < 0:
            return msg("there is no terrain card to build on")
        if st.built >= 3:
            return msg("the mandatory build is finished (3 built): use a tile or end the turn")
        why = _explain_target(p, dst, board.code_mask[t], _not_played(dst, t), st.occ, st.near[p])
        return why or _not_legal(action)
    kind = code - 1
    if 0 < st.built and not done:
        return msg("tiles cannot be used during the mandatory build")
    if not ready_tile(st, p, kind):
        return _why_no_ready_tile(st, p, kind)
    if code not in TWO_HEX:
        if not supply:
            return msg("you have no settlements left in your supply")
        occ = st.occ
        near = st.near[p]
        if kind == 0:
            if t < 0:
                return msg("there is no played terrain for the oracle")
            why = _explain_target(p, dst, board.code_mask[t], _not_played(dst, t), occ, near)
        elif kind in (1, 2):
            terrain = GRASS if kind == 1 else DESERT
            why = _explain_target(p, dst, board.code_mask[terrain], _not_terrain(dst, terrain), occ, near)
        elif kind == 3:
            why = _explain_target(
                p,
                dst,
                board.edge_buildable,
                msg("hex {hex} is not a buildable hex on the edge of the map", hex=hex_name(dst)),
                occ,
                near,
            )
        else:
            if occ & BIT[dst]:
                why = _taken(dst)
            elif not board.buildable & BIT[dst]:
                why = _not_buildable(st, dst)
            elif not tavern_line_ends(st.own[p]) & BIT[dst]:
                why = msg(
                    "hex {hex} is not at the end of a straight line of 3 or more of your settlements", hex=hex_name(dst)
                )
            else:
                why = None
        return why or _not_legal(action)
    # move tiles
    if not st.own[p] & BIT[src]:
        return msg("hex {hex} is not one of your settlements", hex=hex_name(src))
    if code == PADDOCK:
        if not paddock_reaches(src, dst):
            return msg("hex {hex} is not 2 hexes in a straight line from {src}", hex=hex_name(dst), src=hex_name(src))
        if st.occ & BIT[dst]:
            return _taken(dst)
        if not board.buildable & BIT[dst]:
            return _not_buildable(st, dst)
        return _not_legal(action)
    if code == HARBOR:
        terr, wrong = board.water, _not_terrain(dst, WATER)
    else:
        if t < 0:
            return msg("there is no played terrain for the barn")
        terr, wrong = board.code_mask[t], _not_played(dst, t)
    own = st.own[p] & ~BIT[src]
    occ = st.occ & ~BIT[src]
    why = _explain_target(p, dst, terr, wrong, occ, dilate(own))
    return why or _not_legal(action)
