"""The turn planner of The Builders (the hard and expert levels there): whole turns, exactly the best
one when the beam holds every position, the other seats' answers looked at, played action by action,
planned again when a drawn card is not the one the plan expected."""

from __future__ import annotations

import pytest

from builders.ai.evaluate import advantages, win_value
from builders.ai.planner import PlannerError
from builders.ai.planner_middle_ages import MiddleAgesPlanner
from builders.core.games import get_game
from builders.middle_ages.codes import END
from tests.ai.helpers import midgame, play_out


def value(state, seat):
    return state.returns()[seat] if state.is_over() else win_value(state, advantages(state)[seat])


def all_turns(state, seat):
    """Every way ``seat`` can play out its turn from ``state``: (its win value after it, actions)."""
    out = []
    for a in state.legal_actions():
        child = state.copy()
        child.apply(a)
        if child.is_over() or child.current_player != seat:
            out.append((value(child, seat), [a]))
        else:
            out.extend((v, [a] + rest) for v, rest in all_turns(child, seat))
    return out


def turn_start(seed: int, actions: int):
    """A 2-player position at the start of a turn, after about ``actions`` random actions."""
    state = midgame("middle-ages", 2, seed, actions)
    while state.actions != 3 or state.touched:  # play on to the next turn's start
        legal = state.legal_actions()
        state.apply(END if END in legal else legal[0])
    return state


def first_determinization(state, seed):
    """The position a planner of ``seed`` plans its first turn on."""
    return state.resample_hidden(state.current_player, MiddleAgesPlanner(seed).rng)


def played(state, seed, actions):
    """The determinization a planner of ``seed`` planned ``actions`` on, with them played."""
    det = first_determinization(state, seed)
    for a in actions:
        det.apply(a)
    return det


def test_a_wide_beam_finds_the_best_whole_turn():
    """rules.md "Your turn": actions (three, more bought with coins) until the turn ends. With a beam
    wider than the ways of a turn and no look-ahead, the plan is the best turn of all there are
    (counted here by brute force on the same determinization); a narrow beam never finds better."""
    state = turn_start(6, 30)
    seat = state.current_player
    turns = all_turns(first_determinization(state, 1), seat)
    assert len(turns) > 100
    best = max(v for v, _ in turns)
    planner = MiddleAgesPlanner(1, turn_time=None, beam=100_000, plans=0)
    plan = planner.plan(state)
    assert plan[-1] == END
    assert planner.last_stats["value"] == pytest.approx(best)
    assert plan in [t for v, t in turns if v == pytest.approx(best)]
    narrow = MiddleAgesPlanner(1, turn_time=None, beam=1, plans=0)
    assert narrow.plan(state)[-1] == END and narrow.last_stats["value"] <= best + 1e-12


def test_the_look_ahead_values_a_plan_after_the_answer_and_the_next_turn():
    """Depth 1: a plan is worth the seat's win value after the next seat's best turn; depth 2: after
    the seat's own best next turn as well. Both differ from the plan's value alone and change the
    turn chosen somewhere in a game's positions."""
    state = turn_start(3, 40)
    seat = state.current_player
    plain = MiddleAgesPlanner(2, turn_time=None, beam=12, plans=0)
    plain_plan = plain.plan(state)
    one = MiddleAgesPlanner(2, turn_time=None, beam=12, plans=6, reply=4, depth=1)
    one_plan = one.plan(state)
    assert one.last_stats["looked"] == 6
    # the value of the plan chosen, recomputed: the next seat's best turn (a beam of 4) from its end
    det = played(state, 2, one_plan)
    assert det.current_player != seat
    answer = MiddleAgesPlanner(0, turn_time=None, beam=4, plans=0)._turn(det, det.current_player, 4)
    assert one.last_stats["value"] == pytest.approx(value(answer[0][2], seat))
    two = MiddleAgesPlanner(2, turn_time=None, beam=12, plans=6, reply=4, depth=2)
    two.plan(state)
    assert two.last_stats["evaluations"] > one.last_stats["evaluations"] > plain.last_stats["evaluations"]
    assert 0.0 <= two.last_stats["win"] <= 1.0
    changed = 0
    for seed in range(4):
        position = turn_start(seed, 30)
        flat = MiddleAgesPlanner(seed, turn_time=None, beam=12, plans=0).plan(position)
        deep = MiddleAgesPlanner(seed, turn_time=None, beam=12, plans=6, reply=4).plan(position)
        changed += flat != deep
    assert changed and plain_plan[-1] == END


