"""The ``builders`` command."""

from __future__ import annotations

import sys

import typer

from builders.core.errors import BuildersError

app = typer.Typer(
    help="Kingdom Builder and The Builders: Middle Ages: rules engines, tools and play.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


def fail(message: str) -> None:
    """Print a one-line error and exit with status 2."""
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(2)


def _register() -> None:
    from builders.commands import bench, kingdom, middle_ages, play, serve, tournament

    app.add_typer(kingdom.app, name="kingdom", help="Kingdom Builder: positions, moves, records, pictures.")
    app.add_typer(middle_ages.app, name="middle-ages", help="The Builders: Middle Ages: records and tools.")
    app.add_typer(bench.app, name="bench", help="Speed benchmarks (medians of several runs).")
    app.command("play", help="Watch random players play a Kingdom Builder game in the terminal.")(play.play)
    app.command("serve", help="Start the game server and web app, and print the address to open.")(serve.serve)
    app.command("tournament", help="Play paired games between agents and report their strength.")(
        tournament.tournament)


_register()


def main() -> None:
    try:
        app()
    except BuildersError as e:
        typer.echo(f"error: {e}", err=True)
        sys.exit(2)
