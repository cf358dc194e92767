"""Bad input to Kingdom Builder's native core (actions of any type and size, action text, drawn cards
that cannot be drawn, broken records, bad BUILDERS_CORE values): the same errors, word for word, as the
Python engine, nothing changed, and never a crash."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from builders.core.errors import IllegalAction
from builders.core.games import CoreError, on_python
from builders.core.record import replay
from builders.kingdom import native
from builders.kingdom.data import TERRAINS
from builders.kingdom.game import KingdomBuilder
from builders.kingdom.state import KingdomState
from tests.native.helpers import outcome, positions_along

if not native.available():
    pytest.fail("the native core is not built: run `make native` (pip install ./native)", pytrace=False)

GOLDEN = Path(__file__).parents[1] / "kingdom" / "golden" / "random_3p_seed2.json"
RECORD = {key: value for key, value in json.loads(GOLDEN.read_text("utf-8")).items() if key in ("setup", "history")} | {
    "game": "kingdom",
    "format": 2,
}
FUZZ = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


POSITIONS = positions_along(
    (
        on_python(KingdomBuilder().new_state(KingdomBuilder().random_setup(2 + seed % 3, 700 + seed)))
        for seed in range(4)
    ),
    17,
)


def _both(position: int):
    py = POSITIONS[position % len(POSITIONS)].copy()
    return py, native.from_python(py)


actions = st.one_of(
    st.integers(min_value=-5, max_value=10 * (1 << 18)),
    st.integers(min_value=-(1 << 70), max_value=1 << 70),
    st.builds(
        lambda code, src, dst: (code << 18) | (src << 9) | dst,
        st.integers(0, 12),
        st.integers(0, 511),
        st.integers(0, 511),
    ),
    st.booleans(),
    st.floats(allow_nan=True),
    st.text(max_size=8),
    st.none(),
    st.tuples(st.integers(0, 400), st.integers(0, 400)),
)


@FUZZ
@given(position=st.integers(0, 1000), action=actions)
def test_any_action_is_refused_or_played_alike(position, action):
    py, nat = _both(position)
    before = nat.to_json()
    a = outcome(lambda: py.apply(action))
    b = outcome(lambda: nat.apply(action))
    assert a == b
    if a[0] != "ok":
        assert nat.to_json() == before
    assert nat.to_record() == py.to_record()
    assert nat.is_legal(action) == py.is_legal(action)


@FUZZ
@given(
    position=st.integers(0, 1000),
    text=st.one_of(
        st.text(max_size=30),
        st.builds(
            lambda verb, r, c, r2, c2, sep: f"{verb} {r},{c}{sep}{r2},{c2}",
            st.sampled_from(
                ["build", "oracle", "farm", "oasis", "tower", "tavern", "barn", "harbor", "paddock", "end", "Build"]
            ),
            st.integers(-2, 21),
            st.integers(-2, 21),
            st.integers(-2, 21),
            st.integers(-2, 21),
            st.sampled_from([">", "", " > ", ","]),
        ),
    ),
)
def test_any_action_text_is_parsed_alike(position, text):
    py, nat = _both(position)
    assert outcome(lambda: nat.parse_action(text)) == outcome(lambda: py.parse_action(text))


@FUZZ
@given(
    position=st.integers(0, 1000),
    forced=st.lists(st.one_of(st.sampled_from(TERRAINS), st.text(max_size=6)), max_size=4),
    pick=st.integers(0, 10_000),
)
def test_recorded_draws_that_cannot_be_drawn_are_refused_alike(position, forced, pick):
    py, nat = _both(position)
    if py.is_over():
        return
    legal = py.legal_actions()
    action = legal[pick % len(legal)]
    py.forced, nat.forced = list(forced), list(forced)
    before = nat.to_json()
    a = outcome(lambda: py.apply(action))
    b = outcome(lambda: nat.apply(action))
    assert a == b
    assert nat.forced == py.forced
    if a[0] != "ok":
        assert nat.to_json() == before
    assert nat.to_record() == py.to_record()


def _mutate(record: dict, rnd: random.Random) -> dict:
    bad = copy.deepcopy(record)
    history = bad["history"]
    i = rnd.randrange(len(history))
    choice = rnd.randrange(5)
    if choice == 0:
        history[i] = rnd.choice(["build 0,0", "end", "paddock 3,3>3,5", "farm 9,9", "oracle 19,19", "bogus", ""])
    elif choice == 1:
        history.insert(i, {"chance": rnd.choice([*TERRAINS, "gold", ""])})
    elif choice == 2:
        del history[i]
    elif choice == 3:
        history[i] = rnd.choice([{"chance": 3}, 5, None, ["end"], {"chance": "grass", "x": 1}])
    else:
        bad["format"] = rnd.choice([1, 3, "2", None])
    return bad


@FUZZ
@given(seed=st.integers(0, 1 << 30))
def test_broken_records_fail_alike(seed, monkeypatch):
    bad = _mutate(RECORD, random.Random(seed))

    def run(core):
        monkeypatch.setenv("BUILDERS_CORE", core)
        return outcome(lambda: replay(bad).to_record())

    assert run("native") == run("python")


def test_a_bad_core_name_is_one_line(monkeypatch):
    monkeypatch.setenv("BUILDERS_CORE", "fast")
    with pytest.raises(CoreError) as e:
        KingdomBuilder().new_state(KingdomBuilder().first_game_setup(2))
    assert str(e.value) == "BUILDERS_CORE must be python or native, not 'fast'"


def test_native_without_the_module_is_one_line(monkeypatch):
    monkeypatch.setenv("BUILDERS_CORE", "native")
    monkeypatch.setattr(native, "_native", None)
    with pytest.raises(CoreError) as e:
        KingdomBuilder().new_state(KingdomBuilder().first_game_setup(2))
    assert str(e.value) == "BUILDERS_CORE=native, but the native core is not built (make native)"
    assert native.core_name() == "python"


def test_the_native_core_is_the_default_and_python_can_be_forced(monkeypatch):
    monkeypatch.delenv("BUILDERS_CORE", raising=False)
    assert type(KingdomBuilder().new_state(KingdomBuilder().first_game_setup(2))) is native.NativeKingdomState
    assert native.core_name() == "native"
    monkeypatch.setenv("BUILDERS_CORE", "python")
    assert type(KingdomBuilder().new_state(KingdomBuilder().first_game_setup(2))) is KingdomState
    assert native.core_name() == "python"
    monkeypatch.setenv("BUILDERS_CORE", "native")
    assert type(KingdomBuilder().new_state(KingdomBuilder().first_game_setup(2))) is native.NativeKingdomState
    assert native.core_name() == "native"


def test_without_the_module_the_default_is_the_python_engine(monkeypatch):
    monkeypatch.delenv("BUILDERS_CORE", raising=False)
    monkeypatch.setattr(native, "_native", None)
    assert type(KingdomBuilder().new_state(KingdomBuilder().first_game_setup(2))) is KingdomState
    assert native.core_name() == "python"


def test_a_game_over_refuses_every_action_alike():
    py = POSITIONS[-1]
    nat = native.from_python(py)
    assert py.is_over() and nat.legal_actions() == []
    with pytest.raises(IllegalAction, match="^the game is over$"):
        nat.apply(0)
