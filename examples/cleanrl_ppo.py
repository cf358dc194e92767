"""A CleanRL-style PPO loop (one file, no framework) with masked sampling, on either game.

    pip install '.[rl-train]'   (in a clone of builders)
    python examples/cleanrl_ppo.py --game kingdom --iterations 50

Gymnasium's ``SyncVectorEnv`` steps several solo environments; every observation carries its mask
(all ones on the observation that ends a game: the step after it is the vector environment's reset),
so the masked logits always have a legal index to draw.
"""

from __future__ import annotations

import argparse
import sys


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=["kingdom", "middle-ages"], default="kingdom")
    parser.add_argument("--iterations", type=int, default=50)
    parser.add_argument("--num-envs", type=int, default=4)
    parser.add_argument("--num-steps", type=int, default=128, help="steps per environment per iteration")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    try:
        import torch
        from torch import nn
    except ImportError as e:
        print(f"error: this example needs PyTorch (in a clone: pip install '.[rl-train]'): {e}", file=sys.stderr)
        return 2
    import gymnasium as gym
    import numpy as np

    import builders.rl

    torch.manual_seed(args.seed)
    torch.set_num_threads(1)
    env_id = builders.rl.KINGDOM_SOLO if args.game == "kingdom" else builders.rl.MIDDLE_AGES_SOLO
    envs = gym.vector.SyncVectorEnv([lambda: gym.make(env_id) for _ in range(args.num_envs)])
    size = envs.single_observation_space["observation"].shape[0]
    actions = envs.single_action_space.n

    body = nn.Sequential(nn.Linear(size, 128), nn.Tanh(), nn.Linear(128, 128), nn.Tanh())
    actor, critic = nn.Linear(128, actions), nn.Linear(128, 1)
    params = [*body.parameters(), *actor.parameters(), *critic.parameters()]
    optimizer = torch.optim.Adam(params, lr=2.5e-4)

    def policy(x: torch.Tensor, mask: torch.Tensor):
        h = body(x)
        logits = actor(h).masked_fill(mask == 0, float("-inf"))
        return torch.distributions.Categorical(logits=logits), critic(h).squeeze(-1)

    n, t = args.num_envs, args.num_steps
    obs_buf = torch.zeros((t, n, size))
    mask_buf = torch.zeros((t, n, actions), dtype=torch.int8)
    act_buf, logp_buf, rew_buf, done_buf, val_buf = (torch.zeros((t, n)) for _ in range(5))
    obs, _ = envs.reset(seed=args.seed)
    done = torch.zeros(n)
    games = wins = 0
    for _ in range(args.iterations):
        for step in range(t):
            x = torch.as_tensor(obs["observation"], dtype=torch.float32)
            mask = torch.as_tensor(obs["action_mask"])
            with torch.no_grad():
                dist, value = policy(x, mask)
                action = dist.sample()
            obs_buf[step], mask_buf[step], done_buf[step], val_buf[step] = x, mask, done, value
            act_buf[step], logp_buf[step] = action, dist.log_prob(action)
            obs, reward, term, trunc, info = envs.step(action.numpy())
            rew_buf[step] = torch.as_tensor(reward, dtype=torch.float32)
            done = torch.as_tensor(np.logical_or(term, trunc), dtype=torch.float32)
            if term.any():
                games += int(term.sum())
                wins += int(np.sum(info["won"][term]))
        with torch.no_grad():  # generalised advantage estimation
            _, next_value = policy(
                torch.as_tensor(obs["observation"], dtype=torch.float32), torch.as_tensor(obs["action_mask"])
            )
            adv = torch.zeros((t, n))
            last = torch.zeros(n)
            for step in reversed(range(t)):
                nonterminal = 1.0 - (done if step == t - 1 else done_buf[step + 1])
                nxt = next_value if step == t - 1 else val_buf[step + 1]
                delta = rew_buf[step] + 0.99 * nxt * nonterminal - val_buf[step]
                last = delta + 0.99 * 0.95 * nonterminal * last
                adv[step] = last
            ret = adv + val_buf
        b_obs, b_mask = obs_buf.reshape(t * n, size), mask_buf.reshape(t * n, actions)
        b_act, b_logp, b_adv, b_ret = (v.reshape(-1) for v in (act_buf, logp_buf, adv, ret))
        for _ in range(4):
            for idx in torch.randperm(t * n).split(max(t * n // 4, 1)):
                dist, value = policy(b_obs[idx], b_mask[idx])
                ratio = (dist.log_prob(b_act[idx]) - b_logp[idx]).exp()
                a = (b_adv[idx] - b_adv[idx].mean()) / (b_adv[idx].std() + 1e-8)
                loss = (
                    -torch.min(ratio * a, ratio.clamp(0.8, 1.2) * a).mean()
                    + 0.5 * ((value - b_ret[idx]) ** 2).mean()
                    - 0.01 * dist.entropy().mean()
                )
                optimizer.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(params, 0.5)
                optimizer.step()
    envs.close()
    print(f"{args.game}: {args.iterations * t * n} steps, {games} games finished, {wins} won")
    return 0


if __name__ == "__main__":
    sys.exit(main())
