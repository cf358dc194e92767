"""The bots inside the native core: Kingdom Builder's evaluation (``eval_values``, ``eval_moves``), the
turn planner's beam search (``plan_turn``) and games played out (``plan_rollout``), and the generator
of Python's ``random.Random`` that breaks their ties (``PyRandom``), against the Python code they port
(``builders.ai.eval_kingdom``, ``builders.ai.planner_kingdom``), on many positions of random and bot
games, 2-4 players, every scoring card; the planner choosing the same actions on either core for the
same budget of positions; bad input refused.

The values are compared exactly: the core adds the same doubles in the same order as the Python
evaluation, and the planner's choices (its sorts and ties) depend on every bit of them.

These tests need the native module (``make native``): without it they fail, they do not skip."""

from __future__ import annotations

import random
import time

import numpy as np
import pytest

from builders.ai import eval_kingdom
from builders.ai.factory import make_planner
from builders.ai.greedy import GreedyAgent
from builders.ai.planner_kingdom import TurnPlanner, _native_random
from builders.kingdom import native as kb_native
from builders.kingdom.data import CARDS
from builders.kingdom.game import KingdomBuilder
from builders.kingdom.notation import END
from builders.kingdom.setup import new_state as kb_new_state
from tests.native.helpers import positions_along

if not kb_native.available():
    pytest.fail("the native core is not built: run `make native` (pip install ./native)", pytrace=False)

import builders_native  # noqa: E402  (after the check above, which says why it is missing)

GAME = KingdomBuilder()
TILE = 1 << 18


def _random_positions(setups: int, every: int, first_seed: int) -> list:
    """Positions every ``every`` decisions of random games (and their ends), 2-4 players."""
    return positions_along((kb_new_state(GAME.random_setup(2 + s % 3, first_seed + s)) for s in range(setups)), every)


def _bot_positions(games: int, every: int) -> list:
    """Positions every ``every`` decisions of games of the greedy bot (medium), 2-4 players: games
    that build toward castles, locations and tiles as a player would."""
    states = (kb_new_state(GAME.random_setup(2 + g % 3, 7100 + g)) for g in range(games))
    return positions_along(states, every, bot=GreedyAgent)


def _check_values(positions: list) -> tuple[int, set]:
    """Both evaluations of every position, with and without the planners' ``turn_over``, and the move
    heuristic of its legal actions: the same numbers on both cores. Returns the positions checked and
    the cards seen."""
    checked = 0
    cards: set = set()
    for i, py in enumerate(positions):
        if i % 50 == 0:  # now and then from empty caches: the Python evaluation's parts made from scratch
            eval_kingdom._KB_CONTEXTS.clear()
        nat = kb_native.from_python(py)
        for turn_over in (None, -1):
            expected = eval_kingdom._kingdom_values(py, turn_over)
            assert nat.eval_values(turn_over is not None) == expected, (i, turn_over)
            assert eval_kingdom.values(nat, turn_over) == expected, (i, turn_over)
        legal = py.legal_actions()
        if legal:
            assert nat.eval_moves(legal) == eval_kingdom._kingdom_move_values(py, legal), i
        checked += 1
        cards.update(py.cards)
    return checked, cards


def test_the_evaluation_of_random_positions_is_the_python_one():
    checked, cards = _check_values(_random_positions(72, 5, 5000))
    assert checked > 2000
    assert cards == set(CARDS)


def test_the_evaluation_of_bot_positions_is_the_python_one():
    checked, cards = _check_values(_bot_positions(3, 3))
    assert checked > 100 and len(cards) >= 7


def test_the_evaluation_of_the_planner_s_plans_is_the_python_one():
    """The positions the beam search ends turns in (tiles taken and used, settlements moved)."""
    positions = []
    for py in _random_positions(12, 23, 6200):
        if py.is_over():
            continue
        nat = kb_native.from_python(py)
        rnd = builders_native.PyRandom()
        rnd.seed(len(positions))
        _, found = nat.plan_turn(py.to_move, 4, True, rnd, None, None)
        positions.extend(end.to_python() for _, end, _ in found[:12])
    checked, _ = _check_values(positions)
    assert checked > 250


