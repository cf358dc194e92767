"""End of the game and final score (rules.md "End of the game")."""

import pytest

from builders.core.errors import IllegalAction
from builders.middle_ages.cards import BUILDING_DECK, IDS, INDEX, PROD, REQ, WORKERS, covers
from builders.middle_ages.state import MiddleAgesState
from tests.middle_ages.ma_helpers import play, position, setup_with


def near_17(**kw):
    """Seat 0 holds 14 VP (Cathedral 8 + Aqueduct 6) and a Church (5 VP) missing 1 stone, W04 free."""
    n = kw.get("players", 2)
    return position(
        completed=kw.pop("completed", [["B34", "B32"], []]),
        sites=[{"B27": ["W35", "W36"]}] + [{}] * (n - 1),
        crews=[["W04"]] + [[]] * (n - 1),
        **kw,
    )


def test_17_vp_finishes_the_round():
    """rules.md "End of the game": at the end of a player's turn with 17 VP or more the round is finished:
    the game ends after the last seat in turn order (seed 002 "Конец игры": equal number of turns)."""
    state = near_17()
    play(state, "send W04 B27")
    assert state.vp[0] == 19 and not state.final_round  # checked at the end of the turn
    play(state, "coins 2", "end")
    assert state.final_round and not state.is_over() and state.current_player == 1
    play(state, "coins 3", "end")
    assert state.is_over() and state.legal_actions() == []
    with pytest.raises(IllegalAction, match="^the game is over$"):
        state.apply_string("coins 1")
    result = state.result()
    assert state.coins == [10 - 2 + 18 + 3, 10 + 6]
    assert result.scores == (19 + 2, 1)
    assert result.breakdown[0] == {"buildings": 19, "machines": 0, "coins": 2}
    assert result.winners == (0,)


def test_17_vp_by_the_last_seat_ends_at_once():
    """rules.md "End of the game": the round is finished after the last seat in turn order, here the seat
    that reached 17 VP itself (start player 1 of 3: the order is 1, 2, 0)."""
    state = near_17(players=3, start_player=1, current=0, completed=[["B34", "B32"], [], []])
    play(state, "send W04 B27", "coins 2", "end")
    assert state.is_over()


def test_17_vp_counts_buildings_and_machines_not_coins():
    """rules.md "End of the game": coins do not count for the 17 VP trigger."""
    state = position(completed=[["B34", "B32"], []], coins=[300, 10], actions=0)
    play(state, "end")
    assert not state.final_round and not state.is_over()
    state = position(completed=[["B34", "B32", "B01", "B02", "M5", "M1"], []], crews=[["M5", "M1"], []], actions=0)
    play(state, "end")  # 14 + 0 + 0 + 2 + 1 = 17
    assert state.final_round


def stuck_position(extra_crew=None, building_row=(), building_deck=()):
    """Building row and deck empty (unless given), worker row and deck empty, every worker on a site it
    cannot complete."""
    sites0 = {f"B{i:02d}": [] for i in range(8, 35)}
    sites1 = {f"M{i}": [] for i in range(1, 9)}
    workers = [f"W{i:02d}" for i in range(1, 43) if f"W{i:02d}" not in (extra_crew or [])]
    progress = {s: 0 for s in sites0}
    for w in workers:
        for s in reversed(list(sites0)):
            if not covers(progress[s] + PROD[INDEX[w]], REQ[INDEX[s]]):
                sites0[s].append(w)
                progress[s] += PROD[INDEX[w]]
                break
    left = set(building_row) | set(building_deck)
    return position(
        completed=[[b for b in ("B01", "B02", "B03", "B04") if b not in left], ["B05", "B06", "B07"]],
        sites=[sites0, sites1],
        crews=[[], list(extra_crew or [])],
        building_row=list(building_row),
        building_deck=list(building_deck),
        worker_row=[],
        worker_deck=[],
    )


def test_game_ends_when_no_vp_can_be_gained():
    """rules.md "End of the game": the game ends at the end of a round in which no VP can be gained any
    more. With the building row and deck empty, no site can ever be completed when none is covered by its
    workers, its owner's free workers and the workers not yet recruited (docs/middle-ages.md)."""
    state = stuck_position()
    play(state, "coins 3", "end")
    assert not state.is_over()  # only at the end of the round
    play(state, "coins 3", "end")
    assert state.is_over() and not state.final_round
    assert state.result().scores == (2 + 1, 3 + 1)


def test_game_goes_on_while_a_site_can_be_completed():
    """rules.md "End of the game": while a site can still be completed, VP can be gained: no end."""
    state = stuck_position(extra_crew=["W06"])  # W06 (1 wood, 1 tile) completes M1 (1 wood, 1 tile)
    play(state, "coins 3", "end", "coins 3", "end")
    assert not state.is_over()
    play(state, "coins 3", "end", "send W06 M1", "coins 2", "end")
    assert not state.is_over()  # M1 joins the crew: it can still go to a site
    assert state.vp[1] == 3 + 1


