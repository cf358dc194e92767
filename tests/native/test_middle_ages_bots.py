"""The Builders' bots inside the native core: the evaluation (``ma_eval_values``), the planner's value of
a position (``ma_plan_value``), its beam search (``ma_plan_turn``) and look-ahead (``ma_plan_answered``),
against the Python code they port (``builders.ai.eval_middle_ages``, ``builders.ai.planner_middle_ages``),
on many positions of random and bot games, 2-4 players, with the levels' weights and others; the planner
choosing the same actions on either core for the same budget of positions; bad input refused.

The values are compared exactly: the core adds the same doubles in the same order as the Python
evaluation, and the planner's choices (its sorts and ties) depend on every bit of them.

These tests need the native module (``make native``): without it they fail, they do not skip."""

from __future__ import annotations

import random
import time

import pytest

from builders.ai import eval_middle_ages
from builders.ai.eval_middle_ages import DEFAULT, native_weights, weights
from builders.ai.factory import make_bot, make_planner
from builders.ai.planner_kingdom import _native_random
from builders.ai.planner_middle_ages import MiddleAgesPlanner, _value
from builders.middle_ages import native as ma_native
from builders.middle_ages.setup import check_setup, random_setup
from builders.middle_ages.state import MiddleAgesState
from tests.native.helpers import positions_along

if not ma_native.available():
    pytest.fail("the native core is not built: run `make native` (pip install ./native)", pytrace=False)

#: the weights the values are compared with: the defaults (hard), expert's, and others that take
#: every branch (no horizon, no last turn's gain, a late round from the first, other coins and shares)
SETTINGS = [
    DEFAULT,
    weights({"MA_STAFFED": 0.6, "MA_HORIZON": 4.5}),
    weights({"MA_HORIZON": 0, "MA_LAST_TURN": False, "MA_ROW": 0.9}),
    weights({"MA_LATE_ROUND": 2, "MA_LATE_DECAY": 0.7, "MA_LATE_COIN": 0.03, "MA_COIN": 0.2, "MA_PACE": 0.5}),
    weights({"MA_MACHINE_UNIT": 0.7, "MA_SHORT": 0.5, "MA_UNIT_ACTIONS": 0.6, "MA_SPARE_UNIT": 0.3}),
]


def _new(players: int, seed: int) -> MiddleAgesState:
    return MiddleAgesState(check_setup(random_setup(players, seed)))


def _random_positions(games: int, every: int, first_seed: int) -> list:
    """Positions every ``every`` decisions of random games, every decision of their last rounds, and
    their ends, 2-4 players."""
    states = (_new(2 + g % 3, first_seed + g) for g in range(games))
    return positions_along(states, every, also=eval_middle_ages.end_triggered)


def _bot_positions(games: int, every: int) -> list:
    """Positions every ``every`` decisions of games of the medium bot, 2-4 players: games that open,
    staff and finish buildings and reach the last round as players do."""
    states = (_new(2 + g % 3, 5300 + g) for g in range(games))
    return positions_along(states, every, bot=lambda g: make_bot("middle-ages", "medium", g))


def _check_values(positions: list) -> dict[str, int]:
    """Every position valued with every ``SETTINGS``, and every seat's planner value: the same numbers
    on both cores. Returns how many positions of each kind were checked."""
    kinds = {"positions": 0, "last round": 0, "over": 0, "late": 0}
    for i, py in enumerate(positions):
        nat = ma_native.from_python(py)
        for w in SETTINGS:
            expected = eval_middle_ages.values(py, w)
            assert nat.ma_eval_values(native_weights(w)) == expected, (i, w)
            assert eval_middle_ages.values(nat, w) == expected, (i, w)
            for seat in range(py.num_players):
                assert nat.ma_plan_value(seat, native_weights(w)) == _value(py, seat, w), (i, seat, w)
        kinds["positions"] += 1
        kinds["last round"] += eval_middle_ages.end_triggered(py) and not py.over
        kinds["over"] += py.over
        kinds["late"] += py.turn // py.num_players >= 2
    return kinds


def test_the_evaluation_of_random_positions_is_the_python_one():
    kinds = _check_values(_random_positions(15, 5, 400))
    assert kinds["positions"] > 1000 and kinds["last round"] > 20 and kinds["over"] == 15


def test_the_evaluation_of_bot_positions_is_the_python_one():
    kinds = _check_values(_bot_positions(3, 2))
    assert kinds["positions"] > 150 and kinds["last round"] > 3 and kinds["over"] == 3


