"""Scoring (rules.md, "Scoring"): castles and one function per Kingdom Builder card.

Every card function takes the state and a seat and returns the gold; :func:`breakdown` gives the
ordered per-card gold ``{"castles": n, card1: n, card2: n, card3: n}``.
"""

from __future__ import annotations

from builders.core.state import Result, winners_of
from builders.kingdom.board import ROW_MASKS, SECTOR_MASKS, bits, cell, dilate
from builders.kingdom.protocol import Position


def groups(own: int) -> list[int]:
    """The connected groups of a set of settlements (masks), in order of their lowest hex."""
    out = []
    rest = own
    while rest:
        group = rest & -rest
        while True:
            grown = (group | dilate(group)) & own
            if grown == group:
                break
            group = grown
        out.append(group)
        rest &= ~group
    return out


def castles(st: Position, seat: int) -> int:
    """3 gold per castle hex with at least one own settlement next to it."""
    own = st.own[seat]
    nbr = st.board.nbr_mask
    return 3 * sum(1 for c in st.board.castles if nbr[c] & own)


def fishermen(st: Position, seat: int) -> int:
    """1 per own settlement next to water; a settlement standing on water does not score (FAQ 3)."""
    b = st.board
    return (st.own[seat] & b.near_water & ~b.water).bit_count()


def miners(st: Position, seat: int) -> int:
    """1 per own settlement next to at least one mountain hex."""
    return (st.own[seat] & st.board.near_mountain).bit_count()


def workers(st: Position, seat: int) -> int:
    """1 per own settlement next to at least one castle or location hex."""
    return (st.own[seat] & st.board.near_special).bit_count()


def merchant_links(st: Position, seat: int) -> int:
    """The castle and location hexes linked by own settlement chains to at least one other one."""
    special = st.board.special
    linked = 0
    for group in groups(st.own[seat]):
        touched = dilate(group) & special
        if touched & (touched - 1):
            linked |= touched
    # a hex touched by two chains joins them, but a hex is already linked as soon as one chain
    # touching it touches another hex, so joining chains adds nothing to the count (FAQ 5)
    return linked


def merchants(st: Position, seat: int) -> int:
    """4 per castle or location hex linked to at least one other by own settlements (FAQ 5)."""
    return 4 * merchant_links(st, seat).bit_count()


def discoverers(st: Position, seat: int) -> int:
    """1 per horizontal line (global row) with at least one own settlement."""
    own = st.own[seat]
    return sum(1 for row in ROW_MASKS if own & row)


def knights(st: Position, seat: int) -> int:
    """2 per own settlement on the row where the player has the most."""
    own = st.own[seat]
    return 2 * max((own & row).bit_count() for row in ROW_MASKS)


def hermits(st: Position, seat: int) -> int:
    """1 per separate group of own settlements (a lone settlement is a group)."""
    return len(groups(st.own[seat]))


def citizens(st: Position, seat: int) -> int:
    """1 per 2 own settlements in the largest group (rounded down)."""
    return max((g.bit_count() for g in groups(st.own[seat])), default=0) // 2


def lords(st: Position, seat: int) -> int:
    """Per sector: 12 to every player with the highest count, 6 to every player with the second-highest
    distinct count; zero counts take part (FAQ 9-11)."""
    gold = 0
    for sector in SECTOR_MASKS:
        counts = [(own & sector).bit_count() for own in st.own]
        distinct = sorted(set(counts), reverse=True)
        mine = counts[seat]
        if mine == distinct[0]:
            gold += 12
        elif len(distinct) > 1 and mine == distinct[1]:
            gold += 6
    return gold


def farmers(st: Position, seat: int) -> int:
    """3 per own settlement in the sector where the player has the fewest (0 if a sector has none)."""
    own = st.own[seat]
    return 3 * min((own & sector).bit_count() for sector in SECTOR_MASKS)


CARD_RULES = {
    "fishermen": fishermen,
    "miners": miners,
    "merchants": merchants,
    "workers": workers,
    "discoverers": discoverers,
    "knights": knights,
    "hermits": hermits,
    "lords": lords,
    "citizens": citizens,
    "farmers": farmers,
}


def breakdown(st: Position, seat: int) -> dict[str, int]:
    """``{"castles": n, card1: n, card2: n, card3: n}`` in the setup's card order."""
    out = {"castles": castles(st, seat)}
    for card in st.cards:
        out[card] = CARD_RULES[card](st, seat)
    return out


def result(st: Position) -> Result:
    parts = tuple(breakdown(st, seat) for seat in range(st.num_players))
    scores = tuple(sum(p.values()) for p in parts)
    return Result(scores, parts, winners_of(scores))


def scoring_hexes(st: Position, seat: int, card: str) -> list[tuple[int, int]]:
    """The hexes that score ``card`` (or "castles") for ``seat``, as (R, C) in index order:
    the castles reached; the settlements counted; for merchants the linked castles and locations;
    for knights the settlements of the best row; for citizens the largest group; for lords and
    farmers the settlements in the sectors that score."""
    b = st.board
    own = st.own[seat]
    if card == "castles":
        m = sum(1 << c for c in b.castles if b.nbr_mask[c] & own)
    elif card == "fishermen":
        m = own & b.near_water & ~b.water
    elif card == "miners":
        m = own & b.near_mountain
    elif card == "workers":
        m = own & b.near_special
    elif card == "merchants":
        m = merchant_links(st, seat)
    elif card in ("discoverers", "hermits"):
        m = own
    elif card == "knights":
        rows = [own & row for row in ROW_MASKS]
        m = max(rows, key=lambda r: r.bit_count()) if own else 0
    elif card == "citizens":
        gs = groups(own)
        m = max(gs, key=lambda g: g.bit_count()) if gs else 0
    elif card == "lords":
        m = 0
        for sector in SECTOR_MASKS:
            counts = sorted({(o & sector).bit_count() for o in st.own}, reverse=True)
            if (own & sector).bit_count() in counts[:2]:
                m |= own & sector
    elif card == "farmers":
        counts = [(own & s).bit_count() for s in SECTOR_MASKS]
        m = own & SECTOR_MASKS[counts.index(min(counts))] if min(counts) else 0
    else:
        raise ValueError(f"unknown card {card!r}")
    return [cell(h) for h in bits(m)]
