"""The turn and the building rules (rules.md, "A turn", "Building rules", "End of the game"), on
small hand-made positions of the recommended first-game map:

    0 FDDMMDDCCCCCCDDWDDDD        row 3:  WWFKGGTTMMMCMMWMDFFF
    ...                           castles 3,3  7,15  11,11  17,1
"""

from __future__ import annotations

import random

import pytest

from builders.core.errors import IllegalAction
from builders.core.state import Chance
from builders.kingdom import KingdomBuilder, KingdomState
from builders.kingdom.data import TERRAINS, map_rows

FIRST = [["tavern", False], ["paddock", False], ["oasis", False], ["farm", False]]
CARDS = ["fishermen", "merchants", "knights"]
ROWS = map_rows([tuple(s) for s in FIRST])


def hexes(letter):
    return [[r, c] for r in range(20) for c in range(20) if ROWS[r][c] == letter]


def state(players, **kw):
    pos = {"sections": FIRST, "cards": CARDS, "players": players}
    pos.update(kw)
    return KingdomState.from_json(pos)


def legal(st):
    return sorted(st.action_to_string(a) for a in st.legal_actions())


def error(st, text):
    before = st.to_json()
    with pytest.raises(IllegalAction) as e:
        st.apply_string(text)
    assert st.to_json() == before  # bad input changes nothing
    return str(e.value)


def deck_without(*cards):
    """The 25 cards less ``cards`` (one each), in canonical order: the order does not matter."""
    deck = [t for t in TERRAINS for _ in range(5)]
    for c in cards:
        deck.remove(c)
    return deck


def test_build_next_to_own_settlements_if_possible():
    """rules.md, Building rules 3: a new settlement goes next to own settlements if a candidate hex
    is; (3,4) has grass neighbours 3,5, 4,4 and 4,5."""
    st = state([{"settlements": [[3, 4]], "terrain": "grass"}, {"settlements": [], "terrain": "canyon"}])
    assert legal(st) == ["build 3,5", "build 4,4", "build 4,5"]


def test_build_anywhere_on_the_terrain_when_no_candidate_is_adjacent():
    """rules.md, Building rules 3: "Only when none is may it go on any candidate hex"."""
    st = state([{"settlements": [[3, 4]], "terrain": "canyon"}, {"settlements": [[0, 7]], "terrain": "canyon"}])
    expected = sorted(f"build {r},{c}" for r, c in hexes("C") if [r, c] != [0, 7])
    assert legal(st) == expected


def test_adjacency_is_judged_per_build():
    """rules.md, A turn 2 and Building rules 3 (FAQ, building rules 1): the three builds are one at
    a time; each new settlement counts for the next build."""
    st = state([{"settlements": [[3, 4]], "terrain": "grass"}, {"settlements": [], "terrain": "canyon"}])
    st.apply_string("build 4,4")
    assert legal(st) == ["build 3,5", "build 4,5", "build 5,4"]


def test_build_errors():
    """rules.md, Building rules 1-3: one settlement per hex, only the played terrain, adjacency."""
    st = state([{"settlements": [[3, 4]], "terrain": "grass"}, {"settlements": [[4, 5]], "terrain": "canyon"}])
    assert error(st, "build 4,5") == "hex 4,5 is taken"
    assert error(st, "build 0,0") == "hex 0,0 is not grass (the played terrain)"
    assert error(st, "build 3,3") == "hex 3,3 is not grass (the played terrain)"
    assert error(st, "build 7,8") == "hex 7,8 is not next to your settlements, and 3,5 is"
    assert error(st, "build 21,3") == "hex 21,3 is off the map"
    assert error(st, "bild 3,4").startswith('"bild 3,4" is not an action (expected build, oracle,')


def test_three_builds_then_end():
    """rules.md, A turn 2 and 4: build 3 settlements, then end; the played card is discarded and a
    new one drawn (a chance outcome right after the end)."""
    deck = deck_without("grass", "canyon")
    deck.remove("flower")
    deck.insert(0, "flower")
    st = state([{"settlements": [[3, 4]], "terrain": "grass"}, {"settlements": [], "terrain": "canyon"}], deck=deck)
    assert error(st, "end") == "you must build 3 settlements before ending the turn"
    st.apply_string("build 4,4")
    st.apply_string("build 4,5")
    assert error(st, "end") == "the mandatory build is not finished (2 of 3 built)"
    st.apply_string("build 3,5")
    assert legal(st) == ["end"]
    assert error(st, "build 3,6") == "the mandatory build is finished (3 built): use a tile or end the turn"
    st.apply_string("end")
    assert st.history[-1] == Chance("flower")
    pos = st.to_json()
    assert st.history_strings()[-2:] == ["end", {"chance": "flower"}]
    assert pos["players"][0]["terrain"] == "flower" and pos["discard"] == ["grass"]
    assert pos["to_move"] == 1 and pos["built_this_turn"] == 0 and pos["turn"] == 1
    assert pos["players"][0]["supply"] == 36