def test_a_finished_game_is_valued_at_its_gold():
    py = _random_positions(1, 1000, 321)[-1]
    assert py.is_over()
    nat = kb_native.from_python(py)
    assert nat.eval_values(True) == nat.eval_values(False) == eval_kingdom._kingdom_values(py)
    assert not nat.eval_moves([])


# -- the generator of the ties -------------------------------------------------------------------------


@pytest.mark.parametrize("seed", [0, 1, 12345, 2**32 - 1, 2**32, 2**63 - 1, 2**63 + 64])
def test_the_native_generator_draws_what_random_random_draws(seed):
    mine = builders_native.PyRandom()
    mine.seed(seed)
    theirs = random.Random(seed)
    assert [mine.random() for _ in range(1500)] == [theirs.random() for _ in range(1500)]
    bits = [1, 7, 31, 32, 33, 63, 64] * 40
    assert [mine.getrandbits(k) for k in bits] == [theirs.getrandbits(k) for k in bits]
    assert tuple(mine.getstate()) == theirs.getstate()[1]
    other = random.Random(seed + 99)
    mine.setstate(other.getstate()[1])
    assert [mine.random() for _ in range(700)] == [other.random() for _ in range(700)]


def test_a_bad_generator_state_is_refused_and_changes_nothing():
    mine = builders_native.PyRandom()
    mine.seed(5)
    state = mine.getstate()
    good = list(random.Random(6).getstate()[1])
    for bad, message in (
        (good[:-1], "setstate: 624 words and an index"),
        (good[:10] + [2**32] + good[11:], "setstate: a word out of range"),
        (good[:10] + [-1] + good[11:], "setstate: a word out of range"),
        (good[:-1] + [625], "setstate: the index out of range"),
    ):
        with pytest.raises(ValueError) as err:
            mine.setstate(bad)
        assert str(err.value) == message
        assert mine.getstate() == state
    for k in (0, 65):
        with pytest.raises(ValueError) as err:
            mine.getrandbits(k)
        assert str(err.value) == "getrandbits: from 1 to 64 bits"
    assert mine.getstate() == state


# -- the beam search and the games played out --------------------------------------------------------


def _search_positions() -> list:
    """Positions of random games at every decision of some turns: turns' starts, builds half done,
    tiles held (some with more than 16 tile actions: the move heuristic picks which are tried)."""
    return _random_positions(9, 3, 8800)


def _pair(seed: int, clock: str = "count", weights=None) -> tuple[TurnPlanner, TurnPlanner]:
    """Two planners alike (with ``weights``: settings of their own); the second draws its ties from a
    native copy of its generator, as ``TurnPlanner.plan`` does on a native state."""
    py, nat = TurnPlanner(seed, clock=clock, weights=weights), TurnPlanner(seed, clock=clock, weights=weights)
    nat.random = _native_random(nat.random)
    return py, nat


def test_the_beam_search_inside_the_core_finds_the_python_plans():
    many_tiles = previews = 0
    for i, py in enumerate(_search_positions()):
        if py.is_over():
            continue
        nat = kb_native.from_python(py)
        seat = py.to_move
        tiles = sum(1 for a in py.legal_actions() if a >= TILE and a != END)
        many_tiles += tiles > 16
        width = (1, 3, 30)[i % 3]
        mine, theirs = _pair(i)
        found = theirs._plans(nat, seat, width, True)
        expected = mine._plans(py, seat, width, True)
        assert [(v, acts) for v, _, acts in found] == [(v, acts) for v, _, acts in expected], i
        assert [end.to_json() for _, end, _ in found[:5]] == [end.to_json() for _, end, _ in expected[:5]], i
        assert [end.history for _, end, _ in found[:5]] == [end.history for _, end, _ in expected[:5]], i
        assert theirs._evals == mine._evals and tuple(theirs.random.getstate()) == mine.random.getstate()[1], i
        # the look-ahead's search: the best lead of another seat's next turn with a card
        other = (seat + 1) % py.num_players
        card = i % 5
        if py.board.code_mask[card] & ~py.occ:
            best = theirs._plans(nat.preview_turn(other, card), other, 4, False)
            assert best == mine._plans(py.preview_turn(other, card), other, 4, False), i
            assert theirs._evals == mine._evals, i
            previews += 1
    assert many_tiles >= 3 and previews > 40


