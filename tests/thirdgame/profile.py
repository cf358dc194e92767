"""Pig's part of a player's profile (its plugin's ``profile``): the target of each game played."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any


def favourites(setup: dict[str, Any], steps: Callable[[], Sequence[Any]], seats: Sequence[int]) -> list[str]:
    return [f"target {setup['target']}"]