def test_fewer_than_three_when_the_supply_is_short():
    """rules.md, A turn 2: "If the supply holds fewer than 3, build all that remain"; the round is then
    the last (End of the game)."""
    st = state(
        [{"settlements": [[3, 4]] + hexes("D")[:37], "terrain": "grass"}, {"settlements": [], "terrain": "canyon"}]
    )
    assert st.to_json()["players"][0]["supply"] == 2
    assert error(st, "end") == "you must build 2 settlements before ending the turn"
    st.apply_string("build 4,4")
    assert error(st, "end") == "the mandatory build is not finished (1 of 2 built)"
    st.apply_string("build 4,5")
    assert legal(st) == ["end"]
    assert st.to_json()["final_round"] is True
    assert error(st, "build 3,5") == "you have no settlements left in your supply"


def _fill_desert_but(free):
    """Desert hexes of the map but ``free``, split between seats 0 and 1."""
    deserts = [h for h in hexes("D") if h != free]
    return deserts[:27], deserts[27:]


def test_card_without_free_hex_at_turn_start_is_removed_and_replaced():
    """rules.md, Building rules 4 (seed 000): a played terrain with no free hex is removed from the
    game and a new card drawn at once; here at the start of seat 1's turn."""
    a, b = _fill_desert_but(None)
    deck = deck_without("grass", "desert")
    for c in ("canyon", "forest"):
        deck.remove(c)
    deck = ["forest", "canyon"] + deck
    st = state(
        [{"settlements": a, "terrain": "grass"}, {"settlements": b, "terrain": "desert"}], built_this_turn=3, deck=deck
    )
    st.apply_string("end")
    assert st.history_strings() == ["end", {"chance": "forest"}, {"chance": "canyon"}]
    pos = st.to_json()
    assert pos["removed"] == ["desert"] and pos["discard"] == ["grass"]
    assert [p["terrain"] for p in pos["players"]] == ["forest", "canyon"]
    assert pos["deck"] == deck[2:]


def test_card_without_free_hex_in_the_middle_of_the_mandatory_build():
    """rules.md, Building rules 4: the same in the middle of the mandatory build; the new card is the
    played terrain for the rest of the turn."""
    a, b = _fill_desert_but([0, 1])
    deck = deck_without("desert", "grass")
    deck.remove("canyon")
    deck = ["canyon"] + deck
    st = state([{"settlements": a, "terrain": "desert"}, {"settlements": b, "terrain": "grass"}], deck=deck)
    assert legal(st) == ["build 0,1"]
    st.apply_string("build 0,1")
    assert st.history_strings() == ["build 0,1", {"chance": "canyon"}]
    pos = st.to_json()
    assert pos["removed"] == ["desert"] and pos["players"][0]["terrain"] == "canyon"
    assert pos["built_this_turn"] == 1
    # canyon next to own settlements: own desert hexes border canyon at several places
    assert all(a.startswith("build ") for a in legal(st))
    assert error(st, "end") == "the mandatory build is not finished (1 of 3 built)"


def test_from_json_replaces_a_dead_card_of_the_player_to_move():
    """rules.md, Building rules 4, at the start of the turn of a loaded position."""
    a, b = _fill_desert_but(None)
    deck = deck_without("desert", "grass")
    deck.remove("flower")
    st = state(
        [{"settlements": a, "terrain": "desert"}, {"settlements": b, "terrain": "grass"}], deck=["flower"] + deck
    )
    pos = st.to_json()
    assert pos["players"][0]["terrain"] == "flower" and pos["removed"] == ["desert"]


def test_end_of_game_after_the_round_of_the_last_seat():
    """rules.md, End of the game: when a supply empties, the round is finished; the game ends after
    the turn of the seat before the start player."""
    few = [[r, c] for r, c in hexes("D")][:39]
    st = state([{"settlements": [[3, 4]] + few[:38], "terrain": "grass"}, {"settlements": [], "terrain": "canyon"}])
    st.apply_string("build 4,4")
    assert st.to_json()["final_round"] is True and legal(st) == ["end"]
    st.apply_string("end")
    assert not st.is_over() and st.current_player == 1
    for _ in range(3):
        st.apply(st.legal_actions()[0])
    st.apply_string("end")
    assert st.is_over()
    assert st.legal_actions() == []
    assert error(st, "end") == "the game is over"
    # no card is drawn after the last turn: the played card is discarded
    assert st.history_strings()[-1] == "end"
    assert st.to_json()["game_over"] is True and st.to_json()["players"][1]["terrain"] is None


