"""The lint gate: ruff's checks of errors (syntax, undefined and unused names, imports) pass on the
whole tree, and the tree is as ruff's formatter writes it, with the configuration in pyproject.toml
([tool.ruff]; `ruff format .` formats it)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_ruff_finds_nothing():
    done = subprocess.run(
        [sys.executable, "-m", "ruff", "check", "--no-cache", "--output-format", "concise", "."],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_gate_finds_an_unused_name(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("import os\n\n\ndef f():\n    x = 1\n    return undefined_name\n")
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "ruff",
            "check",
            "--no-cache",
            "--output-format",
            "concise",
            "--config",
            str(ROOT / "pyproject.toml"),
            str(bad),
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 1
    assert "F401" in done.stdout and "F841" in done.stdout and "F821" in done.stdout, done.stdout


def test_the_tree_is_formatted():
    done = subprocess.run(
        [sys.executable, "-m", "ruff", "format", "--no-cache", "--check", "."],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, "run `ruff format .`:\n" + done.stdout + done.stderr


def test_the_format_gate_finds_a_file_not_formatted(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("x = [1,2 ,3]\n")
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "ruff",
            "format",
            "--no-cache",
            "--check",
            "--config",
            str(ROOT / "pyproject.toml"),
            str(bad),
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 1
    assert "1 file would be reformatted" in done.stdout, done.stdout
