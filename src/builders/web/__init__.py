"""The browser client: static pages (HTML, CSS, JavaScript modules, SVG) served by the game server.

``STATIC_DIR`` is the folder the server mounts under ``/static/``; ``index.html`` is the lobby,
``play.html`` the table and ``replay.html`` the replay viewer.
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["STATIC_DIR", "INDEX_HTML", "PLAY_HTML", "REPLAY_HTML"]

STATIC_DIR: Path = Path(__file__).resolve().parent / "static"
INDEX_HTML: Path = STATIC_DIR / "index.html"
PLAY_HTML: Path = STATIC_DIR / "play.html"
REPLAY_HTML: Path = STATIC_DIR / "replay.html"
