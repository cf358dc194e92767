"""Calibration of the win chance that hints and the post-game analysis report.

    .venv/bin/python benchmarks/ai_calibration.py --game kingdom [--estimator analysis|plan]
        [--games 40] [--iterations 300] [--every 8] [--workers 2] [--seed 0] [--fit] [--out-dir DIR | --out FILE]

Plays ``--games`` medium-vs-medium games (2 players, setups from ``--seed``). At every ``--every``-th
decision with more than one legal action, the mover's win chance is asked of an estimator:
``analysis`` (the default), the search of the post-game analysis and the hints (the value it gives
the hard level's move with ``--iterations``), or ``plan``, the value the hard level's turn planner gives its
plan (without a time limit): ``builders.ai.analysis.raw_win_chance``, the chance before the map of
``builders.ai.calibration`` that a player is shown. Both draw what the mover cannot see from the
mover's observation. Each prediction is paired with that seat's result
(1 a win, 1/k a win shared by k seats, 0 a loss). Prints the predictions in ten bins of predicted
win chance (mean prediction against the mean result, count) and the Brier score, next to the Brier
score of always predicting the base rate of the sample. ``--fit`` also fits that map (the logistic
of ``a * logit(raw) + b`` that makes the results most likely), prints its ``(a, b)`` for
each game's AI kit's ``calibration``, the table and Brier score of the mapped chances, and the Brier score of a map
fitted on the even-numbered games and judged on the odd ones and the reverse (held out). The
predictions and tables go to ``--out`` (default ``ai_calibration_GAME.json`` in ``--out-dir``,
``$BUILDERS_RESULTS`` or the user's data dir), with a manifest of the run beside it.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from collections.abc import Sequence

sys.path.insert(0, str(Path(__file__).parent))

from manifest import add_out_dir, results_dir, write_manifest  # noqa: E402

from builders.ai import make_bot  # noqa: E402
from builders.ai.analysis import raw_win_chance  # noqa: E402
from builders.ai.calibration import fit, honest_with  # noqa: E402
from builders.ai.tournament import derive_seed  # noqa: E402
from builders.core.games import get_game  # noqa: E402

GAMES = ("kingdom", "middle-ages")
Pair = tuple[float, float]  # (predicted win chance, result)


def bin_of(p: float, bins: int = 10) -> int:
    """The bin of prediction ``p`` (0 to 1): [0, 0.1) is bin 0, ..., [0.9, 1] is bin 9."""
    return min(bins - 1, max(0, int(p * bins)))


def calibration_table(pairs: Sequence[Pair], bins: int = 10) -> list[dict]:
    """For each of ``bins`` equal bins of predicted win chance: its range, the number of
    predictions, their mean and the mean result (None for an empty bin)."""
    rows = []
    for b in range(bins):
        inside = [(p, r) for p, r in pairs if bin_of(p, bins) == b]
        n = len(inside)
        rows.append(
            {
                "low": b / bins,
                "high": (b + 1) / bins,
                "count": n,
                "predicted": sum(p for p, _ in inside) / n if n else None,
                "actual": sum(r for _, r in inside) / n if n else None,
            }
        )
    return rows


def brier(pairs: Sequence[Pair]) -> float:
    """The mean squared difference between prediction and result."""
    if not pairs:
        raise ValueError("no predictions")
    return sum((p - r) ** 2 for p, r in pairs) / len(pairs)


def base_rate_brier(pairs: Sequence[Pair]) -> float:
    """The Brier score of always predicting the mean result of ``pairs``."""
    if not pairs:
        raise ValueError("no predictions")
    rate = sum(r for _, r in pairs) / len(pairs)
    return brier([(rate, r) for _, r in pairs])


def play_one(task: dict) -> dict:
    """One medium-vs-medium game; the predictions at the sampled decisions and the results."""
    game, index, seed, iterations, every = (task[k] for k in ("game", "index", "seed", "iterations", "every"))
    estimator = task.get("estimator", "analysis")
    g = get_game(game)
    state = g.new_state(g.random_setup(2, derive_seed("calibration-setup", seed, index)))
    bots = [make_bot(game, "medium", derive_seed("calibration-bot", seed, index, p)) for p in range(2)]
    samples = []
    decision = 0
    start = time.process_time()
    while not state.is_over():
        seat = state.current_player
        if len(state.legal_actions()) > 1:
            if decision % every == 0:
                # the true state is passed, but the search resamples what ``seat`` cannot see
                s = derive_seed("calibration-hint", seed, index, decision)
                chance = raw_win_chance(state, estimator, iterations, seed=s)
                samples.append((decision, seat, round(chance, 4)))
            decision += 1
        state.apply(bots[seat].act(state))
    returns = state.returns()
    return {
        "index": index,
        "scores": list(state.result().scores),
        "returns": returns,
        "predictions": [[p, returns[s]] for _, s, p in samples],
        "cpu": time.process_time() - start,
    }


def format_table(rows: list[dict]) -> list[str]:
    lines = ["| predicted | n | mean predicted | actual |", "|---|---|---|---|"]
    for row in rows:
        if row["count"]:
            lines.append(
                f"| {row['low']:.1f}-{row['high']:.1f} | {row['count']} | {row['predicted']:.3f} "
                f"| {row['actual']:.3f} |"
            )
        else:
            lines.append(f"| {row['low']:.1f}-{row['high']:.1f} | 0 | - | - |")
    return lines


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", choices=GAMES, default="kingdom")
    ap.add_argument("--estimator", choices=("analysis", "plan"), default="analysis")
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--iterations", type=int, default=300)
    ap.add_argument("--every", type=int, default=8)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--fit", action="store_true")
    add_out_dir(ap)
    ap.add_argument(
        "--out", type=Path, default=None, help="the result (default: ai_calibration_GAME.json in the out dir)"
    )
    args = ap.parse_args(argv)
    for name in ("games", "iterations", "every", "workers"):
        if getattr(args, name) < 1:
            print(f"error: --{name} must be at least 1", file=sys.stderr)
            sys.exit(2)
    tasks = [
        {
            "game": args.game,
            "index": i,
            "seed": args.seed,
            "iterations": args.iterations,
            "every": args.every,
            "estimator": args.estimator,
        }
        for i in range(args.games)
    ]
    args.out = args.out or results_dir(args.out_dir) / f"ai_calibration_{args.game}.json"
    write_manifest(
        args.out,
        agents="medium,medium",
        seeds={"seed": args.seed},
        games=args.games,
        settings={
            "estimator": args.estimator,
            "iterations": args.iterations,
            "every": args.every,
            "workers": args.workers,
            "fit": args.fit,
        },
    )
    wall = time.perf_counter()
    if args.workers == 1:
        games = [play_one(t) for t in tasks]
    else:
        import multiprocessing

        with multiprocessing.get_context("spawn").Pool(args.workers) as pool:
            games = pool.map(play_one, tasks, chunksize=1)
    wall = time.perf_counter() - wall
    pairs = [(p, r) for g in games for p, r in g["predictions"]]
    rows = calibration_table(pairs)
    score, base = brier(pairs), base_rate_brier(pairs)
    how = f"{args.iterations} iterations a prediction" if args.estimator == "analysis" else "the hard planner's plans"
    print(
        f"{args.game}: {args.games} medium-vs-medium games, seed {args.seed}, every {args.every}th decision, "
        f"{how}: {len(pairs)} predictions, {wall:.0f} s"
    )
    print("\n".join(format_table(rows)))
    print(f"Brier score {score:.4f}; base rate {sum(r for _, r in pairs) / len(pairs):.3f}, its Brier score {base:.4f}")
    mapped = None
    if args.fit:
        a, b = fit(pairs)
        held = []
        for part in (0, 1):
            train = [(p, r) for g in games if g["index"] % 2 == part for p, r in g["predictions"]]
            ta, tb = fit(train)
            held += [(honest_with(ta, tb, p), r) for g in games if g["index"] % 2 != part for p, r in g["predictions"]]
        after = [(honest_with(a, b, p), r) for p, r in pairs]
        mapped = {
            "map": [round(a, 3), round(b, 3)],
            "brier": brier(after),
            "held_out_brier": brier(held),
            "table": calibration_table(after),
        }
        print(f"map: a = {a:.3f}, b = {b:.3f}; mapped:")
        print("\n".join(format_table(mapped["table"])))
        print(
            f"Brier score of the mapped chances {mapped['brier']:.4f}; held out (fitted on half the games, "
            f"judged on the other half) {mapped['held_out_brier']:.4f}"
        )
    if args.out:
        with open(args.out, "w") as f:
            json.dump(
                {
                    "command": {k: str(v) if isinstance(v, Path) else v for k, v in vars(args).items()},
                    "predictions": len(pairs),
                    "brier": score,
                    "base_brier": base,
                    "mapped": mapped,
                    "table": rows,
                    "games": [{k: g[k] for k in ("index", "scores", "returns", "predictions")} for g in games],
                },
                f,
                separators=(",", ":"),
            )
            f.write("\n")


if __name__ == "__main__":
    main()
