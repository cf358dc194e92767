"""Both games as OpenSpiel games: OpenSpiel's random-simulation test, chance nodes with the right
outcomes, hidden cards out of the information states, and IS-MCTS playing The Builders."""

from __future__ import annotations

import numpy as np
import pyspiel
import pytest

import builders.rl.openspiel as bos

KINGDOM, MIDDLE_AGES = bos.short_name("kingdom"), bos.short_name("middle-ages")


@pytest.mark.parametrize("name", [KINGDOM, MIDDLE_AGES])
@pytest.mark.parametrize("players", [2, 4])
def test_random_sim_test(name: str, players: int) -> None:
    game = pyspiel.load_game(name, {"players": players, "seed": 3})
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


def test_kingdom_chance_node_draws_from_the_deck() -> None:
    # rules.md "A turn": after the turn ends, the player draws a new terrain card
    game = pyspiel.load_game(KINGDOM, {"players": 2, "seed": 1})
    state = game.new_initial_state()
    rnd = np.random.default_rng(0)
    while not state.is_chance_node():
        state.apply_action(int(rnd.choice(state.legal_actions())))
    engine = state.match.state
    deck = engine.deck
    outcomes = dict(state.chance_outcomes())
    assert outcomes == {c: deck.count(c) / len(deck) for c in set(deck)}
    assert state.legal_actions() == sorted(set(deck))
    seat = engine.current_player
    card = state.legal_actions()[-1]
    state.apply_action(card)
    assert engine.hand[seat] == card and not state.is_chance_node()
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, 0) == "draw grass"


def test_middle_ages_new_top_is_a_chance_node() -> None:
    # rules.md "Information": the building deck's top is public; the card under it is drawn
    game = pyspiel.load_game(MIDDLE_AGES, {"players": 2, "seed": 2})
    state = game.new_initial_state()
    engine = state.match.state
    top = engine.bdeck[-1]
    below = sorted(engine.bdeck[:-1])
    open_index = next(i for i in state.legal_actions() if state.action_to_string(0, i).startswith("open"))
    state.apply_action(open_index)
    assert state.is_chance_node()
    outcomes = state.chance_outcomes()
    assert [c for c, _ in outcomes] == sorted(set(below))
    assert sum(p for _, p in outcomes) == pytest.approx(1.0)
    state.apply_action(below[0])
    assert engine.bdeck[-1] == below[0]
    assert top + 256 in engine.brow  # the old top refilled the row (OPEN + card)


def test_information_states_hide_the_other_hand() -> None:
    game = pyspiel.load_game(KINGDOM, {"players": 2, "seed": 1})
    state = game.new_initial_state()
    other = 1 - state.current_player()
    twin = state.resample_from_infostate(state.current_player(), pyspiel.UniformProbabilitySampler(0.0, 1.0))
    me = state.current_player()
    assert twin.information_state_string(me) == state.information_state_string(me)
    assert twin.observation_string(me) == state.observation_string(me)
    assert state.information_state_string(me) != state.information_state_string(other)


def test_ismcts_plays_the_builders() -> None:
    from open_spiel.python.algorithms import ismcts, mcts

    game = pyspiel.load_game(MIDDLE_AGES, {"players": 2, "seed": 3})
    bot = ismcts.ISMCTSBot(
        game=game,
        evaluator=mcts.RandomRolloutEvaluator(1, np.random.RandomState(0)),
        uct_c=2.0,
        max_simulations=8,
        random_state=np.random.RandomState(1),
    )
    state = game.new_initial_state()
    action = bot.step(state)
    assert action in state.legal_actions()
    state.apply_action(action)


def test_observation_tensor_has_the_declared_size() -> None:
    game = pyspiel.load_game(MIDDLE_AGES, {"players": 3, "seed": 0})
    state = game.new_initial_state()
    observer = game.make_py_observer()
    observer.set_from(state, 0)
    assert observer.tensor.shape == (game.observation_size,)
    assert observer.tensor.sum() > 0
    # through pyspiel's own API too (what AlphaZero reads)
    assert game.observation_tensor_shape() == [game.observation_size]
    assert np.array(state.observation_tensor(1)).shape == (game.observation_size,)


