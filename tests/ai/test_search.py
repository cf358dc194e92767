"""The search of the hard and expert levels: whole-turn budgets split across a turn's decisions, the
subtree kept between decisions of a turn, single-choice decisions played at once, the fast move
ordering, the cached Kingdom Builder evaluation (against a plain one written from the scoring rules)
and The Builders' evaluation that does not hoard sites and workers."""

from __future__ import annotations

import random

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from builders.ai import GreedyAgent, MCTSAgent, make_bot
from builders.ai import eval_kingdom
from builders.ai.budget import turn_share
from builders.ai.kit_kingdom import KB_AFTER, KB_BUILDS, KB_END
from builders.ai.evaluate import decision_key, move_values, values
from builders.ai.mcts import TURN_MARGIN
from builders.core.agents import RandomAgent, play
from builders.core.games import get_game
from builders.kingdom.board import ROW_MASKS, SECTOR_MASKS, dilate
from builders.kingdom.notation import END
from builders.kingdom.scoring import CARD_RULES, castles, groups
from tests.ai.helpers import midgame


# -- the Kingdom Builder evaluation against a plain one -------------------------------------------


def plain_kingdom_values(st) -> list[float]:
    """The evaluation of docs/ai.md written directly from the scoring functions, without caches."""
    board = st.board
    n = st.num_players
    counts = [[(own & s).bit_count() for s in SECTOR_MASKS] for own in st.own]
    turns_left = min(st.supply) / 3.0
    tile_value = eval_kingdom.DEFAULT.KB_TILE_BASE + eval_kingdom.DEFAULT.KB_TILE_PER_TURN * min(turns_left, 12.0)
    free = board.buildable & ~st.occ
    out = []
    for p in range(n):
        own = st.own[p]
        v = float(castles(st, p)) + sum(CARD_RULES[c](st, p) for c in st.cards)
        if st.over:
            out.append(v)
            continue
        v += tile_value * st.held[p].bit_count()
        frontier = st.near[p] & free
        for card in st.cards:
            good = {
                "fishermen": board.near_water & ~board.water,
                "miners": board.near_mountain,
                "workers": board.near_special,
                "merchants": board.near_special,
            }.get(card, 0)
            v += eval_kingdom.DEFAULT.KB_FRONTIER * min(
                eval_kingdom.DEFAULT.KB_FRONTIER_CAP, (frontier & good).bit_count()
            )
            if card == "discoverers":
                v += eval_kingdom.DEFAULT.KB_NEW_ROW * sum(1 for row in ROW_MASKS if frontier & row and not own & row)
            if card == "farmers":
                low = sorted(counts[p])
                v += eval_kingdom.DEFAULT.KB_FARMERS_LOW * (low[0] + low[1])
                for k in range(4):
                    if own and not counts[p][k]:
                        reach, steps = own, 0
                        while not reach & SECTOR_MASKS[k] and steps < 8:
                            reach |= dilate(reach)
                            steps += 1
                        v -= eval_kingdom.DEFAULT.KB_FARMERS_GAP * steps
            if card == "lords":
                for k in range(4):
                    lead = counts[p][k] - max(counts[q][k] for q in range(n) if q != p)
                    v += eval_kingdom.DEFAULT.KB_LORDS_LEAD * max(-3, min(2, lead))
            if card == "citizens":
                v += eval_kingdom.DEFAULT.KB_CITIZENS_HALF * (max((g.bit_count() for g in groups(own)), default=0) & 1)
        for o, h in enumerate(board.locations):
            if st.left[o] and not (st.taken[p] >> h) & 1 and board.nbr_mask[h] & frontier:
                v += eval_kingdom.DEFAULT.KB_LOCATION_REACH
        for c in board.castles:
            if not board.nbr_mask[c] & own and board.nbr_mask[c] & frontier:
                v += eval_kingdom.DEFAULT.KB_CASTLE_REACH
        out.append(v)
    return out


@settings(max_examples=15, deadline=None)
@given(players=st.integers(2, 4), seed=st.integers(0, 10_000))
def test_kingdom_evaluation_equals_the_plain_one_over_whole_games(players, seed):
    g = get_game("kingdom")
    state = g.new_state(g.random_setup(players, seed))
    rnd = random.Random(seed)
    while True:
        assert values(state) == pytest.approx(plain_kingdom_values(state), abs=1e-9)
        if state.is_over():
            break
        legal = state.legal_actions()
        state.apply(legal[rnd.randrange(len(legal))])


