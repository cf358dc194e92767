"""One test per rule of the-builders/rules.md (and the rule book, seed 002), with exact outcomes."""

import pytest

from builders.core.errors import IllegalAction
from builders.core.state import Chance
from tests.middle_ages.ma_helpers import new_state, play, position, strings

OPENING = [
    "buy",
    "coins 1",
    "coins 2",
    "coins 3",
    "open B01",
    "open B02",
    "open B03",
    "open B04",
    "open B05",
    "recruit W03",
    "recruit W04",
    "recruit W05",
    "recruit W06",
    "recruit W07",
]


def refused(state, text, message):
    before = state.to_json()
    history = list(state.history)
    with pytest.raises(IllegalAction) as e:
        state.apply_string(text)
    assert str(e.value) == message
    assert state.to_json() == before and state.history == history


def test_first_decision():
    """rules.md "A turn": 3 free actions; open, recruit, take coins, buy an action (5 coins).
    Nothing can be sent without a site."""
    state = new_state()
    assert strings(state) == OPENING
    assert (state.current_player, state.actions, state.coins) == (0, 3, [10, 10])


def test_open_a_site_refills_the_row_in_place():
    """rules.md "Open a site": 1 action; take a card from the row; refill the row at once from the deck.
    Seed 002 "Начать Строительство": the top card goes to the freed place."""
    state = play(new_state(), "open B02")
    j = state.to_json()
    assert j["building_row"] == ["B01", "B06", "B03", "B04", "B05"]
    assert j["building_deck"][0] == "B07"
    assert [s["card"] for s in j["players"][0]["sites"]] == ["B02"]
    assert state.actions == 2
    assert state.history[1] == Chance("B06") and isinstance(state.history[1], Chance)
    assert state.history_strings() == ["open B02", {"chance": "B06"}]


def test_any_number_of_sites():
    """rules.md "Open a site": any number of sites may be open at once."""
    state = play(new_state(), "open B01", "open B02", "open B03")
    assert [s["card"] for s in state.to_json()["players"][0]["sites"]] == ["B01", "B02", "B03"]


def test_recruit_a_worker():
    """rules.md "Recruit a worker": 1 action, no coin cost, row refilled at once, no crew limit."""
    state = play(new_state(), "recruit W05", "recruit W08", "recruit W09")
    j = state.to_json()
    assert j["players"][0]["crew"] == ["W01", "W05", "W08", "W09"]
    assert j["players"][0]["coins"] == 10
    assert j["worker_row"] == ["W03", "W04", "W10", "W06", "W07"]
    assert state.history_strings() == [
        "recruit W05",
        {"chance": "W08"},
        "recruit W08",
        {"chance": "W09"},
        "recruit W09",
        {"chance": "W10"},
    ]


def test_take_coins():
    """rules.md "Take coins": 1 action for 1 coin, 2 for 3, 3 for 6."""
    assert play(new_state(), "coins 1").coins[0] == 11
    assert play(new_state(), "coins 2").coins[0] == 13
    s = play(new_state(), "coins 3")
    assert (s.coins[0], s.actions) == (16, 0)
    refused(play(new_state(), "coins 2"), "coins 3", "coins 3 needs 3 actions; you have 1")
    refused(play(new_state(), "coins 1"), "coins 3", "coins 3 needs 3 actions; you have 2")


def test_free_actions_must_be_spent():
    """rules.md "A turn": the 3 free actions must be spent; the turn ends when no action is left."""
    state = new_state()
    refused(state, "end", "you must spend your 3 remaining actions before ending the turn")
    play(state, "coins 2")
    refused(state, "end", "you must spend your 1 remaining action before ending the turn")
    play(state, "coins 1")
    assert strings(state) == ["end", "buy"]
    play(state, "end")
    assert (state.current_player, state.actions, state.turn) == (1, 3, 1)


def test_buy_actions_at_any_time():
    """rules.md "A turn": more actions at 5 coins each, at any time in the turn, as many as paid for."""
    state = play(new_state(), "buy")
    assert (state.actions, state.coins[0]) == (4, 5)
    play(state, "buy")
    assert (state.actions, state.coins[0]) == (5, 0)
    refused(state, "buy", "buy needs 5 coins; you have 0")
    play(state, "coins 3", "coins 2")
    assert strings(state) == ["end", "buy"] and state.coins[0] == 9
    play(state, "buy")
    assert strings(state) == [
        "coins 1",
        "open B01",
        "open B02",
        "open B03",
        "open B04",
        "open B05",
        "recruit W03",
        "recruit W04",
        "recruit W05",
        "recruit W06",
        "recruit W07",
    ]


