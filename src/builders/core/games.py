"""The registry of games, by name."""

from __future__ import annotations

from importlib import import_module

from builders.core.errors import RecordError
from builders.core.state import Game

_GAMES = {
    "kingdom": ("builders.kingdom.game", "KingdomBuilder"),
    "middle-ages": ("builders.middle_ages.game", "MiddleAges"),
}


def game_names() -> list[str]:
    return list(_GAMES)


def get_game(name: str) -> Game:
    try:
        module, cls = _GAMES[name]
    except KeyError:
        raise RecordError(f"unknown game {name!r}; the games are {', '.join(_GAMES)}") from None
    return getattr(import_module(module), cls)()
