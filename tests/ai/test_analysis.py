"""Hints and post-game analysis (builders.ai.analysis, ``builders analyse``): deterministic with an
iteration budget, labels by the drop in win chance, refusals in one line, and nothing a seat could
not see used for its hint or its analysis."""

from __future__ import annotations

import json

import pytest
import typer
from typer.testing import CliRunner

from builders.ai import make_bot
from builders.ai.analysis import (
    DEFAULT_ITERATIONS,
    THRESHOLDS,
    AnalysisError,
    analyse,
    hint,
    label_of,
    plan_notations,
    raw_win_chance,
    turn_positions,
)
from builders.ai.calibration import honest
from builders.commands.analyse import analyse as analyse_command
from builders.commands.hint import hint as hint_command
from builders.core.agents import RandomAgent
from builders.core.errors import BuildersError
from builders.core.games import get_game
from tests.ai.helpers import kingdom_twin, middle_ages_twin, midgame


def finished(game: str, seed: int, agents=None):
    g = get_game(game)
    state = g.new_state(g.random_setup(2, seed))
    agents = agents or [make_bot(game, "medium", 1), RandomAgent(2)]
    while not state.is_over():
        state.apply(agents[state.current_player].act(state))
    return state


@pytest.fixture(scope="module")
def ma_game():
    return finished("middle-ages", 4)


@pytest.fixture(scope="module")
def ma_analysis(ma_game):
    return analyse(ma_game.to_record(), iterations=40, seed=3)


def test_labels_by_the_drop_in_win_chance():
    assert dict(THRESHOLDS) == {"blunder": 0.15, "mistake": 0.10, "inaccuracy": 0.05}
    assert [label_of(x) for x in (0.0, 0.049, 0.05, 0.0999, 0.10, 0.149, 0.15, 0.9)] == [
        None,
        None,
        "inaccuracy",
        "inaccuracy",
        "mistake",
        "mistake",
        "blunder",
        "blunder",
    ]


def test_every_decision_is_judged(ma_game, ma_analysis):
    a = ma_analysis
    actions = ma_game.player_actions()
    assert len(a.decisions) == len(actions)
    assert [d.played for d in a.decisions] == [ma_game.action_to_string(x) for x in actions]
    replayed = get_game("middle-ages").new_state(ma_game.setup)
    record = ma_game.to_record()
    from builders.core.record import steps

    for d, (text, outcomes) in zip(a.decisions, steps(record["history"])):
        assert d.seat == replayed.current_player
        assert d.forced == (len(replayed.legal_actions()) == 1)
        if d.forced:
            assert (d.best, d.before, d.after, d.loss, d.label) == (None, None, None, None, None)
        else:
            assert 0.0 <= d.after <= 1.0 and 0.0 <= d.before <= 1.0
            assert d.loss == pytest.approx(max(0.0, d.before - d.after), abs=2e-4)
            assert d.label == label_of(d.loss)
            if d.best == d.played:
                assert d.loss == 0.0
        replayed.forced = list(outcomes)
        replayed.apply(replayed.parse_action(text))
    assert a.scores == list(ma_game.result().scores)
    for p in a.players:
        mine = [d for d in a.decisions if d.seat == p.seat and not d.forced]
        assert p.decisions == len(mine)
        assert sum(p.counts.values()) == sum(1 for d in mine if d.label)
        assert p.mean_loss == pytest.approx(sum(d.loss for d in mine) / len(mine), abs=1e-3)