def test_last_seat_emptying_its_supply_ends_the_game_with_its_turn():
    """rules.md, End of the game: "If that last seat emptied their own supply, the game ends with
    their turn"."""
    few = [[r, c] for r, c in hexes("D")][:38]
    st = state(
        [{"settlements": [], "terrain": "canyon"}, {"settlements": [[3, 4]] + few, "terrain": "grass"}], to_move=1
    )
    st.apply_string("build 4,4")
    assert not st.is_over()
    st.apply_string("end")
    assert st.is_over()
    result = st.result()
    assert len(result.scores) == 2


def test_start_player_decides_the_last_seat():
    """rules.md, End of the game: the last seat is the player to the right of the start player."""
    few = [[r, c] for r, c in hexes("D")][:38]
    st = state(
        [{"settlements": [[3, 4]] + few, "terrain": "grass"}, {"settlements": [], "terrain": "canyon"}], start_player=1
    )
    st.apply_string("build 4,4")
    st.apply_string("end")
    assert st.is_over()


def test_empty_supply_still_takes_turns():
    """rules.md, A turn: a player whose supply is empty still takes turns (here: nothing to do but end)."""
    setts = [[r, c] for r, c in hexes("D")][:40]
    st = state([{"settlements": setts, "terrain": "grass"}, {"settlements": [], "terrain": "canyon"}], final_round=True)
    assert legal(st) == ["end"]
    assert error(st, "build 3,5") == "you have no settlements left in your supply"


def test_no_card_left_at_all_means_no_mandatory_build():
    """rules.md, Building rules 4 repeated until no card is left (a choice of this engine): the
    mandatory build is then impossible and counts as done."""
    a, b = _fill_desert_but(None)
    st = state(
        [{"settlements": a, "terrain": "desert"}, {"settlements": b, "terrain": "grass"}],
        deck=[],
        discard=[],
        removed=["desert"] * 4 + ["grass"] * 4 + [t for t in TERRAINS[1:] if t != "desert" for _ in range(5)],
    )
    pos = st.to_json()
    assert pos["players"][0]["terrain"] is None and pos["removed"].count("desert") == 5
    assert legal(st) == ["end"]


def test_apply_rejects_foreign_values():
    st = state([{"settlements": [], "terrain": "grass"}, {"settlements": [], "terrain": "canyon"}])
    with pytest.raises(IllegalAction) as e:
        st.apply(-5)
    assert str(e.value) == "-5 is not an action of this game"
    with pytest.raises(IllegalAction) as e:
        st.apply("build 3,4")
    assert str(e.value) == "'build 3,4' is not an action of this game"


def test_apply_checks_an_action_that_legal_actions_did_not_generate():
    """The protocol (core.state.GameState.apply): an action that is not legal raises IllegalAction and
    changes nothing, even when the caller slipped it into the list legal_actions() returned (the
    state keeps its own copy of that list)."""
    from builders.kingdom import notation

    st = state([{"settlements": [[3, 4]], "terrain": "grass"}, {"settlements": [], "terrain": "canyon"}])
    acts = st.legal_actions()
    assert sorted(st.action_to_string(a) for a in acts) == ["build 3,5", "build 4,4", "build 4,5"]
    far = notation.parse("build 0,0")
    acts[0] = far  # the same length: only the state's own copy tells it apart
    before = st.to_json()
    with pytest.raises(IllegalAction) as err:
        st.apply(far)
    assert str(err.value) == "hex 0,0 is not grass (the played terrain)"
    assert st.to_json() == before
    st.apply(acts[1])
    assert st.to_json()["built_this_turn"] == 1


def test_a_preview_of_a_turn_is_a_fresh_turn_with_that_card():
    """``preview_turn`` (for the bots' look-ahead): the seat starts a turn holding the card, with
    every settlement and tile as now (rules.md, "A turn": build three times on the card's terrain,
    tiles before or after); the position it is made from does not change."""
    from builders.kingdom.notation import END

    game = KingdomBuilder()
    state = game.new_state(game.random_setup(2, 8))
    rnd = random.Random(8)
    for _ in range(40):
        legal = state.legal_actions()
        state.apply(legal[rnd.randrange(len(legal))])
    while state.built == 0:  # in the middle of a turn: two builds left or fewer
        state.apply(state.legal_actions()[0])
    before = state.to_json()
    seat = state.to_move
    other = 1 - seat
    for who in (seat, other):
        for t in range(5):
            preview = state.preview_turn(who, t)
            assert (preview.to_move, preview.hand[who], preview.built) == (who, t, 0)
            free = state.board.code_mask[t] & ~state.occ
            near = free & state.near[who]
            builds = [a for a in preview.legal_actions() if a < 400]
            assert builds == sorted(h for h in range(400) if (near or free) >> h & 1)
            assert END not in preview.legal_actions()
    assert state.to_json() == before
