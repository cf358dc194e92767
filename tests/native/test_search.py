"""The search (``builders.ai.mcts.MCTSAgent``) handed a native state searches inside the native core
(``builders.ai.mcts_native``: the determinizations, the tree walk, the priors, the leaves) and grows the
same tree as handed the Python state: the same choices, and every node's visits, availabilities and
summed values equal to the bit, on many positions of random and bot games of both games, 2-4 players,
with the settings the levels and the analysis use and the others (priors full, fast and own, no
widening, a root top, random playouts, the heuristic's finish, an agent's weights, a whole turn with
its budget and the tree kept from one decision to the next); bad input to the core's tree refused.

These tests need the native module (``make native``): without it they fail, they do not skip."""

from __future__ import annotations

import itertools
import pickle
import random

import pytest

from builders.ai.eval_kingdom import weights as kb_weights
from builders.ai.eval_middle_ages import weights as ma_weights
from builders.ai.factory import make_bot
from builders.ai.mcts import MCTSAgent, Node
from builders.core.games import get_game, on_python
from builders.kingdom import native as kb_native
from builders.middle_ages import native as ma_native
from tests.native.helpers import positions_along

if not (kb_native.available() and ma_native.available()):
    pytest.fail("the native core is not built: run `make native` (pip install ./native)", pytrace=False)

NATIVE = {"kingdom": kb_native.from_python, "middle-ages": ma_native.from_python}

#: the search's settings compared: the defaults (the hard level before the planners: prior full), the
#: fast priors with the tree kept (the tuned The Builders' search, the analysis's priors), own, no
#: widening, a root top, random playouts, the heuristic's finish, other exploration and scale
OPTIONS = [
    {},
    {"prior": "fast", "reuse": True},
    {"prior": "own", "top": 2},
    {"widen": 0, "rollout": 3},
    {"prior": "fast", "finish": 3, "c": 0.8, "scale": 3.0},
    {"widen": 1.0, "rollout": 2, "finish": 2},
]


def _tree(root: Node) -> list[tuple]:
    """A Python tree depth first, children in the order added: (depth, action, player, visits,
    avail, value), as ``KBSearch.dump`` gives the core's."""
    out = []
    stack = [(0, -1, root)]
    while stack:
        depth, action, node = stack.pop()
        out.append((depth, action, node.player, node.visits, node.avail, node.value))
        for b, child in reversed(list(node.children.items())):
            stack.append((depth + 1, b, child))
    return out


def _priors(root) -> list:
    """The full priors of every node of a tree (a Python one, or the view of the core's), depth first."""
    out = []
    stack = [root]
    while stack:
        node = stack.pop()
        out.append(None if node.priors is None else sorted(node.priors.items()))
        stack.extend(reversed(list(node.children.values())))
    return out


def _positions(game: str, every: int, bot: bool) -> list:
    """Positions of one random (or medium bot) game of ``game`` for each of 2, 3 and 4 players, every
    ``every`` decisions, with a choice (not over, more than one legal action)."""
    g = get_game(game)
    states = (on_python(g.new_state(g.random_setup(players, 40 + players))) for players in (2, 3, 4))
    maker = (lambda i: make_bot(game, "medium", i)) if bot else None
    return [st for st in positions_along(states, every, bot=maker) if len(st.legal_actions()) > 1]


def _same_search(py, options: dict, iterations: int, seed: int) -> int:
    """One decision of the search on ``py`` and on its native copy: the same action, tree, statistics
    and generator after it. Returns the nodes of the tree."""
    nat = NATIVE[py.GAME](py)
    on_py = MCTSAgent(seed, time_limit=None, iterations=iterations, **options)
    on_nat = MCTSAgent(seed, time_limit=None, iterations=iterations, **options)
    action = on_py.act(py)
    assert on_nat.act(nat) == action
    assert on_py.last_tree is None and on_nat.last_tree is not None
    expected = _tree(on_py.last_root)
    assert on_nat.last_tree.dump() == expected
    assert _priors(on_nat.last_root) == _priors(on_py.last_root)
    assert on_nat.last_stats["iterations"] == on_py.last_stats["iterations"] == iterations
    assert on_nat.last_stats["best_value"] == on_py.last_stats["best_value"]
    assert on_nat.rng.state == on_py.rng.state
    return len(expected)