def test_the_raw_win_chance_is_the_analysis_value_before_a_decision(ma_game, ma_analysis):
    """``raw_win_chance`` of the search (what the calibration benchmark measures), mapped by
    ``calibration.honest``, is the analysis's ``before`` of a decision whose played action is not the
    best one: the value of the hard level's move, measured first (the played action's extra iterations
    then leave it alone)."""
    from builders.ai.tournament import derive_seed
    from builders.core.record import steps

    state = get_game("middle-ages").new_state(ma_game.setup)
    checked = 0
    for d, (text, outcomes) in zip(ma_analysis.decisions, steps(ma_game.to_record()["history"])):
        if not d.forced and d.best != d.played and checked < 5:
            raw = raw_win_chance(
                state, "analysis", 40, seed=derive_seed("analysis", 3, d.index), action=state.parse_action(d.best)
            )
            assert round(honest("middle-ages", "analysis", raw), 4) == d.before
            checked += 1
        state.forced = list(outcomes)
        state.apply(state.parse_action(text))
        state.forced = []
    assert checked == 5
    with pytest.raises(AnalysisError, match="^the game is over: there is no decision to judge$"):
        raw_win_chance(state)
    # the planner's value of its plan, the other estimator the calibration benchmark measures
    from builders.ai.planner_middle_ages import MiddleAgesPlanner

    mid = midgame("middle-ages", 2, 6, 45)
    planner = MiddleAgesPlanner(4, turn_time=None)
    planner.plan(mid)
    assert raw_win_chance(mid, "plan", seed=4) == planner.last_stats["win"]
    with pytest.raises(AnalysisError, match="^the estimator is analysis or plan, not 'hint'$"):
        raw_win_chance(mid, "hint")
    with pytest.raises(
        AnalysisError, match="^the iterations per decision must be a whole number from 1 to 1000000, not 0$"
    ):
        raw_win_chance(mid, "analysis", 0)


def test_the_random_player_loses_more_win_chance_than_greedy(ma_analysis):
    """Seat 0 is the medium bot, seat 1 plays at random: the analysis sees who played worse."""
    medium, rand = ma_analysis.players
    assert rand.mean_loss > medium.mean_loss
    assert sum(rand.counts.values()) > sum(medium.counts.values())


class Hinted:
    """A seat that plays the hint at every decision (the analysis's hard bot, ``HardBots``)."""

    def __init__(self, bots):
        self.bots = bots

    def act(self, state):
        move = self.bots.act(state)
        self.bots.played(state, move)
        return move


def test_the_hard_levels_moves_are_never_labelled():
    """The better move the analysis shows is the hard level's (its hard bot in the seat, playing its
    plans through: the hint's move): a seat that played exactly those moves is never told of a
    better one, while the random seat is shown the hard level's moves where the search values them
    higher."""
    from builders.ai.analysis import HardBots

    seed = 5
    state = finished("kingdom", 11, [Hinted(HardBots(seed, "kingdom", 100)), RandomAgent(4)])
    a = analyse(state.to_record(), iterations=100, seed=seed)
    mine = [d for d in a.decisions if d.seat == 0 and not d.forced]
    assert len(mine) > 20
    assert all(d.best == d.played and d.loss == 0 and d.label is None and d.before == d.after for d in mine)
    assert a.players[0].mean_loss == 0 and sum(a.players[0].counts.values()) == 0
    other = [d for d in a.decisions if d.seat == 1 and not d.forced]
    shown = [d for d in other if d.best != d.played]
    assert shown and all(
        d.best_value > d.after and d.loss == pytest.approx(d.before - d.after, abs=2e-4) for d in shown
    )
    assert sum(a.players[1].counts.values()) > 0


def test_the_analysis_is_the_same_on_every_run(ma_game, ma_analysis):
    again = analyse(ma_game.to_record(), iterations=40, seed=3)
    assert again.to_json() == ma_analysis.to_json()


def test_unfinished_corrupt_and_bad_budgets_are_refused(ma_game):
    record = ma_game.to_record()
    unfinished = dict(record, history=record["history"][:10])
    unfinished.pop("result")
    with pytest.raises(AnalysisError, match=r"^the game is not finished: only finished games can be analysed$"):
        analyse(unfinished, iterations=5)
    corrupt = dict(record, history=["open B99", *record["history"][1:]])
    with pytest.raises(AnalysisError) as e:
        analyse(corrupt, iterations=5)
    assert str(e.value).startswith("the record cannot be analysed: action 0 ('open B99') is illegal")
    with pytest.raises(AnalysisError, match="^the record cannot be analysed: the record has no 'history' key$"):
        analyse({"game": "kingdom", "setup": {}}, iterations=5)
    for kwargs, message in [
        ({"iterations": 0}, "the iterations per decision must be a whole number from 1 to 1000000, not 0"),
        (
            {"iterations": None, "seconds": -1.0},
            "the time per decision must be more than 0 and at most 600 seconds, not -1.0",
        ),
        ({"iterations": None}, "an analysis needs iterations or seconds per decision"),
    ]:
        with pytest.raises(AnalysisError) as e:
            analyse(record, **kwargs)
        assert str(e.value) == message
        assert isinstance(e.value, BuildersError)


