"""The examples run (a handful of steps each: they prove the scripts work with SB3's make_vec_env and
MaskablePPO, a CleanRL-style loop and Tianshou's collectors, on both games; not that they learn)."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def load(name: str):
    spec = importlib.util.spec_from_file_location(name, EXAMPLES / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("game", ["kingdom", "middle-ages"])
def test_sb3_make_vec_env_and_maskable_ppo(game: str, capsys) -> None:
    assert (
        load("sb3_maskable_ppo").main(["--game", game, "--steps", "128", "--n-steps", "64", "--batch-size", "32"]) == 0
    )
    out = capsys.readouterr().out
    assert re.fullmatch(
        rf"{game}: trained 128 steps; a game against random: "
        r"(scores \[\d+, \d+\], (won|lost)|cut after 100 rounds)\n",
        out,
    ), out


def test_cleanrl_style_loop_plays_whole_games(capsys) -> None:
    assert (
        load("cleanrl_ppo").main(["--game", "kingdom", "--iterations", "2", "--num-steps", "96", "--num-envs", "2"])
        == 0
    )
    out = capsys.readouterr().out
    found = re.fullmatch(r"kingdom: 384 steps, (\d+) games finished, (\d+) won\n", out)
    assert found and int(found[1]) >= 2 and int(found[2]) <= int(found[1]), out


def test_cleanrl_style_loop_on_the_builders(capsys) -> None:
    assert (
        load("cleanrl_ppo").main(["--game", "middle-ages", "--iterations", "1", "--num-steps", "32", "--num-envs", "2"])
        == 0
    )
    assert re.fullmatch(r"middle-ages: 64 steps, \d+ games finished, \d+ won\n", capsys.readouterr().out)


@pytest.mark.parametrize("game", ["kingdom", "middle-ages"])
def test_tianshou_collectors(game: str, capsys) -> None:
    assert load("tianshou_collect").main(["--game", game, "--episodes", "2", "--players", "3"]) == 0
    found = re.search(rf"^{game}: (\d+) games, (\d+) steps$", capsys.readouterr().out, re.M)
    assert found and int(found[1]) >= 2 and int(found[2]) > 100
