"""What both games share: the state protocol, seeded randomness, records and replay, agents."""

from builders.core.errors import (
    BuildersError,
    IllegalAction,
    InvalidPosition,
    InvalidSetup,
    RecordError,
    ReplayError,
)
from builders.core.rng import Rng
from builders.core.state import Chance, Game, GameState, Result, winners_of

__all__ = [
    "BuildersError",
    "IllegalAction",
    "InvalidPosition",
    "InvalidSetup",
    "RecordError",
    "ReplayError",
    "Rng",
    "Chance",
    "Game",
    "GameState",
    "Result",
    "winners_of",
]
