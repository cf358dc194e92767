"""Pig where the games are listed: the server's game types (what the web client learns of each game) and
the command line's version line, with Pig registered and no line outside its package naming it."""

from __future__ import annotations

import httpx
from typer.testing import CliRunner

from builders.cli import app


def test_the_game_types_list_pig_with_its_web_modules(server):
    with httpx.Client(base_url=server.url, timeout=10) as api:
        types = api.get("/api/game-types").json()
        assert [t["name"] for t in types] == ["kingdom", "middle-ages", "pig"]
        assert types[2] == {
            "name": "pig",
            "title": "Pig",
            "table": "games/pig/pig.js",
            "guide": "",
            "rules": "games/pig/pig_rules.js",
            "lobby": "games/pig/pig_lobby.js",
            "style": "",  # no stylesheet of its own: the shared one alone
            "colour": "#c0398f",
            "min_players": 2,
            "max_players": 4,
        }
        for module in ("table", "rules", "lobby"):
            assert api.get(f"/static/{types[2][module]}").status_code == 200, module


def test_the_version_line_names_pig_on_the_python_engine(monkeypatch):
    runner = CliRunner()
    monkeypatch.delenv("BUILDERS_CORE", raising=False)
    result = runner.invoke(app, ["--version"])
    assert result.exit_code == 0
    assert result.output.endswith(
        ": Kingdom Builder and The Builders: Middle Ages on the native core, Pig on the "
        "Python engine (native core built)\n"
    )
    monkeypatch.setenv("BUILDERS_CORE", "python")
    result = runner.invoke(app, ["--version"])
    assert result.output.endswith(
        ": Kingdom Builder, The Builders: Middle Ages and Pig on the Python engine (native core built)\n"
    )
