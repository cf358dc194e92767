"""``builders middle-ages ...``: records of The Builders: Middle Ages (random games, replay, show, score)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import typer

from builders.commands._errors import fail
from builders.core.errors import BuildersError

app = typer.Typer(no_args_is_help=True)

GAME = "middle-ages"


def _replay(path: Path, until: int | None) -> Any:
    from builders.core.record import load_json, replay

    try:
        return replay(load_json(path), until=until, game=GAME)
    except BuildersError as e:
        fail(str(e))


@app.command("random-game")
def random_game(
    players: int = typer.Option(2, help="Number of players (2 to 4)."),
    seed: int = typer.Option(..., help="Seed of the setup and of the random players."),
    out: Path = typer.Option(..., help="Where to write the record (JSON)."),
) -> None:
    """Play a game between random players and write its record (the same seed gives the same record)."""
    from builders.core.agents import RandomAgent, play
    from builders.core.record import save_record
    from builders.middle_ages.game import MiddleAges

    game = MiddleAges()
    try:
        state = game.new_state(game.random_setup(players, seed))
    except BuildersError as e:
        fail(str(e))
    play(state, [RandomAgent(seed * 10 + seat) for seat in range(players)])
    try:
        save_record(state, out)
    except OSError as e:
        fail(f"cannot write {out}: {e.strerror or e}")
    result = state.result()
    winners = ", ".join(str(w) for w in result.winners)
    typer.echo(
        f"wrote {out}: {players} players, {len(state.player_actions())} actions, "
        f"scores {list(result.scores)}, winner(s) seat {winners}"
    )


@app.command("replay")
def replay_cmd(
    record: Path = typer.Argument(..., help="A record (JSON)."),
    until: int = typer.Option(None, help="Stop after this many player actions."),
) -> None:
    """Replay a record and print the position reached, as JSON."""
    state = _replay(record, until)
    typer.echo(json.dumps(state.to_json(), indent=1))


@app.command("show")
def show(
    record: Path = typer.Argument(..., help="A record (JSON)."),
    until: int = typer.Option(None, help="Stop after this many player actions."),
) -> None:
    """Show the position of a record as tables: rows, crews, sites with progress, coins, VP."""
    from rich.console import Console

    from builders.middle_ages.render import position_tables, score_table

    state = _replay(record, until)
    console = Console(width=160)
    console.print(position_tables(state.to_json()))
    if state.is_over():
        console.print(score_table(state.result().to_json()))


@app.command("score")
def score(record: Path = typer.Argument(..., help="A record (JSON) of a finished game.")) -> None:
    """Print the final result as JSON: per seat the VP of buildings, machines and coins, the total; winners."""
    state = _replay(record, None)
    if not state.is_over():
        fail(f"the game of {record} is not over (it stops after {len(state.player_actions())} actions)")
    typer.echo(json.dumps(state.result().to_json()))


def register(cli: typer.Typer) -> None:
    """The Builders' commands in ``builders`` (its plugin's ``commands``): this group."""
    cli.add_typer(app, name="middle-ages", help="The Builders: Middle Ages: records and tools.")
