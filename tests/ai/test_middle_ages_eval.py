"""The Builders' evaluation (builders.ai.eval_middle_ages), the medium bot that plays one action ahead
on it, and how the searching bots split a turn of The Builders (builders.ai.kit_middle_ages)."""

from __future__ import annotations

import pytest

from builders.ai import GreedyAgent, MCTSAgent
from builders.ai.budget import turn_share
from builders.ai.kit_middle_ages import MA_AFTER_BUY, MA_END, MA_FIRST, MA_FORCED_END, MA_TOTAL
from builders.ai.eval_middle_ages import finished_seats, last_turn_gain, values
from builders.ai.mcts import TURN_MARGIN
from builders.ai.tournament import derive_seed, play_game
from builders.core.games import get_game, on_python
from builders.middle_ages.codes import OPEN, RECRUIT, SEND
from builders.middle_ages.notation import parse

SEED = 2024  # the seed of benchmarks/ai_strength.py


def setup_state(setup_index: int):
    """The setup's initial state on the Python engine (the tests change its fields by hand)."""
    g = get_game("middle-ages")
    return on_python(g.new_state(g.random_setup(2, derive_seed("setup", SEED, setup_index))))


def test_a_second_large_site_waits_until_the_first_is_staffed():
    """rules.md "A turn": any number of sites may be open, but a site pays only when completed
    ("Completing a site") by workers the seat recruits, sends and pays. With the Abbey (B29, 10
    units of requirement) just opened and one apprentice in the crew, the medium bot recruits for it
    rather than opening a second 4-VP site (the evaluation before the queue discount opened the Post,
    B23, here, and the seat ended that game with 2 VP)."""
    state = setup_state(39)
    state.apply(parse("open B29"))
    assert any(parse(c) in state.brow for c in ("open B23", "open B21"))
    for seed in range(5):
        action = GreedyAgent(seed).act(state)
        assert RECRUIT <= action < SEND, seed


def test_medium_against_medium_leaves_no_seat_at_two_vp_or_less():
    """Games 150-169 of the medium-vs-medium match of benchmarks/ai_strength.py (setups 75-84, seats
    swapped): with the evaluation before the queue discount, games 160 and 161 ended 2 to 20."""
    task = {
        "game": "middle-ages",
        "players": 2,
        "seed": SEED,
        "rotations": 2,
        "agents": [("medium", {}), ("medium", {})],
    }
    scores = [play_game(dict(task, index=i))["scores"] for i in range(150, 170)]
    assert min(min(s) for s in scores) > 2, scores


def final_round_state():
    """A medium-vs-medium game played until the round after a seat reached 17 VP, with a seat that has
    played its turn in it and the other to move (the first of setups 0-19 where the start seat ends
    a turn with 17 VP)."""
    for setup in range(20):
        state = setup_state(setup)
        bots = [GreedyAgent(1), GreedyAgent(2)]
        while not state.is_over():
            if state.final_round and state.cur != state.start:
                return state
            state.apply(bots[state.cur].act(state))
    raise AssertionError("no game of setups 0-19 has a final round with a seat still to play")


