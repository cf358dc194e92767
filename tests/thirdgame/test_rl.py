"""Pig in the research kit: a PettingZoo environment, the Gymnasium single-learner environment and an
OpenSpiel game, all from its plugin's RL kit."""

from __future__ import annotations

import numpy as np
import pytest

import builders.rl as rl
from builders.rl.solo import SoloEnv


def test_a_pettingzoo_environment_of_pig_plays_to_the_end():
    from pettingzoo.test import api_test

    env = rl.env("pig", num_players=3, reward="zero-sum")
    api_test(rl.env("pig", num_players=2), num_cycles=200)
    env.reset(seed=4)
    rnd = np.random.default_rng(0)
    steps, rewards = 0, {}
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        rewards[agent] = reward
        if term or trunc:
            env.step(None)
            continue
        assert obs["observation"].shape == (7,) and obs["action_mask"].tolist() in ([0, 1], [1, 1])
        env.step(int(rnd.choice(np.flatnonzero(obs["action_mask"]))))
        steps += 1
    banked = env.unwrapped.game_state.banked
    assert steps > 3 and max(banked) >= 20
    assert sum(rewards.values()) == pytest.approx(0.0) and max(rewards.values()) > 0
    assert env.unwrapped.metadata["name"] == "builders_pig_v2"


def test_the_solo_environment_of_pig_against_greedy():
    import gymnasium as gym

    rl.register()  # Pig came after the import's registration: its kit names its id
    assert gym.spec("builders.rl.PigSolo-v0").kwargs == {"game": "pig"}
    env = gym.make("builders.rl.PigSolo-v0", opponents="greedy", seat=1).unwrapped
    assert isinstance(env, SoloEnv)
    obs, info = env.reset(seed=3)
    done, total = False, 0.0
    while not done:
        pot, target, rolled = obs["observation"][2], obs["observation"][3], obs["observation"][4]
        assert target == 20 and info["seat"] == 1
        obs, reward, term, trunc, info = env.step(1 if not rolled or pot < 8 else 0)
        total += reward
        done = term or trunc
    assert total in (-1.0, 1.0) and max(env.match.state.banked) >= 20


def test_an_unknown_game_is_refused_by_name():
    with pytest.raises(ValueError) as e:
        rl.env("chess")
    assert str(e.value) == "unknown game 'chess' (choose from kingdom, middle-ages, pig)"


def test_pig_as_an_openspiel_game():
    import pyspiel

    import builders.rl.openspiel as bos

    bos.register()  # Pig came after the import's registration
    game = pyspiel.load_game(bos.short_name("pig"), {"players": 2, "seed": 5})
    pyspiel.random_sim_test(game, num_sims=3, serialize=False, verbose=False)
    state = game.new_initial_state()
    state.apply_action(1)  # roll: a chance node of six faces
    assert state.is_chance_node() and state.chance_outcomes() == [(c, 1 / 6) for c in range(6)]
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, 4) == "rolls 5"
    state.apply_action(4)
    assert state.match.state.pot == 5 and state.legal_actions() == [0, 1]
