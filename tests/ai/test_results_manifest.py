"""benchmarks/manifest.py: results outside the repository, and the manifest each run writes beside
them; benchmarks/ai_strength.py's Markdown table over several results files."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import platformdirs

from tests.ai.helpers import benchmark

manifest = benchmark("manifest")
strength = benchmark("ai_strength")
ROOT = Path(__file__).resolve().parents[2]


def test_the_results_folder_is_the_option_else_the_variable_else_the_users_data_dir(tmp_path, monkeypatch):
    monkeypatch.delenv("BUILDERS_RESULTS", raising=False)
    assert manifest.results_dir() == Path(platformdirs.user_data_dir("builders")) / "results"
    monkeypatch.setenv("BUILDERS_RESULTS", str(tmp_path / "env"))
    assert manifest.results_dir() == tmp_path / "env"
    assert manifest.results_dir(tmp_path / "given") == tmp_path / "given"


def test_a_run_appends_its_script_settings_seeds_commit_and_cores(tmp_path):
    results = tmp_path / "x.jsonl"
    head = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "HEAD"], capture_output=True, text=True).stdout.strip()
    path = manifest.write_manifest(
        results, agents="hard,medium", settings={"workers": 2}, seeds={"match": 7}, games=4, script="a.py"
    )
    assert path == tmp_path / "x.manifest.json"
    manifest.write_manifest(results, agents="easy,random", games=2, script="b.py")
    runs = json.loads(path.read_text())["runs"]
    assert [(r["script"], r["agents"], r["games"], r["seeds"]) for r in runs] == [
        ("a.py", "hard,medium", 4, {"match": 7}),
        ("b.py", "easy,random", 2, None),
    ]
    assert runs[0]["settings"] == {"workers": 2} and runs[0]["results"] == "x.jsonl"
    assert runs[0]["commit"] == head and len(head) == 40 and isinstance(runs[0]["dirty"], bool)
    assert runs[0]["cores"] == os.cpu_count() and runs[0]["date"].endswith("+00:00")


def test_outside_git_the_commit_is_unknown(tmp_path):
    assert manifest.git_state(tmp_path) == {"commit": None, "dirty": None}


def test_a_strength_match_writes_its_manifest_only_when_it_plays(tmp_path):
    results = tmp_path / "s.jsonl"
    assert strength.play(["ma-easy-random"], 2, 1, results) == 2
    assert strength.play(["ma-easy-random"], 2, 1, results) == 0
    runs = json.loads((tmp_path / "s.manifest.json").read_text())["runs"]
    assert len(runs) == 1
    assert runs[0]["agents"] == {"ma-easy-random": "easy,random"} and runs[0]["games"] == 2
    assert runs[0]["seeds"] == {"match": 2024} and runs[0]["settings"]["players"] == {"ma-easy-random": 2}


def _rows(first: int, count: int, wins: int) -> str:
    """Games ``first`` to ``first + count - 1`` of kb-hard-medium; hard wins the first ``wins`` by 10."""
    out = []
    for i in range(first, first + count):
        seats = [0, 1] if i % 2 == 0 else [1, 0]
        mine = 70 if i - first < wins else 50
        scores = [mine, 60] if seats[0] == 0 else [60, mine]
        out.append(
            json.dumps(
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
                        "seconds": [4.0, 0.08] if seats[0] == 0 else [0.08, 4.0],
                        "longest": [0.1, 0.01],
                        "sims_per_s": [None, None],
                    },
                }
            )
            + "\n"
        )
    return "".join(out)


def test_the_markdown_table_reads_every_file_given(tmp_path):
    """200 games in one file, 200 more in another: the line is judged over the 400."""
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    a.write_text(_rows(0, 200, 190))
    b.write_text(_rows(200, 200, 158))
    table = strength.markdown(["kb-hard-medium", "kb-easy-random"], [a, b])
    assert table[0].startswith("| match | game, seats | games held / planned | first agent's wins |")
    assert len(table) == 3  # no row for a match without games
    assert table[2] == (
        "| `kb-hard-medium` | kingdom, 2 | 400 / 200 | hard:clock=cpu 348 = 87.0% | 83.3%-89.9% "
        "| >= 90% | not met: needs 93.00% of 400, about +10 points a game "
        "| hard:clock=cpu 67.4, medium 60.0 | 50 | hard:clock=cpu 100, medium 2 |"
    )
    alone = strength.markdown(["kb-hard-medium"], a)[2]
    assert "| 200 / 200 | hard:clock=cpu 190 = 95.0% | 91.0%-97.3% | >= 90% | met |" in alone


def test_markdown_without_report_is_refused(tmp_path):
    out = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "ai_strength.py"), "--markdown", "--out-dir", str(tmp_path)],
        capture_output=True,
        text=True,
    )
    assert out.returncode == 2
    assert out.stderr.strip().splitlines()[-1] == "ai_strength.py: error: --markdown goes with --report"
    assert not list(tmp_path.iterdir())