def test_the_beam_search_and_games_played_out_with_a_planner_s_settings_are_the_python_ones():
    """Settings of a planner's own inside the core: the evaluation's weights and TILE_ACTIONS (3 and 9:
    the move heuristic with those weights picks which tile actions are tried)."""
    sets = _weight_sets(4, 77)
    cut = checked = 0
    for i, py in enumerate(_search_positions()[::2]):
        if py.is_over():
            continue
        weights = {name: getattr(sets[i % 4], name) for name in eval_kingdom.NATIVE_NAMES}
        own = eval_kingdom.weights({**weights, "TILE_ACTIONS": (3, 9)[i % 2]})
        nat = kb_native.from_python(py)
        seat = py.to_move
        cut += sum(1 for a in py.legal_actions() if a >= TILE and a != END) > own.TILE_ACTIONS
        mine, theirs = _pair(i, weights=own)
        expected = mine._plans(py, seat, (1, 4)[i % 2], True)
        found = theirs._plans(nat, seat, (1, 4)[i % 2], True)
        assert [(v, acts) for v, _, acts in found] == [(v, acts) for v, _, acts in expected], i
        assert theirs._evals == mine._evals and tuple(theirs.random.getstate()) == mine.random.getstate()[1], i
        if i % 5 == 0:
            sample = 7 * i + 1
            assert theirs._rollout(found[0][1], seat, sample) == mine._rollout(expected[0][1], seat, sample), i
            assert theirs._evals == mine._evals, i
        checked += 1
    assert checked > 60 and cut >= 5


def test_the_beam_narrows_when_its_deadline_passes_alike():
    """A deadline in the planner's clock "count": the beam becomes 1 after the same step on both."""
    narrowed = 0
    for i, py in enumerate(_search_positions()[::7]):
        if py.is_over():
            continue
        nat = kb_native.from_python(py)
        mine, theirs = _pair(i)
        wide, _ = _pair(i)
        deadline = 150 / 40_000  # 150 positions
        expected = mine._plans(py, py.to_move, 30, True, deadline)
        found = theirs._plans(nat, py.to_move, 30, True, deadline)
        assert [(v, acts) for v, _, acts in found] == [(v, acts) for v, _, acts in expected], i
        assert theirs._evals == mine._evals, i
        narrowed += len(wide._plans(py, py.to_move, 30, True)) != len(expected)
    assert narrowed >= 3


def test_games_played_out_inside_the_core_are_the_python_ones():
    checked = 0
    for i, py in enumerate(_search_positions()[::9]):
        if py.is_over():
            continue
        mine, theirs = _pair(i)
        seat = py.to_move
        expected = mine._plans(py, seat, 3, True)[:2]
        found = theirs._plans(kb_native.from_python(py), seat, 3, True)[:2]
        for (_, end_py, _), (_, end_nat, _) in zip(expected, found):
            sample = 1_000_003 * i + checked
            lead = theirs._rollout(end_nat, seat, sample)
            assert lead == mine._rollout(end_py, seat, sample), i
            assert theirs._evals == mine._evals, i
            checked += 1
    assert checked > 10


def test_a_game_played_out_from_a_finished_game_is_its_result():
    py = _random_positions(1, 1000, 77)[-1]
    nat = kb_native.from_python(py)
    lead, evals = nat.plan_rollout(0, 5, 1)
    scores = [sum(part.values()) for part in py.score_breakdown()]
    assert evals == 0 and lead == scores[0] - max(scores[1:])


