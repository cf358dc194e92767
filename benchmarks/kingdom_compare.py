"""Kingdom Builder speed, side by side: this working tree against an earlier commit of the project.

On a shared, busy machine a figure alone says little: the load changes from one minute to the next.
This script runs the two engines alternately (baseline, current, baseline, current, ...), each run in a
fresh process on the same workload as ``builders bench kingdom`` (random full games through
``legal_actions()`` + ``apply()``), and prints for each side the median, the lowest and the highest
games/s and decisions/s, and the ratio current/baseline of each pair of neighbouring runs (decisions/s
is the fair one when the two engines' rules make games of different lengths): once by the wall clock
(what ``builders bench`` reports) and once by the CPU time of the process (less disturbed by the
other programs of a busy machine).

    .venv/bin/python benchmarks/kingdom_compare.py --baseline f89c35d --rounds 7 --games 200
    .venv/bin/python benchmarks/kingdom_compare.py --same-games     # format-1 rules on both sides
    .venv/bin/python benchmarks/kingdom_compare.py --same-games --legal-only --players 2

The baseline's sources are taken with ``git archive`` into a temporary folder.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: one run in a child process: prints {"games_per_s": ..., "decisions_per_s": ...}
CHILD = """
import json, sys, time
from builders.bench import play_random_games
from builders.kingdom import bench
players, games, seed, same = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4] == "1"
def maker(players):
    make = bench.maker(players)
    def made(seed):
        state = make(seed)
        if same and hasattr(state, "legacy"):
            state.legacy = True  # format-1 rules: the very games the baseline plays
        return state
    return made
play_random_games(maker(players), max(1, games // 10), seed + 1000)  # warm-up
if sys.argv[5] == "legal":  # legal_actions() alone, on every position of the games
    import random
    rnd, positions = random.Random(seed), []
    for g in range(games):
        state = maker(players)(seed * 100_003 + g)
        while not state.is_over():
            positions.append(state.copy())
            actions = state.legal_actions()
            state.apply(actions[rnd.randrange(len(actions))])
    for state in positions:  # a first pass untimed: the states keep their lists (and the
        state.legal_actions()  # collector scans them) from the first call on
    cpu, start = time.process_time(), time.perf_counter()
    for state in positions:
        state.legal_actions()
    seconds, decisions = time.perf_counter() - start, len(positions)
else:
    cpu = time.process_time()
    seconds, decisions = play_random_games(maker(players), games, seed)
cpu = time.process_time() - cpu
print(json.dumps({"games_per_s": games / seconds, "cpu_games_per_s": games / cpu,
                  "decisions_per_s": decisions / seconds, "cpu_decisions_per_s": decisions / cpu}))
"""


def one_run(src: Path, players: int, games: int, seed: int, same: bool, mode: str) -> dict:
    env = {"PYTHONPATH": str(src), "PYTHONHASHSEED": "0"}
    out = subprocess.run(
        [sys.executable, "-c", CHILD, str(players), str(games), str(seed), str(int(same)), mode],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(out.stdout)


def summary(values: list[float]) -> str:
    return f"median {statistics.median(values):>7,.0f}  (range {min(values):,.0f}-{max(values):,.0f})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", default="f89c35d", help="the git commit to compare with")
    parser.add_argument("--rounds", type=int, default=7, help="runs of each engine")
    parser.add_argument("--games", type=int, default=200, help="2-player games per run (4 players: a quarter)")
    parser.add_argument("--players", type=int, nargs="+", default=[2, 4])
    parser.add_argument(
        "--legal-only",
        action="store_true",
        help="time legal_actions() alone on every position of the games ('decisions/s' are then calls/s)",
    )
    parser.add_argument(
        "--same-games",
        action="store_true",
        help="this tree plays under record-format-1 rules, so that both sides play the very "
        "same games (the engines' speed alone, without the rule change)",
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        base_src = Path(tmp) / "src"
        archive = subprocess.run(
            ["git", "-C", str(ROOT), "archive", args.baseline, "src"], capture_output=True, check=True
        ).stdout
        subprocess.run(["tar", "-x", "-C", tmp], input=archive, check=True)
        print(
            f"Kingdom Builder random games, {args.rounds} alternating runs per side "
            f"(baseline {args.baseline} vs this tree{', the same games' if args.same_games else ''})"
        )
        mode = "legal" if args.legal_only else "games"
        for players in args.players:
            games = args.games if players == 2 else max(1, args.games // 4)
            base, cur = [], []
            for r in range(args.rounds):
                base.append(one_run(base_src, players, games, r + 1, args.same_games, mode))
                cur.append(one_run(ROOT / "src", players, games, r + 1, args.same_games, mode))
            for key, clock in (("games_per_s", "wall clock"), ("cpu_games_per_s", "CPU time")):
                dkey = key.replace("games", "decisions")
                print(f"{players} players, {clock}:")
                for label, runs in (("baseline", base), ("current ", cur)):
                    print(
                        f"  {label} games/s {summary([run[key] for run in runs])}   "
                        f"decisions/s {summary([run[dkey] for run in runs])}"
                    )
                for what, k in (("games/s", key), ("decisions/s", dkey)):
                    ratios = [c[k] / b[k] for b, c in zip(base, cur)]
                    print(
                        f"  ratio of {what:<11} median {statistics.median(ratios):.2f}x "
                        f"(range {min(ratios):.2f}-{max(ratios):.2f}x)"
                    )


if __name__ == "__main__":
    main()
