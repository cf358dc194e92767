"""Self-play tuning of Kingdom Builder's search (the hard level's before the turn planner) by SPSA (simultaneous perturbation
stochastic approximation) over match results.

    .venv/bin/python benchmarks/ai_tune.py [--minutes 40] [--steps 200] [--pairs 2] [--turn 0.2]
        [--iters N] [--a 1] [--c 1] [--params c,scale,widen,...] [--seed 1]
        [--out-dir DIR | --out FILE]

Each step draws a random sign (+1 or -1) for every tuned parameter and plays the two agents
``theta + c_k * sign`` and ``theta - c_k * sign`` against each other: ``--pairs`` setups, each played
twice with the seats swapped (paired games), 2 players. The step's score is the plus agent's wins
less the minus agent's, over the games; the estimate of the gradient along parameter ``i`` is
``score / (2 c_k sign_i)``, and ``theta`` moves by ``a_k`` times it (the usual SPSA gains
``a_k = a / (k + 1 + A)^0.602``, ``c_k = c / (k + 1)^0.101``). Parameters live in units of their own
step (``theta_i = (value_i - default_i) / step_i``), so one gain fits them all, and are kept inside
their bounds.

A parameter is either a search constant of ``MCTSAgent`` (``c``, ``scale``, ``widen``) or a setting
of ``builders.ai.eval_kingdom.KingdomSettings`` (the move heuristic's weights ``KB_MOVE_*``, which only
the search reads, and with ``--params`` the evaluation's weights, which greedy reads too): each agent
is made with its own settings (``MCTSAgent(weights=...)``; both agents play in one process, one after
the other), and Kingdom Builder's evaluation keeps its caches per settings, so a weight such as the
farmers' gap does not leak from one agent to the other.

Both agents are the search as the hard level used it (fast move ordering, subtree reuse, the whole-turn budget)
with ``--turn`` CPU-seconds a turn (``clock=cpu``, so the load of the machine does not change the
games much), or ``--iters`` iterations a decision; the setups and agent seeds come from ``--seed``
and the step, so a run is repeatable up to the timing of the searches (exactly with ``--iters``).
The run stops after ``--steps`` steps or ``--minutes`` minutes and writes, after every step, a
compact JSON file: the command, the parameters with their defaults, steps and bounds, every step
(signs, score, theta), and the final values.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from manifest import add_out_dir, results_dir, write_manifest  # noqa: E402

from builders.ai import eval_kingdom as evaluate  # noqa: E402
from builders.ai.mcts import MCTSAgent  # noqa: E402
from builders.ai.tournament import derive_seed  # noqa: E402
from builders.core.games import get_game  # noqa: E402

#: name -> (default, step, low, high); search constants first, then the evaluation's settings (the numbers)
SEARCH = {
    "c": (0.3, 0.1, 0.05, 1.5),
    "scale": (4.0, 1.0, 1.0, 12.0),
    "widen": (2.0, 0.5, 0.5, 6.0),
}
MODULE = {
    name: (value, round(max(0.25, abs(value) * 0.3), 3), 0.0, max(4.0, abs(value) * 3))
    for name, value in sorted(vars(evaluate.DEFAULT).items())
    if isinstance(value, float)
}
DEFAULT_PARAMS = [
    "c",
    "scale",
    "widen",
    "KB_MOVE_CASTLE",
    "KB_MOVE_GOOD",
    "KB_MOVE_MERCHANTS",
    "KB_MOVE_KNIGHTS",
    "KB_MOVE_HERMITS",
    "KB_MOVE_CITIZENS",
    "KB_MOVE_LORDS",
    "KB_MOVE_FARMERS",
    "KB_MOVE_TILE_BUILD",
]
OUT_NAME = "ai_tune_kingdom.json"


def spec(name: str) -> tuple[float, float, float, float]:
    """(default, step, low, high) of a parameter; ValueError for an unknown one."""
    if name in SEARCH:
        return SEARCH[name]
    if name in MODULE:
        return MODULE[name]
    raise ValueError(f"unknown parameter {name!r} (search: {', '.join(SEARCH)}; module: {', '.join(sorted(MODULE))})")


class Tuned:
    """The search (as the hard level used it) with its own search constants and evaluation settings."""

    def __init__(
        self,
        seed: int,
        values: dict[str, float],
        turn: float | None,
        prior: str = "fast",
        iterations: int | None = None,
    ):
        self.module = {k: v for k, v in values.items() if k in MODULE}
        kwargs = {k: v for k, v in values.items() if k in SEARCH}
        self.agent = MCTSAgent(
            seed,
            time_limit=None,
            turn_time=None if iterations else turn,
            iterations=iterations,
            prior=prior,
            reuse=True,
            clock="cpu",
            weights=evaluate.weights(self.module),
            **kwargs,
        )

    def act(self, state):
        return self.agent.act(state)


def play(setup_seed: int, agents: list[Tuned]) -> list[float]:
    game = get_game("kingdom")
    state = game.new_state(game.random_setup(2, setup_seed))
    while not state.is_over():
        state.apply(agents[state.current_player].act(state))
    return state.returns()


def values_of(names: list[str], theta: list[float]) -> dict[str, float]:
    out = {}
    for name, t in zip(names, theta):
        default, step, lo, hi = spec(name)
        out[name] = min(hi, max(lo, default + step * t))
    return out


def clamp(names: list[str], theta: list[float]) -> list[float]:
    out = []
    for name, t in zip(names, theta):
        default, step, lo, hi = spec(name)
        out.append(min((hi - default) / step, max((lo - default) / step, t)))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--params", default=",".join(DEFAULT_PARAMS), help="comma-separated parameters")
    ap.add_argument("--steps", type=int, default=200)
    ap.add_argument("--minutes", type=float, default=40.0, help="stop after this many minutes")
    ap.add_argument("--pairs", type=int, default=2, help="setups per step, each played with seats swapped")
    ap.add_argument("--turn", type=float, default=0.2, help="CPU-seconds a whole turn for both agents")
    ap.add_argument(
        "--iters",
        type=int,
        default=None,
        help="iterations a decision instead of --turn (repeatable runs, slower to play)",
    )
    ap.add_argument("--prior", default="fast", help="the search's move ordering (fast or own)")
    ap.add_argument("--a", type=float, default=1.0, help="SPSA step gain a")
    ap.add_argument("--c", type=float, default=1.0, help="SPSA perturbation c (in parameter steps)")
    ap.add_argument("--seed", type=int, default=1)
    add_out_dir(ap)
    ap.add_argument("--out", type=Path, default=None, help=f"the result (default: {OUT_NAME} in the out dir)")
    args = ap.parse_args(argv)
    if (
        args.steps < 1
        or args.pairs < 1
        or not args.turn > 0
        or not args.minutes > 0
        or (args.iters is not None and args.iters < 1)
    ):
        print("error: --steps, --pairs, --turn, --iters and --minutes must be positive", file=sys.stderr)
        return 2
    names = [n.strip() for n in args.params.split(",") if n.strip()]
    try:
        for n in names:
            spec(n)
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    big_a = max(1.0, args.steps / 10)
    rng = random.Random(args.seed)
    theta = [0.0] * len(names)
    record = {
        "command": "benchmarks/ai_tune.py " + " ".join(argv if argv is not None else sys.argv[1:]),
        "game": "kingdom",
        "players": 2,
        "turn_cpu_seconds": None if args.iters else args.turn,
        "iterations": args.iters,
        "prior": args.prior,
        "pairs_per_step": args.pairs,
        "seed": args.seed,
        "a": args.a,
        "c": args.c,
        "A": big_a,
        "params": {n: dict(zip(("default", "step", "low", "high"), spec(n))) for n in names},
        "steps": [],
    }
    args.out = args.out or results_dir(args.out_dir) / OUT_NAME
    args.out.parent.mkdir(parents=True, exist_ok=True)
    write_manifest(
        args.out,
        agents={"plus": "mcts (tuned values)", "minus": "mcts (tuned values)"},
        seeds={"seed": args.seed},
        games=2 * args.pairs * args.steps,
        settings={k: v for k, v in record.items() if k not in ("command", "steps")},
    )
    start = time.monotonic()
    wins_total = games_total = 0.0
    for k in range(args.steps):
        if time.monotonic() - start > args.minutes * 60:
            break
        ck = args.c / (k + 1) ** 0.101
        ak = args.a / (k + 1 + big_a) ** 0.602
        signs = [rng.choice((-1, 1)) for _ in names]
        plus = values_of(names, [t + ck * s for t, s in zip(theta, signs)])
        minus = values_of(names, [t - ck * s for t, s in zip(theta, signs)])
        score = 0.0
        games = 0
        for j in range(args.pairs):
            setup_seed = derive_seed("tune-setup", args.seed, k, j)
            for swap in (0, 1):
                seeds = [derive_seed("tune-agent", args.seed, k, j, swap, s) for s in (0, 1)]
                agents = [
                    Tuned(seeds[0], plus, args.turn, args.prior, args.iters),
                    Tuned(seeds[1], minus, args.turn, args.prior, args.iters),
                ]
                if swap:
                    agents.reverse()
                r = play(setup_seed, agents)
                p_ret, m_ret = (r[1], r[0]) if swap else (r[0], r[1])
                score += p_ret - m_ret
                wins_total += p_ret
                games += 1
        games_total += games
        score /= games
        theta = clamp(names, [t + ak * score / (2 * ck * s) for t, s in zip(theta, signs)])
        record["steps"].append(
            {"k": k, "signs": signs, "score": round(score, 4), "theta": [round(t, 4) for t in theta]}
        )
        record["final"] = {n: round(v, 4) for n, v in values_of(names, theta).items()}
        record["minutes"] = round((time.monotonic() - start) / 60, 2)
        record["games"] = int(games_total)
        args.out.write_text(json.dumps(record, separators=(",", ":")) + "\n")
        print(
            f"step {k}: score {score:+.2f} " + " ".join(f"{n}={v:.3g}" for n, v in record["final"].items()),
            file=sys.stderr,
            flush=True,
        )
    print(json.dumps(record.get("final", {}), indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