def test_depth_three_values_a_plan_after_the_answers_to_the_next_turn():
    """The expert's depth 3: after the next seat's best turn and the seat's own best next turn, the
    next seat answers again; the plan is worth the seat's win value after that answer."""
    state = turn_start(3, 40)
    seat = state.current_player
    three = MiddleAgesPlanner(2, turn_time=None, beam=12, plans=6, reply=4, depth=3)
    plan = three.plan(state)
    assert three.last_stats["looked"] == 6
    det = played(state, 2, plan)
    search = MiddleAgesPlanner(0, turn_time=None, beam=4, plans=0)
    answer = search._turn(det, det.current_player, 4)[0][2]
    assert answer.current_player == seat
    mine = search._turn(answer, seat, 4)[0][2]
    assert mine.current_player != seat and not mine.is_over()
    again = search._turn(mine, mine.current_player, 4)[0][2]
    assert three.last_stats["value"] == pytest.approx(value(again, seat))
    two = MiddleAgesPlanner(2, turn_time=None, beam=12, plans=6, reply=4, depth=2)
    two.plan(state)
    assert three.last_stats["evaluations"] > two.last_stats["evaluations"]


def test_the_time_limit_stops_the_look_ahead():
    state = turn_start(3, 40)
    hurried = MiddleAgesPlanner(2, turn_time=1e-9, beam=12, plans=6, reply=4)
    plan = hurried.plan(state)
    assert hurried.last_stats["looked"] == 0 and plan[-1] == END
    full = MiddleAgesPlanner(2, turn_time=None, beam=12, plans=6, reply=4)
    full.plan(state)
    assert hurried.last_stats["plans"] < full.last_stats["plans"]


def test_the_plan_is_played_action_by_action_until_a_card_is_drawn():
    """The first decision of a turn plans it; the next ones play the plan until a card is drawn into
    a row (opening a site or recruiting: the card is hidden until then), and the turn is planned
    again from what the seat now sees."""
    replanned = followed = 0
    for seed in range(4):
        state = turn_start(seed, 30)
        seat = state.current_player
        plan = MiddleAgesPlanner(seed, turn_time=None, beam=10, plans=3, reply=3).plan(state)
        planner = MiddleAgesPlanner(seed, turn_time=None, beam=10, plans=3, reply=3)  # plans the same
        drawn = False
        i = 0
        while state.current_player == seat and not state.is_over():
            before = planner.last_stats
            action = planner.act(state)
            if i == 0:
                assert action == plan[0]
            elif not drawn:
                assert planner.last_stats is before and action == plan[i]
                followed += 1
            else:
                assert planner.last_stats is not before
                replanned += 1
                break
            rows = (tuple(state.brow), tuple(state.wrow))
            state.apply(action)
            drawn = rows != (tuple(state.brow), tuple(state.wrow))
            i += 1
    assert followed and replanned


def test_planned_gives_the_rest_of_the_turn_up_to_a_draw():
    """For the server, which asks a new planner at each decision: the plan's actions after the one
    played, up to the end of the turn or the first action after a card was drawn into a row."""
    for seed in range(6):
        state = turn_start(seed, 30)
        seat = state.current_player
        planner = MiddleAgesPlanner(seed, turn_time=None, beam=10, plans=3, reply=3)
        action = planner.act(state)
        rest = planner.planned(state, action)
        sim = state.copy()
        rows = (tuple(sim.brow), tuple(sim.wrow))
        sim.apply(action)
        for a in rest:
            assert (tuple(sim.brow), tuple(sim.wrow)) == rows and sim.current_player == seat
            sim.apply(a)
        if rest and rest[-1] != END:
            assert (tuple(sim.brow), tuple(sim.wrow)) != rows  # stopped at a draw
    assert MiddleAgesPlanner(1).planned(state, state.legal_actions()[0]) == []


