"""``builders ladder``: a round robin of the bot levels (and a trained PPO policy) rated on one Elo
scale, written into docs (docs/rl.md, "The ladder"). Needs the rl extra (and rl-train for --ppo)."""

from __future__ import annotations

from pathlib import Path

import typer

from builders.commands._errors import fail
from builders.commands._extras import need
from builders.core.games import game_names

#: the games with an RL kit, in registration order (the first is the default)
RL_GAMES = game_names("rl")


def ladder(
    game: str = typer.Option(RL_GAMES[0], help=f"{' or '.join(RL_GAMES)}."),
    bots: str = typer.Option(
        "random,easy,medium,hard,expert", help="The bots, comma-separated (the first is pinned at Elo 0)."
    ),
    games: int = typer.Option(4, help="Games between every two entrants: even (each setup from both seats)."),
    turn_time: float = typer.Option(
        None, help="CPU seconds a turn for hard and expert (their own 2 and 4 if not given)."
    ),
    ppo: Path = typer.Option(None, help='A MaskablePPO model.zip (docs/rl.md, "The learning example") to rate too.'),
    seed: int = typer.Option(0, help="Every setup and bot seed is drawn from it."),
    docs: Path = typer.Option(
        None,
        help="A Markdown file to write the table into, between the lines "
        "<!-- ladder:begin --> and <!-- ladder:end -->.",
    ),
    quiet: bool = typer.Option(False, "--quiet", help="No progress lines."),
) -> None:
    """Play every pair of entrants and print their ratings (Bradley-Terry by maximum likelihood on the
    Elo scale, 95% intervals)."""
    need("rl")
    from builders.rl.ladder import check_markers, describe, entrants, play_ladder, write_between_markers

    if turn_time is not None and not 0 < turn_time <= 600:
        fail(f"--turn-time must be above 0 and at most 600 seconds, not {turn_time:g}")
    if ppo is not None:
        need("rl-train")
        if not ppo.is_file():
            fail(f"no such model file: {ppo}")
    if docs is not None and not docs.is_file():
        fail(f"no such Markdown file: {docs}")
    try:
        if docs is not None:
            check_markers(docs)
        players = entrants(game, bots, turn_time, ppo)

        def step(done: int, total: int) -> None:
            if not quiet:
                typer.echo(f"game {done} of {total}", err=True)

        result = play_ladder(game, players, games, seed, progress=step)
        command = ["builders", "ladder", "--game", game, "--bots", bots, "--games", str(games), "--seed", str(seed)]
        if turn_time is not None:
            command += ["--turn-time", f"{turn_time:g}"]
        if ppo is not None:
            command += ["--ppo", ppo.name]
        text = describe(result, game, games, seed, turn_time, command)
        typer.echo(text, nl=False)
        if docs is not None:
            write_between_markers(docs, text)
    except ValueError as e:
        fail(str(e))
    except OSError as e:
        fail(f"cannot write {docs}: {e.strerror or e}")
