"""``builders bench rl``: environment steps per second for every game with an RL kit, and where the time
goes.

The loop is PettingZoo's AEC loop with a random legal index at every step (``env.last()`` builds the
observation, mask included; ``env.step`` plays the index), over whole games, on the environments as
``env(game, n, core=core)`` returns them (a new random setup every game) for each core there is (the
native core when it is built, and the Python engines), and on PettingZoo's ``connect_four_v3`` in the
same run for scale. The split times the same
games again as engine only (``legal_actions`` + ``apply`` of the same actions) and as observation
encoding only (the observations of the positions met). Figures are medians of ``runs`` runs, in
steps per second of this process's CPU time (one core; on a shared machine wall-clock time also
counts the time other programs hold the core, so it is printed beside it).
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable

import numpy as np
from pettingzoo import AECEnv

from builders.core.plugins import plugin
from builders.rl.base import Match
from builders.rl.kit import rl_games, rl_kit
from builders.rl.pettingzoo_env import BuildersAEC, env
from builders.rl.wrappers import OrderEnforcing


class IdleAEC(AECEnv):
    """An AEC environment that does nothing: two agents, a fixed observation and mask (409 indices, all
    allowed), games of ``length`` steps. The loop on it is the cost of PettingZoo's loop itself."""

    metadata = {"name": "idle_v0"}

    def __init__(self, length: int = 130):
        super().__init__()
        self.possible_agents = ["player_0", "player_1"]
        self.length = length
        self._obs = {"observation": np.zeros(8000, dtype=np.uint8), "action_mask": np.ones(409, dtype=np.int8)}

    def observation_space(self, agent: str):
        return None

    def action_space(self, agent: str):
        from gymnasium import spaces

        return spaces.Discrete(409)

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = "player_0"
        self.steps = 0

    def observe(self, agent: str):
        return self._obs

    def step(self, action) -> None:
        if self.terminations[self.agent_selection]:
            self._was_dead_step(action)
            return
        self.steps += 1
        if self.steps >= self.length:
            self.terminations = {a: True for a in self.agents}
        else:
            self.agent_selection = self.possible_agents[self.steps % 2]


def default_env(game: str, players: int, core: str = "auto"):
    """The environment with default arguments but ``core`` (``connect-four``: PettingZoo's connect_four_v3;
    ``idle``: :class:`IdleAEC` in the same wrapper as the games)."""
    if game == "idle":
        return OrderEnforcing(IdleAEC())
    if game == "connect-four":
        import os

        os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
        from pettingzoo.classic import connect_four_v3

        return connect_four_v3.env()
    return env(game, num_players=players, core=core)


def aec_steps(game: str, players: int, games: int, seed: int, core: str = "auto") -> tuple[float, float, int]:
    """Play ``games`` random games through the AEC loop of the default environment on ``core``; returns
    (CPU seconds, wall seconds, steps)."""
    env = default_env(game, players, core)
    rnd = random.Random(seed)
    steps = 0
    cpu, wall = time.process_time(), time.perf_counter()
    for g in range(games):
        env.reset(seed=seed * 1000 + g)
        for agent in env.agent_iter():
            obs, reward, term, trunc, info = env.last()
            if term or trunc:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[rnd.randrange(len(legal))]))
            steps += 1
    return time.process_time() - cpu, time.perf_counter() - wall, steps


def split(game: str, players: int, games: int, seed: int, core: str = "auto") -> tuple[float, float, int]:
    """(engine seconds, observation seconds, steps) over ``games`` random games on ``core``."""
    env = BuildersAEC(game, players, core=core)
    rnd = random.Random(seed)
    engine_s = obs_s = 0.0
    steps = 0
    clock = time.process_time
    for g in range(games):
        env.reset(seed=seed * 1000 + g)
        match: Match = env.match
        state = match.state
        while not state.is_over():
            t0 = clock()
            legal = state.legal_actions()
            engine_s += clock() - t0
            action = legal[rnd.randrange(len(legal))]
            match._legal = legal
            seat = state.current_player
            for index in match.indices(action):
                t1 = clock()
                match._mask = None
                match.observe(seat)  # the mask and the observation of one step
                obs_s += clock() - t1
                match.prefix.append(index)
                steps += 1
            match.prefix = []
            t2 = clock()
            state.apply(action)
            engine_s += clock() - t2
    return engine_s, obs_s, steps


def cores(game: str) -> tuple[str, ...]:
    """The cores the environments of ``game`` can run on: the native one when it is built, and Python."""
    return ("native", "python") if rl_kit(game).to_native is not None else ("python",)


def run(runs: int = 5, games: int = 20, echo: Callable[[str], None] = print) -> dict:
    """Print steps/s (AEC loop on the default environments, on each core) and the engine/observation
    split for both games and 2-4 players, and connect_four_v3's steps/s measured the same way."""
    out = {}
    echo(
        "Environment steps per second: PettingZoo AEC loop on the default environments, a random legal index "
        f"each step, observation and mask built every step; median of {runs} runs, one core"
    )
    try:
        four = _rates("connect-four", 2, runs, games * 5)
    except ImportError as e:  # connect_four_v3 needs pygame, which builders.rl does not
        echo(f"connect_four_v3 is not measured: {e} (pip install pygame)")
        four = (float("nan"), float("nan"))
    out[("connect-four", 2)] = {"steps_per_s": four[0], "wall_steps_per_s": four[1]}
    for game in rl_games():
        label = plugin(game).title
        for players in (2, 3, 4):
            for core in cores(game):
                rate, wall = _rates(game, players, runs, games, core)
                engine_s, obs_s, steps = split(game, players, games, 1, core)
                share = obs_s / (engine_s + obs_s)
                out[(game, players, core)] = {
                    "steps_per_s": rate,
                    "wall_steps_per_s": wall,
                    "vs_connect_four": rate / four[0],
                    "engine_us": 1e6 * engine_s / steps,
                    "observation_us": 1e6 * obs_s / steps,
                }
                echo(
                    f"{label + f', {players} players, {core}':<46} {rate:>8,.0f} steps/s (wall {wall:>7,.0f}, "
                    f"{rate / four[0]:.2f}x connect_four_v3)   engine {1e6 * engine_s / steps:5.1f} us/step, "
                    f"observation {1e6 * obs_s / steps:5.1f} us/step ({share:.0%} of the two)"
                )
    echo(f"{'connect_four_v3 (PettingZoo)':<46} {four[0]:>8,.0f} steps/s (wall {four[1]:>7,.0f})")
    idle = _rates("idle", 2, runs, games * 5)
    out[("idle", 2)] = {"steps_per_s": idle[0], "wall_steps_per_s": idle[1]}
    echo(
        f"{'PettingZoo loop alone (an idle env)':<46} {idle[0]:>8,.0f} steps/s (wall {idle[1]:>7,.0f}, "
        f"{1e6 / idle[0]:.1f} us/step)"
    )
    return out


def _rates(game: str, players: int, runs: int, games: int, core: str = "auto") -> tuple[float, float]:
    """Median (CPU, wall) steps per second over ``runs`` runs."""
    cpu_rates, wall_rates = [], []
    for r in range(runs):
        cpu_s, wall_s, steps = aec_steps(game, players, games, r + 1, core)
        cpu_rates.append(steps / cpu_s)
        wall_rates.append(steps / wall_s)
    return statistics.median(cpu_rates), statistics.median(wall_rates)
