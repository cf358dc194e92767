"""Observations: in their declared spaces, equal to the engine's own per-seat view (JSON), and blind to
everything hidden from the seat (rules.md "Information" of both games)."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from builders.core.rng import Rng
from builders.kingdom.data import CARDS, SECTION_NAMES, TERRAINS
from builders.middle_ages.cards import INDEX
from builders.rl import kingdom as kb
from builders.rl.base import Match, make_codec
from tests.rl.helpers import random_positions


def _hexes(plane: np.ndarray) -> list[list[int]]:
    return [[int(r), int(c)] for r, c in zip(*np.nonzero(plane))]


def check_kingdom_view(match: Match, seat: int) -> None:
    state, codec = match.state, match.codec
    n = codec.num_players
    obs = match.observe(seat, "dict")
    assert codec.observation_space("dict").contains(obs)
    view = state.observation(seat)
    board = obs["board"]
    for k in range(n):
        q = (seat + k) % n
        player = view["players"][q]
        assert _hexes(board[kb._STATIC + 1 + k]) == sorted(player["settlements"])
        assert obs["supply"][k] == player["supply"]
        row = obs["terrain"][k]
        if player["terrain"] is None:
            assert not row.any()
        else:
            assert row.tolist() == [int(t == player["terrain"]) for t in TERRAINS]
        counts = np.zeros((8, 3), dtype=int)
        for tile in player["tiles"]:
            counts[SECTION_NAMES.index(tile["kind"]), ("ready", "used", "new").index(tile["state"])] += 1
        assert (obs["tiles"][k] == counts).all()
    left = {tuple(t["at"]): t["count"] for t in view["tiles_left"]}
    assert {(r, c): int(board[kb._STATIC, r, c]) for r, c in left} == left
    assert obs["cards"].tolist() == [int(c in view["cards"]) for c in CARDS]
    assert obs["progress"][2] == view["deck_count"]
    assert obs["cards_seen"][0].tolist() == [view["discard"].count(t) for t in TERRAINS]
    mask = obs["action_mask"]
    if seat == state.current_player:
        assert np.flatnonzero(mask).tolist() == match.legal_indices()
    else:
        assert not mask.any()


def check_middle_ages_view(match: Match, seat: int) -> None:
    state, codec = match.state, match.codec
    n = codec.num_players
    obs = match.observe(seat, "dict")
    assert codec.observation_space("dict").contains(obs)
    view = state.observation(seat)
    assert sorted(np.flatnonzero(obs["building_row"]) + 42) == sorted(INDEX[c] for c in view["building_row"])
    assert sorted(np.flatnonzero(obs["worker_row"])) == sorted(INDEX[c] for c in view["worker_row"])
    top = view["building_deck_top"]
    assert np.flatnonzero(obs["building_deck_top"]).tolist() == ([INDEX[top] - 42] if top else [])
    for k in range(n):
        player = view["players"][(seat + k) % n]
        assert obs["coins"][k] == player["coins"] and obs["vp"][k] == player["vp"]
        assert sorted(np.flatnonzero(obs["sites"][k]) + 42) == sorted(INDEX[s["card"]] for s in player["sites"])
        assert sorted(np.flatnonzero(obs["completed"][k]) + 42) == sorted(INDEX[c] for c in player["completed"])
        assert obs["crew"][k].sum() == len(player["crew"])
        for site in player["sites"]:
            i = INDEX[site["card"]] - 42
            assert obs["site_progress"][i].tolist() == site["progress"]
            assert obs["site_need"][i].tolist() == [
                max(r - p, 0) for r, p in zip(site["requirement"], site["progress"])
            ]
            assert obs["site_sent"][i] == site["sent_this_turn"]
    assert obs["progress"][0] == view["actions_left"]


def _same(a: dict, b: dict) -> bool:
    return a.keys() == b.keys() and all(np.array_equal(a[k], b[k]) for k in a)


@settings(max_examples=5, deadline=None)
@given(seed=st.integers(0, 10**6), players=st.integers(2, 4), game=st.sampled_from(["kingdom", "middle-ages"]))
def test_observations_match_the_engine_view_and_hide_what_is_hidden(seed: int, players: int, game: str) -> None:
    codec = make_codec(game, players)
    check = check_kingdom_view if game == "kingdom" else check_middle_ages_view
    rng = Rng(seed)
    for i, state in enumerate(random_positions(game, players, seed)):
        if i % 7:
            continue
        match = Match(codec, state)
        for seat in range(players):
            check(match, seat)
            # whatever is hidden from the seat, drawn anew, leaves its observation unchanged
            other = Match(codec, state.resample_hidden(seat, rng))
            assert _same(match.observe(seat, "dict"), other.observe(seat, "dict"))


def test_a_kingdom_seat_never_sees_the_card_another_seat_keeps() -> None:
    # rules.md "Information": a player's terrain card is hidden from the others until it is played
    for state in random_positions("kingdom", 2, 11):
        if state.turn == 1:
            break
    match = Match(make_codec("kingdom", 2), state)
    assert state.current_player == 1
    seat0, seat1 = match.observe(0, "dict"), match.observe(1, "dict")
    assert seat0["terrain"][0].sum() == 1  # seat 0 knows its own next card
    assert seat1["terrain"][1].sum() == 0  # seat 1 does not know it
    assert seat1["terrain"][0].sum() == 1  # seat 1's played card
    assert seat0["terrain"][1].tolist() == seat1["terrain"][0].tolist()  # is public during its turn
    # relative seats: the settlements planes swap
    assert (seat0["board"][kb._STATIC + 1] == seat1["board"][kb._STATIC + 2]).all()


def test_observations_are_fresh_arrays() -> None:
    for game in ("kingdom", "middle-ages"):
        for state in random_positions(game, 2, 3, limit=1):
            match = Match(make_codec(game, 2), state)
            a, b = match.observe(0, "dict"), match.observe(0, "dict")
            for key in a:
                assert not np.shares_memory(a[key], b[key]), key