# -- hints ----------------------------------------------------------------------------------------


def searched_value(state, action, seed, iterations=DEFAULT_ITERATIONS):
    """The value of ``action`` by the analysis's search of this decision (seeded by its index)."""
    from builders.ai.analysis import _searcher, decisions_before
    from builders.ai.tournament import derive_seed

    search = _searcher(derive_seed("analysis", seed, decisions_before(state)), iterations, None)
    _, best, node = search.evaluate_actions(state, iterations, played=action)
    return (best if node is None else node).mean()


def test_hint_is_the_hard_levels_move_and_is_legal():
    """The first action of the hard level's plan (the game's turn planner, with the analysis's budget
    counted in positions: the same hint on every run), with the analysis's win chance of that action."""
    from builders.ai.analysis import PLAN_SHARE_OF_ITERATIONS, decisions_before
    from builders.ai.planner import COUNT_RATE
    from builders.ai.planner_kingdom import LEVEL_SETTINGS, ROLLOUT_SETTINGS, TurnPlanner
    from builders.ai.planner_middle_ages import MiddleAgesPlanner
    from builders.ai.tournament import derive_seed

    state = midgame("kingdom", 2, 8, 40)
    h = hint(state, state.current_player, seed=5)
    assert state.is_legal(h.action)
    assert h.notation == state.action_to_string(h.action)
    assert 0.0 <= h.win_chance <= 1.0 and h.seat == state.current_player
    assert hint(state, state.current_player, seed=5) == h
    beam, plans, reply = LEVEL_SETTINGS["hard"]
    rollouts, finalists = ROLLOUT_SETTINGS["hard"]
    turn_time = DEFAULT_ITERATIONS * PLAN_SHARE_OF_ITERATIONS
    planner = TurnPlanner(
        derive_seed("analysis-hard", 5, decisions_before(state)),
        turn_time=turn_time,
        beam=beam,
        plans=plans,
        reply=reply,
        rollouts=rollouts,
        finalists=finalists,
        clock="count",
    )
    planner.replan_share = planner.FIRST_SHARE
    assert planner.plan(state)[0] == h.action
    assert h.iterations == planner.last_stats["evaluations"] > 100
    assert h.iterations <= turn_time * COUNT_RATE
    # the win chance is the analysis's value of that action, mapped (builders.ai.calibration)
    assert h.win_chance == honest("kingdom", "analysis", searched_value(state, h.action, 5))
    ma = midgame("middle-ages", 2, 6, 45)
    found = hint(ma, ma.current_player, seed=5)
    assert ma.is_legal(found.action)
    planner = MiddleAgesPlanner(
        derive_seed("analysis-hard", 5, decisions_before(ma)), turn_time=turn_time, clock="count"
    )
    planner.replan_share = planner.FIRST_SHARE
    assert planner.plan(ma)[0] == found.action
    assert found.iterations == planner.last_stats["evaluations"]
    assert found.win_chance == honest("middle-ages", "analysis", searched_value(ma, found.action, 5))


