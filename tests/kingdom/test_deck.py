"""The terrain deck: the reshuffle as soon as the deck runs out (rules.md, "A turn" 4, seed 001), the
replacement of a played terrain that a tile used before the mandatory build left without a free hex
(rules.md, "Building rules" 4), both together, and record formats 1 (the reshuffle waited for the next
draw) and 2 (now).

The positions are on the recommended first-game map; its 53 desert hexes are filled but one, and seat 0
holds the Oasis tile of hex 17,5 (next to its settlement on the desert hex 17,6).
"""

from __future__ import annotations

import copy
import hashlib
import json
import random
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from builders.core.errors import InvalidPosition, RecordError, ReplayError
from builders.core.record import replay, steps
from builders.kingdom import KingdomBuilder, KingdomState
from builders.kingdom.data import TERRAINS
from tests.kingdom.helpers_positions import FIRST_MAP, hexes

CARDS = ["fishermen", "merchants", "knights"]
DESERT = [list(h) for h in hexes(FIRST_MAP, "D")]
LAST_DESERT = [0, 1]
FIXTURES = json.loads((Path(__file__).parent / "format1" / "records.json").read_text(encoding="utf-8"))


def oasis_position(deck, discard=(), removed=(), terrain1="grass", **extra):
    """Seat 0 to move with desert played, one free desert hex (0,1) and a ready Oasis tile."""
    rest = [h for h in DESERT if h != LAST_DESERT]
    rest.remove([17, 6])
    seat0 = [[17, 6]] + rest[:25]
    seat1 = rest[25:]
    pos = {
        "sections": FIRST_MAP,
        "cards": CARDS,
        "players": [
            {
                "settlements": seat0,
                "terrain": "desert",
                "tiles": [{"kind": "oasis", "from": [17, 5], "state": "ready"}],
            },
            {"settlements": seat1, "terrain": terrain1},
        ],
        "deck": list(deck),
        "discard": list(discard),
        "removed": list(removed),
    }
    pos.update(extra)
    return pos


def rest_of(*used):
    """The 25 cards less ``used``, in canonical order."""
    cards = Counter({t: 5 for t in TERRAINS})
    cards.subtract(used)
    return [t for t in TERRAINS for _ in range(cards[t])]


def legal(state):
    return sorted(state.action_to_string(a) for a in state.legal_actions())


# -- replacement after a tile ---------------------------------------------------------------------


def test_a_tile_that_fills_the_last_hex_of_the_played_terrain_replaces_the_card_at_once():
    """rules.md, Building rules 4: "after a tile used before the mandatory action filled the last one,
    the card is removed from the game, and the player at once draws a new card, which becomes the
    played terrain for the rest of the turn"."""
    deck = ["canyon"] + rest_of("desert", "grass", "canyon")
    state = KingdomState.from_json(oasis_position(deck))
    assert legal(state) == ["build 0,1", "oasis 0,1"]
    state.apply_string("oasis 0,1")
    assert state.history_strings() == ["oasis 0,1", {"chance": "canyon"}]
    pos = state.to_json()
    assert pos["players"][0]["terrain"] == "canyon"
    assert pos["removed"] == ["desert"] and pos["discard"] == []
    assert pos["deck"] == deck[1:]
    assert pos["built_this_turn"] == 0
    # the mandatory build is now on canyon, three settlements
    assert legal(state) and all(a.startswith("build ") for a in legal(state))
    assert {tuple(map(int, a[6:].split(","))) for a in legal(state)} <= set(hexes(FIRST_MAP, "C"))


def test_no_replacement_when_the_tile_comes_after_the_mandatory_build():
    """rules.md, Building rules 4 applies while "the mandatory action is still to be done": a tile used
    after it that fills the last hex of the played terrain changes no card."""
    deck = rest_of("desert", "grass")
    pos = oasis_position(deck, built_this_turn=3)
    state = KingdomState.from_json(pos)
    assert legal(state) == ["end", "oasis 0,1"]
    state.apply_string("oasis 0,1")
    assert state.history_strings() == ["oasis 0,1"]
    after = state.to_json()
    assert after["players"][0]["terrain"] == "desert" and after["removed"] == []


