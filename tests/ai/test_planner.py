"""The turn planner of Kingdom Builder (the hard and expert levels there): whole turns, exactly the
best one when the beam holds every position, played action by action, within its time."""

from __future__ import annotations

import pytest

from builders.ai.evaluate import advantages
from builders.ai.planner import PlannerError
from builders.ai.planner_kingdom import TurnPlanner, _card_weights
from builders.core.games import get_game
from builders.core.rng import Rng
from builders.kingdom.notation import END
from tests.ai.helpers import midgame, play_out


def all_turns(state, seat):
    """Every way ``seat`` can play out its turn from ``state``: (lead before end, actions)."""
    out = []
    for a in state.legal_actions():
        if a == END:
            out.append((advantages(state)[seat], [a]))
            continue
        child = state.copy()
        child.apply(a)
        out.extend((v, [a] + rest) for v, rest in all_turns(child, seat))
    return out


def small_turn_position():
    """A 2-player position early in a game, its seat holding a tile: a turn of a few hundred ways."""
    state = midgame("kingdom", 2, 8, 40)
    assert state.built == 0
    return state


def test_a_wide_beam_finds_the_best_whole_turn():
    """rules.md "A turn": three builds on the card's terrain, tiles before or after them, then end.
    With a beam wider than the positions of a turn and no look-ahead, the plan is the turn with the
    best lead of all the turns there are (counted here by brute force)."""
    state = small_turn_position()
    seat = state.current_player
    turns = all_turns(state.resample_hidden(seat, Rng(0)), seat)
    assert len(turns) > 100
    best = max(v for v, _ in turns)
    planner = TurnPlanner(1, turn_time=None, beam=100_000, plans=0)
    plan = planner.plan(state)
    assert plan[-1] == END
    assert planner.last_stats["value"] == pytest.approx(best)
    assert (planner.last_stats["value"], plan) in [(pytest.approx(v), t) for v, t in turns]
    # a narrow beam finds a turn, never a better one
    narrow = TurnPlanner(1, turn_time=None, beam=1, plans=0)
    assert narrow.plan(state)[-1] == END and narrow.last_stats["value"] <= best + 1e-9


def test_the_plan_is_played_action_by_action():
    """The first decision of a turn plans it; the next ones play the plan without planning again;
    the turn ends with end, and the next turn is planned anew."""
    state = small_turn_position()
    seat = state.current_player
    planner = TurnPlanner(3, turn_time=None, beam=20, plans=2, reply=2)
    plan = TurnPlanner(3, turn_time=None, beam=20, plans=2, reply=2).plan(state)
    played = []
    while state.current_player == seat and not state.is_over():
        before = planner.last_stats
        action = planner.act(state)
        if played:
            assert planner.last_stats is before  # no new planning inside the turn
        played.append(action)
        state.apply(action)
    assert played == plan and played[-1] == END
    while not state.is_over() and state.current_player != seat:
        state.apply(state.legal_actions()[0])
    before = planner.last_stats
    planner.act(state)
    assert planner.last_stats is not before


def test_the_look_ahead_changes_the_choice_and_the_time_limit_stops_it():
    """``plans`` best turns are looked ahead one turn; with no time to spare none is, and the best
    plan by the evaluation is played (found by a beam that narrows to 1 when its time is up)."""
    state = midgame("kingdom", 2, 3, 40)
    full = TurnPlanner(2, turn_time=None, beam=20, plans=6, reply=3)
    full_plan = full.plan(state)
    assert full.last_stats["looked"] == min(6, full.last_stats["plans"]) > 1
    plain = TurnPlanner(2, turn_time=None, beam=20, plans=0)
    plain_plan = plain.plan(state)
    assert plain.last_stats["looked"] == 0
    assert full_plan != plain_plan  # the look-ahead chose another turn here
    hurried = TurnPlanner(2, turn_time=1e-9, beam=20, plans=6, reply=3)
    hurried_plan = hurried.plan(state)
    assert hurried.last_stats["looked"] == 0 and hurried_plan[-1] == END
    assert hurried.last_stats["plans"] < plain.last_stats["plans"]
    assert 0.0 <= full.last_stats["win"] <= 1.0


