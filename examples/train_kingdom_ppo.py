"""Train a masked PPO agent (sb3-contrib's MaskablePPO) at Kingdom Builder against the random agent,
on the CPU, and measure its win rate against random as it learns.

    pip install '.[rl-train]'  (in a clone of builders)
    python examples/train_kingdom_ppo.py --steps 150000 --out runs/ppo

Every ``--eval-every`` training steps (and before training) the current policy plays ``--eval-games``
games against the random agent (the same seeds every time, the learner in seat 0 and seat 1 in turn,
its most likely legal index each step). The curve is written to ``OUT/curve.csv``,
``OUT/curve.json`` and ``OUT/curve.png``; the model to ``OUT/model.zip``.
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
import time
from pathlib import Path

import gymnasium as gym
import numpy as np

import builders.rl  # noqa: F401  (registers builders.rl.KingdomSolo-v0)


def win_rate(model, games: int, setup: str, players: int) -> tuple[float, float]:
    """(win rate, mean score margin) of ``model`` against random over ``games`` fixed-seed games; a
    shared win counts as 1/k of a win."""
    env = gym.make(
        "builders.rl.KingdomSolo-v0", opponents="random", setup=setup, num_players=players, reward="margin"
    ).unwrapped
    wins = margin = 0.0
    for g in range(games):
        env.seat_option = g % players
        obs, _ = env.reset(seed=10_000 + g)
        done = False
        reward = 0.0
        while not done:
            action, _ = model.predict(obs, action_masks=env.action_masks(), deterministic=True)
            obs, reward, done, _, info = env.step(int(action))
        result = env.match.state.result()
        if env.seat in result.winners:
            wins += 1 / len(result.winners)
        margin += reward
    return wins / games, margin / games


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--steps", type=int, default=150_000, help="training steps (learner decisions)")
    parser.add_argument("--eval-every", type=int, default=25_000, help="steps between evaluations")
    parser.add_argument("--eval-games", type=int, default=100, help="games per evaluation")
    parser.add_argument("--setup", default="first", help="'first' (the first-game map) or 'random' maps")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--n-steps", type=int, default=1024, help="PPO rollout length")
    parser.add_argument("--batch-size", type=int, default=128)
    parser.add_argument("--epochs", type=int, default=4, help="PPO epochs per rollout")
    parser.add_argument(
        "--reward", default="margin", help="training reward: 'margin' (score margin at the end) or 'win' (+1/-1/shared)"
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=Path("runs/ppo"))
    args = parser.parse_args(argv)

    try:
        import torch
        from sb3_contrib import MaskablePPO
    except ImportError as e:
        print(
            f"error: this example needs sb3-contrib and PyTorch (in a clone: pip install '.[rl-train]'): {e}",
            file=sys.stderr,
        )
        return 2
    torch.set_num_threads(1)
    args.out.mkdir(parents=True, exist_ok=True)

    env = gym.make(
        "builders.rl.KingdomSolo-v0",
        opponents="random",
        setup=args.setup,
        num_players=args.players,
        seat="random",
        reward=args.reward,
    )
    # a small network and few epochs: the flat observation has about 9,000 inputs, and the CPU budget
    # is minutes
    model = MaskablePPO(
        "MultiInputPolicy",
        env,
        n_steps=args.n_steps,
        batch_size=args.batch_size,
        n_epochs=args.epochs,
        learning_rate=3e-4,
        gamma=1.0,
        ent_coef=0.01,
        seed=args.seed,
        verbose=0,
        policy_kwargs={"net_arch": [64, 64]},
        device="cpu",
    )
    rows = []
    start = time.process_time()

    def evaluate(steps: int) -> None:
        rate, margin = win_rate(model, args.eval_games, args.setup, args.players)
        rows.append(
            {
                "steps": steps,
                "win_rate": round(rate, 4),
                "mean_margin": round(margin, 2),
                "games": args.eval_games,
                "cpu_seconds": round(time.process_time() - start, 1),
            }
        )
        print(
            f"{steps:>8} steps: win rate vs random {rate:.1%}, mean score margin {margin:+.1f} "
            f"({args.eval_games} games, {rows[-1]['cpu_seconds']} CPU s)",
            flush=True,
        )

    evaluate(0)
    done = 0
    while done < args.steps:
        chunk = min(args.eval_every, args.steps - done)
        model.learn(total_timesteps=chunk, reset_num_timesteps=False)
        done += chunk
        evaluate(done)
    model.save(args.out / "model.zip")

    with open(args.out / "curve.csv", "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    (args.out / "curve.json").write_text(
        json.dumps({"args": {k: str(v) for k, v in vars(args).items()}, "curve": rows}, indent=2) + "\n"
    )
    plot(rows, args, args.out / "curve.png")
    return 0


def plot(rows: list[dict], args, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    steps = [r["steps"] for r in rows]
    rates = np.array([r["win_rate"] for r in rows])
    n = rows[0]["games"]
    # Wilson score interval, 95%
    z = 1.96
    centre = (rates + z * z / (2 * n)) / (1 + z * z / n)
    half = z * np.sqrt(rates * (1 - rates) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    fig, ax = plt.subplots(figsize=(6, 3.6), dpi=120)
    ax.plot(steps, rates, marker="o", label="masked PPO")
    ax.fill_between(
        steps, np.clip(centre - half, 0, 1), np.clip(centre + half, 0, 1), alpha=0.2, label="95% interval (Wilson)"
    )
    ax.axhline(1 / args.players, color="grey", linestyle="--", label="random vs random")
    ax.set_xlabel("training steps (learner decisions)")
    ax.set_ylabel(f"win rate vs random ({n} games)")
    ax.set_ylim(0, 1)
    ax.set_title(f"Kingdom Builder, {args.players} players, setup '{args.setup}'")
    ax.legend(loc="lower right")
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


if __name__ == "__main__":
    raise SystemExit(main())
