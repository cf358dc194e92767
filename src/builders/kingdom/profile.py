"""Kingdom Builder's part of a player's profile (its plugin's ``profile``)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any


def favourites(setup: dict[str, Any], steps: Callable[[], Sequence[Any]], seats: Sequence[int]) -> list[str]:
    """What a finished game adds to the player's favourite cards: the three cards of the game."""
    return list(setup.get("cards") or [])
