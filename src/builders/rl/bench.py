"""``builders bench rl``: environment steps per second for both games, and where the time goes.

The loop is PettingZoo's AEC loop with a random legal index at every step (``env.last()`` builds the
observation, mask included; ``env.step`` plays the index), over whole games. The split times the same
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

from builders.rl.base import Match
from builders.rl.pettingzoo_env import BuildersAEC

#: the Kingdom Builder workload of ``builders bench kingdom`` (the same map and cards)
KINGDOM_SETUP = {"sections": [["oracle", False], ["paddock", False], ["harbor", False], ["farm", False]],
                 "cards": ["miners", "fishermen", "workers"], "start_player": 0}


def aec_steps(game: str, players: int, games: int, seed: int) -> tuple[float, float, int]:
    """Play ``games`` random games through the AEC loop; returns (CPU seconds, wall seconds, steps)."""
    env = BuildersAEC(game, players, setup=KINGDOM_SETUP if game == "kingdom" else None)
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


def split(game: str, players: int, games: int, seed: int) -> tuple[float, float, int]:
    """(engine seconds, observation seconds, steps) over ``games`` random games."""
    env = BuildersAEC(game, players, setup=KINGDOM_SETUP if game == "kingdom" else None)
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
            for index in _indices(match, action):
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


def _indices(match: Match, action) -> tuple[int, ...]:
    if match.codec.game == "kingdom":
        from builders.rl.kingdom import action_to_index

        return action_to_index(action)
    from builders.rl.middle_ages import action_to_index as one

    return (one(action),)


def run(runs: int = 5, games: int = 20, echo: Callable[[str], None] = print) -> dict:
    """Print steps/s (AEC loop) and the engine/observation split for both games, 2 and 4 players."""
    out = {}
    echo("Environment steps per second: PettingZoo AEC loop, a random legal index each step, "
         f"observation and mask built every step; median of {runs} runs, one core")
    for game, label in (("kingdom", "Kingdom Builder"), ("middle-ages", "The Builders")):
        for players in (2, 4):
            cpu_rates, wall_rates = [], []
            for r in range(runs):
                cpu_s, wall_s, steps = aec_steps(game, players, games, seed=r + 1)
                cpu_rates.append(steps / cpu_s)
                wall_rates.append(steps / wall_s)
            engine_s, obs_s, steps = split(game, players, games, seed=1)
            rate = statistics.median(cpu_rates)
            wall = statistics.median(wall_rates)
            share = obs_s / (engine_s + obs_s)
            out[(game, players)] = {"steps_per_s": rate, "wall_steps_per_s": wall,
                                    "engine_us": 1e6 * engine_s / steps, "observation_us": 1e6 * obs_s / steps}
            echo(f"{label + f', {players} players':<28} {rate:>8,.0f} steps/s (wall {wall:>7,.0f})   engine "
                 f"{1e6 * engine_s / steps:5.1f} us/step, observation {1e6 * obs_s / steps:5.1f} us/step "
                 f"({share:.0%} of the two)")
    return out