def test_the_next_cards_are_weighted_by_the_unseen_pool():
    """The look-ahead weights each terrain card by how many of the cards the seat has not seen
    (the deck and the other hands) are of it; its own card and the discard pile are seen."""
    state = midgame("kingdom", 2, 5, 25)
    seat = state.current_player
    det = state.resample_hidden(seat, Rng(4))
    weights = _card_weights(det, seat)
    unseen = list(state.deck) + [state.hand[q] for q in range(2) if q != seat]
    assert weights == [float(unseen.count(t)) for t in range(5)]
    assert sum(weights) == 25 - len(state.discard) - len(state.removed) - 1


def test_the_planner_refuses_what_it_cannot_do():
    state = get_game("middle-ages").new_state(get_game("middle-ages").random_setup(2, 1))
    with pytest.raises(PlannerError) as e:
        TurnPlanner(1).act(state)
    assert str(e.value) == "the turn planner plays Kingdom Builder, not middle-ages"
    for kwargs, message in [
        ({"turn_time": 0}, "turn time must be positive, not 0"),
        ({"beam": 0}, "beam must be a whole number of at least 1, not 0"),
        ({"plans": -1}, "plans must be a whole number of at least 0, not -1"),
        ({"reply": 1.5}, "reply must be a whole number of at least 1, not 1.5"),
        ({"ahead": 11}, "ahead must be from 0 to 10, not 11"),
        ({"clock": "sun"}, "clock must be one of wall, cpu, count, not 'sun'"),
        ({"depth": 3}, "depth must be 1 or 2, not 3"),
        ({"rollouts": -1}, "rollouts must be a whole number of at least 0, not -1"),
        ({"finalists": 1}, "finalists must be a whole number of at least 2, not 1"),
    ]:
        with pytest.raises(PlannerError) as e:
            TurnPlanner(1, **kwargs)
        assert str(e.value) == message


def test_a_whole_game_with_the_planner_is_legal_and_deterministic():
    """Seeded and without a time limit, the planner plays the same game twice."""
    first, again = (
        play_out(
            "kingdom",
            11,
            lambda: [
                TurnPlanner(5, turn_time=None, beam=8, plans=2, reply=2),
                TurnPlanner(6, turn_time=None, beam=4, plans=0),
            ],
        )
        for _ in range(2)
    )
    assert first == again


def test_the_rest_of_a_plan_stops_at_a_card_drawn_in_the_turn():
    """rules.md, Building rules 4: a build or a tile that fills the last free hex of the played
    terrain before the mandatory build is done draws a new card at once. Here seat 0 plays desert
    with one free desert hex left, so either first action draws: ``planned`` gives nothing after it
    (the planner itself plans again with the card it gets), and a server playing the plan asks again."""
    from builders.kingdom import KingdomState
    from tests.kingdom.test_deck import oasis_position, rest_of

    state = KingdomState.from_json(oasis_position(["canyon"] + rest_of("desert", "grass", "canyon")))
    planner = TurnPlanner(1, turn_time=None, beam=10, plans=0)
    action = planner.act(state)
    assert state.action_to_string(action) in ("build 0,1", "oasis 0,1")
    assert len(planner._plan[2]) >= 3  # the plan went on (with the card of its drawing)
    assert planner.planned(state, action) == []
    # without a draw, the rest of the plan is the whole turn
    plain = midgame("kingdom", 2, 8, 40)
    other = TurnPlanner(1, turn_time=None, beam=10, plans=0)
    first = other.act(plain)
    rest = other.planned(plain, first)
    assert rest == other._plan[2] and rest[-1] == END