def test_a_native_state_is_valued_by_the_core():
    """``eval_middle_ages.values`` of a native state reads no field of a Python copy (made on demand,
    slowly): the core values it."""
    nat = ma_native.from_python(_random_positions(1, 40, 17)[1])
    assert nat.cache is None
    eval_middle_ages.values(nat)
    assert nat.cache is None


# -- the searches ------------------------------------------------------------------------------------


def _search_positions() -> list:
    """Positions of random and bot games at many decisions (turns' starts, actions half spent, last rounds)."""
    return [p for p in _random_positions(4, 15, 8800) + _bot_positions(2, 9) if not p.is_over()]


def _pair(seed: int, **options) -> tuple[MiddleAgesPlanner, MiddleAgesPlanner]:
    """Two planners alike on the clock that counts positions."""
    return MiddleAgesPlanner(seed, clock="count", **options), MiddleAgesPlanner(seed, clock="count", **options)


def _same_turns(expected: list | None, found: list | None, i: int) -> None:
    assert (expected is None) == (found is None), i
    if expected is None:
        return
    assert [(v, t, acts) for v, t, _, acts in found] == [(v, t, acts) for v, t, _, acts in expected], i
    for (_, _, nat, _), (_, _, py, _) in zip(found[:6], expected[:6]):
        other = nat.to_python()
        assert [getattr(other, f) for f in ma_native.FIELDS] == [getattr(py, f) for f in ma_native.FIELDS], i


def test_the_beam_search_inside_the_core_finds_the_python_turns():
    checked = 0
    for i, py in enumerate(_search_positions()):
        w = SETTINGS[i % len(SETTINGS)]
        mine, theirs = _pair(i, weights=w)
        nat = ma_native.from_python(py)
        width = (1, 6, 20)[i % 3]
        seat = py.current_player
        expected = mine._turn(py, seat, width)
        found = theirs._turn(nat, seat, width)
        _same_turns(expected, found, i)
        assert theirs._evals == mine._evals and theirs.random.getstate() == mine.random.getstate(), i
        checked += 1
    assert checked > 100


def test_the_look_ahead_inside_the_core_is_the_python_one():
    """``_answered`` from the ends of the best turns, at each depth: the same value and positions valued."""
    checked = 0
    for i, py in enumerate(_search_positions()[::5]):
        depth = 1 + i % 3
        mine, theirs = _pair(i, depth=depth, weights=SETTINGS[i % len(SETTINGS)])
        seat = py.current_player
        ends_py = mine._turn(py, seat, 4)[:2]
        ends_nat = theirs._turn(ma_native.from_python(py), seat, 4)[:2]
        for (_, _, end_py, _), (_, _, end_nat, _) in zip(ends_py, ends_nat):
            assert theirs._answered(end_nat, seat, None) == mine._answered(end_py, seat, None), i
            assert theirs._evals == mine._evals and theirs.random.getstate() == mine.random.getstate(), i
            checked += 1
    assert checked > 30


def test_the_searches_stop_at_their_deadline_alike():
    """A deadline in the planner's clock "count": the plan search's beam narrows to 1 after the same
    step, and the look-ahead gives up (None) after the same step, on both cores."""
    narrowed = stopped = 0
    for i, py in enumerate(_search_positions()[::4]):
        seat = py.current_player
        mine, theirs = _pair(i)
        deadline = 120 / 40_000  # 120 positions
        expected = mine._turn(py, seat, 30, deadline)
        found = theirs._turn(ma_native.from_python(py), seat, 30, deadline)
        _same_turns(expected, found, i)
        assert theirs._evals == mine._evals, i
        narrowed += len(_pair(i)[0]._turn(py, seat, 30)) != len(expected)
        end_py, end_nat = expected[0][2], found[0][2]
        late = (mine._evals + 40 + 7 * i) / 40_000
        score = mine._answered(end_py, seat, late)
        assert theirs._answered(end_nat, seat, late) == score, i
        assert theirs._evals == mine._evals and theirs.random.getstate() == mine.random.getstate(), i
        stopped += score is None
        stopped_turn = mine._turn(py, seat, 6, mine._evals / 40_000, stop=True)
        assert theirs._turn(ma_native.from_python(py), seat, 6, theirs._evals / 40_000, stop=True) is stopped_turn
        assert stopped_turn is None and theirs._evals == mine._evals, i
    assert narrowed >= 3 and stopped >= 3


