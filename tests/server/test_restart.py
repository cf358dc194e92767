"""Nothing lost: a server process killed with SIGKILL in the middle of games resumes every game at its
last accepted action, and its bots go on playing (real processes, a SQLite file)."""

from __future__ import annotations

import time
from pathlib import Path

import httpx
import pytest

from tests.server.helpers import ProcessServer


def post(url, path, token=None, **body):
    headers = {"X-Seat-Token": token} if token else {}
    r = httpx.post(url + path, json=body or None, headers=headers, timeout=10)
    assert r.status_code in (200, 201), r.text
    return r.json()


def get_state(url, gid, token=None):
    headers = {"X-Seat-Token": token} if token else {}
    r = httpx.get(f"{url}/api/games/{gid}/state", headers=headers, timeout=10)
    assert r.status_code == 200, r.text
    return r.json()


def wait_for(predicate, timeout=30.0, what="the condition"):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.05)
    pytest.fail(f"timed out waiting for {what}")


def _cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().decode(errors="replace")
    except OSError:
        return ""


def test_sigkill_and_restart(tmp_path):
    db = f"sqlite:///{tmp_path / 'games.sqlite3'}"
    log_path = tmp_path / "server.log"
    # first life: bots wait a long time before moving, so a bot's turn is pending at the kill
    first = ProcessServer(db, bot_delay=600, log_path=log_path, quiet=False).start()
    try:
        url = first.url
        # A: a person against a bot; the person ends a turn, the bot is to move
        a = post(url, "/api/games", game="middle-ages", seats=[{"type": "human"}, {"type": "bot", "level": "easy"}])
        ta = a["seats"][0]["token"]
        for action in ("coins 1", "coins 1", "coins 1", "end"):
            post(url, f"/api/games/{a['id']}/actions", ta, action=action)
        # B: two people in The Builders, with an undo
        b = post(url, "/api/games", game="middle-ages", seats=[{"type": "human"}, {"type": "human"}])
        tb = [s["token"] for s in b["seats"]]
        view = get_state(url, b["id"], tb[0])
        for i in range(12):
            seat = view["to_move"]
            view = post(url, f"/api/games/{b['id']}/actions", tb[seat], action=view["legal"][i % len(view["legal"])])
            view = get_state(url, b["id"], tb[view["to_move"]])
        if view["can_undo"]:
            view = post(url, f"/api/games/{b['id']}/undo", tb[view["to_move"]])
        # C: Kingdom Builder, two people; killed in the middle of seat 1's turn, right after an
        # accepted action
        c = post(url, "/api/games", game="kingdom", seats=[{"type": "human"}, {"type": "human"}])
        tc = [s["token"] for s in c["seats"]]
        cview = get_state(url, c["id"], tc[0])
        while "end" not in cview["legal"]:
            cview = post(url, f"/api/games/{c['id']}/actions", tc[0], action=cview["legal"][0])
        post(url, f"/api/games/{c['id']}/actions", tc[0], action="end")
        turn_start = get_state(url, c["id"], tc[1])
        before = {
            "a": get_state(url, a["id"], ta),
            "b": [get_state(url, b["id"], t) for t in tb],
            "b_spectator": get_state(url, b["id"]),
        }
        assert before["a"]["to_move"] == 1 and before["a"]["version"] == 4
        last = post(url, f"/api/games/{c['id']}/actions", tc[1], action=turn_start["legal"][0])
        first.kill()  # SIGKILL, no goodbye
    finally:
        first.kill()
    assert first.proc.returncode == -9
    # the server logged the requests, never a seat token
    logged = log_path.read_text(encoding="utf-8", errors="replace")
    assert "/api/games" in logged
    for token in [ta, *tb, *tc]:
        assert token not in logged

    second = ProcessServer(db, bot_delay=0, log_path=log_path).start()
    try:
        url = second.url
        # every game is back at its last accepted action
        assert [get_state(url, b["id"], t) for t in tb] == before["b"]
        assert get_state(url, b["id"]) == before["b_spectator"]
        assert get_state(url, c["id"], tc[1]) == last
        # undo still works after the restart (the turn's start is rebuilt from the record)
        if last["can_undo"]:
            undone = post(url, f"/api/games/{c['id']}/undo", tc[1])
            assert undone["view"] == turn_start["view"] and undone["legal"] == turn_start["legal"]
        # the bot of game A takes its turn now
        after_a = wait_for(
            lambda: (lambda v: v if v["to_move"] == 0 and v["version"] > 4 else None)(get_state(url, a["id"], ta)),
            what="the bot to play its turn",
        )
        assert any(entry["seat"] == 1 for entry in after_a["log"])
        assert after_a["log"][:4] == before["a"]["log"]
        # D: a game of bots, killed while they play
        d = post(url, "/api/games", game="kingdom", seats=[{"type": "bot", "level": "easy"}] * 2)
        seen = wait_for(
            lambda: (lambda v: v if v["version"] >= 10 else None)(get_state(url, d["id"])), what="the bots to play"
        )
        workers = second.children()
        assert workers, "the bots played in a worker process"
        second.kill()
    finally:
        second.kill()
    # the bot workers do not outlive the killed server
    wait_for(
        lambda: not any(Path(f"/proc/{pid}").exists() and "spawn" in _cmdline(pid) for pid in workers),
        timeout=10,
        what="the bot workers to exit",
    )

    third = ProcessServer(db, bot_delay=0, log_path=log_path).start()
    try:
        url = third.url
        resumed = get_state(url, d["id"])
        assert resumed["version"] >= seen["version"]
        assert resumed["log"][: len(seen["log"])] == seen["log"]
        wait_for(lambda: get_state(url, d["id"])["status"] == "finished", timeout=60, what="the bots to finish")
        record = httpx.get(f"{url}/api/games/{d['id']}/record", timeout=10).json()
        from builders.core.record import replay

        assert replay(record).is_over()
        games = httpx.get(f"{url}/api/games", timeout=10).json()
        assert {g["id"] for g in games} >= {a["id"], b["id"], c["id"], d["id"]}
    finally:
        third.stop()
