"""``builders dataset``: records and per-decision arrays that numpy reads back, whose actions replay the
records exactly and whose masks hold the chosen actions."""

from __future__ import annotations

import json

import numpy as np
import pytest
from typer.testing import CliRunner

from builders.cli import app
from builders.core.record import replay
from builders.rl import ENCODING_VERSION
from builders.rl.base import Match, make_codec
from builders.rl.dataset import STEP_COLUMNS, index_sequences


def _write(tmp_path, *args: str):
    result = CliRunner().invoke(app, ["dataset", "--out", str(tmp_path), *args])
    return result


@pytest.mark.parametrize(
    ("game", "players", "bots"), [("kingdom", 2, "random"), ("middle-ages", 3, "random,easy,random")]
)
def test_a_tiny_dataset_reads_back_and_replays_its_records(tmp_path, game: str, players: int, bots: str) -> None:
    result = _write(tmp_path, "--game", game, "--players", str(players), "--bots", bots, "--games", "2", "--seed", "5")
    assert result.exit_code == 0, result.output
    data = np.load(tmp_path / "steps.npz", allow_pickle=False)
    n = len(data["action"])
    assert result.output == (
        f"2 games (0 cut), {n} decisions: {tmp_path / 'records.jsonl'}, {tmp_path / 'steps.npz'}\n"
    )
    codec = make_codec(game, players)
    assert int(data["encoding_version"]) == ENCODING_VERSION
    assert str(data["game_name"]) == game and int(data["players"]) == players
    assert data["bots"].tolist() == (bots.split(",") * players)[:players]
    assert data["observation"].shape == (n, codec.size) and data["observation"].dtype == np.uint8
    assert data["action_mask"].shape == (n, codec.num_actions) and data["action_mask"].dtype == np.uint8
    for key in STEP_COLUMNS:
        assert len(data[key]) == n
    # every chosen action is in its mask
    assert data["action_mask"][np.arange(n), data["action"]].tolist() == [1] * n
    assert sorted(set(data["game"].tolist())) == [0, 1]
    records = [json.loads(line) for line in (tmp_path / "records.jsonl").read_text().splitlines()]
    assert len(records) == 2
    for g, record in enumerate(records):
        rows = np.flatnonzero(data["game"] == g)
        assert data["step"][rows].tolist() == list(range(len(rows)))
        assert int(data["decisions"][g]) == len(rows)
        # the indices, replayed from the game's setup seed, play the record's game exactly, observation by observation
        match = Match(codec, codec.new_state(None, int(data["game_seed"][g])))
        for row in rows:
            seat = int(data["seat"][row])
            assert seat == match.current_player
            assert np.array_equal(codec.encode(match.state, seat, match.prefix), data["observation"][row])
            assert np.array_equal(match.mask(), data["action_mask"][row])
            match.play(int(data["action"][row]))
        assert match.state.is_over()
        assert match.state.to_record() == record
        final = replay(record)
        assert list(final.result().scores) == data["scores"][g].tolist()
        assert [int(p in final.result().winners) for p in range(players)] == data["winners"][g].tolist()
        winners = final.result().winners
        expected = [1.0 / len(winners) if int(s) in winners else -1.0 for s in data["seat"][rows]]
        assert data["reward"][rows].tolist() == pytest.approx(expected)
        # the index sequences are the record's actions
        actions = [codec_action(codec, seq) for seq in index_sequences(data["action"], data["game"], g, codec)]
        assert actions == [e for e in record["history"] if isinstance(e, str)]


def codec_action(codec, seq) -> str:
    """The notation of the engine action a complete index sequence plays."""
    if codec.game == "kingdom":
        from builders.kingdom.notation import to_string
        from builders.rl.kingdom import index_to_action

        return to_string(index_to_action(seq))
    from builders.middle_ages.notation import action_text
    from builders.rl.middle_ages import index_to_action

    return action_text(index_to_action(seq[0]))


def test_the_same_seed_writes_the_same_dataset(tmp_path) -> None:
    for name in ("a", "b"):
        assert _write(tmp_path / name, "--games", "1", "--seed", "9", "--bots", "easy").exit_code == 0
    a, b = (np.load(tmp_path / name / "steps.npz") for name in ("a", "b"))
    assert all(np.array_equal(a[k], b[k]) for k in a.files)
    assert (tmp_path / "a" / "records.jsonl").read_text() == (tmp_path / "b" / "records.jsonl").read_text()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--games", "0"], "error: --games must be at least 1, not 0"),
        (["--bots", "random,easy,easy"], "error: --bots needs one bot for all seats or one per seat (2), not 3"),
        (
            ["--bots", "foo"],
            "error: unknown agent 'foo' (choose from random, greedy, mcts, plan, easy, medium, hard, expert)",
        ),
        (["--players", "5"], "error: --players must be 2, 3 or 4, not 5"),
        (["--game", "chess"], "error: unknown game 'chess' (choose from kingdom, middle-ages)"),
        (["--reward", "points"], "error: reward must be 'win', 'zero-sum' or 'margin', not 'points'"),
    ],
)
def test_bad_options_are_refused_in_one_line_and_write_nothing(tmp_path, args: list[str], message: str) -> None:
    out = tmp_path / "ds"
    result = _write(out, *args)
    assert result.exit_code == 2
    assert result.output.strip() == message
    assert not out.exists()


def test_an_out_that_is_a_file_is_refused(tmp_path) -> None:
    path = tmp_path / "file"
    path.write_text("keep")
    result = _write(path, "--games", "1")
    assert result.exit_code == 2
    assert result.output.strip() == f"error: --out must be a folder, and {path} is a file"
    assert path.read_text() == "keep"
