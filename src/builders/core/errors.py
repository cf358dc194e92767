"""Errors shared by both games. Every message says what was wrong, in words a player understands."""

from __future__ import annotations

import json


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

    def __init__(self, index: int, action: str, reason: str, entry: int | None = None,
                 chance: str | None = None):
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