def test_a_planner_made_with_its_defaults_is_the_hard_level_without_games_played_out():
    from builders.ai import make_bot
    from builders.ai.planner_kingdom import LEVEL_SETTINGS

    plain, hard = TurnPlanner(1), make_bot("kingdom", "hard", 1)
    assert (plain.beam, plain.plans, plain.reply, plain.turn_time) == (*LEVEL_SETTINGS["hard"], 2.0)
    assert (
        (plain.beam, plain.plans, plain.reply, plain.turn_time, plain.ahead, plain.block, plain.finalists)
        == (hard.beam, hard.plans, hard.reply, hard.turn_time, hard.ahead, hard.block, hard.finalists)
        == (30, 16, 4, 2.0, 1.0, 1.0, 4)
    )
    assert (plain.rollouts, hard.rollouts) == (0, 64)


def final_round_turns(players: int, seed: int):
    """Turn starts of the final round of a game played by a plain planner: (state, seat is the last
    of the round)."""
    g = get_game("kingdom")
    state = g.new_state(g.random_setup(players, seed))
    bot = TurnPlanner(seed, turn_time=None, beam=2, plans=0)
    out = []
    while not state.is_over():
        if state.final_round and state.built == 0 and state.used[state.current_player] == 0:
            last = state.current_player == (state.start_player - 1) % players
            if not out or out[-1][0].current_player != state.current_player:
                out.append((state.copy(), last))
        state.apply(bot.act(state))
    return out


def test_in_the_final_round_only_a_seat_still_to_play_is_looked_ahead():
    """rules.md "End of the game": once a supply is empty the round is finished and the game ends
    with the last seat of the round. So in the final round a seat has no next turn (its own
    look-ahead is 0), but the seats after it in the round still play: the planner subtracts the
    next seat's best reply unless the seat is the last of the round."""
    turns = final_round_turns(3, 2)
    assert [last for _, last in turns] == [False, True]

    def planned(**options):
        planner = TurnPlanner(1, turn_time=None, beam=6, reply=2, **options)
        return planner.plan(state), planner.last_stats

    for state, last in turns:
        plain, plain_stats = planned(plans=0)
        mine, mine_stats = planned(plans=4, ahead=1, block=0)
        assert mine_stats["looked"] == 4 and mine == plain  # every plan valued, nothing added
        theirs, theirs_stats = planned(plans=4, ahead=0, block=1)
        if last:
            assert theirs == plain and theirs_stats["value"] == plain_stats["value"]
        else:
            assert theirs_stats["value"] != plain_stats["value"]  # the next seat's reply counted


def test_the_planner_values_a_seat_without_a_turn_left_at_its_points():
    """rules.md "End of the game": in the final round a seat that has played its last turn can gain
    nothing more, so the planner's valuation (``turn_over``) gives it exactly its points now, and so
    it does to the seat playing its last turn (what its tiles may still bring this turn, the
    planner's search tries), while the seats still to play keep their tiles and prospects (the
    plain evaluation keeps them for all)."""
    from builders.ai.evaluate import values
    from builders.kingdom.scoring import breakdown

    (state, _), _ = final_round_turns(3, 2)
    n = state.num_players
    mover = state.current_player
    points = [sum(breakdown(state, q).values()) for q in range(n)]
    order = [(q - state.start_player) % n for q in range(n)]
    before = [q for q in range(n) if order[q] < order[mover]]
    after = [q for q in range(n) if order[q] > order[mover]]
    assert before and after
    plain = values(state)
    planned = values(state, -1)
    done = values(state, mover)
    for q in before:
        assert planned[q] == done[q] == points[q] < plain[q]
    for q in after:
        assert planned[q] == done[q] == plain[q] > points[q]
    assert done[mover] == planned[mover] == points[mover] < plain[mover]