def test_the_planner_refuses_what_it_cannot_do():
    """The settings are checked as Kingdom Builder's planner checks them (the same base class)."""
    state = get_game("kingdom").new_state(get_game("kingdom").random_setup(2, 1))
    with pytest.raises(PlannerError) as e:
        MiddleAgesPlanner(1).act(state)
    assert str(e.value) == "this turn planner plays The Builders, not kingdom"
    with pytest.raises(PlannerError) as e:
        MiddleAgesPlanner(1, depth=4)
    assert str(e.value) == "depth must be 1, 2 or 3, not 4"
    with pytest.raises(PlannerError) as e:
        MiddleAgesPlanner(1, beam=0)
    assert str(e.value) == "beam must be a whole number of at least 1, not 0"


def test_a_whole_game_with_the_planner_is_legal_and_deterministic():
    """Seeded and without a time limit, the planner plays the same game twice, and ends it."""
    first, again = (
        play_out(
            "middle-ages",
            11,
            lambda: [
                MiddleAgesPlanner(5, turn_time=None, beam=6, plans=3, reply=2),
                MiddleAgesPlanner(6, turn_time=None, beam=4, plans=0),
            ],
        )
        for _ in range(2)
    )
    assert first == again


def test_the_turn_time_covers_the_plans_made_again_in_the_turn():
    """A turn's time covers the whole turn: the first plan may take 60% of it, a plan made again
    after a draw what is left of the turn (at least 5%), and a planner that did not see the turn
    start (the server makes one per decision) 20% (times the 0.9 margin in each case)."""
    state = turn_start(2, 30)
    clock = [100.0]
    planner = MiddleAgesPlanner(1, turn_time=2.0)
    planner._now = lambda: clock[0]
    assert planner._budget(state, clock[0]) == pytest.approx(1.2)
    later = state.copy()
    later.apply(later.parse_action("coins 1"))
    assert planner._budget(later, 100.5) == pytest.approx(1.5)
    assert planner._budget(later, 101.99) == pytest.approx(0.1)
    assert MiddleAgesPlanner(1, turn_time=2.0)._budget(later, 0.0) == pytest.approx(0.4)
    assert MiddleAgesPlanner(1, turn_time=None)._budget(later, 0.0) is None
    # the next turn of the seat starts a new count
    while later.current_player == state.current_player:
        later.apply(later.legal_actions()[0] if later.actions else later.parse_action("end"))
    while later.current_player != state.current_player:
        later.apply(later.parse_action("end") if not later.actions else later.parse_action("coins 1"))
    assert planner._budget(later, 300.0) == pytest.approx(1.2)


def test_with_samples_the_start_with_the_best_mean_over_determinizations_is_played():
    """``samples`` plans the turn on that many determinizations (the hidden deck orders drawn anew)
    and compares plans by their start up to the first card drawn, which no hidden card changes: the
    start with the best mean value wins (a start one determinization did not look at counts as its
    worst plan there). Recomputed here from the same determinizations, in the same order."""
    from builders.ai.planner_middle_ages import _drawn_start

    state = turn_start(4, 30)
    seat = state.current_player
    settings = dict(turn_time=None, beam=10, plans=4, reply=3, samples=3)
    planner = MiddleAgesPlanner(9, **settings)
    plan = planner.plan(state)
    assert planner.last_stats["samples"] == 3 and plan[-1] == END
    again = MiddleAgesPlanner(9, **settings)
    dets = [again._begin(state)[3]] + [state.resample_hidden(seat, again.rng) for _ in range(2)]
    tables = []
    for det in dets:
        scored, _, _ = again._scored_plans(det, seat, None, None)
        starts: dict = {}
        for score, actions in scored:
            key = _drawn_start(det, actions)
            starts[key] = max(starts.get(key, score), score)
        tables.append(starts)
    floors = [min(t.values()) for t in tables]
    means = {key: sum(t.get(key, f) for t, f in zip(tables, floors)) / 3 for key in tables[0]}
    best = max(means.values())
    assert _drawn_start(dets[0], plan) in [key for key, m in means.items() if m == pytest.approx(best)]
    assert planner.last_stats["value"] == pytest.approx(best)
    # the start does not depend on what the seat cannot see (the seed fixes the determinizations)
    assert len({_drawn_start(d, plan) for d in dets}) == 1


