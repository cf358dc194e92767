"""Agents decide from what the player to move may know: two true states that differ only in hidden
information (other seats' terrain cards, the deck orders) get the same decision from the same agent
with the same seed, and the determinizations the agents search over are the same too."""

from __future__ import annotations

import pytest

from builders.ai import GreedyAgent, MCTSAgent
from builders.ai.planner_kingdom import TurnPlanner
from builders.ai.planner_middle_ages import MiddleAgesPlanner
from builders.core.rng import Rng
from builders.core.state import Chance
from tests.ai.helpers import kingdom_twin, midgame, middle_ages_twin

KB_POSITIONS = [(2, 3, 9), (2, 8, 40), (3, 5, 21), (4, 2, 52)]
MA_POSITIONS = [(2, 3, 10), (2, 6, 45), (3, 4, 30), (4, 9, 60)]


def kb_pair(players, seed, actions):
    state = midgame("kingdom", players, seed, actions)
    twin = kingdom_twin(state, seed)
    seat = state.current_player
    assert twin.observation(seat) == state.observation(seat)
    assert twin.to_json() != state.to_json()  # the hidden parts do differ
    return state, twin


def ma_pair(players, seed, actions):
    state = midgame("middle-ages", players, seed, actions)
    twin = middle_ages_twin(state, seed)
    seat = state.current_player
    assert twin.observation(seat) == state.observation(seat)
    assert twin.to_json() != state.to_json()
    return state, twin


@pytest.mark.parametrize("pos", KB_POSITIONS)
def test_kingdom_determinizations_depend_only_on_the_observation(pos):
    state, twin = kb_pair(*pos)
    seat = state.current_player
    for k in range(3):
        a = state.resample_hidden(seat, Rng(k))
        b = twin.resample_hidden(seat, Rng(k))
        assert a.to_json() == b.to_json()
        assert a.rng.state == b.rng.state  # the same future reshuffles too
        # the past keeps the players' actions but no drawn card (other seats' hands)
        assert a.history == [e for e in state.history if not isinstance(e, Chance)]
        assert any(isinstance(e, Chance) for e in state.history)
        # and what happens after the turn ends (a draw, maybe a reshuffle) is the same
        for x, y in ((a, b),):
            while not x.is_over() and x.current_player == seat:
                act = x.legal_actions()[-1]
                x.apply(act)
                y.apply(act)
            assert x.to_json() == y.to_json()


@pytest.mark.parametrize("pos", MA_POSITIONS)
def test_middle_ages_determinizations_depend_only_on_the_observation(pos):
    state, twin = ma_pair(*pos)
    seat = state.current_player
    for k in range(3):
        a = state.resample_hidden(seat, Rng(k))
        assert a.to_json() == twin.resample_hidden(seat, Rng(k)).to_json()
        assert a.history == [e for e in state.history if not isinstance(e, Chance)]
        assert any(isinstance(e, Chance) for e in state.history)


def kb_agents():
    return [
        GreedyAgent(7),
        GreedyAgent(7, noise=0.5),
        MCTSAgent(7, time_limit=None, iterations=250),
        TurnPlanner(7, turn_time=None, beam=10, plans=3, reply=2),
    ]


def ma_agents():
    return [
        GreedyAgent(7),
        GreedyAgent(7, noise=0.5),
        MCTSAgent(7, time_limit=None, iterations=400),
        MiddleAgesPlanner(7, turn_time=None, beam=10, plans=4, reply=3),
        MiddleAgesPlanner(7, turn_time=None, beam=6, plans=3, reply=2, samples=3),
    ]


@pytest.mark.parametrize("pos", KB_POSITIONS)
def test_kingdom_agents_choose_the_same_whatever_is_hidden(pos):
    state, twin = kb_pair(*pos)
    for first, second in zip(kb_agents(), kb_agents()):
        a = first.act(state)
        b = second.act(twin)
        assert a == b, (first.name, state.action_to_string(a), state.action_to_string(b))
        assert state.is_legal(a)


@pytest.mark.parametrize("pos", MA_POSITIONS)
def test_middle_ages_agents_choose_the_same_whatever_is_hidden(pos):
    state, twin = ma_pair(*pos)
    for first, second in zip(ma_agents(), ma_agents()):
        a = first.act(state)
        b = second.act(twin)
        assert a == b, (first.name, state.action_to_string(a), state.action_to_string(b))
        assert state.is_legal(a)


def other_seats_in_tree(root, seat):
    """The seats other than ``seat`` that decide at some node of the tree."""
    seen = set()
    stack = [root]
    while stack:
        node = stack.pop()
        for child in node.children.values():
            if child.player != seat:
                seen.add(child.player)
            stack.append(child)
    return seen


@pytest.mark.parametrize("game, pos", [("kingdom", KB_POSITIONS[1]), ("middle-ages", MA_POSITIONS[1])])
def test_mcts_searches_through_hidden_draws(game, pos):
    """The test above is not vacuous: mcts's tree goes past the end of the turn (where hidden cards
    are drawn) into the other seats' decisions."""
    state, _ = (kb_pair if game == "kingdom" else ma_pair)(*pos)
    agent = MCTSAgent(1, time_limit=None, iterations=400)
    agent.act(state)
    assert agent.last_stats["iterations"] == 400
    assert other_seats_in_tree(agent.last_root, state.current_player)
