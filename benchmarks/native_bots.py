"""The bots' work per turn on either core: positions the hard bot (each game's turn planner) values in
one turn, and the search's (MCTS) simulations in one turn, handed a Python state and the same position
as a native state; medians of several runs, CPU time of one process.

    .venv/bin/python benchmarks/native_bots.py [--turn 2.0] [--runs 5] [--rollout 0] [--game kingdom]

Each run takes the first decision of a new 2-player game (``random_setup(2, run)``) and gives each
bot ``--turn`` CPU seconds (``clock=cpu``), first on the Python state, then on the native one. The hard
bot is measured twice: as it plays (its games played out stop at the level's 64 rounds, which a
planner searching inside the core reaches before its time is spent) and with that cap lifted
(``rollouts`` of a million: it works until the turn's time is spent). The Builders' hard bot has no
games played out: its work is the plan search and the look-ahead of its 20 best plans, which a planner
searching inside the core finishes before its time is spent; it is measured as it plays and with every
plan found looked ahead (``plans`` of a million), so that it works until the turn's time is spent. Each
ratio is the median of the runs' native / Python ratios.
"""

from __future__ import annotations

import argparse
import statistics

from builders.ai.factory import make_planner
from builders.ai.mcts import MCTSAgent
from builders.core.games import get_game, on_python

#: the games played out by the hard bot with the level's cap lifted
UNCAPPED = 10**6


def _native(game: str, state):
    if game == "kingdom":
        from builders.kingdom.native import from_python
    else:
        from builders.middle_ages.native import from_python
    return from_python(state)


def measure(game: str, turn: float, runs: int, rollout: int) -> dict[str, dict[str, list[float]]]:
    """Per measure, per core: the work done in each run's turn (positions valued, or simulations)."""
    out: dict[str, dict[str, list[float]]] = {}

    def note(name: str, core: str, value: float) -> None:
        out.setdefault(name, {}).setdefault(core, []).append(value)

    g = get_game(game)
    for run in range(runs):
        py = on_python(g.new_state(g.random_setup(2, run)))
        for core, state in (("python", py), ("native", _native(game, py))):
            planner = make_planner(run, "hard", turn, game, clock="cpu")
            planner.act(state)
            stats = planner.last_stats
            note("hard bot: positions valued in a turn", core, stats["evaluations"])
            note("hard bot: CPU seconds it used", core, stats["seconds"])
            lifted = {"rollouts": UNCAPPED} if game == "kingdom" else {"plans": UNCAPPED}
            planner = make_planner(run, "hard", turn, game, clock="cpu", **lifted)
            planner.act(state)
            stats = planner.last_stats
            what = "games played out" if game == "kingdom" else "plans looked ahead"
            note(f"hard bot, {what} not capped: positions valued", core, stats["evaluations"])
            note("  positions valued a CPU second", core, stats["evaluations"] / stats["seconds"])
            search = MCTSAgent(run, time_limit=None, turn_time=turn, clock="cpu", rollout=rollout)
            search.act(state)
            note("search: simulations in a turn", core, search.last_stats["iterations"])
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turn", type=float, default=2.0)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--rollout", type=int, default=0, help="the search's random playout actions after a new node")
    parser.add_argument(
        "--game", choices=("kingdom", "middle-ages"), action="append", help="the games measured (default both)"
    )
    args = parser.parse_args(argv)
    for game in args.game or ("kingdom", "middle-ages"):
        found = measure(game, args.turn, args.runs, args.rollout)
        print(f"{game}: {args.turn:g} CPU s a turn, medians of {args.runs} runs (range)")
        print(f"  {'':58} {'Python state':>22} {'native state':>22} {'ratio':>6}")
        for name, cores in found.items():
            py, nat = cores["python"], cores["native"]
            cells = [
                f"{statistics.median(v):>9,.2f}" if max(v) < 100 else f"{statistics.median(v):>9,.0f}"
                for v in (py, nat)
            ]
            spans = [
                f"({min(v):,.0f}-{max(v):,.0f})" if max(v) >= 100 else f"({min(v):.2f}-{max(v):.2f})" for v in (py, nat)
            ]
            ratio = statistics.median(b / a for a, b in zip(py, nat) if a)
            print(f"  {name:58} {cells[0]} {spans[0]:>12} {cells[1]} {spans[1]:>12} {ratio:>5.1f}x")


if __name__ == "__main__":
    main()
