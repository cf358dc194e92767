"""The command line ``builders kingdom ...`` (docs/kingdom.md, "The command line"): exact output on
small positions, and a one-line ``error: ...`` with exit status 2 for every kind of bad input."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from builders.cli import app
from builders.core.record import replay
from tests.kingdom.helpers_positions import BARN_MAP, BENCH_MAP, player, position, tile

BUILDERS = Path(sys.executable).parent / "builders"

runner = CliRunner()


def run(*args: str):
    return runner.invoke(app, ["kingdom", *args])


def write(path: Path, data) -> str:
    path.write_text(json.dumps(data), encoding="utf-8")
    return str(path)


def bad(result, message: str) -> None:
    """Exit status 2, nothing on stdout, exactly ``error: message`` on stderr."""
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    assert result.stderr == f"error: {message}\n"


@pytest.fixture
def barn_position(tmp_path):
    """FAQ tile 6: three settlements on canyon, Barn tile, mandatory build done (see test_faq)."""
    pos = position(
        BARN_MAP,
        ["fishermen", "miners", "workers"],
        [
            player([(5, 1), (5, 2), (5, 3)], terrain="canyon", tiles=[tile("barn", (6, 2))], taken_from=[[6, 2]]),
            player([(4, 1), (4, 2)], terrain="grass"),
        ],
        built_this_turn=3,
    )
    return write(tmp_path / "barn.json", pos)


@pytest.fixture
def record(tmp_path):
    out = tmp_path / "game.json"
    result = run("random-game", "--players", "2", "--seed", "7", "--out", str(out))
    assert result.exit_code == 0, result.output
    return out


# -- moves ---------------------------------------------------------------------------------------


def test_moves_prints_the_legal_actions_one_per_line(barn_position):
    result = run("moves", barn_position)
    assert result.exit_code == 0
    assert result.stdout == "barn 5,1>5,1\nbarn 5,2>5,2\nbarn 5,3>5,3\nend\n"


def test_moves_sorts_coordinates_as_numbers(tmp_path):
    """The Paddock position of test_faq (FAQ tile 7, 8): 6,8 comes before 6,12."""
    pos = position(
        BENCH_MAP,
        ["fishermen", "miners", "workers"],
        [
            player(
                [(9, 16), (5, 14), (6, 10)], terrain="grass", tiles=[tile("paddock", (6, 11))], taken_from=[[6, 11]]
            ),
            player([(9, 18), (11, 15)], terrain="grass"),
        ],
        built_this_turn=3,
    )
    result = run("moves", write(tmp_path / "p.json", pos))
    assert result.exit_code == 0
    assert result.stdout.splitlines() == [
        "end",
        "paddock 5,14>5,12",
        "paddock 5,14>5,16",
        "paddock 6,10>4,11",
        "paddock 6,10>6,8",
        "paddock 6,10>6,12",
        "paddock 6,10>8,9",
        "paddock 6,10>8,11",
        "paddock 9,16>7,17",
    ]


def test_moves_of_a_finished_game_prints_nothing(record):
    result = run("moves", str(record))
    assert result.exit_code == 0
    assert result.stdout == ""


def test_moves_of_a_record_are_those_after_its_last_action(record, tmp_path):
    data = json.loads(record.read_text())
    history = data["history"]
    # cut the record after its 5th player action
    count = 0
    for i, entry in enumerate(history):
        if isinstance(entry, str):
            count += 1
            if count == 6:
                cut = i
                break
    data["history"] = history[:cut]
    data.pop("result")
    result = run("moves", write(tmp_path / "cut.json", data))
    state = replay(data)
    expected = sorted(map(state.action_to_string, state.legal_actions()))
    assert result.exit_code == 0
    assert sorted(result.stdout.splitlines()) == expected


# -- score ---------------------------------------------------------------------------------------


def test_score_of_a_position_prints_the_gold_as_it_stands(tmp_path):
    """FAQ score 1: 3 gold per castle with own settlements next to it ((1,3) and (7,2) for seat 0)."""
    pos = position(
        BENCH_MAP,
        ["discoverers", "knights", "hermits"],
        [
            player([(0, 3), (1, 2), (7, 3)]),
            player([(13, 8)]),
        ],
    )
    result = run("score", write(tmp_path / "s.json", pos))
    assert result.exit_code == 0
    assert result.stdout == (
        "{\n"
        ' "players": [\n'
        '  {"seat": 0, "cards": {"castles": 6, "discoverers": 3, "knights": 2, "hermits": 2}, "total": 13},\n'
        '  {"seat": 1, "cards": {"castles": 0, "discoverers": 1, "knights": 2, "hermits": 1}, "total": 4}\n'
        " ],\n"
        ' "winners": [0]\n'
        "}\n"
    )


def test_score_of_a_finished_record_is_its_result(record):
    result = run("score", str(record))
    assert result.exit_code == 0
    data = json.loads(record.read_text())
    expected = replay(data).result().to_json("cards")
    assert json.loads(result.stdout) == expected
    assert data["result"]["winners"] == expected["winners"]


# -- random-game ---------------------------------------------------------------------------------


def test_random_game_is_the_same_for_the_same_seed(tmp_path, record):
    again = tmp_path / "again.json"
    result = run("random-game", "--players", "2", "--seed", "7", "--out", str(again))
    assert result.exit_code == 0
    assert again.read_text() == record.read_text()
    other = tmp_path / "other.json"
    run("random-game", "--players", "2", "--seed", "8", "--out", str(other))
    assert other.read_text() != record.read_text()


def test_random_game_writes_a_finished_record_and_a_summary(tmp_path):
    out = tmp_path / "g.json"
    result = run("random-game", "--players", "3", "--seed", "2", "--out", str(out))
    assert result.exit_code == 0
    data = json.loads(out.read_text())
    assert data["game"] == "kingdom" and data["format"] == 2 and data["setup"]["players"] == 3
    state = replay(data)
    assert state.is_over()
    res = state.result()
    actions = sum(1 for e in data["history"] if isinstance(e, str))
    gold = ", ".join(map(str, res.scores))
    won = " and ".join(map(str, res.winners))
    noun = "seat" if len(res.winners) == 1 else "seats"
    assert result.stdout == f"3 players, seed 2: {actions} actions, gold {gold}; {noun} {won} won; record in {out}\n"


def test_random_game_first_game_uses_the_recommended_setup(tmp_path):
    """seed 000 "Рекомендуемая схема подготовки к первой партии";
    boards.md "The recommended first game"."""
    out = tmp_path / "g.json"
    result = run("random-game", "--first-game", "--seed", "3", "--out", str(out))
    assert result.exit_code == 0
    setup = json.loads(out.read_text())["setup"]
    assert setup["sections"] == [["tavern", False], ["paddock", False], ["oasis", False], ["farm", False]]
    assert setup["cards"] == ["fishermen", "merchants", "knights"]


@pytest.mark.parametrize("players", ["1", "5"])
def test_random_game_refuses_a_bad_number_of_players(tmp_path, players):
    result = run("random-game", "--players", players, "--out", str(tmp_path / "g.json"))
    bad(result, f"--players must be 2, 3 or 4, not {players}")
    assert not (tmp_path / "g.json").exists()


def test_random_game_refuses_a_missing_folder(tmp_path):
    target = tmp_path / "nowhere" / "g.json"
    bad(run("random-game", "--out", str(target)), f"cannot write {target}: no such folder {target.parent}")


# -- replay --------------------------------------------------------------------------------------


def test_replay_prints_the_position_after_n_actions(record):
    data = json.loads(record.read_text())
    result = run("replay", str(record), "--until", "5")
    assert result.exit_code == 0
    assert json.loads(result.stdout) == replay(data, until=5).to_json()
    # actions 0-3 are seat 0's first turn (three builds, end), action 4 seat 1's first build
    assert json.loads(result.stdout)["built_this_turn"] == 1


def test_replay_prints_the_final_position_by_default(record):
    result = run("replay", str(record))
    assert result.exit_code == 0
    pos = json.loads(result.stdout)
    assert pos["game_over"] is True
    assert pos == replay(json.loads(record.read_text())).to_json()


def test_replay_stops_at_the_first_illegal_action(record, tmp_path):
    """rules.md "A turn" 2: the turn cannot end before the mandatory build is done."""
    data = json.loads(record.read_text())
    data["history"][1] = "end"
    result = run("replay", write(tmp_path / "bad.json", data))
    bad(result, "action 1 ('end') is illegal: the mandatory build is not finished (1 of 3 built)")


def test_replay_refuses_a_recorded_card_that_is_not_a_terrain(record, tmp_path):
    data = json.loads(record.read_text())
    first_chance = next(i for i, e in enumerate(data["history"]) if isinstance(e, dict))
    data["history"][first_chance] = {"chance": "swamp"}
    result = run("replay", write(tmp_path / "bad.json", data))
    bad(
        result,
        f'history entry {first_chance} ({{"chance": "swamp"}}) after action 3 (\'end\') is illegal: '
        "'swamp' is not a terrain card (expected one of grass, canyon, desert, flower, forest)",
    )


def test_replay_refuses_a_position(barn_position):
    bad(run("replay", barn_position), f'{barn_position} is not a game record (it has no "game" and "history" keys)')


def test_replay_refuses_until_beyond_the_record(record):
    n = sum(1 for e in json.loads(record.read_text())["history"] if isinstance(e, str))
    bad(run("replay", str(record), "--until", str(n + 1)), f"the record has only {n} actions, not {n + 1}")


def test_replay_refuses_a_negative_until(record):
    bad(run("replay", str(record), "--until", "-1"), "--until must be 0 or more")


# -- show and svg --------------------------------------------------------------------------------


def test_show_draws_a_position(barn_position):
    result = run("show", barn_position)
    assert result.exit_code == 0
    assert result.stderr == ""
    assert "barn" in result.stdout.lower()


def test_svg_writes_a_picture(record, tmp_path):
    out = tmp_path / "g.svg"
    result = run("svg", str(record), "-o", str(out))
    assert result.exit_code == 0
    assert result.stdout == f"wrote {out}\n"
    text = out.read_text()
    assert "<svg" in text and text.rstrip().endswith("</svg>")


def test_svg_refuses_a_missing_folder(record, tmp_path):
    target = tmp_path / "nowhere" / "g.svg"
    bad(run("svg", str(record), "-o", str(target)), f"cannot write {target}: No such file or directory")


# -- bad input, for every command that reads a file ----------------------------------------------

READERS = [("moves",), ("score",), ("show",), ("svg", "-o", "unused.svg")]


def _invoke(cmd, path):
    return run(cmd[0], path, *cmd[1:])


@pytest.mark.parametrize("cmd", READERS + [("replay",)], ids=lambda c: c[0])
def test_a_missing_file(cmd, tmp_path):
    path = str(tmp_path / "none.json")
    bad(_invoke(cmd, path), f"no such file: {path}")


@pytest.mark.parametrize("cmd", READERS + [("replay",)], ids=lambda c: c[0])
def test_bad_json(cmd, tmp_path):
    path = tmp_path / "bad.json"
    path.write_text("{bad", encoding="utf-8")
    bad(
        _invoke(cmd, str(path)),
        f"{path} is not valid JSON: Expecting property name enclosed in double quotes at line 1, column 2",
    )


BASE = {
    "sections": [["oracle", False], ["paddock", False], ["harbor", False], ["farm", False]],
    "cards": ["miners", "fishermen", "workers"],
    "players": [{"settlements": [[1, 7]]}, {"settlements": [[13, 8]]}],
}

BAD_POSITIONS = [
    (
        "unknown section",
        {**BASE, "sections": [["castle", False]] + BASE["sections"][1:]},
        "unknown section name 'castle' in slot 0 (the sections are oracle, farm, oasis, tower, tavern, barn, "
        "harbor, paddock)",
    ),
    (
        "overlapping settlements",
        {**BASE, "players": [{"settlements": [[1, 7]]}, {"settlements": [[1, 7]]}]},
        "hex 1,7 has settlements of seats 0 and 1",
    ),
    (
        "off the map",
        {**BASE, "players": [{"settlements": [[1, 20]]}, {"settlements": []}]},
        "seat 0: settlement: hex 1,20 is off the map",
    ),
]


@pytest.mark.parametrize("cmd", READERS, ids=lambda c: c[0])
@pytest.mark.parametrize("pos, message", [c[1:] for c in BAD_POSITIONS], ids=[c[0] for c in BAD_POSITIONS])
def test_a_bad_position(cmd, pos, message, tmp_path):
    bad(_invoke(cmd, write(tmp_path / "p.json", pos)), message)


@pytest.mark.parametrize("cmd", READERS + [("replay",)], ids=lambda c: c[0])
def test_a_record_of_the_other_game(cmd, tmp_path):
    path = write(tmp_path / "r.json", {"game": "middle-ages", "format": 1, "setup": {}, "history": []})
    bad(_invoke(cmd, path), "this is a record of 'middle-ages', not of 'kingdom'")


@pytest.mark.parametrize("cmd", READERS, ids=lambda c: c[0])
def test_json_that_is_not_an_object(cmd, tmp_path):
    path = write(tmp_path / "l.json", [1, 2])
    bad(_invoke(cmd, path), f"{path} is neither a Kingdom Builder position nor a record: it must be a JSON object")


# -- the real entry point ------------------------------------------------------------------------


def _real(*args: str):
    return subprocess.run([str(BUILDERS), "kingdom", *args], capture_output=True, text=True, timeout=60)


def test_the_installed_command_prints_one_line_errors(tmp_path):
    path = str(tmp_path / "none.json")
    done = _real("moves", path)
    assert (done.returncode, done.stdout, done.stderr) == (2, "", f"error: no such file: {path}\n")
    path = write(tmp_path / "p.json", BAD_POSITIONS[1][1])
    done = _real("score", path)
    assert (done.returncode, done.stdout, done.stderr) == (2, "", "error: hex 1,7 has settlements of seats 0 and 1\n")


def test_the_installed_command_moves(barn_position):
    done = _real("moves", barn_position)
    assert (done.returncode, done.stderr) == (0, "")
    assert done.stdout == "barn 5,1>5,1\nbarn 5,2>5,2\nbarn 5,3>5,3\nend\n"
