"""The map of raw win chances onto observed win rates (builders.ai.calibration): increasing, fitted by
maximum likelihood, and applied to what the analysis shows."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from builders.ai.calibration import fit, honest, logistic, logit
from builders.ai.kit import kit
from builders.core.games import game_names

MAPS = {(game, estimator): ab for game in game_names() for estimator, ab in kit(game).calibration.items()}


def test_the_fit_finds_the_map_that_made_the_results():
    rnd = random.Random(1)
    pairs = []
    for _ in range(20_000):
        p = rnd.random()
        pairs.append((p, 1.0 if rnd.random() < logistic(0.5 * logit(p) - 0.3) else 0.0))
    a, b = fit(pairs)
    assert a == pytest.approx(0.5, abs=0.03) and b == pytest.approx(-0.3, abs=0.05)
    # results that already match the predictions: the identity
    exact = [(p / 100, p / 100) for p in range(1, 100)]
    assert fit(exact) == pytest.approx((1.0, 0.0), abs=1e-4)


def test_the_fit_refuses_too_little():
    with pytest.raises(ValueError, match="^a map needs at least 2 predictions that differ$"):
        fit([(0.3, 1.0)])
    with pytest.raises(ValueError, match="^a map needs at least 2 predictions that differ$"):
        fit([(0.3, 1.0), (0.3, 0.0)])


@given(p=st.floats(0, 1), q=st.floats(0, 1))
def test_every_map_keeps_the_order_and_stays_a_chance(p, q):
    for game, estimator in MAPS:
        hp, hq = honest(game, estimator, p), honest(game, estimator, q)
        assert 0.0 < hp < 1.0
        if p <= q:
            assert hp <= hq


def test_the_maps_pull_kingdom_builders_extremes_in():
    """docs/ai.md, Calibration: Kingdom Builder's search said 0.977 on average where seats won 82%,
    0.025 where they won 12%."""
    assert MAPS == {("kingdom", "analysis"): (0.388, -0.230), ("middle-ages", "analysis"): (0.521, -0.200)}
    assert honest("kingdom", "analysis", 0.977) == pytest.approx(logistic(0.388 * logit(0.977) - 0.230))
    assert 0.70 < honest("kingdom", "analysis", 0.977) < 0.80
    assert 0.10 < honest("kingdom", "analysis", 0.026) < 0.20
    assert honest("kingdom", "analysis", 0.5) < 0.5
    # no map: unchanged
    assert honest("middle-ages", "plan", 0.93) == 0.93
