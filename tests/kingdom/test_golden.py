"""Golden move counts (like chess perft): frozen seeded random games, replayed action by action; at
every decision the number of legal actions and a hash of their sorted notation must match, and so
must the final result and position. Any change in move generation, tile handling, card draws or
scoring shows here. The files are written by golden/make_golden.py (by hand, after checking the
rules; see its docstring)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from builders.core.record import steps
from builders.kingdom.game import KingdomBuilder
from tests.kingdom.golden.make_golden import GAMES, make_setup, moves_hash

GOLDEN = Path(__file__).parent / "golden"
FILES = sorted(GOLDEN.glob("*.json"))


def test_every_golden_game_has_its_file():
    assert {f.stem for f in FILES} == set(GAMES)


@pytest.mark.parametrize("path", FILES, ids=[f.stem for f in FILES])
def test_golden_game(path):
    data = json.loads(path.read_text(encoding="utf-8"))
    made = data["made_by"]
    # setups are deterministic: the same seed still makes the same setup
    assert make_setup(made["setup"], made["players"], made["seed"]) == data["setup"]
    state = KingdomBuilder().new_state(data["setup"])
    decisions = list(steps(data["history"]))
    assert len(decisions) == len(data["counts"]) == len(data["hashes"])
    for i, (action, outcomes) in enumerate(decisions):
        assert not state.is_over(), f"the game ended before decision {i}"
        moves = sorted(state.action_to_string(a) for a in state.legal_actions())
        assert (i, len(moves)) == (i, data["counts"][i])
        assert (i, moves_hash(moves)) == (i, data["hashes"][i])
        state.forced = list(outcomes)
        state.apply_string(action)
        assert state.forced == [], f"decision {i}: the recorded cards {state.forced} were not drawn"
    assert state.is_over()
    assert state.result().to_json("cards") == data["result"]
    assert state.to_json() == data["final_position"]
