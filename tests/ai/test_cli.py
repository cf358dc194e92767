"""``builders tournament`` through a local Typer app: the table, --out JSON, --plot, and one-line errors."""

from __future__ import annotations

import json

import typer
from typer.testing import CliRunner

from builders.commands.tournament import tournament

app = typer.Typer()
app.command("tournament")(tournament)


@app.callback()
def _root() -> None:
    """A group, so the command is called by its name as in ``builders tournament``."""


runner = CliRunner()


def run(*args: str):
    return runner.invoke(app, ["tournament", *args])


def bad(result, message: str) -> None:
    assert result.exit_code == 2, result.output
    assert result.stderr == f"error: {message}\n"


def test_table_json_and_plot(tmp_path):
    out = tmp_path / "t.json"
    png = tmp_path / "t.png"
    svg = tmp_path / "t.svg"
    result = run(
        "middle-ages",
        "--agents",
        "greedy,random",
        "--games",
        "4",
        "--seed",
        "2",
        "--workers",
        "1",
        "--out",
        str(out),
        "--plot",
        str(png),
        "--quiet",
    )
    assert result.exit_code == 0, result.output
    assert "greedy" in result.stdout and "random" in result.stdout and "95% interval" in result.stdout
    data = json.loads(out.read_text())
    assert data["games"] == 4 and data["agents"] == ["greedy", "random"]
    assert sum(r["wins"] for r in data["results"]) == 4
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    result = run(
        "kingdom", "--agents", "random,random", "--games", "2", "--workers", "1", "--plot", str(svg), "--quiet"
    )
    assert result.exit_code == 0, result.output
    assert "random#1" in result.stdout and "random#2" in result.stdout
    assert svg.read_text().lstrip().startswith("<?xml")


def test_agent_options_on_the_command_line(tmp_path):
    out = tmp_path / "t.json"
    result = run(
        "middle-ages",
        "--agents",
        "mcts:iters=20,c=0.8,greedy:noise=0.3",
        "--games",
        "2",
        "--workers",
        "1",
        "--out",
        str(out),
        "--quiet",
    )
    assert result.exit_code == 0, result.output
    assert json.loads(out.read_text())["agents"] == ["mcts:iters=20:c=0.8", "greedy:noise=0.3"]


def test_errors():
    bad(run("chess"), "unknown game 'chess' (choose from kingdom, middle-ages)")
    bad(
        run("kingdom", "--agents", "greedy,alpha"),
        "unknown agent 'alpha' (choose from random, greedy, mcts, plan, easy, medium, hard, expert)",
    )
    bad(run("kingdom", "--agents", "mcts:time=x,greedy"), "option time of mcts must be a number, not 'x'")
    bad(
        run("kingdom", "--games", "3", "--quiet"),
        "games must be a multiple of 2 (each setup is played once per seat rotation), not 3",
    )
    bad(run("kingdom", "--plot", "x.pdf"), "the plot must be a .png or .svg file, not 'x.pdf'")
    bad(run("kingdom", "--players", "7", "--quiet"), "Kingdom Builder is for 2 to 4 players, not 7")
    bad(run("kingdom", "--address", "1.2.3.4:6379"), "--address needs --backend ray")
