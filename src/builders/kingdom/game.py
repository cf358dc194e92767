"""The Kingdom Builder game definition (registered as "kingdom")."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from builders.core.errors import InvalidSetup
from builders.core.state import Game, GameState
from builders.kingdom import native as _native
from builders.kingdom import setup as _setup


class KingdomBuilder(Game):
    name: ClassVar[str] = "kingdom"
    title: ClassVar[str] = "Kingdom Builder"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4
    #: 1: the reshuffle waits for a draw that finds the deck empty (before the amended rules.md);
    #: 2: the discard pile is shuffled into a new deck as soon as the deck runs out
    record_formats: ClassVar[tuple[int, ...]] = (1, 2)

    def random_setup(self, players: int, seed: int | str) -> dict[str, Any]:
        """4 distinct random sections (random slots and orientations), 3 random cards, start player 0
        and the explicit shuffled deck, all drawn from ``Rng(seed)``."""
        return _setup.random_setup(players, seed)

    def first_game_setup(self, players: int = 2) -> dict[str, Any]:
        """The recommended first game (tavern, paddock, oasis, farm; fishermen, merchants, knights)."""
        return _setup.first_game_setup(players)

    def new_state(self, setup: Mapping[str, Any]) -> GameState[int]:
        """The initial state, on the core ``BUILDERS_CORE`` asks for (see builders.kingdom.native): a
        KingdomState or a NativeKingdomState."""
        return _native.select(_setup.new_state(setup))

    def state_for_record(self, setup: Mapping[str, Any], record_format: int) -> GameState[int]:
        """The initial state for a record of ``record_format``: format 1 replays under its own
        reshuffle rule (see :mod:`builders.kingdom.state`)."""
        if record_format not in self.record_formats:
            known = ", ".join(str(f) for f in self.record_formats)
            raise InvalidSetup(f"record format {record_format!r} is not one this version reads (it reads {known})")
        state = _setup.new_state(setup)
        state.legacy = record_format == 1
        return _native.select(state)
