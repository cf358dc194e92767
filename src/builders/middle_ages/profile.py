"""The Builders: Middle Ages' part of a player's profile (its plugin's ``profile``)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from builders.middle_ages.cards import INDEX


def favourites(setup: dict[str, Any], steps: Callable[[], Sequence[Any]], seats: Sequence[int]) -> list[str]:
    """What a finished game adds to the player's favourite cards: the ids of the buildings and machines
    the player's ``seats`` opened (``steps``: the game's stored steps, each with ``seat`` and ``action``;
    the web client names them in the page's language)."""
    out = []
    for step in steps():
        verb, _, card = step.action.partition(" ")
        if step.seat in seats and verb == "open" and card in INDEX:
            out.append(card)
    return out
