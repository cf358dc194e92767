"""``builders bench middle-ages`` runs and reports every figure by CPU time and wall clock (the speed
itself is measured by running it, never asserted by a test)."""

import re

from typer.testing import CliRunner

from builders.cli import app

NUMBER = r"[\d,]+"


def test_bench_middle_ages_reports_cpu_and_wall_clock_figures():
    result = CliRunner().invoke(app, ["bench", "middle-ages", "--runs", "1", "--games", "4"])
    assert result.exit_code == 0 and result.stderr == ""
    lines = result.stdout.splitlines()
    assert lines[0] == "The Builders: Middle Ages: random games (setup included), median of 1 runs"
    for text, label in zip(lines[1:4], ("2 players, 4 games", "4 players, 1 games", "legal_actions only, 2p")):
        assert re.fullmatch(
            rf"{re.escape(label)} +{NUMBER} games/s +{NUMBER} decisions/s per CPU second \(runs {NUMBER}-{NUMBER}\); "
            rf"wall clock {NUMBER} games/s \(runs {NUMBER}-{NUMBER}\)",
            text,
        ), text
    assert lines[4].startswith("CPU: time.process_time of this process; wall clock: time.perf_counter")
    assert len(lines) == 5
