"""JSON positions: :func:`dump_position` (``state.to_json()``), :func:`load_position`
(``KingdomState.from_json``) and :func:`observation`.

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
not accounted for, shuffled with the seed.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from builders.core.errors import InvalidPosition
from builders.core.rng import Rng
from builders.kingdom.board import BIT, TERRAIN_WORDS, bits, cell, dilate, get_board, hex_name
from builders.kingdom.data import SECTION_NAMES, TERRAINS
from builders.kingdom.setup import check_cards, check_deck, check_sections

POSITION_KEYS = (
    "sections", "cards", "players", "tiles_left", "to_move", "built_this_turn", "deck", "deck_count",
    "discard", "removed", "start_player", "final_round", "game_over", "turn", "seed",
)
PLAYER_KEYS = ("settlements", "supply", "terrain", "tiles", "taken_from")
_CODE = {t: i for i, t in enumerate(TERRAINS)}


def _rc(i: int) -> list[int]:
    return [i // 20, i % 20]


def dump_position(st) -> dict[str, Any]:
    board = st.board
    players = []
    for p in range(st.num_players):
        tiles = []
        for h in bits(st.held[p]):
            state = "used" if st.used[p] & BIT[h] else "new" if st.new[p] & BIT[h] else "ready"
            tiles.append({"kind": board.kind_name(h), "from": _rc(h), "state": state})
        players.append({
            "settlements": [_rc(h) for h in bits(st.own[p])],
            "supply": st.supply[p],
            "terrain": TERRAINS[st.hand[p]] if st.hand[p] >= 0 else None,
            "tiles": tiles,
            "taken_from": [_rc(h) for h in bits(st.taken[p])],
        })
    return {
        "sections": [[n, t] for n, t in board.sections],
        "cards": list(st.cards),
        "players": players,
        "tiles_left": [{"at": _rc(h), "count": st.left[board.loc_ord[h]]} for h in board.locations],
        "to_move": st.to_move,
        "built_this_turn": st.built,
        "deck": [TERRAINS[c] for c in reversed(st.deck)],
        "discard": [TERRAINS[c] for c in st.discard],
        "removed": [TERRAINS[c] for c in st.removed],
        "start_player": st.start_player,
        "final_round": st.final_round,
        "game_over": st.over,
        "turn": st.turn,
    }


def observation(st, seat: int) -> dict[str, Any]:
    """The position as ``seat`` sees it: the hidden hand cards of the other seats are null (the card
    of the player to move is public: it was revealed when the turn began) and the deck is only
    its size, ``deck_count``."""
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < st.num_players:
        raise ValueError(f"seat must be from 0 to {st.num_players - 1}, not {seat!r}")
    pos = dump_position(st)
    for q, player in enumerate(pos["players"]):
        if q != seat and not (q == st.to_move and not st.over):
            player["terrain"] = None
    pos["deck_count"] = len(pos.pop("deck"))
    return pos


# -- loading ------------------------------------------------------------------------------------

def _hex(value: Any, what: str) -> int:
    if (not isinstance(value, (list, tuple)) or len(value) != 2
            or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)):
        raise InvalidPosition(f"{what} must be a [R, C] pair, not {value!r}")
    r, c = value
    if not (0 <= r < 20 and 0 <= c < 20):
        raise InvalidPosition(f"{what}: hex {r},{c} is off the map")
    return r * 20 + c


def _int(value: Any, what: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise InvalidPosition(f"{what} must be a whole number from {low} to {high}, not {value!r}")
    return value


def _bool(value: Any, what: str) -> bool:
    if not isinstance(value, bool):
        raise InvalidPosition(f"{what} must be true or false, not {value!r}")
    return value


def _terrains(value: Any, what: str) -> list[int]:
    if not isinstance(value, (list, tuple)):
        raise InvalidPosition(f"{what} must be a list of terrain names")
    out = []
    for name in value:
        if name not in _CODE:
            raise InvalidPosition(f"unknown terrain {name!r} in {what} (the terrains are {', '.join(TERRAINS)})")
        out.append(_CODE[name])
    return out


def load_position(pos: Any, seed: int = 0):
    """The state of a JSON position; InvalidPosition saying exactly what is wrong."""
    from builders.kingdom.state import KingdomState

    if not isinstance(pos, Mapping):
        raise InvalidPosition("a position is a JSON object with keys sections, cards and players")
    for key in pos:
        if key not in POSITION_KEYS:
            raise InvalidPosition(f"unknown position key {key!r} (the keys are {', '.join(POSITION_KEYS)})")
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
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise InvalidPosition(f"the seed must be an integer, not {seed!r}")
    start = _int(pos.get("start_player", 0), "start_player", 0, n - 1)
    setup = {"players": n, "sections": [[a, b] for a, b in sections], "cards": list(cards),
             "start_player": start, "seed": seed & ((1 << 64) - 1)}
    st = KingdomState.blank(board, n, cards, setup, start, Rng(seed))
    st.to_move = _int(pos.get("to_move", 0), "to_move", 0, n - 1)
    st.built = _int(pos.get("built_this_turn", 0), "built_this_turn", 0, 3)
    st.turn = _int(pos.get("turn", 0), "turn", 0, 10**9)
    st.over = _bool(pos.get("game_over", False), "game_over")

    owner: dict[int, int] = {}
    hands: list[int | None] = []
    for p, player in enumerate(players):
        who = f"seat {p}"
        if not isinstance(player, Mapping):
            raise InvalidPosition(f"{who} must be a JSON object with settlements")
        for key in player:
            if key not in PLAYER_KEYS:
                raise InvalidPosition(f"{who}: unknown key {key!r} (the keys are {', '.join(PLAYER_KEYS)})")
        if "settlements" not in player:
            raise InvalidPosition(f"{who} has no 'settlements'")
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
                raise InvalidPosition(f"{who}: a settlement on hex {hex_name(h)}, a "
                                      f"{TERRAIN_WORDS[board.terrain[h]]} hex, where nothing can stand")
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
        if terrain is not None and terrain not in _CODE:
            raise InvalidPosition(f"{who}: unknown terrain {terrain!r} (the terrains are {', '.join(TERRAINS)})")
        hands.append(None if terrain is None else _CODE[terrain])
        tiles = player.get("tiles", [])
        if not isinstance(tiles, (list, tuple)):
            raise InvalidPosition(f"{who}: tiles must be a list of {{kind, from, state}} objects")
        for tile in tiles:
            if not isinstance(tile, Mapping) or "from" not in tile:
                raise InvalidPosition(f"{who}: a tile must be an object with kind, from and state, not {tile!r}")
            h = _hex(tile["from"], f"{who}: tile 'from'")
            if not board.location & BIT[h]:
                raise InvalidPosition(f"{who}: a tile from hex {hex_name(h)}, which is not a location hex")
            kind = board.kind_name(h)
            if "kind" in tile and tile["kind"] != kind:
                if tile["kind"] not in SECTION_NAMES:
                    raise InvalidPosition(f"{who}: unknown tile kind {tile['kind']!r}")
                raise InvalidPosition(f"{who}: a {tile['kind']} tile cannot come from hex {hex_name(h)}, "
                                      f"a {kind} location")
            if st.held[p] & BIT[h]:
                raise InvalidPosition(f"{who} holds two tiles from hex {hex_name(h)}; one location gives "
                                      f"a player one tile")
            state = tile.get("state", "ready")
            if state not in ("ready", "used", "new"):
                raise InvalidPosition(f"{who}: tile state must be ready, used or new, not {state!r}")
            if state != "ready" and p != st.to_move:
                raise InvalidPosition(f"{who}: only the player to move can have a {state} tile")
            if not board.nbr_mask[h] & own:
                raise InvalidPosition(f"{who} holds a tile from hex {hex_name(h)} but has no settlement "
                                      f"next to it")
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
        for entry in tiles_left:
            if not isinstance(entry, Mapping) or "at" not in entry or "count" not in entry:
                raise InvalidPosition(f"a tiles_left entry must be an object with at and count, not {entry!r}")
            h = _hex(entry["at"], "tiles_left 'at'")
            if not board.location & BIT[h]:
                raise InvalidPosition(f"tiles_left: hex {hex_name(h)} is not a location hex")
            o = board.loc_ord[h]
            most = 2 - sum(1 for p in range(n) if st.taken[p] & BIT[h])
            count = _int(entry["count"], f"tiles_left at {hex_name(h)}", 0, 2)
            if count > most:
                raise InvalidPosition(f"hex {hex_name(h)} cannot have {count} tiles left: "
                                      f"{2 - most} {'was' if 2 - most == 1 else 'were'} taken from it")
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
                    raise InvalidPosition(f"the cards (hands, deck, discard, removed) hold {total[c]} "
                                          f"{TERRAINS[c]}, not 5")
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
    st.deck = deck
    st.discard = discard
    st.removed = removed
    st.final_round = _bool(pos.get("final_round", any(s == 0 for s in st.supply)), "final_round")
    if any(s == 0 for s in st.supply) and not st.final_round:
        raise InvalidPosition("final_round must be true: a supply is empty")
    for i in range(n):
        q = (st.to_move + i) % n
        if hands[q] is not None:
            st.hand[q] = hands[q]
        elif not st.over and st.deck:
            st.hand[q] = st.deck.pop()
    if not st.over:
        p = st.to_move
        t = st.hand[p]
        if t >= 0 and st.built < 3 and st.supply[p] and not board.code_mask[t] & ~st.occ:
            st._replace_card(p)
            st.history = []
    return st


def cells(mask: int) -> list[tuple[int, int]]:
    return [cell(h) for h in bits(mask)]