def test_the_groups_of_the_evaluation_are_the_scoring_groups():
    state = midgame("kingdom", 3, 11, 60)
    ctx = eval_kingdom._kingdom_context(state)
    for own in state.own:
        assert sorted(ctx.groups(own)) == sorted(groups(own))


# -- move ordering and decision keys --------------------------------------------------------------


def test_kingdom_move_values_favour_a_castle_and_put_end_at_zero():
    """A build next to a castle the seat has not reached is worth the castle weight more than the
    same build elsewhere (rules.md, "Scoring": 3 gold per castle)."""
    state = midgame("kingdom", 2, 8, 40)
    acts = state.legal_actions()
    vals = move_values(state, acts)
    assert len(vals) == len(acts)
    board = state.board
    own = state.own[state.to_move]
    near_new_castle = 0
    for c in board.castles:
        if not board.nbr_mask[c] & own:
            near_new_castle |= board.nbr_mask[c]
    for a, v in zip(acts, vals):
        if a == END:
            assert v == 0.0
        if a < 400 and near_new_castle >> a & 1:
            assert v >= eval_kingdom.DEFAULT.KB_MOVE_CASTLE
    assert move_values(midgame("middle-ages", 2, 3, 10), [1]) is None


def test_decision_keys():
    kb = midgame("kingdom", 2, 3, 9)
    assert decision_key(kb) == kb.hand[kb.to_move]
    ma = midgame("middle-ages", 2, 3, 10)
    assert decision_key(ma) == (*ma.brow, -1, *ma.wrow)


# -- whole-turn budgets ---------------------------------------------------------------------------


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), game=st.sampled_from(["kingdom", "middle-ages"]))
@example(seed=26, game="kingdom")  # a move tile used before the first build, and lost by the move
def test_a_fresh_agent_per_decision_never_spends_more_than_the_turn(seed, game):
    """The server makes a new agent for each decision: the shares this / total of the decisions of
    any turn add up to at most 1 (The Builders: one bought action at most, as the budget assumes)."""
    g = get_game(game)
    state = g.new_state(g.random_setup(2, seed))
    rnd = random.Random(seed)
    greedy = GreedyAgent(seed)
    for _ in range(6):  # six whole turns
        seat = state.current_player
        spent = 0.0
        bought = 0
        while not state.is_over() and state.current_player == seat:
            this, rest, total = turn_share(state)
            assert 0 < this <= rest + 1e-12
            spent += this / total
            legal = state.legal_actions()
            action = greedy.act(state) if rnd.random() < 0.5 else legal[rnd.randrange(len(legal))]
            if game == "middle-ages" and action == 1:  # buy
                bought += 1
                if bought > 1:
                    action = next(a for a in legal if a != 1)
            state.apply(action)
        assert spent <= 1.0 + 1e-9
        if state.is_over():
            break


def test_kingdom_turn_shares():
    state = midgame("kingdom", 2, 3, 9)
    while state.built:  # the start of a turn
        state.apply(state.legal_actions()[0])
    p = state.to_move
    usable = (state.taken[p] & ~state.new[p]).bit_count()
    ready = (state.held[p] & ~state.used[p] & ~state.new[p]).bit_count()
    this, rest, total = turn_share(state)
    assert (this, total) == (KB_BUILDS[0] / (usable + 1), 1.0)
    after = KB_AFTER / (usable + 1)
    assert ready == 1
    assert rest == pytest.approx(this * (ready + 1) + KB_BUILDS[1] + KB_BUILDS[2] + after * (ready + 1))


def test_kingdom_turn_shares_without_a_tile_to_use():
    """A turn with no tile to use: the three builds share the whole turn, the forced end gets a
    token weight, and the shares of the turn's decisions add up to exactly 1."""
    state = midgame("kingdom", 2, 8, 40)
    while state.built:
        state.apply(state.legal_actions()[0])
    p = state.to_move
    assert (state.held[p] & ~state.new[p]) == 0 == state.used[p] and state.supply[p] >= 3
    total = sum(KB_BUILDS) + KB_END
    shares = []
    while state.current_player == p:
        this, rest, tot = turn_share(state)
        assert tot == pytest.approx(total)
        shares.append((this, rest))
        state.apply(state.legal_actions()[0])
    assert shares == [
        (KB_BUILDS[0], pytest.approx(total)),
        (KB_BUILDS[1], pytest.approx(total - KB_BUILDS[0])),
        (KB_BUILDS[2], pytest.approx(KB_BUILDS[2] + KB_END)),
        (KB_END, KB_END),
    ]