@pytest.mark.parametrize("game", ["kingdom", "middle-ages"])
@pytest.mark.parametrize("bot", [False, True], ids=["random", "bot"])
def test_the_native_search_grows_the_python_tree(game, bot):
    positions = _positions(game, 17 if game == "kingdom" else 23, bot)
    assert len(positions) >= 12
    nodes = 0
    players = set()
    for i, py in enumerate(positions):
        options = OPTIONS[i % len(OPTIONS)]
        nodes += _same_search(py, options, 40 + 7 * (i % 5), i)
        players.add(py.num_players)
    assert players == {2, 3, 4}
    assert nodes > 40 * len(positions)


def test_the_middle_ages_search_with_an_agents_weights_is_the_python_one():
    own = ma_weights({"MA_STAFFED": 0.6, "MA_HORIZON": 4.5, "MA_LATE_ROUND": 2, "MA_LATE_DECAY": 0.7})
    for i, py in enumerate(_positions("middle-ages", 41, False)[:6]):
        _same_search(py, {"weights": own, "rollout": i % 3}, 60, i)


def test_the_kingdom_search_with_an_agents_weights_is_the_python_one():
    """Kingdom Builder's evaluation and move heuristic with an agent's weights inside the core: the
    same tree, with every prior (the fast ones order by the move heuristic's weights)."""
    own = kb_weights({"KB_FRONTIER": 0.5, "KB_FRONTIER_CAP": 3, "KB_MOVE_GOOD": 2.5, "KB_TILE_BASE": 1.0})
    for i, py in enumerate(_positions("kingdom", 29, False)[:6]):
        _same_search(py, {"weights": own, **OPTIONS[i % len(OPTIONS)]}, 50, i)


class StepClock:
    """A clock that moves on by ``step`` seconds each time it is read: a search on either core reads it
    at the same points, so a timed search is the same on both."""

    def __init__(self, step: float):
        self.t = 0.0
        self.step = step

    def __call__(self) -> float:
        self.t += self.step
        return self.t


@pytest.mark.parametrize("game", ["kingdom", "middle-ages"])
def test_whole_turns_with_their_budget_and_the_kept_tree_are_the_python_ones(game):
    """Two agents play the same game, one on each core, a turn budget each and the tree kept from one
    decision to the next: the same actions, trees and iterations at every decision."""
    g = get_game(game)
    for players in (2, 3, 4):
        py = on_python(g.new_state(g.random_setup(players, 70 + players)))
        nat = NATIVE[game](py)
        options = {"turn_time": 0.4, "time_limit": None, "reuse": True, "prior": "fast" if players == 3 else "full"}
        on_py, on_nat = MCTSAgent(players, **options), MCTSAgent(players, **options)
        on_py._now, on_nat._now = StepClock(0.005), StepClock(0.005)
        searched = kept = 0
        for _ in range(18 if game == "kingdom" else 24):
            if py.is_over():
                break
            reused = on_py._kept is not None and on_py._kept[0] == py.current_player
            action = on_py.act(py)
            assert on_nat.act(nat) == action
            assert on_nat.last_stats["iterations"] == on_py.last_stats["iterations"]
            if on_py.last_root is not None:
                assert on_nat.last_tree.dump() == _tree(on_py.last_root)
                searched += 1
                kept += reused
            py.apply(action)
            nat.apply(action)
        assert searched >= 8 and kept >= 2, (searched, kept)


