"""The bots' work per turn on either core: positions the hard bot (each game's turn planner) values
in one turn, and the search's (MCTS) simulations in one turn, handed a Python state and the same
position as a native state; medians of several runs, CPU time of one process.

    .venv/bin/python benchmarks/native_bots.py [--turn 2.0] [--runs 5] [--rollout 0]

Each run takes the first decision of a new 2-player game (``random_setup(2, run)``) and gives each
bot ``--turn`` CPU seconds (``clock=cpu``), first on the Python state, then on the native one.
"""

from __future__ import annotations

import argparse
import statistics

from builders.ai.factory import make_planner
from builders.ai.mcts import MCTSAgent
from builders.core.games import get_game, on_python


def _native(game: str, state):
    if game == "kingdom":
        from builders.kingdom.native import from_python
    else:
        from builders.middle_ages.native import from_python
    return from_python(state)


def measure(game: str, turn: float, runs: int, rollout: int) -> dict[str, list[float]]:
    """Per bot and core: the work done in each run's turn (positions valued, or simulations)."""
    out: dict[str, list[float]] = {}
    g = get_game(game)
    for run in range(runs):
        py = on_python(g.new_state(g.random_setup(2, run)))
        for core, state in (("python", py), ("native", _native(game, py))):
            planner = make_planner(run, "hard", turn, game, clock="cpu")
            planner.act(state)
            out.setdefault(f"hard bot, positions valued in a turn, {core}", []).append(planner.last_stats["evaluations"])
            search = MCTSAgent(run, time_limit=None, turn_time=turn, clock="cpu", rollout=rollout)
            search.act(state)
            out.setdefault(f"search, simulations in a turn, {core}", []).append(search.last_stats["iterations"])
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turn", type=float, default=2.0)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--rollout", type=int, default=0, help="the search's random playout actions after a new node")
    args = parser.parse_args(argv)
    for game in ("kingdom", "middle-ages"):
        found = measure(game, args.turn, args.runs, args.rollout)
        print(f"{game}: {args.turn:g} CPU s a turn, medians of {args.runs} runs (range)")
        for name, values in found.items():
            print(f"  {name:48} {statistics.median(values):>9,.0f}  ({min(values):,.0f}-{max(values):,.0f})")


if __name__ == "__main__":
    main()
