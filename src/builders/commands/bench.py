"""``builders bench ...``: speed benchmarks."""

from __future__ import annotations

import typer

from builders.commands._extras import need
from builders.core.plugins import GamePlugin, plugins

app = typer.Typer(no_args_is_help=True)


def _game_bench(game: GamePlugin) -> None:
    """``builders bench <game>``: the game's own benchmark (its plugin's ``bench``)."""

    def bench_game(
        runs: int = typer.Option(5, min=1, help="Runs; the median is reported."),
        games: int = typer.Option(200, min=1, help="Two-player games per run (4-player: a quarter)."),
    ) -> None:
        game.load("bench")(runs=runs, games=games, echo=typer.echo)

    bench_game.__doc__ = f"Random full games of {game.title} on its standard workload."
    app.command(game.name)(bench_game)


for _game in plugins():
    if _game.bench is not None:
        _game_bench(_game)


@app.command("native")
def bench_native(
    runs: int = typer.Option(5, min=1, help="Runs; the median is reported."),
    games: int = typer.Option(100, min=1, help="Two-player games per run on the Python engine's side."),
) -> None:
    """Each game's native core beside its Python engine, per CPU second (docs/native.md)."""
    from builders.core.games import native_built

    if not native_built():
        typer.echo("error: the native core is not built (make native)", err=True)
        raise typer.Exit(2)
    for game in plugins():
        if game.native_bench is not None:
            game.load("native_bench")(runs=runs, games=games, echo=typer.echo)


@app.command("rl")
def bench_rl(
    runs: int = typer.Option(5, min=1, help="Runs; the median is reported."),
    games: int = typer.Option(20, min=1, help="Games per run, for each game and player count."),
) -> None:
    """Environment steps/s of builders.rl (PettingZoo AEC loop) for each game, and the engine vs
    observation split. Needs the rl extra."""
    need("rl")
    from builders.rl.bench import run

    run(runs=runs, games=games, echo=typer.echo)
