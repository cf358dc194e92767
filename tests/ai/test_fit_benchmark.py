"""benchmarks/ai_fit_kingdom.py: a Kingdom Builder evaluation fitted on games, against the hand-set one."""

from __future__ import annotations

import json

import pytest

from builders.ai import eval_kingdom, make_bot
from builders.core.games import get_game
from tests.ai.helpers import benchmark

fit = benchmark("ai_fit_kingdom")


def _position(cards_wanted: str):
    game = get_game("kingdom")
    for seed in range(200):
        st = game.new_state(game.random_setup(2, seed))
        if cards_wanted in st.cards:
            return st
    raise AssertionError("no setup with " + cards_wanted)


def test_features_are_the_evaluations_parts_of_the_seat():
    """At the start the seats have nothing: every feature 0. At a game's end the features' gold, each
    card's and the castles', is the game's result for it (rules.md, *Scoring*)."""
    st = _position("citizens")
    f = fit.features(st, 0)
    assert set(f) >= {"castles", "held", "frontier", "locreach", "castlereach", "cit_g2"}
    assert all(v == 0 for v in f.values())
    st = _position("lords")
    bots = [make_bot("kingdom", "medium", seed=i) for i in range(2)]
    while not st.is_over():
        st.apply(bots[st.current_player].act(st))
    for p, breakdown in enumerate(st.result().breakdown):
        f = fit.features(st, p)
        assert {"castles": f["castles"], **{c: f["gold_" + c] for c in st.cards}} == dict(breakdown)


@pytest.fixture(scope="module")
def task():
    """Game 3 of the benchmark, played once for the tests of what a game records."""
    return fit.play({"index": 3})


def test_a_game_records_each_turns_start(task):
    """Each seat plays at most 14 turns (40 settlements, 3 a turn at least: rules.md, *A turn*) and at
    least 10 in this game (tiles add a few settlements to some turns); the first position is the start."""
    assert task["index"] == 3 and 2 * 10 <= len(task["positions"]) <= 2 * 14
    first = task["positions"][0]
    assert first["left"] == 40 / 3 and all(v == 0 for v in first["f"][0].values())
    game = get_game("kingdom")
    st = game.new_state(game.random_setup(2, 1003))
    names = {"gold_" + c for c in st.cards}
    assert {n for n in task["positions"][-1]["f"][0] if n.startswith("gold_")} == names


def test_hats_split_a_turn_between_its_two_knots():
    assert fit.hats(20) == [0.0, 0.0, 0.0, 1.0]
    assert fit.hats(10) == [0.0, 0.0, 0.0, 1.0]
    assert fit.hats(4.5) == [0.0, 0.5, 0.5, 0.0]
    assert fit.hats(0) == [1.0, 0.0, 0.0, 0.0]


def test_a_run_writes_both_evaluations_and_the_weights(tmp_path, capsys):
    out = tmp_path / "fit.json"
    assert fit.main(["--games", "5", "--workers", "1", "--out", str(out)]) == 0
    line = capsys.readouterr().out.strip()
    data = json.loads(out.read_text())
    assert data["games"] == 5 and data["knots"] == [0.0, 3.0, 6.0, 10.0]
    assert set(data["weights"]) == set(fit.NAMES) and all(len(w) == 4 for w in data["weights"].values())
    assert 0 < data["test_positions"] < data["positions"]
    assert line == (
        f"5 games, {data['positions']} seat-positions ({data['test_positions']} in the test games): "
        f"hand-set evaluation x {data['hand_factor']:.2f}: error {data['hand']['error']:.2f} gold, "
        f"winner right {100 * data['hand']['winner_right']:.1f}%; fitted: error "
        f"{data['fitted']['error']:.2f} gold, winner right {100 * data['fitted']['winner_right']:.1f}%"
    )
    # the same games give the same fit
    again = tmp_path / "again.json"
    assert fit.main(["--games", "5", "--workers", "1", "--out", str(again)]) == 0
    assert json.loads(again.read_text())["weights"] == data["weights"]


@pytest.mark.parametrize(
    "args, message",
    [
        (["--games", "4"], "error: --games must be at least 5 (every fifth game is a test game), not 4"),
        (["--first", "-1"], "error: --first must be 0 or more, not -1"),
        (["--workers", "0"], "error: --workers must be at least 1, not 0"),
        (["--ridge", "-2"], "error: --ridge must be a number of 0 or more, not -2.0"),
        (["--ridge", "nan"], "error: --ridge must be a number of 0 or more, not nan"),
    ],
)
def test_bad_arguments_are_refused_and_nothing_is_written(tmp_path, capsys, args, message):
    out = tmp_path / "fit.json"
    assert fit.main([*args, "--out", str(out)]) == 2
    assert capsys.readouterr().err.strip() == message
    assert not out.exists()


def test_the_hand_set_value_recorded_is_the_evaluations(task):
    assert task["positions"][0]["hand"] == pytest.approx(
        eval_kingdom._kingdom_values(get_game("kingdom").new_state(get_game("kingdom").random_setup(2, 1003)))
    )
