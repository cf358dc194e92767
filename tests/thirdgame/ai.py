"""Pig's AI kit (its plugin's ``ai``): a trivial evaluation, a move order, turns of many decisions."""

from __future__ import annotations

from builders.ai.kit import AiKit
from tests.thirdgame.game import HOLD, PigState


def values(state: PigState, turn_over: int | None = None, weights: object = None) -> list[float]:
    """Banked points, the pot counted at half for the seat to move."""
    if weights is not None:
        raise ValueError("weights of the evaluation are not Pig's")
    out = [float(b) for b in state.banked]
    if not state.is_over():
        out[state.to_move] += state.pot / 2
    return out


def move_values(state: PigState, actions: list[int]) -> list[float]:
    """Hold first once the pot is 10 or more, roll first before."""
    hold_first = state.pot >= 10
    return [float(hold_first) if a == HOLD else float(not hold_first) for a in actions]


KIT = AiKit(
    values=values,
    win_scale=5.0,
    move_values=move_values,
    turn_share=lambda state: (1.0, 3.0, 4.0),
    search={"c": 0.5, "scale": 5.0, "widen": 2.0, "top": 0},
)