# -- the planner -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "level", "turn", "options"),
    [(2, "hard", 0.5, {}), (3, "hard", 0.25, {"depth": 3}), (4, "expert", 0.1, {}), (2, "hard", 0.2, {"depth": 1})],
    ids=["2-hard", "3-hard-depth-3", "4-expert", "2-hard-depth-1"],
)
def test_the_planner_chooses_alike_on_both_cores_for_a_budget_of_positions(players, level, turn, options):
    """Whole turns of each seat with the clock that counts positions: the same actions, plans and values
    from a native state as from a Python one (the plan made again after a card drawn too)."""
    py = _new(players, 4400 + players)
    plans = decision = 0
    bots: dict[int, list] = {}
    while plans < 2 * players and not py.is_over():
        seat = py.current_player
        if seat not in bots:
            bots[seat] = [make_planner(seat, level, turn, "middle-ages", clock="count", **options) for _ in range(2)]
        mine, theirs = bots[seat]
        mine.last_stats, theirs.last_stats = {}, {}
        chosen = mine.act(py)
        assert theirs.act(ma_native.from_python(py)) == chosen, decision
        if mine.last_stats:  # a plan was made (else the turn's plan goes on)
            strip = ({k: v for k, v in s.last_stats.items() if k != "seconds"} for s in (mine, theirs))
            assert next(strip) == next(strip), decision
            plans += 1
        assert theirs.random.getstate() == mine.random.getstate(), decision
        py.apply(chosen)
        decision += 1
    assert plans == 2 * players


def test_with_a_time_budget_the_native_planner_values_more():
    """The same turn of CPU time, every plan found looked ahead: the planner handed a native state values
    many more positions, and many more a CPU second (as the hard level plays, it finishes its whole
    search in a small part of the turn)."""
    py = _new(2, 8)
    counts, rates = {}, {}
    for core, state in (("python", py), ("native", ma_native.from_python(py))):
        planner = make_planner(1, "hard", 0.4, "middle-ages", clock="cpu", plans=10**6)
        started = time.process_time()
        planner.act(state)
        spent = time.process_time() - started
        assert spent < 1.0
        counts[core] = planner.last_stats["evaluations"]
        rates[core] = counts[core] / spent
    assert counts["native"] > 4 * counts["python"], counts
    assert rates["native"] > 5 * rates["python"], rates


# -- bad input -----------------------------------------------------------------------------------------


def test_bad_input_to_the_bots_inside_the_core_is_refused_and_changes_nothing():
    py = _random_positions(1, 30, 31)[1]
    nat = ma_native.from_python(py)
    before = nat.fields()
    rnd = _native_random(random.Random(1))
    state = rnd.getstate()
    w = native_weights(DEFAULT)
    cases = [
        (lambda: nat.ma_plan_turn(2, 4, w, rnd, None, None, False), IndexError, "seat out of range"),
        (lambda: nat.ma_plan_turn(-1, 4, w, rnd, None, None, False), IndexError, "seat out of range"),
        (lambda: nat.ma_plan_turn(0, 0, w, rnd, None, None, False), ValueError, "ma_plan_turn: a beam of at least 1"),
        (
            lambda: nat.ma_plan_answered(0, 0, w, rnd, None, None, 2),
            ValueError,
            "ma_plan_answered: a beam of at least 1",
        ),
        (
            lambda: nat.ma_plan_answered(0, 3, w, rnd, None, None, 4),
            ValueError,
            "ma_plan_answered: a depth of 1, 2 or 3",
        ),
        (
            lambda: nat.ma_plan_answered(0, 3, w, rnd, None, None, 0),
            ValueError,
            "ma_plan_answered: a depth of 1, 2 or 3",
        ),
        (lambda: nat.ma_plan_answered(5, 3, w, rnd, None, None, 2), IndexError, "seat out of range"),
        (lambda: nat.ma_eval_values(w[:-1]), ValueError, "settings: the 17 weights of MiddleAgesSettings"),
        (lambda: nat.ma_plan_value(0, [*w, 1.0]), ValueError, "settings: the 17 weights of MiddleAgesSettings"),
        (lambda: nat.ma_plan_value(3, w), IndexError, "seat out of range"),
    ]
    for call, kind, message in cases:
        with pytest.raises(kind) as err:
            call()
        assert str(err.value) == message
        assert nat.fields() == before and rnd.getstate() == state

    # a clock that fails stops the search with its error
    def broken(_):
        raise RuntimeError("no clock")

    with pytest.raises(RuntimeError, match="no clock"):
        nat.ma_plan_turn(0, 4, w, rnd, 1.0, broken, False)
    assert nat.fields() == before
