"""Honest win chances: the estimates of the analysis's search (shown by the analysis and the hints)
mapped onto the rates at which seats really won.

The raw estimates lean over-confident (the value of the best of several noisy actions, assuming the
bot's own play afterwards), so a chance shown to a player goes through a logistic map fitted on
medium-vs-medium games (``benchmarks/ai_calibration.py --fit``, docs/ai.md "Calibration")::

    honest = 1 / (1 + exp(-(a * logit(raw) + b)))

``a`` below 1 pulls the extremes in, ``b`` below 0 takes away the mover's optimism. The map is
increasing, so the order of the actions (the best move) never changes. Each game's ``(a, b)`` per
estimator is its AI kit's ``calibration`` (``builders.ai.kit``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from builders.ai.kit import kit

#: raw estimates are clipped to this distance from 0 and 1 before the map (a finished game's exact
#: result is not an estimate and is not mapped)
EDGE = 1e-3


def logit(p: float) -> float:
    p = min(1.0 - EDGE, max(EDGE, p))
    return math.log(p / (1.0 - p))


def logistic(z: float) -> float:
    if z >= 0:
        return 1.0 / (1.0 + math.exp(-z))
    e = math.exp(z)
    return e / (1.0 + e)


def honest(game: str, estimator: str, raw: float) -> float:
    """The win chance ``raw`` of ``estimator`` (``"analysis"``) in ``game`` mapped onto the observed
    win rates (unchanged where no map was fitted)."""
    found = kit(game).calibration.get(estimator)
    if found is None:
        return raw
    return honest_with(*found, raw)


def honest_with(a: float, b: float, raw: float) -> float:
    """``raw`` through the map ``(a, b)``."""
    return logistic(a * logit(raw) + b)


def fit(pairs: Sequence[tuple[float, float]]) -> tuple[float, float]:
    """The (a, b) of the logistic map that makes ``pairs`` of (raw prediction, result in [0, 1])
    most likely: logistic regression of the result on logit(prediction), by Newton's method with
    step halving. ValueError for fewer than 2 pairs or predictions that are all the same."""
    xs = [logit(p) for p, _ in pairs]
    ys = [float(y) for _, y in pairs]
    if len(xs) < 2 or max(xs) - min(xs) < 1e-9:
        raise ValueError("a map needs at least 2 predictions that differ")

    def loss(a: float, b: float) -> float:
        total = 0.0
        for x, y in zip(xs, ys):
            z = a * x + b
            total += (z if z > 0 else 0.0) + math.log1p(math.exp(-abs(z))) - y * z
        return total

    a, b = 1.0, 0.0
    current = loss(a, b)
    for _ in range(100):
        ga = gb = haa = hab = hbb = 0.0
        for x, y in zip(xs, ys):
            q = logistic(a * x + b)
            g = q - y
            w = q * (1.0 - q)
            ga += g * x
            gb += g
            haa += w * x * x
            hab += w * x
            hbb += w
        haa += 1e-9
        hbb += 1e-9
        det = haa * hbb - hab * hab
        da = (hbb * ga - hab * gb) / det
        db = (haa * gb - hab * ga) / det
        step = 1.0
        while step > 1e-6:
            na, nb = a - step * da, b - step * db
            new = loss(na, nb)
            if new <= current:
                break
            step /= 2
        else:
            break
        done = current - new < 1e-10
        a, b, current = na, nb, new
        if done:
            break
    return a, b