def test_time_split_across_a_turn_with_a_given_clock():
    """The first decision of a turn gets turn x this / total; a later one of the same turn gets the
    time left x this / rest (time saved earlier goes to later decisions)."""
    state = midgame("kingdom", 2, 3, 9)
    while state.built:
        state.apply(state.legal_actions()[0])
    agent = MCTSAgent(0, time_limit=None, turn_time=2.0)
    seat = state.current_player
    first, _, _ = turn_share(state)
    t = agent._time_for(state, seat, 100, now=50.0)
    assert t == pytest.approx(2.0 * TURN_MARGIN * first)
    state.apply(state.legal_actions()[0])
    this, rest, _ = turn_share(state)
    t2 = agent._time_for(state, seat, 101, now=50.3)  # 0.3 s spent of 2 x TURN_MARGIN
    assert t2 == pytest.approx((2.0 * TURN_MARGIN - 0.3) * this / rest)
    # another seat's actions in between: a new turn
    t3 = agent._time_for(state, seat, 140, now=90.0)
    assert t3 == pytest.approx(2.0 * TURN_MARGIN * this / 1.0)
    # a per-decision cap still applies
    capped = MCTSAgent(0, time_limit=0.1, turn_time=2.0)
    assert capped._time_for(state, seat, 0, now=0.0) == 0.1


def test_single_choice_decisions_are_played_without_search():
    g = get_game("kingdom")
    state = g.new_state(g.random_setup(2, 4))
    bot = MCTSAgent(1, time_limit=None, turn_time=0.05, prior="fast", reuse=True)
    seen = 0
    while not state.is_over() and seen < 3:
        legal = state.legal_actions()
        action = bot.act(state)
        if len(legal) == 1:
            assert action == legal[0] and bot.last_stats["iterations"] == 0
            seen += 1
        state.apply(action)
    assert seen == 3


def test_the_subtree_of_the_action_played_is_searched_on():
    """With reuse, the second build of a turn starts from the node of the first build: its visits
    are the old ones plus this decision's iterations."""
    state = midgame("kingdom", 2, 8, 40)
    while state.built:
        state.apply(state.legal_actions()[0])
    agent = MCTSAgent(3, time_limit=None, iterations=300, prior="fast", reuse=True)
    first = agent.act(state)
    kept = agent._kept[3]
    before = kept.visits
    assert before > 0
    state.apply(first)
    assert len(state.legal_actions()) > 1
    agent.act(state)
    assert agent.last_root is kept
    assert kept.visits == before + 300
    # without reuse, a fresh tree
    fresh = MCTSAgent(3, time_limit=None, iterations=300, prior="fast")
    fresh.act(state)
    assert fresh.last_root.visits == 300


def test_early_stop_when_the_best_cannot_be_overtaken():
    from builders.ai.mcts import Node

    root = Node(-1)
    for a, v in ((1, 90), (2, 30), (3, 5)):
        root.children[a] = Node(0)
        root.children[a].visits = v
    assert MCTSAgent._settled(root, 125, 59.0)
    assert not MCTSAgent._settled(root, 125, 60.0)


@pytest.mark.parametrize("game", ["kingdom", "middle-ages"])
def test_the_hard_search_with_an_iteration_budget_beats_random(game):
    """Real outcomes: the fast-ordered search wins all 4 paired games against random play."""
    g = get_game(game)
    wins = 0.0
    for setup_seed in (31, 32):
        for seat in (0, 1):
            state = g.new_state(g.random_setup(2, setup_seed))
            agents = [RandomAgent(5), RandomAgent(6)]
            agents[seat] = MCTSAgent(3, time_limit=None, iterations=40, prior="fast", reuse=True)
            play(state, agents)
            wins += state.returns()[seat]
    assert wins == 4


@pytest.mark.parametrize("pos", [(2, 3, 9), (2, 8, 40), (3, 5, 21)])
def test_fast_search_with_one_iteration_plays_greedys_move(pos):
    """The root still orders its actions by the full evaluation."""
    state = midgame("kingdom", *pos)
    assert MCTSAgent(1, time_limit=None, iterations=1, prior="fast").act(state) == GreedyAgent(2).act(state)


