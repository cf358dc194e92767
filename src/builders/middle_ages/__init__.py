"""The Builders: Middle Ages: the rules engine (see docs/middle-ages.md)."""

from builders.middle_ages.game import MiddleAges
from builders.middle_ages.state import MiddleAgesState

__all__ = ["MiddleAges", "MiddleAgesState"]