def test_replacement_draw_that_empties_the_deck_reshuffles_the_discard_pile_at_once():
    """rules.md, Building rules 4 and A turn 4 together: the replacement takes the last card of the
    deck, so the discard pile becomes the new deck right away (seed 001)."""
    discard = rest_of("desert", "grass", "canyon")
    state = KingdomState.from_json(oasis_position(["canyon"], discard=discard))
    state.apply_string("oasis 0,1")
    assert state.history_strings() == ["oasis 0,1", {"chance": "canyon"}]
    pos = state.to_json()
    assert pos["players"][0]["terrain"] == "canyon" and pos["removed"] == ["desert"]
    assert pos["discard"] == []
    assert sorted(pos["deck"]) == sorted(discard) and len(pos["deck"]) == 22


def test_replacement_with_every_other_card_in_hands_or_removed_leaves_no_deck():
    """rules.md, A turn 4: the reshuffle takes only the discard pile ("the cards in players' hands
    and removed cards are not in it"); with the discard pile empty the deck stays empty."""
    removed = rest_of("desert", "grass", "canyon")
    state = KingdomState.from_json(oasis_position(["canyon"], removed=removed))
    state.apply_string("oasis 0,1")
    pos = state.to_json()
    assert pos["players"][0]["terrain"] == "canyon"
    assert pos["deck"] == [] and pos["discard"] == [] and pos["removed"] == removed + ["desert"]
    for _ in range(3):
        state.apply(state.legal_actions()[0])
    # the played canyon is discarded, and at once it is the whole new deck: seat 0 draws it back
    state.apply_string("end")
    assert state.history_strings()[-2:] == ["end", {"chance": "canyon"}]
    pos = state.to_json()
    assert pos["players"][0]["terrain"] == "canyon" and pos["deck"] == [] and pos["discard"] == []
    assert pos["to_move"] == 1


def test_replacement_with_no_card_left_at_all_ends_the_mandatory_build():
    """rules.md, Building rules 4 with the last card gone: there is no card to draw, so there is no
    played terrain and nothing left to build this turn (the turn can end)."""
    removed = rest_of("desert", "grass")
    state = KingdomState.from_json(oasis_position([], removed=removed))
    state.apply_string("oasis 0,1")
    assert state.history_strings() == ["oasis 0,1"]
    pos = state.to_json()
    assert pos["players"][0]["terrain"] is None and pos["removed"] == removed + ["desert"]
    assert legal(state) == ["end"]


# -- the reshuffle at once -----------------------------------------------------------------------


def end_of_turn_position(fmt=None):
    """Seat 0 has built its three; the deck holds one forest; the discard pile holds four cards."""
    pos = {
        "sections": FIRST_MAP,
        "cards": CARDS,
        "players": [
            {"settlements": [[3, 4], [3, 5], [4, 4]], "terrain": "grass"},
            {"settlements": [[14, 3]], "terrain": "canyon"},
        ],
        "built_this_turn": 3,
        "deck": ["forest"],
        "discard": ["desert", "flower", "flower", "canyon"],
        "removed": rest_of("grass", "canyon", "forest", "desert", "flower", "flower", "canyon"),
    }
    if fmt is not None:
        pos["format"] = fmt
    return pos


def test_the_draw_that_empties_the_deck_reshuffles_the_discard_pile_at_once():
    """rules.md, A turn 4: "As soon as the deck is empty (right after that draw took its last card),
    the discard pile is shuffled into a new deck" (seed 001); the just discarded grass is in it."""
    state = KingdomState.from_json(end_of_turn_position())
    state.apply_string("end")
    assert state.history_strings() == ["end", {"chance": "forest"}]
    pos = state.to_json()
    assert pos["players"][0]["terrain"] == "forest"
    assert pos["discard"] == []
    assert sorted(pos["deck"]) == ["canyon", "desert", "flower", "flower", "grass"]
    assert "format" not in pos


def test_format_1_waits_for_the_next_draw_to_reshuffle():
    """Record format 1 (before the amended A turn 4): the deck stays empty until a draw needs it; then
    the discard pile, with the card discarded by that turn, is shuffled."""
    state = KingdomState.from_json(end_of_turn_position(fmt=1))
    assert state.record_format == 1
    state.apply_string("end")
    pos = state.to_json()
    assert pos["format"] == 1
    assert pos["deck"] == [] and pos["discard"] == ["desert", "flower", "flower", "canyon", "grass"]
    # seat 1 ends its turn: its canyon is discarded, and only now is the deck shuffled, with it
    state.apply(state.legal_actions()[0])
    state.apply(state.legal_actions()[0])
    state.apply(state.legal_actions()[0])
    state.apply_string("end")
    pos = state.to_json()
    assert pos["discard"] == []
    drawn = state.history_strings()[-1]["chance"]
    assert sorted(pos["deck"] + [drawn]) == sorted(["desert", "flower", "flower", "canyon", "grass", "canyon"])


