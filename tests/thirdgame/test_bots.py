"""The bots (random, greedy, the search and every level) and a tournament play Pig, which the agents
know only through its plugin's AI kit."""

from __future__ import annotations

import pytest

from builders.ai import make_bot, parse_agent
from builders.ai.evaluate import decision_key, move_values, values, win_values
from builders.ai.mcts import MCTSAgent
from builders.ai.tournament import run_tournament
from builders.core.agents import play
from builders.core.games import get_game


@pytest.mark.parametrize("level", ["random", "easy", "medium", "hard", "expert"])
def test_every_bot_level_plays_pig_to_the_end(level):
    state = get_game("pig").new_state({"players": 2, "target": 12, "seed": 3})
    bots = [make_bot("pig", level, seed, turn_time=0.05) for seed in (1, 2)]
    play(state, bots)
    assert state.is_over() and max(state.banked) >= 12
    assert all(b.name == level for b in bots)


def test_the_hard_level_of_a_game_without_a_planner_is_the_search():
    bot = make_bot("pig", "hard", 1, turn_time=0.1)
    assert isinstance(bot, MCTSAgent) and bot.turn_time == 0.1


def test_the_evaluation_and_move_order_are_the_kit_s():
    state = get_game("pig").new_state({"players": 2, "seed": 2})
    state.forced = ["6", "6"]
    state.apply_string("roll")
    state.apply_string("roll")
    assert values(state) == [6.0, 0.0] and decision_key(state) is None
    assert move_values(state, state.legal_actions()) == [1.0, 0.0]  # hold first with 12 in the pot
    lead = win_values(state)
    assert lead[0] > 0.5 > lead[1]


def test_greedy_and_mcts_agents_by_spec_and_a_planner_option_refused():
    state = get_game("pig").new_state({"players": 3, "seed": 9})
    play(
        state,
        [
            parse_agent("greedy").make(1, "pig"),
            parse_agent("mcts:iters=30").make(2, "pig"),
            parse_agent("plan:turn=0.05").make(3, "pig"),
        ],
    )
    assert state.is_over()
    with pytest.raises(ValueError) as e:
        parse_agent("plan:beam=3").make(1, "pig")
    assert str(e.value) == "option beam of plan is not one of pig's (options there: turn)"


@pytest.mark.parametrize("workers", [1, 2])
def test_a_tournament_of_pig(workers):
    out = run_tournament("pig", "greedy,random", players=2, games=6, seed=5, workers=workers)
    assert (out.game, out.agents, out.games, len(out.records)) == ("pig", ["greedy", "random"], 6, 6)
    assert [s.games for s in out.stats] == [6, 6] and sum(s.wins for s in out.stats) == pytest.approx(6)
    assert {part for s in out.stats for part in s.mean_breakdown} == {"banked"}
    assert all(max(r["scores"]) >= 20 for r in out.records), out.records[0]
