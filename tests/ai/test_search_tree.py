"""The search tree after a decision of a fixed number of iterations: every iteration is counted once at
the root, and a node's child was available at most as often as the node was visited, and visited at
most as often as it was available (information-set MCTS counts availability per child)."""

from __future__ import annotations

import pytest

from builders.ai.mcts import MCTSAgent
from builders.core.games import get_game, on_python


@pytest.mark.parametrize("game", ["kingdom", "middle-ages"])
@pytest.mark.parametrize("prior", ["full", "fast"])
def test_visit_and_availability_counts(game, prior):
    g = get_game(game)
    state = g.new_state(g.random_setup(3, 4))
    agent = MCTSAgent(1, time_limit=None, iterations=150, prior=prior)
    action = agent.act(state)
    assert action in state.legal_actions()
    root = agent.last_root
    assert root.visits == 150 == sum(ch.visits for ch in root.children.values())
    assert agent.last_stats["iterations"] == 150
    checked = 0
    stack = [root]
    while stack:
        node = stack.pop()
        for child in node.children.values():
            assert 1 <= child.visits <= child.avail <= node.visits
            checked += 1
            stack.append(child)
    assert checked > len(root.children)


def test_the_builders_values_an_action_left():
    """In The Builders an action left in the turn is worth something: with one action fewer, the seat to
    move is valued lower and its opponent higher (the position is otherwise the same)."""
    from builders.ai.evaluate import win_values

    g = get_game("middle-ages")
    for seed in range(3):
        state = on_python(g.new_state(g.random_setup(2, seed)))  # its field changed by hand below
        fewer = state.copy()
        fewer.actions -= 1
        before, after = win_values(state), win_values(fewer)
        assert before == [0.5, 0.5]
        assert after[state.current_player] < 0.5 < after[1 - state.current_player]