def test_own_prior_orders_the_seats_own_decisions_by_the_full_evaluation():
    """With ``prior="own"`` a node where the searching seat is to move (its later builds of the turn)
    evaluates every legal action and opens the best by that evaluation first; the other seats'
    nodes use the move heuristic and keep no evaluations. With ``fast`` no node below the root does."""
    state = midgame("kingdom", 2, 8, 40)
    while state.built:
        state.apply(state.legal_actions()[0])
    seat = state.current_player
    for prior in ("own", "fast"):
        agent = MCTSAgent(3, time_limit=None, iterations=400, prior=prior)
        agent.act(state)
        root = agent.last_root
        own = other = 0
        stack = [root]
        while stack:
            node = stack.pop()
            stack.extend(node.children.values())
            if node is root or not node.children:
                continue
            first = next(iter(node.children))
            mover = node.children[first].player
            if mover == seat and prior == "own":
                own += 1
                assert node.priors is not None and first in node.priors
                assert node.priors[first][seat] == max(v[seat] for v in node.priors.values())
            else:
                other += mover != seat
                assert node.priors is None
        assert (own > 0) == (prior == "own") and other > 0


def test_finish_plays_the_leaf_players_best_actions_by_the_heuristic_before_the_evaluation():
    """With ``finish=2`` a leaf is judged after two actions of its player to move, each the first
    best by the move heuristic; ``finish=0`` judges the leaf as it is."""
    from builders.ai.evaluate import win_values

    state = midgame("kingdom", 2, 8, 40)
    while state.built:
        state.apply(state.legal_actions()[0])
    p = state.current_player
    expect = state.copy()
    for _ in range(2):
        acts = expect.legal_actions()
        vals = move_values(expect, acts)
        assert max(vals) > 0
        expect.apply(acts[vals.index(max(vals))])
    assert expect.current_player == p and expect.built == 2
    agent = MCTSAgent(1, time_limit=None, iterations=1, prior="fast", finish=2)
    agent._setup(state)
    det = state.copy()
    assert agent._leaf(det) == win_values(expect, agent._scale) != win_values(state, agent._scale)
    assert det.own == expect.own and det.built == 2
    plain = MCTSAgent(1, time_limit=None, iterations=1, prior="fast")
    plain._setup(state)
    assert plain._leaf(state.copy()) == win_values(state, plain._scale)
    with pytest.raises(ValueError, match="finish must not be negative, not -1"):
        MCTSAgent(1, iterations=1, finish=-1)


# -- The Builders: no hoarding --------------------------------------------------------------------


def test_middle_ages_medium_bots_do_not_hoard():
    """Medium against medium, 10 games: every seat scores more than 2 VP and nobody opens more than
    15 sites or recruits more than 15 workers (before the evaluation was fixed, 6 of 60 seats ended
    with 0-2 VP, and bots opened up to 22 sites and recruited up to 25 workers)."""
    from builders.middle_ages.rules import OPEN, RECRUIT, SEND

    g = get_game("middle-ages")
    for seed in range(10):
        state = g.new_state(g.random_setup(2, seed))
        bots = [make_bot("middle-ages", "medium", seed * 2 + p) for p in range(2)]
        opened = [0, 0]
        recruited = [0, 0]
        while not state.is_over():
            p = state.current_player
            a = bots[p].act(state)
            if OPEN <= a < RECRUIT:
                opened[p] += 1
            elif RECRUIT <= a < SEND:
                recruited[p] += 1
            state.apply(a)
        assert min(state.result().scores) > 2, (seed, state.result().scores)
        assert max(opened) <= 15 and max(recruited) <= 15, (seed, opened, recruited)


@pytest.mark.parametrize("game, top", [("kingdom", 0), ("middle-ages", 3)])
def test_the_search_tries_the_games_number_of_root_actions(game, top):
    """The search's root tries every action in Kingdom Builder, and in The Builders (the hard
    level there) only the 3 the full evaluation ranks best (``top``); with ``top=1`` the one action
    it tried is the one it plays, and an explicit ``top=0`` lifts the limit."""
    from builders.ai.agents import parse_agent

    state = midgame(game, 2, 8, 40) if game == "kingdom" else setup_middle_ages()
    legal = state.legal_actions()
    assert len(legal) > 6
    hard = parse_agent("mcts:iters=300:prior=fast:reuse=1").make(5, game)
    hard.top = None
    assert hard.act(state.copy()) in legal
    tried = len(hard.last_root.children)
    assert tried == top if top else tried > 6
    one = parse_agent("mcts:iters=300:top=1").make(5, game)
    action = one.act(state.copy())
    assert list(one.last_root.children) == [action]
    free = parse_agent("mcts:iters=300:top=0").make(5, game)
    free.act(state.copy())
    assert len(free.last_root.children) > 6


def setup_middle_ages():
    """The Builders after 2 actions of setup 3: opens and recruits from full rows, coins, buy."""
    g = get_game("middle-ages")
    state = g.new_state(g.random_setup(2, 3))
    state.apply(state.parse_action("coins 1"))
    return state
