"""The Builders: Middle Ages on the native core against the Python engine: every decision's legal
actions (in order), every field of the state, the scores and the records; golden games and records
replayed on the native core; bad input (Hypothesis) refused with the same words.

These tests need the native module (``make native``): without it they fail, they do not skip."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from builders.ai.factory import make_bot
from builders.core.errors import BuildersError
from builders.core.games import on_python
from builders.core.record import replay
from builders.core.rng import Rng
from builders.middle_ages import native
from builders.middle_ages.cards import IDS
from builders.middle_ages.game import MiddleAges
from builders.middle_ages.state import MiddleAgesState
from tests.native.diff_middle_ages import difference, play_both
from tests.native.helpers import outcome, positions_along

if not native.available():
    pytest.fail("the native core is not built: run `make native` (pip install ./native)", pytrace=False)

GOLDEN = json.loads((Path(__file__).parents[1] / "middle_ages" / "golden" / "legal_counts.json").read_text("utf-8"))
FUZZ = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


def test_random_games_agree_over_100000_decisions():
    game = MiddleAges()
    total, problems, players = 0, [], set()
    seed = 0
    while total < 100_000:
        py = game.new_state(game.random_setup(2 + seed % 3, seed))
        players.add(py.num_players)
        rnd = random.Random(seed)
        made, found = play_both(py, lambda state, legal, rnd=rnd: legal[rnd.randrange(len(legal))])
        total += made
        problems += [f"seed {seed}: {p}" for p in found]
        seed += 1
    assert problems == []
    assert players == {2, 3, 4}


@pytest.mark.parametrize("level", ["medium", "easy"])
def test_bot_games_agree(level):
    game = MiddleAges()
    for seed in range(2):
        bot = make_bot("middle-ages", level, seed)
        made, problems = play_both(
            game.new_state(game.random_setup(2 + seed, 70 + seed)), lambda s, legal, bot=bot: bot.act(s)
        )
        assert problems == [] and made > 50


@pytest.mark.parametrize("golden", GOLDEN, ids=lambda g: f"{g['players']}p-seed{g['seed']}")
def test_golden_games_on_the_native_core(golden, monkeypatch):
    monkeypatch.setenv("BUILDERS_CORE", "native")
    game = MiddleAges()
    state = game.new_state(game.random_setup(golden["players"], golden["seed"]))
    assert type(state) is native.NativeMiddleAgesState
    rnd = random.Random(golden["seed"])
    counts = []
    while not state.is_over():
        actions = state.legal_actions()
        counts.append(len(actions))
        state.apply(actions[rnd.randrange(len(actions))])
    assert counts == golden["legal_counts"]
    assert state.history_strings() == golden["history"]
    assert state.result().to_json() == golden["result"]
    record = {
        "game": "middle-ages",
        "format": 1,
        "setup": game.random_setup(golden["players"], golden["seed"]),
        "history": golden["history"],
    }
    replayed = replay(record)
    assert type(replayed) is native.NativeMiddleAgesState
    assert replayed.result().to_json() == golden["result"]
    assert replayed.to_json() == state.to_json()


def test_playouts_inside_the_core_are_the_games_python_plays_with_the_same_picks():
    game = MiddleAges()
    for seed in range(9):
        py = game.new_state(game.random_setup(2 + seed % 3, seed))
        nat = native.from_python(py)
        decisions = nat.playout(seed)
        rng = Rng(seed)
        count = 0
        while not py.is_over():
            legal = py.legal_actions()
            py.apply(legal[rng.randbelow(len(legal))])
            count += 1
        assert decisions == count
        assert nat.to_record() == py.to_record()


POSITIONS = positions_along(
    (on_python(MiddleAges().new_state(MiddleAges().random_setup(2 + seed, 500 + seed))) for seed in range(3)), 23
)


@FUZZ
@given(
    position=st.integers(0, 1000),
    action=st.one_of(
        st.integers(-3, 2000),
        st.integers(-(1 << 70), 1 << 70),
        st.builds(lambda s, w: 1024 + (s << 7) + w, st.integers(0, 90), st.integers(0, 127)),
        st.booleans(),
        st.floats(),
        st.text(max_size=6),
        st.none(),
    ),
)
def test_any_action_is_refused_or_played_alike(position, action):
    py = POSITIONS[position % len(POSITIONS)].copy()
    nat = native.from_python(py)
    assert outcome(lambda: nat.apply(action)) == outcome(lambda: py.apply(action))
    assert difference(py, nat) is None
    assert nat.is_legal(action) == py.is_legal(action)


@FUZZ
@given(
    position=st.integers(0, 1000),
    text=st.one_of(
        st.text(max_size=20),
        st.builds(
            lambda verb, a, b: f"{verb} {a} {b}".strip(),
            st.sampled_from(["open", "recruit", "send", "coins", "buy", "end", "take"]),
            st.sampled_from([*IDS[::7], "1", "3", "B99", ""]),
            st.sampled_from([*IDS[40:50], ""]),
        ),
    ),
)
def test_any_action_text_is_parsed_alike(position, text):
    py = POSITIONS[position % len(POSITIONS)].copy()
    nat = native.from_python(py)
    assert outcome(lambda: nat.parse_action(text)) == outcome(lambda: py.parse_action(text))


@FUZZ
@given(
    position=st.integers(0, 1000),
    forced=st.lists(st.one_of(st.sampled_from(IDS), st.text(max_size=4)), max_size=3),
    pick=st.integers(0, 10_000),
)
def test_recorded_draws_that_cannot_be_drawn_are_refused_alike(position, forced, pick):
    py = POSITIONS[position % len(POSITIONS)].copy()
    if py.is_over():
        return
    nat = native.from_python(py)
    legal = py.legal_actions()
    action = legal[pick % len(legal)]
    py.forced, nat.forced = list(forced), list(forced)
    assert outcome(lambda: nat.apply(action)) == outcome(lambda: py.apply(action))
    assert difference(py, nat) is None


@FUZZ
@given(seed=st.integers(0, 1 << 30))
def test_broken_records_fail_alike(seed, monkeypatch):
    golden = GOLDEN[seed % len(GOLDEN)]
    record = {
        "game": "middle-ages",
        "format": 1,
        "setup": MiddleAges().random_setup(golden["players"], golden["seed"]),
        "history": golden["history"],
    }
    bad = copy.deepcopy(record)
    rnd = random.Random(seed)
    i = rnd.randrange(len(bad["history"]))
    choice = rnd.randrange(4)
    if choice == 0:
        bad["history"][i] = rnd.choice(["end", "buy", "coins 3", "open B07", "recruit W01", "send W01 B01", "x"])
    elif choice == 1:
        bad["history"].insert(i, {"chance": rnd.choice([*IDS[::11], "Z9"])})
    elif choice == 2:
        del bad["history"][i]
    else:
        bad["history"][i] = {"chance": rnd.choice(IDS)}

    def run(core):
        monkeypatch.setenv("BUILDERS_CORE", core)
        return outcome(lambda: replay(bad).to_record())

    assert run("native") == run("python")


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10_000), cuts=st.lists(st.integers(0, 120), min_size=1, max_size=6))
def test_copies_share_their_history_and_each_sees_its_own(seed, cuts):
    """A copy shares its history with the state it was copied from (one reference, see
    native/src/history.hpp): states copied from one another at random points, each played on
    differently over the chunks' boundaries, keep each their own history and fields, those of the
    Python engine's copies played alike; and a copy writes the same bytes, under 2 KB, however long
    the history."""
    game = MiddleAges()
    py = game.new_state(game.random_setup(2 + seed % 3, seed))
    pairs = [(py, native.from_python(py))]
    rnd = random.Random(seed)
    for cut in cuts:  # from a random one of the states so far: a copy, played on `cut` decisions
        source_py, source_nat = pairs[rnd.randrange(len(pairs))]
        pair = (source_py.copy(), source_nat.copy())
        for _ in range(cut):
            if pair[0].is_over():
                break
            legal = pair[0].legal_actions()
            action = legal[rnd.randrange(len(legal))]
            pair[0].apply(action)
            pair[1].apply(action)
        pairs.append(pair)
        # the source plays on too: what it appends now is not in the copy's history, nor the reverse
        if not source_py.is_over():
            legal = source_py.legal_actions()
            source_py.apply(legal[-1])
            source_nat.apply(legal[-1])
    for one_py, one_nat in pairs:
        assert difference(one_py, one_nat) is None
        assert one_nat.nbytes == pairs[0][1].nbytes <= 2048
        assert one_nat.history_nbytes >= 4 * len(one_nat.history_codes)


def test_the_core_is_chosen_by_builders_core(monkeypatch):
    game = MiddleAges()
    monkeypatch.delenv("BUILDERS_CORE", raising=False)
    assert type(game.new_state(game.random_setup(2, 1))) is native.NativeMiddleAgesState
    monkeypatch.setenv("BUILDERS_CORE", "python")
    assert type(game.new_state(game.random_setup(2, 1))) is MiddleAgesState
    monkeypatch.setenv("BUILDERS_CORE", "native")
    assert type(game.new_random_state(3, 1)) is native.NativeMiddleAgesState
    monkeypatch.setattr(native, "_native", None)
    with pytest.raises(
        BuildersError, match=r"^BUILDERS_CORE=native, but the native core is not built \(make native\)$"
    ):
        game.new_state(game.random_setup(2, 1))
    monkeypatch.delenv("BUILDERS_CORE")
    assert type(game.new_state(game.random_setup(2, 1))) is MiddleAgesState


def test_batched_steps_are_the_python_games():
    import numpy as np

    from builders.middle_ages.setup import check_setup, random_setup
    from builders.rl.middle_ages import NUM_ACTIONS, action_to_index, index_to_action

    codes = [index_to_action(i) for i in range(NUM_ACTIONS)]
    size, players, seed, pool = 4, 3, 40, 6
    batch = native.MiddleAgesBatch(size, codes, players, seed=seed, pick_seed=2, pool=pool)
    states = [MiddleAgesState(check_setup(random_setup(players, seed + k))) for k in range(size)]
    taken = size
    ended = 0
    for step in range(1500):
        for i, state in enumerate(states):
            expected = np.zeros(NUM_ACTIONS, dtype=np.uint8)
            expected[[action_to_index(a) for a in state.legal_actions()]] = 1
            assert np.array_equal(batch.masks[i], expected), (step, i)
        actions = batch.sample().copy()
        _, rewards, dones, to_move = batch.step(actions)
        for i in range(size):
            states[i].apply(index_to_action(int(actions[i])))
            want = np.zeros(players, dtype=np.float32)
            if states[i].is_over():
                want[:] = states[i].result().returns()
                states[i] = MiddleAgesState(check_setup(random_setup(players, seed + taken % pool)))
                taken += 1
                ended += 1
            assert np.array_equal(rewards[i], want) and dones[i] == want.any()
            assert to_move[i] == states[i].current_player
    assert ended >= 4
    fields = batch.fields(1)
    assert {name: getattr(states[1], name) for name in fields} == fields
    bad = batch.sample().copy()
    bad[2] = int(np.flatnonzero(batch.masks[2] == 0)[0])
    with pytest.raises(ValueError, match=f"^game 2: index {bad[2]} is not allowed by its mask$"):
        batch.step(bad)


def test_legal_actions_are_a_new_list_of_ints_at_each_call():
    py = next(p for p in POSITIONS if not p.is_over() and len(p.legal_actions()) > 12 and p.sites[p.cur])
    nat = native.from_python(py)
    legal = nat.legal_actions()
    assert type(legal) is list and [type(a) for a in legal] == [int] * len(legal)
    assert legal == py.legal_actions() and any(a >= 1024 for a in legal)
    legal += legal
    legal.append(7)
    assert legal == [*py.legal_actions(), *py.legal_actions(), 7]
    legal.clear()
    again = nat.legal_actions()
    assert again is not legal and again == py.legal_actions()
    assert json.loads(json.dumps(again)) == py.legal_actions()
    over = next(p for p in POSITIONS if p.is_over())
    assert native.from_python(over).legal_actions() == [] == over.legal_actions()


def test_the_calls_of_a_decision_refuse_a_state_made_without_init():
    blank = native.NativeMiddleAgesState.__new__(native.NativeMiddleAgesState)
    for call in (blank.legal_actions, blank.is_over, lambda: blank.is_legal(1), lambda: blank.apply(1)):
        with pytest.raises(TypeError, match="^the native state is not initialized$"):
            call()
    with pytest.raises(
        TypeError, match="^descriptor 'apply' for 'MAState' objects doesn't apply to a 'object' object$"
    ):
        type(blank).apply(object(), 1)
