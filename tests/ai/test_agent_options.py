"""Agent options and bot levels: every refusal says exactly what is wrong (one sentence), every
boundary is where the docs put it, and each spec makes the agent it names with the options it names."""

from __future__ import annotations

import math

import pytest

from builders.ai.agents import OPTIONS, AgentSpec, LevelAgent, parse_agent, parse_agents
from builders.ai.factory import EASY_NOISE, LEVELS, TURN_TIME, BotError, check_turn_time, make_bot
from builders.ai.greedy import GreedyAgent
from builders.ai.mcts import MCTSAgent
from builders.ai.planner_kingdom import LEVEL_SETTINGS, ROLLOUT_SETTINGS, TurnPlanner
from builders.ai.planner_middle_ages import LEVEL_SETTINGS as MIDDLE_AGES_SETTINGS
from builders.ai.planner_middle_ages import MiddleAgesPlanner
from builders.ai.tournament import run_tournament
from builders.core.agents import RandomAgent
from builders.core.games import get_game


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"time_limit": 0}, "time limit must be positive, not 0"),
        ({"time_limit": -1.5}, "time limit must be positive, not -1.5"),
        ({"time_limit": math.nan}, "time limit must be positive, not nan"),
        ({"time_limit": None, "turn_time": 0}, "turn time must be positive, not 0"),
        ({"time_limit": None, "turn_time": -2}, "turn time must be positive, not -2"),
        ({"iterations": 0}, "iterations must be at least 1, not 0"),
        ({"time_limit": None}, "mcts needs a time limit or an iteration budget"),
        ({"prior": "slow"}, "prior must be one of full, fast, own, not 'slow'"),
        ({"top": -1}, "top must not be negative, not -1"),
    ],
)
def test_mcts_refuses_a_budget_that_is_not_positive(kwargs, message):
    with pytest.raises(ValueError) as e:
        MCTSAgent(1, **kwargs)
    assert str(e.value) == message


def test_mcts_accepts_the_smallest_budgets_and_keeps_its_options():
    a = MCTSAgent(3, time_limit=1e-9, iterations=1, c=0.5, rollout=2, scale=7.0, widen=0.0, prior="fast", reuse=1)
    assert (a.time_limit, a.iterations, a.c, a.rollout, a.scale, a.widen, a.prior, a.reuse, a.name) == (
        1e-9,
        1,
        0.5,
        2,
        7.0,
        0.0,
        "fast",
        True,
        "mcts",
    )
    b = MCTSAgent(3, time_limit=None, turn_time=1e-9)
    assert (b.time_limit, b.turn_time, b.iterations, b.prior, b.reuse, b.rollout) == (
        None,
        1e-9,
        None,
        "full",
        False,
        0,
    )
    # one iteration is a whole decision: a legal action comes back
    state = get_game("middle-ages").new_state(get_game("middle-ages").random_setup(2, 9))
    assert MCTSAgent(3, time_limit=None, iterations=1).act(state) in state.legal_actions()


