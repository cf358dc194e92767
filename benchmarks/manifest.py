"""Where the benchmark scripts put their results, and the manifest every run writes beside them.

Results live outside the repository: in ``--out-dir`` if given, else in ``$BUILDERS_RESULTS``, else
in ``results`` under the user's data directory (``platformdirs.user_data_dir("builders")``). A run
appends one entry to the manifest next to its results file (``NAME.manifest.json`` beside
``NAME.jsonl`` or ``NAME.json``): the script, the agents and their settings, the seeds, the number
of games, the commit (``git rev-parse HEAD``, and whether the tree held uncommitted changes), the
date and the machine's cores. A resumed run adds its own entry, so the file lists every run that
wrote to those results.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import subprocess
import sys
from pathlib import Path

import platformdirs

ENV = "BUILDERS_RESULTS"
ROOT = Path(__file__).resolve().parents[1]


def results_dir(given: Path | str | None = None) -> Path:
    """The folder of results: ``given`` (``--out-dir``), else ``$BUILDERS_RESULTS``, else the user's data dir."""
    if given:
        return Path(given)
    if os.environ.get(ENV):
        return Path(os.environ[ENV])
    return Path(platformdirs.user_data_dir("builders")) / "results"


def add_out_dir(parser: argparse.ArgumentParser) -> None:
    """The ``--out-dir`` option every script shares."""
    parser.add_argument(
        "--out-dir", type=Path, default=None, help=f"folder of the results (default: ${ENV}, else the user's data dir)"
    )


def git_state(root: Path = ROOT) -> dict:
    """The commit checked out in ``root`` and whether tracked files differ from it (None outside git)."""
    try:
        head = subprocess.run(["git", "-C", str(root), "rev-parse", "HEAD"], capture_output=True, text=True, timeout=10)
        status = subprocess.run(
            ["git", "-C", str(root), "status", "--porcelain", "--untracked-files=no"],
            capture_output=True,
            text=True,
            timeout=10,
        )
    except (OSError, subprocess.TimeoutExpired):
        return {"commit": None, "dirty": None}
    if head.returncode != 0:
        return {"commit": None, "dirty": None}
    return {"commit": head.stdout.strip(), "dirty": bool(status.stdout.strip()) if status.returncode == 0 else None}


def manifest_path(results: Path) -> Path:
    """The manifest beside a results file: ``NAME.manifest.json`` for ``NAME.jsonl``."""
    return results.with_name(results.stem + ".manifest.json")


def write_manifest(
    results: Path,
    *,
    agents,
    settings: dict | None = None,
    seeds=None,
    games: int | None = None,
    script: str | None = None,
) -> Path:
    """Append this run (its script, agents, settings, seeds, games, commit, date and cores) to the
    manifest of ``results``; returns the manifest's path."""
    path = manifest_path(results)
    run = {
        "script": script or Path(sys.argv[0]).name,
        "argv": sys.argv[1:],
        "results": results.name,
        "agents": agents,
        "settings": settings or {},
        "seeds": seeds,
        "games": games,
        **git_state(),
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "cores": os.cpu_count(),
        "machine": platform.machine(),
        "python": platform.python_version(),
    }
    runs = json.loads(path.read_text())["runs"] if path.exists() else []
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"runs": [*runs, run]}, indent=1) + "\n")
    return path
