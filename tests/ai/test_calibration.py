"""The core of benchmarks/ai_calibration.py: bins of predicted win chance and Brier scores."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

_PATH = Path(__file__).resolve().parents[2] / "benchmarks" / "ai_calibration.py"
_spec = importlib.util.spec_from_file_location("ai_calibration", _PATH)
assert _spec and _spec.loader
calibration = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(calibration)

# (prediction, result): a shared win of two seats counts 0.5
PAIRS = [(0.05, 0.0), (0.15, 1.0), (0.12, 0.0), (0.95, 1.0), (1.0, 0.5), (0.5, 0.0)]


def test_bins_edges() -> None:
    assert [calibration.bin_of(p) for p in (0.0, 0.099, 0.1, 0.5, 0.95, 1.0)] == [0, 0, 1, 5, 9, 9]


def test_table_of_a_hand_made_list() -> None:
    rows = calibration.calibration_table(PAIRS)
    assert [row["count"] for row in rows] == [1, 2, 0, 0, 0, 1, 0, 0, 0, 1 + 1]
    assert rows[0]["predicted"] == pytest.approx(0.05) and rows[0]["actual"] == 0.0
    assert rows[1]["predicted"] == pytest.approx(0.135) and rows[1]["actual"] == pytest.approx(0.5)
    assert rows[2]["predicted"] is None and rows[2]["actual"] is None
    assert rows[5]["predicted"] == pytest.approx(0.5) and rows[5]["actual"] == 0.0
    assert rows[9]["predicted"] == pytest.approx(0.975) and rows[9]["actual"] == pytest.approx(0.75)
    assert (rows[9]["low"], rows[9]["high"]) == (0.9, 1.0)


def test_brier_scores() -> None:
    # (0.05² + 0.85² + 0.12² + 0.05² + 0.5² + 0.5²) / 6
    assert calibration.brier(PAIRS) == pytest.approx(1.2419 / 6)
    # base rate 2.5 / 6 = 5/12: (3 × (5/12)² + 2 × (7/12)² + (1/12)²) / 6 = 174 / 864
    assert calibration.base_rate_brier(PAIRS) == pytest.approx(174 / 864)
    assert calibration.brier([(1.0, 1.0), (0.0, 0.0)]) == 0.0
    with pytest.raises(ValueError, match="no predictions"):
        calibration.brier([])
