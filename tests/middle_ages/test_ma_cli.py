"""The ``builders middle-ages`` commands, run as a user runs them (exit codes, one-line errors)."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

BIN = Path(sys.executable).with_name("builders")


def run(*args):
    p = subprocess.run([str(BIN), "middle-ages", *map(str, args)], capture_output=True, text=True, timeout=60)
    return p.returncode, p.stdout, p.stderr


@pytest.fixture(scope="module")
def record(tmp_path_factory):
    path = tmp_path_factory.mktemp("ma") / "game.json"
    code, out, err = run("random-game", "--players", 2, "--seed", 7, "--out", path)
    assert code == 0 and err == ""
    assert out.startswith(f"wrote {path}: 2 players, ")
    return path


def test_random_game_is_seeded(record, tmp_path):
    again = tmp_path / "again.json"
    assert run("random-game", "--players", 2, "--seed", 7, "--out", again)[0] == 0
    assert again.read_text() == record.read_text()
    data = json.loads(record.read_text())
    assert data["game"] == "middle-ages" and data["format"] == 1 and data["setup"]["seed"] == 7


def test_score_and_replay(record):
    data = json.loads(record.read_text())
    code, out, err = run("score", record)
    assert code == 0 and json.loads(out) == data["result"]
    assert set(json.loads(out)["players"][0]["breakdown"]) == {"buildings", "machines", "coins"}
    code, out, err = run("replay", record, "--until", 1)
    j = json.loads(out)
    assert code == 0 and j["turn"] == 0 and j["actions_left"] in (2, 3, 4)


def test_show(record):
    code, out, err = run("show", record, "--until", 30)
    assert code == 0 and "The Builders: Middle Ages" in out and "sites (got/needed)" in out
    code, out, err = run("show", record)
    assert code == 0 and "game over" in out and "Score" in out


def test_errors(tmp_path, record):
    missing = tmp_path / "missing.json"
    assert run("score", missing) == (2, "", f"error: no such file: {missing}\n")
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    assert run("replay", bad) == (
        2,
        "",
        f"error: {bad} is not valid JSON: Expecting property name enclosed in double quotes at line 1, column 2\n",
    )
    other = tmp_path / "kingdom.json"
    other.write_text(json.dumps({"game": "kingdom", "format": 1, "setup": {}, "history": []}))
    assert run("replay", other) == (2, "", "error: this is a record of 'kingdom', not of 'middle-ages'\n")
    data = json.loads(record.read_text())
    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps(dict(data, setup=dict(data["setup"], players=7))))
    assert run("score", broken) == (2, "", "error: The Builders: Middle Ages is for 2 to 4 players, not 7\n")
    data["history"] = ["coins 1", "opne B07"]
    broken.write_text(json.dumps(data))
    assert run("replay", broken) == (
        2,
        "",
        "error: action 1 ('opne B07') is illegal: \"opne B07\" is not an action (expected open, recruit, "
        "send, coins, buy or end)\n",
    )
    data["history"] = ["coins 1", "end"]
    broken.write_text(json.dumps(data))
    assert run("score", broken) == (
        2,
        "",
        "error: action 1 ('end') is illegal: you must spend your 2 remaining actions before ending the turn\n",
    )
    data["history"] = ["coins 1"]
    broken.write_text(json.dumps(data))
    assert run("score", broken) == (2, "", f"error: the game of {broken} is not over (it stops after 1 actions)\n")
    assert run("random-game", "--players", 5, "--seed", 1, "--out", tmp_path / "x.json") == (
        2,
        "",
        "error: The Builders: Middle Ages is for 2 to 4 players, not 5\n",
    )