@pytest.mark.parametrize("game", ["kingdom", "middle-ages"])
def test_evaluate_actions_is_the_python_one(game):
    py = _positions(game, 31, True)[2]
    nat = NATIVE[game](py)
    legal = py.legal_actions()
    played, also = legal[-1], (legal[len(legal) // 2],)
    on_py, on_nat = MCTSAgent(9, prior="fast"), MCTSAgent(9, prior="fast")
    best_py, node_py, played_py = on_py.evaluate_actions(py, 80, played, also=also)
    best_nat, node_nat, played_nat = on_nat.evaluate_actions(nat, 80, played, also=also)
    assert best_nat == best_py
    for a, b in ((node_nat, node_py), (played_nat, played_py)):
        assert (a.visits, a.avail, a.value) == (b.visits, b.avail, b.value)
    assert played_nat.visits >= 20
    assert on_nat.last_tree.dump() == _tree(on_py.last_root)


def test_the_cores_tree_refuses_bad_input():
    py = _positions("middle-ages", 37, False)[1]
    nat = ma_native.from_python(py)
    agent = MCTSAgent(1, time_limit=None, iterations=20)
    agent.act(nat)
    tree = agent.last_tree
    size, visits = tree.size, tree.visits
    with pytest.raises(IndexError, match="^seat out of range$"):
        tree.run(nat, 2, 5, 7)
    with pytest.raises(ValueError, match="^run: no such child$"):
        tree.run(nat, nat.current_player, 5, 7, 99999)
    illegal = next(a for a in itertools.count(1) if not nat.is_legal(a))
    assert tree.add_child(illegal, nat.current_player) is True
    assert tree.add_child(illegal, nat.current_player) is False
    with pytest.raises(ValueError, match="^run: the first action is not legal$"):
        tree.run(nat, nat.current_player, 5, 7, illegal)
    assert (tree.size, tree.visits) == (size + 1, visits)
    with pytest.raises(ValueError, match="^settings: the 17 weights of MiddleAgesSettings$"):
        nat.mcts_tree(0.5, 2.5, 2.0, 3, False, -1, 0, 0, [1.0])


def test_an_agent_that_searched_inside_the_core_pickles_without_its_tree():
    """Agents cross to worker processes pickled: the core's tree stays behind, and the copy searches on
    as the original does."""
    py = _positions("kingdom", 23, False)[2]
    nat = kb_native.from_python(py)
    agent = MCTSAgent(4, time_limit=None, iterations=30, reuse=True)
    agent.act(nat)
    assert agent.last_tree is not None and agent._kept is not None
    copy = pickle.loads(pickle.dumps(agent))
    assert (copy.last_tree, copy.last_root, copy._kept) == (None, None, None)
    assert agent.last_tree is not None  # the original keeps its tree
    again = MCTSAgent(4, time_limit=None, iterations=30)
    again.rng.state = copy.rng.state
    assert copy.act(nat) == again.act(nat)
    assert copy.last_tree.dump() == again.last_tree.dump()


@pytest.mark.parametrize("game", ["kingdom", "middle-ages"])
def test_resample_hidden_is_made_in_the_core_as_on_the_python_engine(game):
    """A native state's determinization (``resample_hidden``, made in the core) is the Python one: the
    same position, public history and generator after it, and the same game when played on."""
    from builders.core.rng import Rng

    positions = _positions(game, 13, False)
    assert len(positions) >= 20
    for i, py in enumerate(positions):
        nat = NATIVE[game](py)
        seat = i % py.num_players
        rng_py, rng_nat = Rng(i), Rng(i)
        other_py = py.resample_hidden(seat, rng_py)
        other_nat = nat.resample_hidden(seat, rng_nat)
        assert type(other_nat) is type(nat)
        assert rng_nat.state == rng_py.state
        assert other_nat.to_json() == other_py.to_json()
        assert other_nat.history == other_py.history
        assert other_nat.forced == [] and other_nat.to_python().forced == []
        if game == "kingdom":  # the copy's own generator, for its reshuffles
            assert other_nat.rng_state == other_py.rng.state
        rnd = random.Random(i)
        for _ in range(30):
            if other_py.is_over():
                break
            legal = other_py.legal_actions()
            assert other_nat.legal_actions() == legal
            action = legal[rnd.randrange(len(legal))]
            other_py.apply(action)
            other_nat.apply(action)
        assert other_nat.to_json() == other_py.to_json()
        assert other_nat.history == other_py.history
    nat = NATIVE[game](positions[0])
    if game == "middle-ages":
        with pytest.raises(ValueError, match=f"^seat must be from 0 to {nat.num_players - 1}, not 9$"):
            nat.resample_hidden(9, Rng(1))
