"""Every command that reads a file or an option answers bad input with one line ``error: ...`` on
stderr and exit status 2, never a traceback, and writes nothing (issue 10, part 2).

The property tests take valid positions and records of both games, mutate them (wrong types, missing
and extra keys, nesting, huge numbers, non-UTF-8 bytes, cut files) and run every file-reading command
on them through the real command line (typer's CliRunner on ``builders.cli.app``): the exit status is
0 or 2, and on 2 stdout is empty and stderr is exactly one line starting ``error: ``.
"""

from __future__ import annotations

import copy
import json
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from builders.cli import app
from builders.core.record import MAX_JSON_BYTES, MAX_JSON_DEPTH, load_json, replay
from builders.kingdom.game import KingdomBuilder
from builders.middle_ages.game import MiddleAges

runner = CliRunner()
WORK = Path(tempfile.mkdtemp(prefix="builders-bad-input-"))


def run(*args: Any):
    return runner.invoke(app, [str(a) for a in args])


def check(result, *, out: Path | None = None) -> None:
    """The contract: no traceback, status 0 or 2; on 2 one ``error:`` line, nothing else, nothing written."""
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    assert result.exit_code in (0, 2), (result.exit_code, result.output)
    if result.exit_code == 2:
        assert result.stdout == ""
        lines = result.stderr.splitlines()
        assert len(lines) == 1 and lines[0].startswith("error: ") and result.stderr.endswith("\n"), result.stderr
        if out is not None:
            assert not out.exists()


def bad(result, message: str) -> None:
    assert (result.exit_code, result.stdout, result.stderr) == (2, "", f"error: {message}\n")


def _ma_record(players: int, seed: int, actions: int) -> dict[str, Any]:
    """A record of The Builders cut after ``actions`` player actions (random legal play)."""
    import random

    game = MiddleAges()
    state = game.new_state(game.random_setup(players, seed))
    rnd = random.Random(seed)
    for _ in range(actions):
        if state.is_over():
            break
        moves = state.legal_actions()
        state.apply(moves[rnd.randrange(len(moves))])
    return state.to_record()


def _kingdom_record(players: int, seed: int, actions: int) -> dict[str, Any]:
    import random

    game = KingdomBuilder()
    state = game.new_state(game.random_setup(players, seed))
    rnd = random.Random(seed)
    for _ in range(actions):
        if state.is_over():
            break
        moves = state.legal_actions()
        state.apply(moves[rnd.randrange(len(moves))])
    return state.to_record()


MA_RECORD = _ma_record(2, 3, 40)
MA_FINISHED = _ma_record(2, 4, 10_000)
KINGDOM_RECORD = _kingdom_record(2, 5, 30)
KINGDOM_POSITION = replay(KINGDOM_RECORD).to_json()

#: the commands that read a file, per kind of file; "{out}" is a file the command may write
MA_COMMANDS = (
    ("middle-ages", "replay"),
    ("middle-ages", "show"),
    ("middle-ages", "score"),
    ("middle-ages", "replay", "--until", "3"),
)
KINGDOM_COMMANDS = (
    ("kingdom", "score"),
    ("kingdom", "moves"),
    ("kingdom", "replay"),
    ("kingdom", "show"),
    ("kingdom", "svg", "--out", "{out}"),
    ("kingdom", "replay", "--until", "2"),
)


# -- mutations --------------------------------------------------------------------------------------

JUNK = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**70), 2**70),
    st.sampled_from([0, -1, 1, 2, 99, 10**30, -(10**30), 2**63, 10**4000, 1e308, -0.5]),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=6),
    st.sampled_from(["", "W07", "B99", "M3", "grass", "kingdom", "middle-ages", "end", "open B07"]),
    st.lists(st.integers(-3, 100), max_size=3),
    st.dictionaries(st.text(max_size=4), st.integers(), max_size=2),
    st.builds(lambda: [[[[[]]]]]),
    st.builds(lambda: {"chance": "B07"}),
    st.builds(lambda: {"chance": 7}),
)  # st.builds makes a new object each time: a mutation never changes a value shared between examples
EXTRA_KEYS = st.sampled_from(["extra", "seed", "format", "game", "players", "chance", "history", "setup", "x" * 40])


