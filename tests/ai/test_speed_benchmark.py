"""The hints part of benchmarks/ai_speed.py: it times the hints a player gets, sorted by what came
before each (a new turn, the hinted move, another move)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

_PATH = Path(__file__).resolve().parents[2] / "benchmarks" / "ai_speed.py"
_spec = importlib.util.spec_from_file_location("ai_speed", _PATH)
assert _spec is not None and _spec.loader is not None
ai_speed = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(ai_speed)


def test_the_hints_are_timed_by_what_came_before_them():
    times = ai_speed.hint_times("kingdom", 3)
    assert list(times) == ["turn start", "plan followed", "plan left"]
    assert len(times["turn start"]) == 3
    # two turns of three or more decisions each: the hinted move is played at most of them
    assert times["plan followed"] and all(t > 0 for ts in times.values() for t in ts)


def test_percentiles_interpolate():
    assert ai_speed.percentile([1.0, 2.0, 3.0, 4.0], 0.5) == 2.5
    assert ai_speed.percentile([5.0], 0.95) == 5.0
    assert ai_speed.percentile([0.0, 10.0], 0.95) == 9.5
