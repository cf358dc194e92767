"""benchmarks/server_service.py: the games are played through the service in process, and with
``--follow`` a second service on the same database takes in every change as another server process
does, its socket getting the position the acting service is at."""

from __future__ import annotations

import asyncio
import importlib.util
import random
import subprocess
import sys
from pathlib import Path

import orjson

from builders.server.bots import BotRunner
from builders.server.games import GameService
from builders.server.store import Store

_SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "server_service.py"


def _bench():
    spec = importlib.util.spec_from_file_location("server_service", _SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_follower_s_socket_sees_every_action_played_along(tmp_path):
    bench = _bench()
    url = f"sqlite:///{tmp_path / 'games.sqlite3'}"
    store = Store(url)
    service = GameService(store, BotRunner("inline"), bot_delay=0)
    follower, relay = bench.follower_of(service, store, url)
    tables = bench.open_games(service, 4, 1, follower)
    done, acting, followed = asyncio.run(bench.play(service, tables, 120, random.Random(1), relay))
    assert done == 120 and acting > 0 and followed > 0
    assert sum(live.version for live, _ in tables) == 120
    for live, (here, there) in tables:
        copy = follower.live[live.id]
        assert copy is not live and copy.version == live.version and copy.steps == live.steps
        mine, theirs = orjson.loads(here.last), orjson.loads(there.last)
        assert (mine["seat"], theirs["seat"]) == (0, 1)
        assert mine["version"] == theirs["version"] == live.version
        assert theirs["view"] == service.view(live, 1)["view"] and theirs["log"] == mine["log"]
    store.close()
    follower.store.close()


def test_the_script_reports_the_cpu_of_both_services():
    out = subprocess.run(
        [sys.executable, str(_SCRIPT), "--games", "4", "--actions", "60", "--follow"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert out.returncode == 0, out.stderr
    line = out.stdout.strip().splitlines()[-1]
    assert line.startswith("60 actions, ") and "(the acting service)" in line and "(the follower)" in line