# -- the planner ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "level", "turn", "options", "least_rounds"),
    [
        (2, "hard", 1.0, {}, 4),
        (3, "hard", 0.25, {"depth": 2}, 0),
        (4, "expert", 0.25, {}, 0),
        (2, "hard", 0.5, {"weights": {"TILE_ACTIONS": 5, "KB_FRONTIER": 0.6, "KB_MOVE_CASTLE": 1.5}}, 2),
    ],
    ids=["2-hard", "3-hard-depth-2", "4-expert", "2-hard-own-settings"],
)
def test_the_planner_chooses_alike_on_both_cores_for_a_budget_of_positions(players, level, turn, options, least_rounds):
    """A few turns of each seat with the clock that counts positions: the same actions, plans, values
    and games played out from a native state as from a Python one."""
    py = kb_new_state(GAME.random_setup(players, 4400 + players))
    plans = rounds = decision = 0
    bots = {}
    while plans < players + 1:
        seat = py.current_player
        if seat not in bots:
            bots[seat] = [make_planner(seat, level, turn, "kingdom", clock="count", **options) for _ in range(2)]
        mine, theirs = bots[seat]
        mine.last_stats, theirs.last_stats = {}, {}
        chosen = mine.act(py)
        assert theirs.act(kb_native.from_python(py)) == chosen, decision
        if mine.last_stats:  # a plan was made (else the turn's plan goes on)
            strip = ({k: v for k, v in s.last_stats.items() if k != "seconds"} for s in (mine, theirs))
            assert next(strip) == next(strip), decision
            plans += 1
            rounds += mine.last_stats["rollouts"]
        py.apply(chosen)
        decision += 1
    assert rounds >= least_rounds


def test_with_a_time_budget_the_native_planner_values_more():
    """The same turn of CPU time: the planner handed a native state values many more positions (its
    games played out are not capped here, so that it works until the time is spent)."""
    py = kb_new_state(GAME.random_setup(2, 8))
    counts = {}
    for core, state in (("python", py), ("native", kb_native.from_python(py))):
        planner = make_planner(1, "hard", 0.4, "kingdom", clock="cpu", rollouts=10**6)
        started = time.process_time()
        planner.act(state)
        assert time.process_time() - started < 1.0
        counts[core] = planner.last_stats["evaluations"]
    assert counts["native"] > 5 * counts["python"], counts


# -- bad input -----------------------------------------------------------------------------------------


def test_bad_input_to_the_bots_inside_the_core_is_refused_and_changes_nothing():
    py = kb_new_state(GAME.random_setup(3, 31))
    nat = kb_native.from_python(py)
    before = nat.to_json()
    rnd = builders_native.PyRandom()
    rnd.seed(1)
    state = rnd.getstate()
    cases = [
        (lambda: nat.plan_turn(3, 4, True, rnd, None, None), IndexError, "seat out of range"),
        (lambda: nat.plan_turn(-1, 4, True, rnd, None, None), IndexError, "seat out of range"),
        (lambda: nat.plan_turn(0, 0, True, rnd, None, None), ValueError, "plan_turn: a beam of at least 1"),
        (lambda: nat.plan_rollout(0, 1, 1), ValueError, "plan_rollout: the turn is not complete"),
        (lambda: nat.plan_rollout(4, 1, 1), IndexError, "seat out of range"),
        (lambda: nat.plan_rollout(0, 1, 0), ValueError, "plan_rollout: a beam of at least 1"),
        (lambda: nat.eval_moves([3, -5]), ValueError, "eval_moves: an action is not negative"),
        (
            lambda: nat.plan_turn(0, 4, True, rnd, None, None, [1.0] * 20, 0),
            ValueError,
            "TILE_ACTIONS must be a whole number of at least 1",
        ),
        (
            lambda: nat.plan_turn(0, 4, True, rnd, None, None, [1.0] * 3, 16),
            ValueError,
            "weights: the 20 weights of KingdomSettings",
        ),
        (lambda: nat.preview(1, 5), ValueError, "a terrain card is a code from 0 to 4"),
        (lambda: nat.preview(3, 0), IndexError, "seat out of range"),
    ]
    for call, kind, message in cases:
        with pytest.raises(kind) as err:
            call()
        assert str(err.value) == message
        assert nat.to_json() == before and rnd.getstate() == state

    # a clock that fails stops the search with its error
    def broken(_):
        raise RuntimeError("no clock")

    with pytest.raises(RuntimeError, match="no clock"):
        nat.plan_turn(0, 4, True, rnd, 1.0, broken)
    assert nat.to_json() == before


