"""Self-play tuning of The Builders' evaluation weights (``MiddleAgesSettings`` of ``builders.ai.eval_middle_ages``)
by SPSA over paired games of a bot reading them: medium (greedy: one action ahead on the evaluation)
by default, or any agent (``--agent``, such as the planner ``hard:clock=count``).

    .venv/bin/python benchmarks/ai_tune_middle_ages.py [--steps 100] [--pairs 20] [--a 1] [--c 1]
        [--agent medium] [--score wins|lead] [--params MA_ACTION,...] [--workers 1] [--minutes M]
        [--seed 1] [--check 200] [--start MA_STAFFED=0.6,...] [--out-dir DIR | --out FILE]

Each step draws a random sign for every weight and plays ``theta + c_k * sign`` against
``theta - c_k * sign``: ``--pairs`` setups, each twice with the seats swapped. The step's score is the
plus agent's wins less the minus agent's over the games; the gradient estimate along weight ``i`` is
``score / (2 c_k sign_i)`` and ``theta`` moves by ``a_k`` times it (``a_k = a / (k + 1 + A)^0.602``,
``c_k = c / (k + 1)^0.101``). Weights live in units of their own step (``theta_i = (value_i -
default_i) / step_i``) and are kept inside their bounds. Each agent is made with its own settings
(``AgentSpec.make(seed, game, settings)``): nothing in the modules changes. With ``--score lead`` a game scores the plus agent's lead in VP over the minus
agent (its score less the other's) divided by ``--lead-scale`` and kept within -1 and 1, instead of
1, 0 or -1 for a win, a draw or a loss: a finer signal where most pairs of games split one win
each. ``--workers`` plays a step's games in that many processes; ``--minutes`` stops the run after
the step that passes that time (the check still follows). At the end, ``--check`` paired games (new
setups) play the tuned weights against the defaults. The JSON record (written after every step)
holds the command, the weights with their defaults, steps and bounds, every step (with each game's
lead), the final values and the check match with its 95% Wilson interval and mean lead: apply the
values only if the check's interval lies above 50%.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from manifest import add_out_dir, results_dir, write_manifest  # noqa: E402

from builders.ai import eval_middle_ages as ema  # noqa: E402
from builders.ai.agents import parse_agent  # noqa: E402
from builders.ai.tournament import derive_seed, wilson_interval  # noqa: E402
from builders.core.games import get_game  # noqa: E402

#: weight -> (step, low, high); MA_COIN and MA_MACHINE_UNIT are left out (they value the cards, not play)
STEPS = {
    "MA_ACTION": (0.05, 0.05, 0.6),
    "MA_STAFFED": (0.05, 0.05, 0.9),
    "MA_STAFFED_PROGRESS": (0.05, 0.0, 0.9),
    "MA_OPEN": (0.02, 0.0, 0.3),
    "MA_PROGRESS": (0.05, 0.0, 0.9),
    "MA_ROW": (0.1, 0.0, 1.0),
    "MA_SPARE_UNIT": (0.02, 0.0, 0.3),
    "MA_SHORT": (0.03, 0.0, 0.5),
    "MA_HORIZON": (0.5, 0.5, 20.0),
    "MA_PACE": (0.25, 0.75, 5.0),
}
OUT_NAME = "ai_tune_middle_ages.json"


class Tuned:
    """An agent (greedy unless ``spec`` says otherwise) made with its own values of the evaluation
    weights (``ema.WEIGHT_NAMES``, the others the defaults); ValueError for another name or an agent
    that takes no settings."""

    def __init__(self, seed: int, values: dict[str, float], spec: str = "medium"):
        ema.weights(values)
        agent = parse_agent(spec)
        if agent.kind == "random":
            raise ValueError(
                f"the agent {spec!r} does not value positions by the evaluation's weights "
                "(choose medium, easy, greedy, mcts or a planner: hard, expert, plan)"
            )
        self.agent = agent.make(seed, "middle-ages", values)
        self.values = values

    def act(self, state):
        return self.agent.act(state)


def play(setup_seed: int, agents: list[Tuned], cap: int = 3000) -> tuple[list[float], list[int]]:
    """The returns and scores of one 2-player game (a game still running after ``cap`` actions is a
    draw, scored as it stands)."""
    game = get_game("middle-ages")
    state = game.new_state(game.random_setup(2, setup_seed))
    for _ in range(cap):
        if state.is_over():
            return state.returns(), list(state.result().scores)
        state.apply(agents[state.current_player].act(state))
    return [0.5, 0.5], list(state.vp)


def _game(task: tuple) -> tuple[float, float]:
    """One game of a match: (the wins of ``a``, its lead over ``b``)."""
    a, b, setup, swap, spec = task
    agents = [Tuned(derive_seed("agent", setup, swap, s), b if s == swap else a, spec) for s in range(2)]
    returns, scores = play(setup, agents)
    return returns[1 - swap], scores[1 - swap] - scores[swap]


def match(
    a: dict[str, float],
    b: dict[str, float],
    pairs: int,
    seed: int,
    tag: str,
    spec: str = "medium",
    pool: ProcessPoolExecutor | None = None,
) -> tuple[float, list[float]]:
    """Wins of ``a`` against ``b`` over ``pairs`` setups played with the seats swapped, and ``a``'s
    lead in each game."""
    tasks = [(a, b, derive_seed(tag, seed, i), swap, spec) for i in range(pairs) for swap in (0, 1)]
    results = list(pool.map(_game, tasks)) if pool is not None else [_game(t) for t in tasks]
    return sum(w for w, _ in results), [lead for _, lead in results]


def parse_start(text: str) -> dict[str, float]:
    """``NAME=V,...`` of ``--start``: known weights within their bounds."""
    out: dict[str, float] = {}
    for item in filter(None, (x.strip() for x in text.split(","))):
        name, sep, value = item.partition("=")
        if not sep or name not in STEPS:
            raise ValueError(f"--start takes NAME=VALUE with NAME one of {', '.join(STEPS)}, not {item!r}")
        try:
            v = float(value)
        except ValueError:
            raise ValueError(f"--start: {name} must be a number, not {value!r}") from None
        _, lo, hi = STEPS[name]
        if not lo <= v <= hi:
            raise ValueError(f"--start: {name} must be from {lo:g} to {hi:g}, not {value}")
        out[name] = v
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=100)
    parser.add_argument("--pairs", type=int, default=20)
    parser.add_argument("--a", type=float, default=1.0)
    parser.add_argument("--c", type=float, default=1.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--check", type=int, default=200, help="paired setups of the final check match")
    parser.add_argument("--agent", default="medium", help="the agent both sides play (its weights tuned)")
    parser.add_argument("--score", choices=("wins", "lead"), default="wins")
    parser.add_argument("--lead-scale", type=float, default=5.0, help="VP of lead that score 1 (--score lead)")
    parser.add_argument("--params", default=",".join(STEPS), help="the weights tuned (comma-separated)")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--minutes", type=float, default=None, help="stop after the step that passes this")
    parser.add_argument(
        "--start", default="", metavar="NAME=V,...", help="the values tuned around (default: the evaluation's own)"
    )
    add_out_dir(parser)
    parser.add_argument("--out", type=Path, default=None, help=f"the result (default: {OUT_NAME} in the out dir)")
    args = parser.parse_args(argv)
    args.argv = sys.argv[1:] if argv is None else list(argv)
    if args.steps < 1 or args.pairs < 1 or args.check < 0 or args.workers < 1 or args.lead_scale <= 0:
        print(
            "error: --steps, --pairs and --workers must be at least 1, --check at least 0, --lead-scale above 0",
            file=sys.stderr,
        )
        return 2
    names = [n for n in args.params.split(",") if n]
    unknown = [n for n in names if n not in STEPS]
    if unknown or not names:
        print(
            f"error: unknown weight {', '.join(unknown) or '(none)'} (choose from {', '.join(STEPS)})", file=sys.stderr
        )
        return 2
    try:
        args.start_values = parse_start(args.start)
        Tuned(0, {}, args.agent)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    pool = ProcessPoolExecutor(args.workers) if args.workers > 1 else None
    try:
        return _tune(args, names, pool)
    finally:
        if pool is not None:
            pool.shutdown()


def _tune(args: argparse.Namespace, names: list[str], pool: ProcessPoolExecutor | None) -> int:
    """The SPSA run of ``main`` and its check, written to ``args.out``."""
    start = args.start_values
    default = {k: start.get(k, getattr(ema.DEFAULT, k)) for k in names}
    fixed = {k: v for k, v in start.items() if k not in names}
    theta = [0.0] * len(names)
    rnd = random.Random(args.seed)
    big_a = max(1, args.steps // 10)

    def values(th: list[float]) -> dict[str, float]:
        out = {}
        for k, t in zip(names, th):
            step, lo, hi = STEPS[k]
            out[k] = min(hi, max(lo, default[k] + t * step))
        return {**fixed, **out}

    record = {
        "command": "benchmarks/ai_tune_middle_ages.py " + " ".join(args.argv),
        "game": "middle-ages",
        "agent": args.agent,
        "score": args.score,
        "lead_scale": args.lead_scale if args.score == "lead" else None,
        "pairs": args.pairs,
        "seed": args.seed,
        "A": big_a,
        "fixed": fixed,
        "weights": {k: {"default": default[k], "step": STEPS[k][0], "bounds": STEPS[k][1:]} for k in names},
        "steps": [],
    }
    args.out = args.out or results_dir(args.out_dir) / OUT_NAME
    write_manifest(
        args.out,
        agents={"plus": args.agent, "minus": args.agent},
        seeds={"seed": args.seed},
        games=2 * args.pairs * args.steps + 2 * args.check,
        settings={k: v for k, v in record.items() if k not in ("command", "steps")},
    )
    t0 = time.perf_counter()
    for k in range(args.steps):
        ak = args.a / (k + 1 + big_a) ** 0.602
        ck = args.c / (k + 1) ** 0.101
        signs = [rnd.choice((-1, 1)) for _ in names]
        plus = values([t + ck * s for t, s in zip(theta, signs)])
        minus = values([t - ck * s for t, s in zip(theta, signs)])
        wins, leads = match(plus, minus, args.pairs, args.seed, f"tune{k}", args.agent, pool)
        games = 2 * args.pairs
        if args.score == "lead":
            score = sum(max(-1.0, min(1.0, x / args.lead_scale)) for x in leads) / games
        else:
            score = (2 * wins - games) / games
        theta = [t + ak * score / (2 * ck * s) for t, s in zip(theta, signs)]
        clamped = values(theta)
        theta = [(clamped[n] - default[n]) / STEPS[n][0] for n in names]
        record["steps"].append(
            {
                "k": k,
                "signs": signs,
                "score": round(score, 4),
                "wins": wins,
                "leads": leads,
                "theta": [round(t, 4) for t in theta],
            }
        )
        record["final"] = {n: round(v, 4) for n, v in values(theta).items() if n in names}
        record["seconds"] = round(time.perf_counter() - t0, 1)
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(record, separators=(",", ":")) + "\n")
        print(f"step {k}: score {score:+.3f}", file=sys.stderr)
        if args.minutes is not None and time.perf_counter() - t0 > 60 * args.minutes:
            break
    if args.check:
        final = values(theta)
        wins, leads = match(final, {**fixed, **default}, args.check, args.seed, "check", args.agent, pool)
        n = 2 * args.check
        lo, hi = wilson_interval(wins, n)
        mean = sum(leads) / n
        se = (sum((x - mean) ** 2 for x in leads) / (n - 1) / n) ** 0.5 if n > 1 else 0.0
        record["check"] = {
            "games": n,
            "tuned_wins": wins,
            "win_rate": round(wins / n, 4),
            "ci95": [round(lo, 4), round(hi, 4)],
            "confirmed": lo > 0.5,
            "lead": round(mean, 3),
            "lead_se": round(se, 3),
        }
        args.out.write_text(json.dumps(record, separators=(",", ":")) + "\n")
        print(f"check: tuned {wins:g}/{n} = {wins / n:.1%} [{lo:.1%}, {hi:.1%}], lead {mean:+.2f} +- {se:.2f} VP")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
