"""The training example runs (a handful of steps: it proves the script works, not that it learns)."""

from __future__ import annotations

import csv
import importlib.util
import json
from pathlib import Path

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "train_kingdom_ppo.py"


def test_training_example_runs_and_writes_its_curve(tmp_path: Path) -> None:
    spec = importlib.util.spec_from_file_location("train_kingdom_ppo", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    out = tmp_path / "run"
    assert (
        module.main(
            [
                "--steps",
                "64",
                "--eval-every",
                "32",
                "--eval-games",
                "2",
                "--n-steps",
                "32",
                "--batch-size",
                "16",
                "--out",
                str(out),
            ]
        )
        == 0
    )
    rows = list(csv.DictReader(open(out / "curve.csv")))
    assert [int(r["steps"]) for r in rows] == [0, 32, 64]
    assert all(0.0 <= float(r["win_rate"]) <= 1.0 and r["games"] == "2" for r in rows)
    assert json.loads((out / "curve.json").read_text())["curve"][2]["steps"] == 64
    assert (out / "curve.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert (out / "model.zip").stat().st_size > 0
