"""The ``builders`` command."""

from __future__ import annotations

import sys

import typer

from builders.commands._errors import OneLineErrors, one_line

app = typer.Typer(
    cls=OneLineErrors,
    help="Kingdom Builder and The Builders: Middle Ages: rules engines, tools and play.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


def version_line() -> str:
    """``builders X.Y.Z`` and the core each game runs on (see ``BUILDERS_CORE`` in docs/native.md)."""
    from importlib.metadata import PackageNotFoundError, version

    from builders.core.games import core_name, native_built
    from builders.core.plugins import plugins

    try:
        number = version("builders-games")
    except PackageNotFoundError:
        number = "(not installed)"
    on: dict[str, list[str]] = {}  # the core's words -> the titles of the games on it
    for game in plugins():
        core = core_name() if game.native else "python"
        on.setdefault("native core" if core == "native" else "Python engine", []).append(game.title)
    games = ", ".join(f"{_and(titles)} on the {core}" for core, titles in on.items())
    return f"builders {number}: {games} (native core {'built' if native_built() else 'not built'})"


def _and(titles: list[str]) -> str:
    """ "A", "A and B", "A, B and C"."""
    return titles[0] if len(titles) == 1 else f"{', '.join(titles[:-1])} and {titles[-1]}"


def _show_version(value: bool) -> None:
    if value:
        typer.echo(version_line())
        raise typer.Exit()


@app.callback()
def _root(
    version: bool = typer.Option(
        False,
        "--version",
        callback=_show_version,
        is_eager=True,
        help="Show the version and the core each game runs on, and exit.",
    ),
) -> None:
    """Kingdom Builder and The Builders: Middle Ages: rules engines, tools and play."""


def _register() -> None:
    from builders.commands import bench, serve, tournament
    from builders.core.plugins import plugins

    for game in plugins():  # each game's own commands (its plugin's)
        if game.commands is not None:
            game.load("commands")(app)
    app.add_typer(bench.app, name="bench", help="Speed benchmarks (medians of several runs).")
    app.command("serve", help="Start the game server and web app, and print the address to open.")(serve.serve)
    from builders.commands import db

    app.add_typer(db.app, name="db", help="The server's database: schema upgrades.")
    app.command("tournament", help="Play paired games between agents and report their strength.")(tournament.tournament)
    from builders.commands import analyse

    app.command("analyse", help="Analyse a finished game: win chances, best moves, labelled errors.")(analyse.analyse)
    from builders.commands import hint

    app.command("hint", help="The hard bot's move for the player to move in a record's position, with its win chance.")(
        hint.hint
    )
    from builders.commands import worker

    app.command("worker", help="Compute bot moves, hints and analyses for game servers that share a Redis.")(
        worker.worker
    )
    from builders.commands import dataset

    app.command("dataset", help="Write self-play games of bots as records and per-decision arrays (rl extra).")(
        dataset.dataset
    )
    from builders.commands import ladder

    app.command("ladder", help="Rate the bot levels (and a PPO policy) on one Elo scale by a round robin (rl extra).")(
        ladder.ladder
    )


_register()


def main() -> None:
    """The ``builders`` command. Bad input ends in one ``error: ...`` line and exit status 2 (see
    :mod:`builders.commands._errors`); a fault of the program itself in one line and status 1."""
    try:
        app()
    except Exception as e:  # noqa: BLE001 - the last guard: a user never sees a traceback
        typer.echo(
            f"error: internal error ({type(e).__name__}: {one_line(str(e))}); please report it "
            f"with the command that caused it",
            err=True,
        )
        sys.exit(1)
