"""The PettingZoo AEC environments: PettingZoo's API, seed and render tests, Classic observations, order
enforcing, the global state, whole games with their final rewards, and drawing."""

from __future__ import annotations

import contextlib
import io
import random
import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test, render_test, seed_test

from builders.rl import IllegalIndex, kingdom_env, middle_ages_env

ENVS = {"kingdom": kingdom_env, "middle-ages": middle_ages_env}


@pytest.mark.parametrize("game", ["kingdom", "middle-ages"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_api_test(game: str, players: int) -> None:
    with warnings.catch_warnings():
        # api_test warns that a Dict observation space is not a Box, as for every Classic environment
        warnings.simplefilter("ignore", UserWarning)
        api_test(ENVS[game](num_players=players), num_cycles=400)


@pytest.mark.parametrize("game", ["kingdom", "middle-ages"])
def test_seed_test(game: str) -> None:
    seed_test(lambda: ENVS[game](num_players=3), num_cycles=300)


@pytest.mark.parametrize("game", ["kingdom", "middle-ages"])
def test_render_test(game: str) -> None:
    with contextlib.redirect_stdout(io.StringIO()) as out:
        render_test(ENVS[game])
    # "human" prints the terminal drawing (render_test makes one environment for each mode)
    expected = {"kingdom": "seat 0 (red)", "middle-ages": "resources: stone, wood, knowledge, tile"}[game]
    assert expected in out.getvalue()


@pytest.mark.parametrize("game", ["kingdom", "middle-ages"])
def test_classic_observations_and_the_structured_option(game: str) -> None:
    env = ENVS[game](num_players=2)
    env.reset(seed=3)
    obs = env.observe(env.agent_selection)
    assert sorted(obs) == ["action_mask", "observation"]
    assert obs["observation"].dtype == np.uint8 and obs["observation"].ndim == 1
    other = env.observe(next(a for a in env.agents if a != env.agent_selection))
    assert obs["action_mask"].any() and not other["action_mask"].any()  # only the seat to act has moves
    assert env.observation_space(env.agent_selection).contains(obs)
    parts = ENVS[game](num_players=2, observation="dict")
    parts.reset(seed=3)
    named = parts.observe(parts.agent_selection)
    assert "observation" not in named and np.array_equal(named["action_mask"], obs["action_mask"])
    assert np.array_equal(
        np.concatenate([v.ravel() for k, v in named.items() if k != "action_mask"]), obs["observation"]
    )


def test_a_step_before_reset_is_a_clear_error_and_state_is_pettingzoos() -> None:
    env = kingdom_env()
    with pytest.raises(AssertionError, match=r"^reset\(\) needs to be called before step\.$"):
        env.step(0)
    env.reset(seed=2)
    state = env.state()
    raw = env.unwrapped
    assert state.shape == raw.state_space.shape == (2 * raw.codec.size,) and raw.state_space.contains(state)
    engine = raw.game_state
    assert np.array_equal(state[: raw.codec.size], raw.codec.encode(engine, 0, []))
    assert np.array_equal(state[raw.codec.size :], raw.codec.encode(engine, 1, []))


def play_out(env, seed: int) -> tuple[dict, int]:
    env.reset(seed=seed)
    rnd = random.Random(seed)
    totals = {a: 0.0 for a in env.possible_agents}
    steps = 0
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        totals[agent] += reward
        if term or trunc:
            env.step(None)
            continue
        assert agent == env.possible_agents[env.unwrapped.game_state.current_player]
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(legal[rnd.randrange(len(legal))]))
        steps += 1
    return totals, steps


@pytest.mark.parametrize("game", ["kingdom", "middle-ages"])
@pytest.mark.parametrize("players", [2, 4])
def test_whole_games_end_with_the_result_as_rewards(game: str, players: int) -> None:
    env = ENVS[game](num_players=players)
    totals, steps = play_out(env, seed=players)
    result = env.unwrapped.game_state.result()
    share = 1 / len(result.winners)
    assert totals == {f"player_{p}": (share if p in result.winners else -1.0) for p in range(players)}
    assert env.agents == []
    assert steps >= len(env.unwrapped.game_state.player_actions())  # picks are steps too


def test_zero_sum_rewards() -> None:
    for players in (2, 3):
        env = middle_ages_env(num_players=players, reward="zero-sum")
        totals, _ = play_out(env, seed=players)
        winners = env.unwrapped.game_state.result().winners
        share = 1 / len(winners)
        assert totals == pytest.approx(
            {f"player_{p}": (players * (share if p in winners else 0) - 1) / (players - 1) for p in range(players)}
        )
        assert sum(totals.values()) == pytest.approx(0.0)


def test_margin_rewards() -> None:
    env = kingdom_env(num_players=3, reward="margin")
    totals, _ = play_out(env, seed=8)
    scores = env.unwrapped.game_state.result().scores
    assert totals == {
        f"player_{p}": float(s - max(x for q, x in enumerate(scores) if q != p)) for p, s in enumerate(scores)
    }


def test_same_seed_same_game_and_setup_options() -> None:
    a, b = kingdom_env(setup="first"), kingdom_env(setup="first")
    a.reset(seed=4)
    b.reset(seed=4)
    assert a.unwrapped.game_state.to_json() == b.unwrapped.game_state.to_json()
    assert [s for s, _ in a.unwrapped.game_state.board.sections] == ["tavern", "paddock", "oasis", "farm"]
    with pytest.raises(ValueError, match="num_players must be 2, 3 or 4, not 5"):
        kingdom_env(num_players=5)
    with pytest.raises(ValueError, match="reward must be 'win', 'zero-sum' or 'margin', not 'score'"):
        middle_ages_env(reward="score")


def test_an_illegal_index_raises_and_changes_nothing() -> None:
    env = middle_ages_env(num_players=2)
    env.reset(seed=1)
    agent = env.agent_selection
    before = env.unwrapped.game_state.to_json()
    with pytest.raises(
        IllegalIndex,
        match=r"^action index 0 \(end\) is illegal: you must spend your 3 remaining "
        r"actions before ending the turn$",
    ):
        env.step(0)
    assert env.unwrapped.game_state.to_json() == before and env.agent_selection == agent


@pytest.mark.parametrize("game", ["kingdom", "middle-ages"])
def test_ansi_render_shows_the_public_view(game: str) -> None:
    env = ENVS[game](num_players=2, render_mode="ansi")
    env.reset(seed=2)
    text = env.render()
    assert isinstance(text, str)
    if game == "kingdom":
        assert "seat 0" in text and "seat 1" in text
        # the card of the seat not to move is hidden (rules.md "Information")
        other = 1 - env.unwrapped.game_state.current_player
        from builders.kingdom.data import TERRAINS

        hidden = TERRAINS[env.unwrapped.game_state.hand[other]]
        line = next(ln for ln in text.splitlines() if ln.startswith(f"seat {other} "))
        assert hidden not in line and "terrain card: hidden/none" in line
        mover = env.unwrapped.game_state.current_player
        assert f"terrain card: {TERRAINS[env.unwrapped.game_state.hand[mover]]}" in text
    else:
        from builders.middle_ages.cards import IDS

        st = env.unwrapped.game_state
        # rules.md "Information": the deck sizes and the top of the building deck are public, nothing more
        assert f"{len(st.bdeck)} cards, top {IDS[st.bdeck[-1]]}" in text
        assert f"{len(st.wdeck)} cards" in text


def test_a_setup_dict_keeps_its_map_and_draws_the_deck_from_the_seed() -> None:
    setup = {
        "sections": [["oracle", False], ["paddock", True], ["harbor", False], ["farm", False]],
        "cards": ["miners", "fishermen", "workers"],
        "start_player": 1,
    }
    env = kingdom_env(num_players=2, setup=setup)
    env.reset(seed=1)
    first = env.unwrapped.game_state.to_json()
    env.reset(seed=2)
    second = env.unwrapped.game_state.to_json()
    assert first["sections"] == second["sections"] == setup["sections"]
    assert first["cards"] == setup["cards"] and first["start_player"] == 1
    assert env.agent_selection == "player_1"
    assert first["deck"] != second["deck"]
    with pytest.raises(ValueError, match="setup must be None, 'random', 'first' or a setup dict, not 'big'"):
        kingdom_env(setup="big")
    with pytest.raises(ValueError, match="^a game uses 3 Kingdom Builder cards, not 1$"):
        kingdom_env(setup={**setup, "cards": ["miners"]})


def test_the_builders_truncates_every_agent_after_max_rounds() -> None:
    env = middle_ages_env(num_players=3, max_rounds=2)
    env.reset(seed=5)
    steps = 0
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        if term or trunc:
            assert trunc and not term and reward == 0.0
            env.step(None)
            continue
        mask = obs["action_mask"]
        env.step(2 if mask[2] else 0)  # coins 1 while it can, else end: a game that never ends by itself
        steps += 1
    assert steps == 6 * 4 and env.unwrapped.game_state.turn == 6 and env.agents == []


def test_infos_keep_one_shape_from_the_first_step_to_the_end():
    """Learning libraries (Tianshou) keep infos in buffers: the same keys and shapes at every step of
    every game, whatever the random setup (Kingdom Builder's scoring cards, shared wins)."""
    from builders.rl import kingdom_env

    env = kingdom_env(num_players=3)
    rng = np.random.default_rng(5)
    for seed in (1, 2):
        env.reset(seed=seed)
        shapes = set()
        for agent in env.agent_iter():
            obs, reward, term, trunc, info = env.last()
            shapes.add((tuple(sorted(info)), len(info["scores"]), len(info["winners"])))
            if term or trunc:
                env.step(None)
                continue
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        assert shapes == {(("scores", "winners", "won"), 3, 3)}
        assert env.unwrapped.result["winners"] and sum(info["winners"]) == len(env.unwrapped.result["winners"])
        assert info["scores"] == [p["total"] for p in env.unwrapped.result["players"]]
