"""The server's numeric settings from the environment: each out-of-range value refused with one
sentence that names it, by the app and by ``builders serve`` before it starts (exit 2, no traceback)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from builders.server.settings import NUMBERS, check_environment, number

ROOT = Path(__file__).resolve().parents[2]
CLI = [sys.executable, "-c", "from builders.cli import main; main()"]


@pytest.fixture(autouse=True)
def clean_env(monkeypatch):
    for name in NUMBERS:
        monkeypatch.delenv(name, raising=False)


def test_defaults_arguments_and_the_environment(monkeypatch):
    assert [number(n) for n in NUMBERS] == [7.0, 30.0, 1, 1000, 2, 20, 1, 5, 30, 600.0]
    assert number("BUILDERS_IDLE_DAYS", 0.5) == 0.5
    monkeypatch.setenv("BUILDERS_IDLE_DAYS", "2.5")
    monkeypatch.setenv("BUILDERS_ANALYSIS_WORKERS", " 3 ")
    assert number("BUILDERS_IDLE_DAYS") == 2.5 and number("BUILDERS_ANALYSIS_WORKERS") == 3
    assert isinstance(number("BUILDERS_ANALYSIS_WORKERS"), int)
    # an argument wins over the environment
    assert number("BUILDERS_IDLE_DAYS", 9) == 9.0
    monkeypatch.setenv("BUILDERS_IDLE_DAYS", "")
    assert number("BUILDERS_IDLE_DAYS") == 30.0
    check_environment()


@pytest.mark.parametrize(
    "name, value, message",
    [
        (
            "BUILDERS_IDLE_DAYS",
            "x",
            "BUILDERS_IDLE_DAYS must be a number of days more than 0 and at most 3650, not 'x'",
        ),
        (
            "BUILDERS_EXPIRE_OPEN_DAYS",
            "0",
            "BUILDERS_EXPIRE_OPEN_DAYS must be a number of days more than 0 and at most 3650, not '0'",
        ),
        (
            "BUILDERS_EXPIRE_OPEN_DAYS",
            "nan",
            "BUILDERS_EXPIRE_OPEN_DAYS must be a number of days more than 0 and at most 3650, not 'nan'",
        ),
        (
            "BUILDERS_ANALYSIS_WORKERS",
            "1.5",
            "BUILDERS_ANALYSIS_WORKERS must be a whole number from 1 to 64, not '1.5'",
        ),
        (
            "BUILDERS_ANALYSIS_WORKERS",
            "inf",
            "BUILDERS_ANALYSIS_WORKERS must be a whole number from 1 to 64, not 'inf'",
        ),
        (
            "BUILDERS_IDLE_DAYS",
            "inf",
            "BUILDERS_IDLE_DAYS must be a number of days more than 0 and at most 3650, not 'inf'",
        ),
        (
            "BUILDERS_ANALYSIS_ITERATIONS",
            "-3",
            "BUILDERS_ANALYSIS_ITERATIONS must be a whole number from 1 to 1000000, not '-3'",
        ),
        (
            "BUILDERS_BOT_GAMES_PER_PLAYER",
            "-1",
            "BUILDERS_BOT_GAMES_PER_PLAYER must be a whole number from 0 to 10000, not '-1'",
        ),
        ("BUILDERS_BOT_GAMES", "many", "BUILDERS_BOT_GAMES must be a whole number from 0 to 100000, not 'many'"),
        ("BUILDERS_BOT_GAMES_AT_ONCE", "0", "BUILDERS_BOT_GAMES_AT_ONCE must be a whole number from 1 to 64, not '0'"),
    ],
)
def test_a_bad_value_is_refused_by_name(monkeypatch, name, value, message):
    monkeypatch.setenv(name, value)
    with pytest.raises(ValueError) as err:
        check_environment()
    assert str(err.value) == message


def test_an_argument_out_of_range_is_refused_too():
    with pytest.raises(ValueError, match=r"^BUILDERS_ANALYSIS_WORKERS must be a whole number from 1 to 64, not 0$"):
        number("BUILDERS_ANALYSIS_WORKERS", 0)
    with pytest.raises(ValueError, match=r"^BUILDERS_IDLE_DAYS must be .* not True$"):
        number("BUILDERS_IDLE_DAYS", True)


def test_serve_refuses_a_bad_setting_before_it_starts(tmp_path):
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"), BUILDERS_IDLE_DAYS="soon")
    proc = subprocess.run(
        [*CLI, "serve", "--port", "1", "--db", str(tmp_path / "x.db")],
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
    )
    assert (proc.returncode, proc.stdout) == (2, "")
    assert proc.stderr == (
        "error: BUILDERS_IDLE_DAYS must be a number of days more than 0 and at most 3650, not 'soon'\n"
    )
    assert not (tmp_path / "x.db").exists()
