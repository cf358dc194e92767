"""The games' views (builders.kingdom.view, builders.middle_ages.view) that the server sends: setups
from a request, what a spectator sees, score tables, the costs of legal actions and the public log."""

from __future__ import annotations

import random

import pytest

from builders.core.errors import InvalidSetup, RecordError
from builders.core.games import get_game
from builders.core.view import GameView, get_view
from builders.kingdom.data import map_rows
from builders.kingdom.setup import first_game_setup, random_setup as kingdom_random_setup
from builders.kingdom.view import KingdomView
from builders.middle_ages.cards import COST
from builders.middle_ages.rules import send_parts
from builders.middle_ages.setup import random_setup as middle_ages_random_setup
from builders.middle_ages.view import MiddleAgesView


def play(state, texts, view):
    """Play ``texts``; the log words of each with the chance outcomes it drew."""
    out = []
    for text in texts:
        n = len(state.history)
        state.apply(state.parse_action(text))
        chance = [str(c) for c in state.history[n + 1 :]]
        out.append((view.log_text(state, text, chance), chance))
    return out


def play_out(state, seed):
    rng = random.Random(seed)
    while not state.is_over():
        state.apply(rng.choice(state.legal_actions()))
    return state


def test_views_are_found_by_game_name():
    assert type(get_view("kingdom")) is KingdomView and type(get_view("middle-ages")) is MiddleAgesView
    assert get_view("kingdom") is get_view("kingdom")
    with pytest.raises(RecordError) as e:
        get_view("chess")
    assert str(e.value) == "unknown game 'chess'; the games are kingdom, middle-ages"


def test_the_defaults_of_a_view():
    class Bare(GameView):
        def setup(self, players, seed, mode="random", sections=None, cards=None):
            return {"players": players}

        def observe(self, state, seat):
            return {}

        def score_parts(self, state):
            return []

        def log_text(self, after, action, chance):
            return action

    bare = Bare()
    state = get_game("middle-ages").new_state(middle_ages_random_setup(2, 1))
    fixed = {"board": [1]}
    assert bare.fixed(state) == {} and bare.legal_costs(state, state.legal_actions()) is None
    shared = bare.shared(state, fixed)
    assert shared == fixed and shared is not fixed
    assert bare.replay(fixed, {"x": 1}) == {"x": 1}


# -- Kingdom Builder ------------------------------------------------------------------------------
def test_kingdom_setups_from_a_request():
    view = get_view("kingdom")
    assert view.setup(3, 8) == kingdom_random_setup(3, 8)
    dealt = kingdom_random_setup(2, 8)
    first = view.setup(2, 8, mode="first")
    assert first == {**first_game_setup(2), "deck": dealt["deck"], "seed": dealt["seed"]}
    sections = [["farm", True], ["oasis", False], ["tower", False], ["tavern", True]]
    custom = view.setup(
        2, 8, mode="custom", sections=[tuple(s) for s in sections], cards=("fishermen", "miners", "lords")
    )
    assert custom == {
        "players": 2,
        "sections": sections,
        "cards": ["fishermen", "miners", "lords"],
        "start_player": 0,
        "deck": dealt["deck"],
        "seed": dealt["seed"],
    }
    for kwargs, message in [
        ({"sections": sections}, "sections and cards are chosen in the custom setup mode only"),
        ({"cards": ["lords"]}, "sections and cards are chosen in the custom setup mode only"),
        (
            {"mode": "first", "cards": ["lords"]},
            "the first game has its own sections and cards: use the custom mode to choose them",
        ),
        (
            {"mode": "first", "sections": sections},
            "the first game has its own sections and cards: use the custom mode to choose them",
        ),
        ({"mode": "custom", "sections": sections}, "the custom setup needs 4 sections and 3 cards"),
        ({"mode": "custom", "cards": ["lords"]}, "the custom setup needs 4 sections and 3 cards"),
        ({"mode": "draft"}, "the setup mode is first, random or custom, not 'draft'"),
    ]:
        with pytest.raises(InvalidSetup) as e:
            view.setup(2, 8, **kwargs)
        assert str(e.value) == message


def _first_game():
    view = get_view("kingdom")
    return view, get_game("kingdom").new_state(view.setup(2, 4, mode="first"))


