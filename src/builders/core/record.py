"""Game records: the setup plus the history (player actions in notation and chance outcomes), as JSON.

A record replays exactly on any machine: chance outcomes are taken from the record, not from a
random generator.

    {"game": "kingdom", "format": 1, "setup": {...},
     "history": ["build 3,4", "build 3,5", "build 4,4", "end", {"chance": "grass"}, ...],
     "result": {...}}          # present once the game is over; informative only
"""

from __future__ import annotations

import errno
import json
import os
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from builders.core.errors import BuildersError, RecordError, ReplayError, shown
from builders.core.games import get_game
from builders.core.state import GameState


#: the largest file load_json reads: 16 MiB (a record of a whole game is about 20 KB)
MAX_JSON_BYTES = 16 * 1024 * 1024
#: the deepest nesting of lists and objects load_json accepts (records and positions need 6)
MAX_JSON_DEPTH = 100
#: the keys a record may have ("result" is informative: replay recomputes it)
RECORD_KEYS = ("game", "format", "setup", "history", "result")


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def _depth_over(value: Any, limit: int) -> bool:
    """True if lists and objects nest deeper than ``limit`` in ``value`` (without recursion)."""
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        children: Iterable[Any]
        if isinstance(item, dict):
            children = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        if depth > limit:
            return True
        stack.extend((child, depth + 1) for child in children if isinstance(child, (dict, list)))
    return False


def load_json(path: str | Path) -> Any:
    """Read a JSON file, with one-line errors (RecordError) for a missing or unreadable file, a file
    larger than MAX_JSON_BYTES, text that is not UTF-8, bad JSON, NaN or Infinity, numbers too long
    for Python and lists or objects nested deeper than MAX_JSON_DEPTH."""
    p = Path(path)
    try:
        with open(p, "rb") as f:
            data = f.read(MAX_JSON_BYTES + 1)
    except FileNotFoundError:
        raise RecordError(f"no such file: {p}") from None
    except IsADirectoryError:
        raise RecordError(f"{p} is a folder, not a file") from None
    except OSError as e:
        raise RecordError(f"cannot read {p}: {e.strerror or e}") from None
    except ValueError as e:  # a path with a NUL character
        raise RecordError(f"cannot read {path!r}: {e}") from None
    if len(data) > MAX_JSON_BYTES:
        raise RecordError(
            f"{p} is larger than {MAX_JSON_BYTES // (1024 * 1024)} MiB, too large for a record or a position"
        )
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise RecordError(f"{p} is not UTF-8 text (byte 0x{data[e.start]:02x} at offset {e.start})") from None
    try:
        value = json.loads(text, parse_constant=_refuse_constant)
    except json.JSONDecodeError as e:
        raise RecordError(f"{p} is not valid JSON: {e.msg} at line {e.lineno}, column {e.colno}") from None
    except RecursionError:
        raise RecordError(f"{p} nests lists or objects too deeply (at most {MAX_JSON_DEPTH} levels)") from None
    except ValueError as e:  # NaN, Infinity, an integer of more than 4300 digits
        raise RecordError(f"{p} is not valid JSON: {' '.join(str(e).split())}") from None
    if _depth_over(value, MAX_JSON_DEPTH):
        raise RecordError(f"{p} nests lists or objects too deeply (at most {MAX_JSON_DEPTH} levels)")
    return value


def check_record(record: Any, game: str | None = None) -> None:
    if not isinstance(record, Mapping):
        raise RecordError("a record is a JSON object with keys game, setup and history")
    for key in ("game", "setup", "history"):
        if key not in record:
            raise RecordError(f"the record has no {key!r} key")
    for key in record:
        if key not in RECORD_KEYS:
            raise RecordError(f"unknown record key {shown(key)} (a record has the keys {', '.join(RECORD_KEYS)})")
    if not isinstance(record["game"], str):
        raise RecordError(f"the record's game must be a game name, not {shown(record['game'])}")
    if game is not None and record["game"] != game:
        raise RecordError(f"this is a record of {shown(record['game'])}, not of {game!r}")
    if not isinstance(record["history"], list):
        raise RecordError("the record's history must be a list")
    if not isinstance(record["setup"], Mapping):
        raise RecordError("the record's setup must be a JSON object")


def steps(history: list[Any]) -> Iterator[tuple[str, list[str]]]:
    """Group a record's history into (player action, chance outcomes that followed it)."""
    for text, outcomes, _ in _indexed_steps(history):
        yield text, outcomes


