"""Speed of the engine: random full games through the public API (``legal_actions`` + ``apply``),
2 and 4 players, and legal-action generation alone. Every figure is the median of ``runs`` runs.

Each run is timed twice: by the CPU time of this process (``time.process_time``), which is what the
engine costs whatever else the machine is doing, and by the wall clock (``time.perf_counter``), which
on a shared machine also counts the time other processes held the core. The players choose uniformly
among the legal actions with ``random.Random(seed).random()`` (one C call; ``randrange``, written in
Python, would cost about a sixth of the engine's time).
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass

from builders.core.state import GameState
from builders.middle_ages.game import MiddleAges


def make_state(players: int) -> Callable[[int], GameState[int]]:
    game = MiddleAges()

    def make(seed: int) -> GameState[int]:
        return game.new_state(game.random_setup(players, seed))

    return make


@dataclass
class Run:
    cpu_seconds: float
    wall_seconds: float
    games: int
    decisions: int


def play(make: Callable[[int], GameState[int]], games: int, seed: int) -> Run:
    """Play ``games`` random games, the setup of each included."""
    uniform = random.Random(seed).random
    decisions = 0
    cpu, wall = time.process_time(), time.perf_counter()
    for g in range(games):
        state = make(seed * 100_003 + g)
        while not state.is_over():
            actions = state.legal_actions()
            state.apply(actions[int(uniform() * len(actions))])
            decisions += 1
    return Run(time.process_time() - cpu, time.perf_counter() - wall, games, decisions)


def legal_only(make: Callable[[int], GameState[int]], games: int, runs: int, seed: int = 1) -> list[Run]:
    """``legal_actions()`` alone, over every position of ``games`` random games (each run: one call per
    position; ``games`` counts the games whose positions were covered)."""
    randrange = random.Random(seed).randrange
    positions: list[GameState[int]] = []
    for g in range(games):
        state = make(seed * 100_003 + g)
        while not state.is_over():
            positions.append(state.copy())
            actions = state.legal_actions()
            state.apply(actions[randrange(len(actions))])
    out = []
    for _ in range(runs):
        cpu, wall = time.process_time(), time.perf_counter()
        for position in positions:
            position.legal_actions()
        out.append(Run(time.process_time() - cpu, time.perf_counter() - wall, games, len(positions)))
    return out


def line(label: str, runs: list[Run]) -> str:
    cpu = sorted(r.games / r.cpu_seconds for r in runs)
    wall = sorted(r.games / r.wall_seconds for r in runs)
    decisions = statistics.median(r.decisions / r.cpu_seconds for r in runs)
    return (
        f"{label:<22} {statistics.median(cpu):>7,.0f} games/s {decisions:>9,.0f} decisions/s per CPU second "
        f"(runs {cpu[0]:,.0f}-{cpu[-1]:,.0f}); wall clock {statistics.median(wall):,.0f} games/s "
        f"(runs {wall[0]:,.0f}-{wall[-1]:,.0f})"
    )


def run(runs: int = 5, games: int = 200, echo: Callable[[str], object] = print) -> None:
    echo(f"The Builders: Middle Ages: random games (setup included), median of {runs} runs")
    for players, count in ((2, games), (4, max(1, games // 4))):
        make = make_state(players)
        figures = [play(make, count, 1 + r) for r in range(runs)]
        echo(line(f"{players} players, {count} games", figures))
    echo(line("legal_actions only, 2p", legal_only(make_state(2), 20, runs)))
    echo(
        "CPU: time.process_time of this process; wall clock: time.perf_counter (on a shared machine it also "
        "counts other processes' turns on the core)"
    )
