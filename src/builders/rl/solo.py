"""Gymnasium single-agent environments: the learner plays one seat against built-in agents or policies.

Registered ids (``import builders.rl`` first): each game's RL kit names its own (``solo_id``; docs/rl.md
lists them), made as ``gymnasium.make(solo_id, opponents="random", num_players=2)``; and
``SoloEnv(game, ...)`` makes one of any game with an RL kit.

``opponents`` is an agent specification of :mod:`builders.ai.agents` (``random``, ``greedy``,
``greedy:noise=0.6``, ``mcts:time=0.2``, ``mcts:iters=200``), a comma-separated list with one per
other seat, or a policy: a callable given the observation of its seat (in the learner's format) that
returns an index (self-play; a list may mix them). ``seat`` is the learner's seat (an int, or
"random" for a new one every episode). ``action_masks()`` (used by sb3-contrib's MaskablePPO) and
``observation["action_mask"]`` give the legal indices; ``action_space.sample()`` samples only among
them. A masked-out index is replaced by a uniformly random legal one and ``info["illegal"]`` says why
(``illegal="random"``, the default: a vector environment's ``action_space.sample()`` knows no mask);
``illegal="raise"`` raises IllegalIndex instead and changes nothing.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from builders.rl.base import IllegalIndex, Match, check_core, check_reward, make_codec, max_turns, new_game
from builders.rl.encoding import ENCODING_VERSION, check_format
from builders.rl.kit import rl_games, rl_kit
from builders.rl.render import RENDER_MODES, check_render_mode, render


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
    """``game`` (a game with an RL kit) for one learner against built-in agents or policies."""

    metadata = {"render_modes": list(RENDER_MODES), "render_fps": 4, "encoding_version": ENCODING_VERSION}

    def __init__(
        self,
        game: str,
        num_players: int = 2,
        opponents: Any = "random",
        seat: int | str = 0,
        setup: Any = None,
        reward: str = "win",
        render_mode: str | None = None,
        illegal: str = "random",
        observation: str = "flat",
        max_rounds: int | None = None,
        core: str = "auto",
    ):
        self.codec = make_codec(game, num_players)
        #: the core the games run on: "native" or "python" (see builders.rl.base.check_core)
        self.core = check_core(game, core)
        self.max_turns = max_turns(game, num_players, max_rounds)
        self.game = game
        self.num_players = num_players
        self.encoding_version = ENCODING_VERSION
        if not (seat == "random" or (isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < num_players)):
            raise ValueError(f"seat must be a seat from 0 to {num_players - 1} or 'random', not {seat!r}")
        self.seat_option = seat
        self.opponent_specs = _opponents(opponents, game, num_players)
        self.setup = setup
        self.codec.new_state(setup, 0)  # a bad setup is refused here, with the engine's reason
        self.reward_kind = check_reward(reward)
        if illegal not in ("raise", "random"):
            raise ValueError(f"illegal must be 'random' or 'raise', not {illegal!r}")
        self.illegal = illegal
        self.observation_format = check_format(observation)
        self.render_mode = check_render_mode(render_mode, self.metadata["render_modes"])
        self.observation_space = self.codec.observation_space(observation)
        self.action_space = MaskedDiscrete(self.codec.num_actions, self.action_masks)
        self.match: Match | None = None
        self.seat = 0
        self.opponents: dict[int, Any] = {}

    # -- the loop ---------------------------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict | None = None):
        super().reset(seed=seed)
        rng = self.np_random
        state = new_game(self.game, self.codec, self.setup, int(rng.integers(2**31)), self.core)
        self.match = Match(self.codec, state)
        self.seat = int(rng.integers(self.num_players)) if self.seat_option == "random" else self.seat_option
        others = [q for q in range(self.num_players) if q != self.seat]
        self.opponents = {
            q: spec if callable(spec) else spec.make(int(rng.integers(2**31)), self.game)
            for q, spec in zip(others, self.opponent_specs)
        }
        self._play_opponents()
        return self._obs(), {"seat": self.seat}

    def step(self, action: Any):
        info: dict[str, Any] = {"seat": self.seat}
        m = self.match
        if self.illegal == "random":
            try:
                m.check(action)
            except IllegalIndex as e:
                if m.is_over():
                    raise
                info["illegal"] = str(e)
                legal = m.legal_indices()
                action = legal[int(self.np_random.integers(len(legal)))]
        m.play(action)  # IllegalIndex, changing nothing, for a bad index
        self._play_opponents()
        reward = 0.0
        terminated = m.is_over()
        truncated = not terminated and self._cut()
        if terminated:
            reward = float(m.rewards(self.reward_kind)[self.seat])
            result = m.state.result()
            info["scores"] = list(result.scores)
            info["won"] = self.seat in result.winners
        return self._obs(), reward, terminated, truncated, info

    def _play_opponents(self) -> None:
        m = self.match
        cap = self.max_turns if self.max_turns is not None else 1 << 62
        while not m.is_over() and m.current_player != self.seat and m.state.turn < cap:
            player = self.opponents[m.current_player]
            if callable(player):
                m.play(player(m.observe(m.current_player, self.observation_format)))
            else:
                m.play_action(player.act(m.state))

    def _cut(self) -> bool:
        return self.max_turns is not None and self.match.state.turn >= self.max_turns

    def _obs(self) -> dict[str, np.ndarray]:
        obs = self.match.observe(self.seat, self.observation_format)
        if self.match.current_player != self.seat or self._cut():  # over or cut: the next step resets
            obs["action_mask"][:] = 1
        return obs

    def action_masks(self) -> np.ndarray:
        """The legal indices now (sb3-contrib's MaskablePPO calls this); all ones once the game is over or
        cut (the next step is a reset) and before the first reset."""
        m = self.match
        if m is None or m.is_over() or m.current_player != self.seat or self._cut():
            return np.ones(self.codec.num_actions, dtype=np.int8)
        return self.match.mask().copy()

    def render(self) -> str | np.ndarray | None:
        return render(self.codec, self.match.state, self.render_mode)


def _opponents(opponents: Any, game: str, num_players: int) -> list:
    """One agent specification or policy per other seat: a string of agents (docs/ai.md), or a list
    of strings, specifications and policies (callables from an observation to an index)."""
    from builders.ai.agents import parse_agents

    if isinstance(opponents, str):
        specs = parse_agents(opponents)
    elif callable(opponents):
        specs = [opponents]
    else:
        specs = []
        for item in opponents:
            specs += parse_agents(item) if isinstance(item, str) else [item]
    if len(specs) == 1:
        specs = specs * (num_players - 1)
    if len(specs) != num_players - 1:
        raise ValueError(f"{num_players} players need 1 or {num_players - 1} opponents, not {len(specs)}")
    for spec in specs:
        if not callable(spec):
            spec.check(game)
    return specs


def register() -> None:
    """Register the solo id of every game whose RL kit names one with Gymnasium (done on ``import
    builders.rl``)."""
    for game in rl_games():
        env_id = rl_kit(game).solo_id
        if env_id is not None and env_id not in gymnasium.registry:
            gymnasium.register(id=env_id, entry_point="builders.rl.solo:SoloEnv", kwargs={"game": game})
