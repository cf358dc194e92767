"""Tournaments (builders.ai.tournament): paired seatings, numbers that add up, the JSON, and the same
results whatever the number of workers or the backend."""

from __future__ import annotations

import json
import math

import pytest

from builders.ai.tournament import run_tournament, seating, wilson_interval


def test_wilson_interval_known_values():
    lo, hi = wilson_interval(5, 10)
    assert (round(lo, 4), round(hi, 4)) == (0.2366, 0.7634)
    lo, hi = wilson_interval(0, 10)
    assert lo == 0.0 and round(hi, 4) == 0.2775
    lo, hi = wilson_interval(10, 10)
    assert round(lo, 4) == 0.7225 and hi == 1.0
    lo, hi = wilson_interval(95, 100)
    assert (round(lo, 3), round(hi, 3)) == (0.888, 0.978)


def test_seatings_rotate_the_first_agent():
    assert [seating(2, 2, r) for r in range(2)] == [[0, 1], [1, 0]]
    assert [seating(3, 3, r) for r in range(3)] == [[0, 1, 2], [2, 0, 1], [1, 2, 0]]
    # mcts against three greedy: the first agent goes round the table
    assert [seating(2, 4, r) for r in range(4)] == [[0, 1, 1, 1], [1, 0, 1, 1], [1, 1, 0, 1], [1, 1, 1, 0]]
    assert seating(3, 4, 1) == [1, 0, 2, 1]


def check_consistent(result, games):
    stats = result.stats
    assert sum(s.wins for s in stats) == pytest.approx(games)
    for s in stats:
        assert s.games == games
        lo, hi = s.win_rate_ci95
        assert lo <= s.win_rate <= hi
        assert s.win_rate == pytest.approx(s.wins / games)
        assert len(s.scores) == s.seats
        assert s.mean_score == pytest.approx(sum(s.scores) / len(s.scores))
        assert s.decisions > 0 and s.mean_move_seconds >= 0
    assert [r["index"] for r in result.records] == list(range(games))
    for r in result.records:
        assert sum(r["returns"]) == pytest.approx(1.0)
        assert [sum(b.values()) for b in r["breakdown"]] == r["scores"]


def test_paired_games_share_setups_and_swap_seats():
    result = run_tournament("middle-ages", "greedy,random", 2, 6, seed=4)
    check_consistent(result, 6)
    records = result.records
    for k in range(3):
        a, b = records[2 * k], records[2 * k + 1]
        assert a["setup"] == b["setup"] == k
        assert a["seats"] == [0, 1] and b["seats"] == [1, 0]
    greedy, rnd = result.stats
    assert greedy.wins > rnd.wins  # a real outcome: greedy beats random at The Builders
    assert greedy.mean_score > rnd.mean_score


def test_json_schema():
    result = run_tournament("kingdom", "greedy,random", 2, 2, seed=1)
    data = json.loads(json.dumps(result.to_json()))
    assert set(data) >= {"game", "agents", "players", "games", "seed", "rotations", "setups", "results", "games_played"}
    assert data["agents"] == ["greedy", "random"] and data["setups"] == 1
    for entry in data["results"]:
        assert set(entry) >= {
            "agent",
            "games",
            "wins",
            "win_rate",
            "win_rate_ci95",
            "mean_score",
            "score_sd",
            "mean_breakdown",
            "decisions",
            "mean_move_seconds",
            "sims_per_s",
        }
        assert set(entry["mean_breakdown"]) >= {"castles"}
        assert len(entry["win_rate_ci95"]) == 2
    assert len(data["games_played"]) == 2


def test_same_results_with_one_and_two_workers():
    one = run_tournament("kingdom", "greedy:noise=0.5,random", 2, 4, seed=9, workers=1)
    two = run_tournament("kingdom", "greedy:noise=0.5,random", 2, 4, seed=9, workers=2)
    assert one.outcomes() == two.outcomes()
    assert [s.wins for s in one.stats] == [s.wins for s in two.stats]


def test_mcts_with_an_iteration_budget_repeats_exactly():
    runs = [run_tournament("middle-ages", "mcts:iters=30,random", 2, 2, seed=5, workers=w) for w in (1, 2)]
    assert runs[0].outcomes() == runs[1].outcomes()
    mcts = runs[0].stats[0]
    assert mcts.sims_per_s and mcts.sims_per_s > 0


def test_more_seats_than_agents():
    result = run_tournament("middle-ages", "greedy,random", 4, 4, seed=2)
    check_consistent(result, 4)
    greedy, rnd = result.stats
    assert greedy.seats == 4 and rnd.seats == 12
    assert [r["seats"].index(0) for r in result.records] == [0, 1, 2, 3]


@pytest.mark.parametrize(
    "kwargs, message",
    [
        (dict(game="chess"), "unknown game 'chess'"),
        (dict(agents="greedy"), "at least two agents"),
        (dict(agents="alphazero,greedy"), "unknown agent 'alphazero'"),
        (dict(agents="mcts:time=-1,greedy"), "must be positive"),
        (dict(agents="mcts:depth=3,greedy"), "unknown option 'depth' for agent mcts"),
        (dict(games=3), "games must be a multiple of 2"),
        (dict(players=5), "2 to 4 players"),
        (dict(agents="greedy,random,random", players=2), "3 agents do not fit in 2 seats"),
        (dict(backend="slurm"), "unknown backend 'slurm'"),
        (dict(workers=0), "workers must be a positive"),
    ],
)
def test_bad_arguments(kwargs, message):
    args = dict(game="middle-ages", agents="greedy,random", players=2, games=2, seed=0)
    args.update(kwargs)
    with pytest.raises(ValueError, match=message):
        run_tournament(**args)


def test_ray_backend_gives_the_same_results():
    import ray

    local = run_tournament("middle-ages", "greedy,random", 2, 4, seed=3)
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        remote = run_tournament("middle-ages", "greedy,random", 2, 4, seed=3, backend="ray")
    finally:
        ray.shutdown()
    assert remote.outcomes() == local.outcomes()
    assert remote.backend == "ray"
    assert not math.isnan(remote.stats[0].win_rate)
