"""Tianshou's collectors on either game: the PettingZoo environment in Tianshou's ``PettingZooEnv``, one
masked random policy per seat, episodes collected from a vector of environments.

    pip install '.[rl]' tianshou   (in a clone of builders)
    python examples/tianshou_collect.py --game middle-ages --episodes 4

Tianshou reads PettingZoo's Classic observations (``{"observation", "action_mask"}``) as they are; swap
the random policies for learning ones (DQN, PPO) to train.
"""

from __future__ import annotations

import argparse
import sys


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=["kingdom", "middle-ages"], default="kingdom")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--episodes", type=int, default=4)
    parser.add_argument("--envs", type=int, default=2)
    args = parser.parse_args(argv)
    try:
        from tianshou.algorithm.multiagent.marl import MultiAgentPolicy
        from tianshou.algorithm.random import MARLRandomDiscreteMaskedOffPolicyAlgorithm
        from tianshou.data import Collector
        from tianshou.env import DummyVectorEnv, PettingZooEnv
    except ImportError as e:
        print(f"error: this example needs Tianshou (pip install tianshou): {e}", file=sys.stderr)
        return 2
    from builders.rl import kingdom_env, middle_ages_env

    make = kingdom_env if args.game == "kingdom" else middle_ages_env

    def env_fn() -> PettingZooEnv:
        return PettingZooEnv(make(num_players=args.players))

    env = env_fn()
    policy = MultiAgentPolicy(
        {agent: MARLRandomDiscreteMaskedOffPolicyAlgorithm(env.action_space).policy for agent in env.agents}
    )
    envs = DummyVectorEnv([env_fn for _ in range(args.envs)])
    collector = Collector(policy, envs)
    collector.reset()
    stats = collector.collect(n_episode=args.episodes)
    print(f"{args.game}: {stats.n_collected_episodes} games, {stats.n_collected_steps} steps")
    return 0


if __name__ == "__main__":
    sys.exit(main())
