"""JSON positions: :func:`load_position` (``KingdomState.from_json``) reads one; :func:`dump_position`
(``state.to_json()``) and :func:`observation` (both in :mod:`builders.kingdom.dump`) write one.

A position::

    {"sections": [[name, turned] x4], "cards": [3 names],
     "players": [{"settlements": [[R, C], ...], "supply": 37, "terrain": "grass" | null,
                  "tiles": [{"kind": "farm", "from": [R, C], "state": "ready" | "used" | "new"}],
                  "taken_from": [[R, C], ...]}, ...],
     "tiles_left": [{"at": [R, C], "count": 2}, ...], "to_move": 0, "built_this_turn": 0,
     "deck": [names, top first], "discard": [names], "removed": [names], "start_player": 0,
     "final_round": false, "game_over": false, "turn": 0}

Every key but sections, cards and players[].settlements may be left out: it then takes the value of
a turn's start with nothing else happened. A missing (or null) terrain card is drawn from the cards
not accounted for, shuffled with the seed. ``"format": 1`` marks a position of a game played under
the rules of record format 1 (the reshuffle waits for the next draw): only such a position may have
an empty deck while the discard pile holds cards. Any other key is refused, and so is any value of
the wrong type: the error (InvalidPosition) names the key and the place.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from builders.core.errors import InvalidPosition
from builders.core.rng import Rng
from builders.kingdom.board import BIT, TERRAIN_WORDS, bits, cell, dilate, get_board, hex_name
from builders.kingdom.checks import check_cards, check_deck, check_sections, is_int, shown
from builders.kingdom.data import SECTION_NAMES, TERRAINS
from builders.kingdom.dump import dump_position, observation
from builders.kingdom.state import KingdomState

__all__ = ["POSITION_KEYS", "PLAYER_KEYS", "cells", "dump_position", "load_position", "observation"]

POSITION_KEYS = (
    "sections",
    "cards",
    "players",
    "tiles_left",
    "to_move",
    "built_this_turn",
    "deck",
    "deck_count",
    "discard",
    "removed",
    "start_player",
    "final_round",
    "game_over",
    "turn",
    "seed",
    "format",
)
PLAYER_KEYS = ("settlements", "supply", "terrain", "tiles", "taken_from")
TILE_KEYS = ("kind", "from", "state")
TILES_LEFT_KEYS = ("at", "count")
#: the record formats whose rules a position may follow (see builders.kingdom.state)
POSITION_FORMATS = (1, 2)
_CODE = {t: i for i, t in enumerate(TERRAINS)}


# -- loading ------------------------------------------------------------------------------------


def _hex(value: Any, what: str) -> int:
    if not isinstance(value, (list, tuple)) or len(value) != 2 or not all(is_int(v) for v in value):
        raise InvalidPosition(f"{what} must be a [R, C] pair, not {shown(value)}")
    r: int
    c: int
    r, c = value
    if not (0 <= r < 20 and 0 <= c < 20):
        raise InvalidPosition(f"{what}: hex {shown(r)},{shown(c)} is off the map")
    return r * 20 + c


def _list(value: Any, what: str) -> list[Any] | tuple[Any, ...]:
    if not isinstance(value, (list, tuple)):
        raise InvalidPosition(f"{what} must be a list, not {shown(value)}")
    return value


def _object(value: Any, keys: tuple[str, ...], what: str, required: tuple[str, ...] = ()) -> Mapping[str, Any]:
    """``value`` as a JSON object with only ``keys`` (and every one of ``required``)."""
    if not isinstance(value, Mapping):
        raise InvalidPosition(f"{what} must be an object with keys {', '.join(keys)}, not {shown(value)}")
    for key in value:
        if key not in keys:
            raise InvalidPosition(f"{what}: unknown key {shown(key)} (the keys are {', '.join(keys)})")
    for key in required:
        if key not in value:
            raise InvalidPosition(f"{what} has no {key!r}")
    return value


def _int(value: Any, what: str, low: int, high: int) -> int:
    if not is_int(value) or not low <= value <= high:
        raise InvalidPosition(f"{what} must be a whole number from {low} to {high}, not {shown(value)}")
    return value


def _bool(value: Any, what: str) -> bool:
    if not isinstance(value, bool):
        raise InvalidPosition(f"{what} must be true or false, not {shown(value)}")
    return value


def _terrain(value: Any, what: str) -> int:
    if not isinstance(value, str) or value not in _CODE:
        raise InvalidPosition(f"{what}: unknown terrain {shown(value)} (the terrains are {', '.join(TERRAINS)})")
    return _CODE[value]


def _terrains(value: Any, what: str) -> list[int]:
    if not isinstance(value, (list, tuple)):
        raise InvalidPosition(f"{what} must be a list of terrain names, not {shown(value)}")
    return [_terrain(name, f"{what}[{i}]") for i, name in enumerate(value)]


def load_position(pos: Any, seed: int = 0) -> KingdomState:
    """The state of a JSON position; InvalidPosition saying exactly what is wrong and where."""
    if not isinstance(pos, Mapping):
        raise InvalidPosition("a position is a JSON object with keys sections, cards and players")
    for key in pos:
        if key not in POSITION_KEYS:
            raise InvalidPosition(f"unknown position key {shown(key)} (the keys are {', '.join(POSITION_KEYS)})")
    for key in ("sections", "cards", "players"):
        if key not in pos:
            raise InvalidPosition(f"the position has no {key!r}")
    sections = check_sections(pos["sections"], error=InvalidPosition)
    cards = check_cards(pos["cards"], error=InvalidPosition)
    board = get_board(sections)
    players = pos["players"]
    if not isinstance(players, (list, tuple)) or not 2 <= len(players) <= 4:
        raise InvalidPosition("players must be a list of 2 to 4 player objects")
    n = len(players)
    if "seed" in pos:
        seed = pos["seed"]
    if not is_int(seed):
        raise InvalidPosition(f"the seed must be an integer, not {shown(seed)}")
    fmt = pos.get("format", 2)
    if not is_int(fmt) or fmt not in POSITION_FORMATS:
        raise InvalidPosition(
            f"format must be 1 or 2 (the record format whose rules the game follows), not {shown(fmt)}"
        )
    if "deck_count" in pos:
        _int(pos["deck_count"], "deck_count", 0, 25)
    start = _int(pos.get("start_player", 0), "start_player", 0, n - 1)
    setup = {
        "players": n,
        "sections": [[a, b] for a, b in sections],
        "cards": list(cards),
        "start_player": start,
        "seed": seed & ((1 << 64) - 1),
    }
    st = KingdomState.blank(board, n, cards, setup, start, Rng(seed))
    st.legacy = fmt == 1
    st.to_move = _int(pos.get("to_move", 0), "to_move", 0, n - 1)
    st.built = _int(pos.get("built_this_turn", 0), "built_this_turn", 0, 3)
    st.turn = _int(pos.get("turn", 0), "turn", 0, 10**9)
    st.over = _bool(pos.get("game_over", False), "game_over")

    owner: dict[int, int] = {}
    hands: list[int | None] = []
    for p, player in enumerate(players):
        who = f"seat {p}"
        _object(player, PLAYER_KEYS, who, required=("settlements",))
        setts = player["settlements"]
        if not isinstance(setts, (list, tuple)):
            raise InvalidPosition(f"{who}: settlements must be a list of [R, C] pairs")
        own = 0
        for value in setts:
            h = _hex(value, f"{who}: settlement")
            if h in owner:
                if owner[h] == p:
                    raise InvalidPosition(f"{who} has two settlements on hex {hex_name(h)}")
                raise InvalidPosition(f"hex {hex_name(h)} has settlements of seats {owner[h]} and {p}")
            if not (board.buildable | board.water) & BIT[h]:
                raise InvalidPosition(
                    f"{who}: a settlement on hex {hex_name(h)}, a "
                    f"{TERRAIN_WORDS[board.terrain[h]]} hex, where nothing can stand"
                )
            owner[h] = p
            own |= BIT[h]
        count = len(setts)
        if count > 40:
            raise InvalidPosition(f"{who} has {count} settlements; a player has only 40")
        supply = _int(player.get("supply", 40 - count), f"{who}: supply", 0, 40)
        if supply + count != 40:
            raise InvalidPosition(f"{who}: supply {supply} + {count} settlements on the map is not 40")
        st.own[p] = own
        st.occ |= own
        st.near[p] = dilate(own)
        st.supply[p] = supply
        terrain = player.get("terrain")
        hands.append(None if terrain is None else _terrain(terrain, who))
        tiles = player.get("tiles", [])
        if not isinstance(tiles, (list, tuple)):
            raise InvalidPosition(f"{who}: tiles must be a list of {{kind, from, state}} objects")
        for i, tile in enumerate(tiles):
            what = f"{who}: tile {i}"
            _object(tile, TILE_KEYS, what, required=("from",))
            h = _hex(tile["from"], f"{what} 'from'")
            if not board.location & BIT[h]:
                raise InvalidPosition(f"{who}: a tile from hex {hex_name(h)}, which is not a location hex")
            kind = board.kind_name(h)
            if "kind" in tile and tile["kind"] != kind:
                if not isinstance(tile["kind"], str) or tile["kind"] not in SECTION_NAMES:
                    raise InvalidPosition(f"{what}: unknown tile kind {shown(tile['kind'])}")
                raise InvalidPosition(
                    f"{who}: a {tile['kind']} tile cannot come from hex {hex_name(h)}, a {kind} location"
                )
            if st.held[p] & BIT[h]:
                raise InvalidPosition(
                    f"{who} holds two tiles from hex {hex_name(h)}; one location gives a player one tile"
                )
            state = tile.get("state", "ready")
            if not isinstance(state, str) or state not in ("ready", "used", "new"):
                raise InvalidPosition(f"{what}: tile state must be ready, used or new, not {shown(state)}")
            if state != "ready" and p != st.to_move:
                raise InvalidPosition(f"{who}: only the player to move can have a {state} tile")
            if not board.nbr_mask[h] & own:
                raise InvalidPosition(f"{who} holds a tile from hex {hex_name(h)} but has no settlement next to it")
            st.held[p] |= BIT[h]
            if state == "used":
                st.used[p] |= BIT[h]
            elif state == "new":
                st.new[p] |= BIT[h]
        taken = st.held[p]
        taken_from = player.get("taken_from", [])
        if not isinstance(taken_from, (list, tuple)):
            raise InvalidPosition(f"{who}: taken_from must be a list of [R, C] pairs")
        for value in taken_from:
            h = _hex(value, f"{who}: taken_from")
            if not board.location & BIT[h]:
                raise InvalidPosition(f"{who}: taken_from hex {hex_name(h)} is not a location hex")
            taken |= BIT[h]
        st.taken[p] = taken

    for h in board.locations:
        takers = sum(1 for p in range(n) if st.taken[p] & BIT[h])
        if takers > 2:
            raise InvalidPosition(f"{takers} players took a tile from hex {hex_name(h)}, which had only 2")
        st.left[board.loc_ord[h]] = 2 - takers
    tiles_left = pos.get("tiles_left")
    if tiles_left is not None:
        if not isinstance(tiles_left, (list, tuple)):
            raise InvalidPosition("tiles_left must be a list of {at, count} objects")
        for i, entry in enumerate(tiles_left):
            _object(entry, TILES_LEFT_KEYS, f"tiles_left entry {i}", required=TILES_LEFT_KEYS)
            h = _hex(entry["at"], f"tiles_left entry {i} 'at'")
            if not board.location & BIT[h]:
                raise InvalidPosition(f"tiles_left: hex {hex_name(h)} is not a location hex")
            o = board.loc_ord[h]
            most = 2 - sum(1 for p in range(n) if st.taken[p] & BIT[h])
            count = _int(entry["count"], f"tiles_left at {hex_name(h)}", 0, 2)
            if count > most:
                raise InvalidPosition(
                    f"hex {hex_name(h)} cannot have {count} tiles left: "
                    f"{2 - most} {'was' if 2 - most == 1 else 'were'} taken from it"
                )
            st.left[o] = count

    discard = _terrains(pos.get("discard", []), "discard")
    removed = _terrains(pos.get("removed", []), "removed")
    known = Counter(h for h in hands if h is not None) + Counter(discard) + Counter(removed)
    if "deck" in pos:
        deck = _terrains(pos["deck"], "deck")
        total = known + Counter(deck)
        names = [TERRAINS[c] for c in total.elements()]
        if sum(total.values()) != 25 or any(total[c] != 5 for c in range(5)):
            for c in range(5):
                if total[c] > 5:
                    raise InvalidPosition(
                        f"the cards (hands, deck, discard, removed) hold {total[c]} {TERRAINS[c]}, not 5"
                    )
            check_deck(names, error=InvalidPosition, what="set of cards (hands, deck, discard, removed)")
        deck.reverse()
    else:
        for c in range(5):
            if known[c] > 5:
                raise InvalidPosition(f"the cards (hands, discard, removed) hold {known[c]} {TERRAINS[c]}, not 5")
        deck = []
        for c in range(5):
            deck.extend([c] * (5 - known[c]))
        st.rng.shuffle(deck)
    if not deck and discard and not st.legacy:
        raise InvalidPosition(
            f"the deck is empty while the discard pile holds {len(discard)} "
            f"card{'s' if len(discard) > 1 else ''}: the discard pile is shuffled into a "
            f"new deck as soon as the deck runs out (put those cards in the deck)"
        )
    st.deck = deck
    st.discard = discard
    st.removed = removed
    st.final_round = _bool(pos.get("final_round", any(s == 0 for s in st.supply)), "final_round")
    if any(s == 0 for s in st.supply) and not st.final_round:
        raise InvalidPosition("final_round must be true: a supply is empty")
    for i in range(n):
        q = (st.to_move + i) % n
        hand = hands[q]
        if hand is not None:
            st.hand[q] = hand
        elif not st.over and (st.deck or st.discard):
            st.hand[q] = st._draw()
    st.history = []
    if not st.over:
        p = st.to_move
        t = st.hand[p]
        if t >= 0 and st.built < 3 and st.supply[p] and not board.code_mask[t] & ~st.occ:
            st._replace_card(p)
            st.history = []
    return st


#: KingdomState.from_json reads positions with load_position (the state module knows no JSON format)
KingdomState.position_loader = staticmethod(load_position)


def cells(mask: int) -> list[tuple[int, int]]:
    return [cell(h) for h in bits(mask)]
