"""Invariants that hold in every position of every game (hypothesis: random setups, random legal
play). Each names the rule it checks; the legal moves are compared with a move generator written
from rules.md alone (helpers_positions.reference_moves)."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from builders.core.errors import IllegalAction
from builders.core.games import on_python
from builders.core.record import replay
from builders.kingdom.game import KingdomBuilder
from builders.kingdom.state import KingdomState
from builders.kingdom.data import CARDS
from tests.unseen import Unseen
from tests.kingdom.helpers_positions import hexes, neighbours, reference_moves, reference_scores

GAME = KingdomBuilder()
TERRAINS = {"grass", "canyon", "desert", "flower", "forest"}

games = st.tuples(st.integers(0, 2**32 - 1), st.integers(2, 4), st.booleans())


def new_game(seed: int, players: int, first: bool):
    if first:
        setup = GAME.first_game_setup(players)
        setup["seed"] = seed
    else:
        setup = GAME.random_setup(players, seed)
    return GAME.new_state(setup)


def walk(seed: int, players: int, first: bool):
    """Yield every position of a game of random legal actions (the state itself, then changed)."""
    state = new_game(seed, players, first)
    rng = random.Random(seed)
    yield state
    while not state.is_over():
        state.apply(rng.choice(state.legal_actions()))
        yield state


def check_position(pos: dict) -> None:
    """rules.md "Components and setup" and "Location tiles": what no action can change."""
    seen: set[tuple[int, int]] = set()
    left = {tuple(t["at"]): t["count"] for t in pos["tiles_left"]}
    assert set(left) == set(hexes(pos["sections"], "L"))
    for player in pos["players"]:
        mine = [tuple(h) for h in player["settlements"]]
        # 40 settlements per player, on the map or in the supply
        assert len(mine) + player["supply"] == 40
        # at most one settlement per hex (Building rule 1)
        assert not seen & set(mine) and len(set(mine)) == len(mine)
        seen |= set(mine)
        held = [tuple(t["from"]) for t in player["tiles"]]
        taken = {tuple(h) for h in player["taken_from"]}
        # a tile held came from a hex the player took from, once, and stays only while one of the
        # player's settlements stands next to that hex
        assert len(set(held)) == len(held) and set(held) <= taken
        for h in held:
            assert set(neighbours(*h)) & set(mine), f"tile from {h} held without a settlement next to it"
        # building or moving next to a location takes a tile if any is left (and tiles never come back)
        for h, count in left.items():
            if set(neighbours(*h)) & set(mine):
                assert h in taken or count == 0, f"a settlement next to {h} took no tile ({count} left)"
    # 2 tiles per location hex: on the hex, or taken by a player (held, or lost out of the game)
    for entry in pos["tiles_left"]:
        h = tuple(entry["at"])
        takers = sum(1 for player in pos["players"] if h in {tuple(x) for x in player["taken_from"]})
        assert entry["count"] + takers == 2
    # the 25 terrain cards: in the deck, the discard pile, removed, or in hand
    hands = [p["terrain"] for p in pos["players"] if p["terrain"] is not None]
    cards = pos["deck"] + pos["discard"] + pos["removed"] + hands
    assert sorted(cards) == sorted(t for t in TERRAINS for _ in range(5)) or pos["game_over"]


def sorted_moves(state) -> list[str]:
    return sorted(state.action_to_string(a) for a in state.legal_actions())


@settings(max_examples=100, deadline=None)
@given(games)
def test_every_position_is_consistent_and_its_moves_follow_the_rules(game):
    for state in walk(*game):
        pos = state.to_json()
        check_position(pos)
        legal = state.legal_actions()
        assert sorted_moves(state) == reference_moves(pos)
        # notation round-trips: format then parse gives the same action
        for action in legal:
            assert state.parse_action(state.action_to_string(action)) == action


@settings(max_examples=60, deadline=None)
@given(games)
def test_every_legal_action_applies(game):
    for i, state in enumerate(walk(*game)):
        if i % 7 or state.is_over():
            continue
        for action in state.legal_actions():
            other = state.copy()
            other.apply(action)
            assert other.history[len(state.history)] == action


def _wrong_actions(state, rng: random.Random, n: int) -> list[str]:
    legal = set(sorted_moves(state))
    verbs = ["build", "oracle", "farm", "oasis", "tower", "tavern", "barn", "harbor", "paddock", "end"]
    out = []
    while len(out) < n:
        verb = rng.choice(verbs)
        a = f"{rng.randrange(20)},{rng.randrange(20)}"
        b = f"{rng.randrange(20)},{rng.randrange(20)}"
        text = verb if verb == "end" else f"{verb} {a}>{b}" if verb in ("barn", "harbor", "paddock") else f"{verb} {a}"
        if text not in legal:
            out.append(text)
    return out + ["build", "build 20,1", "fly 3,4", "paddock 3,4", "farm 3,4>5,6", "end now", ""]


@settings(max_examples=60, deadline=None)
@given(games)
def test_illegal_actions_are_refused_and_change_nothing(game):
    rng = random.Random(game[0])
    for i, state in enumerate(walk(*game)):
        if i % 5:
            continue
        before = state.to_json()
        history = list(state.history)
        moves = sorted_moves(state)
        for text in _wrong_actions(state, rng, 8):
            with pytest.raises(IllegalAction) as err:
                state.apply_string(text)
            assert str(err.value) and "\n" not in str(err.value)
        assert state.to_json() == before
        assert state.history == history
        assert sorted_moves(state) == moves


@settings(max_examples=60, deadline=None)
@given(games, st.integers(0, 10**6))
def test_records_replay_and_positions_round_trip(game, cut):
    states = []
    for i, state in enumerate(walk(*game)):
        if i % 9 == cut % 9 or state.is_over():
            states.append(state.copy())
    for state in states:
        # replaying the record gives the same state
        record = json.loads(json.dumps(state.to_record()))
        again = replay(record)
        assert again.to_json() == state.to_json()
        assert again.history == state.history
        # the position goes through JSON and back unchanged, with the same legal moves
        pos = json.loads(json.dumps(state.to_json()))
        loaded = KingdomState.from_json(pos)
        assert loaded.to_json() == state.to_json()
        assert sorted_moves(loaded) == sorted_moves(state)
        assert loaded.is_over() == state.is_over()


@settings(max_examples=60, deadline=None)
@given(games)
def test_observation_hides_the_others_cards_and_the_deck_order(game):
    """rules.md "Information": a player's own terrain card is hidden from the others until it is
    played; the deck order is hidden from everyone; all else is public."""
    for i, state in enumerate(walk(*game)):
        if i % 6:
            continue
        full = state.to_json()
        for seat in range(state.num_players):
            obs = state.observation(seat)
            assert "deck" not in obs
            assert obs["deck_count"] == len(full["deck"])
            for q, player in enumerate(obs["players"]):
                shown = q == seat or (q == full["to_move"] and not full["game_over"])
                assert player["terrain"] == (full["players"][q]["terrain"] if shown else None)
                assert {k: v for k, v in player.items() if k != "terrain"} == {
                    k: v for k, v in full["players"][q].items() if k != "terrain"
                }
            rest = {k: v for k, v in obs.items() if k not in ("players", "deck_count")}
            assert rest == {k: v for k, v in full.items() if k not in ("players", "deck")}


@settings(max_examples=30, deadline=None)
@given(games)
def test_an_observation_reads_nothing_its_seat_may_not_see(game):
    """rules.md "Information": an observation is made of what its seat may see, not by blanking the
    rest afterwards: with the deck's cards and the hidden terrain cards unreadable (``Unseen``), every
    seat's and the spectator's observation is made, and is what it is on the state itself."""
    for i, state in enumerate(walk(*game)):
        if i % 9:
            continue
        mover = None if state.over else state.to_move
        state = on_python(state)  # (the native state's observation is the same function on its fields)
        for seat in [None, *range(state.num_players)]:
            blind = state.copy()
            blind.deck = Unseen(state.deck)
            blind.hand = Unseen(state.hand, seen={q for q in (seat, mover) if q is not None})
            assert blind.observation(seat) == state.observation(seat)


@settings(max_examples=60, deadline=None)
@given(games)
def test_copy_is_independent(game):
    rng = random.Random(game[0] + 1)
    for i, state in enumerate(walk(*game)):
        if i % 8 or state.is_over():
            continue
        before = state.to_json()
        history = list(state.history)
        other = state.copy()
        for _ in range(5):
            if other.is_over():
                break
            other.apply(rng.choice(other.legal_actions()))
        assert state.to_json() == before and state.history == history
        twin = state.copy()
        state_moves = sorted_moves(state)
        state.apply(state.legal_actions()[0])
        assert twin.to_json() == before and sorted_moves(twin) == state_moves


@settings(max_examples=20, deadline=None)
@given(games)
def test_the_same_seed_plays_the_same_game(game):
    a = list(walk(*game))[-1].to_record()
    b = list(walk(*game))[-1].to_record()
    assert a == b
    assert a["result"]["winners"]


@settings(max_examples=60, deadline=None)
@given(games, st.permutations(CARDS))
def test_scores_follow_the_scoring_rules(game, cards):
    """rules.md "Scoring": the gold per card, as the position stands and at the end, equals a scorer
    written from the rules alone (all ten cards take part over the examples)."""
    seed, players, first = game
    setup = GAME.random_setup(players, seed)
    setup["cards"] = list(cards[:3])
    state = GAME.new_state(setup)
    rng = random.Random(seed)
    i = 0
    while not state.is_over():
        if i % 10 == 0:
            assert state.score_breakdown() == reference_scores(state.to_json())
        state.apply(rng.choice(state.legal_actions()))
        i += 1
    result = state.result()
    expected = reference_scores(state.to_json())
    assert [dict(b) for b in result.breakdown] == expected
    totals = [sum(part.values()) for part in expected]
    assert list(result.scores) == totals
    assert list(result.winners) == [s for s, t in enumerate(totals) if t == max(totals)]


@settings(max_examples=40, deadline=None)
@given(games, st.integers(0, 2**32 - 1))
def test_resampling_the_hidden_cards_keeps_what_the_seat_knows(game, k):
    """rules.md "Information": a determinization redraws only what ``seat`` cannot see (the other
    hands and the deck order); what the seat sees and the moves of the player to move stay."""
    from builders.core.rng import Rng

    for i, state in enumerate(walk(*game)):
        if i % 11:
            continue
        for seat in range(state.num_players):
            other = state.resample_hidden(seat, Rng(k + seat))
            assert other.observation(seat) == state.observation(seat)
            check_position(other.to_json())
            if not state.is_over():
                assert sorted_moves(other) == sorted_moves(state)
