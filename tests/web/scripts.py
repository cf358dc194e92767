"""The web client's scripts as the server serves them: the shared modules of ``builders/web/static`` (at
``/static/``) and the web files of each installed game (its plugin's ``web_dir``, at
``/static/games/<name>/``)."""

from __future__ import annotations

from importlib.metadata import entry_points
from pathlib import Path

from builders.core.plugins import GROUP, GamePlugin
from builders.web import STATIC_DIR


def installed() -> list[GamePlugin]:
    """The plugins of the installed games (the entry points of ``builders.games``; not a test's own game)."""
    return [point.load() for point in entry_points(group=GROUP)]


def game_folders() -> dict[str, Path]:
    """The web folder of each installed game that has one, by the game's name."""
    return {p.name: Path(p.web_folder()) for p in installed() if p.web_dir is not None}


def scripts() -> dict[str, Path]:
    """Every script of the client by the path it is served at: the shared modules, then the games'."""
    out = {f"/static/{path.name}": path for path in sorted(STATIC_DIR.glob("*.js"))}
    for name, folder in game_folders().items():
        out.update({f"/static/games/{name}/{path.name}": path for path in sorted(folder.glob("*.js"))})
    return out


def game_script(file: str) -> Path:
    """The game script named ``file`` (``kingdom.js``), in whichever game's folder holds it."""
    found = [folder / file for folder in game_folders().values() if (folder / file).is_file()]
    assert len(found) == 1, f"{file} is in {len(found)} games' folders"
    return found[0]
