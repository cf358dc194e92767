"""How far a strength line of benchmarks/ai_strength.py is from its target: the win rate a target
needs over the planned games, and the lead a game that would reach it."""

from __future__ import annotations

from tests.ai.helpers import benchmark

strength = benchmark("ai_strength")


def test_the_win_rate_a_target_needs_over_200_games():
    """The 95% Wilson lower bound must clear the line: 90% needs 188.5 of 200, 65% needs 143.5."""
    assert strength.rate_needed(0.90, 200) == 0.9425
    assert strength.rate_needed(0.65, 200) == 0.7175
    assert strength.wilson_interval(188.5, 200)[0] >= 0.90 > strength.wilson_interval(188, 200)[0]
    assert strength.rate_needed(0.5, 4) == 1.0


def test_the_lead_to_gain_is_the_smallest_shift_that_wins_enough_games():
    """Four games lost by 3 and 1, won by 2 and 5: all four must be won for 50% over 4 games, and a
    lead of 0 is half a win, so 3 points more are not enough and 3.25 are."""
    assert strength.shift_needed([-3, -1, 2, 5], 0.5, 4) == 3.25
    assert strength.shift_needed([1, 2, 3, 4], 0.5, 4) == 0.0


def test_the_first_agents_lead_is_over_the_best_other_seat():
    records = [
        {"seats": [1, 0], "scores": [40, 31]},  # the first agent in seat 1
        {"seats": [2, 3, 0, 1], "scores": [50, 62, 58, 10]},
    ]
    assert strength.first_leads(records) == [-9, -4]


def _outcomes(path):
    """The games a results file holds, per match, as (index, seats, scores) in index order."""
    return {
        name: [(i, r["seats"], r["scores"]) for i, r in sorted(games.items())]
        for name, games in strength.load(path).items()
    }


def test_a_match_goes_on_where_it_stopped_and_ray_plays_the_same_games(tmp_path):
    """A match stopped after 2 of its games continues with the other 4, one line each; run again it
    plays nothing; on a Ray cluster the same 6 games come out as from local processes."""
    import ray

    local, remote = tmp_path / "local.jsonl", tmp_path / "ray.jsonl"
    assert strength.play(["ma-easy-random"], 2, 1, local) == 2
    assert strength.play(["ma-easy-random"], 6, 2, local) == 4
    assert strength.play(["ma-easy-random"], 6, 2, local) == 0
    assert len(local.read_text().splitlines()) == 6
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        assert strength.play(["ma-easy-random"], 6, 1, remote, backend="ray") == 6
    finally:
        ray.shutdown()
    assert [i for i, _, _ in _outcomes(local)["ma-easy-random"]] == [0, 1, 2, 3, 4, 5]
    assert _outcomes(remote) == _outcomes(local)


def test_an_address_without_the_ray_backend_is_refused(tmp_path):
    import subprocess
    import sys
    from pathlib import Path

    script = Path(__file__).parents[2] / "benchmarks" / "ai_strength.py"
    out = subprocess.run(
        [sys.executable, str(script), "--address", "10.0.0.1:6379", "--results", str(tmp_path / "r.jsonl")],
        capture_output=True,
        text=True,
    )
    assert out.returncode == 2
    assert out.stderr.strip().splitlines()[-1] == "ai_strength.py: error: --address needs --backend ray"
    assert not (tmp_path / "r.jsonl").exists()


def test_a_match_played_past_its_planned_games_is_judged_over_all_it_holds(tmp_path):
    """A line played on to 400 games says what it needs over those 400 (90% needs 372 of 400, 93%:
    a Wilson lower bound of 90.1%), not over the 200 planned (94.25%)."""
    import json

    assert strength.rate_needed(0.90, 400) == 0.93
    assert strength.wilson_interval(372, 400)[0] >= 0.90 > strength.wilson_interval(371.5, 400)[0]
    path = tmp_path / "r.jsonl"
    rows = []
    for i in range(400):  # hard wins 348 games by 10 and loses 52 by 10
        seats = [0, 1] if i % 2 == 0 else [1, 0]
        mine = 70 if i < 348 else 50
        scores = [mine, 60] if seats[0] == 0 else [60, mine]
        rows.append(
            {
                "match": "kb-hard-medium",
                "record": {
                    "index": i,
                    "setup": i // 2,
                    "rotation": i % 2,
                    "seats": seats,
                    "scores": scores,
                    "returns": [1.0 if s == max(scores) else 0.0 for s in scores],
                    "winners": [scores.index(max(scores))],
                    "breakdown": [{}, {}],
                    "actions": 100,
                    "decisions": [40, 40],
                    "seconds": [1.0, 0.1],
                    "longest": [0.1, 0.01],
                    "sims_per_s": [None, None],
                },
            }
        )
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    line = strength.report(["kb-hard-medium"], path)[0]
    assert "400/200 games, hard:clock=cpu 348 wins = 87.0% [83.3%, 89.9%] target 90%: not met" in line
    # +10 draws the 52 games lost, each half a win: 374 of 400
    assert "(it needs 93.00% of 400 games: about +10 points a game in the lead)" in line