def test_the_deeper_look_ahead_applies_the_reply_before_the_next_turn():
    """Depth 2 values a plan by what the seat's lead becomes after the next seat's best turn with
    each card, then adds the seat's own next turn from there. In 2 players, without the own next
    turn, that is what depth 1 subtracts (the next seat's best lead): the same plan and value; with
    it, the seat's next turn is counted from the position the reply leaves, not from today's."""
    state = small_turn_position()

    def planned(**options):
        planner = TurnPlanner(1, turn_time=None, beam=50, plans=5, reply=20, **options)
        return planner.plan(state), planner.last_stats

    one, one_stats = planned(ahead=0, depth=1)
    two, two_stats = planned(ahead=0, depth=2)
    assert two == one and two_stats["value"] == pytest.approx(one_stats["value"])
    assert two_stats["looked"] == one_stats["looked"] == 5
    deep, deep_stats = planned(depth=2)
    flat, flat_stats = planned(depth=1)
    assert deep_stats["value"] != pytest.approx(flat_stats["value"])
    assert deep_stats["evaluations"] > flat_stats["evaluations"]
    assert deep[-1] == END


def test_a_plan_made_again_in_a_turn_gets_what_is_left_of_it():
    """A card drawn in the turn (building rule 4) makes the planner plan again: it gets what is left
    of the turn's time, or a fifth of it when it did not see the turn start (the server's planners)
    unless told otherwise (``replan_share``)."""
    state = small_turn_position()
    planner = TurnPlanner(1, turn_time=2.0)
    assert planner._budget(state, 10.0) == pytest.approx(2.0)
    later = state.copy()
    later.apply(next(a for a in later.legal_actions() if a < 400))  # a build
    assert planner._budget(later, 11.5) == pytest.approx(0.5)
    assert TurnPlanner(1, turn_time=2.0)._budget(later, 0.0) == pytest.approx(0.4)
    # a hint's planner (builders.ai.analysis.hint), asked once in the middle of a turn, gets it all
    hinting = TurnPlanner(1, turn_time=2.0)
    hinting.replan_share = hinting.FIRST_SHARE
    assert hinting._budget(later, 0.0) == pytest.approx(2.0)


def test_the_count_clock_spends_positions_not_seconds():
    """``clock="count"``: the planner's time is the positions it evaluated (``COUNT_RATE`` a second),
    so the same budget gives the same plan on every run and machine; a small budget cuts the plan
    search and the look-ahead at that many positions, not at a time."""
    from builders.ai.planner import COUNT_RATE

    state = midgame("kingdom", 2, 3, 40)
    full = TurnPlanner(2, turn_time=None, beam=20, plans=6, reply=3)
    full_plan = full.plan(state)
    needed = full.last_stats["evaluations"]
    budget = needed / 4 / COUNT_RATE / 0.9  # a quarter of what the whole plan needs, before the margin
    plans = []
    for _ in range(2):
        counted = TurnPlanner(2, turn_time=budget, beam=20, plans=6, reply=3, clock="count")
        plans.append(counted.plan(state))
        stats = counted.last_stats
        assert stats["evaluations"] < needed / 2
        assert stats["seconds"] == pytest.approx(stats["evaluations"] / COUNT_RATE)
        assert stats["looked"] < full.last_stats["looked"]
    assert plans[0] == plans[1]
    # a budget with room for all of it plays the plan made without a limit
    roomy = TurnPlanner(2, turn_time=10 * needed / COUNT_RATE, beam=20, plans=6, reply=3, clock="count")
    assert roomy.plan(state) == full_plan and roomy.last_stats["evaluations"] == needed


def ending_position(until: int = 245):
    """A four-player game of the hard, medium, easy and expert bots on the server, at the start of
    the turn of Black (seat 3, the last of the round; 4 settlements left, the game's leader), or
    after ``until`` actions."""
    import json
    from pathlib import Path

    from builders.core.record import replay

    record = json.loads((Path(__file__).parent / "positions" / "kingdom_four_players_ending.json").read_text())
    return replay(record, until=until)