@pytest.mark.parametrize(
    "text, message",
    [
        ("alpha", f"unknown agent 'alpha' (choose from {', '.join(OPTIONS)})"),
        ("mcts:time", "agent option 'time' must be key=value"),
        ("mcts:=1", "agent option '=1' must be key=value"),
        ("mcts:time=", "agent option 'time=' must be key=value"),
        ("mcts:depth=3", f"unknown option 'depth' for agent mcts (options: {', '.join(OPTIONS['mcts'])})"),
        ("random:noise=1", "unknown option 'noise' for agent random (options: none)"),
        ("mcts:time=0", "option time of mcts must be positive, not 0"),
        ("mcts:time=-1", "option time of mcts must be positive, not -1"),
        ("mcts:turn=0", "option turn of mcts must be positive, not 0"),
        ("mcts:iters=0", "option iters of mcts must be positive, not 0"),
        ("mcts:c=0", "option c of mcts must be positive, not 0"),
        ("mcts:scale=0", "option scale of mcts must be positive, not 0"),
        ("mcts:time=600.5", "option time of mcts must be at most 600 seconds, not 600.5"),
        ("hard:turn=601", "option turn of hard must be at most 600 seconds, not 601"),
        ("mcts:iters=2.5", "option iters of mcts must be a whole number, not '2.5'"),
        ("mcts:time=soon", "option time of mcts must be a number, not 'soon'"),
        ("mcts:reuse=2", "option reuse of mcts must be 0 or 1, not 2"),
        ("mcts:prior=slow", "option prior of mcts must be one of full, fast, own, not 'slow'"),
        ("mcts:clock=count", "option clock of mcts must be one of wall, cpu, not 'count'"),
        ("hard:clock=sun", "option clock of hard must be one of wall, cpu, count, not 'sun'"),
        ("greedy:noise=-0.1", "option noise of greedy must not be negative, not -0.1"),
        ("mcts:rollout=-1", "option rollout of mcts must not be negative, not -1"),
        ("mcts:widen=-1", "option widen of mcts must not be negative, not -1"),
        ("mcts:top=-2", "option top of mcts must not be negative, not -2"),
        (
            "hard:top=3",
            "unknown option 'top' for agent hard (options: turn, beam, plans, reply, ahead, block, depth, "
            "samples, clock, rollouts, finalists, rbeam, staffed, horizon)",
        ),
        ("expert:staffed=1.5", "option staffed of expert must be from 0 to 1, not 1.5"),
        ("hard:horizon=-1", "option horizon of hard must be from 0 to 50, not -1"),
        ("plan:horizon=51", "option horizon of plan must be from 0 to 50, not 51"),
        ("plan:samples=0", "option samples of plan must be positive, not 0"),
        ("plan:beam=0", "option beam of plan must be positive, not 0"),
        ("hard:rollouts=-1", "option rollouts of hard must not be negative, not -1"),
        ("hard:finalists=1", "option finalists of hard must be at least 2, not 1"),
        ("expert:rbeam=0", "option rbeam of expert must be positive, not 0"),
        ("hard:reply=0", "option reply of hard must be positive, not 0"),
        ("plan:plans=-1", "option plans of plan must not be negative, not -1"),
        ("plan:plans=2.5", "option plans of plan must be a whole number, not '2.5'"),
        ("expert:block=11", "option block of expert must be from 0 to 10, not 11"),
        ("plan:ahead=-1", "option ahead of plan must be from 0 to 10, not -1"),
        ("expert:depth=4", "option depth of expert must be 1, 2 or 3, not 4"),
        ("plan:c=1", f"unknown option 'c' for agent plan (options: {', '.join(OPTIONS['plan'])})"),
    ],
)
def test_agent_spec_refusals(text, message):
    with pytest.raises(ValueError) as e:
        parse_agent(text)
    assert str(e.value) == message


@pytest.mark.parametrize(
    "text, game, message",
    [
        (
            "hard:block=0.5",
            "middle-ages",
            "option block of hard is not one of The Builders' (options there: turn, beam, "
            "plans, reply, depth, samples, clock, staffed, horizon)",
        ),
        (
            "plan:ahead=2",
            "middle-ages",
            "option ahead of plan is not one of The Builders' (options there: turn, beam, "
            "plans, reply, depth, samples, clock, staffed, horizon)",
        ),
        (
            "expert:staffed=0.5",
            "kingdom",
            "option staffed of expert is not one of Kingdom Builder's (options there: "
            "turn, beam, plans, reply, ahead, block, depth, clock, rollouts, finalists, rbeam)",
        ),
        ("expert:depth=3", "kingdom", "option depth of expert must be 1 or 2 in Kingdom Builder, not 3"),
        (
            "expert:samples=3",
            "kingdom",
            "option samples of expert is not one of Kingdom Builder's (options there: turn, "
            "beam, plans, reply, ahead, block, depth, clock, rollouts, finalists, rbeam)",
        ),
        (
            "hard:rollouts=8",
            "middle-ages",
            "option rollouts of hard is not one of The Builders' (options there: turn, "
            "beam, plans, reply, depth, samples, clock, staffed, horizon)",
        ),
    ],
)
def test_level_options_of_the_other_game_are_refused(text, game, message):
    """hard, expert and plan are the game's turn planner; the weights of the next turns over the
    cards to come (ahead, block) are Kingdom Builder's only: refused by name in The Builders, when
    the agent is made and before a tournament starts."""
    spec = parse_agent(text)
    with pytest.raises(ValueError) as e:
        spec.make(1, game)
    assert str(e.value) == message
    with pytest.raises(ValueError) as e:
        run_tournament(game, [spec, parse_agent("random")], 2, 2, 1)
    assert str(e.value) == message


