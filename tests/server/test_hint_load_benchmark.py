"""benchmarks/hint_load.py: the players of several games ask hints at the same moment against a real
server process with a given number of hints' workers; every hint is answered and played."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

_SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "hint_load.py"


def test_every_hint_asked_at_once_is_answered_and_timed():
    out = subprocess.run(
        [sys.executable, str(_SCRIPT), "--games", "2", "--rounds", "2", "--workers", "1,2", "--warm", "0"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert out.returncode == 0, out.stderr
    report = json.loads(out.stdout.strip().splitlines()[-1])
    assert (report["game"], report["games"], report["rounds"]) == ("kingdom", 2, 2)
    assert list(report["runs"]) == ["1", "2"]
    for run in report["runs"].values():
        assert run["hints"] == 4 and 0 < run["p50"] <= run["p95"] <= run["max"] <= run["wall"]


def test_bad_arguments_are_refused_in_one_line():
    out = subprocess.run([sys.executable, str(_SCRIPT), "--workers", "two"], capture_output=True, text=True, timeout=60)
    assert out.returncode == 2
    assert (
        out.stderr.strip().splitlines()[-1].endswith("--workers must be whole numbers separated by commas, not 'two'")
    )
