"""The Gymnasium solo environments: registered ids, Gymnasium's env checker, vector environments,
opponents, rewards and refused indices."""

from __future__ import annotations

import warnings

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import builders.rl as rl
from builders.rl import IllegalIndex

IDS = [rl.KINGDOM_SOLO, rl.MIDDLE_AGES_SOLO]


def test_ids_are_registered() -> None:
    assert rl.KINGDOM_SOLO == "builders.rl.KingdomSolo-v0"
    assert rl.MIDDLE_AGES_SOLO == "builders.rl.MiddleAgesSolo-v0"
    assert gym.spec(rl.KINGDOM_SOLO).kwargs == {"game": "kingdom"}
    assert gym.spec(rl.MIDDLE_AGES_SOLO).kwargs == {"game": "middle-ages"}


@pytest.mark.parametrize("env_id", IDS)
def test_check_env(env_id: str) -> None:
    # check_env steps with an action sampled before its own reset, so it runs with illegal="random"
    env = gym.make(env_id, illegal="random")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(env.unwrapped)


@pytest.mark.parametrize("env_id", IDS)
def test_sample_draws_legal_indices(env_id: str) -> None:
    env = gym.make(env_id).unwrapped
    env.reset(seed=5)
    env.action_space.seed(5)
    for _ in range(30):
        a = env.action_space.sample()
        assert env.action_masks()[a] == 1
        _, _, done, _, _ = env.step(a)
        if done:
            break


@pytest.mark.parametrize("vector", [gym.vector.SyncVectorEnv, gym.vector.AsyncVectorEnv])
@pytest.mark.parametrize("env_id", IDS)
def test_vector_envs(vector, env_id: str) -> None:
    envs = vector([lambda: gym.make(env_id) for _ in range(2)])
    try:
        obs, info = envs.reset(seed=3)
        assert obs["action_mask"].shape == (2, envs.single_action_space.n)
        rnd = np.random.default_rng(0)
        finished = 0
        for _ in range(400):
            actions = [rnd.choice(np.flatnonzero(obs["action_mask"][k])) for k in range(2)]
            obs, reward, term, trunc, info = envs.step(np.array(actions))
            assert envs.single_observation_space.contains({k: v[0] for k, v in obs.items()})
            finished += int(term.sum())
            if finished:
                break
        assert finished, "no game finished in 400 steps"
    finally:
        envs.close()


def test_a_game_against_greedy_ends_with_the_result() -> None:
    env = gym.make(rl.KINGDOM_SOLO, opponents="greedy", num_players=3, seat=2)
    obs, info = env.reset(seed=9)
    assert info == {"seat": 2}
    assert obs["progress"][3] == 1  # the learner's turn
    done, reward = False, 0.0
    while not done:
        obs, reward, done, trunc, info = env.step(env.action_space.sample())
    match = env.unwrapped.match
    result = match.state.result()
    assert info["scores"] == list(result.scores)
    assert reward == (1 / len(result.winners) if 2 in result.winners else -1.0)
    assert info["won"] == (2 in result.winners)
    assert not obs["action_mask"].any()


def test_random_seat_and_opponent_lists() -> None:
    env = gym.make(rl.MIDDLE_AGES_SOLO, num_players=3, opponents="random,greedy", seat="random").unwrapped
    seats = {env.reset(seed=s)[1]["seat"] for s in range(12)}
    assert seats == {0, 1, 2}
    assert sorted(a.name for a in env.opponents.values()) == ["greedy", "random"]
    with pytest.raises(ValueError, match="3 players need 1 or 2 opponents, not 3"):
        gym.make(rl.MIDDLE_AGES_SOLO, num_players=3, opponents="random,random,random")
    with pytest.raises(ValueError, match="seat must be a seat from 0 to 1 or 'random', not 2"):
        gym.make(rl.KINGDOM_SOLO, seat=2)
    with pytest.raises(ValueError, match="illegal must be 'raise' or 'random', not 'skip'"):
        gym.make(rl.KINGDOM_SOLO, illegal="skip")


def test_illegal_index_raises_by_default_and_is_replaced_on_request() -> None:
    env = gym.make(rl.MIDDLE_AGES_SOLO).unwrapped
    env.reset(seed=1)
    before = env.match.state.to_json()
    with pytest.raises(IllegalIndex, match=r"^action index 0 \(end\) is illegal"):
        env.step(0)
    with pytest.raises(IllegalIndex, match=r"out of range \(0-2188\)"):
        env.step(5000)
    assert env.match.state.to_json() == before
    env = gym.make(rl.MIDDLE_AGES_SOLO, illegal="random").unwrapped
    env.reset(seed=1)
    _, _, _, _, info = env.step(0)
    assert info["illegal"].startswith("action index 0 (end) is illegal")
    assert len(env.match.state.player_actions()) == 1  # a legal action was played in its place


def test_ansi_render() -> None:
    env = gym.make(rl.KINGDOM_SOLO, render_mode="ansi")
    env.reset(seed=1)
    assert "seat 0 (red)" in env.render()


def test_mcts_opponent_at_a_budget() -> None:
    env = gym.make(rl.MIDDLE_AGES_SOLO, opponents="mcts:iters=5", seat=1).unwrapped
    obs, info = env.reset(seed=2)
    # the opponent (seat 0) played its first turn before the learner's first decision
    assert env.match.state.current_player == 1 and env.match.state.turn == 1
    assert [a.name for a in env.opponents.values()] == ["mcts:iters=5"]
    assert obs["progress"][3] == 1


def test_rgb_array_draws_the_public_picture_of_kingdom_builder() -> None:
    env = gym.make(rl.KINGDOM_SOLO, render_mode="rgb_array")
    env.reset(seed=1)
    frame = env.render()
    assert frame.dtype == np.uint8 and frame.ndim == 3 and frame.shape[2] == 3
    assert frame.shape[0] > 500 and frame.shape[1] > 800
    assert len(np.unique(frame.reshape(-1, 3), axis=0)) > 50  # a picture, not a blank
    assert env.unwrapped.metadata["render_modes"] == ["ansi", "rgb_array"]
    with pytest.raises(ValueError, match=r"render_mode must be one of \['ansi'\] or None, not 'rgb_array'"):
        gym.make(rl.MIDDLE_AGES_SOLO, render_mode="rgb_array")
