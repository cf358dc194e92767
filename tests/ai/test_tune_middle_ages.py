"""benchmarks/ai_tune_middle_ages.py: an agent made with its own evaluation weights, the SPSA step and
its record, and bad arguments refused with one line."""

from __future__ import annotations

import json

import pytest

from builders.ai import GreedyAgent
from builders.ai import eval_middle_ages as ema
from tests.ai.helpers import benchmark, midgame

tune = benchmark("ai_tune_middle_ages")


def test_a_tuned_agent_plays_with_its_weights():
    """The tuned agent is medium made with the weights: it plays as greedy with that settings object,
    and the evaluation's defaults stay as they were."""
    state = midgame("middle-ages", 2, 6, 45)
    weights = {"MA_HORIZON": 0.5, "MA_SHORT": 0.4}
    tuned = tune.Tuned(3, weights)
    action = tuned.act(state)
    assert tuned.agent.weights == weights and ema.DEFAULT.MA_HORIZON == 2.5
    assert GreedyAgent(3, weights=ema.MiddleAgesSettings(MA_HORIZON=0.5, MA_SHORT=0.4)).act(state) == action


def test_a_short_run_writes_its_record(tmp_path):
    out = tmp_path / "tune.json"
    assert tune.main(["--steps", "1", "--pairs", "1", "--check", "1", "--out", str(out)]) == 0
    rec = json.loads(out.read_text())
    assert rec["game"] == "middle-ages" and list(rec["weights"]) == list(tune.STEPS)
    step = rec["steps"][0]
    assert len(rec["steps"]) == 1 and set(step["signs"]) <= {-1, 1}
    # theta moves by a_k * score / (2 c_k sign), in units of each weight's step
    ak = 1.0 / (0 + 1 + rec["A"]) ** 0.602
    assert step["theta"] == [pytest.approx(ak * step["score"] / (2 * s), abs=1e-3) for s in step["signs"]]
    assert rec["final"]["MA_HORIZON"] == pytest.approx(ema.DEFAULT.MA_HORIZON + 0.5 * step["theta"][8], abs=1e-3)
    assert rec["check"]["games"] == 2 and 0 <= rec["check"]["tuned_wins"] <= 2


def test_bad_arguments_are_refused_with_one_line(capsys):
    assert tune.main(["--steps", "0"]) == 2
    err = capsys.readouterr().err
    assert err == (
        "error: --steps, --pairs and --workers must be at least 1, --check at least 0, --lead-scale above 0\n"
    )
    assert tune.main(["--params", "MA_HORIZON,MA_COIN"]) == 2
    assert capsys.readouterr().err == (f"error: unknown weight MA_COIN (choose from {', '.join(tune.STEPS)})\n")
    assert tune.main(["--agent", "master"]) == 2
    assert capsys.readouterr().err.startswith("error: unknown agent 'master' (choose from ")


def test_a_run_scored_by_the_lead_tunes_the_weights_asked_for(tmp_path):
    out = tmp_path / "tune.json"
    assert (
        tune.main(
            [
                "--steps",
                "1",
                "--pairs",
                "1",
                "--check",
                "1",
                "--score",
                "lead",
                "--lead-scale",
                "4",
                "--params",
                "MA_PACE,MA_HORIZON",
                "--out",
                str(out),
            ]
        )
        == 0
    )
    rec = json.loads(out.read_text())
    assert list(rec["weights"]) == ["MA_PACE", "MA_HORIZON"] and rec["score"] == "lead"
    step = rec["steps"][0]
    assert len(step["leads"]) == 2 and len(step["signs"]) == 2
    # a game scores the plus side's lead over the minus side in units of --lead-scale, within -1 and 1
    assert step["score"] == pytest.approx(sum(max(-1, min(1, x / 4)) for x in step["leads"]) / 2, abs=1e-4)
    # the plus side won the games it led, and none it trailed (equal scores go to the tie-break)
    assert sum(x > 0 for x in step["leads"]) <= step["wins"] <= sum(x >= 0 for x in step["leads"])
    assert set(rec["final"]) == {"MA_PACE", "MA_HORIZON"}
    assert rec["check"]["games"] == 2 and rec["check"]["lead_se"] >= 0


