"""Gymnasium single-agent environments: the learner plays one seat against built-in agents.

Registered ids (``import builders.rl`` first)::

    gymnasium.make("builders.rl.KingdomSolo-v0", opponents="random", num_players=2)
    gymnasium.make("builders.rl.MiddleAgesSolo-v0", opponents="greedy")

``opponents`` is an agent specification of :mod:`builders.ai.agents` (``random``, ``greedy``,
``greedy:noise=0.6``, ``mcts:time=0.2``, ``mcts:iters=200``), or a comma-separated list with one per
other seat. ``seat`` is the learner's seat (an int, or "random" for a new one every episode).
``action_masks()`` (used by sb3-contrib's MaskablePPO) and ``observation["action_mask"]`` give the legal
indices; ``action_space.sample()`` samples only among them. A masked-out index raises IllegalIndex and
changes nothing (``illegal="raise"``, the default); with ``illegal="random"`` a uniformly random legal
index is played instead and ``info["illegal"]`` is True (for learners without masks, and for
Gymnasium's ``check_env``, which steps with an action drawn before its reset).
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from builders.rl.base import IllegalIndex, Match, check_reward, make_codec

KINGDOM_SOLO = "builders.rl.KingdomSolo-v0"
MIDDLE_AGES_SOLO = "builders.rl.MiddleAgesSolo-v0"


class MaskedDiscrete(spaces.Discrete):
    """A Discrete space whose ``sample()`` with no mask draws among the indices legal now.

    The mask comes from the environment that made the space; a copied or unpickled space (as a vector
    environment keeps) samples from every index, like Discrete."""

    def __init__(self, n: int, mask_fn=None, seed: int | None = None):
        super().__init__(n, seed=seed)
        self._mask_fn = mask_fn

    def sample(self, mask: Any = None, probability: Any = None) -> np.int64:
        if mask is None and probability is None and self._mask_fn is not None:
            mask = self._mask_fn()
        return super().sample(mask=mask, probability=probability)

    def __getstate__(self):
        state = super().__getstate__() if hasattr(super(), "__getstate__") else self.__dict__.copy()
        state = dict(state)
        state["_mask_fn"] = None
        return state

    def __deepcopy__(self, memo):
        import copy

        other = MaskedDiscrete(int(self.n))
        other._np_random = copy.deepcopy(self._np_random, memo)
        return other


class SoloEnv(gymnasium.Env):
    """``game`` ("kingdom" or "middle-ages") for one learner against built-in agents."""

    metadata = {"render_modes": ["ansi", "rgb_array"], "render_fps": 4}

    def __init__(self, game: str = "kingdom", num_players: int = 2, opponents: str = "random",
                 seat: int | str = 0, setup: Any = None, reward: str = "win", render_mode: str | None = None,
                 illegal: str = "raise"):
        from builders.ai.agents import parse_agents

        self.codec = make_codec(game, num_players)
        self.metadata = {**self.metadata, "render_modes": list(self.codec.render_modes)}
        self.game = game
        self.num_players = num_players
        if not (seat == "random" or (isinstance(seat, int) and not isinstance(seat, bool)
                                     and 0 <= seat < num_players)):
            raise ValueError(f"seat must be a seat from 0 to {num_players - 1} or 'random', not {seat!r}")
        self.seat_option = seat
        specs = parse_agents(opponents) if isinstance(opponents, str) else list(opponents)
        if len(specs) == 1:
            specs = specs * (num_players - 1)
        if len(specs) != num_players - 1:
            raise ValueError(f"{num_players} players need 1 or {num_players - 1} opponents, not {len(specs)}")
        for spec in specs:
            spec.check(game)
        self.opponent_specs = specs
        self.setup = setup
        self.codec.new_state(setup, 0)  # a bad setup is refused here, with the engine's reason
        self.reward_kind = check_reward(reward)
        if illegal not in ("raise", "random"):
            raise ValueError(f"illegal must be 'raise' or 'random', not {illegal!r}")
        self.illegal = illegal
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']} or None, "
                             f"not {render_mode!r}")
        self.render_mode = render_mode
        self.observation_space = self.codec.observation_space()
        self.action_space = MaskedDiscrete(self.codec.num_actions, self.action_masks)
        self.match: Match | None = None
        self.seat = 0
        self.opponents: dict[int, Any] = {}

    # -- the loop ---------------------------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict | None = None):
        super().reset(seed=seed)
        rng = self.np_random
        state = self.codec.new_state(self.setup, int(rng.integers(2**31)))
        self.match = Match(self.codec, state)
        self.seat = int(rng.integers(self.num_players)) if self.seat_option == "random" else self.seat_option
        others = [q for q in range(self.num_players) if q != self.seat]
        self.opponents = {q: spec.make(int(rng.integers(2**31)), self.game) for q, spec in zip(others, self.opponent_specs)}
        self._play_opponents()
        return self._obs(), {"seat": self.seat}

    def step(self, action: Any):
        info: dict[str, Any] = {"seat": self.seat}
        if self.illegal == "random":
            try:
                self.match.check(action)
            except IllegalIndex as e:
                if self.match.is_over():
                    raise
                info["illegal"] = str(e)
                legal = self.match.legal_indices()
                action = legal[int(self.np_random.integers(len(legal)))]
        self.match.play(action)  # IllegalIndex, changing nothing, for a bad index
        self._play_opponents()
        reward = 0.0
        terminated = self.match.is_over()
        if terminated:
            reward = float(self.match.rewards(self.reward_kind)[self.seat])
            result = self.match.state.result()
            info["scores"] = list(result.scores)
            info["won"] = self.seat in result.winners
        return self._obs(), reward, terminated, False, info

    def _play_opponents(self) -> None:
        m = self.match
        while not m.is_over() and m.current_player != self.seat:
            m.play_action(self.opponents[m.current_player].act(m.state))

    def _obs(self) -> dict[str, np.ndarray]:
        return self.match.observe(self.seat)

    def action_masks(self) -> np.ndarray:
        """The legal indices now, as booleans (sb3-contrib's MaskablePPO calls this)."""
        if self.match is None or self.match.is_over():
            return np.zeros(self.codec.num_actions, dtype=np.int8)
        return self.match.mask().copy()

    def render(self) -> str | None:
        if self.render_mode is None:
            gymnasium.logger.warn("render() was called without a render_mode (use render_mode='ansi')")
            return None
        if self.render_mode == "rgb_array":
            return self.codec.render_rgb(self.match.state)
        return self.codec.render(self.match.state)


def register() -> None:
    """Register the two solo ids with Gymnasium (done on ``import builders.rl``)."""
    for env_id, game in ((KINGDOM_SOLO, "kingdom"), (MIDDLE_AGES_SOLO, "middle-ages")):
        if env_id not in gymnasium.registry:
            gymnasium.register(id=env_id, entry_point="builders.rl.solo:SoloEnv", kwargs={"game": game})
