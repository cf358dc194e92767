"""Agents and the loop that plays a game between them."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Protocol

from builders.core.state import A, GameState


class Agent(Protocol):
    name: str

    def act(self, state: GameState[A]) -> A:
        """Choose an action for ``state.current_player``."""


class RandomAgent:
    """Plays a uniformly random legal action."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.random = random.Random(seed)

    def act(self, state: GameState[A]) -> A:
        actions = state.legal_actions()
        return actions[self.random.randrange(len(actions))]


def play(state: GameState[A], agents: Sequence[Agent], max_actions: int = 100_000) -> GameState[A]:
    """Play ``state`` to the end, seat ``i`` choosing with ``agents[i]``; returns the same state."""
    if len(agents) != state.num_players:
        raise ValueError(f"{state.num_players} seats need {state.num_players} agents, not {len(agents)}")
    for _ in range(max_actions):
        if state.is_over():
            return state
        state.apply(agents[state.current_player].act(state))
    raise RuntimeError(f"the game did not end within {max_actions} actions")
