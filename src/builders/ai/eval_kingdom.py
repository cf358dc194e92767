"""The evaluation of Kingdom Builder positions (see :mod:`builders.ai.evaluate`): per-seat estimates of
the final gold from the public part of a position, the move heuristic of the search (``move_values``)
and the decision key (the terrain card of the player to move)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields

from builders.ai.kit import numbers_of, settings_with


@dataclass(frozen=True)
class KingdomSettings:
    """The weights of the evaluation and the move heuristic, and the planner's tile actions (today's
    values the defaults): an agent's own are an object of this class (``weights``), passed to
    ``values`` and ``move_values``; nothing reads them from the module."""

    #: the value of a held tile: a fixed part plus a part per turn the seat is still expected to play
    KB_TILE_BASE: float = 2.0
    KB_TILE_PER_TURN: float = 0.6
    #: a location the seat has not taken from, with a tile left and a free hex next to it that the
    #: seat can reach with an adjacent build
    KB_LOCATION_REACH: float = 1.5
    #: a castle not yet scored, with a free buildable hex next to it that the seat reaches
    KB_CASTLE_REACH: float = 1.0
    #: gradients toward the cards whose gold comes in steps (values per settlement)
    KB_LORDS_LEAD: float = 0.8
    KB_FARMERS_LOW: float = 0.8
    KB_CITIZENS_HALF: float = 0.5
    KB_FRONTIER: float = 0.25  # a free hex next to own settlements where a settlement would score
    KB_FRONTIER_CAP: int = 8
    KB_NEW_ROW: float = 0.3  # discoverers: a row not yet reached with a free hex next to own settlements
    KB_FARMERS_GAP: float = 0.6  # farmers: per step a sector without own settlement is away from them
    #: the move heuristic: weights of a settlement on a hex that ...
    KB_MOVE_CASTLE: float = 3.0  # ... reaches a castle the seat has not reached
    KB_MOVE_GOOD: float = 1.0  # ... scores a settlement card (fishermen, miners, workers, discoverers)
    KB_MOVE_MERCHANTS: float = 1.5  # ... is next to a castle or location (merchants)
    KB_MOVE_KNIGHTS: float = 2.0  # ... lands on a row where the seat has the most
    KB_MOVE_HERMITS: float = 1.0  # ... starts a new group
    KB_MOVE_CITIZENS: float = 0.5  # ... joins own settlements
    KB_MOVE_LORDS: float = 2.0  # ... is in a sector where the seat is behind or level (0.5 elsewhere)
    KB_MOVE_FARMERS: float = 2.0  # ... is in the seat's weakest sector
    KB_MOVE_TILE_BUILD: float = 1.0  # an extra settlement from a tile
    #: the turn planner tries only this many of a position's tile actions, best by the move heuristic
    TILE_ACTIONS: int = 16


#: the evaluation's own settings
DEFAULT = KingdomSettings()
#: the names of the settings (``weights`` takes overrides of any of them)
SETTING_NAMES = tuple(f.name for f in fields(KingdomSettings))
#: the settings that are whole numbers of at least 1
_COUNTS = ("KB_FRONTIER_CAP", "TILE_ACTIONS")
#: the weights of the evaluation and the move heuristic, in the order the native core takes them
#: (TILE_ACTIONS is the planner's)
NATIVE_NAMES = tuple(name for name in SETTING_NAMES if name != "TILE_ACTIONS")


def native_weights(settings: KingdomSettings) -> list[float]:
    """The weights of ``settings`` in the order of ``NATIVE_NAMES``, as numbers: what the native
    core's evaluation, move heuristic and search take (``KBState.eval_values``, ``mcts_tree``).

    >>> native_weights(weights({"KB_MOVE_GOOD": 2}))[NATIVE_NAMES.index("KB_MOVE_GOOD")]
    2.0
    """
    return numbers_of(settings, NATIVE_NAMES, _NATIVE)


_NATIVE: dict[KingdomSettings, list[float]] = {}


def weights(overrides: Mapping[str, float] | KingdomSettings | None = None) -> KingdomSettings:
    """The settings ``DEFAULT`` with ``overrides`` (a name of ``SETTING_NAMES`` -> its value)
    instead; a settings object is returned as it is. Raises ValueError for another name or value.

    >>> weights({"TILE_ACTIONS": 40}).TILE_ACTIONS, weights().KB_FRONTIER
    (40, 0.25)
    """
    return settings_with(DEFAULT, overrides, "Kingdom Builder's evaluation's", _check)


def _check(name: str, value) -> None:
    if name in _COUNTS:
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise ValueError(f"weight {name} must be a whole number of at least 1, not {value!r}")
    elif isinstance(value, bool) or not isinstance(value, (int, float)) or value != value:
        raise ValueError(f"weight {name} must be a number, not {value!r}")


#: per k: the hexes of the columns k and after (the row folds of ``_row_flags``), and the last column
_FROM_COL = {k: sum(1 << (20 * r + c) for r in range(20) for c in range(k, 20)) for k in (1, 2, 4, 8, 16)}
_LAST_COL = sum(1 << (20 * r + 19) for r in range(20))

#: the own-settlement part of the evaluation is cached per map and cards, by settlement mask (an
#: entry takes about 600 bytes), for the last few maps and cards met (a context costs little to
#: make again: a process that plays many games does not keep the caches of the games before)
_KB_CACHE_SIZE = 1 << 16
_KB_CONTEXTS_KEPT = 8


def _row_flags(m: int) -> int:
    """The hexes of the last column of the rows ``m`` has a hex in (a prefix OR along each row)."""
    m |= (m << 1) & _FROM_COL[1]
    m |= (m << 2) & _FROM_COL[2]
    m |= (m << 4) & _FROM_COL[4]
    m |= (m << 8) & _FROM_COL[8]
    m |= (m << 16) & _FROM_COL[16]
    return m & _LAST_COL


def _steps_to_sectors(m: int, sectors) -> tuple[int, ...]:
    """How many dilations of ``m`` reach each sector (0 when ``m`` is in it, at most 8)."""
    from builders.kingdom.board import dilate

    out = []
    for sector in sectors:
        reach = m
        steps = 0
        while not reach & sector and steps < 8:
            reach |= dilate(reach)
            steps += 1
        out.append(steps)
    return tuple(out)


_HEX_TABLES: list = []


def _hex_tables() -> tuple[list[int], list[int], list[tuple[int, ...]]]:
    """Per hex of the map's grid (the same for every map): its sector, its row, and how many
    steps (dilations, at most 8) it is from each sector. Computed once."""
    if not _HEX_TABLES:
        from builders.kingdom.board import CELLS, ROW_MASKS, SECTOR_MASKS

        _HEX_TABLES.extend(
            (
                [next(k for k, m in enumerate(SECTOR_MASKS) if m >> h & 1) for h in range(CELLS)],
                [next(r for r, m in enumerate(ROW_MASKS) if m >> h & 1) for h in range(CELLS)],
                [_steps_to_sectors(1 << h, SECTOR_MASKS) for h in range(CELLS)],
            )
        )
    return _HEX_TABLES[0], _HEX_TABLES[1], _HEX_TABLES[2]


class _KingdomContext:
    """What the evaluation of one map and card set precomputes, and its cache of the parts of a
    seat's value that depend only on its own settlements."""

    def __init__(self, board, cards: tuple[str, ...], settings: KingdomSettings = DEFAULT):
        from builders.kingdom.board import ROW_MASKS, SECTOR_MASKS

        self.board = board
        self.cards = cards
        self.settings = settings
        self.nbr = board.nbr_mask
        self.castle_nbrs = [board.nbr_mask[c] for c in board.castles]
        self.castle_nbr_union = 0
        for m in self.castle_nbrs:
            self.castle_nbr_union |= m
        #: (ordinal, hex bit, neighbour mask) of each location
        self.locs = [(o, 1 << h, board.nbr_mask[h]) for o, h in enumerate(board.locations)]
        self.loc_nbrs = 0
        for _, _, m in self.locs:
            self.loc_nbrs |= m
        self.rows = ROW_MASKS
        self.sectors = SECTOR_MASKS
        self.lords = "lords" in cards
        #: per card with a frontier gradient: the hexes where a settlement scores for it
        goods = []
        for card in cards:
            if card == "fishermen":
                goods.append(board.near_water & ~board.water)
            elif card == "miners":
                goods.append(board.near_mountain)
            elif card in ("workers", "merchants"):
                goods.append(board.near_special)
        self.goods = goods
        self.discoverers = "discoverers" in cards
        self.sector_of, self.row_of, self.sector_steps = _hex_tables()
        self.cache: dict[int, tuple] = {}

    def groups(self, own: int) -> list[int]:
        """The connected groups of ``own`` (flood fill over the neighbour masks)."""
        nbr = self.nbr
        out = []
        rest = own
        while rest:
            low = rest & -rest
            rest ^= low
            group = front = low
            while front:
                b = front & -front
                front ^= b
                n = nbr[b.bit_length() - 1] & rest
                if n:
                    rest ^= n
                    group |= n
                    front |= n
            out.append(group)
        return out

    def own_part(self, own: int, built: int = -1) -> tuple:
        """The gold of the castles and the cards (lords excepted), the shaping that depends only on
        ``own``, the per-sector counts (for lords), and what the value of ``own`` with one more
        settlement is computed from. ``built``: a hex of ``own`` just built on (or -1): when the
        part of ``own`` without it is cached, the part is computed from that one (the groups
        merged, the counts moved by one), with the same result as from scratch."""
        hit = self.cache.get(own)
        if hit is not None:
            return hit
        parent = self.cache.get(own ^ (1 << built)) if built >= 0 and own >> built & 1 else None
        if parent is not None:
            detail = self._detail_plus(own, built, parent[3])
        else:
            detail = self._detail(own)
        out = self._combine(own, detail)
        if len(self.cache) >= _KB_CACHE_SIZE:
            self.cache.clear()
        self.cache[own] = out
        return out

    # the detail of a settlement mask: (castles touched, sector counts, per-card gold (0 for lords),
    # groups or None, per-group special hexes touched or None, largest group, knights' best row,
    # farmers' steps to each sector or None)

    def _detail(self, own: int) -> tuple:
        from builders.kingdom.board import dilate

        board = self.board
        counts = tuple((own & s).bit_count() for s in self.sectors)
        castles = sum(1 for m in self.castle_nbrs if m & own)
        gold = []
        gs = touched = gaps = None
        big = best_row = 0
        for card in self.cards:
            if card == "fishermen":
                gold.append((own & board.near_water & ~board.water).bit_count())
            elif card == "miners":
                gold.append((own & board.near_mountain).bit_count())
            elif card == "workers":
                gold.append((own & board.near_special).bit_count())
            elif card == "discoverers":
                gold.append(_row_flags(own).bit_count())
            elif card == "knights":
                best_row = max((own & row).bit_count() for row in self.rows)
                gold.append(2 * best_row)
            elif card == "lords":
                gold.append(0)
            elif card == "farmers":
                gold.append(3 * min(counts))
                gaps = _steps_to_sectors(own, self.sectors)  # 0 where own is, 8 for no settlement
            else:
                if gs is None:
                    gs = tuple(self.groups(own))
                if card == "hermits":
                    gold.append(len(gs))
                elif card == "citizens":
                    big = max((g.bit_count() for g in gs), default=0)
                    gold.append(big // 2)
                elif card == "merchants":
                    special = board.special
                    touched = tuple([dilate(g) & special for g in gs])
                    linked = 0
                    for t in touched:
                        if t & (t - 1):
                            linked |= t
                    gold.append(4 * linked.bit_count())
        return castles, counts, tuple(gold), gs, touched, big, best_row, gaps

    def _detail_plus(self, own: int, h: int, parent: tuple) -> tuple:
        """The detail of ``own`` from that of ``own`` without hex ``h`` (``parent``)."""
        _, counts, gold, gs, touched, big, best_row, gaps = parent
        b = 1 << h
        board = self.board
        k_of = self.sector_of[h]
        counts = tuple(c + 1 if k == k_of else c for k, c in enumerate(counts))
        castles = sum(1 for m in self.castle_nbrs if m & own)
        near = self.nbr[h]
        if gs is not None:
            merged = b
            kept = []
            if touched is not None:
                merged_t = near & board.special
                kept_t = []
                for g, t in zip(gs, touched):
                    if g & near:
                        merged |= g
                        merged_t |= t
                    else:
                        kept.append(g)
                        kept_t.append(t)
                kept_t.append(merged_t)
                touched = tuple(kept_t)
            else:
                for g in gs:
                    if g & near:
                        merged |= g
                    else:
                        kept.append(g)
            kept.append(merged)
            gs = tuple(kept)
        gold = list(gold)
        row = self.rows[self.row_of[h]]
        for i, card in enumerate(self.cards):
            if card == "fishermen":
                if b & board.near_water:
                    gold[i] += 1
            elif card == "miners":
                if b & board.near_mountain:
                    gold[i] += 1
            elif card == "workers":
                if b & board.near_special:
                    gold[i] += 1
            elif card == "discoverers":
                if not (own ^ b) & row:
                    gold[i] += 1
            elif card == "knights":
                n = (own & row).bit_count()
                if n > best_row:
                    best_row = n
                    gold[i] = 2 * n
            elif card == "farmers":
                gold[i] = 3 * min(counts)
                d = self.sector_steps[h]
                gaps = tuple([0 if counts[k] else min(gaps[k], d[k]) for k in range(4)])
            elif card == "hermits":
                gold[i] = len(gs)
            elif card == "citizens":
                n = merged.bit_count()
                if n > big:
                    big = n
                    gold[i] = big // 2
            elif card == "merchants":
                linked = 0
                for t in touched:
                    if t & (t - 1):
                        linked |= t
                gold[i] = 4 * linked.bit_count()
        return castles, counts, tuple(gold), gs, touched, big, best_row, gaps

    def _combine(self, own: int, detail: tuple) -> tuple:
        """(gold, shaping, sector counts, ``detail``), summed card by card in the cards' order."""
        castles, counts, gold, _, _, big, _, gaps = detail
        w = self.settings
        v = 3.0 * castles
        shape = 0.0
        for i, card in enumerate(self.cards):
            if card == "lords":
                continue
            v += gold[i]
            if card == "citizens":
                shape += w.KB_CITIZENS_HALF * (big & 1)
            elif card == "farmers":
                low = sorted(counts)
                shape += w.KB_FARMERS_LOW * (low[0] + low[1])
                if own:
                    for k in range(4):
                        if not counts[k]:
                            shape -= w.KB_FARMERS_GAP * gaps[k]
        return v, shape, counts, detail


_KB_CONTEXTS: dict[tuple[int, tuple[str, ...], KingdomSettings], _KingdomContext] = {}


def _kingdom_context(st, settings: KingdomSettings = DEFAULT) -> _KingdomContext:
    key = (id(st.board), st.cards, settings)
    ctx = _KB_CONTEXTS.get(key)
    if ctx is None or ctx.board is not st.board:
        if len(_KB_CONTEXTS) >= _KB_CONTEXTS_KEPT:  # the oldest made goes, with its cache
            del _KB_CONTEXTS[next(iter(_KB_CONTEXTS))]
        ctx = _KB_CONTEXTS[key] = _KingdomContext(st.board, st.cards, settings)
    return ctx


def last_round(st) -> bool:
    """Whether the round of Kingdom Builder position ``st`` is the game's last: its final round has
    begun (a supply emptied), or a seat still to play a whole turn in it holds 3 settlements or
    fewer, which its turn's mandatory build empties (rules.md "A turn" and "End of the game")."""
    if st.final_round:
        return True
    n = st.num_players
    start = st.start_player
    now = (st.to_move - start) % n
    supply = st.supply
    return any(supply[q] <= 3 for q in range(n) if (q - start) % n > now)


def _kingdom_values(st, turn_over: int | None = None, w: KingdomSettings = DEFAULT) -> list[float]:
    ctx = _kingdom_context(st, w)
    board = st.board
    n = st.num_players
    # the seat to move has just built on a hex (a build, or a tile's settlement: the last action of
    # the history), usually: its part is then computed from the part before that build (the
    # searches value a position's children in turn)
    last = st.history[-1] if st.history else -1
    if type(last) is int and (last < 400 or 1 <= last >> 18 <= 5):
        mover = st.to_move
        h = last & 511
        parts = [ctx.own_part(own, h if p == mover else -1) for p, own in enumerate(st.own)]
    else:
        parts = [ctx.own_part(own) for own in st.own]
    over = st.over
    # with ``turn_over`` (see ``values``), in the game's last round a seat that has played its last
    # turn, or is playing it, is valued at its points alone: its tiles, reach and gradients can no
    # longer bring anything (the tiles the seat to move may still use, the planner's search tries)
    ended = None
    if turn_over is not None and not over and last_round(st):
        start = st.start_player
        now = (st.to_move - start) % n
        ended = [(q - start) % n <= now for q in range(n)]
    if not over:
        turns_left = min(st.supply) / 3.0
        tile_value = w.KB_TILE_BASE + w.KB_TILE_PER_TURN * min(turns_left, 12.0)
        free = board.buildable & ~st.occ
    if ctx.lords:
        # per sector: the most settlements a seat has there, how many seats have that many, and the
        # most below it (the lords' first and second places; -1 when there is none)
        ranks = []
        for k in range(4):
            cs = [part[2][k] for part in parts]
            best = max(cs)
            below = [c for c in cs if c < best]
            ranks.append((best, cs.count(best), max(below) if below else -1))
    out = []
    for p in range(n):
        v, shape, mine, _ = parts[p]
        if ctx.lords:
            going = not over and not (ended and ended[p])
            for k in range(4):
                m = mine[k]
                best, ties, second = ranks[k]
                if m == best:
                    v += 12
                elif m == second:
                    v += 6
                if going:
                    # the most settlements another seat has in the sector
                    lead = m - (second if m == best and ties == 1 else best)
                    v += w.KB_LORDS_LEAD * (lead if -3 <= lead <= 2 else (2 if lead > 2 else -3))
        if over or (ended and ended[p]):
            out.append(v)
            continue
        v += shape + tile_value * st.held[p].bit_count()
        frontier = st.near[p] & free
        for good in ctx.goods:
            c = (frontier & good).bit_count()
            v += w.KB_FRONTIER * (c if c < w.KB_FRONTIER_CAP else w.KB_FRONTIER_CAP)
        if frontier:
            own = st.own[p]
            if ctx.discoverers:
                v += w.KB_NEW_ROW * (_row_flags(frontier) & ~_row_flags(own)).bit_count()
            if frontier & ctx.loc_nbrs:
                taken = st.taken[p]
                left = st.left
                for o, hb, nb in ctx.locs:
                    if left[o] and not taken & hb and nb & frontier:
                        v += w.KB_LOCATION_REACH
            if frontier & ctx.castle_nbr_union:
                for nb in ctx.castle_nbrs:
                    if not nb & own and nb & frontier:
                        v += w.KB_CASTLE_REACH
        out.append(v)
    return out


# -- search helpers -----------------------------------------------------------------------------


def _kingdom_move_values(st, acts: list, w: KingdomSettings = DEFAULT) -> list[float]:
    """A cheap value of each action for the player to move, from masks of the hexes where a
    settlement gains something (no copy, no apply): the move ordering of deeper search nodes."""
    from builders.kingdom.notation import END, SHIFT, SRC_SHIFT

    ctx = _kingdom_context(st, w)
    board = st.board
    p = st.to_move
    own = st.own[p]
    near = st.near[p]
    feats: list[tuple[int, float]] = []
    m = 0
    for nb in ctx.castle_nbrs:
        if not nb & own:
            m |= nb
    if m:
        feats.append((m, w.KB_MOVE_CASTLE))
    m = 0
    taken = st.taken[p]
    left = st.left
    for o, hb, nb in ctx.locs:
        if left[o] and not taken & hb:
            m |= nb
    if m:
        feats.append((m, w.KB_TILE_BASE + w.KB_TILE_PER_TURN * min(min(st.supply) / 3.0, 12.0)))
    n = st.num_players
    for card in st.cards:
        if card == "fishermen":
            feats.append((board.near_water & ~board.water, w.KB_MOVE_GOOD))
        elif card == "miners":
            feats.append((board.near_mountain, w.KB_MOVE_GOOD))
        elif card == "workers":
            feats.append((board.near_special, w.KB_MOVE_GOOD))
        elif card == "merchants":
            feats.append((board.near_special, w.KB_MOVE_MERCHANTS))
        elif card == "discoverers":
            m = 0
            for row in ctx.rows:
                if not own & row:
                    m |= row
            feats.append((m, w.KB_MOVE_GOOD))
        elif card == "knights":
            counts = [(own & row).bit_count() for row in ctx.rows]
            top = max(counts)
            m = 0
            for row, k in zip(ctx.rows, counts):
                if k == top:
                    m |= row
            feats.append((m, w.KB_MOVE_KNIGHTS))
        elif card == "hermits":
            feats.append((~near, w.KB_MOVE_HERMITS))
        elif card == "citizens":
            feats.append((near, w.KB_MOVE_CITIZENS))
        elif card == "lords":
            for k, sector in enumerate(ctx.sectors):
                mine = (own & sector).bit_count()
                other = max((st.own[q] & sector).bit_count() for q in range(n) if q != p)
                feats.append((sector, w.KB_MOVE_LORDS if mine <= other else 0.5))
        elif card == "farmers":
            counts = [(own & s).bit_count() for s in ctx.sectors]
            low = min(counts)
            m = 0
            for s, k in zip(ctx.sectors, counts):
                if k == low:
                    m |= s
            feats.append((m, w.KB_MOVE_FARMERS))
    # the value of each hex an action names: the weights of the masks holding it, added in the
    # order of ``feats`` (one pass over the set bits of each mask within those hexes)
    need = 0
    for a in acts:
        if a < 400:
            need |= 1 << a
        elif a != END:
            need |= 1 << (a & 511) | 1 << ((a >> SRC_SHIFT) & 511)
    hv = [0.0] * 512
    for m, weight in feats:
        m &= need
        while m:
            low = m & -m
            hv[low.bit_length() - 1] += weight
            m ^= low
    out = []
    for a in acts:
        if a < 400:
            out.append(hv[a])
        elif a == END:
            out.append(0.0)
        elif a >> SHIFT >= 6:  # a move: what the settlement gains where it lands less where it was
            out.append(hv[a & 511] - 0.5 * hv[(a >> SRC_SHIFT) & 511])
        else:
            out.append(hv[a & 511] + w.KB_MOVE_TILE_BUILD)
    return out


def values(st, turn_over: int | None = None, settings: KingdomSettings | None = None) -> list[float]:
    """Per-seat estimates of the final gold (``builders.ai.evaluate.values``), with ``settings``
    (``weights(...)``; None: ``DEFAULT``)."""
    native = getattr(st, "eval_values", None)  # a native state values itself, with the same numbers
    if settings is not None and settings != DEFAULT:
        if native is not None:
            return native(turn_over is not None, native_weights(settings))
        return _kingdom_values(st, turn_over, settings)
    return native(turn_over is not None) if native is not None else _kingdom_values(st, turn_over)


def move_values(st, acts: list, settings: KingdomSettings | None = None) -> list[float]:
    """A cheap value of each of ``acts`` for the player to move (higher first), with ``settings``."""
    if not acts:
        return []
    native = getattr(st, "eval_moves", None)
    if settings is not None and settings != DEFAULT:
        if native is not None:
            return native(acts, native_weights(settings))
        return _kingdom_move_values(st, acts, settings)
    return native(acts) if native is not None else _kingdom_move_values(st, acts)


def decision_key(st) -> int:
    """The terrain card of the player to move: with the actions that led to a position, it decides
    the legal actions."""
    return st.hand[st.to_move]
