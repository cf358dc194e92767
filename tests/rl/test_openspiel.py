"""Both games as OpenSpiel games: OpenSpiel's random-simulation test, chance nodes with the right
outcomes, hidden cards out of the information states, and IS-MCTS playing The Builders."""

from __future__ import annotations

import numpy as np
import pyspiel
import pytest

import builders.rl.openspiel as bos


@pytest.mark.parametrize("name", [bos.KINGDOM, bos.MIDDLE_AGES])
@pytest.mark.parametrize("players", [2, 4])
def test_random_sim_test(name: str, players: int) -> None:
    game = pyspiel.load_game(name, {"players": players, "seed": 3})
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


def test_kingdom_chance_node_draws_from_the_deck() -> None:
    # rules.md "A turn": after the turn ends, the player draws a new terrain card
    game = pyspiel.load_game(bos.KINGDOM, {"players": 2, "seed": 1})
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
    game = pyspiel.load_game(bos.MIDDLE_AGES, {"players": 2, "seed": 2})
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
    game = pyspiel.load_game(bos.KINGDOM, {"players": 2, "seed": 1})
    state = game.new_initial_state()
    other = 1 - state.current_player()
    twin = state.resample_from_infostate(state.current_player(), pyspiel.UniformProbabilitySampler(0.0, 1.0))
    me = state.current_player()
    assert twin.information_state_string(me) == state.information_state_string(me)
    assert twin.observation_string(me) == state.observation_string(me)
    assert state.information_state_string(me) != state.information_state_string(other)


def test_ismcts_plays_the_builders() -> None:
    from open_spiel.python.algorithms import ismcts, mcts

    game = pyspiel.load_game(bos.MIDDLE_AGES, {"players": 2, "seed": 3})
    bot = ismcts.ISMCTSBot(game=game, evaluator=mcts.RandomRolloutEvaluator(1, np.random.RandomState(0)),
                           uct_c=2.0, max_simulations=8, random_state=np.random.RandomState(1))
    state = game.new_initial_state()
    action = bot.step(state)
    assert action in state.legal_actions()
    state.apply_action(action)


def test_observation_tensor_has_the_declared_size() -> None:
    game = pyspiel.load_game(bos.MIDDLE_AGES, {"players": 3, "seed": 0})
    state = game.new_initial_state()
    observer = game.make_py_observer()
    observer.set_from(state, 0)
    assert observer.tensor.shape == (game.observation_size,)
    assert observer.tensor.sum() > 0
    # through pyspiel's own API too (what AlphaZero reads)
    assert game.observation_tensor_shape() == [game.observation_size]
    assert np.array(state.observation_tensor(1)).shape == (game.observation_size,)