def test_send_pays_the_worker_cost():
    """rules.md "Send a worker": pay the worker's cost in coins; 1 action for the first worker to a site."""
    state = play(new_state(buildings=["B34"], workers=["W19"]), "open B34", "recruit W19")
    assert strings(state)[-2:] == ["send W01 B34", "send W19 B34"]
    play(state, "send W19 B34")
    j = state.to_json()["players"][0]
    assert (j["coins"], j["crew"], state.actions) == (6, ["W01"], 0)
    assert j["sites"] == [
        {"card": "B34", "workers": ["W19"], "progress": [1, 1, 1, 1], "requirement": [5, 4, 4, 4], "sent_this_turn": 1}
    ]


def test_second_and_third_worker_to_one_site_cost_more():
    """rules.md "Send a worker": the second worker to a site this turn costs 2 actions, the third 3;
    seed 002: "два отправленных Рабочих будут стоить вам 3 действия", three cost 6."""
    state = position(
        crews=[["W01", "W03", "W19", "W20"], []], sites=[{"B34": [], "B33": []}, {}], coins=[40, 10], actions=3
    )
    play(state, "send W01 B34")
    assert state.actions == 2
    play(state, "send W03 B34")  # the second to B34: 2 actions
    assert (state.actions, state.coins[0]) == (0, 36)
    refused(state, "send W19 B34", "send W19 B34 costs 3 actions and 4 coins; you have 0 actions")
    play(state, "buy", "buy", "buy")
    assert "send W19 B34" in strings(state)
    play(state, "send W19 B34")  # the third: 3 actions
    assert (state.actions, state.coins[0]) == (0, 17)


def test_sending_to_different_sites_costs_one_action_each():
    """rules.md "Send a worker": sending to different sites costs 1 action each."""
    state = position(crews=[["W01", "W03", "W19"], []], sites=[{"B34": [], "B33": [], "B32": []}, {}])
    play(state, "send W01 B34", "send W03 B33", "send W19 B32")
    assert (state.actions, state.coins[0]) == (0, 10 - 2 - 2 - 4)


def test_workers_from_earlier_turns_do_not_count():
    """rules.md "Send a worker": workers already there from earlier turns do not count; seed 002: "вне
    зависимости от того, сколько Рабочих уже заняты на этой стройке"."""
    state = position(crews=[["W19"], []], sites=[{"B34": ["W01", "W03"]}, {}], sent={"B34": 0})
    assert strings(state)[-1:] == ["send W19 B34"]
    play(state, "send W19 B34")
    assert state.actions == 2


def test_sent_counts_reset_each_turn():
    """rules.md "Send a worker": the escalation counts workers sent *this turn*."""
    state = position(crews=[["W01", "W03"], []], sites=[{"B34": []}, {}], coins=[10, 10])
    play(state, "send W01 B34", "coins 2", "end")
    assert state.to_json()["players"][0]["sites"][0]["sent_this_turn"] == 0
    play(state, "coins 3", "end")
    play(state, "send W03 B34")
    assert state.actions == 2


def test_send_refusals():
    """rules.md "Send a worker": only workers of your crew, only to your own open sites, paying coins and actions."""
    state = position(
        crews=[["W01", "W36"], ["W02"]], sites=[{"B34": []}, {"B33": []}], coins=[4, 10], actions=1, sent={"B34": 1}
    )
    refused(state, "send W02 B34", "W02 is not in your crew")
    refused(state, "send W01 B33", "you have no site B33")
    refused(state, "send W01 B01", "you have no site B01")
    refused(state, "send W01 B34", "send W01 B34 costs 2 actions and 2 coins; you have 1 action")
    refused(state, "send W36 B34", "send W36 B34 costs 2 actions and 5 coins; you have 1 action and 4 coins")
    refused(state, "buy", "buy needs 5 coins; you have 4")


def test_send_refused_for_coins_only():
    """rules.md "Send a worker": the worker's cost is paid in coins."""
    state = position(crews=[["W36"], []], sites=[{"B34": []}, {}], coins=[4, 10])
    refused(state, "send W36 B34", "send W36 B34 costs 1 action and 5 coins; you have 4 coins")
    assert "send W36 B34" not in strings(state)


