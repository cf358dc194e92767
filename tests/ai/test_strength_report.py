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
    records = [{"seats": [1, 0], "scores": [40, 31]},            # the first agent in seat 1
               {"seats": [2, 3, 0, 1], "scores": [50, 62, 58, 10]}]
    assert strength.first_leads(records) == [-9, -4]