def test_a_plan_that_starts_the_final_round_is_looked_at_though_the_evaluation_ranks_it_low(monkeypatch):
    """rules.md "End of the game": a turn that ends with 17 VP finishes the round and the game. Here
    (a game of hard against medium on setup 4 of the strength match, round 14) the seat to move can
    open B08, recruit, send, buy two actions and send again: it completes B08, reaches 17 VP and,
    the look-ahead finds, wins whatever the other seat answers in its last turn (win value 1). The
    win value before the answers ranks that plan below the best 20, which are all the planner looked
    ahead before; it now looks at the best plans that end the game or start its final round too."""
    import json
    from pathlib import Path

    import builders.ai.planner as planner_module
    from builders.core.record import replay

    record = json.loads((Path(__file__).parent / "positions" / "middle_ages_ending.json").read_text())
    state = replay(record)
    assert not state.final_round

    def first_plan(seed: int):
        planner = MiddleAgesPlanner(seed, turn_time=None)
        actions = planner.plan(state)
        sim = first_determinization(state, seed)
        for action in actions:
            sim.apply(action)
        return [sim.action_to_string(a) for a in actions], sim, planner.last_stats

    for seed in (1, 2):
        texts, after, stats = first_plan(seed)
        assert texts == ["open B08", "recruit W26", "send W26 B08", "buy", "buy", "send W13 B08", "end"]
        assert after.final_round and stats["value"] == 1.0
    monkeypatch.setattr(planner_module, "ENDING_PLANS", 0)
    for seed in (1, 2):
        texts, after, stats = first_plan(seed)
        assert not after.final_round and stats["value"] < 0.9, texts


def test_the_planner_s_own_weights_are_a_settings_object_for_its_valuations():
    """Expert's weights (``LEVEL_WEIGHTS``) value positions as the evaluation does with a settings
    object holding them, for the planner's valuations only: the same values, the same plans; the
    evaluation's own values (``DEFAULT``) stay as they were."""
    import builders.ai.eval_middle_ages as ev

    positions = [turn_start(seed, actions) for seed, actions in ((3, 20), (8, 40), (12, 60))]
    own = [ev.values(st) for st in positions]
    tuned_settings = ev.MiddleAgesSettings(MA_HORIZON=4.5, MA_STAFFED=0.6)
    weighted = [ev.values(st, ev.weights({"MA_HORIZON": 4.5, "MA_STAFFED": 0.6})) for st in positions]
    assert weighted != own
    assert [ev.values(st, tuned_settings) for st in positions] == weighted
    assert [ev.values(st, ev.weights({"MA_HORIZON": ev.DEFAULT.MA_HORIZON})) for st in positions] == own
    assert [ev.values(st, ev.weights()) for st in positions] == own

    def plans(**weights):
        return [MiddleAgesPlanner(4, turn_time=None, beam=8, plans=4, reply=3, **weights).plan(st) for st in positions]

    as_own = plans()
    assert plans(staffed=ev.DEFAULT.MA_STAFFED, horizon=ev.DEFAULT.MA_HORIZON) == as_own
    tuned = plans(staffed=0.6, horizon=4.5)
    assert tuned != as_own  # the second position is planned otherwise
    assert plans(weights=tuned_settings) == tuned
    assert [ev.values(st) for st in positions] == own


