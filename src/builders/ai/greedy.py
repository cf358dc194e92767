"""The greedy agent: one ply, the game's evaluation (``builders.ai.evaluate``) after each legal action.

Every action is tried on a determinized copy of the state (``resample_hidden`` from the agent's own
generator), so an action that draws a card (Kingdom Builder's ``end``, The Builders' ``open`` and
``recruit``) draws from what the seat may know, never from the true deck. The value of an action is the
seat's lead over the best other seat after it. ``noise`` adds a Gaussian error (in units of the
game's win scale) to each value: the easy level.
"""

from __future__ import annotations

import random

from builders.ai.evaluate import WIN_SCALE, advantages
from builders.core.rng import Rng
from builders.core.state import Action, GameState


class GreedyAgent:
    """Picks the action with the best one-ply evaluation (ties: the first in legal order)."""

    def __init__(self, seed: int | None = None, noise: float = 0.0, name: str | None = None):
        self.seed = seed
        self.noise = float(noise)
        self.random = random.Random(seed)
        self.rng = Rng(self.random.getrandbits(64))
        self.name = name or ("greedy" if not noise else f"greedy(noise={noise:g})")
        self.last_stats: dict[str, float] = {}

    def scores(self, state: GameState) -> list[tuple[Action, float]]:
        """Every legal action with its value for the player to move (noise included)."""
        seat = state.current_player
        legal = state.legal_actions()
        det = state.resample_hidden(seat, self.rng)
        sd = self.noise * WIN_SCALE[state.GAME]
        out = []
        for a in legal:
            child = det.copy()
            child.apply(a)
            v = advantages(child)[seat]
            if sd:
                v += self.random.gauss(0.0, sd)
            out.append((a, v))
        return out

    def act(self, state: GameState) -> Action:
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        best_action, best = legal[0], float("-inf")
        for a, v in self.scores(state):
            if v > best:
                best_action, best = a, v
        self.last_stats = {"actions": len(legal), "value": best}
        return best_action
