"""``builders kingdom ...``: Kingdom Builder positions, legal moves, records and pictures.

Every command that reads a FILE accepts either a position (the JSON of ``KingdomState.to_json``,
see docs/kingdom.md) or a game record (``{"game": "kingdom", "setup": ..., "history": ...}``); a
record stands for the position after its last action. Bad input of any kind ends with a one-line
``error: ...`` on stderr and exit status 2.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Optional

import typer

from builders.commands._errors import fail
from builders.core.errors import BuildersError
from builders.core.record import write_text_whole

app = typer.Typer(
    help="Kingdom Builder: positions, legal moves, records and pictures.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

_FILE_HELP = "A position (JSON) or a game record (JSON)."


# -- reading files -------------------------------------------------------------------------------


def is_record(data: Any) -> bool:
    """A record has the keys "game" or "history"; a position has neither."""
    return isinstance(data, Mapping) and ("game" in data or "history" in data)


def load_state(path: str, until: Optional[int] = None):
    """The state a FILE stands for: a position as it is, a record replayed (to ``until`` actions)."""
    from builders.core.record import load_json, replay
    from builders.kingdom.state import KingdomState

    data = load_json(path)
    if is_record(data):
        return replay(data, until=until, game="kingdom")
    if until is not None:
        fail(f"{path} is a position, not a record: --until needs a record")
    if not isinstance(data, Mapping):
        fail(f"{path} is neither a Kingdom Builder position nor a record: it must be a JSON object")
    return KingdomState.from_json(data)


def _run(body):
    """Run ``body()``, turning any error of bad input into a one-line message and exit status 2."""
    try:
        return body()
    except BuildersError as e:
        fail(str(e))


# -- output --------------------------------------------------------------------------------------


def _depth(value: Any) -> int:
    if isinstance(value, list):
        return 1 + max((_depth(v) for v in value), default=0)
    if isinstance(value, dict):
        return 1 + max((_depth(v) for v in value.values()), default=0)
    return 0


def dumps(value: Any, indent: int = 0) -> str:
    """JSON with one key per line, but small values (nested at most two deep) kept on one line.

    Positions stay readable: ``"settlements": [[3, 4], [3, 5]]`` is one line, not twelve.
    """
    if _depth(value) <= 2:
        return json.dumps(value)
    pad = " " * (indent + 1)
    if isinstance(value, list):
        items = [pad + dumps(v, indent + 1) for v in value]
        return "[\n" + ",\n".join(items) + "\n" + " " * indent + "]"
    items = [pad + json.dumps(k) + ": " + dumps(v, indent + 1) for k, v in value.items()]
    return "{\n" + ",\n".join(items) + "\n" + " " * indent + "}"


_NUMBER = re.compile(r"(\d+)")


def action_sort_key(text: str) -> tuple:
    """Sort notation by kind, then by coordinates as numbers ("build 2,3" before "build 10,3")."""
    return tuple(int(part) if part.isdigit() else part for part in _NUMBER.split(text))


def score_json(state) -> dict[str, Any]:
    """The result of the game, or the gold as the position stands if it is not over."""
    if state.is_over():
        return state.result().to_json("cards")
    from builders.core.state import Result, winners_of

    parts = tuple(state.score_breakdown())
    totals = tuple(sum(part.values()) for part in parts)
    return Result(totals, parts, winners_of(totals)).to_json("cards")


# -- commands ------------------------------------------------------------------------------------


@app.command()
def score(file: str = typer.Argument(..., help=_FILE_HELP)) -> None:
    """Print the gold of every player, per card and castles, and the winners, as JSON.

    A position whose game is not over is scored as it stands.
    """
    state = _run(lambda: load_state(file))
    typer.echo(dumps(_run(lambda: score_json(state))))


@app.command()
def moves(file: str = typer.Argument(..., help=_FILE_HELP)) -> None:
    """Print the legal actions of the player to move, one per line, sorted.

    Prints nothing when the game is over.
    """

    def body() -> list[str]:
        state = load_state(file)
        if state.is_over():
            return []
        return sorted((state.action_to_string(a) for a in state.legal_actions()), key=action_sort_key)

    for line in _run(body):
        typer.echo(line)


@app.command("random-game")
def random_game(
    players: int = typer.Option(2, "--players", help="Number of players: 2, 3 or 4."),
    seed: int = typer.Option(0, "--seed", help="Seed of the setup and of the players' choices."),
    out: str = typer.Option(..., "--out", help="Where to write the game record (JSON)."),
    first_game: bool = typer.Option(
        False, "--first-game", help="Use the recommended first-game map and cards instead of a random setup."
    ),
) -> None:
    """Play a game of random legal actions to the end and write its record.

    The same options always give the same record.
    """
    if players not in (2, 3, 4):
        fail(f"--players must be 2, 3 or 4, not {players}")
    target = Path(out)
    if target.is_dir():
        fail(f"{out} is a folder, not a file")
    if not target.parent.exists():
        fail(f"cannot write {out}: no such folder {target.parent}")

    def body():
        from builders.core.agents import RandomAgent, play
        from builders.kingdom.game import KingdomBuilder

        game = KingdomBuilder()
        if first_game:
            setup = game.first_game_setup(players)
            setup["seed"] = seed
        else:
            setup = game.random_setup(players, seed)
        state = game.new_state(setup)
        play(state, [RandomAgent(seed * 10 + seat) for seat in range(players)])
        return state

    state = _run(body)
    record = state.to_record()
    try:
        write_text_whole(target, dumps(record) + "\n")
    except OSError as e:
        fail(f"cannot write {out}: {e.strerror or e}")
    result = state.result()
    actions = len(state.player_actions())
    gold = ", ".join(str(s) for s in result.scores)
    won = " and ".join(str(w) for w in result.winners)
    noun = "seat" if len(result.winners) == 1 else "seats"
    typer.echo(f"{players} players, seed {seed}: {actions} actions, gold {gold}; {noun} {won} won; record in {out}")


@app.command()
def replay(
    record: str = typer.Argument(..., help="A game record (JSON)."),
    until: Optional[int] = typer.Option(None, "--until", help="Stop after this many player actions (default: all)."),
) -> None:
    """Replay a record and print the position after N actions (JSON, the position format).

    Stops at the first action that cannot be played, naming its index (from 0) and the reason.
    """

    def body():
        from builders.core.record import load_json
        from builders.core.record import replay as replay_record

        data = load_json(record)
        if not is_record(data):
            fail(f'{record} is not a game record (it has no "game" and "history" keys)')
        return replay_record(data, until=until, game="kingdom")

    state = _run(body)
    typer.echo(dumps(state.to_json()))


@app.command()
def show(file: str = typer.Argument(..., help=_FILE_HELP)) -> None:
    """Draw the position (a record: its final position) in the terminal, with the gold so far."""
    from rich.console import Console

    state = _run(lambda: load_state(file))

    def body():
        from builders.kingdom.render import render_terminal, score_table

        position = state.to_json()
        return render_terminal(position), score_table(position, score_json(state))

    board, table = _run(body)
    console = Console()
    console.print(board)
    console.print(table)


@app.command()
def svg(
    file: str = typer.Argument(..., help=_FILE_HELP),
    out: str = typer.Option(..., "-o", "--out", help="Where to write the picture (SVG)."),
    title: Optional[str] = typer.Option(None, "--title", help="A title written above the map."),
) -> None:
    """Draw the position (a record: its final position) as an SVG picture."""
    state = _run(lambda: load_state(file))

    def body() -> str:
        from builders.kingdom.render import render_svg

        return render_svg(state.to_json(), title=title)

    picture = _run(body)
    try:
        write_text_whole(out, picture)
    except OSError as e:
        fail(f"cannot write {out}: {e.strerror or e}")
    typer.echo(f"wrote {out}")


def register(cli: typer.Typer) -> None:
    """Kingdom Builder's commands in ``builders`` (its plugin's ``commands``): this group, and ``play``."""
    from builders.commands import play

    cli.add_typer(app, name="kingdom", help="Kingdom Builder: positions, moves, records, pictures.")
    cli.command("play", help="Watch random players play a Kingdom Builder game in the terminal.")(play.play)
