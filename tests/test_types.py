"""The type gate: mypy --strict, configured in pyproject.toml ([tool.mypy]), passes on the core and the
two game packages; and the same configuration does refuse a type error and an unannotated function
(docs/testing.md, "The type gate")."""

from __future__ import annotations

import subprocess
import sys
import textwrap
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def cache_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One mypy cache for this module's runs, outside the work tree."""
    return tmp_path_factory.mktemp("mypy-cache")


def _mypy(cache: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "mypy",
            "--config-file",
            str(ROOT / "pyproject.toml"),
            "--cache-dir",
            str(cache),
            "--no-color-output",
            "--no-error-summary",
            *args,
        ],
        check=False,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=900,
    )


def test_the_configuration_is_strict_on_the_core_and_the_games() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["mypy"]
    assert config["strict"] is True
    assert config["files"] == ["src/builders/core", "src/builders/kingdom", "src/builders/middle_ages"]


def test_mypy_strict_passes_on_the_core_and_the_games(cache_dir: Path) -> None:
    run = _mypy(cache_dir)
    assert run.returncode == 0, f"mypy found type errors:\n{run.stdout}{run.stderr}"
    assert run.stdout == ""


def test_the_gate_refuses_a_type_error_and_a_missing_annotation(cache_dir: Path, tmp_path: Path) -> None:
    bad = tmp_path / "uses_the_engine.py"
    bad.write_text(
        textwrap.dedent("""\
        from builders.kingdom.state import KingdomState


        def turn_name(state: KingdomState) -> str:
            return state.turn


        def untyped(state):
            return state
    """)
    )
    run = _mypy(cache_dir, str(bad))
    assert run.returncode == 1, run.stdout + run.stderr
    lines = sorted(line.removeprefix(str(bad)) for line in run.stdout.splitlines())
    assert lines == [
        ':5: error: Incompatible return value type (got "int", expected "str")  [return-value]',
        ":8: error: Function is missing a type annotation  [no-untyped-def]",
    ]
