"""The Kingdom Builder evaluation's settlement part computed from the part before a build equals
the part computed from scratch, exactly (the searches value children from their parent's part)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as hst

from builders.ai import evaluate
from builders.ai.eval_kingdom import _kingdom_context
from builders.kingdom import KingdomBuilder
from builders.kingdom.notation import END, SHIFT

GAME = KingdomBuilder()


def _built_hex(state) -> int:
    """The hex the last action put a settlement on (a build or a placing tile), else -1."""
    last = state.history[-1] if state.history else -1
    if type(last) is int and last != END and (last < 400 or 1 <= last >> SHIFT <= 5):
        return last & 511
    return -1


@settings(max_examples=25, deadline=None)
@given(seed=hst.integers(0, 10**6), players=hst.integers(2, 4))
def test_part_from_the_parent_equals_the_part_from_scratch(seed, players):
    state = GAME.new_state(GAME.random_setup(players, seed=seed))
    rng = random.Random(seed)
    ctx = _kingdom_context(state)
    ctx.cache.clear()
    for own in state.own:
        ctx.own_part(own)
    from_parent = 0
    while not state.is_over():
        state.apply(rng.choice(state.legal_actions()))
        h = _built_hex(state)
        mover = state.to_move
        before = [own ^ (1 << h) in ctx.cache if h >= 0 and p == mover else False for p, own in enumerate(state.own)]
        parts = [ctx.own_part(own, h if p == mover else -1) for p, own in enumerate(state.own)]
        from_parent += sum(before)
        ctx.cache.clear()
        for p, own in enumerate(state.own):
            assert ctx.own_part(own)[:3] == parts[p][:3], (state.cards, p)
    assert from_parent > 20  # most builds were valued from their parent


def test_values_of_a_build_child_are_those_of_a_fresh_position():
    """The whole evaluation (``values``) of the positions of a played game, cache warm (parts from
    their parents) and cold, is the same to the last bit."""
    state = GAME.new_state(GAME.random_setup(3, seed=11))
    rng = random.Random(3)
    ctx = _kingdom_context(state)
    ctx.cache.clear()
    n = 0
    while not state.is_over():
        state.apply(rng.choice(state.legal_actions()))
        warm = evaluate.values(state, -1)
        ctx.cache.clear()
        assert evaluate.values(state, -1) == warm
        n += 1
    assert n > 60


@settings(max_examples=200, deadline=None)
@given(mask=hst.integers(0, (1 << 400) - 1), density=hst.integers(0, 6))
def test_row_flags_count_the_rows_a_mask_touches(mask, density):
    from builders.ai.eval_kingdom import _row_flags
    from builders.kingdom.board import ROW_MASKS

    for _ in range(density):  # sparser masks, as settlements are
        mask &= mask >> 7 | mask << 3
    flags = _row_flags(mask)
    assert [bool(flags >> (20 * r + 19) & 1) for r in range(20)] == [bool(mask & row) for row in ROW_MASKS]
    assert flags.bit_count() == sum(1 for row in ROW_MASKS if mask & row)