def _indexed_steps(history: list[Any]) -> Iterator[tuple[str, list[str], list[int]]]:
    """Like :func:`steps`, with the history index of every chance outcome."""
    current: str | None = None
    outcomes: list[str] = []
    where: list[int] = []
    for i, entry in enumerate(history):
        if isinstance(entry, str):
            if current is not None:
                yield current, outcomes, where
            current, outcomes, where = entry, [], []
        elif isinstance(entry, Mapping) and set(entry) == {"chance"} and isinstance(entry["chance"], str):
            if current is None:
                raise RecordError(f"history entry {i} is a chance outcome before any action")
            outcomes.append(entry["chance"])
            where.append(i)
        else:
            raise RecordError(f'history entry {i} must be an action string or {{"chance": "..."}}, not {shown(entry)}')
    if current is not None:
        yield current, outcomes, where


class UnusedChance(BuildersError, ValueError):
    """An action drew fewer chance outcomes than its record holds; ``first`` is the index (in the
    recorded outcomes) of the first one not drawn."""

    def __init__(self, first: int):
        super().__init__("the action made no such draw")
        self.first = first


def apply_recorded(state: GameState[Any], action: Any, outcomes: Sequence[str]) -> None:
    """Apply ``action`` to ``state`` with its recorded chance ``outcomes``: the draws it makes are
    those outcomes, in order, not random ones (the one way every replay of a record plays a step).
    Raises the engine's BuildersError if the action or an outcome is refused, and UnusedChance if
    the action drew fewer outcomes than recorded; ``state.forced`` is left empty either way."""
    state.forced = list(outcomes)
    try:
        state.apply(action)
    finally:
        left, state.forced = state.forced, []
    if left:
        raise UnusedChance(len(outcomes) - len(left))


def _bad_outcome(state: GameState[Any], action: Any, outcomes: list[str]) -> int | None:
    """Which recorded outcome made ``action`` fail (its position in ``outcomes``), found on copies of
    ``state`` (unchanged by the failed apply) given the first 1, 2, ... outcomes; None if the action
    fails without any."""
    for k in range(len(outcomes) + 1):
        probe = state.copy()
        probe.forced = list(outcomes[:k])
        try:
            probe.apply(action)
        except BuildersError:
            return k - 1 if k else None
    return None


def initial_state(record: Mapping[str, Any]) -> GameState[Any]:
    """The state a checked record starts from, under the rules of the record's own format (a
    format this version does not read is refused: never a silently different game)."""
    g = get_game(record["game"])
    fmt = record.get("format", 1)
    if type(fmt) is not int or fmt not in g.record_formats:
        known = ", ".join(str(f) for f in g.record_formats)
        raise RecordError(f"record format {shown(fmt)} is not one this version reads (it reads {known})")
    return g.state_for_record(record["setup"], fmt)


def replay(record: Mapping[str, Any], until: int | None = None, game: str | None = None) -> GameState[Any]:
    """The state after the first ``until`` player actions of ``record`` (all of them by default).

    Raises ReplayError naming the first action that cannot be replayed, and why.
    """
    check_record(record, game)
    if until is not None and until < 0:
        raise RecordError("--until must be 0 or more")
    state = initial_state(record)
    all_steps = list(_indexed_steps(record["history"]))
    if until is not None and until > len(all_steps):
        raise RecordError(f"the record has only {len(all_steps)} actions, not {until}")
    for index, (text, outcomes, where) in enumerate(all_steps[:until]):
        try:
            action = state.parse_action(text)
        except BuildersError as e:
            raise ReplayError(index, text, str(e)) from None
        try:
            apply_recorded(state, action, outcomes)
        except UnusedChance as e:
            raise ReplayError(index, text, str(e), entry=where[e.first], chance=outcomes[e.first]) from None
        except BuildersError as e:
            bad = _bad_outcome(state, action, outcomes) if outcomes else None
            if bad is None:
                raise ReplayError(index, text, str(e)) from None
            raise ReplayError(index, text, str(e), entry=where[bad], chance=outcomes[bad]) from None
    return state


def write_text_whole(path: str | Path, text: str) -> None:
    """Write ``text`` to ``path`` whole or not at all: into a new file beside it first, then renamed
    over it, so that an error (a full disk, a folder in the way) never leaves a cut or emptied file.
    Raises OSError."""
    target = Path(path)
    if target.is_dir():
        raise IsADirectoryError(errno.EISDIR, "it is a folder", str(target))
    if "\0" in str(target):
        raise OSError(errno.EINVAL, "a file name cannot hold a NUL character")
    temporary = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    try:
        temporary.write_text(text, encoding="utf-8")
        os.replace(temporary, target)
    except BaseException:
        try:
            temporary.unlink(missing_ok=True)
        except OSError:
            pass
        raise


def save_record(state: GameState[Any], path: str | Path) -> None:
    write_text_whole(path, json.dumps(state.to_record(), indent=1) + "\n")
