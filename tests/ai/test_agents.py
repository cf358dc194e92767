"""The agents and the bot factory: legal play, real strength against random play, the levels' speed,
agent specifications."""

from __future__ import annotations

import statistics
import time

import pytest

from builders.ai import AgentSpec, GreedyAgent, MCTSAgent, make_bot, parse_agent, parse_agents
from builders.ai.factory import BotError
from builders.core.errors import BuildersError
from builders.ai.evaluate import values, win_values
from builders.core.agents import RandomAgent, play
from builders.core.games import get_game
from tests.ai.helpers import midgame

GAMES = ("kingdom", "middle-ages")


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("level", ["easy", "medium", "hard", "expert", "random"])
def test_make_bot_levels_play_legal_moves(game, level):
    bot = make_bot(game, level, seed=1, turn_time=0.1)
    assert bot.name == level
    state = midgame(game, 2, 4, 12)
    for _ in range(6):
        if state.is_over():
            break
        action = bot.act(state)
        assert state.is_legal(action)
        state.apply(action)


def test_make_bot_refuses_unknown_names_and_bad_turn_times():
    with pytest.raises(BotError, match=r"^unknown game 'chess' \(choose from kingdom, middle-ages\)$"):
        make_bot("chess", "easy")
    with pytest.raises(
        ValueError,
        match=r"^unknown level 'master' \(choose from random, easy, medium, hard, "
        r"expert\)$",
    ):
        make_bot("kingdom", "master")
    for bad, message in [
        (0, "turn time must be positive, not 0"),
        (-1.5, "turn time must be positive, not -1.5"),
        (float("nan"), "turn time must be positive, not nan"),
        (601, "turn time must be at most 600 seconds, not 601"),
        (float("inf"), "turn time must be at most 600 seconds, not inf"),
        ("2", "turn time must be a number of seconds, not '2'"),
        (True, "turn time must be a number of seconds, not True"),
    ]:
        with pytest.raises(BotError) as info:
            make_bot("kingdom", "hard", turn_time=bad)
        assert str(info.value) == message
        assert isinstance(info.value, BuildersError)


def test_levels_and_their_budgets():
    """hard and expert take a whole-turn budget (2 s and 10 s by default) and plan whole turns, with
    the planner of their game; the other levels do not search."""
    from builders.ai.planner_middle_ages import MiddleAgesPlanner

    hard = make_bot("middle-ages", "hard", seed=1)
    expert = make_bot("middle-ages", "expert", seed=1)
    assert (type(hard), hard.turn_time, type(expert), expert.turn_time) == (
        MiddleAgesPlanner,
        2.0,
        MiddleAgesPlanner,
        10.0,
    )
    assert (make_bot("kingdom", "hard", 1).turn_time, make_bot("kingdom", "expert", 1).turn_time) == (2.0, 10.0)
    assert make_bot("kingdom", "hard", seed=1, turn_time=0.5).turn_time == 0.5
    assert make_bot("middle-ages", "hard", seed=1, turn_time=0.5).turn_time == 0.5
    assert isinstance(make_bot("kingdom", "medium", 1), GreedyAgent)
    assert make_bot("kingdom", "easy", 1).noise == 0.6


@pytest.mark.parametrize("game", GAMES)
def test_easy_and_medium_are_fast(game):
    """Under 50 ms a decision (median over a game's decisions; the machine may be busy)."""
    for level in ("easy", "medium"):
        state = get_game(game).new_state(get_game(game).random_setup(2, 6))
        bots = [make_bot(game, level, seed=1), RandomAgent(2)]
        times = []
        while not state.is_over():
            bot = bots[state.current_player]
            t0 = time.perf_counter()
            action = bot.act(state)
            if bot is bots[0]:
                times.append(time.perf_counter() - t0)
            state.apply(action)
        assert statistics.median(times) < 0.05