@pytest.mark.parametrize("game, agents", [("kingdom", "medium,random"), ("middle-ages", "hinted,easy")])
def test_a_hint_is_the_move_and_the_chance_the_analysis_shows(game, agents):
    """At every decision of a finished game, the hint asked there (with the seat's earlier decisions of
    the turn, as the server and ``builders hint`` give them) is the analysis's hard-bot move, and its
    win chance the analysis's value of that move: where the analysis shows a better move, it is the
    hint with the hint's chance; where the hint was played, no label and the hint's chance before and
    after. A bot kept from hint to hint (the server's worker keeps one) gives the same hints, and so
    do positions drawn from the seat's observation, as the server gives them (their history keeps no
    drawn card: The Builders' seat that follows the hints opens sites, whose next card, the top of
    the building deck, the plan knew)."""
    from builders.ai.analysis import HardBots, decisions_before, turn_positions
    from builders.core.rng import Rng

    bots = [
        Hinted(HardBots(3, game, 40)) if a == "hinted" else make_bot(game, a, 1) if a != "random" else RandomAgent(2)
        for a in agents.split(",")
    ]
    record = finished(game, 11, bots).to_record()
    a = analyse(record, iterations=40, seed=3)
    kept = HardBots(3, game, 40)

    def seen(position):
        return position.resample_hidden(position.current_player, Rng(decisions_before(position)))

    checked = {"better": 0, "hinted": 0, "other": 0}
    for d in a.decisions:
        if d.forced:
            continue
        turn, state = turn_positions(record, d.index)
        h = hint(state, d.seat, seed=3, iterations=40, turn=turn)
        again = hint(state, d.seat, seed=3, iterations=40, turn=turn, bots=kept)
        assert (again.action, again.win_chance, again.plan) == (h.action, h.win_chance, h.plan)
        drawn = hint(seen(state), d.seat, seed=3, iterations=40, turn=[(seen(p), x) for p, x in turn])
        assert (drawn.action, drawn.win_chance, drawn.plan, drawn.iterations) == (
            h.action,
            h.win_chance,
            h.plan,
            h.iterations,
        )
        chance = round(h.win_chance, 4)
        if d.best != d.played:
            assert (d.best, d.before) == (h.notation, chance)
            checked["better"] += 1
        elif d.played == h.notation:
            assert d.before == d.after == chance and d.label is None
            checked["hinted"] += 1
        else:  # another move, valued at least as high as the hint's
            assert d.before == d.after >= chance
            checked["other"] += 1
    assert all(n > 3 for n in checked.values()), checked


@pytest.mark.parametrize("game, pos", [("kingdom", (2, 3, 9)), ("middle-ages", (2, 6, 45))])
def test_the_hints_of_a_turn_are_one_plan(game, pos):
    """The hints of one turn are one plan, as the hard bot plays its plan through: a hint gives the
    plan's actions after its own (to the end of the turn or a card drawn); after the hinted move the
    next hint is the plan's next action, without planning with a bot kept from the first hint, and
    the same from a new one given the turn so far; a seat that leaves the plan gets a new plan."""
    from builders.ai.analysis import HardBots

    state = midgame(game, *pos)
    seat = state.current_player
    bots = HardBots(7, game, 200)
    h = hint(state, seat, seed=7, iterations=200, bots=bots)
    assert h.plan and h.iterations > 100
    after = state.copy()
    after.apply(h.action)
    nxt = after.copy()
    for action in h.plan:  # the whole plan is this seat's legal actions, in this turn
        assert after.current_player == seat and after.is_legal(action)
        after.apply(action)
    turn = [(state, h.action)]
    followed = hint(nxt, seat, seed=7, iterations=200, turn=turn, bots=bots)
    assert (followed.action, followed.plan, followed.iterations) == (h.plan[0], h.plan[1:], 0)
    assert followed.notation == nxt.action_to_string(h.plan[0])
    assert followed.win_chance == honest(game, "analysis", searched_value(nxt, h.plan[0], 7, 200))
    fresh = hint(nxt, seat, seed=7, iterations=200, turn=turn)
    assert (fresh.action, fresh.plan, fresh.win_chance) == (followed.action, followed.plan, followed.win_chance)
    assert fresh.iterations == h.iterations
    # another move than the hint's: a new plan from there, with the whole budget of a turn
    other = next(a for a in state.legal_actions() if a != h.action and state.action_to_string(a) != "end")
    off = state.copy()
    off.apply(other)
    assert off.current_player == seat and not off.is_over()  # these positions' turns go on
    new = hint(off, seat, seed=7, iterations=200, turn=[(state, other)], bots=bots)
    assert new.iterations > 100 and off.is_legal(new.action)


def test_hint_refusals():
    state = midgame("kingdom", 2, 8, 40)
    other = 1 - state.current_player
    with pytest.raises(
        AnalysisError,
        match=rf"^it is not seat {other}'s turn \(seat {state.current_player} is to "
        rf"move\)$",
    ):
        hint(state, other)
    with pytest.raises(AnalysisError, match=r"^seat must be a whole number from 0 to 1, not 5$"):
        hint(state, 5)
    done = finished("middle-ages", 2)
    with pytest.raises(AnalysisError, match="^the game is over: there is no move to hint$"):
        hint(done, 0)


KB_POSITIONS = [(2, 3, 9), (2, 8, 40), (3, 5, 21), (4, 2, 52)]
MA_POSITIONS = [(2, 3, 10), (2, 6, 45), (3, 4, 30)]