def test_agent_spec_boundaries_and_labels():
    assert list(OPTIONS)[:8] == ["random", "greedy", "mcts", "plan", "easy", "medium", "hard", "expert"]
    assert list(OPTIONS["mcts"])[:9] == ["time", "iters", "turn", "c", "rollout", "scale", "widen", "prior", "reuse"]
    assert LEVELS == ("random", "easy", "medium", "hard", "expert")
    assert parse_agent("mcts:time=600").options == {"time": 600.0}
    assert parse_agent(" MCTS : Time = 0.2 ").label == "mcts:time=0.2"
    assert parse_agent("greedy:noise=0").options == {"noise": 0.0}
    assert parse_agent("mcts:rollout=0:widen=0:reuse=0:reuse=1").options == {"rollout": 0, "widen": 0.0, "reuse": 1}
    assert parse_agent("mcts:iters=1:prior=fast").label == "mcts:iters=1:prior=fast"
    assert AgentSpec("random").label == "random"
    assert [s.label for s in parse_agents("mcts:time=0.2,c=0.7,greedy")] == ["mcts:time=0.2:c=0.7", "greedy"]
    assert [s.label for s in parse_agents("easy, hard:turn=1")] == ["easy", "hard:turn=1"]
    for text, message in [
        ("greedy,,random", "empty agent in 'greedy,,random'"),
        ("c=0.7,greedy", f"unknown agent 'c=0.7' (choose from {', '.join(OPTIONS)})"),
    ]:
        with pytest.raises(ValueError) as e:
            parse_agents(text)
        assert str(e.value) == message