def _random_game(game, seed: int) -> tuple[object, int]:
    """Play a random game to its end; returns (terminal state, player decisions)."""
    state = game.new_initial_state()
    rnd = np.random.default_rng(seed)
    decisions = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rnd.choice(outcomes, p=probs)))
        else:
            state.apply_action(int(rnd.choice(state.legal_actions())))
            decisions += 1
    return state, decisions


def test_game_lengths_are_bounded_by_the_rules() -> None:
    # the bounds' arguments: docs of spiel_kingdom.kingdom_max_length and spiel_middle_ages.middle_ages_max_length
    assert [pyspiel.load_game(KINGDOM, {"players": n}).max_game_length() for n in (2, 3, 4)] == [692, 1038, 1384]
    from builders.middle_ages.cards import REWARD

    assert [pyspiel.load_game(MIDDLE_AGES, {"players": n}).max_game_length() for n in (2, 3, 4)] == [
        8 * 100 * n + (20 * n + 2 * sum(REWARD)) // 3 for n in (2, 3, 4)
    ]
    for name in (KINGDOM, MIDDLE_AGES):
        for players in (2, 4):
            game = pyspiel.load_game(name, {"players": players, "seed": players})
            for seed in range(3):
                _, decisions = _random_game(game, seed)
                assert 0 < decisions <= game.max_game_length()


def test_the_builders_is_cut_after_max_rounds_with_the_leader_winning() -> None:
    game = pyspiel.load_game(MIDDLE_AGES, {"players": 2, "seed": 1, "max_rounds": 3})
    state, decisions = _random_game(game, 0)
    engine = state.match.state
    assert not engine.is_over() and engine.turn == 6 and decisions <= game.max_game_length()
    best = max(engine.vp)
    winners = [p for p, v in enumerate(engine.vp) if v == best]
    assert state.returns() == [1 / len(winners) if p in winners else 0.0 for p in range(2)]
    with pytest.raises(ValueError, match="max_rounds must be at least 1, not 0"):
        pyspiel.load_game(MIDDLE_AGES, {"max_rounds": 0})


@pytest.mark.parametrize("name", [KINGDOM, MIDDLE_AGES])
def test_zero_sum_utility_matches_the_environments(name: str) -> None:
    game = pyspiel.load_game(name, {"players": 3, "seed": 2, "utility": "zero-sum"})
    assert game.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    assert (game.min_utility(), game.max_utility(), game.utility_sum()) == (-0.5, 1.0, 0.0)
    state, _ = _random_game(game, 1)
    winners = state.match.state.result().winners
    share = 1 / len(winners)
    assert state.returns() == pytest.approx([(3 * (share if p in winners else 0) - 1) / 2 for p in range(3)])
    assert pyspiel.load_game(name, {"players": 3}).get_type().utility == pyspiel.GameType.Utility.CONSTANT_SUM


@pytest.mark.parametrize("name", [KINGDOM, MIDDLE_AGES])
def test_no_information_state_tensor_and_a_fast_observation_tensor(name: str) -> None:
    import time

    from open_spiel.python import rl_environment

    game = pyspiel.load_game(name, {"players": 2, "seed": 4})
    assert not game.get_type().provides_information_state_tensor
    state = game.new_initial_state()
    with pytest.raises(pyspiel.SpielError, match="provide no information-state tensor"):
        state.information_state_tensor(0)
    tensor = state.observation_tensor(0)
    m = state.match
    assert tensor.dtype == np.float32 and np.array_equal(tensor, m.codec.encode(m.state, 0, m.prefix))
    assert len(tensor) == game.observation_tensor_size() == m.codec.size
    clock = time.process_time
    t0 = clock()
    for _ in range(200):
        state.observation_tensor(0)
    t1 = clock()
    for _ in range(200):
        m.codec.encode(m.state, 0, m.prefix)
    t2 = clock()
    assert (t1 - t0) < 3 * (t2 - t1) + 0.002  # the encoder and a float32 copy, no list of floats
    env = rl_environment.Environment(game)  # takes the observation tensor: there is no information state
    step = env.reset()
    assert np.array_equal(step.observations["info_state"][0], state.observation_tensor(0))
    with pytest.raises(ValueError, match="information_state_tensor not supported"):
        rl_environment.Environment(game, observation_type=rl_environment.ObservationType.INFORMATION_STATE)
