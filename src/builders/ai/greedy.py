"""The greedy agent: one ply, the game's evaluation (``builders.ai.evaluate``) after each legal action.

Every action is tried on a determinized copy of the state (``resample_hidden`` from the agent's own
generator), so an action that draws a card draws from what the seat may know, never from the true
deck. The value of an action is the
seat's lead over the best other seat after it, compared first through its win value (so that a won game
that ends beats the same lead kept: the AI kit's ``win_margin``). ``noise`` adds a Gaussian error
(in units of the game's win scale) to each value: the easy level. ``weights`` (names of the game's
weights of the evaluation -> values, checked by its kit's ``weights``, or the game's settings object
itself) are the agent's own weights of the evaluation, the others the evaluation's defaults.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from builders.ai.evaluate import advantages, win_value
from builders.ai.kit import check_weights, kit
from builders.core.games import on_python
from builders.core.rng import Rng
from builders.core.state import Action, GameState


class GreedyAgent:
    """Picks the action with the best one-ply evaluation (ties: the first in legal order)."""

    def __init__(
        self,
        seed: int | None = None,
        noise: float = 0.0,
        name: str | None = None,
        weights: Mapping[str, float] | Any = None,
    ):
        self.seed = seed
        #: the agent's own weights of the evaluation: overrides by name (of some game's; the game's kit
        #: checks them again at a decision), or a game's settings object (pickled with the agent)
        self.weights = dict(weights or {}) if weights is None or isinstance(weights, Mapping) else weights
        if isinstance(self.weights, dict) and self.weights:
            check_weights(self.weights)
        self.noise = float(noise)
        self.random = random.Random(seed)
        self.rng = Rng(self.random.getrandbits(64))
        self.name = name or ("greedy" if not noise else f"greedy(noise={noise:g})")
        self.last_stats: dict[str, float] = {}

    def scores(self, state: GameState) -> list[tuple[Action, float]]:
        """Every legal action with its value for the player to move (its lead, noise included)."""
        return [(a, v) for a, _, v in self._scored(state)]

    def _scored(self, state: GameState) -> list[tuple[Action, float, float]]:
        """Every legal action with its win value and its lead for the player to move."""
        seat = state.current_player
        legal = state.legal_actions()
        det = on_python(state).resample_hidden(seat, self.rng)
        game = kit(state.GAME)
        sd = self.noise * game.win_scale
        if self.weights and game.weights is None:
            raise ValueError(f"{state.GAME}'s evaluation has no weights of an agent's own")
        w = game.weights(self.weights) if self.weights else None
        out = []
        for a in legal:
            child = det.copy()
            child.apply(a)
            v = advantages(child, weights=w)[seat]
            if sd:
                v += self.random.gauss(0.0, sd)
            out.append((a, win_value(child, v, weights=w) if not child.is_over() else child.returns()[seat], v))
        return out

    def act(self, state: GameState) -> Action:
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        best_action, best, key = legal[0], float("-inf"), (float("-inf"), float("-inf"))
        for a, w, v in self._scored(state):
            if (round(w, 6), v) > key:
                best_action, best, key = a, v, (round(w, 6), v)
        self.last_stats = {"actions": len(legal), "value": best}
        return best_action
