"""What the rules, tiles, scoring and JSON writer read and change of a Kingdom Builder position:
:class:`Position`, the fields of :class:`~builders.kingdom.state.KingdomState` (described there).

Those modules are below the state (it calls them), so they name its fields through this protocol
instead of importing the state back.
"""

from __future__ import annotations

from typing import Protocol

from builders.kingdom.board import Board


class Position(Protocol):
    """The fields of a Kingdom Builder position (masks are ints, one bit per hex; cards are codes)."""

    board: Board
    num_players: int
    #: the 3 scoring cards, by name
    cards: tuple[str, ...]
    start_player: int
    to_move: int
    #: per seat: its settlements, and the hexes next to them
    own: list[int]
    near: list[int]
    #: every settlement on the map
    occ: int
    supply: list[int]
    #: per seat: the terrain card held (-1: none)
    hand: list[int]
    #: the deck, top card last
    deck: list[int]
    discard: list[int]
    removed: list[int]
    #: per seat, masks of location hexes: the tiles held, used this turn, taken this turn, ever taken
    held: list[int]
    used: list[int]
    new: list[int]
    taken: list[int]
    #: per location (by ordinal): the tiles left on it
    left: list[int]
    #: settlements built this turn by the mandatory build
    built: int
    final_round: bool
    over: bool
    turn: int
    #: the record format 1 rules (see builders.kingdom.state)
    legacy: bool
    #: the legal actions of this position once listed (until the next apply), or None
    _legal: tuple[int, ...] | None
