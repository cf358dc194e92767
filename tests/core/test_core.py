"""Tests of the shared core: seeded randomness, results, records and replay."""

from __future__ import annotations

import json

import pytest

from builders.core import plugins
from builders.core.agents import RandomAgent, play
from builders.core.errors import RecordError, ReplayError
from builders.core.record import load_json, replay, steps
from builders.core.rng import Rng, seed_from
from builders.core.state import Chance, Result, winners_of

from .toy import ToyGame


@pytest.fixture
def toy_registry():
    plugins.register(plugins.GamePlugin(name="toy", title="Toy", game="tests.core.toy:ToyGame", view=""))
    yield
    plugins.unregister("toy")


def test_rng_is_the_same_on_every_machine():
    # SplitMix64 reference values for seed 0 (the published algorithm's first outputs).
    rng = Rng(0)
    assert [rng.next64() for _ in range(3)] == [
        0xE220A8397B1DCDAF,
        0x6E789E6AA1B965F4,
        0x06C45D188009454F,
    ]


def test_rng_seed_from_strings_and_ints():
    assert seed_from(5) == 5
    assert seed_from(-1) == (1 << 64) - 1
    assert seed_from("abc") == seed_from("abc") != seed_from("abd")
    with pytest.raises(TypeError, match="not a bool"):
        seed_from(True)


def test_rng_randbelow_is_uniform_and_in_range():
    rng = Rng(3)
    counts = [0] * 6
    for _ in range(6000):
        counts[rng.randbelow(6)] += 1
    assert all(900 < c < 1100 for c in counts)
    with pytest.raises(ValueError):
        rng.randbelow(0)


def test_rng_copy_is_independent_and_shuffle_is_a_permutation():
    a = Rng(11)
    b = a.copy()
    assert [a.next64() for _ in range(4)] == [b.next64() for _ in range(4)]
    deck = list(range(25))
    Rng(1).shuffle(deck)
    assert sorted(deck) == list(range(25)) and deck != list(range(25))


def test_result_returns_and_json():
    r = Result((5, 7, 7), ({"x": 5}, {"x": 7}, {"x": 7}), winners_of((5, 7, 7)))
    assert r.winners == (1, 2)
    assert r.returns() == [0.0, 0.5, 0.5]
    assert r.to_json("cards") == {
        "players": [
            {"seat": 0, "cards": {"x": 5}, "total": 5},
            {"seat": 1, "cards": {"x": 7}, "total": 7},
            {"seat": 2, "cards": {"x": 7}, "total": 7},
        ],
        "winners": [1, 2],
    }


def test_record_holds_chance_outcomes_and_replays_exactly(toy_registry):
    state = ToyGame().new_state({"players": 2, "seed": 9})
    play(state, [RandomAgent(1), RandomAgent(2)])
    record = state.to_record()
    assert record["game"] == "toy" and record["format"] == 1
    assert all(isinstance(e, str) or set(e) == {"chance"} for e in record["history"])
    assert sum(isinstance(e, dict) for e in record["history"]) == len(state.drawn)
    # replay takes the draws from the record, not from the generator: another seed gives the same game
    record["setup"]["seed"] = 12345
    again = replay(json.loads(json.dumps(record)))
    assert again.to_json() == state.to_json()
    assert again.history == state.history


def test_replay_until_and_its_errors(toy_registry):
    state = ToyGame().new_state({"players": 2, "seed": 1})
    for text in ["add 1", "add 2", "add 1"]:
        state.apply_string(text)
    record = state.to_record()
    assert replay(record, until=2).counter == 3
    assert replay(record, until=0).counter == 0
    with pytest.raises(RecordError, match="the record has only 3 actions, not 4"):
        replay(record, until=4)
    bad = dict(record, history=["add 2", {"chance": "a"}, "add 2", "add 2", "add 1"])
    with pytest.raises(ReplayError) as info:
        replay(bad)
    assert info.value.index == 3
    assert str(info.value) == "action 3 ('add 1') is illegal: cannot add 1 to 6"
    wrong_card = dict(record, history=["add 1", {"chance": "z"}])
    with pytest.raises(ReplayError, match="action 0 .* no card 'z' is left in the deck"):
        replay(wrong_card)


def test_replay_refuses_malformed_records(toy_registry):
    with pytest.raises(RecordError, match="a record is a JSON object"):
        replay([])
    with pytest.raises(RecordError, match="the record has no 'setup' key"):
        replay({"game": "toy", "history": []})
    with pytest.raises(RecordError, match="unknown game 'chess'"):
        replay({"game": "chess", "setup": {}, "history": []})
    with pytest.raises(RecordError, match="this is a record of 'toy', not of 'kingdom'"):
        replay({"game": "toy", "setup": {}, "history": []}, game="kingdom")
    with pytest.raises(RecordError, match="history entry 0 is a chance outcome before any action"):
        list(steps([{"chance": "a"}]))
    with pytest.raises(RecordError, match="history entry 1 must be an action string"):
        list(steps(["add 1", 7]))


def test_load_json_errors(tmp_path):
    with pytest.raises(RecordError, match="no such file: .*missing.json"):
        load_json(tmp_path / "missing.json")
    bad = tmp_path / "bad.json"
    bad.write_text("{oops")
    with pytest.raises(RecordError, match="bad.json is not valid JSON: .* at line 1, column 2"):
        load_json(bad)
    with pytest.raises(RecordError, match="is a folder, not a file"):
        load_json(tmp_path)


def test_chance_entries_are_distinguishable_from_actions():
    assert isinstance(Chance("grass"), str) and repr(Chance("grass")) == "Chance('grass')"