def test_completion_returns_workers_pays_coins_and_counts_vp():
    """rules.md "Completing a site": as soon as the workers meet every requirement the site is complete;
    the workers return at once and may be sent again this turn; the owner takes the building's coins."""
    state = position(crews=[["W03"], []], sites=[{"B01": ["W04"], "B07": []}, {}], coins=[10, 10])
    # B01 needs 1 stone 1 tile: W04 gives 1 stone 1 wood; W03 brings 1 stone 1 tile
    play(state, "send W03 B01")
    j = state.to_json()["players"][0]
    assert j["completed"] == ["B01"] and j["crew"] == ["W04", "W03"] and j["coins"] == 10 - 2 + 8
    assert [s["card"] for s in j["sites"]] == ["B07"] and j["vp"] == 0
    play(state, "send W03 B07")  # sent again in the same turn
    assert state.to_json()["players"][0]["sites"][0]["workers"] == ["W03"]


def test_rule_book_example_chapel():
    """Seed 002, "Завершение строительства", example: a craftsman sent to the Chapel (3 stone, 2 wood,
    2 knowledge, 3 tile) for 1 action and 4 coins brings the missing 1 knowledge and 3 tile; the player
    takes 18 coins, the Chapel counts 5 VP, every worker on it comes back."""
    state = position(crews=[["W21"], []], sites=[{"B31": ["W20", "W02"]}, {}], coins=[4, 10])
    assert state.to_json()["players"][0]["sites"][0]["progress"] == [3, 2, 1, 0]
    assert strings(state) == [
        "coins 1",
        "coins 2",
        "coins 3",
        "open B01",
        "open B02",
        "open B03",
        "open B04",
        "open B05",
        "recruit W01",
        "recruit W03",
        "recruit W04",
        "recruit W05",
        "recruit W06",
        "send W21 B31",
    ]
    play(state, "send W21 B31")
    j = state.to_json()["players"][0]
    assert (state.actions, j["coins"], j["vp"], j["completed"], j["sites"]) == (2, 18, 5, ["B31"], [])
    assert j["crew"] == ["W20", "W02", "W21"]


def test_machine_joins_the_crew_and_costs_no_coins():
    """rules.md "Completing a site": a completed machine counts its VP and joins the crew as a worker that
    costs 0 coins (sending still costs actions). Seed 002 "Машины"."""
    state = position(crews=[["W06"], []], sites=[{"M1": [], "B34": []}, {}], coins=[2, 10])
    play(state, "send W06 M1")  # M1 needs 1 wood 1 tile: W06 gives exactly that
    j = state.to_json()["players"][0]
    assert j["crew"] == ["W06", "M1"] and j["completed"] == ["M1"] and j["vp"] == 1 and j["coins"] == 0
    assert strings(state)[-2:] == ["recruit W05", "send M1 B34"]
    play(state, "send M1 B34")
    j = state.to_json()["players"][0]
    assert j["coins"] == 0 and j["sites"][0]["progress"] == [2, 0, 0, 0] and state.actions == 1


def test_machine_can_be_a_site():
    state = play(new_state(buildings=["M5"]), "open M5", "recruit W03")
    assert strings(state)[-2:] == ["send W01 M5", "send W03 M5"]


def test_rows_shrink_when_a_deck_is_empty():
    """rules.md "Running out of cards": an empty deck leaves its row short."""
    state = position(
        building_row=["B01", "B02", "B03", "B04", "B05"],
        building_deck=["B06"],
        worker_row=["W01", "W02", "W03"],
        worker_deck=[],
        crews=[[f"W{i:02d}" for i in range(4, 24)], [f"W{i:02d}" for i in range(24, 43)]],
        sites=[{f"B{i:02d}": [] for i in range(7, 35)}, {f"M{i}": [] for i in range(1, 9)}],
    )
    play(state, "open B02")
    assert state.to_json()["building_row"] == ["B01", "B06", "B03", "B04", "B05"]
    play(state, "open B06")
    assert state.to_json()["building_row"] == ["B01", "B03", "B04", "B05"]
    play(state, "recruit W02")
    assert state.to_json()["worker_row"] == ["W01", "W03"]
    assert state.history_strings() == ["open B02", {"chance": "B06"}, "open B06", "recruit W02"]


def test_the_bare_send_code_is_not_an_action():
    """rules.md "A turn": a worker is sent to one of its owner's building sites. The send code with the first
    worker on the first card (1024: W01 to W01) names no building site, so it is refused as no action of
    the game, before any branch of the refusals."""
    from builders.middle_ages.codes import SEND
    from builders.middle_ages.rules import why_illegal

    state = position(crews=[["W01"], []], sites=[{"B01": []}, {}])
    assert str(why_illegal(state, SEND)) == "1024 is not an action of The Builders: Middle Ages"
    before = state.to_json()
    with pytest.raises(IllegalAction, match="^1024 is not an action of The Builders: Middle Ages$"):
        state.apply(SEND)
    assert state.to_json() == before
