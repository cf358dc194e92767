"""Errors shared by both games. Every message says what was wrong, in words a player understands."""

from __future__ import annotations

import json
from typing import Any


class BuildersError(Exception):
    """Base class of every error the engines raise on bad input."""


class IllegalAction(BuildersError, ValueError):
    """An action that cannot be parsed, or is not legal in the current position.

    The state is unchanged when this is raised.
    """


class InvalidSetup(BuildersError, ValueError):
    """A game setup (players, sections, cards, deck orders, ...) that is not valid."""


class InvalidPosition(BuildersError, ValueError):
    """A position (JSON) that does not describe a reachable, consistent game state."""


class RecordError(BuildersError, ValueError):
    """A game record that is malformed (not the record format)."""


class ReplayError(BuildersError, ValueError):
    """A record whose action number ``index`` (0-based, counting player actions) cannot be replayed.

    When the fault is a recorded chance outcome of that action (a card that cannot be drawn, or a draw
    that did not happen), ``entry`` is that outcome's index in the record's history and ``chance`` the
    outcome; otherwise both are None.
    """

    def __init__(self, index: int, action: str, reason: str, entry: int | None = None, chance: str | None = None):
        self.index = index
        self.action = action
        self.reason = reason
        self.entry = entry
        self.chance = chance
        if entry is None:
            message = f"action {index} ({action!r}) is illegal: {reason}"
        else:
            outcome = json.dumps({"chance": chance}, ensure_ascii=False)
            message = f"history entry {entry} ({outcome}) after action {index} ({action!r}) is illegal: {reason}"
        super().__init__(message)


def shown(value: Any, depth: int = 0) -> str:
    """A short readable form of a JSON value for an error message: strings over 40 characters, lists and
    objects over 4 items, nesting over 2 levels and numbers of 19 digits or more are cut, so that a
    message stays one short line whatever the input (short values show as their repr)."""
    if isinstance(value, bool) or value is None or isinstance(value, float):
        return repr(value)
    if isinstance(value, int):
        return repr(value) if -(10**18) < value < 10**18 else "a number too large"
    if isinstance(value, str):
        return repr(value) if len(value) <= 40 else repr(value[:37]) + "..."
    if isinstance(value, (list, tuple)):
        if depth >= 2:
            return "[...]" if value else "[]"
        items = [shown(v, depth + 1) for v in value[:4]]
        return "[" + ", ".join(items + (["..."] if len(value) > 4 else [])) + "]"
    if isinstance(value, dict):
        if depth >= 2:
            return "{...}" if value else "{}"
        items = [f"{shown(k, depth + 1)}: {shown(v, depth + 1)}" for k, v in list(value.items())[:4]]
        return "{" + ", ".join(items + (["..."] if len(value) > 4 else [])) + "}"
    return f"a {type(value).__name__}"
