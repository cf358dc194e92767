"""Test helpers: a real server on 127.0.0.1 (uvicorn in a thread, or a separate process) and
scripted clients that keep every message they receive."""

from __future__ import annotations

import asyncio
import json
import os
import re
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import uvicorn
import websockets

from builders.core.record import replay

ROOT = Path(__file__).resolve().parents[2]


#: the ports this test process hands out: its own block, below the kernel's ephemeral ports (32768 and
#: up), so that neither another pytest-xdist worker nor an outgoing connection takes a port between
#: ``free_port()`` and the bind of the server it is for (a server that answers a test's first request
#: and is then stopped by another test: "connection refused" in the middle of a game)
_PORT_BLOCK = 1500
_PORT_BASE = 20000 + _PORT_BLOCK * (int(os.environ.get("PYTEST_XDIST_WORKER", "gw0").lstrip("gw") or 0) % 8)
#: where in the block this process starts: two test runs side by side (not workers of one run) then
#: rarely meet on a port
_next_port = [os.getpid() * 37 % _PORT_BLOCK]


def free_port() -> int:
    """A loopback port nothing listens on, from this test process's own block, each handed out once
    before the block wraps around."""
    for _ in range(_PORT_BLOCK):
        port = _PORT_BASE + _next_port[0] % _PORT_BLOCK
        _next_port[0] += 1
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise RuntimeError(f"no free port from {_PORT_BASE} to {_PORT_BASE + _PORT_BLOCK - 1}")


class ThreadServer:
    """``app`` served by uvicorn in a background thread."""

    def __init__(self, app):
        self.app = app
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.ws_url = f"ws://127.0.0.1:{self.port}"
        config = uvicorn.Config(
            app, host="127.0.0.1", port=self.port, log_level="warning", ws_max_size=64 * 1024, lifespan="on"
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def __enter__(self) -> ThreadServer:
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the test server did not start")
            time.sleep(0.02)
        return self

    def __exit__(self, *exc) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=20)


class ProcessServer:
    """``python -m builders.server`` in its own process (killed with SIGKILL by :meth:`kill`)."""

    def __init__(
        self,
        db_url: str,
        port: int | None = None,
        bot_delay: float = 0.0,
        log_path: Path | None = None,
        quiet: bool = True,
    ):
        self.quiet = quiet
        self.db_url = db_url
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.ws_url = f"ws://127.0.0.1:{self.port}"
        self.bot_delay = bot_delay
        self.log_path = log_path
        self.proc: subprocess.Popen | None = None

    def start(self, timeout: float = 30.0) -> ProcessServer:
        env = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
        out = open(self.log_path, "ab") if self.log_path else subprocess.DEVNULL
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "builders.server",
                "--host",
                "127.0.0.1",
                "--port",
                str(self.port),
                "--db",
                self.db_url,
                "--bot-delay",
                str(self.bot_delay),
                *(["--quiet"] if self.quiet else []),
            ],
            stdout=out,
            stderr=out,
            env=env,
        )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the server exited with {self.proc.returncode}")
            try:
                if httpx.get(self.url + "/api/games", timeout=1).status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        self.kill()
        raise RuntimeError("the server did not answer")

    def children(self) -> list[int]:
        """The processes this server started (its bot workers)."""
        out = []
        for entry in Path("/proc").iterdir():
            if entry.name.isdigit():
                try:
                    stat = (entry / "stat").read_text()
                except OSError:
                    continue
                if int(stat.rsplit(")", 1)[1].split()[1]) == self.proc.pid:
                    out.append(int(entry.name))
        return out

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()  # SIGKILL
            self.proc.wait(timeout=10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)


class SocketClient:
    """One WebSocket client of a game; ``messages`` holds everything it received, parsed."""

    def __init__(self, ws_url: str, game_id: str, token: str | None):
        self.url = f"{ws_url}/ws/games/{game_id}"
        self.token = token
        self.messages: list[dict[str, Any]] = []
        self.raw: list[str] = []
        self.ws = None
        self.latest: dict[str, Any] | None = None

    async def __aenter__(self) -> SocketClient:
        self.ws = await websockets.connect(self.url, max_size=2**24)
        await self.send({"type": "hello", "token": self.token})
        await self.state()
        return self

    async def __aexit__(self, *exc) -> None:
        await self.ws.close()

    async def send(self, message: Any) -> None:
        await self.ws.send(message if isinstance(message, (str, bytes)) else json.dumps(message))

    async def receive(self, timeout: float = 10.0) -> dict[str, Any]:
        raw = await asyncio.wait_for(self.ws.recv(), timeout)
        self.raw.append(raw)
        msg = json.loads(raw)
        self.messages.append(msg)
        if msg.get("type") == "state":
            self.latest = msg
        return msg

    async def state(self, min_version: int = -1, timeout: float = 10.0) -> dict[str, Any]:
        """The next state message at ``min_version`` or later (the latest already received counts)."""
        deadline = time.monotonic() + timeout
        if self.latest is not None and self.latest["version"] >= min_version and min_version >= 0:
            return self.latest
        while True:
            msg = await self.receive(max(0.01, deadline - time.monotonic()))
            if msg["type"] == "state" and msg["version"] >= min_version:
                return msg

    async def error(self, timeout: float = 10.0) -> dict[str, Any]:
        while True:
            msg = await self.receive(timeout)
            if msg["type"] == "error":
                return msg