def test_games_in_worker_processes_are_the_games_played_in_one(monkeypatch):
    """``--workers``: a match's games played in processes give the same wins and leads, game by game."""
    import sys
    from concurrent.futures import ProcessPoolExecutor

    # the processes find the games' function by the module's name, as when the script runs
    monkeypatch.setitem(sys.modules, tune.__name__, tune)

    plus = {"MA_HORIZON": ema.DEFAULT.MA_HORIZON + 1.0}
    minus = {"MA_HORIZON": ema.DEFAULT.MA_HORIZON - 1.0}
    alone = tune.match(plus, minus, 2, 5, "workers")
    with ProcessPoolExecutor(2) as pool:
        assert tune.match(plus, minus, 2, 5, "workers", "medium", pool) == alone
    assert len(alone[1]) == 4


def test_a_run_tunes_around_the_values_it_starts_from(tmp_path, capsys):
    """``--start``: the defaults of the run and its check; a weight not tuned is played by both sides."""
    out = tmp_path / "tune.json"
    assert (
        tune.main(
            [
                "--steps",
                "1",
                "--pairs",
                "1",
                "--check",
                "1",
                "--params",
                "MA_PACE",
                "--start",
                "MA_STAFFED=0.6,MA_PACE=2.5",
                "--out",
                str(out),
            ]
        )
        == 0
    )
    rec = json.loads(out.read_text())
    assert rec["weights"] == {"MA_PACE": {"default": 2.5, "step": 0.25, "bounds": [0.75, 5.0]}}
    assert rec["fixed"] == {"MA_STAFFED": 0.6}
    assert rec["final"]["MA_PACE"] == pytest.approx(2.5 + 0.25 * rec["steps"][0]["theta"][0], abs=1e-3)
    capsys.readouterr()
    assert tune.main(["--start", "MA_COIN=1"]) == 2
    assert capsys.readouterr().err == (
        f"error: --start takes NAME=VALUE with NAME one of {', '.join(tune.STEPS)}, not 'MA_COIN=1'\n"
    )
    assert tune.main(["--start", "MA_HORIZON=30"]) == 2
    assert capsys.readouterr().err == "error: --start: MA_HORIZON must be from 0.5 to 20, not 30\n"
    assert tune.main(["--start", "MA_PACE=fast"]) == 2
    assert capsys.readouterr().err == "error: --start: MA_PACE must be a number, not 'fast'\n"


def test_an_unknown_weight_or_an_agent_without_weights_is_refused():
    """A name the settings do not have; random play values nothing."""
    with pytest.raises(ValueError, match="^unknown weight MA_MACHINE_UNITS"):
        tune.Tuned(3, {"MA_MACHINE_UNITS": 5.0})
    with pytest.raises(ValueError, match="^the agent 'random' does not value positions by the evaluation's weights"):
        tune.Tuned(3, {"MA_HORIZON": 4.5}, "random")
    assert tune.Tuned(3, {"MA_HORIZON": 4.5}, "mcts:iters=10").agent.weights == {"MA_HORIZON": 4.5}


def test_greedy_with_weights_of_its_own_values_as_that_settings_object():
    """A greedy agent's own weights (by name) give, position after position, the values of the
    settings object holding them, and leave the defaults as they were; on these positions they
    value otherwise than the defaults. Kingdom Builder's evaluation has other weights."""
    own = {"MA_HORIZON": 0.5, "MA_SHORT": 0.4, "MA_PACE": 3.0}
    states = [midgame("middle-ages", 2, seed, 30 + 5 * seed) for seed in range(8)]
    mine = [GreedyAgent(seed, weights=own).scores(s) for seed, s in enumerate(states)]
    plain = [GreedyAgent(seed).scores(s) for seed, s in enumerate(states)]
    assert ema.DEFAULT.MA_HORIZON == 2.5 and ema.DEFAULT.MA_SHORT == 0.125 and ema.DEFAULT.MA_PACE == 2.0
    assert mine != plain
    settings = ema.MiddleAgesSettings(**own)
    assert [GreedyAgent(seed, weights=settings).scores(s) for seed, s in enumerate(states)] == mine
    with pytest.raises(ValueError, match=r"^unknown weight MA_HORIZON, MA_PACE, MA_SHORT \(choose from KB_TILE_BASE"):
        GreedyAgent(1, weights=own).act(midgame("kingdom", 2, 1, 10))
    with pytest.raises(ValueError, match="^unknown weight MA_COINS"):
        GreedyAgent(1, weights={"MA_COINS": 1.0})