def paths(value: Any, prefix: tuple = ()) -> list[tuple]:
    """Every path (keys and indices) into ``value``, the root included."""
    out = [prefix]
    if isinstance(value, dict):
        for k, v in value.items():
            out += paths(v, prefix + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out += paths(v, prefix + (i,))
    return out


def get(doc: Any, path: tuple) -> Any:
    for key in path:
        doc = doc[key]
    return doc


@st.composite
def mutated(draw, original: Any) -> Any:
    """``original`` with one to three mutations, each at a path chosen among all of its paths."""
    doc = copy.deepcopy(original)
    for _ in range(draw(st.integers(1, 3))):
        all_paths = paths(doc)
        path = draw(st.sampled_from(all_paths))
        kind = draw(st.sampled_from(["replace", "delete", "add", "wrap", "duplicate"]))
        if not path:  # the root
            if kind == "wrap":
                doc = [doc]
            elif kind == "replace":
                doc = draw(JUNK)
            continue
        parent, key = get(doc, path[:-1]), path[-1]
        if kind == "replace":
            parent[key] = draw(JUNK)
        elif kind == "delete":
            del parent[key]
        elif kind == "add":
            target = parent[key]
            if isinstance(target, dict):
                target[draw(EXTRA_KEYS)] = draw(JUNK)
            elif isinstance(target, list):
                target.insert(draw(st.integers(0, len(target))), draw(JUNK))
            else:
                parent[key] = draw(JUNK)
        elif kind == "wrap":
            parent[key] = [parent[key]] if draw(st.booleans()) else {"value": parent[key]}
        elif isinstance(parent, list):
            parent.insert(key, copy.deepcopy(parent[key]))
        else:
            parent[key] = copy.deepcopy(parent[key])
    return doc


@st.composite
def damaged_bytes(draw, original: Any) -> bytes:
    """The JSON of ``original`` cut, or with bytes that are not UTF-8 (or not JSON) put in."""
    data = json.dumps(original).encode()
    at = draw(st.integers(0, len(data)))
    kind = draw(st.sampled_from(["cut", "insert", "overwrite"]))
    if kind == "cut":
        return data[:at]
    junk = draw(st.sampled_from([b"\xff", b"\xc3", b"\xed\xa0\x80", b"\x00", b"\x80\x80", b"NaN", b"]", b"{"]))
    if kind == "insert":
        return data[:at] + junk + data[at:]
    return data[:at] + junk + data[at + len(junk) :]


_counter = iter(range(10**9))


def write(data: Any) -> Path:
    path = WORK / f"input-{next(_counter)}.json"
    if isinstance(data, bytes):
        path.write_bytes(data)
    else:
        path.write_text(json.dumps(data), encoding="utf-8")
    return path


def run_all(path: Path, commands) -> None:
    """Run each command (group, command, options) on the file ``path``."""
    for command in commands:
        out = WORK / f"out-{next(_counter)}.svg"
        options = [a.replace("{out}", str(out)) for a in command[2:]]
        check(run(*command[:2], path, *options), out=out)


SETTINGS = settings(
    max_examples=50,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


@SETTINGS
@given(mutated(MA_RECORD))
def test_mutated_middle_ages_records(doc):
    run_all(write(doc), MA_COMMANDS)


@settings(max_examples=25, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(mutated(MA_RECORD["setup"]))
def test_mutated_middle_ages_setups(setup):
    run_all(write(dict(MA_RECORD, setup=setup)), MA_COMMANDS[:1])


@SETTINGS
@given(mutated(KINGDOM_RECORD))
def test_mutated_kingdom_records(doc):
    run_all(write(doc), KINGDOM_COMMANDS)


@settings(max_examples=25, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(mutated(KINGDOM_RECORD["setup"]))
def test_mutated_kingdom_setups(setup):
    run_all(write(dict(KINGDOM_RECORD, setup=setup)), KINGDOM_COMMANDS[:1])


@SETTINGS
@given(mutated(KINGDOM_POSITION))
def test_mutated_kingdom_positions(doc):
    run_all(write(doc), KINGDOM_COMMANDS)


@settings(max_examples=30, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(damaged_bytes(MA_RECORD), damaged_bytes(KINGDOM_POSITION)))
def test_damaged_files(data):
    path = write(data)
    run_all(path, MA_COMMANDS[:1] + KINGDOM_COMMANDS[:1])


OPTION_VALUES = st.one_of(
    st.integers(-(10**30), 10**30).map(str),
    st.text(max_size=5),
    st.sampled_from(["", "-", "1e3", "0x10", "1.5", "nan", "--", "-0", " 7"]),
)


@settings(max_examples=40, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(["--until", "--seed", "--players", "--runs", "--games", "--port", "--workers"]), OPTION_VALUES)
def test_bad_option_values(option, value):
    """Option values through every command that takes the option; valid values that would start a long
    run (a server, a benchmark, a tournament) are left out: only their refusal is checked."""
    out = WORK / f"out-{next(_counter)}.json"
    record = write(MA_RECORD)
    kingdom = write(KINGDOM_RECORD)
    commands = {
        "--until": [("middle-ages", "replay", str(record)), ("kingdom", "replay", str(kingdom))],
        "--seed": [("middle-ages", "random-game", "--out", str(out)), ("kingdom", "random-game", "--out", str(out))],
        "--players": [
            ("middle-ages", "random-game", "--seed", "1", "--out", str(out)),
            ("kingdom", "random-game", "--out", str(out)),
        ],
        "--runs": [("bench", "middle-ages", "--games", "1")],
        "--games": [("bench", "middle-ages", "--runs", "1")],
        "--port": [("serve",)],
        "--workers": [("tournament", "middle-ages", "--games", "2", "--agents", "random")],
    }[option]
    try:
        number = int(value)
    except ValueError:
        number = None
    starts = {
        "--port": lambda n: 1 <= n <= 65535,
        "--runs": lambda n: n >= 1,
        "--games": lambda n: n >= 1,
        "--workers": lambda n: n >= 0,
    }
    if number is not None and option in starts and starts[option](number):
        return  # a valid value: it would start the server, a benchmark or a tournament
    for command in commands:
        result = run(*command, option, value)
        check(result, out=out if result.exit_code == 2 else None)
        if out.exists():
            out.unlink()


# -- exact answers -----------------------------------------------------------------------------------


def test_bad_option_values_get_one_line_not_a_box():
    bad(
        run("middle-ages", "replay", write(MA_RECORD), "--until", "x"),
        "middle-ages replay: invalid value for '--until': Input should be a valid integer, unable to parse "
        "string as an integer",
    )
    out = WORK / "never.json"
    bad(
        run("kingdom", "random-game", "--seed", "seven", "--out", out),
        "kingdom random-game: invalid value for '--seed': Input should be a valid integer, unable to parse "
        "string as an integer",
    )
    assert not out.exists()
    bad(run("middle-ages", "random-game", "--seed", "1"), "middle-ages random-game: missing option '--out'.")
    bad(
        run("middle-ages", "random-game", "--sed", "1"),
        "middle-ages random-game: no such option: --sed (Possible options: --seed)",
    )
    bad(run("serve", "--port", "0"), "serve: invalid value for '--port': Input should be greater than or equal to 1")
    bad(run("no-such-command"), "no such command 'no-such-command'.")
    bad(
        run("serve", "--db", WORK / "no" / "such" / "folder.db"),
        f"--db {WORK / 'no' / 'such' / 'folder.db'}: no such folder {WORK / 'no' / 'such'}",
    )
    bad(run("serve", "--db", WORK), f"--db {WORK} is a folder, not a database file")


def test_json_nested_too_deeply_is_refused():
    deep = WORK / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000)
    message = f"{deep} nests lists or objects too deeply (at most {MAX_JSON_DEPTH} levels)"
    bad(run("middle-ages", "replay", deep), message)
    bad(run("kingdom", "score", deep), message)
    just_over = WORK / "just-over.json"
    just_over.write_text("[" * (MAX_JSON_DEPTH + 1) + "]" * (MAX_JSON_DEPTH + 1))
    bad(
        run("kingdom", "moves", just_over),
        f"{just_over} nests lists or objects too deeply (at most {MAX_JSON_DEPTH} levels)",
    )
    at_limit = WORK / "at-limit.json"
    at_limit.write_text("[" * MAX_JSON_DEPTH + "]" * MAX_JSON_DEPTH)
    assert load_json(at_limit) == eval("[" * MAX_JSON_DEPTH + "]" * MAX_JSON_DEPTH)


def test_json_too_large_is_refused():
    big = WORK / "big.json"
    big.write_bytes(b" " * (MAX_JSON_BYTES + 1))
    bad(run("middle-ages", "score", big), f"{big} is larger than 16 MiB, too large for a record or a position")


def test_not_utf8_nan_and_endless_numbers_are_refused():
    latin = WORK / "latin.json"
    latin.write_bytes(b'{"game": "middle-ages", "name": "caf\xe9"}')
    bad(run("middle-ages", "replay", latin), f"{latin} is not UTF-8 text (byte 0xe9 at offset 36)")
    nan = WORK / "nan.json"
    nan.write_text(json.dumps(dict(MA_RECORD, format=float("nan"))))
    bad(run("middle-ages", "replay", nan), f"{nan} is not valid JSON: NaN is not a JSON number")
    long_number = WORK / "long.json"
    long_number.write_text('{"format": ' + "9" * 5000 + "}")
    result = run("middle-ages", "replay", long_number)
    assert result.exit_code == 2 and result.stderr.startswith(f"error: {long_number} is not valid JSON: ")


def test_records_with_unknown_formats_or_keys_are_refused():
    for fmt in (99, "1", 1.0, None, [1]):
        bad(
            run("middle-ages", "replay", write(dict(MA_RECORD, format=fmt))),
            f"record format {fmt!r} is not one this version reads (it reads 1)",
        )
    bad(
        run("middle-ages", "score", write(dict(MA_FINISHED, comment="mine"))),
        "unknown record key 'comment' (a record has the keys game, format, setup, history, result)",
    )
    bad(
        run("middle-ages", "replay", write(dict(MA_RECORD, game=["middle-ages"]))),
        "the record's game must be a game name, not ['middle-ages']",
    )


def _chance_positions(history: list) -> list[int]:
    return [i for i, entry in enumerate(history) if isinstance(entry, dict)]


def test_a_bad_chance_entry_is_blamed_on_its_own_index():
    """rules.md "Open a site": the row is refilled from the deck; a recorded card that is not in the
    deck is the fault of that history entry, not of the action before it."""
    history = MA_RECORD["history"]
    i = next(i for i in _chance_positions(history) if history[i - 1].startswith("recruit"))
    action_index = sum(1 for e in history[:i] if isinstance(e, str)) - 1
    action = history[i - 1]
    dealt = MA_RECORD["setup"]["apprentices"][0]  # seat 0's apprentice is never in the worker deck
    broken = copy.deepcopy(MA_RECORD)
    broken["history"][i] = {"chance": dealt}
    bad(
        run("middle-ages", "replay", write(broken)),
        f'history entry {i} ({{"chance": "{dealt}"}}) after action {action_index} ({action!r}) is illegal: '
        f"the recorded draw {dealt} is not in the worker deck",
    )
    extra = copy.deepcopy(MA_RECORD)
    extra["history"].insert(i + 1, {"chance": "B01"})
    bad(
        run("middle-ages", "replay", write(extra)),
        f'history entry {i + 1} ({{"chance": "B01"}}) after action {action_index} ({action!r}) is illegal: '
        f"the action made no such draw",
    )


def test_nothing_is_written_on_error(tmp_path):
    existing = tmp_path / "kept.json"
    existing.write_text("old")
    bad(
        run("middle-ages", "random-game", "--players", "5", "--seed", "1", "--out", existing),
        "The Builders: Middle Ages is for 2 to 4 players, not 5",
    )
    assert existing.read_text() == "old"
    folder = tmp_path / "folder"
    folder.mkdir()
    result = run("middle-ages", "random-game", "--seed", "1", "--out", folder)
    assert result.exit_code == 2 and result.stderr.startswith(f"error: cannot write {folder}: ")
    assert list(folder.iterdir()) == [] and sorted(p.name for p in tmp_path.iterdir()) == ["folder", "kept.json"]
    missing = tmp_path / "no" / "such" / "game.json"
    result = run("middle-ages", "random-game", "--seed", "1", "--out", missing)
    assert result.exit_code == 2 and result.stderr.startswith(f"error: cannot write {missing}: ")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["folder", "kept.json"]


@pytest.mark.parametrize("command", MA_COMMANDS + KINGDOM_COMMANDS, ids=" ".join)
def test_valid_files_still_work(command):
    path = write(MA_FINISHED if command[0] == "middle-ages" else KINGDOM_RECORD)
    out = WORK / f"ok-{next(_counter)}.svg"
    options = [a.replace("{out}", str(out)) for a in command[2:]]
    result = run(*command[:2], path, *options)
    assert result.exit_code == 0, result.output
    assert result.stderr == ""
