"""Notation, information, copies and positions of MiddleAgesState (the GameState protocol)."""

import pytest

from builders.core.errors import IllegalAction, InvalidPosition
from builders.core.games import get_game, on_python
from builders.core.record import replay
from builders.core.rng import Rng
from builders.middle_ages.game import MiddleAges
from builders.middle_ages.state import MiddleAgesState
from tests.unseen import Unseen
from tests.middle_ages.ma_helpers import new_state, play, position, random_game, setup_with


def test_registry():
    game = get_game("middle-ages")
    assert isinstance(game, MiddleAges)
    assert (game.name, game.title, game.min_players, game.max_players) == (
        "middle-ages",
        "The Builders: Middle Ages",
        2,
        4,
    )


@pytest.mark.parametrize("text", ["open B01", "recruit W03", "coins 1", "coins 2", "coins 3", "buy"])
def test_round_trip(text):
    state = new_state()
    assert state.action_to_string(state.parse_action(text)) == text


def test_lenient_ids_and_canonical_output():
    state = position(crews=[["M3"], []], sites=[{"B07": []}, {}], completed=[["M3"], []])
    action = state.parse_action("SEND m03 b7")
    assert state.action_to_string(action) == "send M3 B07"


@pytest.mark.parametrize(
    "text, message",
    [
        ("opne B07", '"opne B07" is not an action (expected open, recruit, send, coins, buy or end)'),
        ("", '"" is not an action (expected open, recruit, send, coins, buy or end)'),
        ("open B07", "B07 is not in the building row"),
        ("open W03", "W03 is a worker, not a building or a machine"),
        ("open Z9", "'Z9' is not a card id (workers W01-W42, buildings B01-B34, machines M1-M8)"),
        ("open", "open takes one building or machine of the row, e.g. open B07"),
        ("recruit W12", "W12 is not in the worker row"),
        ("recruit B01", "B01 is a building, not a worker"),
        ("recruit M2", "M2 is a machine, not a worker"),
        ("send W12 B07", "W12 is not in your crew"),
        ("send W01 B07", "you have no site B07"),
        ("send B01 B07", "B01 is a building, not a worker or a machine"),
        ("send W01", "send takes a worker (or a completed machine) and one of your sites, e.g. send W12 B07"),
        (
            "coins 4",
            "coins takes the number of actions to spend: coins 1 (1 coin), coins 2 (3 coins) or coins 3 (6 coins)",
        ),
        ("end now", "end takes no argument: write just end"),
        ("end", "you must spend your 3 remaining actions before ending the turn"),
    ],
)
def test_parse_errors(text, message):
    """Bad input gets a clear reason and changes nothing."""
    state = new_state()
    before = state.to_json()
    with pytest.raises(IllegalAction) as e:
        state.parse_action(text)
    assert str(e.value) == message
    assert state.to_json() == before


def test_apply_refuses_bad_values():
    state = new_state()
    for bad, message in [
        ("open B01", "'open B01' is not an action of The Builders: Middle Ages"),
        (True, "True is not an action of The Builders: Middle Ages"),
        (99999, "99999 is not an action of The Builders: Middle Ages"),
        (-1, "-1 is not an action of The Builders: Middle Ages"),
        (700, "700 is not an action of The Builders: Middle Ages"),
    ]:
        with pytest.raises(IllegalAction) as e:
            state.apply(bad)
        assert str(e.value) == message
    assert state.history == [] and state.actions == 3


def test_observation_hides_deck_orders_and_top_worker():
    """rules.md "Information": everything is open but both deck orders and the top worker card; the top
    building card is public."""
    state = new_state(buildings=["B10", "B11", "B12", "B13", "B14", "B34"])
    obs = state.observation(1)
    assert "building_deck" not in obs and "worker_deck" not in obs
    assert (obs["building_deck_top"], obs["building_deck_size"], obs["worker_deck_size"], obs["seat"]) == (
        "B34",
        37,
        35,
        1,
    )
    assert obs["building_row"] == ["B10", "B11", "B12", "B13", "B14"]
    assert "W08" not in str(obs)  # the top worker card is hidden (W03-W07 are in the row)
    with pytest.raises(ValueError, match="^seat must be from 0 to 1 or None, not 2$"):
        state.observation(2)
    # a spectator (None) knows what every seat knows, as no seat
    assert state.observation(None) == {**obs, "seat": None}


