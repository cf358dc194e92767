"""The research kit's observations and masks filled by the native cores (``rl_encode``, ``rl_mask``)
against the Python encoders (``codec.encode_reference``, ``codec.mask``), byte for byte, at every
decision of random games of 2-4 players, picks included, for every seat.

These tests need the native module (``make native``): without it they fail, they do not skip."""

from __future__ import annotations

import random

import numpy as np
import pytest

from builders.kingdom import native as kingdom_native
from builders.middle_ages import native as middle_ages_native
from builders.rl.base import Match, make_codec, on_core
from tests.native.helpers import matches_side_by_side
from tests.rl.helpers import new_state

if not (kingdom_native.available() and middle_ages_native.available()):
    pytest.fail("the native core is not built: run `make native` (pip install ./native)", pytrace=False)


def _side_by_side(game: str, players: int, seed: int):
    """(Python match, native match) at every decision of one random game played index by index on
    both cores, and at its end."""
    codec = make_codec(game, players)
    py = Match(codec, new_state(game, players, seed))
    nat = Match(codec, on_core(game, new_state(game, players, seed), "native"))
    assert type(nat.state).__name__.startswith("Native")
    return matches_side_by_side(py, nat, seed)


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("game", ["kingdom", "middle-ages"])
def test_native_observations_and_masks_equal_the_python_encoders(game: str, players: int) -> None:
    codec = make_codec(game, players)
    observations = masks = picks = 0
    for seed in range(5):
        for py, nat in _side_by_side(game, players, 100 * players + seed):
            assert nat.prefix == py.prefix
            picks += bool(py.prefix)
            for seat in range(players):
                reference = codec.encode_reference(py.state, seat, py.prefix)
                native = codec.native_encode(nat.state, seat, nat.prefix)
                assert native.dtype == np.uint8 and native.shape == (codec.size,)
                assert native.tobytes() == reference.tobytes(), (seed, seat, np.flatnonzero(native != reference))
                assert codec.encode(nat.state, seat, nat.prefix).tobytes() == reference.tobytes()
                observed = nat.observe(seat)
                assert observed["observation"].tobytes() == reference.tobytes()
                assert observed["action_mask"].tobytes() == py.observe(seat)["action_mask"].tobytes()
                observations += 1
            if not py.is_over():
                native_mask = codec.native_mask(nat.state, nat.prefix)
                assert native_mask.dtype == np.int8 and native_mask.shape == (codec.num_actions,)
                assert native_mask.tobytes() == codec.mask(py.state.legal_actions(), py.prefix).tobytes()
                masks += 1
    assert masks > 100 * 5
    assert observations == players * (masks + 5)
    if game == "kingdom":
        assert picks > 0  # tiles were picked: the phases and the picked settlement were compared too


def test_every_kingdom_pick_is_encoded_alike() -> None:
    """Each tile and each settlement a move tile may move, picked in turn at positions of random
    games: the phase part and the picked-settlement plane agree."""
    codec = make_codec("kingdom", 3)
    seen: set[tuple[int, bool]] = set()
    for seed in range(60):
        if len(seen) == 11:  # 8 tiles picked, and a settlement picked for each of the 3 move tiles
            break
        for py, nat in _side_by_side("kingdom", 3, seed):
            if py.is_over() or py.prefix:
                continue
            for first in (i for i in py.legal_indices() if i >= 400 and i != 408):
                for second in [None, *range(400)] if first >= 405 else [None]:
                    prefix = [first] if second is None else [first, second]
                    if second is not None and not py.codec.mask(py.legal(), [first])[second]:
                        continue
                    seen.add((first, second is not None))
                    for seat in range(3):
                        reference = codec.encode_reference(py.state, seat, prefix)
                        assert codec.native_encode(nat.state, seat, prefix).tobytes() == reference.tobytes()
                    assert (
                        codec.native_mask(nat.state, prefix).tobytes()
                        == codec.mask(py.state.legal_actions(), prefix).tobytes()
                    )
    assert {first for first, _ in seen} == set(range(400, 408))
    assert {first for first, two in seen if two} == {405, 406, 407}


def _native(game: str, players: int = 2):
    return on_core(game, new_state(game, players, 1), "native")


