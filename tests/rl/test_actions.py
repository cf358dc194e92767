"""The fixed action indices: every legal engine action is reachable through the masks and nothing
illegal is; index <-> action round-trips; bad indices are refused with a clear reason and change
nothing (docs/rl.md, "Actions")."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from builders.core.errors import IllegalAction
from builders.kingdom.game import KingdomBuilder
from builders.middle_ages.game import MiddleAges
from builders.rl import kingdom as kb
from builders.rl import middle_ages as ma
from builders.rl.base import IllegalIndex, Match, make_codec
from tests.rl.helpers import new_state, random_positions


def reachable(codec, legal) -> set[tuple[int, ...]]:
    """Every complete index sequence the masks allow, walking the tree of picks; a pick whose mask is
    empty (a dead end) fails the test."""
    out: set[tuple[int, ...]] = set()

    def walk(prefix: list[int]) -> None:
        mask = codec.mask(legal, prefix)
        assert mask.dtype == np.int8 and mask.shape == (codec.num_actions,)
        allowed = np.flatnonzero(mask).tolist()
        assert allowed, f"the pick {prefix} leads nowhere"
        for i in allowed:
            seq = [*prefix, i]
            if codec.needs_more(seq):
                walk(seq)
            else:
                out.add(tuple(seq))

    walk([])
    return out


def to_action(game: str, seq: tuple[int, ...]):
    return kb.index_to_action(seq) if game == "kingdom" else ma.index_to_action(seq[0])


def to_indices(game: str, action) -> tuple[int, ...]:
    return kb.action_to_index(action) if game == "kingdom" else (ma.action_to_index(action),)


def check_game(game: str, players: int, seed: int) -> dict[int, int]:
    """Walk every position of a random game; returns how many actions of each length were seen."""
    codec = make_codec(game, players)
    lengths: dict[int, int] = {}
    for state in random_positions(game, players, seed):
        legal = state.legal_actions()
        seqs = reachable(codec, legal)
        actions = [to_action(game, seq) for seq in seqs]
        # a bijection between the complete index sequences and the engine's legal actions
        assert sorted(actions) == sorted(legal)
        for action in legal:
            seq = to_indices(game, action)
            assert seq in seqs
            assert to_action(game, seq) == action
            lengths[len(seq)] = lengths.get(len(seq), 0) + 1
    return lengths


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 10**6), players=st.integers(2, 4))
def test_kingdom_masks_reach_exactly_the_legal_actions(seed: int, players: int) -> None:
    check_game("kingdom", players, seed)


@settings(max_examples=4, deadline=None)
@given(seed=st.integers(0, 10**6), players=st.integers(2, 4))
def test_middle_ages_masks_reach_exactly_the_legal_actions(seed: int, players: int) -> None:
    check_game("middle-ages", players, seed)


def test_kingdom_tiles_of_one_and_two_hexes_are_walked() -> None:
    # rules.md "The eight tiles": build tiles (tile, hex) and move tiles (tile, from, to) both occur
    seen: dict[int, int] = {}
    for seed, players in ((1, 2), (2, 3), (3, 4), (4, 2)):
        for length, count in check_game("kingdom", players, seed).items():
            seen[length] = seen.get(length, 0) + count
    assert seen.get(1, 0) > 0 and seen.get(2, 0) > 0 and seen.get(3, 0) > 0


def test_kingdom_index_table() -> None:
    state = KingdomBuilder().new_state(KingdomBuilder().first_game_setup(2))
    from builders.kingdom.notation import parse

    assert kb.action_to_index(parse("build 3,7")) == (67,)
    assert kb.action_to_index(parse("oracle 0,1")) == (400, 1)
    assert kb.action_to_index(parse("tavern 5,6")) == (404, 106)
    assert kb.action_to_index(parse("barn 1,2>3,4")) == (405, 22, 64)
    assert kb.action_to_index(parse("harbor 0,0>19,19")) == (406, 0, 399)
    assert kb.action_to_index(parse("paddock 2,3>4,3")) == (407, 43, 83)
    assert kb.action_to_index(parse("end")) == (408,)
    assert state.action_to_string(kb.index_to_action((407, 43, 83))) == "paddock 2,3>4,3"
    assert kb.index_name(67) == "build 3,7"
    assert kb.index_name(406) == "tile harbor"
    assert kb.NUM_ACTIONS == 409
    with pytest.raises(IllegalAction, match="not a complete Kingdom Builder action"):
        kb.index_to_action((405, 22))


def test_middle_ages_index_table() -> None:
    state = MiddleAges().new_state(MiddleAges().random_setup(2, 1))
    expected = {
        "end": 0,
        "buy": 1,
        "coins 1": 2,
        "coins 3": 4,
        "open B01": 5,
        "open B34": 38,
        "open M1": 39,
        "open M8": 46,
        "recruit W01": 47,
        "recruit W42": 88,
        "send W01 B01": 89,
        "send W02 B01": 90,
        "send M1 B01": 89 + 42,
        "send W01 B02": 89 + 50,
        "send M8 M8": 2188,
    }
    for text, index in expected.items():
        from builders.middle_ages.notation import parse

        action = parse(text)
        assert ma.action_to_index(action) == index
        assert ma.index_to_action(index) == action
        assert state.action_to_string(action) == text
    assert ma.NUM_ACTIONS == 2189
    assert sorted(ma.action_to_index(ma.index_to_action(i)) for i in range(ma.NUM_ACTIONS)) == list(range(2189))


def _snapshot(match: Match):
    return (match.state.to_json(), list(match.state.history), list(match.prefix), match.mask().tolist())


def test_bad_indices_are_refused_and_change_nothing_kingdom() -> None:
    state = KingdomBuilder().new_state(KingdomBuilder().first_game_setup(2))
    match = Match(make_codec("kingdom", 2), state)
    before = _snapshot(match)
    cases = {
        409: "action index 409 is out of range (0-408)",
        -1: "action index -1 is out of range (0-408)",
        "3": "an action index is an integer from 0 to 408, not '3' (str)",
        1.5: "an action index is an integer from 0 to 408, not 1.5 (float)",
        True: "an action index is an integer from 0 to 408, not True (bool)",
        None: "an action index is an integer from 0 to 408, not None (NoneType)",
        # rules.md "A turn": the mandatory build comes first, and at least one settlement is built
        408: "action index 408 (end) is illegal: you must build 3 settlements before ending the turn",
        # rules.md "Location tiles": no tile is held at the start
        405: "action index 405 (tile barn) is illegal: you have no barn tile",
    }
    for index, message in cases.items():
        with pytest.raises(IllegalIndex) as err:
            match.play(index)
        assert str(err.value) == message
        assert _snapshot(match) == before
    match.play(0)  # build 0,0 (legal in this setup)
    after = _snapshot(match)
    with pytest.raises(IllegalIndex) as err:
        match.play(np.int64(0))
    assert str(err.value) == "action index 0 (build 0,0) is illegal: hex 0,0 is taken"
    with pytest.raises(IllegalIndex) as err:
        match.play(400)
    # rules.md "Location tiles": no tile during the mandatory build
    assert (
        str(err.value) == "action index 400 (tile oracle) is illegal: tiles cannot be used during the mandatory build"
    )
    assert _snapshot(match) == after


def test_bad_indices_are_refused_and_change_nothing_middle_ages() -> None:
    state = MiddleAges().new_state(MiddleAges().random_setup(2, 1))
    match = Match(make_codec("middle-ages", 2), state)
    before = _snapshot(match)
    cases = [
        # rules.md "A turn": three actions, all to be spent before the turn ends
        (0, "action index 0 (end) is illegal: you must spend your 3 remaining actions before ending the turn"),
        (89, "action index 89 (send W01 B01) is illegal: W01 is not in your crew"),
        (2189, "action index 2189 is out of range (0-2188)"),
        (np.array([3]), "an action index is an integer from 0 to 2188, not array([3]) (ndarray)"),
    ]
    for index, message in cases:
        with pytest.raises(IllegalIndex) as err:
            match.play(index)
        assert str(err.value) == message
        assert _snapshot(match) == before
    assert match.play(np.array(4)) == ma.index_to_action(4)  # a 0-d array is an index: coins 3


def test_a_pick_stays_out_of_the_record() -> None:
    # find a position with a move tile and play its picks one by one
    for seed in range(40):
        for state in random_positions("kingdom", 2, seed):
            legal = state.legal_actions()
            moves = [a for a in legal if len(kb.action_to_index(a)) == 3]
            if moves:
                match = Match(make_codec("kingdom", 2), state.copy())
                history = list(match.state.history)
                tile, src, dst = kb.action_to_index(moves[0])
                assert match.play(tile) is None
                assert match.play(src) is None
                assert match.state.history == history  # nothing recorded yet
                obs = match.observe(match.current_player, "dict")
                assert obs["phase"][kb.PHASE_MOVE_TARGET] == 1
                assert obs["board"][-1].reshape(400)[src] == 1  # the picked settlement is shown
                assert match.play(dst) == moves[0]
                assert match.state.history[len(history)] == moves[0]
                return
    pytest.fail("no move tile in 40 random games")


def test_masks_match_new_state_start() -> None:
    # rules.md "A turn": the first decision of a game is a mandatory build on the played terrain
    state = new_state("kingdom", 2, 5)
    match = Match(make_codec("kingdom", 2), state)
    assert match.legal_indices() == sorted(state.legal_actions())
