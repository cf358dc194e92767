"""The Gymnasium solo environments: registered ids, Gymnasium's env checker on the environments as
``gymnasium.make`` returns them, vector environments (masks never empty, unmasked samples survive),
opponents (agents and policies), rewards, refused indices and drawing."""

from __future__ import annotations

import contextlib
import io
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
def test_check_env_passes_every_time_with_default_arguments(env_id: str) -> None:
    # check_env steps with an action drawn before its own seeded reset: that index may be masked out in
    # the new game; by default it is replaced by a legal one, so the check passes whatever it drew
    for attempt in range(12):
        env = gym.make(env_id)
        with warnings.catch_warnings(), contextlib.redirect_stdout(io.StringIO()):
            warnings.simplefilter("error")
            check_env(env.unwrapped, skip_render_check=attempt > 0)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # check_env warns that a wrapped environment is checked
            check_env(env, skip_render_check=True)


@pytest.mark.parametrize("env_id", IDS)
def test_observations_are_the_flat_vector_and_the_mask(env_id: str) -> None:
    env = gym.make(env_id)
    obs, _ = env.reset(seed=1)
    assert sorted(obs) == ["action_mask", "observation"]
    assert obs["observation"].dtype == np.uint8 and obs["observation"].ndim == 1
    assert obs["action_mask"].dtype == np.int8 and obs["action_mask"].any()
    assert env.observation_space.contains(obs)
    assert env.unwrapped.encoding_version == rl.ENCODING_VERSION == env.metadata["encoding_version"] == 2
    structured = gym.make(env_id, observation="dict")
    parts, _ = structured.reset(seed=1)
    assert "observation" not in parts and len(parts) == len(env.unwrapped.codec.layout()) + 1
    assert np.array_equal(
        np.concatenate([v.ravel() for k, v in parts.items() if k != "action_mask"]), obs["observation"]
    )
    with pytest.raises(ValueError, match="^observation must be 'flat' or 'dict', not 'tensor'$"):
        gym.make(env_id, observation="tensor")


@pytest.mark.parametrize("env_id", IDS)
def test_sample_draws_legal_indices(env_id: str) -> None:
    env = gym.make(env_id).unwrapped
    env.reset(seed=5)
    env.action_space.seed(5)
    for _ in range(30):
        a = env.action_space.sample()
        assert env.action_masks()[a] == 1
        _, _, done, _, info = env.step(a)
        assert "illegal" not in info
        if done:
            break


@pytest.mark.parametrize("env_id", IDS)
def test_no_observation_of_a_vector_env_has_an_empty_mask(env_id: str) -> None:
    # the default autoreset hands the terminal observation before the reset: its mask is all ones, so
    # sampling from masked logits (a -inf outside the mask) always has something to draw
    envs = gym.vector.SyncVectorEnv([lambda: gym.make(env_id) for _ in range(2)])
    try:
        obs, _ = envs.reset(seed=3)
        rnd = np.random.default_rng(0)
        ends = 0
        for _ in range(3000):
            assert obs["action_mask"].any(axis=1).all()
            logits = np.where(obs["action_mask"] == 1, rnd.standard_normal(obs["action_mask"].shape), -np.inf)
            actions = logits.argmax(axis=1)
            obs, reward, term, trunc, info = envs.step(actions)
            if term.any():
                assert (obs["action_mask"][term] == 1).all()
                ends += int(term.sum())
            if ends >= 2:
                break
        assert ends >= 2, "fewer than two games finished"
    finally:
        envs.close()


@pytest.mark.parametrize("env_id", IDS)
def test_unmasked_samples_of_an_async_vector_env_keep_its_workers_alive(env_id: str) -> None:
    envs = gym.vector.AsyncVectorEnv([lambda: gym.make(env_id) for _ in range(2)])
    try:
        envs.reset(seed=4)
        envs.action_space.seed(4)
        replaced = 0
        for _ in range(20):
            obs, reward, term, trunc, info = envs.step(envs.action_space.sample())  # knows no mask
            replaced += int(np.sum(info.get("_illegal", [False, False])))
        assert replaced > 0 and envs.single_observation_space.contains({k: v[0] for k, v in obs.items()})
    finally:
        envs.close()


def test_a_game_against_greedy_ends_with_the_result() -> None:
    env = gym.make(rl.KINGDOM_SOLO, opponents="greedy", num_players=3, seat=2, observation="dict")
    obs, info = env.reset(seed=9)
    assert info == {"seat": 2}
    assert obs["progress"][3] == 1  # the learner's turn
    done, reward = False, 0.0
    while not done:
        obs, reward, done, trunc, info = env.step(env.action_space.sample())
    result = env.unwrapped.match.state.result()
    assert info["scores"] == list(result.scores)
    assert reward == (1 / len(result.winners) if 2 in result.winners else -1.0)
    assert info["won"] == (2 in result.winners)
    assert obs["action_mask"].all()  # the game is over: any index, the next step resets


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_zero_sum_rewards(seed: int) -> None:
    env = gym.make(rl.MIDDLE_AGES_SOLO, reward="zero-sum", num_players=3)
    env.reset(seed=seed)
    done = False
    while not done:
        _, reward, done, _, info = env.step(env.action_space.sample())
    winners = env.unwrapped.match.state.result().winners
    share = 1 / len(winners) if 0 in winners else 0.0
    assert reward == pytest.approx((3 * share - 1) / 2)


