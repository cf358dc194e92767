"""The native core beside the Python engine, per CPU second on one core (``builders bench native``):
random full games inside the core, the per-decision API called from Python, batched masked random
steps for learning, and a state copy. Every figure is the median of several runs, timed with
``time.process_time`` (the CPU time of this process, so a shared machine's other work does not count).
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable

from builders.kingdom.bench import WORKLOAD_CARDS, workload_setup
from builders.kingdom.data import CARDS
from builders.kingdom.setup import new_state


def _median(runs: int, fn: Callable[[], tuple[float, float]]) -> float:
    """The median over ``runs`` runs of ``count / cpu_seconds`` for ``fn() -> (count, cpu_seconds)``."""
    rates = []
    for _ in range(runs):
        count, seconds = fn()
        rates.append(count / seconds)
    return statistics.median(rates)


def _paired(runs: int, measures: list[Callable[[], tuple[float, float]]]) -> list[tuple[float, float]]:
    """Each measure ``() -> (count, cpu_seconds)`` run in turn, ``runs`` rounds: per measure, the
    median rate and the median over the rounds of its rate over the first measure's rate of the same
    round (neighbouring runs see the same load on a shared machine)."""
    rates: list[list[float]] = [[] for _ in measures]
    for _ in range(runs):
        for i, measure in enumerate(measures):
            count, seconds = measure()
            rates[i].append(count / seconds)
    return [(statistics.median(r), statistics.median(x / b for x, b in zip(r, rates[0]))) for r in rates]


def _cpu(fn: Callable[[], float]) -> tuple[float, float]:
    start = time.process_time()
    count = fn()
    return count, time.process_time() - start


def _api_games(make: Callable[[int], object], games: int, seed: int) -> float:
    """Decisions of ``games`` random games through ``legal_actions()`` and ``apply()`` in a Python loop
    (the pick is ``legal[int(random() * len(legal))]``, cheaper than ``randrange``, the same for both
    cores)."""
    rnd = random.Random(seed).random
    decisions = 0
    for g in range(games):
        st = make(seed * 100_003 + g)
        is_over, legal_actions, apply = st.is_over, st.legal_actions, st.apply
        while not is_over():
            legal = legal_actions()
            apply(legal[int(rnd() * len(legal))])
            decisions += 1
    return decisions


def python_random_games(players: int, games: int, seed: int = 1) -> float:
    """Decisions of ``games`` random games on the Python engine, from Python."""
    return _api_games(lambda s: new_state(workload_setup(players, s)), games, seed)


def native_random_games(players: int, games: int, seed: int = 1) -> float:
    """Decisions of ``games`` random games played wholly inside the native core."""
    from builders.kingdom.native import _native, native_board

    board = new_state(workload_setup(players, 0)).board
    decisions, _ = _native.KBState.random_games(
        native_board(board), players, [CARDS.index(c) for c in WORKLOAD_CARDS], seed * 100_003, games, seed
    )
    return decisions


def api_random_games(players: int, games: int, seed: int = 1) -> float:
    """Decisions of ``games`` random games on the native core through the GameState protocol from
    Python (``legal_actions()`` and ``apply()`` in a Python loop)."""
    from builders.kingdom import native

    return _api_games(lambda s: native.new_state(workload_setup(players, s)), games, seed)


def batched_steps(size: int, steps: int, players: int = 2) -> float:
    """Index steps of ``size`` games at once: a masked random index drawn in the core and played, in
    a Python loop of ``steps`` calls (numpy arrays in and out)."""
    from builders.kingdom.native import KingdomBatch

    batch = KingdomBatch(size, players, seed=1, pick_seed=2)
    for _ in range(steps):
        batch.step(batch.sample())
    return size * steps


def copy_figures(copies: int = 100_000) -> tuple[int, float, float]:
    """(bytes of a native state at the end of a 2-player game, history included; microseconds of a
    copy of it, ``NativeKingdomState.copy()`` called from Python; of a Python engine copy)."""
    from builders.kingdom.native import from_python

    py = new_state(workload_setup(2, 5))
    st = from_python(py)
    st.playout(5)
    copy = st.copy
    start = time.process_time()
    for _ in range(copies):
        copy()
    native_us = (time.process_time() - start) / copies * 1e6
    n = copies // 10
    start = time.process_time()
    for _ in range(n):
        py.copy()
    py_us = (time.process_time() - start) / n * 1e6
    return st.nbytes, native_us, py_us


def run(runs: int = 5, games: int = 100, echo: Callable[[str], None] = print) -> dict[str, float]:
    """Print the figures (decisions per CPU second, medians of ``runs``) and return them."""
    out: dict[str, float] = {}
    echo(
        "Kingdom Builder, native core vs Python engine (per CPU second, one core, median of "
        f"{runs} runs, the ratios those of each run's neighbouring measures; oracle, paddock, harbor, farm; "
        "miners, fishermen, workers)"
    )
    for players in (2, 4):
        n = games if players == 2 else max(1, games // 2)
        py, core, api = _paired(
            runs,
            [
                lambda p=players, n=n: _cpu(lambda: python_random_games(p, max(1, n // 5))),
                lambda p=players, n=n: _cpu(lambda: native_random_games(p, n * 10)),
                lambda p=players, n=n: _cpu(lambda: api_random_games(p, n)),
            ],
        )
        out[f"python_{players}p"], out[f"core_{players}p"], out[f"api_{players}p"] = py[0], core[0], api[0]
        out[f"core_ratio_{players}p"], out[f"api_ratio_{players}p"] = core[1], api[1]
        echo(f"  {players} players, random games: Python {py[0]:>12,.0f} decisions/s")
        echo(f"  {players} players, random games inside the core: {core[0]:>12,.0f} decisions/s  ({core[1]:,.1f}x)")
        echo(
            f"  {players} players, legal_actions() + apply() from Python on the core: {api[0]:>12,.0f} "
            f"decisions/s  ({api[1]:,.1f}x)"
        )
    steps = _median(runs, lambda: _cpu(lambda: batched_steps(256, 200)))
    out["batched_2p"] = steps
    echo(f"  2 players, batched masked random steps (256 games, numpy in and out): {steps:>12,.0f} steps/s")
    size, native_us, py_us = copy_figures()
    out["copy_bytes"], out["copy_us"], out["copy_python_us"] = size, native_us, py_us
    echo(
        f"  a state copy (state.copy() from Python): {size} bytes at the end of a game (history included), "
        f"{native_us:.2f} us; Python engine {py_us:.2f} us"
    )
    return out