def test_a_preview_is_the_python_one():
    for i, py in enumerate(_random_positions(6, 11, 990)):
        if py.is_over():
            continue
        seat = (py.to_move + 1 + i) % py.num_players
        view = kb_native.from_python(py).preview_turn(seat, i % 5)
        assert type(view) is kb_native.NativeKingdomState
        assert view.to_json() == py.preview_turn(seat, i % 5).to_json()
        assert view.legal_actions() == py.preview_turn(seat, i % 5).legal_actions()


# -- the batches take numpy arrays of their own type only --------------------------------------------


def test_a_kingdom_batch_refuses_arrays_of_another_type_and_changes_nothing():
    batch = kb_native.KingdomBatch(4, 2, seed=3, pick_seed=1)
    masks = batch.masks.copy()
    wrong = np.zeros((4, 409), dtype=np.int64)
    with pytest.raises(TypeError, match="incompatible function arguments"):
        batch._b.masks(wrong)
    assert not wrong.any()
    with pytest.raises(TypeError, match="incompatible function arguments"):
        batch._b.masks(np.zeros((4, 409), dtype=np.uint8, order="F"))
    actions = batch.sample().copy()
    bad_steps = [
        (actions.astype(np.int32), batch.masks, batch.rewards, batch.dones, batch.to_move),
        (actions, batch.masks, batch.rewards.astype(np.float64), batch.dones, batch.to_move),
        (actions, batch.masks, batch.rewards, batch.dones.astype(bool), batch.to_move),
        (actions, batch.masks, batch.rewards, batch.dones, batch.to_move.astype(np.int64)),
    ]
    for args in bad_steps:
        with pytest.raises(TypeError, match="incompatible function arguments"):
            batch._b.step(*args)
        assert np.array_equal(batch.masks, masks)
    with pytest.raises(TypeError, match="incompatible function arguments"):
        batch._b.observe(np.zeros((4, 21, 20, 20), dtype=np.float32))
    twin = kb_native.KingdomBatch(4, 2, seed=3, pick_seed=1)
    assert np.array_equal(twin.sample(), actions)
    assert np.array_equal(batch.step(actions)[0], twin.step(actions)[0])  # as if the refused calls were not made


def test_a_middle_ages_batch_refuses_arrays_of_another_type_and_changes_nothing():
    from builders.middle_ages.native import MiddleAgesBatch
    from builders.rl.middle_ages import NUM_ACTIONS, index_to_action

    codes = [index_to_action(i) for i in range(NUM_ACTIONS)]
    batch, twin = (MiddleAgesBatch(3, codes, 2, seed=5, pick_seed=2) for _ in range(2))
    masks = batch.masks.copy()
    wrong = np.zeros(masks.shape, dtype=np.int32)
    with pytest.raises(TypeError, match="incompatible function arguments"):
        batch._b.masks(wrong)
    assert not wrong.any()
    with pytest.raises(TypeError, match="incompatible function arguments"):
        batch._b.sample(np.zeros(3, dtype=np.int32))
    actions = batch.sample().copy()
    with pytest.raises(TypeError, match="incompatible function arguments"):
        batch._b.step(actions, batch.masks, batch.rewards.astype(np.float64), batch.dones, batch.to_move)
    with pytest.raises(TypeError, match="incompatible function arguments"):
        batch._b.step(actions.astype(np.int32), batch.masks, batch.rewards, batch.dones, batch.to_move)
    assert np.array_equal(batch.masks, masks)
    assert np.array_equal(twin.sample(), actions)
    assert np.array_equal(batch.step(actions)[0], twin.step(actions)[0])


