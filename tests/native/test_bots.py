"""The bots' work inside the native core: the search's random playouts (``state.rollout``) make the
same choices from the same generator as the Python loop of ``builders.ai.mcts``, and the bots play
the same games on either core from the same seed.

These tests need the native module (``make native``): without it they fail, they do not skip."""

from __future__ import annotations

import random

import pytest

from builders.ai.factory import make_bot
from builders.ai.mcts import MCTSAgent
from builders.core.rng import Rng
from builders.kingdom import native as kb_native
from builders.kingdom.setup import new_state as kb_new_state
from builders.kingdom.game import KingdomBuilder
from builders.middle_ages import native as ma_native
from builders.middle_ages.setup import check_setup, random_setup
from builders.middle_ages.state import MiddleAgesState
from tests.native.helpers import positions_along

if not kb_native.available():
    pytest.fail("the native core is not built: run `make native` (pip install ./native)", pytrace=False)


def _kb_positions() -> list:
    game = KingdomBuilder()
    return positions_along((kb_new_state(game.random_setup(2 + s % 3, 900 + s)) for s in range(4)), 9)


def _ma_positions() -> list:
    return positions_along((MiddleAgesState(check_setup(random_setup(2 + s % 3, 900 + s))) for s in range(4)), 25)


def _python_rollout(state, rng: Rng, steps: int) -> None:
    """The Python loop of ``MCTSAgent._leaf`` (its random playout)."""
    for _ in range(steps):
        if state.is_over():
            break
        acts = state.legal_actions()
        state.apply(acts[rng.randbelow(len(acts))])


@pytest.mark.parametrize(
    ("positions", "to_native"),
    [(_kb_positions, kb_native.from_python), (_ma_positions, ma_native.from_python)],
    ids=["kingdom", "middle-ages"],
)
def test_native_rollouts_make_the_python_choices(positions, to_native):
    checked = ended = 0
    for i, py in enumerate(positions()):
        for steps in (1, 7, 40, 10_000):
            seed = 31 * i + steps
            mine = py.copy()
            rng = Rng(seed)
            _python_rollout(mine, rng, steps)
            nat = to_native(py)
            after = nat.rollout(Rng(seed).state, steps)
            assert after == rng.state, (i, steps)
            assert nat.history == mine.history, (i, steps)
            assert nat.is_over() == mine.is_over() and nat.to_json() == mine.to_json(), (i, steps)
            checked += 1
            ended += mine.is_over()
    assert checked > 60 and ended > 20


def test_a_rollout_from_a_finished_game_changes_nothing():
    py = _ma_positions()[-1]
    nat = ma_native.from_python(py)
    assert nat.is_over()
    assert nat.rollout(12345, 10) == 12345
    assert nat.history == py.history


@pytest.mark.parametrize("game", ["kingdom", "middle-ages"])
def test_the_search_with_playouts_chooses_alike_on_both_cores(game):
    """MCTS with random playouts after each new node: the same seed and iteration budget choose
    the same actions, with the same statistics, on either core."""
    if game == "kingdom":
        g = KingdomBuilder()
        pys = [kb_new_state(g.random_setup(3, 77))]
        to_native = kb_native.from_python
    else:
        pys = [MiddleAgesState(check_setup(random_setup(3, 77)))]
        to_native = ma_native.from_python
    py = pys[0]
    rnd = random.Random(5)
    decisions = 0
    while not py.is_over() and decisions < 12:
        legal = py.legal_actions()
        if len(legal) > 1:
            a_py, a_nat = (MCTSAgent(seed=decisions, time_limit=None, iterations=60, rollout=6) for _ in range(2))
            chosen = a_py.act(py)
            assert a_nat.act(to_native(py)) == chosen
            assert a_nat.last_stats["best_visits"] == a_py.last_stats["best_visits"]
            assert a_nat.last_stats["best_value"] == pytest.approx(a_py.last_stats["best_value"], abs=1e-12)
            decisions += 1
        else:
            chosen = legal[0]
        py.apply(chosen if rnd.random() < 0.7 else legal[rnd.randrange(len(legal))])
    assert decisions == 12


@pytest.mark.parametrize("game", ["kingdom", "middle-ages"])
def test_the_hard_bot_plays_alike_on_both_cores(game):
    """The hard bot (each game's turn planner) on the clock that counts positions: the same plans,
    so the same actions, from the native state as from the Python one."""
    if game == "kingdom":
        g = KingdomBuilder()
        py = kb_new_state(g.random_setup(2, 12))
        to_native = kb_native.from_python
    else:
        py = MiddleAgesState(check_setup(random_setup(2, 12)))
        to_native = ma_native.from_python
    from builders.ai.factory import make_planner

    played = 0
    while not py.is_over() and played < 8:
        bots = [make_planner(played, "hard", 0.05, game, clock="count") for _ in range(2)]
        chosen = bots[0].act(py)
        assert bots[1].act(to_native(py)) == chosen
        assert bots[1].last_stats.get("evaluations") == bots[0].last_stats.get("evaluations")
        py.apply(chosen)
        played += 1
    assert played == 8


def test_a_medium_bot_game_is_the_same_on_both_cores():
    py = MiddleAgesState(check_setup(random_setup(2, 3)))
    nat = ma_native.from_python(py)
    bots = [make_bot("middle-ages", "medium", 4), make_bot("middle-ages", "medium", 4)]
    while not py.is_over():
        a = bots[0].act(py)
        assert bots[1].act(nat) == a
        py.apply(a)
        nat.apply(a)
    assert nat.result() == py.result()
