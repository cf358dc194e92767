"""``builders worker --redis URL``: compute bot moves and analyses for the game servers that share
the Redis at URL (see :mod:`builders.server.jobs`). A worker needs no web server and no database: run
one on each machine that should lend its cores, pointing at the servers' Redis."""

from __future__ import annotations

import os

import typer

from builders.commands._errors import fail
from builders.commands._extras import need


def worker(
    redis: str = typer.Option(..., help="Redis URL of the game servers (redis://host:6379/0)."),
    processes: int = typer.Option(
        None, help="Bot moves computed at once, one process each (default: one per core of this machine)."
    ),
    analyses: bool = typer.Option(
        True, "--analyses/--no-analyses", help="Also run post-game analyses (one more process, at a lower priority)."
    ),
    job_timeout: float = typer.Option(
        None,
        help="Longest run of a bot move, in seconds (default 20); a job of a "
        "worker that died is run again this long and 2 s after it "
        "started.",
    ),
) -> None:
    """Compute bot moves, hints and analyses from the game servers' job queue until stopped (Ctrl+C)."""
    need("server")
    import asyncio

    from builders.server.jobs import BOT_JOB_TIMEOUT, check_redis, shown, work

    if processes is None:
        processes = os.cpu_count() or 1
    if not 1 <= processes <= 64:
        fail(f"--processes must be from 1 to 64, not {processes}")
    if job_timeout is None:
        job_timeout = BOT_JOB_TIMEOUT
    if not 0.5 <= job_timeout <= 3600:
        fail(f"--job-timeout must be from 0.5 to 3600 seconds, not {job_timeout:g}")
    problem = check_redis(redis)
    if problem:
        fail(problem)

    def ready() -> None:
        typer.echo(
            f"Builders worker: {processes} process{'es' if processes > 1 else ''} for bot moves"
            f"{' and one for analyses' if analyses else ''}, jobs from {shown(redis)}"
        )

    try:
        asyncio.run(work(redis, processes, analyses, job_timeout, ready=ready))
    except KeyboardInterrupt:
        pass