def test_kingdom_log_keeps_the_drawn_card_hidden():
    view, st = _first_game()
    assert play(st, ["build 0,7", "build 0,8", "build 0,9"], view) == [
        ("built a settlement on 0,7", []),
        ("built a settlement on 0,8", []),
        ("built a settlement on 0,9", []),
    ]
    [(words, chance)] = play(st, ["end"], view)
    # seat 0 drew a new card: the log shows the card seat 1 plays (on the table), not the drawn one
    assert len(chance) == 1
    shown = st.observation(1)["players"][1]["terrain"]
    assert words == f"ended the turn; seat 1 plays {shown}"
    spectator = view.observe(st, None)["players"]
    assert [p["terrain"] for p in spectator] == [None, shown]
    assert view.observe(st, 0)["players"][0]["terrain"] == chance[0]
    assert view.observe(st, 1)["players"][0]["terrain"] is None


def test_kingdom_log_of_tiles_and_the_end():
    view = get_view("kingdom")
    seen = set()
    for seed in range(40):
        st = get_game("kingdom").new_state(kingdom_random_setup(2, seed))
        rng = random.Random(seed)
        while not st.is_over():
            a = rng.choice(st.legal_actions())
            text = st.action_to_string(a)
            n = len(st.history)
            st.apply(a)
            chance = [str(c) for c in st.history[n + 1 :]]
            words = view.log_text(st, text, chance)
            verb, _, rest = text.partition(" ")
            if verb in ("barn", "harbor", "paddock"):
                src, dst = rest.split(">")
                assert words == f"used the {verb}: moved a settlement from {src} to {dst}"
            elif verb in ("oracle", "farm", "oasis", "tower", "tavern"):
                assert words.startswith(f"used the {verb}: built a settlement on {rest}")
            elif verb == "end" and st.is_over():
                assert words == "ended the turn"
            if verb != "end" and chance:
                assert words.endswith(f"; no free hex of the played terrain: drew {', '.join(chance)}")
            seen.add(verb)
        if {"barn", "harbor", "paddock", "oracle", "tavern", "tower"} <= seen:
            break
    assert {"build", "end", "barn", "harbor", "paddock", "oracle", "tavern", "tower"} <= seen


def test_kingdom_board_scores_and_scored_hexes():
    view, st = _first_game()
    fixed = view.fixed(st)
    rows = list(map_rows([tuple(s) for s in st.setup["sections"]]))
    assert fixed["board"]["rows"] == rows and len(rows) == 20
    locations = fixed["board"]["locations"]
    assert len(locations) == sum(row.count("L") for row in rows) == 8
    assert {loc["kind"] for loc in locations} == {"tavern", "paddock", "oasis", "farm"}
    assert view.shared(st, fixed) == fixed
    assert view.replay(fixed, view.shared(st, fixed)) == {"board": fixed["board"], "scoring_hexes": None}
    play_out(st, 5)
    shared = view.shared(st, fixed)
    assert set(shared) == {"board", "scoring_hexes"}
    assert set(shared["scoring_hexes"]) == {"0", "1"}
    assert set(shared["scoring_hexes"]["1"]) == {"castles", "fishermen", "merchants", "knights"}
    assert shared["scoring_hexes"]["0"]["knights"] == [list(h) for h in st.scoring_hexes(0, "knights")]
    assert view.replay(fixed, shared) == shared
    parts = view.score_parts(st)
    assert [sum(p.values()) for p in parts] == list(st.result().scores)
    assert view.legal_costs(st, []) is None


# -- The Builders: Middle Ages --------------------------------------------------------------------
def test_middle_ages_setup_takes_only_a_seed():
    view = get_view("middle-ages")
    assert view.setup(3, 12) == middle_ages_random_setup(3, 12)
    for kwargs in ({"mode": "first"}, {"mode": "custom"}, {"sections": []}, {"cards": []}):
        with pytest.raises(InvalidSetup) as e:
            view.setup(2, 1, **kwargs)
        assert str(e.value) == "The Builders: Middle Ages takes only a seed in its setup"