def test_the_planner_values_by_any_of_its_own_weights():
    """``weights``: any of ``WEIGHT_NAMES`` for the planner's valuations, as the evaluation with that
    setting; ``staffed`` and ``horizon`` set two of them; the others are the defaults, whatever
    another planner in the same process uses."""
    import pickle

    import builders.ai.eval_middle_ages as ev

    positions = [turn_start(seed, actions) for seed, actions in ((3, 20), (8, 40), (12, 60))]

    def plans(**options):
        return [MiddleAgesPlanner(4, turn_time=None, beam=8, plans=4, reply=3, **options).plan(st) for st in positions]

    own = {"MA_SPARE_UNIT": 0.3, "MA_SHORT": 0.5, "MA_ACTION": 0.6}
    tuned = plans(weights=own)
    assert tuned != plans()  # the second position is planned otherwise
    assert plans(weights={**own, "MA_STAFFED": 0.6}) == plans(weights=own, staffed=0.6)
    assert plans(weights=ev.MiddleAgesSettings(**own)) == tuned

    def best_values(**options):
        out = []
        for st in positions:
            planner = MiddleAgesPlanner(4, turn_time=None, beam=8, plans=4, reply=3, **options)
            planner.plan(st)
            out.append(planner.last_stats["value"])
        return out

    tuned_values = best_values(weights=own)
    both = best_values(weights={**own, "MA_OPEN": 0.3})
    assert both != tuned_values
    assert best_values(weights=own) == tuned_values
    # a planner pickled (to a worker process) keeps its settings
    planner = pickle.loads(
        pickle.dumps(MiddleAgesPlanner(4, turn_time=None, beam=8, plans=4, reply=3, weights={**own, "MA_OPEN": 0.3}))
    )
    assert planner.settings == ev.MiddleAgesSettings(**own, MA_OPEN=0.3)
    planner.plan(positions[0])
    assert planner.last_stats["value"] == both[0]
    planner = MiddleAgesPlanner(1, weights={"MA_HORIZON": 4.5}, staffed=0.5)
    assert (planner.weights, planner.staffed, planner.horizon) == ({"MA_HORIZON": 4.5, "MA_STAFFED": 0.5}, 0.5, 4.5)
    assert planner.settings == ev.MiddleAgesSettings(MA_HORIZON=4.5, MA_STAFFED=0.5)
    for weights, message in (
        ({"MA_COINS": 0.2}, "unknown weight MA_COINS (choose from MA_COIN, MA_ACTION, "),
        ({"MA_PACE": -1}, "weight MA_PACE must be a number of at least 0, not -1"),
        ({"MA_PACE": 0}, "weight MA_PACE must be a number above 0, not 0"),
        ({"MA_PACE": "fast"}, "weight MA_PACE must be a number of at least 0, not 'fast'"),
        ({"MA_LAST_TURN": 1}, "weight MA_LAST_TURN must be true or false, not 1"),
    ):
        with pytest.raises(PlannerError) as e:
            MiddleAgesPlanner(1, weights=weights)
        assert str(e.value).startswith(message) and "\n" not in str(e.value)
    with pytest.raises(ValueError, match="^unknown weight MA_LATE_ROUNDS "):
        ev.weights({"MA_LATE_ROUNDS": 3})


def test_the_planner_refuses_weights_out_of_range():
    for key, value, message in (
        ("staffed", 1.5, "staffed must be a number from 0 to 1, not 1.5"),
        ("horizon", -1, "horizon must be a number from 0 to 50, not -1"),
        ("staffed", True, "staffed must be a number from 0 to 1, not True"),
    ):
        with pytest.raises(PlannerError) as e:
            MiddleAgesPlanner(1, **{key: value})
        assert str(e.value) == message
