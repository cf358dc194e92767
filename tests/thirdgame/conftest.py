"""Pig is registered as a plugin for each test module of this package (and removed after it, so that no
other test sees a third game)."""

from __future__ import annotations

import pytest

from builders.core import plugins
from tests.thirdgame.plugin import PLUGIN


@pytest.fixture(scope="module", autouse=True)
def pig_registered():
    plugins.register(PLUGIN)
    yield PLUGIN
    plugins.unregister(PLUGIN.name)


@pytest.fixture(scope="module")
def server(tmp_path_factory, pig_registered):
    """A server whose bots (the project's, through Pig's AI kit) move at once, on 127.0.0.1, Pig among its
    games."""
    from builders.server.bots import make_agent
    from tests.server.conftest import make_app
    from tests.server.helpers import ThreadServer

    with ThreadServer(make_app(tmp_path_factory.mktemp("server"), bot_factory=make_agent)) as srv:
        yield srv
