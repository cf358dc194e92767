"""The registry of games as plugins: the installed entry points, direct registration, lazy parts."""

from __future__ import annotations

from importlib.metadata import entry_points

import pytest

from builders.core import plugins
from builders.core.errors import RecordError
from builders.core.view import GameView


def test_the_two_games_are_installed_entry_points_with_their_parts():
    points = {p.name: p.value for p in entry_points(group=plugins.GROUP)}
    assert points == {"kingdom": "builders.kingdom.plugin:PLUGIN", "middle-ages": "builders.middle_ages.plugin:PLUGIN"}
    assert [p.name for p in plugins.plugins()][:2] == ["kingdom", "middle-ages"]
    for name in points:
        plugin = plugins.plugin(name)
        assert isinstance(plugin.load("view"), GameView) and plugin.load("game")().name == name
        assert plugins.part(name, "ai") is plugins.part(name, "ai")  # loaded once


def test_a_plugin_registered_directly_and_its_parts_loaded_when_asked():
    toy = plugins.GamePlugin(name="toy", title="Toy", game="tests.core.toy:ToyGame", view="no.such.module:VIEW")
    plugins.register(toy)
    try:
        plugins.register(toy)  # again: no change
        assert plugins.plugin("toy") is toy and plugins.part("toy", "ai") is None
        with pytest.raises(ValueError) as e:
            plugins.register(plugins.GamePlugin(name="toy", title="Other", game="x:Y", view="x:V"))
        assert str(e.value) == "a game named 'toy' is registered already"
        with pytest.raises(ModuleNotFoundError):
            plugins.part("toy", "view")  # a part is imported only when asked for
    finally:
        plugins.unregister("toy")
    with pytest.raises(RecordError) as e:
        plugins.plugin("toy")
    assert str(e.value) == "unknown game 'toy'; the games are kingdom, middle-ages"


def test_load_reads_dotted_attributes():
    assert plugins.load("builders.core.plugins:GamePlugin.load") is plugins.GamePlugin.load
    assert plugins.load("builders.core.plugins") is plugins