def test_a_position_with_an_empty_deck_and_a_discard_pile_is_refused_in_format_2():
    """rules.md, A turn 4: that position cannot happen any more (only in a format-1 game)."""
    pos = end_of_turn_position()
    pos["discard"] = ["forest"] + pos["discard"]
    pos["deck"] = []
    with pytest.raises(InvalidPosition) as err:
        KingdomState.from_json(pos)
    assert str(err.value) == (
        "the deck is empty while the discard pile holds 5 cards: the discard pile is "
        "shuffled into a new deck as soon as the deck runs out (put those cards in the deck)"
    )
    pos["format"] = 1
    assert KingdomState.from_json(pos).to_json()["discard"] == pos["discard"]


@pytest.mark.parametrize("fmt", [0, 3, "1", True, 2.0, [1]])
def test_a_position_format_other_than_1_or_2_is_refused(fmt):
    pos = end_of_turn_position(fmt=fmt)
    with pytest.raises(InvalidPosition) as err:
        KingdomState.from_json(pos)
    assert str(err.value).startswith("format must be 1 or 2 (the record format whose rules the game follows), not ")


@settings(max_examples=15, deadline=None)
@given(players=st.integers(2, 4), seed=st.integers(0, 10**6))
def test_no_position_of_a_game_has_an_empty_deck_and_a_discard_pile(players, seed):
    """rules.md, A turn 4, as an invariant of whole random games (format 2): after every action, the
    deck is empty only when the discard pile is too; the 25 cards are always all accounted for."""
    game = KingdomBuilder()
    state = game.new_state(game.random_setup(players, seed))
    rnd = random.Random(seed)
    while not state.is_over():
        actions = state.legal_actions()
        state.apply(actions[rnd.randrange(len(actions))])
        assert state.deck or not state.discard
        hands = [c for c in state.hand if c >= 0]
        assert len(state.deck) + len(state.discard) + len(state.removed) + len(hands) == 25
    assert state.to_record()["format"] == 2


# -- record formats -----------------------------------------------------------------------------


def test_a_new_game_writes_format_2_and_the_game_reads_1_and_2():
    game = KingdomBuilder()
    state = game.new_state(game.first_game_setup(2))
    assert state.to_record()["format"] == 2 == KingdomState.RECORD_FORMAT
    assert game.record_formats == (1, 2)


def position_hash(position: dict) -> str:
    return hashlib.sha256(json.dumps(position, sort_keys=True).encode("utf-8")).hexdigest()[:16]


@pytest.mark.parametrize("game", FIXTURES, ids=[f"{g['players']}p_seed{g['seed']}" for g in FIXTURES])
def test_format_1_records_replay_exactly_as_they_were_played(game):
    """Records written by the engine at f89c35d (format 1) replay under their own reshuffle rule: the
    same position after every action (tests/kingdom/format1/make_format1.py made them)."""
    record = game["record"]
    assert record["format"] == 1
    state = KingdomBuilder().state_for_record(record["setup"], 1)
    for i, (text, outcomes) in enumerate(steps(record["history"])):
        state.forced = list(outcomes)
        state.apply_string(text)
        assert state.forced == []
        pos = state.to_json()
        assert pos.pop("format") == 1
        assert (i, position_hash(pos)) == (i, game["position_hashes"][i])
        assert (not pos["deck"] and bool(pos["discard"])) == game["deck_empty_discard_full"][i]
    final = replay(record)
    assert final.is_over() and final.record_format == 1
    assert final.result().to_json() == record["result"]
    again = final.to_record()
    assert again["format"] == 1 and again["history"] == record["history"]


def test_format_1_records_do_not_replay_under_format_2():
    """Replaying a format-1 record as format 2 is a different game: here a recorded draw is impossible
    because the card was not in the earlier reshuffled deck. The record's own format prevents that."""
    failures = 0
    for game in FIXTURES:
        if not any(game["deck_empty_discard_full"]):
            continue
        record = dict(game["record"], format=2)
        try:
            state = replay(record)
        except ReplayError as e:
            failures += 1
            assert "is illegal: no " in str(e) and "card is left in the deck to draw" in str(e)
        else:
            assert state.to_json() != game["final_position"]
    assert failures >= 1


def test_an_unknown_record_format_is_refused():
    record = copy.deepcopy(FIXTURES[0]["record"])
    record["format"] = 3
    with pytest.raises(RecordError) as err:
        replay(record)
    assert str(err.value) == "record format 3 is not one this version reads (it reads 1, 2)"