def test_a_middle_ages_batch_refuses_codes_that_would_index_out_of_bounds():
    """A batch's codes name each engine action once, none negative; a legal action that no index names is a
    ValueError naming the game and the action (it was a read and a write out of bounds)."""
    from builders.middle_ages.native import MiddleAgesBatch
    from builders.rl.middle_ages import NUM_ACTIONS, index_to_action

    codes = [index_to_action(i) for i in range(NUM_ACTIONS)]
    with pytest.raises(ValueError, match="^codes: an engine action is not negative$"):
        MiddleAgesBatch(2, [*codes, -1], 2, seed=5)
    with pytest.raises(ValueError, match="^codes: an engine action named twice$"):
        MiddleAgesBatch(2, [*codes, codes[0]], 2, seed=5)
    legal = MiddleAgesBatch(1, codes, 2, seed=5, pool=1)._b.state(0).legal_actions()
    missing = [c for c in codes if c != legal[0]]
    with pytest.raises(ValueError, match=rf"^game 0 has a legal action \({legal[0]}\) that no index of codes names$"):
        MiddleAgesBatch(1, missing, 2, seed=5, pool=1)
    with pytest.raises(ValueError, match=r"that no index of codes names$"):
        MiddleAgesBatch(1, codes[:1], 2, seed=5, pool=1)


# -- an agent's own weights ----------------------------------------------------------------------------


def _weight_sets(count: int, seed: int) -> list:
    """Settings far from the defaults: each weight scaled by a random factor (some negative, some whole
    numbers), the frontier's cap from 1 to 12."""
    rnd = random.Random(seed)
    out = []
    for _ in range(count):
        changed = {}
        for name in eval_kingdom.NATIVE_NAMES:
            if name == "KB_FRONTIER_CAP":
                changed[name] = rnd.randint(1, 12)
            elif rnd.random() < 0.2:
                changed[name] = rnd.randint(-3, 6)
            else:
                changed[name] = getattr(eval_kingdom.DEFAULT, name) * rnd.uniform(-1.0, 3.0)
        out.append(eval_kingdom.weights(changed))
    return out


def test_the_evaluation_with_an_agent_s_weights_is_the_python_one():
    """``eval_values`` and ``eval_moves`` with weights (``native_weights``), and ``values`` and
    ``move_values`` handed a native state and settings, give the Python evaluation's numbers."""
    sets = _weight_sets(6, 48)
    checked = 0
    for i, py in enumerate(_random_positions(24, 9, 5300) + _bot_positions(2, 5)):
        settings = sets[i % len(sets)]
        nat = kb_native.from_python(py)
        for turn_over in (None, -1):
            expected = eval_kingdom._kingdom_values(py, turn_over, settings)
            assert nat.eval_values(turn_over is not None, eval_kingdom.native_weights(settings)) == expected, i
            assert eval_kingdom.values(nat, turn_over, settings) == expected, i
        legal = py.legal_actions()
        if legal:
            expected_moves = eval_kingdom._kingdom_move_values(py, legal, settings)
            assert nat.eval_moves(legal, eval_kingdom.native_weights(settings)) == expected_moves, i
            assert eval_kingdom.move_values(nat, legal, settings) == expected_moves, i
        checked += 1
    assert checked > 300
    # the defaults given as weights are the core's own
    py = _random_positions(1, 40, 5400)[3]
    nat = kb_native.from_python(py)
    assert nat.eval_values(False, eval_kingdom.native_weights(eval_kingdom.DEFAULT)) == nat.eval_values(False)


def test_weights_the_core_cannot_take_are_refused():
    nat = kb_native.from_python(kb_new_state(GAME.random_setup(2, 32)))
    good = eval_kingdom.native_weights(eval_kingdom.DEFAULT)
    cap = eval_kingdom.NATIVE_NAMES.index("KB_FRONTIER_CAP")
    cases = [
        (good[:-1], "weights: the 20 weights of KingdomSettings"),
        ([*good, 1.0], "weights: the 20 weights of KingdomSettings"),
        ([*good[:cap], 0.0, *good[cap + 1 :]], "KB_FRONTIER_CAP must be a whole number of at least 1"),
        ([*good[:cap], 2.5, *good[cap + 1 :]], "KB_FRONTIER_CAP must be a whole number of at least 1"),
    ]
    for weights, message in cases:
        for call in (
            lambda: nat.eval_values(False, weights),
            lambda: nat.eval_moves(nat.legal_actions(), weights),
            lambda: nat.mcts_tree(0.3, 4.0, 2.0, 0, False, -1, 0, 0, weights),
        ):
            with pytest.raises(ValueError) as err:
                call()
            assert str(err.value) == message