@pytest.mark.parametrize("game", GAMES)
def test_mcts_respects_its_time_limit_and_reports_speed(game):
    state = midgame(game, 2, 3, 20)
    agent = MCTSAgent(0, time_limit=0.2)
    t0 = time.perf_counter()
    action = agent.act(state)
    spent = time.perf_counter() - t0
    assert state.is_legal(action)
    assert 0.15 < spent < 0.45
    stats = agent.last_stats
    assert stats["iterations"] > 20 and stats["sims_per_s"] == pytest.approx(stats["iterations"] / stats["seconds"])


def test_mcts_needs_a_budget():
    with pytest.raises(ValueError, match="time limit or an iteration budget"):
        MCTSAgent(0, time_limit=None)


@pytest.mark.parametrize("game", GAMES)
def test_greedy_and_mcts_beat_random(game):
    """Real outcomes: each agent wins at least 3 of 4 paired games against random play."""
    g = get_game(game)
    # mcts without widening: a small budget goes a long way (the default widening spends it on
    # evaluating every action of the nodes it expands)
    for make in (lambda: GreedyAgent(3), lambda: MCTSAgent(3, time_limit=None, iterations=60, widen=0)):
        wins = 0.0
        for setup_seed in (21, 22):
            for seat in (0, 1):
                state = g.new_state(g.random_setup(2, setup_seed))
                agents = [RandomAgent(5), RandomAgent(5)]
                agents[seat] = make()
                play(state, agents)
                wins += state.returns()[seat]
        assert wins >= 3, (make().name, wins)


@pytest.mark.parametrize("game", GAMES)
def test_evaluation_values_and_win_values(game):
    state = midgame(game, 3, 8, 30)
    v = values(state)
    w = win_values(state)
    assert len(v) == len(w) == 3
    assert all(0.0 < x < 1.0 for x in w)
    best = max(range(3), key=lambda p: v[p])
    assert w[best] == max(w)
    g = get_game(game)
    done = g.new_state(g.random_setup(2, 1))
    play(done, [RandomAgent(1), RandomAgent(2)])
    assert win_values(done) == done.returns()


def test_greedy_takes_the_action_of_highest_value():
    """Greedy plays the best-valued action, and its values do tell the actions apart."""
    state = midgame("kingdom", 2, 8, 40)
    agent = GreedyAgent(0)
    scored = dict(agent.scores(state))
    best = agent.act(state)
    assert scored[best] == max(scored.values())
    assert len(set(scored.values())) > 1


def test_agent_specs():
    assert parse_agent("mcts:time=0.2:c=0.7") == AgentSpec("mcts", {"time": 0.2, "c": 0.7})
    assert [s.label for s in parse_agents("mcts:time=0.2,c=0.7,greedy,random")] == [
        "mcts:time=0.2:c=0.7",
        "greedy",
        "random",
    ]
    assert parse_agents(" Greedy:noise=0.5 , random")[0] == AgentSpec("greedy", {"noise": 0.5})
    agent = parse_agent("mcts:iters=10").make(3)
    assert agent.time_limit is None and agent.iterations == 10 and agent.name == "mcts:iters=10"
    for text, message in [
        ("greedy:noise", "must be key=value"),
        ("mcts:iters=1.5", "must be a whole number"),
        ("random:x=1", "options: none"),
        ("", "unknown agent ''"),
        ("greedy:noise=-1", "must not be negative"),
    ]:
        with pytest.raises(ValueError, match=message):
            parse_agent(text)
    with pytest.raises(ValueError, match="empty agent"):
        parse_agents("greedy,,random")


@pytest.mark.parametrize("pos", [(2, 3, 9), (2, 8, 40), (3, 5, 21), (4, 2, 52)])
def test_mcts_with_one_iteration_plays_greedys_move(pos):
    """With progressive widening the first child is the best by the evaluation: greedy's choice."""
    state = midgame("kingdom", *pos)
    assert MCTSAgent(1, time_limit=None, iterations=1).act(state) == GreedyAgent(2).act(state)
