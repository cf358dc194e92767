"""The registry of games, by name: the games' plugins (:mod:`builders.core.plugins`)."""

from __future__ import annotations

import os
from importlib import import_module
from typing import Any

from builders.core.errors import BuildersError
from builders.core.plugins import plugin, plugins
from builders.core.state import Game


#: the engines a game can run on (``BUILDERS_CORE``): the Python engines, or the native (C++) core
CORES = ("python", "native")


class CoreError(BuildersError, ValueError):
    """A ``BUILDERS_CORE`` that cannot be had: an unknown value, or the native core not built."""


#: the core a game runs on when ``BUILDERS_CORE`` is unset: the native one when it is built
DEFAULT_CORE = "native"


def core_setting() -> str | None:
    """The core asked for by the environment variable ``BUILDERS_CORE`` ("python" or "native"), or
    None when it is unset (each game then runs on ``DEFAULT_CORE`` if it can)."""
    value = os.environ.get("BUILDERS_CORE", "").strip()
    if not value:
        return None
    if value not in CORES:
        raise CoreError(f"BUILDERS_CORE must be python or native, not {value!r}")
    return value


def native_wanted(built: bool) -> bool:
    """Whether a game runs on the native core (``built``: whether its native core is there):
    ``BUILDERS_CORE=python`` says no, ``native`` yes (CoreError if it is not built), and unset the
    default core when it is built."""
    setting = core_setting()
    if setting == "python":
        return False
    if setting == "native":
        if not built:
            raise CoreError("BUILDERS_CORE=native, but the native core is not built (make native)")
        return True
    return built and DEFAULT_CORE == "native"


def on_python(state: Any) -> Any:
    """``state`` on the Python engine: itself, or the Python copy of a native state (``to_python``).
    The bots read many fields of every position they value, which the Python engine's states hold
    as plain attributes: they plan on it and play the same actions on either core."""
    to_python = getattr(state, "to_python", None)
    return state if to_python is None else to_python()


def native_built() -> bool:
    """Whether the native core (the module ``builders_native``, of every game that has one) is installed."""
    try:
        import_module("builders_native")
    except ImportError:
        return False
    return True


def core_name() -> str:
    """The core the games with a native core run on now: "native" or "python" (CoreError for a bad
    ``BUILDERS_CORE``; "python" when it asks for a native core that is not built)."""
    return "native" if native_built() and native_wanted(True) else "python"


def game_names(having: str | None = None) -> list[str]:
    """The names of the registered games, in registration order; with ``having`` (a part of the plugin:
    "rl", "ai"...), of those that have it."""
    return [p.name for p in plugins() if having is None or getattr(p, having) is not None]


def get_game(name: str) -> Game:
    """A new :class:`Game` of the game registered as ``name`` (RecordError for an unknown game)."""
    game: Game = plugin(name).load("game")()
    return game
