"""Errors shared by both games. Every message says what was wrong, in words a player understands."""

from __future__ import annotations


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
    """A record whose action number ``index`` (0-based, counting player actions) cannot be replayed."""

    def __init__(self, index: int, action: str, reason: str):
        self.index = index
        self.action = action
        self.reason = reason
        super().__init__(f"action {index} ({action!r}) is illegal: {reason}")
