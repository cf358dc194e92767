"""An agent's own settings of the evaluation (``KingdomSettings``, ``MiddleAgesSettings``): objects
given to the agent, never module globals patched; two agents with other settings in one process each
play by their own."""

from __future__ import annotations

import pickle

import pytest

from builders.ai import GreedyAgent, eval_kingdom, eval_middle_ages
from builders.ai.agents import parse_agent
from builders.ai.kit import kit
from builders.ai.planner import PlannerError
from builders.ai.planner_kingdom import TurnPlanner
from builders.core.games import on_python
from tests.ai.helpers import midgame

#: castles reached worth much more, locations reached nothing
CASTLES = eval_kingdom.KingdomSettings(KB_CASTLE_REACH=6.0, KB_LOCATION_REACH=0.0)


def test_two_greedy_agents_with_other_settings_choose_by_their_own():
    """Kingdom Builder, seed 3 after 12 actions: the defaults build at 1,7, the castle-minded settings
    at 7,13; asked in turn in one process, each keeps its choice (the evaluation's caches are apart)."""
    state = midgame("kingdom", 2, 3, 12)
    plain, castles = GreedyAgent(1), GreedyAgent(1, weights=CASTLES)
    chosen = [plain.act(state), castles.act(state), plain.act(state), castles.act(state)]
    assert [state.action_to_string(a) for a in chosen] == ["build 1,7", "build 7,13", "build 1,7", "build 7,13"]
    # the same settings given by name choose alike
    by_name = GreedyAgent(1, weights={"KB_CASTLE_REACH": 6.0, "KB_LOCATION_REACH": 0.0})
    assert by_name.act(state) == chosen[1]


def test_a_setting_changes_the_values_by_exactly_its_part():
    """A held tile is worth ``KB_TILE_BASE`` more than before per 1.0 more: seed 2 after 12 actions,
    seat 1 holds one tile, seat 0 none."""
    state = midgame("kingdom", 2, 2, 12)
    held = [h.bit_count() for h in on_python(state).held]
    assert held == [0, 1]
    before = eval_kingdom.values(state)
    after = eval_kingdom.values(state, None, eval_kingdom.weights({"KB_TILE_BASE": 5.0}))
    assert [a - b for a, b in zip(after, before)] == pytest.approx([0.0, 3.0])
    assert eval_kingdom.values(state) == before
    assert eval_kingdom.values(state, None, eval_kingdom.DEFAULT) == before


def test_two_planners_with_other_settings_plan_by_their_own_and_keep_them_pickled():
    """Kingdom Builder's turn planner: the castle-minded settings plan another turn than the defaults,
    in the same process, and a planner sent to a worker process (pickled) plans as before."""
    state = midgame("kingdom", 2, 3, 12)

    def planner(weights=None):
        return TurnPlanner(1, turn_time=None, beam=4, plans=0, reply=2, weights=weights)

    assert planner().plan(state) == [47, 66, 27, 524609, 2359296]
    tuned = planner(CASTLES)
    assert tuned.plan(state) == [153, 174, 194, 524609, 2359296]
    assert planner().plan(state) == [47, 66, 27, 524609, 2359296]
    sent = pickle.loads(pickle.dumps(planner({"KB_CASTLE_REACH": 6.0, "KB_LOCATION_REACH": 0.0})))
    assert sent.settings == CASTLES
    assert sent.plan(state) == [153, 174, 194, 524609, 2359296]
    assert planner({"TILE_ACTIONS": 40}).settings.TILE_ACTIONS == 40 and eval_kingdom.DEFAULT.TILE_ACTIONS == 16


