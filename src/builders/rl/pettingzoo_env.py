"""PettingZoo AEC environments of every game with an RL kit: :func:`env` (each game's kit module may
offer a shorthand of its own, re-exported by :mod:`builders.rl`).

Agents are ``"player_0"`` ... ``"player_{n-1}"`` (seat order). The agent to act is the game's current
player; for an action of several indices (a pick) the same agent acts several times in a row.
Observations follow PettingZoo's Classic convention, ``{"observation": flat uint8 vector,
"action_mask": int8 mask}`` (``observation="dict"`` gives the named parts instead). Rewards come at
the end only (``reward``: "win", "zero-sum" or "margin", see docs/rl.md). The functions return the
environment wrapped in PettingZoo's ``OrderEnforcingWrapper`` (a step before reset is a clear error).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils.wrappers import OrderEnforcingWrapper

from builders.rl.base import Match, check_core, check_reward, make_codec, max_turns, new_game
from builders.rl.encoding import ENCODING_VERSION, check_format
from builders.rl.render import check_render_mode, render
from builders.rl.wrappers import OrderEnforcing


class BuildersAEC(AECEnv):
    """One game for ``num_players`` seats, as a PettingZoo AEC environment (unwrapped)."""

    metadata = {
        "render_modes": ["human", "ansi", "rgb_array"],
        "name": "builders_v0",
        "is_parallelizable": False,
        "render_fps": 4,
        "encoding_version": ENCODING_VERSION,
    }

    def __init__(
        self,
        game: str,
        num_players: int = 2,
        setup: Any = None,
        reward: str = "win",
        render_mode: str | None = None,
        observation: str = "flat",
        max_rounds: int | None = None,
        core: str = "auto",
    ):
        super().__init__()
        self.game = game
        self.codec = make_codec(game, num_players)
        #: the core the games run on: "native" or "python" (from the option ``core``, see check_core)
        self.core = check_core(game, core)
        self.max_turns = max_turns(game, num_players, max_rounds)
        self.metadata = {**self.metadata, "name": f"builders_{game.replace('-', '_')}_v{ENCODING_VERSION}"}
        self.encoding_version = ENCODING_VERSION
        self.num_players = num_players
        self.setup = setup
        self.codec.new_state(setup, 0)  # a bad setup is refused here, with the engine's reason
        self.reward_kind = check_reward(reward)
        self.observation_format = check_format(observation)
        self.render_mode = check_render_mode(render_mode, self.metadata["render_modes"])
        self.possible_agents = [f"player_{i}" for i in range(num_players)]
        self._seat = {a: i for i, a in enumerate(self.possible_agents)}
        obs_space = self.codec.observation_space(observation)
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(self.codec.num_actions) for a in self.possible_agents}
        self.state_space = spaces.Box(0, np.tile(self.codec.high(), num_players), dtype=np.uint8)
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
        self.match = Match(self.codec, new_game(self.game, self.codec, self.setup, game_seed, self.core))
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        # the same keys and shapes at every step (filled in at the end): learning libraries keep infos in buffers
        blank = [0] * len(self.possible_agents)
        self.infos = {a: {"scores": list(blank), "winners": list(blank), "won": False} for a in self.agents}
        self.result = None
        self.agent_selection = self.possible_agents[self.match.current_player]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        return self.match.observe(self._seat[agent], self.observation_format)

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """AECEnv.last, without its extra call of observe (it runs at every step)."""
        agent = self.agent_selection
        observation = self.match.observe(self._seat[agent], self.observation_format) if observe else None
        return (
            observation,
            self._cumulative_rewards[agent],
            self.terminations[agent],
            self.truncations[agent],
            self.infos[agent],
        )

    def state(self) -> np.ndarray:
        """The global state for centralised critics: every seat's flat observation, seat 0 first (each
        seat's own terrain card included; never the deck order)."""
        m = self.match
        return np.concatenate([m.codec.encode(m.state, q, m.prefix) for q in range(self.num_players)])

    def action_mask(self, agent: str | None = None) -> np.ndarray:
        """The mask of ``agent`` (default: the agent to act), as in its observation."""
        return self.observe(agent or self.agent_selection)["action_mask"]

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        m = self.match
        m.play(action)  # raises IllegalIndex, changing nothing, for a bad index
        self._cumulative_rewards[agent] = 0.0
        state = m._state
        if state.is_over():
            final = m.rewards(self.reward_kind)
            result = state.result()
            #: the final result as JSON, with each score's breakdown (its keys vary from game to game)
            self.result = result.to_json()
            # every seat's score and whether it won, seat 0 first, and whether this agent won
            scores = [int(x) for x in result.scores]
            winners = [int(seat in result.winners) for seat in range(len(scores))]
            for a, seat in self._seat.items():
                self.rewards[a] = final[seat]
                self.terminations[a] = True
                self.infos[a] = {"scores": scores, "winners": winners, "won": bool(winners[seat])}
            self._accumulate_rewards()
        elif self.max_turns is not None and state.turn >= self.max_turns:
            for a in self._seat:
                self.truncations[a] = True
        else:
            self.agent_selection = self.possible_agents[state.current_player]

    def render(self) -> str | np.ndarray | None:
        """ "human": prints the terminal drawing; "ansi": returns it; "rgb_array": the picture as pixels.
        All show the public view (the seat to move's card is public; no other hidden card)."""
        return render(self.codec, self.match.state, self.render_mode)

    def close(self) -> None:
        pass

    # -- for researchers ----------------------------------------------------------------------
    @property
    def game_state(self):
        """The engine state (every hidden card included: for analysis, not for agents)."""
        return self.match.state


def env(
    game: str,
    num_players: int = 2,
    setup: Any = None,
    reward: str = "win",
    render_mode: str | None = None,
    observation: str = "flat",
    max_rounds: int | None = None,
    core: str = "auto",
) -> OrderEnforcingWrapper:
    """``game`` as a PettingZoo AEC environment (``setup``: None for a random setup from each reset's
    seed, or what the game's codec takes). A game whose rules set no bound on its length is cut after
    ``max_rounds`` rounds (default 100): every agent is truncated. ``core``: "auto" (the native core
    when it is built, unless ``BUILDERS_CORE=python``), "python" or "native"."""
    return OrderEnforcing(BuildersAEC(game, num_players, setup, reward, render_mode, observation, max_rounds, core))
