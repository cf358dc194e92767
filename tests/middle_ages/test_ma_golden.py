"""Golden legal-move counts along fixed-seed random games (tests/middle_ages/golden/legal_counts.json,
written by golden/make_golden.py, by hand only). Any change to the rules or to the order of legal actions
shows up here."""

import json
import random
from pathlib import Path

import pytest

from builders.core.record import replay
from builders.middle_ages.game import MiddleAges

GOLDEN = json.loads((Path(__file__).parent / "golden" / "legal_counts.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("golden", GOLDEN, ids=lambda g: f"{g['players']}p-seed{g['seed']}")
def test_golden_game(golden):
    game = MiddleAges()
    state = game.new_state(game.random_setup(golden["players"], golden["seed"]))
    rnd = random.Random(golden["seed"])
    counts = []
    while not state.is_over():
        actions = state.legal_actions()
        counts.append(len(actions))
        state.apply(actions[rnd.randrange(len(actions))])
    assert counts[0] == 14  # by hand: buy, coins 1-3, 5 opens, 5 recruits (rules.md "A turn")
    assert counts == golden["legal_counts"]
    assert state.history_strings() == golden["history"]
    assert state.result().to_json() == golden["result"]
    record = {
        "game": "middle-ages",
        "format": 1,
        "setup": game.random_setup(golden["players"], golden["seed"]),
        "history": golden["history"],
    }
    assert replay(record).result().to_json() == golden["result"]
