"""Kingdom Builder's native core beside the Python engine.

    python benchmarks/native.py                 # the speed figures (as `builders bench native`)
    python benchmarks/native.py --check 10000000  # the differential check over that many decisions
    python benchmarks/native.py --check 10000000 --game middle-ages

The check plays random games (random setups: every section, orientation and card; 2-4 players; a
tenth of them under the rules of record format 1) on both cores side by side and compares the legal
actions (in order) at every decision, the whole state every 25 decisions and at the end, the scores
with their breakdown every 25 decisions, and the final records; it prints the disagreements (0 is
the only good answer) and exits 1 if there is any. For The Builders the same: random setups, 2-4
players, the legal actions at every decision, every field of the state every 25 decisions and at the
end, the scores every 250, the records.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def check_middle_ages(decisions: int, first_seed: int) -> int:
    from tests.native.diff_middle_ages import random_games

    start = time.perf_counter()
    total, problems, seed = 0, [], first_seed
    while total < decisions:
        made, found = random_games(seed, 100, check_every=25)
        total += made
        problems += found
        seed += 100
        print(
            f"The Builders: {total:,} decisions, {seed - first_seed:,} games, {len(problems)} disagreements "
            f"({time.perf_counter() - start:,.0f} s)",
            flush=True,
        )
    for line in problems[:20]:
        print("  " + line)
    print(
        f"The Builders: checked {total:,} decisions of {seed - first_seed:,} games (seeds {first_seed}-{seed - 1}, "
        f"2-4 players): {len(problems)} disagreements"
    )
    return 1 if problems else 0


def check(decisions: int, first_seed: int) -> int:
    from tests.native.diff_kingdom import Tally, random_games

    tally = Tally()
    start = time.perf_counter()
    seed = first_seed
    while tally.decisions < decisions:
        random_games(seed, 100, tally, check_every=25, scores_every=25)
        seed += 100
        print(
            f"{tally.decisions:,} decisions, {tally.games:,} games, {len(tally.disagreements)} disagreements "
            f"({time.perf_counter() - start:,.0f} s)",
            flush=True,
        )
    for line in tally.disagreements[:20]:
        print("  " + line)
    print(
        f"checked {tally.decisions:,} decisions of {tally.games:,} games (seeds {first_seed}-{seed - 1}; "
        f"{sorted(tally.players_seen)} players; tiles used {sorted(tally.tiles_used)}; "
        f"{len(tally.cards_seen)} cards): {len(tally.disagreements)} disagreements"
    )
    return 1 if tally.disagreements else 0


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", type=int, metavar="DECISIONS", help="run the differential check instead")
    parser.add_argument("--game", choices=("kingdom", "middle-ages"), default="kingdom", help="the game checked")
    parser.add_argument("--seed", type=int, default=1_000_000, help="the first setup seed of the check")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--games", type=int, default=100)
    args = parser.parse_args()
    if args.check:
        sys.exit((check if args.game == "kingdom" else check_middle_ages)(args.check, args.seed))
    from builders.kingdom.native_bench import run

    run(runs=args.runs, games=args.games)