def test_each_spec_makes_the_agent_it_names():
    random_agent = parse_agent("random").make(5)
    assert type(random_agent) is RandomAgent and random_agent.name == "random"
    greedy = parse_agent("greedy:noise=0.25").make(5)
    assert type(greedy) is GreedyAgent and greedy.noise == 0.25 and greedy.name == "greedy:noise=0.25"
    easy, medium = parse_agent("easy").make(5), parse_agent("medium").make(5)
    assert (type(easy), easy.noise, easy.name) == (GreedyAgent, EASY_NOISE, "easy")
    assert (type(medium), medium.noise, medium.name) == (GreedyAgent, 0.0, "medium")
    plain = parse_agent("mcts").make(5)
    assert (plain.time_limit, plain.turn_time, plain.iterations, plain.prior, plain.reuse) == (
        1.0,
        None,
        None,
        "full",
        False,
    )
    iters = parse_agent("mcts:iters=7").make(5)
    assert (iters.time_limit, iters.iterations, iters.turn_time) == (None, 7, None)
    turn = parse_agent("mcts:turn=3").make(5)
    assert (turn.time_limit, turn.turn_time) == (None, 3.0)
    both = parse_agent("mcts:time=0.5:turn=3").make(5)
    assert (both.time_limit, both.turn_time) == (0.5, 3.0)
    for level in ("hard", "expert"):
        agent = parse_agent(level).make(5, "middle-ages")
        assert (type(agent), agent.turn_time, agent.depth, agent.name) == (
            MiddleAgesPlanner,
            TURN_TIME[level],
            2,
            level,
        )
        assert (agent.beam, agent.plans, agent.reply, agent.samples) == MIDDLE_AGES_SETTINGS[level]
        # expert values by weights of its own (docs/ai.md, "Weights of the planner's own")
        assert (agent.staffed, agent.horizon) == {"hard": (None, None), "expert": (0.6, 4.5)}[level]
        planner = parse_agent(level).make(5, "kingdom")
        assert (type(planner), planner.turn_time, planner.name) == (TurnPlanner, TURN_TIME[level], level)
        assert (planner.beam, planner.plans, planner.reply) == LEVEL_SETTINGS[level]
        assert (planner.rollouts, planner.finalists, planner.roll_beam) == (*ROLLOUT_SETTINGS[level], 1)
        # without its game, the level becomes the game's agent at its first decision
        later = parse_agent(level).make(5)
        assert (type(later), later.agent, later.turn_time, later.name) == (LevelAgent, None, TURN_TIME[level], level)
    tuned = parse_agent("hard:turn=1:plans=3:beam=9:reply=2:depth=1:samples=4:clock=cpu").make(5, "middle-ages")
    assert (tuned.turn_time, tuned.plans, tuned.beam, tuned.reply, tuned.depth, tuned.samples, tuned.clock) == (
        1.0,
        3,
        9,
        2,
        1,
        4,
        "cpu",
    )
    tuned = parse_agent("hard:turn=1:plans=3:beam=9:reply=2:block=0.5:clock=cpu").make(5, "kingdom")
    assert (tuned.turn_time, tuned.plans, tuned.beam, tuned.reply, tuned.block, tuned.ahead, tuned.clock) == (
        1.0,
        3,
        9,
        2,
        0.5,
        1.0,
        "cpu",
    )
    tuned = parse_agent("expert:rollouts=0:finalists=3:rbeam=2").make(5, "kingdom")
    assert (tuned.rollouts, tuned.finalists, tuned.roll_beam, tuned.plans) == (0, 3, 2, LEVEL_SETTINGS["expert"][1])
    assert parse_agent("expert:clock=count").make(5, "middle-ages").clock == "count"
    tuned = parse_agent("hard:staffed=0.5:horizon=3").make(5, "middle-ages")
    assert (tuned.staffed, tuned.horizon, tuned.samples) == (0.5, 3.0, 1)
    assert parse_agent("expert:horizon=0").make(5, "middle-ages").horizon == 0.0
    plan = parse_agent("plan:turn=3:plans=0").make(5)
    assert (type(plan), plan.turn_time, plan.name) == (LevelAgent, 3.0, "plan:turn=3:plans=0")
    assert type(parse_agent("plan").make(5, "middle-ages")) is MiddleAgesPlanner
    state = get_game("kingdom").new_state(get_game("kingdom").random_setup(2, 4))
    assert plan.act(state) in state.legal_actions()
    assert (type(plan.agent), plan.agent.turn_time, plan.agent.plans) == (TurnPlanner, 3.0, 0)
    assert (
        parse_agent("mcts:c=0.7:rollout=3:scale=20:widen=1").make(5).__dict__.items()
        >= {"c": 0.7, "rollout": 3, "scale": 20.0, "widen": 1.0}.items()
    )


@pytest.mark.parametrize(
    "args, message",
    [
        (("chess", "easy"), "unknown game 'chess' (choose from kingdom, middle-ages)"),
        (("kingdom", "genius"), f"unknown level 'genius' (choose from {', '.join(LEVELS)})"),
        (("kingdom", "hard", 1, 0), "turn time must be positive, not 0"),
        (("kingdom", "hard", 1, -1.0), "turn time must be positive, not -1.0"),
        (("kingdom", "hard", 1, math.nan), "turn time must be positive, not nan"),
        (("kingdom", "hard", 1, 600.5), "turn time must be at most 600 seconds, not 600.5"),
        (("kingdom", "hard", 1, "2"), "turn time must be a number of seconds, not '2'"),
        (("kingdom", "hard", 1, True), "turn time must be a number of seconds, not True"),
    ],
)
def test_bot_refusals(args, message):
    with pytest.raises(BotError) as e:
        make_bot(*args)
    assert str(e.value) == message


