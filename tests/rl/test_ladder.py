"""``builders ladder``: the Elo fit on known tallies, and the command on a tiny round robin (with a PPO
model trained for a few steps) writing its table between the markers of a Markdown file."""

from __future__ import annotations

import math
import re

import numpy as np
import pytest
from typer.testing import CliRunner

from builders.cli import app
from builders.rl.ladder import BEGIN, END, fit_elo


def test_two_entrants_three_wins_in_four_with_the_prior_draw() -> None:
    ratings, margins = fit_elo(np.array([[0.0, 1.0], [3.0, 0.0]]), np.array([[0.0, 4.0], [4.0, 0.0]]))
    # 3 wins + half the prior draw in 5 games: p = 0.7
    assert ratings[0] == 0.0
    assert ratings[1] == pytest.approx(400 * math.log10(0.7 / 0.3), abs=1e-6)
    assert margins[0] == 0.0
    assert margins[1] == pytest.approx(1.959964 / math.sqrt(5 * 0.7 * 0.3) * 400 / math.log(10), abs=1e-6)


def test_even_results_rate_everyone_alike_and_a_clean_sweep_stays_finite() -> None:
    games = np.full((3, 3), 6.0) - np.diag([6.0] * 3)
    ratings, margins = fit_elo(games / 2, games)
    assert ratings.tolist() == pytest.approx([0.0, 0.0, 0.0], abs=1e-9)
    assert margins[1] == pytest.approx(margins[2]) and margins[1] > 0
    sweep = np.array([[0.0, 0.0, 0.0], [6.0, 0.0, 0.0], [6.0, 6.0, 0.0]])
    ratings, _ = fit_elo(sweep, games)
    assert 0.0 == ratings[0] < ratings[1] < ratings[2] < 2000


def _invoke(*args: str):
    return CliRunner().invoke(app, ["ladder", "--quiet", *args])


ROW = re.compile(r"^\| (\d) \| (\w+) \| ([+-]\d+) \| (pinned|[+-]\d+ to [+-]\d+) \| (\d+) \| (\d+)% \| [\d.]+ \|$")


def test_a_tiny_ladder_with_a_ppo_model_is_written_between_the_markers(tmp_path) -> None:
    import gymnasium as gym
    from sb3_contrib import MaskablePPO

    import builders.rl  # noqa: F401

    env = gym.make("builders.rl.KingdomSolo-v0")
    model = MaskablePPO(
        "MultiInputPolicy",
        env,
        n_steps=32,
        batch_size=32,
        n_epochs=1,
        seed=0,
        device="cpu",
        policy_kwargs={"net_arch": [8]},
    )
    model.learn(32)
    model.save(tmp_path / "model.zip")
    page = tmp_path / "page.md"
    page.write_text(f"# Before\n\n{BEGIN}\nold table\n{END}\n\nAfter.\n")
    result = _invoke(
        "--bots",
        "random,easy",
        "--games",
        "2",
        "--ppo",
        str(tmp_path / "model.zip"),
        "--docs",
        str(page),
        "--seed",
        "3",
    )
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0] == "| rank | player | Elo | 95% interval | games | score | CPU s/decision |"
    rows = [ROW.match(line) for line in lines[2:5]]
    assert all(rows), lines
    assert sorted(r.group(2) for r in rows) == ["easy", "ppo", "random"]
    assert [r.group(4) for r in rows if r.group(2) == "random"] == ["pinned"]
    assert all(r.group(5) == "4" for r in rows)  # 2 games against each of the two others
    assert [int(r.group(3)) for r in rows] == sorted((int(r.group(3)) for r in rows), reverse=True)
    assert lines[5] == ""
    assert lines[6].startswith(
        "kingdom, two players, 2 games per pair (6 in all, random setups, each played from "
        "both seats), seed 3, hard and expert at their own turn times; "
    )
    assert lines[6].endswith("`builders ladder --game kingdom --bots random,easy --games 2 --seed 3 --ppo model.zip`")
    assert page.read_text() == f"# Before\n\n{BEGIN}\n{result.output}{END}\n\nAfter.\n"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["--games", "3"],
            "error: --games must be an even number of at least 2 (each setup is played from both seats), not 3",
        ),
        (["--bots", "random"], "error: the ladder needs at least two entrants"),
        (["--bots", "random,random"], "error: every entrant of the ladder must differ: random, random"),
        (
            ["--bots", "random,champion"],
            "error: unknown agent 'champion' (choose from random, greedy, mcts, plan, easy, medium, hard, expert)",
        ),
        (["--turn-time", "0"], "error: --turn-time must be above 0 and at most 600 seconds, not 0"),
        (["--ppo", "nowhere.zip"], "error: no such model file: nowhere.zip"),
        (["--docs", "nowhere.md"], "error: no such Markdown file: nowhere.md"),
    ],
)
def test_bad_options_are_refused_in_one_line(args: list[str], message: str) -> None:
    result = _invoke("--bots", "random,easy", *args) if "--bots" not in args else _invoke(*args)
    assert result.exit_code == 2
    assert result.output.strip() == message


def test_a_page_without_the_markers_is_left_as_it_was(tmp_path) -> None:
    page = tmp_path / "page.md"
    page.write_text("no markers here\n")
    result = _invoke("--bots", "random,easy", "--games", "2", "--docs", str(page))
    assert result.exit_code == 2
    assert result.output.splitlines() == [
        f"error: {page} must hold the lines {BEGIN} and {END} once each, in that order"
    ]
    assert page.read_text() == "no markers here\n"