@pytest.mark.parametrize("game", ["kingdom", "middle-ages"])
def test_bad_arrays_and_seats_are_refused_and_nothing_is_written(game: str) -> None:
    codec = make_codec(game, 2)
    state = _native(game)
    picks = (-1, -1) if game == "kingdom" else ()
    short = np.full(codec.size - 1, 7, dtype=np.uint8)
    with pytest.raises(ValueError, match="^rl_encode: wrong size$"):
        state.rl_encode(0, *picks, short)
    assert (short == 7).all()
    out = np.full(codec.size, 7, dtype=np.uint8)
    for seat in (-1, 2):
        with pytest.raises(IndexError, match="^seat out of range$"):
            state.rl_encode(seat, *picks, out)
    assert (out == 7).all()
    with pytest.raises(TypeError):
        state.rl_encode(0, *picks, np.zeros(codec.size, dtype=np.int64))
    with pytest.raises(TypeError):
        state.rl_encode(0, *picks, np.zeros((2, codec.size), dtype=np.uint8)[:, 0])  # not contiguous
    mask = np.full(codec.num_actions + 1, 7, dtype=np.int8)
    with pytest.raises(ValueError, match=f"^rl_mask: {codec.num_actions} entries$"):
        state.rl_mask(*picks, mask)
    assert (mask == 7).all()


@pytest.mark.parametrize("p0, p1", [(-1, 5), (399, -1), (408, -1), (400, 3), (405, 400), (405, -2), (7, 7)])
def test_kingdom_picks_that_cannot_be_pending_are_refused(p0: int, p1: int) -> None:
    codec = make_codec("kingdom", 2)
    state = _native("kingdom")
    out = np.full(codec.size, 7, dtype=np.uint8)
    message = r"^picks: none \(-1, -1\), a tile \(400-407, -1\) or a move tile and a hex \(405-407, 0-399\)$"
    with pytest.raises(ValueError, match=message):
        state.rl_encode(0, p0, p1, out)
    with pytest.raises(ValueError, match=message):
        state.rl_mask(p0, p1, np.zeros(409, dtype=np.int8))
    assert (out == 7).all()


def _play(env, seed: int) -> list:
    """Everything a learner is handed along one random game of a PettingZoo environment."""
    rnd = random.Random(seed)
    env.reset(seed=seed)
    seen = []
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        seen.append(
            (
                agent,
                obs["observation"].tobytes(),
                obs["action_mask"].tobytes(),
                reward,
                terminated,
                truncated,
                repr(info),
            )
        )
        if terminated or truncated:
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(legal[rnd.randrange(len(legal))]))
    return seen


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("game", ["kingdom", "middle-ages"])
def test_the_environments_hand_out_the_same_on_both_cores(game: str, players: int) -> None:
    from builders.core.state import GameState
    from builders.rl import env

    python, native = env(game, players, core="python"), env(game, players, core="native")
    assert (python.unwrapped.core, native.unwrapped.core) == ("python", "native")
    for seed in range(2):
        assert _play(native, seed) == _play(python, seed)
        assert isinstance(native.unwrapped.game_state, GameState)
        assert type(native.unwrapped.game_state).__name__.startswith("Native")
        assert native.unwrapped.game_state.to_record() == python.unwrapped.game_state.to_record()
        assert native.unwrapped.state().tobytes() == python.unwrapped.state().tobytes()


@pytest.mark.parametrize("game", ["kingdom", "middle-ages"])
def test_the_core_plays_only_allowed_indices_and_leaves_the_rest_to_python(game: str) -> None:
    """``rl_play`` (the native path of ``Match.play``) refuses, changing nothing, an index the mask does
    not allow and any index while recorded draws wait; the match then raises the Python engine's error."""
    from builders.rl import IllegalIndex

    codec = make_codec(game, 3)
    match = Match(codec, _native(game, 3))
    mask = match.mask()
    picks = (-1, -1) if game == "kingdom" else ()
    for index in np.flatnonzero(mask == 0)[:50].tolist() + [-1, codec.num_actions]:
        version = match.state.version
        assert match.state.rl_play(*picks, index) == -2
        assert match.state.version == version
    bad = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(IllegalIndex, match=f"^action index {bad} "):
        match.play(bad)
    good = int(np.flatnonzero(mask)[0])
    state = match.state
    state.forced = ["nothing recorded is drawn from this"]
    assert state.rl_play(*picks, good) == -2
    state.forced = []
    version = state.version
    played = state.rl_play(*picks, good)
    assert played == -1 or (played >= 0 and state.version == version + 1)
