"""The game definition of The Builders: Middle Ages."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from builders.core.state import Game, GameState
from builders.middle_ages import native as _native
from builders.middle_ages.setup import MAX_PLAYERS, MIN_PLAYERS, check_setup, random_setup
from builders.middle_ages.state import MiddleAgesState


class MiddleAges(Game):
    name: ClassVar[str] = "middle-ages"
    title: ClassVar[str] = "The Builders: Middle Ages"
    min_players: ClassVar[int] = MIN_PLAYERS
    max_players: ClassVar[int] = MAX_PLAYERS

    def random_setup(self, players: int, seed: int | str, random_start: bool = False) -> dict[str, Any]:
        """A complete setup drawn from ``Rng(seed)`` (see :func:`builders.middle_ages.setup.random_setup`)."""
        return random_setup(players, seed, random_start)

    def new_state(self, setup: Mapping[str, Any]) -> GameState[int]:
        """The initial state; raises InvalidSetup saying what is wrong with ``setup``."""
        return _native.select(MiddleAgesState(check_setup(setup)))

    def new_random_state(self, players: int, seed: int | str) -> GameState[int]:
        return _native.select(MiddleAgesState(check_setup(random_setup(players, seed))))

    def state_from_json(self, position: Mapping[str, Any], setup: Mapping[str, Any]) -> MiddleAgesState:
        """A position given as ``to_json`` output (see :meth:`MiddleAgesState.from_json`)."""
        return MiddleAgesState.from_json(position, check_setup(setup))
