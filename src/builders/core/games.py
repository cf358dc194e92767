"""The registry of games, by name: the games' plugins (:mod:`builders.core.plugins`)."""

from __future__ import annotations

import os

from builders.core.errors import BuildersError
from builders.core.plugins import plugin, plugins
from builders.core.state import Game


#: the engines a game can run on (``BUILDERS_CORE``): the Python engines, or the native (C++) core
CORES = ("python", "native")


class CoreError(BuildersError, ValueError):
    """A ``BUILDERS_CORE`` that cannot be had: an unknown value, or the native core not built."""


def core_setting() -> str | None:
    """The core asked for by the environment variable ``BUILDERS_CORE`` ("python" or "native"), or
    None when it is unset (each game then runs on its default core)."""
    value = os.environ.get("BUILDERS_CORE", "").strip()
    if not value:
        return None
    if value not in CORES:
        raise CoreError(f"BUILDERS_CORE must be python or native, not {value!r}")
    return value


def native_wanted(built: bool) -> bool:
    """Whether ``BUILDERS_CORE`` asks for the native core (``built``: whether the game's native core
    is there); CoreError if it asks for it and it is not built."""
    if core_setting() != "native":
        return False
    if not built:
        raise CoreError("BUILDERS_CORE=native, but the native core is not built (make native)")
    return True


def game_names() -> list[str]:
    """The names of the registered games."""
    return [p.name for p in plugins()]


def get_game(name: str) -> Game:
    """A new :class:`Game` of the game registered as ``name`` (RecordError for an unknown game)."""
    game: Game = plugin(name).load("game")()
    return game
