"""``builders analyse RECORD.json [--time S] [--iterations N] [--seed N] [--out FILE]``: every decision
of a finished game judged against the hard level's move there (win chance before and after by the
analysis's search, the better move, inaccuracy / mistake / blunder labels), with a summary per seat
(see docs/ai.md)."""

from __future__ import annotations

import json
from pathlib import Path

import typer

from builders.commands._errors import fail


def analyse(
    record: Path = typer.Argument(..., help="A finished game's record (JSON)."),
    time: float = typer.Option(
        None,
        "--time",
        help="Seconds of search per decision (default: an iteration "
        "budget instead, which gives the same analysis on every run).",
    ),
    iterations: int = typer.Option(
        None, "--iterations", help="Search iterations per decision (default 1000 without --time)."
    ),
    seed: int = typer.Option(0, help="Seed of the searches."),
    out: Path = typer.Option(None, help="Write the whole analysis as JSON."),
    quiet: bool = typer.Option(False, "--quiet", help="No progress on stderr."),
) -> None:
    """Analyse a finished game: each seat's win chance per decision, the better move, labelled errors."""
    from builders.ai.analysis import DEFAULT_ITERATIONS, AnalysisError, analyse as run
    from builders.core.errors import BuildersError
    from builders.core.record import load_json, write_text_whole

    try:
        data = load_json(record)
    except BuildersError as e:
        fail(str(e))
    if iterations is None and time is None:
        iterations = DEFAULT_ITERATIONS

    def progress(done: int, total: int) -> None:
        if not quiet:
            typer.echo(f"\ranalysed {done}/{total} decisions", err=True, nl=done == total)

    try:
        result = run(data, iterations=iterations, seconds=time, seed=seed, progress=progress)
    except AnalysisError as e:
        fail(str(e))
    names = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}
    for d in result.decisions:
        if d.label:
            typer.echo(
                f"{d.index + 1:4d}. seat {d.seat} {d.played}{names[d.label]} ({d.label}: win chance "
                f"{100 * d.before:.0f}% -> {100 * d.after:.0f}%; the hard bot: {d.best})"
            )
    for p in result.players:
        counts = ", ".join(f"{n} {p.counts[n]}" for n in ("inaccuracy", "mistake", "blunder"))
        typer.echo(
            f"seat {p.seat}: score {result.scores[p.seat]}, {p.decisions} decisions, mean win-chance "
            f"loss {100 * p.mean_loss:.1f} points; {counts}"
        )
    if out is not None:
        try:
            write_text_whole(out, json.dumps(result.to_json(), indent=1) + "\n")
        except OSError as e:
            fail(f"cannot write {out}: {e.strerror or e}")
