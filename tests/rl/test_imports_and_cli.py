"""builders.rl stays optional: the engines, the bots, the server and the command line never import it;
``builders bench rl`` reports steps per second for both games."""

from __future__ import annotations

import re
import subprocess
import sys

from typer.testing import CliRunner

from builders.cli import app
from builders.kingdom import native
from builders.rl.bench import cores as cores_of


def test_nothing_outside_builders_rl_imports_it() -> None:
    code = (
        "import sys, builders.cli, builders.server.app, builders.ai, builders.kingdom.game, "
        "builders.middle_ages.game; "
        "bad = sorted(m for m in sys.modules if m.startswith(('builders.rl', 'gymnasium', 'pettingzoo', "
        "'pyspiel'))); print(bad)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_bench_rl_reports_both_games_beside_connect_four() -> None:
    result = CliRunner().invoke(app, ["bench", "rl", "--runs", "1", "--games", "1"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0].startswith("Environment steps per second: PettingZoo AEC loop on the default environments")
    pattern = re.compile(
        r"^(Kingdom Builder|The Builders: Middle Ages), ([234]) players, (native|python) +[\d,]+ "
        r"steps/s \(wall +[\d,]+, [\d.]+x connect_four_v3\) +engine +[\d.]+ us/step, "
        r"observation +[\d.]+ us/step \(\d+% of the two\)$"
    )
    cores = cores_of("kingdom")
    assert cores == (("native", "python") if native.available() else ("python",))
    found = [pattern.match(line) for line in lines[1:-2]]
    assert [(m.group(1), m.group(2), m.group(3)) if m else line for m, line in zip(found, lines[1:-2])] == [
        (title, str(players), core)
        for title in ("Kingdom Builder", "The Builders: Middle Ages")
        for players in (2, 3, 4)
        for core in cores
    ]
    assert re.match(r"^connect_four_v3 \(PettingZoo\) +[\d,]+ steps/s \(wall +[\d,]+\)$", lines[-2])
    assert re.match(
        r"^PettingZoo loop alone \(an idle env\) +[\d,]+ steps/s \(wall +[\d,]+, [\d.]+ us/step\)$", lines[-1]
    )
