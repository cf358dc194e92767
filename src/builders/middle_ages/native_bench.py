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


class _StandIn:
    """A game whose three calls do next to nothing, in C: ``is_over`` and ``legal_actions`` read the
    next step of a game played before (its legal lists, copied as a call of the core makes a new
    list), ``apply`` a set's ``discard``. The loop of :func:`_api` over these costs what the loop
    itself costs: the most any core can show from Python."""

    def __init__(self, over: list[bool], legal: list[list[int]]):
        self.is_over = iter(over).__next__
        self.legal_actions = map(list, legal).__next__
        self.apply = set().discard


def _recorded(states: list) -> list[tuple[list[bool], list[list[int]]]]:
    """Each game of :func:`_api` (the same random picks) as the steps a stand-in replays."""
    rnd = random.Random(1).random
    out = []
    for st in states:
        over, legal = [], []
        while not st.is_over():
            over.append(False)
            actions = st.legal_actions()
            legal.append(actions)
            st.apply(actions[int(rnd() * len(actions))])
        over.append(True)
        out.append((over, legal))
    return out


def copy_figures(players: int = 2, copies: int = 100_000, runs: int = 5) -> dict[str, float]:
    """A state copy at the end of a random game (seed 7, ``players`` players): ``bytes`` a native
    copy writes (the state; its history is shared with the copy, one reference), ``history_bytes``
    the history holds, ``decisions`` in it, and the microseconds of ``state.copy()`` called from
    Python on the core (``us``) and on the Python engine (``python_us``), medians of ``runs``."""
    from builders.middle_ages.native import from_python

    py = _starts(players, 8)[7]
    decisions = _api([py], 7)
    st = from_python(py)
    timings: dict[str, list[float]] = {"us": [], "python_us": []}
    for _ in range(runs):
        for key, copy, n in (("us", st.copy, copies), ("python_us", py.copy, copies // 10)):
            start = time.process_time()
            for _ in range(n):
                copy()
            timings[key].append((time.process_time() - start) / n * 1e6)
    return {
        "bytes": st.nbytes,
        "history_bytes": st.history_nbytes,
        "decisions": decisions,
        **{key: statistics.median(values) for key, values in timings.items()},
    }


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
        rates: dict[str, list[float]] = {"python": [], "core": [], "api": [], "loop": []}
        for _ in range(runs):
            starts = _starts(players, games)
            games_played = _recorded([from_python(s) for s in starts])
            for key, states, play in (
                ("python", [s.copy() for s in starts], lambda states: _api(states, 1)),
                ("core", [from_python(s) for s in starts], lambda states: _native.MAState.random_games(states, 10, 1)),
                ("api", [from_python(s) for s in starts], lambda states: _api(states, 1)),
                ("loop", [_StandIn(*g) for g in games_played], lambda states: _api(states, 1)),
            ):
                start = time.process_time()
                count = play(states)
                rates[key].append(count / (time.process_time() - start))
        py, core, api, loop = (statistics.median(rates[k]) for k in ("python", "core", "api", "loop"))
        core_x, api_x, loop_x = (
            statistics.median(x / b for x, b in zip(rates[k], rates["python"])) for k in ("core", "api", "loop")
        )
        out[f"python_{players}p"], out[f"core_{players}p"], out[f"api_{players}p"] = py, core, api
        out[f"core_ratio_{players}p"], out[f"api_ratio_{players}p"] = core_x, api_x
        out[f"loop_{players}p"], out[f"loop_ratio_{players}p"] = loop, loop_x
        echo(f"  {players} players, random games: Python {py:>12,.0f} decisions/s")
        echo(f"  {players} players, random games inside the core: {core:>12,.0f} decisions/s  ({core_x:,.1f}x)")
        echo(
            f"  {players} players, legal_actions() + apply() from Python on the core: {api:>12,.0f} "
            f"decisions/s  ({api_x:,.1f}x)"
        )
        echo(
            f"  {players} players, the same loop on C stand-ins that only hand out a recorded game's lists "
            f"(the loop's own cost): {loop:>12,.0f} decisions/s  ({loop_x:,.1f}x)"
        )
        copy = copy_figures(players, runs=runs)
        out.update({f"copy_{key}_{players}p": value for key, value in copy.items()})
        echo(
            f"  {players} players, a state copy (state.copy() from Python) at the end of a game of "
            f"{copy['decisions']:.0f} decisions: {copy['bytes']:.0f} bytes written (the history, "
            f"{copy['history_bytes']:,.0f} bytes, shared), {copy['us']:.2f} us; Python engine {copy['python_us']:.2f} us"
        )
    return out


def bench(runs: int = 5, games: int = 100, echo: Callable[[str], None] = print) -> dict[str, float]:
    """``builders bench native``'s part: :func:`run` on a third of ``games`` (a game of The Builders is
    longer than one of the workload ``games`` counts)."""
    return run(runs=runs, games=max(1, games // 3), echo=echo)
