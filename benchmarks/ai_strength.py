"""The strength tournaments of docs/ai.md, with their commands' defaults (long: run in the background).

    .venv/bin/python benchmarks/ai_strength.py [--which NAME ...] [--workers 2] [--out-dir /tmp]

Each tournament writes NAME.json (the full results) to --out-dir and prints its table.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from builders.ai.tournament import run_tournament

#: name -> (game, agents, players, games, seed)
TOURNAMENTS = {
    "kb-greedy-random": ("kingdom", "greedy,random", 2, 400, 2024),
    "kb-mcts-greedy": ("kingdom", "mcts:time=0.5,greedy", 2, 40, 2024),
    "kb4-mcts-greedy": ("kingdom", "mcts:time=0.5,greedy", 4, 24, 2024),
    "ma-greedy-random": ("middle-ages", "greedy,random", 2, 400, 2024),
    "ma-mcts-greedy": ("middle-ages", "mcts:time=0.25,greedy", 2, 40, 2024),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--which", nargs="*", default=list(TOURNAMENTS), choices=list(TOURNAMENTS))
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--out-dir", type=Path, default=Path("."))
    args = parser.parse_args()
    for name in args.which:
        game, agents, players, games, seed = TOURNAMENTS[name]
        result = run_tournament(game, agents, players, games, seed, workers=args.workers)
        (args.out_dir / f"{name}.json").write_text(json.dumps(result.to_json(), indent=1) + "\n")
        print(f"{name}: builders tournament {game} --agents {agents} --players {players} --games {games} "
              f"--seed {seed}  ({result.seconds:.0f} s)")
        for s in result.stats:
            lo, hi = s.win_rate_ci95
            sims = f", {s.sims_per_s:.0f} sims/s" if s.sims_per_s else ""
            print(f"  {s.agent:24s} wins {s.wins:g}/{s.games} = {s.win_rate:.3f} [{lo:.3f}, {hi:.3f}], "
                  f"score {s.mean_score:.1f} ± {s.score_sd:.1f}, {1000 * s.mean_move_seconds:.1f} ms/decision{sims}")


if __name__ == "__main__":
    main()
