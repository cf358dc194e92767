"""The Builders' research environments on the native core: a random start drawn and dealt by the core
(``random_start``), a seat's observation and mask filled in one call (``rl_observe``), and the seats'
coins read from the core; each against what the Python engine and encoders give.

These tests need the native module (``make native``): without it they fail, they do not skip."""

from __future__ import annotations

import random

import numpy as np
import pytest

from builders.middle_ages import native
from builders.middle_ages.setup import check_setup, random_setup
from builders.middle_ages.state import MiddleAgesState
from builders.rl.base import Match, make_codec
from tests.native.helpers import matches_side_by_side

if not native.available():
    pytest.fail("the native core is not built: run `make native` (pip install ./native)", pytrace=False)


def _python_start(players: int, seed: int) -> native.NativeMiddleAgesState:
    return native.from_python(MiddleAgesState(check_setup(random_setup(players, seed))))


SEEDS = [0, 1, 2, 7, 99, 12345, 2**31 - 1, 2**32 + 5, 2**63, 2**64 - 1]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_core_draws_and_deals_the_random_setup_of_the_python_engine(players: int) -> None:
    for seed in SEEDS + list(range(100, 140)):
        fast, slow = native.random_start(players, seed), _python_start(players, seed)
        assert fast.meta == slow.meta == check_setup(random_setup(players, seed))
        assert list(fast.meta) == list(slow.meta)  # the same keys in the same order: the same records
        assert fast.fields() == slow.fields()
        assert fast.history == slow.history == [] and fast.forced == []
        assert fast.to_record() == slow.to_record()
        # and the same game from there: the same legal actions at every decision
        rnd = random.Random(seed)
        for _ in range(150):
            if fast.is_over():
                break
            legal = fast.legal_actions()
            assert legal == slow.legal_actions()
            action = legal[rnd.randrange(len(legal))]
            fast.apply(action)
            slow.apply(action)
        assert fast.fields() == slow.fields() and fast.history == slow.history


def test_the_codec_starts_random_games_on_the_core_and_explicit_setups_as_before() -> None:
    codec = make_codec("middle-ages", 3)
    state = codec.new_state(None, 42, "native")
    assert type(state) is native.NativeMiddleAgesState
    assert state.fields() == _python_start(3, 42).fields() and state.meta == _python_start(3, 42).meta
    assert codec.new_state("random", 42, "native").fields() == state.fields()
    python = codec.new_state(None, 42, "python")
    assert type(python) is MiddleAgesState and python.to_json() == state.to_json()
    setup = random_setup(3, 8)
    assert codec.new_state(setup, 0, "native").fields() == _python_start(3, 8).fields()
    # a seed the core's generator does not take as it is goes the Python way, with the same result
    assert codec.new_state(None, "a text seed", "native").meta == check_setup(random_setup(3, "a text seed"))
    assert codec.new_state(None, -5, "native").fields() == _python_start(3, -5).fields()


@pytest.mark.parametrize(
    "players, cards, message",
    [
        (1, None, "^2 to 4 players$"),
        (5, None, "^2 to 4 players$"),
        (2, ([42] * 43, [0, 1], [6]), "^random_start: at most 42 buildings and 42 workers, an apprentice a seat$"),
        (3, ([42], [0, 1], [6]), "^random_start: at most 42 buildings and 42 workers, an apprentice a seat$"),
        (2, ([42], [0, 1], [6] * 43), "^random_start: at most 42 buildings and 42 workers, an apprentice a seat$"),
        (2, ([84], [0, 1], [6]), "^random_start: no such card$"),
        (2, ([42], [0, -1], [6]), "^random_start: no such card$"),
    ],
)
def test_a_random_start_of_bad_arguments_is_refused_and_changes_nothing(players, cards, message) -> None:
    state = native.random_start(2, 5)
    before, version = state.fields(), state.version
    drawn = cards or native._DRAWN
    with pytest.raises(ValueError, match=message):
        state.random_start(players, 3, *drawn)
    assert state.fields() == before and state.version == version


def _random_matches(players: int, seed: int):
    """(Python match, native match) at every decision of one random game, and at its end."""
    codec = make_codec("middle-ages", players)
    py = Match(codec, MiddleAgesState(check_setup(random_setup(players, seed))))
    return matches_side_by_side(py, Match(codec, native.random_start(players, seed)), seed)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_one_call_fills_the_observation_and_the_mask_a_seat_is_handed(players: int) -> None:
    codec = make_codec("middle-ages", players)
    seen = 0
    for seed in range(3):
        for py, nat in _random_matches(players, 10 * players + seed):
            for seat in range(players):
                obs = np.full(codec.size, 7, dtype=np.uint8)
                mask = np.full(codec.num_actions, 7, dtype=np.int8)
                nat.state.rl_observe(seat, obs, mask)
                assert obs.tobytes() == codec.encode_reference(py.state, seat, []).tobytes()
                if py.is_over():
                    expected = np.ones(codec.num_actions, dtype=np.int8)  # the step after the end is a reset
                elif seat == py.current_player:
                    expected = codec.mask(py.state.legal_actions(), [])
                else:
                    expected = np.zeros(codec.num_actions, dtype=np.int8)
                assert mask.tobytes() == expected.tobytes()
                handed = nat.observe(seat)
                assert handed["observation"].tobytes() == obs.tobytes()
                assert handed["action_mask"].tobytes() == py.observe(seat)["action_mask"].tobytes() == mask.tobytes()
                assert handed["observation"].dtype == np.uint8 and handed["action_mask"].dtype == np.int8
                seen += 1
            assert nat.state.coins == py.state.coins
    assert seen > 3 * players * 300


def test_the_arrays_handed_out_are_new_at_every_step_and_kept_as_they_were() -> None:
    kept = []
    for py, nat in _random_matches(2, 3):
        for seat in range(2):
            handed = nat.observe(seat)
            kept.append([(a, a.copy()) for a in handed.values()])
    arrays = [a for pair in kept for a, _ in pair]
    assert len({id(a) for a in arrays}) == len(arrays)  # no array handed out twice
    assert all(np.array_equal(a, b) for pair in kept for a, b in pair)
    assert all(a.flags.owndata and a.flags.writeable for a in arrays)


def test_a_bad_seat_or_array_is_refused_and_nothing_is_written() -> None:
    codec = make_codec("middle-ages", 2)
    state = native.random_start(2, 1)
    obs = np.full(codec.size, 7, dtype=np.uint8)
    mask = np.full(codec.num_actions, 7, dtype=np.int8)
    for seat in (-1, 2):
        with pytest.raises(IndexError, match="^seat out of range$"):
            state.rl_observe(seat, obs, mask)
    with pytest.raises(ValueError, match="^rl_observe: wrong size$"):
        state.rl_observe(0, obs[:-1], mask)
    with pytest.raises(ValueError, match="^rl_observe: 2189 mask entries$"):
        state.rl_observe(0, obs, mask[:-1])
    with pytest.raises(TypeError):
        state.rl_observe(0, obs, mask.view(np.uint8))  # the mask is int8: another type is refused, not copied
    with pytest.raises(TypeError):
        state.rl_observe(0, np.zeros((2, codec.size), dtype=np.uint8)[:, 0], mask)  # not contiguous
    assert (obs == 7).all() and (mask == 7).all()