# -- hidden information ------------------------------------------------------------------------------
FORBIDDEN_KEYS = {"deck", "building_deck", "worker_deck", "setup", "seed", "token", "token_sha", "history"}


def keys_of(value: Any) -> set[str]:
    """Every key of every object in ``value``, however deep."""
    out: set[str] = set()
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            out.update(item)
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return out


_CARD = re.compile(r"\b[WBM]\d{1,2}\b")


def check_hidden(record: dict[str, Any], seat: int | None, raw: str) -> None:
    """Check that ``raw`` (a state message or view as JSON text) given to ``seat`` (None: spectator)
    holds nothing hidden from it at that moment: no deck, no other player's hidden terrain card, no
    card of a hidden deck (The Builders). ``record`` is the game's full record, taken at the end."""
    msg = json.loads(raw)
    assert not (keys_of(msg) & FORBIDDEN_KEYS), keys_of(msg) & FORBIDDEN_KEYS
    state = state_at(record, msg["log"])
    assert msg["actions"] == len(msg["log"]) == len(state.player_actions())
    assert msg["turn"] == state.turn
    if record["game"] == "kingdom":
        from builders.kingdom.data import TERRAINS

        to_move = None if state.is_over() else state.current_player
        for q, player in enumerate(msg["view"]["players"]):
            mine = q == seat
            public = q == to_move
            if mine or public:
                expect = TERRAINS[state.hand[q]] if state.hand[q] >= 0 else None
                assert player["terrain"] == expect
            else:
                assert player["terrain"] is None, (seat, q, player["terrain"])
        assert msg["view"]["deck_count"] == len(state.deck)
    else:
        from builders.middle_ages.cards import IDS

        hidden = {IDS[c] for c in state.wdeck} | {IDS[c] for c in state.bdeck[:-1]}
        shown = set(_CARD.findall(raw))
        normalized = {_norm(c) for c in shown}
        leaked = normalized & hidden
        assert not leaked, f"hidden cards {sorted(leaked)} sent to seat {seat}"


def state_at(record: dict[str, Any], log: list[dict[str, Any]]):
    """The full state a message was made from: the actions of its log, with the draws of the final
    record while the two agree. Actions later undone drew nothing (no undo across a draw)."""
    from builders.core.record import steps

    cache = _STATES.setdefault(json.dumps(record["setup"], sort_keys=True), {})
    final = list(steps(record["history"]))
    key = tuple(entry["action"] for entry in log)
    found = cache.get(key)
    if found is not None:
        return found
    start = max(len(key) - 1, 0)
    while start > 0 and key[:start] not in cache:
        start -= 1
    state = cache[key[:start]].copy() if key[:start] in cache else replay({**record, "history": []})
    for i in range(start, len(key)):
        same = i < len(final) and all(final[j][0] == key[j] for j in range(i + 1))
        state.forced = list(final[i][1]) if same else []
        state.apply(state.parse_action(key[i]))
        assert not state.forced
        if record["game"] == "kingdom":
            check_kingdom_entry(state, log[i], final[i][1] if same else [])
        cache[key[: i + 1]] = state.copy()
    cache[key] = state
    return state


_STATES: dict[str, dict[tuple, Any]] = {}


def _norm(card: str) -> str:
    return card if card[0] == "M" else f"{card[0]}{int(card[1:]):02d}"


def check_kingdom_entry(state, entry: dict[str, Any], outcomes: list[str]) -> None:
    """Every terrain a Kingdom Builder log line names was public when it happened: the card of the
    player whose turn starts, or a card drawn by the player to move. The card a player draws at the
    end of the turn stays out of the log. ``state`` is the state after the entry's action."""
    from builders.kingdom.data import TERRAINS

    named = [t for t in TERRAINS if re.search(rf"\b{t}\b", entry["text"])]
    if entry["action"] == "end":
        allowed = set()
        if not state.is_over() and state.hand[state.current_player] >= 0:
            allowed.add(TERRAINS[state.hand[state.current_player]])
    else:
        allowed = set(outcomes)
    assert set(named) <= allowed, (entry, outcomes)


class SlowAgent:
    """A bot that thinks for ``seconds`` of pure CPU before playing the first legal action."""

    name = "slow"

    def __init__(self, seconds: float):
        self.seconds = seconds

    def act(self, state):
        end = time.process_time() + self.seconds
        x = 0
        while time.process_time() < end:
            x += 1
        return state.legal_actions()[0]


def slow_agent(game: str, level: str, seed: int) -> SlowAgent:
    return SlowAgent(2.0)


def illegal_action(game: str, legal: list[str]) -> str:
    """A well-formed action that is not legal now."""
    if game == "kingdom":
        candidates = [f"build {r},{c}" for r in range(20) for c in range(20)]
    else:
        candidates = [f"recruit W{n:02d}" for n in range(1, 43)] + [f"open B{n:02d}" for n in range(1, 35)]
    return next(a for a in candidates if a not in legal)
