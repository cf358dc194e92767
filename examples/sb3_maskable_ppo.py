"""Masked PPO (sb3-contrib) on either game through Stable-Baselines3's ``make_vec_env``.

    pip install '.[rl-train]'   (in a clone of builders)
    python examples/sb3_maskable_ppo.py --game middle-ages --steps 20000

``make_vec_env`` makes each environment with ``render_mode="rgb_array"`` (both games draw one);
MaskablePPO reads the legal indices through each environment's ``action_masks()``. The observation is
``{"observation", "action_mask"}``, which ``MultiInputPolicy`` reads as is. After training, the policy
plays one game against the random agent and the script prints the result.
"""

from __future__ import annotations

import argparse
import sys


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=["kingdom", "middle-ages"], default="kingdom")
    parser.add_argument("--steps", type=int, default=20_000, help="training steps in all")
    parser.add_argument("--n-envs", type=int, default=2)
    parser.add_argument("--n-steps", type=int, default=512, help="steps per environment per rollout")
    parser.add_argument("--batch-size", type=int, default=256)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    try:
        import gymnasium
        import torch
        from sb3_contrib import MaskablePPO
        from stable_baselines3.common.env_util import make_vec_env
    except ImportError as e:
        print(
            f"error: this example needs sb3-contrib and PyTorch (in a clone: pip install '.[rl-train]'): {e}",
            file=sys.stderr,
        )
        return 2
    import builders.rl

    torch.set_num_threads(1)
    env_id = builders.rl.KINGDOM_SOLO if args.game == "kingdom" else builders.rl.MIDDLE_AGES_SOLO
    envs = make_vec_env(env_id, n_envs=args.n_envs, seed=args.seed, env_kwargs={"opponents": "random"})
    model = MaskablePPO(
        "MultiInputPolicy",
        envs,
        n_steps=args.n_steps,
        batch_size=args.batch_size,
        n_epochs=4,
        seed=args.seed,
        device="cpu",
        verbose=0,
    )
    model.learn(total_timesteps=args.steps)
    env = gymnasium.make(env_id, opponents="random")
    obs, info = env.reset(seed=args.seed)
    done = truncated = False
    while not (done or truncated):
        action, _ = model.predict(obs, action_masks=obs["action_mask"].astype(bool), deterministic=True)
        obs, reward, done, truncated, info = env.step(int(action))
    if done:
        outcome = f"scores {info['scores']}, {'won' if info['won'] else 'lost'}"
    else:  # a policy that only takes coins never ends a game of The Builders: it is cut after 100 rounds
        outcome = "cut after 100 rounds"
    print(f"{args.game}: trained {model.num_timesteps} steps; a game against random: {outcome}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
