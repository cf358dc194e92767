"""The fast observation encoders give byte for byte the observations of the plain numpy encoders
(``encode_reference``), encoding version 2, on every position of random games, for every seat."""

from __future__ import annotations

import random

import numpy as np
import pytest

from builders.rl.base import Match, make_codec
from tests.rl.helpers import new_state


def _games(game: str, players: int, seeds: range):
    """(match, seat) at every decision of random games played index by index, picks included."""
    codec = make_codec(game, players)
    for seed in seeds:
        match = Match(codec, new_state(game, players, seed))
        rnd = random.Random(seed)
        while True:
            yield match
            if match.is_over():
                break
            legal = match.legal_indices()
            match.play(legal[rnd.randrange(len(legal))])


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("game", ["kingdom", "middle-ages"])
def test_the_fast_encoders_equal_the_reference_on_random_games(game: str, players: int) -> None:
    codec = make_codec(game, players)
    checked = 0
    for match in _games(game, players, range(6)):
        for seat in range(players):
            reference = codec.encode_reference(match.state, seat, match.prefix)
            fast = codec.encode(match.state, seat, match.prefix)
            observed = match.observe(seat)["observation"]
            assert fast.dtype == observed.dtype == np.uint8
            assert fast.shape == observed.shape == (codec.size,)
            assert fast.tobytes() == reference.tobytes()
            assert observed.tobytes() == reference.tobytes()
            checked += 1
    assert checked > 600 * players


@pytest.mark.parametrize("game", ["kingdom", "middle-ages"])
def test_a_match_encodes_right_after_jumping_between_unrelated_positions(game: str) -> None:
    """The observations a match keeps between steps follow whatever state it is handed next: a state of
    another game, one further back, or a copy changed behind its back."""
    codec = make_codec(game, 3)
    states = [m.state.copy() for m in _games(game, 3, range(2))]
    random.Random(1).shuffle(states)
    match = Match(codec, states[0])
    for state in states[:300]:
        match.state = state
        for seat in range(3):
            assert match.observe(seat)["observation"].tobytes() == codec.encode_reference(state, seat, []).tobytes()


def test_observations_handed_out_are_not_changed_by_later_steps() -> None:
    codec = make_codec("kingdom", 2)
    match = Match(codec, new_state("kingdom", 2, 3))
    kept = []
    rnd = random.Random(0)
    while not match.is_over():
        obs = match.observe(match.current_player)["observation"]
        kept.append((obs, obs.copy()))
        legal = match.legal_indices()
        match.play(legal[rnd.randrange(len(legal))])
    assert all(np.array_equal(a, b) for a, b in kept)
