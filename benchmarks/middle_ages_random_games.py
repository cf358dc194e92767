"""Random full games of The Builders: Middle Ages (same as ``builders bench middle-ages``): 2 and 4
players and legal-action generation alone, each figure the median of several runs, timed by the CPU time
of this process and by the wall clock.

    python benchmarks/middle_ages_random_games.py [--runs 5] [--games 200]
"""

import argparse

from builders.middle_ages.bench import run

if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="runs; the median is reported")
    parser.add_argument("--games", type=int, default=200, help="two-player games per run (4-player: a quarter)")
    args = parser.parse_args()
    if args.runs < 1 or args.games < 1:
        parser.error("--runs and --games must be 1 or more")
    run(runs=args.runs, games=args.games)
