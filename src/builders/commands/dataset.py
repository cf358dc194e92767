"""``builders dataset``: self-play games of built-in bots as records and per-decision arrays (docs/rl.md,
"Datasets"). Needs the rl extra."""

from __future__ import annotations

from pathlib import Path

import typer

from builders.commands._errors import fail
from builders.commands._extras import need
from builders.core.games import game_names

#: the games with an RL kit, in registration order (the first is the default)
RL_GAMES = game_names("rl")


def dataset(
    game: str = typer.Option(RL_GAMES[0], help=f"{' or '.join(RL_GAMES)}."),
    players: int = typer.Option(2, help="Seats per game: 2, 3 or 4."),
    bots: str = typer.Option(
        "random",
        help="One bot for every seat, or a comma-separated bot per seat: random, "
        "easy, medium, hard, expert or any agent of docs/ai.md.",
    ),
    games: int = typer.Option(10, help="Games to play."),
    seed: int = typer.Option(0, help="Every setup and bot seed is drawn from it."),
    out: Path = typer.Option(..., help="The folder to write records.jsonl and steps.npz into (made if missing)."),
    reward: str = typer.Option("win", help="The reward column: win, zero-sum or margin (docs/rl.md, Rewards)."),
    max_rounds: int = typer.Option(
        100, help="A game whose rules do not bound its length is cut after this many rounds."
    ),
) -> None:
    """Write N self-play games as records (JSON lines) and every decision (observation, mask, action,
    final reward) as numpy arrays, for imitation and offline learning."""
    need("rl")
    from builders.rl.dataset import write_dataset

    try:
        summary = write_dataset(game, players, bots, games, seed, out, reward=reward, max_rounds=max_rounds)
    except ValueError as e:
        fail(str(e))
    except OSError as e:
        fail(f"cannot write into {out}: {e.strerror or e}")
    typer.echo(
        f"{summary['games']} games ({summary['truncated']} cut), {summary['steps']} decisions: "
        f"{summary['records_file']}, {summary['steps_file']}"
    )
