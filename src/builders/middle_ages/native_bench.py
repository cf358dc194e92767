"""The Builders: Middle Ages on the native core beside the Python engine, per CPU second
(``builders bench native``; see builders.kingdom.native_bench for the method)."""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable

from builders.middle_ages.game import MiddleAges
from builders.middle_ages.state import MiddleAgesState


def _starts(players: int, games: int) -> list[MiddleAgesState]:
    game = MiddleAges()
    return [MiddleAgesState(game.random_setup(players, seed)) for seed in range(games)]


def _api(states: list, seed: int) -> float:
    """Decisions of random games from ``states`` through legal_actions() and apply() from Python."""
    rnd = random.Random(seed).random
    decisions = 0
    for st in states:
        is_over, legal_actions, apply = st.is_over, st.legal_actions, st.apply
        while not is_over():
            legal = legal_actions()
            apply(legal[int(rnd() * len(legal))])
            decisions += 1
    return decisions


def run(runs: int = 5, games: int = 40, echo: Callable[[str], None] = print) -> dict[str, float]:
    """Print the figures (decisions per CPU second, medians of ``runs``; each ratio the median of the
    ratios of neighbouring measures of one round) and return them."""
    from builders.middle_ages.native import _native, from_python

    out: dict[str, float] = {}
    echo(
        f"The Builders: Middle Ages, native core vs Python engine (per CPU second, median of {runs} runs; "
        f"random setups)"
    )
    for players in (2, 4):
        rates: dict[str, list[float]] = {"python": [], "core": [], "api": []}
        for _ in range(runs):
            starts = _starts(players, games)
            for key, states, play in (
                ("python", [s.copy() for s in starts], lambda states: _api(states, 1)),
                ("core", [from_python(s) for s in starts], lambda states: _native.MAState.random_games(states, 10, 1)),
                ("api", [from_python(s) for s in starts], lambda states: _api(states, 1)),
            ):
                start = time.process_time()
                count = play(states)
                rates[key].append(count / (time.process_time() - start))
        py, core, api = (statistics.median(rates[k]) for k in ("python", "core", "api"))
        core_x, api_x = (statistics.median(x / b for x, b in zip(rates[k], rates["python"])) for k in ("core", "api"))
        out[f"python_{players}p"], out[f"core_{players}p"], out[f"api_{players}p"] = py, core, api
        out[f"core_ratio_{players}p"], out[f"api_ratio_{players}p"] = core_x, api_x
        echo(f"  {players} players, random games: Python {py:>12,.0f} decisions/s")
        echo(f"  {players} players, random games inside the core: {core:>12,.0f} decisions/s  ({core_x:,.1f}x)")
        echo(
            f"  {players} players, legal_actions() + apply() from Python on the core: {api:>12,.0f} "
            f"decisions/s  ({api_x:,.1f}x)"
        )
    return out


def bench(runs: int = 5, games: int = 100, echo: Callable[[str], None] = print) -> dict[str, float]:
    """``builders bench native``'s part: :func:`run` on a third of ``games`` (a game of The Builders is
    longer than one of the workload ``games`` counts)."""
    return run(runs=runs, games=max(1, games // 3), echo=echo)