@pytest.mark.parametrize(
    "game, pos", [*(("kingdom", p) for p in KB_POSITIONS), *(("middle-ages", p) for p in MA_POSITIONS)]
)
def test_hints_depend_only_on_what_the_seat_sees(game, pos):
    """Two true states that differ only in hidden information (other seats' cards, deck orders) give
    the same hint, and the same move from the hard level with an iteration budget."""
    state = midgame(game, *pos)
    twin = (kingdom_twin if game == "kingdom" else middle_ages_twin)(state, pos[1])
    seat = state.current_player
    assert twin.observation(seat) == state.observation(seat)
    assert twin.to_json() != state.to_json()
    h = hint(state, seat, seed=2)
    assert hint(twin, seat, seed=2) == h
    # in the middle of a turn, from the turn's earlier positions too (each drawn anew, as the
    # server draws them from what the seat sees)
    after = state.copy()
    after.apply(h.action)
    if after.current_player == seat and not after.is_over() and len(after.legal_actions()) > 1:
        twin_after = (kingdom_twin if game == "kingdom" else middle_ages_twin)(after, pos[1] + 1)
        assert twin_after.observation(seat) == after.observation(seat) and twin_after.to_json() != after.to_json()
        assert hint(after, seat, seed=2, iterations=300, turn=[(state, h.action)]) == hint(
            twin_after, seat, seed=2, iterations=300, turn=[(twin, h.action)]
        )
    from builders.ai import MCTSAgent

    a = MCTSAgent(4, time_limit=None, iterations=150, prior="fast", reuse=True)
    b = MCTSAgent(4, time_limit=None, iterations=150, prior="fast", reuse=True)
    assert a.act(state) == b.act(twin)


def test_analysis_depends_only_on_what_each_seat_saw():
    """A finished game and a copy of its record whose hidden draws differ cannot be made without
    changing the public game, so check the decision level: the analysis of one decision from a
    position and from its hidden-information twin is the same."""
    from builders.ai.analysis import _searcher

    state = midgame("middle-ages", 2, 6, 45)
    twin = middle_ages_twin(state, 6)
    played = state.legal_actions()[-1]
    results = []
    for s in (state, twin):
        agent = _searcher(9, 120, None)
        best, node, mine = agent.evaluate_actions(s, 120, played=played)
        results.append((best, node.visits, round(node.mean(), 9), mine.visits, round(mine.mean(), 9)))
    assert results[0] == results[1]


# -- the command ----------------------------------------------------------------------------------

app = typer.Typer()
app.command("analyse")(analyse_command)
app.command("hint")(hint_command)


@app.callback()
def _root() -> None:
    """A group, so the command is called by its name as in ``builders analyse``."""


runner = CliRunner()


def test_the_command_prints_the_labelled_moves_and_the_summary(tmp_path, ma_game, ma_analysis):
    path = tmp_path / "game.json"
    path.write_text(json.dumps(ma_game.to_record()))
    out = tmp_path / "analysis.json"
    result = runner.invoke(
        app, ["analyse", str(path), "--iterations", "40", "--seed", "3", "--out", str(out), "--quiet"]
    )
    assert result.exit_code == 0, result.output
    data = json.loads(out.read_text())
    assert data == json.loads(json.dumps(ma_analysis.to_json()))
    lines = result.stdout.splitlines()
    labelled = [d for d in ma_analysis.decisions if d.label]
    assert len(lines) == len(labelled) + 2
    first = labelled[0]
    mark = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}[first.label]
    assert lines[0] == (
        f"{first.index + 1:4d}. seat {first.seat} {first.played}{mark} ({first.label}: win chance "
        f"{100 * first.before:.0f}% -> {100 * first.after:.0f}%; the hard bot: {first.best})"
    )
    p = ma_analysis.players[1]
    assert lines[-1] == (
        f"seat 1: score {ma_analysis.scores[1]}, {p.decisions} decisions, mean win-chance loss "
        f"{100 * p.mean_loss:.1f} points; inaccuracy {p.counts['inaccuracy']}, mistake "
        f"{p.counts['mistake']}, blunder {p.counts['blunder']}"
    )


