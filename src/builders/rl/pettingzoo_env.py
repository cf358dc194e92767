"""PettingZoo AEC environments: :func:`kingdom_env` and :func:`middle_ages_env`.

Agents are ``"player_0"`` ... ``"player_{n-1}"`` (seat order). The agent to act is the game's current
player; for a Kingdom Builder tile the same agent acts two or three times in a row (tile, then hexes).
Rewards come at the end only: ``reward="win"`` gives 1 to a sole winner, 1/k to each of k tied
winners and -1 to the others; ``reward="margin"`` gives each seat its score minus the best other
score.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from builders.rl.base import Match, check_reward, make_codec


class BuildersAEC(AECEnv):
    """One game for ``num_players`` seats, as a PettingZoo AEC environment."""

    metadata = {"render_modes": ["ansi", "rgb_array"], "name": "builders_v0", "is_parallelizable": False,
                "render_fps": 4}

    def __init__(self, game: str, num_players: int = 2, setup: Any = None, reward: str = "win",
                 render_mode: str | None = None):
        super().__init__()
        self.game = game
        self.codec = make_codec(game, num_players)
        self.metadata = {**self.metadata, "render_modes": list(self.codec.render_modes),
                         "name": f"builders_{game.replace('-', '_')}_v0"}
        self.num_players = num_players
        self.setup = setup
        self.codec.new_state(setup, 0)  # a bad setup is refused here, with the engine's reason
        self.reward_kind = check_reward(reward)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']} or None, "
                             f"not {render_mode!r}")
        self.render_mode = render_mode
        self.possible_agents = [f"player_{i}" for i in range(num_players)]
        self._seat = {a: i for i, a in enumerate(self.possible_agents)}
        obs_space = self.codec.observation_space()
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(self.codec.num_actions) for a in self.possible_agents}
        self.match: Match | None = None
        self._rng = np.random.default_rng()

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    # -- the loop ---------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        game_seed = int(self._rng.integers(2**31))
        self.match = Match(self.codec, self.codec.new_state(self.setup, game_seed))
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.match.current_player]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        return self.match.observe(self._seat[agent])

    def action_mask(self, agent: str | None = None) -> np.ndarray:
        """The mask of ``agent`` (default: the agent to act); all zeros for an agent not to act."""
        agent = agent or self.agent_selection
        m = self.match
        if m.is_over() or self._seat[agent] != m.current_player:
            return np.zeros(self.codec.num_actions, dtype=np.int8)
        return m.mask().copy()

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self.match.play(action)  # raises IllegalIndex, changing nothing, for a bad index
        self._cumulative_rewards[agent] = 0.0
        for a in self.agents:
            self.rewards[a] = 0.0
        if self.match.is_over():
            final = self.match.rewards(self.reward_kind)
            for a in self.agents:
                self.rewards[a] = final[self._seat[a]]
                self.terminations[a] = True
            self.infos = {a: {"result": self.match.state.result().to_json()} for a in self.agents}
        else:
            self.agent_selection = self.possible_agents[self.match.current_player]
        self._accumulate_rewards()

    def render(self) -> str | np.ndarray | None:
        """"ansi": the terminal drawing; "rgb_array" (Kingdom Builder): the SVG picture as pixels.
        Both show the public view (the seat to move's card is public; no other hidden card)."""
        if self.render_mode is None:
            import gymnasium

            gymnasium.logger.warn("render() was called without a render_mode (use render_mode='ansi')")
            return None
        if self.render_mode == "rgb_array":
            return self.codec.render_rgb(self.match.state)
        return self.codec.render(self.match.state)

    def close(self) -> None:
        pass

    # -- for researchers ----------------------------------------------------------------------
    @property
    def state(self):
        """The engine state (every hidden card included: not for agents)."""
        return self.match.state


def kingdom_env(num_players: int = 2, setup: Any = None, reward: str = "win",
                render_mode: str | None = None) -> BuildersAEC:
    """Kingdom Builder as a PettingZoo AEC environment.

    ``setup``: None or "random" (a random map, cards and deck from each reset's seed), "first" (the
    recommended first game, deck from the seed) or a setup dict (its deck from the seed unless it
    gives one)."""
    return BuildersAEC("kingdom", num_players, setup, reward, render_mode)


def middle_ages_env(num_players: int = 2, setup: Any = None, reward: str = "win",
                    render_mode: str | None = None) -> BuildersAEC:
    """The Builders: Middle Ages as a PettingZoo AEC environment (``setup``: None for a random setup
    from each reset's seed, or a setup dict)."""
    return BuildersAEC("middle-ages", num_players, setup, reward, render_mode)