def finished(coins, completed):
    crews = [[c for c in done if c.startswith("M")] for done in completed]
    state = position(coins=coins, completed=completed, crews=crews)
    j = state.to_json()
    j["over"] = True
    return MiddleAgesState.from_json(j, setup_with())


def test_final_score():
    """rules.md "End of the game": VP of completed buildings and machines plus 1 VP per full 10 coins;
    unfinished sites score nothing."""
    state = finished([39, 9], [["B34", "M5", "M1"], ["B33"]])
    result = state.result()
    assert result.to_json() == {
        "players": [
            {"seat": 0, "breakdown": {"buildings": 8, "machines": 3, "coins": 3}, "total": 14},
            {"seat": 1, "breakdown": {"buildings": 7, "machines": 0, "coins": 0}, "total": 7},
        ],
        "winners": [0],
    }


def test_tie_break_most_building_and_machine_vp():
    """rules.md "End of the game": ties go to the most VP from buildings and machines."""
    result = finished([19, 30], [["B34", "B08"], ["B33", "B07"]]).result()
    assert result.scores == (11, 11) and result.winners == (0,)
    result = finished([19, 29], [["B34", "B08"], ["B33", "B07"]]).result()
    assert result.scores == (11, 10) and result.winners == (0,)


def test_tie_break_most_coins_then_shared():
    """rules.md "End of the game": then most coins; players still equal share the win."""
    result = finished([25, 29], [["B34"], ["B33", "B03"]]).result()
    assert result.scores == (10, 10) and result.winners == (1,)
    result = finished([29, 29], [["B34"], ["B33", "B03"]]).result()
    assert result.winners == (0, 1) and result.returns() == [0.5, 0.5]


def test_result_before_the_end():
    with pytest.raises(ValueError, match="^the game is not over$"):
        position().result()


def test_vp_can_be_gained_while_buildings_are_left():
    """rules.md "End of the game" (docs/middle-ages.md, "End when no VP can be gained"): while the building
    row (or deck) holds a card, a building can still be opened and completed, so VP can be gained, even
    when every open site is stuck (here B01 is left in the row)."""
    from builders.middle_ages.rules import can_gain_vp

    assert can_gain_vp(stuck_position()) is False
    state = stuck_position(building_row=["B01"])
    assert can_gain_vp(state) is True
    play(state, "coins 3", "end", "coins 3", "end")
    assert not state.is_over()


def only_crew_position(owner_has_w03):
    """Building row and deck and worker row and deck empty; seat 1 has the site B01 (1 stone, 1 tile) with
    W01 on it (1 stone, 1 knowledge: no tile); W03 (1 stone, 1 tile) is in seat 1's crew or, if not,
    in seat 0's, which has no site. Every other building is completed by seat 0, every other worker in
    its crew."""
    others = [IDS[c] for c in BUILDING_DECK if IDS[c] != "B01"]
    crew0 = [IDS[w] for w in WORKERS if IDS[w] not in ("W01", "W03")] + [m for m in others if m.startswith("M")]
    crew1 = []
    (crew1 if owner_has_w03 else crew0).append("W03")
    return position(
        completed=[others, []],
        sites=[{}, {"B01": ["W01"]}],
        crews=[crew0, crew1],
        building_row=[],
        building_deck=[],
        worker_row=[],
        worker_deck=[],
        current=1,
    )


def test_vp_can_be_gained_with_a_site_only_the_owner_s_crew_completes():
    """rules.md "End of the game" (docs/middle-ages.md, "End when no VP can be gained"): with nothing left
    to open or recruit, a site still counts as completable when its owner's own free workers cover it
    (W01 on B01 lacks a tile, W03 in the owner's crew brings it); the same worker in another seat's crew
    does not help, and then no VP can be gained."""
    from builders.middle_ages.rules import can_gain_vp

    state = only_crew_position(owner_has_w03=True)
    assert state.unrecruited == 0
    assert can_gain_vp(state) is True
    assert can_gain_vp(only_crew_position(owner_has_w03=False)) is False


def test_tie_on_points_goes_to_more_building_and_machine_vp_machines_included():
    """rules.md "End of the game": ties go to the most VP from buildings and machines, machines counted
    with the buildings. 11 VP each: seat 0 has 8 (B34) + 3 (M5, M1) from cards, seat 1 7 (B33) and
    4 from 40 coins."""
    result = finished([9, 40], [["B34", "M5", "M1"], ["B33"]]).result()
    assert result.scores == (11, 11)
    assert result.winners == (0,)
