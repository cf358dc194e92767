"""``builders tournament GAME --agents A,B ...``: paired games between agents, with a summary table,
JSON and a plot (see docs/ai.md)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import typer

from builders.commands._errors import fail
from builders.commands._extras import need
from builders.core.record import write_text_whole


def tournament(
    game: str = typer.Argument(..., help="A registered game (builders --help lists each game's commands)."),
    agents: str = typer.Option(
        "greedy,random", help="Comma-separated agents with options, e.g. 'mcts:time=0.2,greedy' (see docs/ai.md)."
    ),
    players: int = typer.Option(
        2, help="Seats per game; with fewer agents than seats the first agent plays against the others repeated."
    ),
    games: int = typer.Option(
        20, help="Games in all: a multiple of the seat count (each setup is played once per seat rotation)."
    ),
    seed: int = typer.Option(0, help="Tournament seed: every setup and agent seed is drawn from it."),
    workers: int = typer.Option(0, help="Local worker processes (0: one per CPU)."),
    backend: str = typer.Option("local", help="local or ray."),
    address: str = typer.Option(None, help="Ray cluster address (with --backend ray)."),
    out: Path = typer.Option(None, help="Write the full results (per agent and per game) as JSON."),
    plot: Path = typer.Option(None, help="Write win rates and score distributions as .png or .svg."),
    quiet: bool = typer.Option(False, "--quiet", help="No progress bar."),
) -> None:
    """Play a tournament and report wins, win rates (95% Wilson intervals), scores and move times."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    from builders.ai.agents import parse_agents
    from builders.core.games import game_names
    from builders.ai.tournament import run_tournament

    if game not in game_names():
        fail(f"unknown game {game!r} (choose from {', '.join(game_names())})")
    try:
        specs = parse_agents(agents)
    except ValueError as e:
        fail(str(e))
    if plot is not None and plot.suffix.lower() not in (".png", ".svg"):
        fail(f"the plot must be a .png or .svg file, not {plot.name!r}")
    if plot is not None:
        need("plot")
    if workers < 0:
        fail(f"workers must be 0 (one per CPU) or more, not {workers}")
    if address and backend != "ray":
        fail("--address needs --backend ray")
    n_workers = workers or os.cpu_count() or 1
    console = Console(stderr=True)
    progress = Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=console,
        disable=quiet,
        transient=False,
    )
    try:
        with progress:
            task = progress.add_task(f"{game} {agents}", total=games)

            def advance(done: int, total: int) -> None:
                progress.update(task, completed=done)

            result = run_tournament(
                game, specs, players, games, seed, workers=n_workers, backend=backend, address=address, progress=advance
            )
    except ValueError as e:
        fail(str(e))
    _print_table(result)
    if out is not None:
        try:
            write_text_whole(out, json.dumps(result.to_json(), indent=1) + "\n")
        except OSError as e:
            fail(f"cannot write {out}: {e.strerror}")
    if plot is not None:
        from builders.ai.tournament import plot_result

        try:
            plot_result(result, str(plot))
        except OSError as e:
            fail(f"cannot write {plot}: {e.strerror}")


def _print_table(result) -> None:
    from rich.console import Console
    from rich.table import Table

    table = Table(
        title=f"{result.game}: {result.players} players, {result.games} games "
        f"({result.games // result.rotations} setups x {result.rotations} seatings), "
        f"seed {result.seed}"
    )
    for col in ("agent", "wins", "win rate", "95% interval", "mean score", "per source", "s/move", "sims/s"):
        table.add_column(col, justify="left" if col in ("agent", "per source") else "right")
    for s in result.stats:
        parts = ", ".join(f"{k} {v:.1f}" for k, v in s.mean_breakdown.items())
        table.add_row(
            s.agent,
            f"{s.wins:g}",
            f"{s.win_rate:.3f}",
            f"{s.win_rate_ci95[0]:.3f}-{s.win_rate_ci95[1]:.3f}",
            f"{s.mean_score:.1f} ± {s.score_sd:.1f}",
            parts,
            f"{s.mean_move_seconds:.4f}",
            f"{s.sims_per_s:.0f}" if s.sims_per_s else "-",
        )
    Console(width=160).print(table)