def test_middle_ages_costs_and_log():
    view = get_view("middle-ages")
    st = get_game("middle-ages").new_state(middle_ages_random_setup(2, 5))
    costs = view.legal_costs(st, st.legal_actions())
    assert {k: v for k, v in costs.items() if not k.startswith(("open", "recruit"))} == {
        "buy": {"actions": -1, "coins": 5},
        "coins 1": {"actions": 1, "coins": -1},
        "coins 2": {"actions": 2, "coins": -3},
        "coins 3": {"actions": 3, "coins": -6},
    }
    assert costs["open B02"] == costs["recruit W15"] == {"actions": 1, "coins": 0}
    assert len(costs) == len(st.legal_actions())
    [(opened, drawn), (recruited, came), (took, _)] = play(st, ["open B02", "recruit W15", "coins 1"], view)
    assert len(drawn) == 1 and opened == f"opened B02; {drawn[0]} came into the building row"
    assert len(came) == 1 and recruited == f"recruited W15; {came[0]} came into the worker row"
    assert took == "took 1 coins for 1 action"
    assert view.legal_costs(st, st.legal_actions()) == {
        "end": {"actions": 0, "coins": 0},
        "buy": {"actions": -1, "coins": 5},
    }
    assert play(st, ["end", "coins 2", "buy", "coins 2", "end"], view) == [
        ("ended the turn", []),
        ("took 3 coins for 2 actions", []),
        ("bought an action for 5 coins", []),
        ("took 3 coins for 2 actions", []),
        ("ended the turn", []),
    ]
    # a worker's wage is its cost; a second worker sent to the same site in one turn costs two actions
    sends = [a for a in st.legal_actions() if st.action_to_string(a).startswith("send")]
    assert view.legal_costs(st, sends) == {
        "send W01 B02": {"actions": 1, "coins": 2},
        "send W15 B02": {"actions": 1, "coins": 3},
    }
    assert play(st, ["send W01 B02"], view) == [("sent W01 to B02", [])]
    sends = [a for a in st.legal_actions() if st.action_to_string(a).startswith("send")]
    assert view.legal_costs(st, sends) == {"send W15 B02": {"actions": 2, "coins": 3}}
    assert [COST[send_parts(a)[0]] for a in sends] == [3]
    assert play(st, ["send W15 B02"], view) == [("sent W15 to B02", [])]


def test_middle_ages_spectator_scores_and_replay():
    view = get_view("middle-ages")
    st = get_game("middle-ages").new_state(middle_ages_random_setup(2, 3))
    assert view.observe(st, None)["seat"] is None and view.observe(st, 1)["seat"] == 1
    assert view.fixed(st) == {} and view.shared(st, {}) == {}
    assert view.replay({}, {}) == {"board": None, "scoring_hexes": None}
    play_out(st, 2)
    parts = view.score_parts(st)
    assert [sum(p.values()) for p in parts] == list(st.result().scores)
    assert parts == [dict(b) for b in st.result().breakdown]


@pytest.mark.parametrize(
    "cards",
    [
        ("fishermen", "miners", "workers"),
        ("knights", "lords", "farmers"),
        ("citizens", "discoverers", "hermits"),
        ("merchants", "lords", "knights"),
    ],
)
def test_kingdom_scored_hexes_match_the_points(cards):
    """The hexes shown at the end are the ones each card counts (rules.md, Kingdom Builder cards)."""
    from builders.kingdom.board import bits, cell
    from builders.kingdom.scoring import SECTOR_MASKS

    view = get_view("kingdom")
    sections = [["tavern", False], ["paddock", False], ["oasis", False], ["farm", False]]
    for seed in range(4):
        players = 2 + seed % 3
        st = get_game("kingdom").new_state(view.setup(players, seed, mode="custom", sections=sections, cards=cards))
        # nobody has built yet: no card scores a hex
        assert all(st.scoring_hexes(seat, card) == [] for seat in range(players) for card in ("castles", *cards))
        play_out(st, seed)
        hexes = view.shared(st, view.fixed(st))["scoring_hexes"]
        points = view.score_parts(st)
        for seat in range(players):
            own = {cell(h) for h in bits(st.own[seat])}
            for card in cards:
                shown = [tuple(h) for h in hexes[str(seat)][card]]
                assert shown == sorted(set(shown))
                if card != "merchants":
                    assert set(shown) <= own, card
                per_hex = {"fishermen": 1, "miners": 1, "workers": 1, "knights": 2, "farmers": 3}
                if card in per_hex:
                    assert per_hex[card] * len(shown) == points[seat][card], card
                elif card in ("discoverers", "hermits"):
                    assert set(shown) == own
                elif card == "citizens":
                    assert len(shown) // 2 == points[seat][card]
                elif card == "lords":
                    # a sector counts whole or not at all, and only a sector that gives points
                    for sector in SECTOR_MASKS:
                        mine = {cell(h) for h in bits(st.own[seat] & sector)}
                        assert mine <= set(shown) or not mine & set(shown)
                    assert bool(shown) == (points[seat][card] > 0)
            castles = [tuple(h) for h in hexes[str(seat)]["castles"]]
            assert 3 * len(castles) == points[seat]["castles"]
