"""A state as JSON: :func:`dump_position` (``state.to_json()``, the whole position) and
:func:`observation` (what one seat may know). The format is described in
:mod:`builders.kingdom.position`, which reads it back."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from builders.kingdom.board import BIT, bits
from builders.kingdom.data import TERRAINS
from builders.kingdom.protocol import Position


def _rc(i: int) -> list[int]:
    return [i // 20, i % 20]


def _position(st: Position, shown: Callable[[int], bool], whole: bool) -> dict[str, Any]:
    """The position with the hand card of each seat ``q`` for which ``shown(q)`` (the others null);
    the deck's cards in their order if ``whole``, else only how many it has (``deck_count``): an
    observation is made of what its seat may see, never by blanking the rest afterwards."""
    board = st.board
    # each field read once (on the native core each is made anew when read)
    held, used, new, own, taken = st.held, st.used, st.new, st.own, st.taken
    supply, hand, left = st.supply, st.hand, st.left
    players = []
    for p in range(st.num_players):
        tiles = []
        for h in bits(held[p]):
            state = "used" if used[p] & BIT[h] else "new" if new[p] & BIT[h] else "ready"
            tiles.append({"kind": board.kind_name(h), "from": _rc(h), "state": state})
        players.append(
            {
                "settlements": [[h // 20, h % 20] for h in bits(own[p])],
                "supply": supply[p],
                "terrain": TERRAINS[hand[p]] if shown(p) and hand[p] >= 0 else None,
                "tiles": tiles,
                "taken_from": [_rc(h) for h in bits(taken[p])],
            }
        )
    out = {
        "sections": [[n, t] for n, t in board.sections],
        "cards": list(st.cards),
        "players": players,
        "tiles_left": [{"at": _rc(h), "count": left[board.loc_ord[h]]} for h in board.locations],
        "to_move": st.to_move,
        "built_this_turn": st.built,
        **({"deck": [TERRAINS[c] for c in reversed(st.deck)]} if whole else {}),
        "discard": [TERRAINS[c] for c in st.discard],
        "removed": [TERRAINS[c] for c in st.removed],
        "start_player": st.start_player,
        "final_round": st.final_round,
        "game_over": st.over,
        "turn": st.turn,
        **({"format": 1} if st.legacy else {}),
    }
    if not whole:
        out["deck_count"] = len(st.deck)
    return out


def dump_position(st: Position) -> dict[str, Any]:
    return _position(st, lambda p: True, True)


def observation(st: Position, seat: int | None) -> dict[str, Any]:
    """The position as ``seat`` sees it (None: a spectator): the hand cards of the other seats are
    null (the card of the player to move is public: it was revealed when the turn began) and the
    deck is only its size, ``deck_count``. Only the cards ``seat`` may see are read."""
    if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < st.num_players):
        raise ValueError(f"seat must be from 0 to {st.num_players - 1} or None, not {seat!r}")
    mover = None if st.over else st.to_move
    return _position(st, lambda q: q == seat or q == mover, False)


def seat_observation(st: Position, seat: int, public: dict[str, Any]) -> dict[str, Any]:
    """``observation(st, seat)`` made from ``public``, the spectator's ``observation(st, None)``:
    the same object but for the seat's own hand card (the two share their other parts)."""
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < st.num_players:
        raise ValueError(f"seat must be from 0 to {st.num_players - 1}, not {seat!r}")
    players = list(public["players"])
    hand = st.hand[seat]
    players[seat] = {**players[seat], "terrain": TERRAINS[hand] if hand >= 0 else None}
    return {**public, "players": players}