def test_a_spec_s_agent_is_made_with_its_settings():
    """``AgentSpec.make(seed, game, settings)``: medium, the search and the planners get them; the
    expert of The Builders keeps its level's weights beside them; random play takes none."""
    medium = parse_agent("medium").make(1, "kingdom", {"KB_FRONTIER": 0.5})
    assert medium.weights == {"KB_FRONTIER": 0.5}
    hard = parse_agent("hard").make(1, "kingdom", CASTLES)
    assert hard.settings == CASTLES
    expert = parse_agent("expert").make(1, "middle-ages", {"MA_PACE": 3.0})
    assert expert.settings == eval_middle_ages.MiddleAgesSettings(MA_STAFFED=0.6, MA_HORIZON=4.5, MA_PACE=3.0)
    assert parse_agent("expert").make(1, "middle-ages").settings == eval_middle_ages.weights(
        {"MA_STAFFED": 0.6, "MA_HORIZON": 4.5}
    )
    search = parse_agent("mcts:iters=30").make(1, "kingdom", {"KB_MOVE_CASTLE": 9.0})
    state = midgame("kingdom", 2, 3, 12)
    assert state.is_legal(search.act(state))
    assert search._w == eval_kingdom.KingdomSettings(KB_MOVE_CASTLE=9.0)
    with pytest.raises(ValueError) as e:
        parse_agent("random").make(1, "kingdom", {"KB_FRONTIER": 0.5})
    assert str(e.value) == "agent random of kingdom takes no settings"


@pytest.mark.parametrize(
    "make, error, message",
    [
        (
            lambda: GreedyAgent(1, weights={"KB_FRONTIERS": 1.0}),
            ValueError,
            "unknown weight KB_FRONTIERS (choose from KB_TILE_BASE, KB_TILE_PER_TURN, ",
        ),
        (
            lambda: TurnPlanner(1, weights={"KB_FRONTIERS": 1.0}),
            PlannerError,
            "unknown weight KB_FRONTIERS (choose from KB_TILE_BASE, KB_TILE_PER_TURN, ",
        ),
        (
            lambda: TurnPlanner(1, weights={"TILE_ACTIONS": 0}),
            PlannerError,
            "weight TILE_ACTIONS must be a whole number of at least 1, not 0",
        ),
        (
            lambda: TurnPlanner(1, weights={"KB_FRONTIER": float("nan")}),
            PlannerError,
            "weight KB_FRONTIER must be a number, not nan",
        ),
        (
            lambda: parse_agent("medium").make(1, "kingdom", {"MA_PACE": 3.0}),
            ValueError,
            "unknown weight MA_PACE (choose from KB_TILE_BASE, ",
        ),
        (
            lambda: parse_agent("hard").make(1, "middle-ages", {"MA_PACES": 3.0}),
            ValueError,
            "unknown weight MA_PACES (choose from MA_COIN, MA_ACTION, ",
        ),
        (
            lambda: GreedyAgent(1, weights=CASTLES).act(midgame("middle-ages", 2, 1, 5)),
            ValueError,
            "settings of KingdomSettings are not The Builders' evaluation's",
        ),
    ],
)
def test_an_unknown_or_bad_setting_is_refused_in_one_line(make, error, message):
    with pytest.raises(error) as e:
        make()
    assert str(e.value).startswith(message) and "\n" not in str(e.value)


def test_the_kits_give_the_settings_of_their_game():
    """Each game's AI kit names its settings class through ``weights``: today's values the defaults."""
    assert kit("kingdom").weights() == eval_kingdom.KingdomSettings() == eval_kingdom.DEFAULT
    assert kit("middle-ages").weights() == eval_middle_ages.MiddleAgesSettings() == eval_middle_ages.DEFAULT
    assert kit("kingdom").weights({"TILE_ACTIONS": 40}) == eval_kingdom.KingdomSettings(TILE_ACTIONS=40)
    assert eval_middle_ages.DEFAULT.MA_COIN == 0.12 and eval_kingdom.DEFAULT.KB_MOVE_CASTLE == 3.0
    with pytest.raises(AttributeError):
        eval_kingdom.DEFAULT.KB_FRONTIER = 1.0  # frozen: nothing changes the defaults behind an agent's back