@pytest.mark.parametrize("players,seed,stop", [(2, 1, 0), (2, 2, 37), (3, 3, 80), (4, 4, None)])
def test_an_observation_reads_nothing_its_seat_may_not_see(players, seed, stop):
    """rules.md "Information": an observation is made of what its seat may see, not by blanking the
    rest afterwards: with the decks unreadable but for the building deck's top card (``Unseen``),
    every seat's and the spectator's observation is made, and is what it is on the state itself."""
    state = on_python(random_game(players, seed, stop=stop))  # (native: the same method on its fields)
    assert type(state) is MiddleAgesState
    for seat in [None, *range(players)]:
        blind = state.copy()
        blind.bdeck = Unseen(state.bdeck, seen={-1})
        blind.wdeck = Unseen(state.wdeck)
        assert blind.observation(seat) == state.observation(seat)


def test_resample_hidden_keeps_what_is_known():
    state = random_game(2, 5, stop=40)
    other = state.resample_hidden(0, Rng(3))
    a, b = state.to_json(), other.to_json()
    assert a["building_deck"][0] == b["building_deck"][0]
    assert sorted(a["building_deck"]) == sorted(b["building_deck"])
    assert sorted(a["worker_deck"]) == sorted(b["worker_deck"])
    assert a["building_deck"] != b["building_deck"] and a["worker_deck"] != b["worker_deck"]
    assert state.observation(0) == other.observation(0)
    assert state.to_json() == a  # the original is unchanged


def test_copy_is_independent():
    state = random_game(3, 2, stop=50)
    before = state.to_json()
    other = state.copy()
    while not other.is_over():
        other.apply(other.legal_actions()[-1])
    assert state.to_json() == before and len(state.history) < len(other.history)


def test_from_json_round_trip_and_errors():
    state = random_game(2, 8, stop=120)
    j = state.to_json()
    assert MiddleAgesState.from_json(j, state.setup).to_json() == j
    assert MiddleAges().state_from_json(j, state.setup).to_json() == j
    bad = dict(j, players=j["players"][:1])
    with pytest.raises(InvalidPosition, match="^players must list the 2 seats of the setup$"):
        MiddleAgesState.from_json(bad, setup_with())
    bad = dict(j, worker_row=j["worker_row"] + j["building_row"][:1])
    with pytest.raises(InvalidPosition, match="cannot be in worker_row$"):
        MiddleAgesState.from_json(bad, setup_with())
    fresh = new_state().to_json()
    bad = dict(fresh, building_deck=fresh["building_deck"][1:])
    with pytest.raises(InvalidPosition, match="^cards missing from the position: B06$"):
        MiddleAgesState.from_json(bad, setup_with())
    bad = dict(j, turn=j["turn"] + 1)
    with pytest.raises(InvalidPosition, match="turn, not seat"):
        MiddleAgesState.from_json(bad, setup_with())
    with pytest.raises(InvalidPosition, match="^the position has no 'turn'$"):
        MiddleAgesState.from_json({k: v for k, v in j.items() if k != "turn"}, setup_with())


def test_record_replays_to_the_same_state():
    state = random_game(4, 3)
    again = replay(state.to_record())
    assert again.to_json() == state.to_json() and again.history == state.history
    assert state.to_record()["result"] == state.result().to_json()


def test_forced_draw_must_be_in_the_deck():
    """Replay: a recorded draw is taken out of the deck wherever it is; a card not in the deck is refused."""
    state = new_state()
    state.forced = ["B20"]
    play(state, "open B01")
    assert state.to_json()["building_row"][0] == "B20" and state.forced == []
    state.forced = ["B02"]
    with pytest.raises(IllegalAction, match="^the recorded draw B02 is not in the building deck$"):
        state.apply_string("open B03")
    assert state.to_json()["building_row"] == ["B20", "B02", "B03", "B04", "B05"]
