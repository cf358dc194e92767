"""Speed benchmarks: random full games through the public API, medians of several runs.

Run them with ``builders bench <game>`` (each game's plugin names its benchmark; or the scripts in
``benchmarks/``). The figures are wall-clock on one core; the machine may be shared, so every
figure is the median of ``runs`` runs.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass

from builders.core.state import GameState


@dataclass
class Figures:
    label: str
    games_per_s: float
    decisions_per_s: float
    runs: list[tuple[float, float]]

    def line(self) -> str:
        return (
            f"{self.label:<34} {self.games_per_s:>10,.0f} games/s  "
            f"{self.decisions_per_s:>12,.0f} decisions/s   (median of {len(self.runs)})"
        )


def play_random_games(make_state: Callable[[int], GameState], games: int, seed: int) -> tuple[float, int]:
    """Play ``games`` random games; returns (seconds, decisions)."""
    rnd = random.Random(seed)
    randrange = rnd.randrange
    decisions = 0
    start = time.perf_counter()
    for g in range(games):
        state = make_state(seed * 100_003 + g)
        while not state.is_over():
            actions = state.legal_actions()
            state.apply(actions[randrange(len(actions))])
            decisions += 1
    return time.perf_counter() - start, decisions


def random_game_figures(
    label: str, make_state: Callable[[int], GameState], games: int, runs: int = 5, seed: int = 1
) -> Figures:
    per_run = []
    for r in range(runs):
        seconds, decisions = play_random_games(make_state, games, seed + r)
        per_run.append((games / seconds, decisions / seconds))
    return Figures(label, statistics.median(g for g, _ in per_run), statistics.median(d for _, d in per_run), per_run)


def legal_generation_figures(
    label: str, make_state: Callable[[int], GameState], games: int = 20, runs: int = 5, seed: int = 1
) -> Figures:
    """legal_actions() alone, over every position of ``games`` random games (calls/s)."""
    rnd = random.Random(seed)
    positions: list[GameState] = []
    for g in range(games):
        state = make_state(seed * 100_003 + g)
        while not state.is_over():
            positions.append(state.copy())
            actions = state.legal_actions()
            state.apply(actions[rnd.randrange(len(actions))])
    per_run = []
    for _ in range(runs):
        start = time.perf_counter()
        for p in positions:
            p.legal_actions()
        seconds = time.perf_counter() - start
        per_run.append((games / seconds, len(positions) / seconds))
    return Figures(
        label + " (legal_actions only)",
        statistics.median(g for g, _ in per_run),
        statistics.median(d for _, d in per_run),
        per_run,
    )
