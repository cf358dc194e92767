"""The server's numeric settings from the environment, each checked with one sentence that names it.

``check_environment()`` reads them all, so that ``builders serve`` refuses a bad value before it
starts (``error: BUILDERS_IDLE_DAYS must be a number of days more than 0 and at most 3650, not 'x'``)."""

from __future__ import annotations

import math
import os
from typing import Any

#: name -> (default, least, most, whole number, unit); what each means: docs/deploy.md
NUMBERS: dict[str, tuple[float, float, float, bool, str]] = {
    "BUILDERS_EXPIRE_OPEN_DAYS": (7, 0, 3650, False, "days"),
    "BUILDERS_IDLE_DAYS": (30, 0, 3650, False, "days"),
    "BUILDERS_ANALYSIS_WORKERS": (1, 1, 64, True, ""),
    "BUILDERS_ANALYSIS_ITERATIONS": (1000, 1, 1_000_000, True, ""),
    #: games of bots alone not over: per creator (account and address), on the server; and the bot
    #: turns of games without a person computed at once
    "BUILDERS_BOT_GAMES_PER_PLAYER": (2, 0, 10_000, True, ""),
    "BUILDERS_BOT_GAMES": (20, 0, 100_000, True, ""),
    "BUILDERS_BOT_GAMES_AT_ONCE": (1, 1, 64, True, ""),
    #: one person's games waiting for players and going on (per account and per address); seconds an
    #: unused game stays in memory
    "BUILDERS_WAITING_GAMES_PER_PLAYER": (5, 0, 100_000, True, ""),
    "BUILDERS_GAMES_PER_PLAYER": (30, 0, 1_000_000, True, ""),
    "BUILDERS_KEEP_IDLE_SECONDS": (600, 0, 86400 * 7, False, "seconds"),
}


def number(name: str, given: Any = None) -> float:
    """The setting ``name``: ``given`` when not None, else its environment variable, else its
    default; ValueError (one sentence) when it is out of its range. Whole-number settings are ints."""
    default, low, high, whole, unit = NUMBERS[name]
    raw: Any = given if given is not None else os.environ.get(name)
    if raw is None or (isinstance(raw, str) and not raw.strip()):
        return int(default) if whole else float(default)
    value = math.nan
    if not isinstance(raw, bool):
        try:
            value = float(raw)
        except (TypeError, ValueError):
            pass
    if whole:
        ok = math.isfinite(value) and value == int(value) and low <= value <= high
        if not ok:
            raise ValueError(f"{name} must be a whole number from {int(low)} to {int(high)}, not {raw!r}")
        return int(value)
    if not (low < value <= high):
        raise ValueError(f"{name} must be a number of {unit} more than {low:g} and at most {high:g}, not {raw!r}")
    return value


def check_environment() -> None:
    """ValueError naming the first numeric setting of the environment that is out of range."""
    for name in NUMBERS:
        number(name)
