"""The core of benchmarks/ai_tune.py: parameters in units of their steps, kept in their bounds, and an
agent made with its own settings of the evaluation."""

from __future__ import annotations

import json

import pytest

from builders.ai import eval_kingdom, evaluate
from builders.ai.mcts import MCTSAgent
from tests.ai.helpers import benchmark, midgame

tune = benchmark("ai_tune")


def test_values_in_steps_and_bounds():
    assert tune.spec("c") == (0.3, 0.1, 0.05, 1.5)
    assert tune.spec("KB_MOVE_CASTLE") == (3.0, 0.9, 0.0, 9.0)
    vals = tune.values_of(["c", "scale", "KB_MOVE_CASTLE"], [1.0, -100.0, 2.0])
    assert vals == {"c": pytest.approx(0.4), "scale": 1.0, "KB_MOVE_CASTLE": pytest.approx(4.8)}
    assert tune.clamp(["c", "scale"], [50.0, -50.0]) == [pytest.approx(12.0), pytest.approx(-3.0)]
    with pytest.raises(ValueError, match="unknown parameter 'nope'"):
        tune.spec("nope")


def test_a_tuned_agent_searches_with_its_constants_and_settings():
    """Its decision is the one a plain search makes with those settings (and differs from the
    defaults' here); the defaults stay as they were."""
    state = midgame("kingdom", 2, 8, 40)
    tuned = tune.Tuned(3, {"KB_MOVE_CASTLE": 0.0, "KB_MOVE_GOOD": 4.0, "c": 0.6}, None, iterations=400)
    action = tuned.act(state)
    assert eval_kingdom.DEFAULT.KB_MOVE_CASTLE == 3.0 and eval_kingdom.DEFAULT.KB_MOVE_GOOD == 1.0
    visits = {a: ch.visits for a, ch in tuned.agent.last_root.children.items()}

    def plain(weights, c: float):
        agent = MCTSAgent(3, time_limit=None, iterations=400, prior="fast", reuse=True, c=c, weights=weights)
        return agent.act(state), {a: ch.visits for a, ch in agent.last_root.children.items()}

    assert plain(eval_kingdom.KingdomSettings(KB_MOVE_CASTLE=0.0, KB_MOVE_GOOD=4.0), 0.6) == (action, visits)
    assert plain(None, 0.3)[1] != visits


def test_a_tuned_agents_evaluation_weights_do_not_leak_through_the_caches():
    """Kingdom Builder's evaluation caches each kingdom's card values with their gradients, per
    settings: a tuned agent with another farmers' gap sees its own value of a position the defaults
    have already valued, and the defaults afterwards their own again (seed 7 deals farmers; each
    seat has a sector empty)."""
    from builders.core.games import get_game, on_python

    g = get_game("kingdom")
    state = on_python(g.new_state(g.random_setup(2, 7)))
    assert "farmers" in state.cards
    rnd = __import__("random").Random(1)
    while sum(1 for s in eval_kingdom._kingdom_context(state).sectors if state.own[0] & s) != 3:
        legal = state.legal_actions()
        state.apply(legal[rnd.randrange(len(legal))])
    default = evaluate.values(state)
    tuned = tune.Tuned(3, {"KB_FARMERS_GAP": 3.0}, None, iterations=10)
    tuned.act(state)
    seen = evaluate.values(state, None, tuned.agent._w)
    # the gap goes from 0.6 to 3.0 a step: seat 0's empty sector is 2 steps away, seat 1's 1 step
    assert seen == pytest.approx([default[0] - 2.4 * 2, default[1] - 2.4])
    assert evaluate.values(state) == default


def test_a_short_run_writes_its_record(tmp_path):
    out = tmp_path / "tune.json"
    assert (
        tune.main(["--steps", "1", "--pairs", "1", "--iters", "3", "--params", "c,KB_MOVE_GOOD", "--out", str(out)])
        == 0
    )
    rec = json.loads(out.read_text())
    assert rec["games"] == 2 and rec["iterations"] == 3 and rec["turn_cpu_seconds"] is None
    assert list(rec["params"]) == ["c", "KB_MOVE_GOOD"] and len(rec["steps"]) == 1
    step = rec["steps"][0]
    assert step["k"] == 0 and set(step["signs"]) <= {-1, 1} and len(step["theta"]) == 2
    # theta moves against the minus side by the step's score: a_k * score / (2 c_k sign)
    ak = 1.0 / (0 + 1 + rec["A"]) ** 0.602
    assert step["theta"] == [pytest.approx(ak * step["score"] / (2 * s), abs=1e-4) for s in step["signs"]]
    assert rec["final"]["c"] == pytest.approx(0.3 + 0.1 * step["theta"][0], abs=1e-4)


def test_bad_arguments_are_refused_with_one_line(capsys):
    assert tune.main(["--params", "c,bogus", "--steps", "1"]) == 2
    assert capsys.readouterr().err.startswith("error: unknown parameter 'bogus'")
    assert tune.main(["--steps", "0"]) == 2
    assert "must be positive" in capsys.readouterr().err
