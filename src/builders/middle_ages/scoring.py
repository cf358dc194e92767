"""Final score (rules.md "End of the game"): VP of completed buildings and machines, plus 1 VP per full
10 coins. Ties: most VP from buildings and machines, then most coins; players still equal share the win."""

from __future__ import annotations

from typing import TYPE_CHECKING

from builders.core.state import Result, winners_of
from builders.middle_ages.cards import MACHINES, VP

if TYPE_CHECKING:
    from builders.middle_ages.state import MiddleAgesState

COINS_PER_VP = 10


def breakdown(state: MiddleAgesState, seat: int) -> dict[str, int]:
    """``{"buildings", "machines", "coins"}``: the VP of each source for ``seat`` (any time)."""
    buildings = machines = 0
    for card in state.done[seat]:
        if card in MACHINES:
            machines += VP[card]
        else:
            buildings += VP[card]
    return {"buildings": buildings, "machines": machines, "coins": state.coins[seat] // COINS_PER_VP}


def final_result(state: MiddleAgesState) -> Result:
    parts = tuple(breakdown(state, seat) for seat in range(state.num_players))
    scores = tuple(sum(b.values()) for b in parts)
    keys = [(scores[seat], parts[seat]["buildings"] + parts[seat]["machines"], state.coins[seat])
            for seat in range(state.num_players)]
    return Result(scores, parts, winners_of(keys))