def test_a_plan_that_ends_the_game_is_looked_at_though_the_evaluation_ranks_it_low(monkeypatch):
    """rules.md "End of the game": when a supply runs out the round is finished, and the game ends
    with the turn of the last seat of the round if that seat emptied its own supply. Here Black,
    the last seat, can build its last settlement with the Tavern after its three builds and so end
    the game ahead; the evaluation ranks that plan below the plans that keep it (they count the
    tiles and prospects of turns to come), so among the best 16 plans none ends the game. The
    planner looks at the best plans that end the game too, and ends it, 10 gold ahead; when its
    time runs out before the best plans are looked ahead, it still values those, which need no
    look-ahead."""
    import builders.ai.planner as planner_module

    state = ending_position()
    seat = state.current_player
    assert seat == 3 == (state.start_player - 1) % 4 and state.supply[seat] == 4 and not state.final_round

    def turn(seed: int) -> tuple[list[str], object]:
        planner = TurnPlanner(seed, turn_time=None)
        sim = state.copy()
        texts = []
        for action in planner.plan(state):
            texts.append(sim.action_to_string(action))
            sim.apply(action)
        return texts, sim

    for seed in (1, 2):
        texts, after = turn(seed)
        assert after.is_over() and after.supply[seat] == 0, texts
        assert any(t.startswith("tavern") for t in texts)
        assert after.result().winners == (seat,)
    # a time too short to look ahead the best 16 plans: the plans that end the game need no look-ahead
    planner = TurnPlanner(1, turn_time=0.2, clock="count")
    sim = state.copy()
    for action in planner.plan(state):
        sim.apply(action)
    assert planner.last_stats["looked"] < 16 and sim.is_over() and planner.last_stats["value"] == 10.0
    monkeypatch.setattr(planner_module, "ENDING_PLANS", 0)
    for seed in (1, 2):
        texts, after = turn(seed)
        assert not after.is_over() and after.supply[seat] == 1, texts


def test_in_a_round_a_seat_still_to_play_surely_ends_the_planner_counts_no_next_turn(monkeypatch):
    """rules.md "A turn" (the mandatory build: 3 settlements, or all that remain) and "End of the
    game": Red (seat 0, the start player) begins a round in which Blue and Black, still to play, hold
    2 and 1 settlements; each empties its supply in its turn, so the game ends with this round and
    Red's turn is its last. The planner values Red's plans at its points alone (held tiles are worth
    nothing once the game is over) and looks at Blue's answer, never at a next turn of Red. Its turn
    now brings Red to 74 gold; valuing the tiles kept, as if the game went on, it played for 73."""
    from builders.ai.eval_kingdom import last_round
    from builders.ai.evaluate import values

    assert not last_round(ending_position())  # Black, the last seat, is to move: no seat plays after it
    state = ending_position(until=250)  # Black has played: Red begins the next round
    assert state.current_player == 0 == state.start_player and state.supply == [10, 2, 4, 1]
    assert last_round(state) and not state.final_round
    looked_at: list[int] = []
    potential = TurnPlanner._potential

    def spy(self, end, who, weights, deadline):
        looked_at.append(who)
        return potential(self, end, who, weights, deadline)

    monkeypatch.setattr(TurnPlanner, "_potential", spy)
    planner = TurnPlanner(1, turn_time=None)
    sim = state.copy()
    for action in planner.plan(state):
        sim.apply(action)
    assert planner.last_stats["looked"] == 16
    assert set(looked_at) == {1}
    # Red after its turn: 74 gold by the cards and castles, 2 tiles held; valued at the 74 alone
    assert sum(sim.score_breakdown()[0].values()) == 74 and sim.held[0].bit_count() == 2
    assert values(sim, 0)[0] == 74.0 and values(sim)[0] > 74.0


