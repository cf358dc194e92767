"""``builders play``: a full Kingdom Builder game between random players,
shown in the terminal (final map and score table)."""

from __future__ import annotations

import typer


def play(
    players: int = typer.Option(2, min=2, max=4, help="Number of players (2 to 4)."),
    seed: int = typer.Option(None, help="Seed of the setup and the players (default: random)."),
) -> None:
    import random

    from rich.console import Console

    from builders.core.agents import RandomAgent, play as play_game
    from builders.kingdom.game import KingdomBuilder
    from builders.kingdom.render import render_terminal, score_table

    if seed is None:
        seed = random.SystemRandom().randrange(1 << 31)
    game = KingdomBuilder()
    state = game.new_state(game.random_setup(players, seed))
    play_game(state, [RandomAgent(seed * 10 + seat) for seat in range(players)])
    console = Console()
    console.print(f"Kingdom Builder, {players} random players, seed {seed}")
    console.print(render_terminal(state.to_json()))
    console.print(score_table(state.to_json(), state.result().to_json("cards")))
