"""The games as plugins: one registration per game brings everything the rest of the package needs.

A game registers a :class:`GamePlugin` in the entry point group ``builders.games`` (in the
``pyproject.toml`` of the package it lives in)::

    [project.entry-points."builders.games"]
    <name> = "<package>.plugin:PLUGIN"

The plugin names each part of the game as a ``"module:attr"`` string, imported only when a layer
asks for it (:func:`load`): the server loads the view and the setup schema, the bots the AI kit,
the research kit the RL kit, so that a layer never imports a part of another layer, and no module
outside a game's own files names a game. :func:`register` adds a plugin directly (a game that is
not installed, such as the one the tests ship).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from importlib import import_module
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any

from builders.core.errors import RecordError

#: the entry point group the games register in
GROUP = "builders.games"


@dataclass(frozen=True)
class GamePlugin:
    """Everything the layers above the games need of one game (each part a ``"module:attr"``)."""

    #: the registry name (``GameState.GAME``, the server's ``game``, record files)
    name: str
    #: the name people read
    title: str
    #: the :class:`~builders.core.state.Game` subclass
    game: str
    #: the :class:`~builders.core.view.GameView` instance
    view: str
    #: a pydantic model of the server's ``setup`` choices beyond ``seed`` (their names are the
    #: keyword arguments of the view's ``setup``); None: a seed is the only choice
    setup_schema: str | None = None
    #: the AI kit (``builders.ai.kit.AiKit``): evaluation, planner, move ordering, turn budget...;
    #: None: the generic agents play it with the kit's defaults
    ai: str | None = None
    #: the RL kit (``builders.rl.kit.RlKit``): the encoding of observations and actions
    rl: str | None = None
    #: the profile's statistics of a finished game: ``favourites(setup, steps, seats)``, the cards
    #: the game adds to the favourite cards of the player of ``seats`` (``steps()``: the game's
    #: stored steps, each with ``seat`` and ``action``), by ids its lobby module names (``web_lobby``'s
    #: ``favouriteName``); None: the game adds none
    profile: str | None = None
    #: the web client's table module of the game: a file of its ``web_dir``, named by the path the server
    #: serves it at under ``/static/`` (``games/<name>/<file>``); it exports the game's table class as ``Table``
    web_table: str = ""
    #: the web client's guide of the game (as ``web_table``): exports ``FIRST_STEPS`` (the walkthrough of a
    #: first game), ``GAME_STEPS`` (the guide of any other game) and ``FIRST_SETUP`` (the setup of a first
    #: game, or null); "": the game has no guide
    web_guide: str = ""
    #: the rules page's part of the game (as ``web_table``): exports ``rules()``, the game's rules as an
    #: element whose id is the game's name, and optionally ``shortTitle()`` (its name on the page's links)
    #: and ``guideLabel()`` (the button that starts a first game with its guide); "": the page names the
    #: game and says its rules are not there
    web_rules: str = ""
    #: the lobby's part of the game (as ``web_table``): exports, each optional, ``blurb()`` (a line on what
    #: the game is), ``art()`` (its picture in the game choice), ``setupForm(seed)`` (the form of its
    #: setup choices: ``{element, read(seed)}``, see docs/architecture.md) and ``favouriteName(id)`` (one
    #: of ``profile``'s cards in words on a profile, "" for an id not the game's); "": the lobby offers
    #: the game by its title, with a seed as its only choice, and a profile shows its cards as they come
    web_lobby: str = ""
    #: the game's stylesheet (as ``web_table``: a file of its ``web_dir``), which every page of the web client
    #: loads after the shared ``style.css``; "": the game has no styles of its own
    web_style: str = ""
    #: the game's colour in the web client (its line on a player's rating chart), a CSS colour; "": one
    #: of the palette's
    colour: str = ""
    #: a package whose folder holds the game's web files (its web modules and the modules they import;
    #: they import the shared client's from ``/static/``): the server serves them at ``/static/games/<name>/``
    web_dir: str | None = None
    #: ``register(app)``: adds the game's commands to the ``builders`` command (a typer app)
    commands: str | None = None
    #: ``run(runs, games, echo)``: the game's speed benchmark (``builders bench <name>``)
    bench: str | None = None
    #: whether the game has a native core (in the module ``builders_native``): its games run on the core
    #: ``BUILDERS_CORE`` asks for (:func:`builders.core.games.core_name`), else on its Python engine
    native: bool = False
    #: ``run(runs, games, echo)``: the game's native core beside its Python engine (``builders bench
    #: native``; ``games``: the two-player games of a run on the Python engine's side, as the game reads it)
    native_bench: str | None = None
    #: the modules of other layers that belong to the game (its AI and RL kits, its commands)
    modules: tuple[str, ...] = field(default=())

    def web_folder(self) -> str:
        """The folder of the package ``web_dir``."""
        if self.web_dir is None:
            raise ValueError(f"{self.name} has no web files of its own")
        module = import_module(self.web_dir)
        return str(Path(module.__file__ or "").parent)

    def load(self, part: str) -> Any:
        """The object named by the part ``part`` (``"view"``, ``"ai"``...), or None when unset."""
        ref = getattr(self, part)
        return None if ref is None else load(ref)


_PLUGINS: dict[str, GamePlugin] = {}
_found = False


def load(ref: str) -> Any:
    """The object a ``"module:attr"`` string names (``attr`` may be dotted)."""
    module, _, attr = ref.partition(":")
    obj: Any = import_module(module)
    for name in attr.split(".") if attr else ():
        obj = getattr(obj, name)
    return obj


def _discover() -> None:
    """Load the plugins of the entry point group once (a plugin that cannot be loaded raises, and the
    next call tries again)."""
    global _found
    if _found:
        return
    found = []
    for point in entry_points(group=GROUP):
        plugin = point.load()
        if not isinstance(plugin, GamePlugin):
            raise TypeError(f"entry point {point.name} of {GROUP} is not a GamePlugin")
        if point.name != plugin.name:
            raise ValueError(f"entry point {point.name} of {GROUP} registers the game {plugin.name!r}")
        found.append(plugin)
    registered = dict(_PLUGINS)
    _PLUGINS.clear()
    _PLUGINS.update({p.name: p for p in found})
    for name, plugin in registered.items():  # those registered directly come after the installed ones
        _PLUGINS.setdefault(name, plugin)
    _found = True


def register(plugin: GamePlugin) -> None:
    """Add ``plugin`` to the registry (again: no change); ValueError if another holds its name."""
    _discover()
    held = _PLUGINS.get(plugin.name)
    if held is not None and held != plugin:
        raise ValueError(f"a game named {plugin.name!r} is registered already")
    _PLUGINS[plugin.name] = plugin
    part.cache_clear()


def unregister(name: str) -> None:
    """Remove the game ``name`` from the registry (a test's own game, when it is done)."""
    _PLUGINS.pop(name, None)
    part.cache_clear()


def plugins() -> list[GamePlugin]:
    """The registered games' plugins, in registration order."""
    _discover()
    return list(_PLUGINS.values())


def plugin(name: str) -> GamePlugin:
    """The plugin of the game ``name``; RecordError for an unknown game."""
    _discover()
    try:
        return _PLUGINS[name]
    except KeyError:
        raise RecordError(f"unknown game {name!r}; the games are {', '.join(_PLUGINS)}") from None


@cache
def part(name: str, which: str) -> Any:
    """The part ``which`` of the game ``name``'s plugin, loaded once (None when the game has none)."""
    return plugin(name).load(which)
