"""Agent speed: mcts simulations per second at a given time per decision, and greedy's time per
decision, for both games (medians over several mid-game positions and runs).

    .venv/bin/python benchmarks/ai_speed.py [--time 1.0] [--positions 8]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from builders.ai import GreedyAgent, MCTSAgent
from builders.core.games import get_game


def positions(game: str, players: int, count: int) -> list:
    """Positions from games between greedy players, taken every few decisions."""
    g = get_game(game)
    out = []
    seed = 0
    while len(out) < count:
        state = g.new_state(g.random_setup(players, 1000 + seed))
        agents = [GreedyAgent(seed * 10 + p) for p in range(players)]
        rnd = random.Random(seed)
        while not state.is_over() and len(out) < count:
            if len(state.legal_actions()) > 2 and rnd.random() < 0.08:
                out.append(state.copy())
            state.apply(agents[state.current_player].act(state))
        seed += 1
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--time", type=float, default=1.0, help="mcts seconds per decision")
    parser.add_argument("--positions", type=int, default=8)
    parser.add_argument("--players", type=int, default=2)
    args = parser.parse_args()
    for game in ("kingdom", "middle-ages"):
        states = positions(game, args.players, args.positions)
        sims = []
        for i, state in enumerate(states):
            agent = MCTSAgent(i, time_limit=args.time)
            agent.act(state)
            sims.append(agent.last_stats["sims_per_s"])
        greedy = []
        for i, state in enumerate(states):
            agent = GreedyAgent(i)
            t0 = time.perf_counter()
            agent.act(state)
            greedy.append(time.perf_counter() - t0)
        print(f"{game:12s} {args.players} players: mcts {statistics.median(sims):7.0f} simulations/s "
              f"(median of {len(sims)} positions at {args.time:g} s; min {min(sims):.0f}, max {max(sims):.0f}); "
              f"greedy {1000 * statistics.median(greedy):.1f} ms/decision (median; max {1000 * max(greedy):.1f})")


if __name__ == "__main__":
    main()
