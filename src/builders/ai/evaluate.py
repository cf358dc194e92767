"""Position evaluations for both games: per-seat estimates of final points, read from the public part
of a position only (the board, the rows, the crews, the coins: never a hidden card or a deck order).

``values(state)`` gives one number per seat in the game's points (gold for Kingdom Builder, VP for The
Builders). ``win_values(state)`` turns them into per-seat values in [0, 1] (the chance of winning, as a
logistic of the lead over the best other seat); a finished game gives its true returns.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from builders.core.state import GameState

# -- Kingdom Builder ----------------------------------------------------------------------------

#: the value of a held tile: a fixed part plus a part per turn the seat is still expected to play
KB_TILE_BASE = 2.0
KB_TILE_PER_TURN = 0.6
#: a location the seat has not taken from, with a tile left and a free hex next to it that the seat
#: can reach with an adjacent build
KB_LOCATION_REACH = 1.5
#: a castle not yet scored, with a free buildable hex next to it that the seat reaches
KB_CASTLE_REACH = 1.0


def _kingdom_values(st) -> list[float]:
    from builders.kingdom.board import SECTOR_MASKS
    from builders.kingdom.scoring import CARD_RULES, castles

    board = st.board
    n = st.num_players
    rules = [CARD_RULES[c] for c in st.cards]
    turns_left = min(st.supply) / 3.0
    tile_value = KB_TILE_BASE + KB_TILE_PER_TURN * min(turns_left, 12.0)
    free = board.buildable & ~st.occ
    nbr = board.nbr_mask
    counts = [[(own & sector).bit_count() for sector in SECTOR_MASKS] for own in st.own]
    out = []
    for p in range(n):
        v = float(castles(st, p))
        for rule in rules:
            v += rule(st, p)
        if st.over:
            out.append(v)
            continue
        v += tile_value * st.held[p].bit_count()
        v += _kingdom_shaping(st, p, counts)
        reach = st.near[p] & free
        if reach:
            own = st.own[p]
            taken = st.taken[p]
            for o, h in enumerate(board.locations):
                if st.left[o] and not (taken >> h) & 1 and nbr[h] & reach:
                    v += KB_LOCATION_REACH
            for c in board.castles:
                if not nbr[c] & own and nbr[c] & reach:
                    v += KB_CASTLE_REACH
        out.append(v)
    return out


#: gradients toward the cards whose gold comes in steps (values per settlement)
KB_LORDS_LEAD = 0.8
KB_FARMERS_LOW = 0.8
KB_CITIZENS_HALF = 0.5


KB_FRONTIER = 0.25       # a free hex next to own settlements where a settlement would score
KB_FRONTIER_CAP = 8
KB_NEW_ROW = 0.3         # discoverers: a row not yet reached with a free hex next to own settlements
KB_FARMERS_GAP = 0.6     # farmers: per step a sector without own settlement is away from them


def _kingdom_shaping(st, p: int, counts: list[list[int]]) -> float:
    """Small values that lead toward the next step of lords, farmers and citizens, whose gold moves in
    jumps that one build rarely reaches, and toward free hexes next to own settlements (the places the
    next builds can go) where a settlement would score."""
    from builders.kingdom.board import ROW_MASKS, SECTOR_MASKS, dilate

    v = 0.0
    mine = counts[p]
    board = st.board
    own = st.own[p]
    frontier = st.near[p] & board.buildable & ~st.occ
    for card in st.cards:
        good = 0
        if card == "fishermen":
            good = board.near_water & ~board.water
        elif card == "miners":
            good = board.near_mountain
        elif card in ("workers", "merchants"):
            good = board.near_special
        if good:
            v += KB_FRONTIER * min(KB_FRONTIER_CAP, (frontier & good).bit_count())
        if card == "discoverers":
            v += KB_NEW_ROW * sum(1 for row in ROW_MASKS if frontier & row and not own & row)
        elif card == "farmers" and own:
            for k in range(4):
                if mine[k]:
                    continue
                reach = own
                steps = 0
                while not reach & SECTOR_MASKS[k] and steps < 8:
                    reach |= dilate(reach)
                    steps += 1
                v -= KB_FARMERS_GAP * steps
        if card == "lords":
            for k in range(4):
                best = max(counts[q][k] for q in range(len(counts)) if q != p)
                lead = mine[k] - best
                v += KB_LORDS_LEAD * (lead if -3 <= lead <= 2 else (2 if lead > 2 else -3))
        elif card == "farmers":
            low = sorted(mine)
            v += KB_FARMERS_LOW * (low[0] + low[1])
        elif card == "citizens":
            from builders.kingdom.scoring import groups

            big = max((g.bit_count() for g in groups(st.own[p])), default=0)
            v += KB_CITIZENS_HALF * (big & 1)
    return v


# -- The Builders: Middle Ages ------------------------------------------------------------------

MA_COIN = 0.12          # VP per coin (coins pay the workers; 10 coins are 1 VP at the end)
MA_ACTION = 0.25        # VP per action left in the turn (3 actions buy 6 coins)
MA_USEFUL_UNIT = 0.2    # VP per unit of free-crew production that the open sites still need
MA_SPARE_UNIT = 0.05    # VP per unit of free-crew production beyond that
MA_PROGRESS = 0.75      # share of a site's value earned by its covered requirement
MA_OPEN = 0.05          # share of a site's value for holding it open


def _ma_tables():
    from builders.middle_ages.cards import BUILDING_DECK, MACHINES, NUM_CARDS, PROD, REQ, REWARD, VP, unpack

    req = [unpack(REQ[c]) for c in range(NUM_CARDS)]
    prod = [unpack(PROD[c]) for c in range(NUM_CARDS)]
    site_value = [0.0] * NUM_CARDS
    for c in BUILDING_DECK:
        site_value[c] = VP[c] + MA_COIN * REWARD[c] + (MA_USEFUL_UNIT * sum(prod[c]) if c in MACHINES else 0.0)
    total = [max(1, sum(r)) for r in req]
    return req, prod, site_value, total


_MA = None


def _middle_ages_values(st) -> list[float]:
    """VP, coins, the covered part of each open site's requirement, the free crew's production (more
    for what the open sites still need), and the actions left in the turn (a seat that is not playing
    counts the actions of its next turn)."""
    global _MA
    if _MA is None:
        _MA = _ma_tables()
    req, prod, site_value, total = _MA
    n = st.num_players
    out = []
    for p in range(n):
        if st.over:
            out.append(st.vp[p] + st.coins[p] // 10 + 0.001 * st.coins[p])
            continue
        v = st.vp[p] + MA_COIN * st.coins[p]
        n0 = n1 = n2 = n3 = 0
        for s in st.sites[p]:
            g = st.progress[s]
            r = req[s]
            g0, g1, g2, g3 = g & 0xFF, (g >> 8) & 0xFF, (g >> 16) & 0xFF, (g >> 24) & 0xFF
            c0, c1, c2, c3 = min(g0, r[0]), min(g1, r[1]), min(g2, r[2]), min(g3, r[3])
            n0 += r[0] - c0
            n1 += r[1] - c1
            n2 += r[2] - c2
            n3 += r[3] - c3
            v += site_value[s] * (MA_OPEN + MA_PROGRESS * (c0 + c1 + c2 + c3) / total[s])
        k0 = k1 = k2 = k3 = 0
        for w in st.crew[p]:
            q = prod[w]
            k0 += q[0]
            k1 += q[1]
            k2 += q[2]
            k3 += q[3]
        useful = min(k0, n0) + min(k1, n1) + min(k2, n2) + min(k3, n3)
        v += MA_USEFUL_UNIT * useful + MA_SPARE_UNIT * (k0 + k1 + k2 + k3 - useful)
        v += MA_ACTION * (st.actions if p == st.cur else 3)
        out.append(v)
    return out


# -- both games ---------------------------------------------------------------------------------

_VALUES: dict[str, Callable[[GameState], list[float]]] = {
    "kingdom": _kingdom_values,
    "middle-ages": _middle_ages_values,
}
#: the logistic scale of win_values, in each game's points
WIN_SCALE = {"kingdom": 8.0, "middle-ages": 2.5}


def values(state: GameState) -> list[float]:
    """Per-seat estimates of the final points of ``state`` (public information only)."""
    return _VALUES[state.GAME](state)


def advantages(state: GameState) -> list[float]:
    """Per seat: its value minus the best value of the other seats."""
    v = values(state)
    out = []
    for p, mine in enumerate(v):
        best = max(x for q, x in enumerate(v) if q != p)
        out.append(mine - best)
    return out


def win_values(state: GameState, scale: float | None = None) -> list[float]:
    """Per-seat values in [0, 1]: the true returns of a finished game, else a logistic of each seat's
    lead over the best other seat."""
    if state.is_over():
        return state.returns()
    s = scale or WIN_SCALE[state.GAME]
    out = []
    for a in advantages(state):
        x = a / s
        out.append(1.0 / (1.0 + math.exp(-x)) if x > -30 else 0.0)
    return out
