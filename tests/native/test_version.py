"""``builders --version`` says which core each game runs on; a bad BUILDERS_CORE is one error line."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from typer.testing import CliRunner

from builders.cli import app

runner = CliRunner()


def test_version_names_the_core(monkeypatch):
    for core in ("native", None):  # the native core is the default when it is built
        if core is None:
            monkeypatch.delenv("BUILDERS_CORE")
        else:
            monkeypatch.setenv("BUILDERS_CORE", core)
        result = runner.invoke(app, ["--version"])
        assert result.exit_code == 0
        assert result.output.startswith("builders ")
        assert result.output.endswith(
            ": Kingdom Builder and The Builders: Middle Ages on the native core (native core built)\n"
        )
    monkeypatch.setenv("BUILDERS_CORE", "python")
    result = runner.invoke(app, ["--version"])
    assert result.exit_code == 0
    assert "Kingdom Builder and The Builders: Middle Ages on the Python engine (native core built)" in result.output


def test_a_bad_core_is_one_error_line():
    env = {"BUILDERS_CORE": "fast", "PATH": ""}
    done = subprocess.run(
        [str(Path(sys.executable).parent / "builders"), "--version"],
        check=False,
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == "error: BUILDERS_CORE must be python or native, not 'fast'\n"


def test_bench_native_prints_every_figure():
    result = runner.invoke(app, ["bench", "native", "--runs", "1", "--games", "4"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0].startswith("Kingdom Builder, native core vs Python engine")
    assert sum("inside the core" in line for line in lines) == 4
    assert sum("from Python on the core" in line for line in lines) == 4
    assert any(line.startswith("  2 players, batched masked random steps") for line in lines)
    assert any(line.startswith("  a state copy (state.copy() from Python): ") for line in lines)
    assert any(line.startswith("The Builders: Middle Ages, native core vs Python engine") for line in lines)
    # the floor of the Python loop: the same loop on stand-ins, at 2 and 4 players
    assert sum("the same loop on C stand-ins" in line for line in lines) == 2
    # The Builders' copy: the bytes it writes (the history shared), under 2 KB at 2 and 4 players
    copies = [line for line in lines if "players, a state copy (state.copy() from Python) at the end of" in line]
    assert len(copies) == 2
    assert all(int(line.split(" decisions: ")[1].split(" bytes written")[0]) <= 2048 for line in copies), copies


def test_the_stand_ins_replay_the_games_the_loop_plays():
    """The stand-ins of The Builders' benchmark give the loop the same decisions as the core: the
    same count, the same legal lists, the game over at the same step."""
    from builders.middle_ages.native import from_python
    from builders.middle_ages.native_bench import _api, _recorded, _StandIn, _starts

    starts = _starts(3, 4)
    recorded = _recorded([from_python(s) for s in starts])
    assert _api([_StandIn(*g) for g in recorded], 1) == _api([from_python(s) for s in starts], 1) > 0
    first = from_python(starts[0])
    stand_in = _StandIn(*recorded[0])
    assert stand_in.is_over() is False and stand_in.legal_actions() == first.legal_actions()