def test_the_command_refuses_in_one_line(tmp_path, ma_game):
    record = ma_game.to_record()
    unfinished = tmp_path / "unfinished.json"
    unfinished.write_text(json.dumps(dict(record, history=record["history"][:6])))
    broken = tmp_path / "broken.json"
    broken.write_text("{not json")
    for args, message in [
        ([str(unfinished)], "the game is not finished: only finished games can be analysed"),
        ([str(tmp_path / "missing.json")], f"no such file: {tmp_path / 'missing.json'}"),
        (
            [str(broken)],
            f"{broken} is not valid JSON: Expecting property name enclosed in double quotes at line 1, column 2",
        ),
        (
            [str(unfinished), "--time", "0"],
            "the time per decision must be more than 0 and at most 600 seconds, not 0.0",
        ),
    ]:
        result = runner.invoke(app, ["analyse", *args, "--quiet"])
        assert result.exit_code == 2, result.output
        assert result.stderr == f"error: {message}\n"


def test_the_hint_command_prints_the_hard_bots_move_its_chance_and_its_plan(tmp_path):
    """``builders hint RECORD --until N``: the hint of the position after N actions (the player to
    move: seat 1 at the start of its first turn), exactly what ``hint`` gives there without a time
    limit, in words and as JSON."""
    from builders.core.record import replay
    from builders.kingdom.notation import END

    game = finished("kingdom", 6)
    record = game.to_record()
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))
    until = game.player_actions().index(END) + 1  # after seat 0's first turn
    state = replay(record, until=until)
    seat = state.current_player
    expected = hint(state, seat, seed=4)
    words = plan_notations(state, expected)
    assert seat == 1 and words and words[-1] == "end"
    result = runner.invoke(app, ["hint", str(path), "--until", str(until), "--seed", "4"])
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines() == [
        f"Kingdom Builder, after {until} actions: seat 1 to move",
        f"hint: {expected.notation} (win chance {100 * expected.win_chance:.0f}%)",
        f"then, in the hard bot's plan for this turn: {', '.join(words)}",
    ]
    result = runner.invoke(app, ["hint", str(path), "--until", str(until), "--seed", "4", "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == {
        "game": "kingdom",
        "actions": until,
        "seat": 1,
        "action": expected.notation,
        "win_chance": round(expected.win_chance, 4),
        "plan": words,
        "evaluated": expected.iterations,
    }
    # in the middle of the turn: the hint given the turn so far (the seat left the plan at its first
    # build), as the analysis's hard bot plays there
    first = next(a for a in state.legal_actions() if a != expected.action)
    mid = {k: v for k, v in record.items() if k != "result"}
    mid["history"] = [*record["history"][: len(state.history)], state.action_to_string(first)]
    turn, position = turn_positions(mid)
    assert [(s.to_json(), a) for s, a in turn] == [(state.to_json(), first)]
    later = hint(position, seat, seed=4, iterations=300, turn=turn)
    path.write_text(json.dumps(mid))
    result = runner.invoke(app, ["hint", str(path), "--iterations", "300", "--seed", "4", "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == {
        "game": "kingdom",
        "actions": until + 1,
        "seat": 1,
        "action": later.notation,
        "win_chance": round(later.win_chance, 4),
        "plan": plan_notations(position, later),
        "evaluated": later.iterations,
    }


def test_the_hint_command_refuses_in_one_line(tmp_path, ma_game):
    path = tmp_path / "game.json"
    path.write_text(json.dumps(ma_game.to_record()))
    total = len(ma_game.player_actions())
    for args, message in [
        ([str(path)], f"the game is over after {total} actions: choose an earlier position with --until N"),
        ([str(path), "--until", str(total + 1)], f"the record has only {total} actions, not {total + 1}"),
        ([str(path), "--until", "-1"], "--until must be 0 or more"),
        (
            [str(path), "--until", "6", "--time", "0"],
            "the time per decision must be more than 0 and at most 600 seconds, not 0.0",
        ),
        (
            [str(path), "--until", "6", "--iterations", "0"],
            "the iterations per decision must be a whole number from 1 to 1000000, not 0",
        ),
        ([str(tmp_path / "missing.json")], f"no such file: {tmp_path / 'missing.json'}"),
    ]:
        result = runner.invoke(app, ["hint", *args])
        assert result.exit_code == 2, result.output
        assert result.stderr == f"error: {message}\n"