def test_games_played_out_choose_among_the_finalists_on_the_same_draws(monkeypatch):
    """``rollouts``: the ``finalists`` best plans by the look-ahead are played out to the game's end,
    round by round, every plan of a round on the same hidden cards (the same sample), and the plan
    with the best mean final lead is played."""
    state = midgame("kingdom", 2, 3, 40)
    ranked = TurnPlanner(2, turn_time=None, beam=20, plans=6, reply=3)
    calls = []

    def rollout(self, end, seat, sample):
        calls.append((end, sample))
        finalist = sum(1 for e, s in calls if s == sample) - 1
        return 10.0 if finalist == 2 else float(finalist)

    monkeypatch.setattr(TurnPlanner, "_rollout", rollout)
    planner = TurnPlanner(2, turn_time=None, beam=20, plans=6, reply=3, rollouts=5, finalists=3)
    plan = planner.plan(state)
    assert planner.last_stats["rollouts"] == 5 and len(calls) == 15
    samples = [s for _, s in calls]
    assert [samples[i : i + 3] for i in range(0, 15, 3)] == [[s] * 3 for s in sorted(set(samples))]
    ends = [e for e, _ in calls[:3]]
    assert len({id(e) for e in ends}) == 3 and all(e.current_player == state.current_player for e in ends)
    # the third finalist (best played out) is played, not the look-ahead's first
    assert plan != ranked.plan(state)
    played = state.copy()
    for a in plan[:-1]:
        played.apply(a)
    seat = state.current_player
    assert (played.own[seat], played.held[seat], played.used[seat]) == (
        ends[2].own[seat],
        ends[2].held[seat],
        ends[2].used[seat],
    )
    assert planner.last_stats["value"] == 10.0


def test_a_game_played_out_is_the_same_on_the_same_draws():
    """A rollout plays the game to its end (every seat the best turn a beam of ``roll_beam`` finds);
    from the same position and sample it gives the same final lead, and two plans of one turn are
    played out on the same deck order (what the seat has not seen, shuffled by the sample)."""
    state = midgame("kingdom", 2, 3, 40)
    seat = state.current_player
    planner = TurnPlanner(2, turn_time=None, beam=20, plans=0)
    found = planner._plans(state.resample_hidden(seat, Rng(1)), seat, 20, True)
    first, second = found[0][1], found[1][1]
    assert first.resample_hidden(seat, Rng(9)).deck == second.resample_hidden(seat, Rng(9)).deck
    games = [planner._play_out(first, seat, 9) for _ in range(2)]
    assert games[0].is_over() and games[0].history == games[1].history
    assert games[0].player_actions()[: len(first.player_actions()) + 1] == first.player_actions() + [END]
    scores = games[0].result().scores
    assert planner._rollout(first, seat, 9) == scores[seat] - max(scores[q] for q in range(2) if q != seat)


def test_without_time_for_enough_rounds_the_look_ahead_chooses():
    """Games are played out with what is left of the turn after the look-ahead; with room for fewer
    than ``MIN_ROUNDS`` rounds the look-ahead's choice stands."""
    from builders.ai.planner import COUNT_RATE
    from builders.ai.planner_kingdom import MIN_ROUNDS

    state = midgame("kingdom", 2, 3, 40)
    plain = TurnPlanner(2, turn_time=None, beam=20, plans=6, reply=3)
    plain_plan = plain.plan(state)
    needed = plain.last_stats["evaluations"]
    tight = TurnPlanner(
        2, turn_time=needed * 1.02 / COUNT_RATE / 0.9, beam=20, plans=6, reply=3, rollouts=50, clock="count"
    )
    assert tight.plan(state) == plain_plan and tight.last_stats["rollouts"] < MIN_ROUNDS
    roomy = TurnPlanner(2, turn_time=None, beam=20, plans=6, reply=3, rollouts=MIN_ROUNDS, clock="count")
    roomy.plan(state)
    assert roomy.last_stats["rollouts"] == MIN_ROUNDS
