"""Invariants over random games (hypothesis chooses the players, the setup seed and the moves)."""

import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from builders.core.errors import IllegalAction
from builders.core.record import replay
from builders.core.rng import Rng
from builders.middle_ages.cards import IDS
from builders.middle_ages.game import MiddleAges

GAME = MiddleAges()
ALL_CODES = (
    list(range(0, 6))
    + list(range(256, 256 + 84))
    + list(range(512, 512 + 84))
    + [1024 + (s << 7) + w for s in range(42, 84) for w in list(range(42)) + list(range(76, 84))]
)


def card_places(j):
    """Every card once: rows, decks, crews, sites, workers on sites, completed (a completed machine is
    counted as completed, not again as a worker)."""
    seen = Counter(j["building_row"] + j["building_deck"] + j["worker_row"] + j["worker_deck"])
    for p in j["players"]:
        done = set(p["completed"])
        seen.update(p["completed"])
        seen.update(c for c in p["crew"] if c not in done)
        for site in p["sites"]:
            seen[site["card"]] += 1
            seen.update(c for c in site["workers"] if c not in done)
    return seen


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(2, 4), seed=st.integers(0, 2**32), moves=st.integers(0, 2**32))
def test_random_game_invariants(players, seed, moves):
    state = GAME.new_state(GAME.random_setup(players, seed))
    rnd = random.Random(moves)
    steps = 0
    while not state.is_over():
        legal = state.legal_actions()
        assert legal, "a player always has a legal action"
        assert len(set(legal)) == len(legal)
        for a in legal:
            assert state.parse_action(state.action_to_string(a)) == a
        j = state.to_json()
        assert all(p["coins"] >= 0 for p in j["players"])
        assert card_places(j) == Counter(IDS)
        obs = state.observation(state.current_player)
        hidden = {"building_deck", "worker_deck"}
        assert set(obs) == (set(j) - hidden) | {"seat", "building_deck_size", "building_deck_top", "worker_deck_size"}
        assert {k: v for k, v in obs.items() if k in j} == {k: v for k, v in j.items() if k not in hidden}
        assert obs["building_deck_top"] == (j["building_deck"][0] if j["building_deck"] else None)
        illegal = rnd.choice(ALL_CODES)
        if illegal not in legal:
            try:
                state.apply(illegal)
            except IllegalAction:
                pass
            else:
                raise AssertionError(f"{illegal} applied though not legal")
            assert state.to_json() == j
        if steps % 50 == 0:
            other = state.copy()
            other.apply(legal[0])
            assert state.to_json() == j
        state.apply(rnd.choice(legal))
        steps += 1
        assert steps < 5000
    assert steps > 100
    again = replay(state.to_record())
    assert again.to_json() == state.to_json()
    assert again.result() == state.result()
    r = state.result()
    assert [sum(b.values()) for b in r.breakdown] == list(r.scores)


@settings(max_examples=20, deadline=None)
@given(players=st.integers(2, 4), seed=st.integers(0, 2**32), stop=st.integers(0, 300), salt=st.integers(0, 99))
def test_resample_hidden_is_consistent(players, seed, stop, salt):
    state = GAME.new_state(GAME.random_setup(players, seed))
    rnd = random.Random(seed)
    for _ in range(stop):
        if state.is_over():
            break
        legal = state.legal_actions()
        state.apply(legal[rnd.randrange(len(legal))])
    seat = salt % players
    other = state.resample_hidden(seat, Rng(salt))
    assert other.observation(seat) == state.observation(seat)
    assert sorted(other.to_json()["worker_deck"]) == sorted(state.to_json()["worker_deck"])
    assert other.legal_actions() == state.legal_actions()
