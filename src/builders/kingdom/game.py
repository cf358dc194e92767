"""The Kingdom Builder game definition (registered as "kingdom")."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from builders.core.state import Game
from builders.kingdom import setup as _setup
from builders.kingdom.state import KingdomState


class KingdomBuilder(Game):
    name: ClassVar[str] = "kingdom"
    title: ClassVar[str] = "Kingdom Builder"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4

    def random_setup(self, players: int, seed: int | str) -> dict[str, Any]:
        """4 distinct random sections (random slots and orientations), 3 random cards, start player 0
        and the explicit shuffled deck, all drawn from ``Rng(seed)``."""
        return _setup.random_setup(players, seed)

    def first_game_setup(self, players: int = 2) -> dict[str, Any]:
        """The recommended first game (tavern, paddock, oasis, farm; fishermen, merchants, knights)."""
        return _setup.first_game_setup(players)

    def new_state(self, setup: Mapping[str, Any]) -> KingdomState:
        return _setup.new_state(setup)
