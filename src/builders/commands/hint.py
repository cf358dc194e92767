"""``builders hint RECORD.json [--until N] [--iterations N] [--time S] [--seed N] [--json]``: the move
the hard level would play for the player to move in a position of a record (after all its actions,
or after the first ``--until N``), its win chance, and the rest of the hard bot's plan for the turn:
the move and the chance ``builders analyse`` gives that decision with the same seed and budget (see
docs/ai.md, "Hints and post-game analysis")."""

from __future__ import annotations

import json
from pathlib import Path

import typer

from builders.commands._errors import fail
from builders.core.plugins import plugin


def hint(
    record: Path = typer.Argument(..., help="A game's record (JSON), finished or not."),
    until: int = typer.Option(
        None, "--until", help="The position after the first N actions of the record (default: after all of them)."
    ),
    iterations: int = typer.Option(
        None,
        "--iterations",
        help="Search iterations per decision, as in `builders analyse` (default 1000 when --time is not given).",
    ),
    time: float = typer.Option(
        None, "--time", help="Seconds per decision instead of iterations (not the same on every run)."
    ),
    seed: int = typer.Option(0, help="Seed of the hard bot and of the search, as in `builders analyse`."),
    as_json: bool = typer.Option(False, "--json", help="Print the hint as JSON."),
) -> None:
    """The hard bot's move for the player to move, its win chance and the rest of its plan."""
    from builders.ai.analysis import DEFAULT_ITERATIONS, AnalysisError, hint as find, plan_notations, turn_positions
    from builders.core.errors import BuildersError
    from builders.core.record import load_json
    from builders.core.state import Chance

    try:
        data = load_json(record)
        turn, state = turn_positions(data, until=until)
    except BuildersError as e:
        fail(str(e))
    done = sum(1 for entry in state.history if not isinstance(entry, Chance))
    if state.is_over():
        fail(f"the game is over after {done} actions: choose an earlier position with --until N")
    if iterations is None and time is None:
        iterations = DEFAULT_ITERATIONS
    seat = state.current_player
    try:
        found = find(state, seat, seed=seed, iterations=iterations, seconds=time, turn=turn)
    except AnalysisError as e:
        fail(str(e))
    plan = plan_notations(state, found)
    if as_json:
        typer.echo(
            json.dumps(
                {
                    "game": state.GAME,
                    "actions": done,
                    "seat": seat,
                    "action": found.notation,
                    "win_chance": round(found.win_chance, 4),
                    "plan": plan,
                    "evaluated": found.iterations,
                }
            )
        )
        return
    typer.echo(f"{plugin(state.GAME).title}, after {done} actions: seat {seat} to move")
    typer.echo(f"hint: {found.notation} (win chance {100 * found.win_chance:.0f}%)")
    if plan:
        typer.echo(f"then, in the hard bot's plan for this turn: {', '.join(plan)}")
