"""Final score (rules.md "End of the game"): VP of completed buildings and machines, plus 1 VP per full
10 coins. Ties: most VP from buildings and machines, then most coins; players still equal share the win."""

from __future__ import annotations

from typing import Protocol

from builders.core.state import Result, winners_of
from builders.middle_ages.cards import MACHINES, VP


class Scored(Protocol):
    """What scoring reads of a position (:class:`builders.middle_ages.state.MiddleAgesState`)."""

    num_players: int
    coins: list[int]
    done: list[list[int]]


COINS_PER_VP = 10


def breakdown(state: Scored, seat: int) -> dict[str, int]:
    """``{"buildings", "machines", "coins"}``: the VP of each source for ``seat`` (any time)."""
    buildings = machines = 0
    for card in state.done[seat]:
        if card in MACHINES:
            machines += VP[card]
        else:
            buildings += VP[card]
    return {"buildings": buildings, "machines": machines, "coins": state.coins[seat] // COINS_PER_VP}


def final_result(state: Scored) -> Result:
    parts = tuple(breakdown(state, seat) for seat in range(state.num_players))
    scores = tuple(sum(b.values()) for b in parts)
    keys = [
        (scores[seat], parts[seat]["buildings"] + parts[seat]["machines"], state.coins[seat])
        for seat in range(state.num_players)
    ]
    return Result(scores, parts, winners_of(keys))
