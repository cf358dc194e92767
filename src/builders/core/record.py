"""Game records: the setup plus the history (player actions in notation and chance outcomes), as JSON.

A record replays exactly on any machine: chance outcomes are taken from the record, not from a
random generator.

    {"game": "kingdom", "format": 1, "setup": {...},
     "history": ["build 3,4", "build 3,5", "build 4,4", "end", {"chance": "grass"}, ...],
     "result": {...}}          # present once the game is over; informative only
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from builders.core.errors import BuildersError, RecordError, ReplayError
from builders.core.games import get_game
from builders.core.state import GameState


def load_json(path: str | Path) -> Any:
    """Read a JSON file, with one-line errors for a missing file or bad JSON."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise RecordError(f"no such file: {p}") from None
    except IsADirectoryError:
        raise RecordError(f"{p} is a folder, not a file") from None
    except (OSError, UnicodeDecodeError) as e:
        raise RecordError(f"cannot read {p}: {e}") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise RecordError(f"{p} is not valid JSON: {e.msg} at line {e.lineno}, column {e.colno}") from None


def check_record(record: Any, game: str | None = None) -> None:
    if not isinstance(record, Mapping):
        raise RecordError("a record is a JSON object with keys game, setup and history")
    for key in ("game", "setup", "history"):
        if key not in record:
            raise RecordError(f"the record has no {key!r} key")
    if game is not None and record["game"] != game:
        raise RecordError(f"this is a record of {record['game']!r}, not of {game!r}")
    if not isinstance(record["history"], list):
        raise RecordError("the record's history must be a list")
    if not isinstance(record["setup"], Mapping):
        raise RecordError("the record's setup must be a JSON object")


def steps(history: list[Any]) -> Iterator[tuple[str, list[str]]]:
    """Group a record's history into (player action, chance outcomes that followed it)."""
    current: str | None = None
    outcomes: list[str] = []
    for i, entry in enumerate(history):
        if isinstance(entry, str):
            if current is not None:
                yield current, outcomes
            current, outcomes = entry, []
        elif isinstance(entry, Mapping) and set(entry) == {"chance"} and isinstance(entry["chance"], str):
            if current is None:
                raise RecordError(f"history entry {i} is a chance outcome before any action")
            outcomes.append(entry["chance"])
        else:
            raise RecordError(
                f"history entry {i} must be an action string or {{\"chance\": \"...\"}}, not {entry!r}"
            )
    if current is not None:
        yield current, outcomes


def replay(record: Mapping[str, Any], until: int | None = None, game: str | None = None) -> GameState:
    """The state after the first ``until`` player actions of ``record`` (all of them by default).

    Raises ReplayError naming the first action that cannot be replayed, and why.
    """
    check_record(record, game)
    if until is not None and until < 0:
        raise RecordError("--until must be 0 or more")
    g = get_game(record["game"])
    fmt = record.get("format", 1)
    if type(fmt) is not int or fmt not in g.record_formats:
        known = ", ".join(str(f) for f in g.record_formats)
        raise RecordError(f"record format {fmt!r} is not one this version reads (it reads {known})")
    state = g.state_for_record(record["setup"], fmt)
    all_steps = list(steps(record["history"]))
    if until is not None and until > len(all_steps):
        raise RecordError(f"the record has only {len(all_steps)} actions, not {until}")
    for index, (text, outcomes) in enumerate(all_steps[:until]):
        try:
            action = state.parse_action(text)
            state.forced = list(outcomes)
            state.apply(action)
        except BuildersError as e:
            raise ReplayError(index, text, str(e)) from None
        if state.forced:
            left = ", ".join(state.forced)
            state.forced = []
            raise ReplayError(index, text, f"the recorded chance outcome(s) {left} did not happen")
    return state


def save_record(state: GameState, path: str | Path) -> None:
    Path(path).write_text(json.dumps(state.to_record(), indent=1) + "\n", encoding="utf-8")