def test_seats_done_with_the_game_count_only_what_is_finished():
    """rules.md "End of the game": after a turn that ends with 17 VP the round is finished and the
    game ends before the start seat's next turn; the final score is VP plus 1 per full 10 coins. A
    seat that has played its turn in that round counts exactly that; the seat to move counts its VP,
    coins and the actions left (2 coins each), never its unfinished sites, and before it has done
    anything, at least what it can still finish in its last turn (``last_turn_gain``)."""
    state = final_round_state()
    cur, start = state.cur, state.start
    assert finished_seats(state) == [p != cur for p in range(2)]
    v = values(state)
    assert v[start] == pytest.approx(state.vp[start] + state.coins[start] // 10 + 0.001 * state.coins[start])
    plain = state.vp[cur] + 0.1 * state.coins[cur] + 0.2 * state.actions
    assert v[cur] == pytest.approx(max(plain, state.vp[cur] + last_turn_gain(state, cur)))
    opens = [a for a in state.legal_actions() if OPEN <= a < RECRUIT]
    if opens:  # opening a site on the last turn only spends an action
        child = state.copy()
        child.apply(opens[0])
        assert values(child)[cur] == pytest.approx(plain - 0.2)


def test_a_seat_with_its_last_turn_to_come_counts_what_it_can_finish_in_it():
    """rules.md "End of the game": once the start seat ends a turn with 17 VP the round is played out,
    so the other seat still plays one turn; a seat that finishes a site in it takes its VP and coins
    ("Completing a site"). Without this the second seat's last turn counted for nothing, and the
    second seat won 73% of 100 medium-vs-medium games (seed 2024): 51% with it."""
    state = final_round_state()
    cur = state.cur
    assert values(state)[1 - cur] == pytest.approx(
        state.vp[1 - cur] + state.coins[1 - cur] // 10 + 0.001 * state.coins[1 - cur]
    )  # played: done
    # while the start seat is still playing the turn that reaches 17 VP, the other seat's last turn is
    # to come: it counts its VP and what it can finish then
    state = setup_state(0)
    p = 1 - state.cur
    state.vp[state.cur] = 17
    assert values(state)[p] == pytest.approx(state.vp[p] + last_turn_gain(state, p))


def test_the_gain_of_a_last_turn():
    """rules.md "A turn" and "Send a worker": 3 actions; a send costs 1 action for the first worker to
    a site this turn, 2 for the second; the worker's wage is paid in coins; actions left take coins
    (1 for 1, 3 for 2, 6 for 3). The Covered Bridge (B03, 1 VP, pays 6 coins; cards.md) needs 1 wood
    and 2 knowledge: W16 brings all of it for 3 coins, W02 and W08 together for 2 + 3 coins."""
    from builders.middle_ages.cards import IDS

    state = setup_state(0)
    p = 1
    b03, w16, w02, w08 = (IDS.index(c) for c in ("B03", "W16", "W02", "W08"))
    state.sites[p] = [b03]
    state.progress[b03] = 0

    def gain(crew, coins):
        state.crew[p] = list(crew)
        state.coins[p] = coins
        return last_turn_gain(state, p)

    # one send (1 action, 3 coins), the reward 6, two actions left take 3 coins: 1 VP and 9 coins
    assert gain([w16], 3) == pytest.approx(1 + 0.1 * 9)
    # the wage cannot be paid: three actions take 6 coins
    assert gain([w16], 2) == pytest.approx(0.1 * (2 + 6))
    # two workers to the same site: 1 + 2 = 3 actions, 5 coins of wages, the reward 6
    assert gain([w02, w08], 5) == pytest.approx(1 + 0.1 * 6)
    # no site the crew can finish: coins only
    state.sites[p] = []
    assert gain([w02], 4) == pytest.approx(0.1 * (4 + 6))


def test_no_seat_is_done_before_the_final_round():
    state = setup_state(5)
    assert finished_seats(state) == [False, False]


def test_turn_shares_of_the_builders():
    """The first decision of a turn weighs 2 and plans to the turn's end (the whole turn lies ahead);
    later ones keep 0.5 for the end of the turn when the seat can buy an action (5 coins, rules.md "A
    turn") and almost nothing when "end" will be the only action; with no action left, "end" or
    "buy" weighs 0.5 of 0.75."""
    state = setup_state(3)
    assert state.actions == 3
    assert turn_share(state) == (MA_FIRST, MA_TOTAL, MA_TOTAL)
    state.apply(parse("coins 1"))
    p = state.cur
    state.coins[p] = 5
    assert turn_share(state) == (1.0, 2 + MA_END, MA_TOTAL)
    state.coins[p] = 4
    assert turn_share(state) == (1.0, 2 + MA_FORCED_END, MA_TOTAL)
    state.apply(parse("coins 2"))
    state.coins[p] = 5
    assert state.actions == 0 and parse("buy") in state.legal_actions()
    assert turn_share(state) == (0.5, 0.5 + MA_AFTER_BUY, MA_TOTAL)
    state.apply(parse("buy"))  # a bought action is not a new turn
    assert turn_share(state) == (1.0, 1 + MA_END, MA_TOTAL) or turn_share(state) == (1.0, 1 + MA_FORCED_END, MA_TOTAL)


def test_a_searching_bot_plans_the_whole_turn_of_the_builders():
    """At the first decision of its turn the agent's deadline is the end of the whole turn (not 3.5 /
    5.5 of it, which left 40% of the hard level's 2 s unused in turns without a bought action)."""
    state = setup_state(3)
    agent = MCTSAgent(0, time_limit=None, turn_time=2.0)
    t = agent._time_for(state, state.cur, 0, now=10.0)
    assert t == pytest.approx(2.0 * TURN_MARGIN * MA_FIRST / MA_TOTAL)
    assert agent._turn[2] == pytest.approx(10.0 + 2.0 * TURN_MARGIN)


def far_ahead():
    """Seat 0 to move with 16 VP, 511 coins, six open sites and a crew that can finish them; seat 1
    with 8 VP, 6 coins and no crew; both decks and rows empty (reached after 1,186 actions of a game
    of the hard search against random play whose searching seat took coins for ever)."""
    import json
    from pathlib import Path

    from builders.middle_ages.state import MiddleAgesState

    data = json.loads((Path(__file__).parent / "positions" / "middle_ages_far_ahead.json").read_text())
    return MiddleAgesState.from_json(data["position"], data["setup"])


@pytest.mark.parametrize(
    "make",
    [
        lambda: GreedyAgent(0),
        lambda: GreedyAgent(1, noise=0.5),
        lambda: MCTSAgent(3, time_limit=None, iterations=40, prior="fast", reuse=True),
    ],
    ids=["medium", "easy", "hard-40"],
)
def test_a_seat_far_ahead_ends_the_game_instead_of_taking_coins_for_ever(make):
    """rules.md "End of the game": the round in which a seat ends its turn with 17 VP is the last.
    Seat 0 is sure to win by finishing a site now; keeping the lead and taking coins is worth as many
    points but the game goes on (the evaluation once valued it higher: such games never ended). Seat
    0 reaches 17 VP this turn and the game ends after seat 1's last turn, won by seat 0."""
    state = far_ahead()
    assert (state.current_player, state.vp, state.coins) == (0, [16, 8], [511, 6])
    agent = make()
    while state.current_player == 0:
        state.apply(agent.act(state))
    assert state.vp[0] >= 17 and state.final_round
    while not state.is_over():
        state.apply(state.legal_actions()[0])
    assert state.returns() == [1.0, 0.0]


def test_a_won_game_that_ends_is_worth_more_than_the_same_lead_kept():
    """The win values of a game still going on keep a margin from 0 and 1, smaller once the end is
    triggered (the AI kit's win_margin, end_margin): a sure lead is 0.98 before and 0.998
    after, a finished won game 1."""
    from builders.ai.evaluate import win_value, win_values
    from builders.ai.kit import kit

    WIN_MARGIN, END_MARGIN = (
        {"middle-ages": kit("middle-ages").win_margin},
        {"middle-ages": kit("middle-ages").end_margin},
    )

    state = far_ahead()
    state.turn = 20  # round 10: not a long game (late_factor 1)
    assert win_values(state) == pytest.approx([1 - WIN_MARGIN["middle-ages"], WIN_MARGIN["middle-ages"]])
    assert WIN_MARGIN["middle-ages"] == 0.02 and END_MARGIN["middle-ages"] == 0.002
    assert win_value(state, 0.0) == 0.5
    ended = state.copy()
    ended.final_round = True
    assert win_values(ended) == pytest.approx([1 - END_MARGIN["middle-ages"], END_MARGIN["middle-ages"]])
    kingdom = get_game("kingdom").new_state(get_game("kingdom").random_setup(2, 1))
    assert win_value(kingdom, 1000.0) == 1.0


@pytest.mark.parametrize(
    "make",
    [lambda: GreedyAgent(0), lambda: MCTSAgent(3, time_limit=None, iterations=40, prior="fast", reuse=True)],
    ids=["medium", "hard-40"],
)
def test_a_seat_behind_ends_a_game_that_has_gone_on_too_long(make):
    """rules.md "End of the game" sets no limit to a game's length: seat 0 (16 VP) can finish a site
    and end the game, but it would lose (seat 1's 1,000 coins are 100 VP), so early in a game it
    takes coins instead, hoping for more. Past round 30 (``MA_LATE_ROUND``) the value of a game
    still going on falls round by round (``late_factor``): at round 154 seat 0 ends the game, and
    loses it. Without that, two bots took coins for ever, neither ready to end."""
    from builders.ai.eval_middle_ages import DEFAULT, late_factor, weights

    late = far_ahead()
    late.coins[1] = 1000
    assert late.turn // 2 == 154 and late_factor(late) == pytest.approx(0.8**125)
    early = late.copy()
    early.turn = 20
    assert late_factor(early) == 1.0 and DEFAULT.MA_LATE_ROUND == 30
    assert late_factor(late, weights({"MA_LATE_ROUND": 150, "MA_LATE_DECAY": 0.5})) == 0.5**5
    for state, ends in ((early, False), (late, True)):
        agent = make()
        while state.current_player == 0:
            state.apply(agent.act(state))
        assert state.final_round == ends
    while not late.is_over():  # seat 1's last turn, without buying actions with its coins
        late.apply(next(a for a in late.legal_actions() if late.action_to_string(a) != "buy"))
    assert late.returns() == [0.0, 1.0]


def test_medium_bots_that_took_coins_for_rounds_build_once_the_game_has_gone_on_too_long():
    """Round 40: seat 0 has 7 VP, seat 1 5, 60 coins each, sites open and crews to work on them
    (reached by two medium bots playing a game on from round 3: they took coins round after round and
    were at 4,400 coins each by round 747). rules.md "End of the game" sets no limit to a game's length,
    and ``late_factor`` changes no choice in a round where no action can end the game. From round 30
    (``MA_LATE_ROUND``) coins kept count nothing in the evaluation of a game still going on
    (``MA_LATE_COIN``): the bots build, and seat 0 reaches 17 VP in 33 actions. Valued as before
    (``MA_COIN``, 0.12 VP a coin) they take coins for 600 actions more, neither building."""
    import json
    from pathlib import Path

    from builders.ai import eval_middle_ages
    from builders.middle_ages.state import MiddleAgesState

    data = json.loads((Path(__file__).parent / "positions" / "middle_ages_coin_stall.json").read_text())

    def play_on(limit, settings=None):
        state = MiddleAgesState.from_json(data["position"], data["setup"])
        assert (state.turn // 2, state.vp, state.coins) == (40, [7, 5], [60, 60])
        agents = [GreedyAgent(0, weights=settings), GreedyAgent(1, weights=settings)]
        n = 0
        while not state.is_over() and n < limit:
            state.apply(agents[state.current_player].act(state))
            n += 1
        return state, n

    default = eval_middle_ages.DEFAULT
    assert default.MA_LATE_COIN == 0.0 and default.MA_LATE_ROUND == 30
    state, n = play_on(600)
    assert state.is_over() and n == 33 and state.vp == [17, 10]
    state, n = play_on(600, eval_middle_ages.MiddleAgesSettings(MA_LATE_COIN=default.MA_COIN))
    assert not state.is_over() and state.vp == [7, 5] and state.coins == [960, 960]


def test_an_agents_late_settings_change_the_late_factor_of_its_win_values():
    """``late_factor`` of an agent's ``MiddleAgesSettings``, not the defaults: at round 154 the win
    values of a game going on fall by 0.8 a round from round 30 (``DEFAULT``), by 0.5 a round from round
    150 for an agent whose ``MA_LATE_ROUND`` and ``MA_LATE_DECAY`` say so; its greedy bot's values of
    the actions that do not trigger the end are those of the default bot times the ratio (those that
    do, factor 1, the same)."""
    from builders.ai.eval_middle_ages import weights
    from builders.ai.evaluate import kit, win_value, win_values

    late = far_ahead()
    late.coins[1] = 1000
    own = weights({"MA_LATE_ROUND": 150, "MA_LATE_DECAY": 0.5})
    assert win_value(late, 0.0) == pytest.approx(0.5 * 0.8**125)
    assert win_value(late, 0.0, weights=own) == 0.5 * 0.5**5
    default, mine = win_values(late), win_values(late, weights=own)
    assert [m / d for m, d in zip(mine, default)] == pytest.approx([0.5**5 / 0.8**125] * 2)
    overrides = {"MA_LATE_ROUND": 150, "MA_LATE_DECAY": 0.5}
    plain, tuned = GreedyAgent(0)._scored(late), GreedyAgent(0, weights=overrides)._scored(late)
    ends = []
    for action, _, _ in plain:
        child = late.copy()
        child.apply(action)
        ends.append(kit("middle-ages").end_triggered(child))
    assert [t[2] for t in tuned] == [p[2] for p in plain] and True in ends and False in ends
    ratios = [t[1] / p[1] for p, t in zip(plain, tuned)]
    assert ratios == pytest.approx([1.0 if end else 0.5**5 / 0.8**125 for end in ends])
