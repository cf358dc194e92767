"""Pig as a plugin: what ``builders.core.plugins.register`` takes (tests/thirdgame/conftest.py)."""

from __future__ import annotations

from builders.core.plugins import GamePlugin

PLUGIN = GamePlugin(
    name="pig",
    title="Pig",
    game="tests.thirdgame.game:Pig",
    view="tests.thirdgame.view:VIEW",
    setup_schema="tests.thirdgame.schema:PigSetup",
    ai="tests.thirdgame.ai:KIT",
    rl="tests.thirdgame.rl:KIT",
    profile="tests.thirdgame.profile:favourites",
    web_table="games/pig/pig.js",
    web_rules="games/pig/pig_rules.js",
    web_lobby="games/pig/pig_lobby.js",
    colour="#c0398f",
    web_dir="tests.thirdgame.web",
)