def test_random_seat_and_opponent_lists() -> None:
    env = gym.make(rl.MIDDLE_AGES_SOLO, num_players=3, opponents="random,greedy", seat="random").unwrapped
    seats = {env.reset(seed=s)[1]["seat"] for s in range(12)}
    assert seats == {0, 1, 2}
    assert sorted(a.name for a in env.opponents.values()) == ["greedy", "random"]
    with pytest.raises(ValueError, match="3 players need 1 or 2 opponents, not 3"):
        gym.make(rl.MIDDLE_AGES_SOLO, num_players=3, opponents="random,random,random")
    with pytest.raises(ValueError, match="seat must be a seat from 0 to 1 or 'random', not 2"):
        gym.make(rl.KINGDOM_SOLO, seat=2)
    with pytest.raises(ValueError, match="illegal must be 'random' or 'raise', not 'skip'"):
        gym.make(rl.KINGDOM_SOLO, illegal="skip")


def test_policies_on_observations_play_the_other_seats() -> None:
    calls: list[int] = []

    def first_legal(obs: dict) -> int:
        # the policy sees its own seat's observation, the mask of the position it plays in
        match = env.match
        assert match.current_player == 1 and sorted(obs) == ["action_mask", "observation"]
        assert np.array_equal(obs["action_mask"], match.mask())
        assert np.array_equal(obs["observation"], match.codec.encode(match.state, 1, match.prefix))
        index = int(np.flatnonzero(obs["action_mask"])[0])
        calls.append(index)
        return index

    env = gym.make(rl.KINGDOM_SOLO, num_players=3, opponents=[first_legal, "random"], seat=0).unwrapped
    env.reset(seed=6)
    done = False
    while not done:
        _, _, done, _, _ = env.step(env.action_space.sample())
    assert len(calls) >= 3 * 10  # at least the mandatory builds of ten turns
    with pytest.raises(ValueError, match="3 players need 1 or 2 opponents, not 3"):
        gym.make(rl.KINGDOM_SOLO, num_players=3, opponents=[first_legal, first_legal, first_legal])


def test_illegal_index_is_replaced_by_default_and_raises_on_request() -> None:
    env = gym.make(rl.MIDDLE_AGES_SOLO).unwrapped
    env.reset(seed=1)
    _, _, _, _, info = env.step(0)
    assert info["illegal"].startswith("action index 0 (end) is illegal")
    assert len(env.match.state.player_actions()) == 1  # a legal action was played in its place
    env = gym.make(rl.MIDDLE_AGES_SOLO, illegal="raise").unwrapped
    env.reset(seed=1)
    before = env.match.state.to_json()
    with pytest.raises(IllegalIndex, match=r"^action index 0 \(end\) is illegal"):
        env.step(0)
    with pytest.raises(IllegalIndex, match=r"out of range \(0-2188\)"):
        env.step(5000)
    assert env.match.state.to_json() == before


def test_mcts_opponent_at_a_budget() -> None:
    env = gym.make(rl.MIDDLE_AGES_SOLO, opponents="mcts:iters=5", seat=1, observation="dict").unwrapped
    obs, info = env.reset(seed=2)
    # the opponent (seat 0) played its first turn before the learner's first decision
    assert env.match.state.current_player == 1 and env.match.state.turn == 1
    assert [a.name for a in env.opponents.values()] == ["mcts:iters=5"]
    assert obs["progress"][3] == 1


def test_ansi_and_human_render() -> None:
    env = gym.make(rl.KINGDOM_SOLO, render_mode="ansi")
    env.reset(seed=1)
    text = env.render()
    assert "seat 0 (red)" in text
    env = gym.make(rl.KINGDOM_SOLO, render_mode="human")
    env.reset(seed=1)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert env.render() is None
    assert out.getvalue() == text + "\n"


@pytest.mark.parametrize("env_id", IDS)
def test_rgb_array_draws_a_picture_of_both_games(env_id: str) -> None:
    env = gym.make(env_id, render_mode="rgb_array")
    env.reset(seed=1)
    frame = env.render()
    assert frame.dtype == np.uint8 and frame.ndim == 3 and frame.shape[2] == 3
    assert frame.shape[0] > 300 and frame.shape[1] > 500
    assert len(np.unique(frame.reshape(-1, 3), axis=0)) > 20  # a picture, not a blank
    assert env.unwrapped.metadata["render_modes"] == ["human", "ansi", "rgb_array"]
    with pytest.raises(
        ValueError,
        match=r"render_mode must be one of \['human', 'ansi', 'rgb_array'\] or None, "
        r"not 'svg'",
    ):
        gym.make(env_id, render_mode="svg")


def coins_only(obs: dict) -> int:
    """A policy that never ends a game of The Builders: "coins 1" while it can, else "end"."""
    mask = obs["action_mask"]
    return 2 if mask[2] else 0 if mask[0] else int(np.flatnonzero(mask)[0])


def test_the_builders_is_cut_after_max_rounds() -> None:
    env = gym.make(rl.MIDDLE_AGES_SOLO, opponents=coins_only, max_rounds=3)
    obs, _ = env.reset(seed=1)
    steps, truncated, terminated = 0, False, False
    while not (terminated or truncated):
        obs, reward, terminated, truncated, info = env.step(coins_only(obs))
        steps += 1
    assert truncated and not terminated and reward == 0.0 and obs["action_mask"].all()
    assert env.unwrapped.match.state.turn == 6 and steps == 3 * 4  # 3 turns of coins 1 x 3 and end
    with pytest.raises(ValueError, match="^max_rounds must be an integer of at least 1, not 0$"):
        gym.make(rl.MIDDLE_AGES_SOLO, max_rounds=0)