def test_bot_levels():
    assert check_turn_time(600) == 600.0 and check_turn_time(1e-9) == 1e-9
    assert type(make_bot("kingdom", "random", 1)) is RandomAgent
    easy = make_bot("middle-ages", "easy", 1)
    assert (type(easy), easy.noise, easy.name) == (GreedyAgent, EASY_NOISE, "easy")
    medium = make_bot("middle-ages", "medium", 1)
    assert (type(medium), medium.noise, medium.name) == (GreedyAgent, 0.0, "medium")
    for level in ("hard", "expert"):
        bot = make_bot("middle-ages", level, 1)
        assert (type(bot), bot.turn_time, bot.name) == (MiddleAgesPlanner, TURN_TIME[level], level)
        assert (bot.beam, bot.plans, bot.reply, bot.samples) == MIDDLE_AGES_SETTINGS[level]
        planner = make_bot("kingdom", level, 1)
        assert (type(planner), planner.turn_time, planner.name) == (TurnPlanner, TURN_TIME[level], level)
        assert (planner.beam, planner.plans, planner.reply) == LEVEL_SETTINGS[level]
        assert (
            (planner.rollouts, planner.finalists)
            == ROLLOUT_SETTINGS[level]
            == {"hard": (64, 4), "expert": (100, 6)}[level]
        )
    assert make_bot("kingdom", "expert", 1, turn_time=3).turn_time == 3.0
    # the fast levels ignore a turn time (but still check it)
    assert make_bot("kingdom", "medium", 1, turn_time=3).noise == 0.0


def _moves(bot, n=30):
    game = get_game("kingdom")
    state = game.new_state(game.random_setup(2, 3))
    moves = []
    for _ in range(n):
        action = bot.act(state)
        moves.append(state.action_to_string(action))
        state.apply(action)
    return moves


def test_bots_follow_their_seed():
    """A bot is a function of the game, its level and its seed: the same seed plays the same moves."""
    for level in ("easy", "medium", "hard", "expert"):
        assert make_bot("kingdom", level, 12345).seed == 12345
    for level in ("random", "easy", "medium"):
        assert _moves(make_bot("kingdom", level, 99)) == _moves(make_bot("kingdom", level, 99)), level
    # another seed, other moves
    assert _moves(make_bot("kingdom", "random", 99)) != _moves(make_bot("kingdom", "random", 100))


@pytest.mark.parametrize(
    "cards",
    [
        ("fishermen", "miners", "workers"),
        ("knights", "lords", "farmers"),
        ("citizens", "discoverers", "hermits"),
        ("merchants", "farmers", "lords"),
    ],
)
def test_greedy_weighs_every_kingdom_card(cards):
    """The evaluation and the move ordering of each Kingdom Builder card are reached: a finite value for
    every legal action."""
    from builders.ai.evaluate import move_values
    from builders.ai.greedy import GreedyAgent
    from builders.kingdom.setup import random_setup

    game = get_game("kingdom")
    for players in (2, 4):
        setup = random_setup(players, 5)
        setup["cards"] = list(cards)
        state = game.new_state(setup)
        bot = GreedyAgent(1)
        for _ in range(24):
            scored = bot.scores(state)
            assert [a for a, _ in scored] == state.legal_actions()
            assert all(math.isfinite(value) for _, value in scored)
            # the search's move ordering weighs the same cards
            order = move_values(state, state.legal_actions())
            assert len(order) == len(scored) and all(math.isfinite(v) for v in order)
            action = bot.act(state)
            assert action in state.legal_actions()
            state.apply(action)
