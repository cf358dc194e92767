"""Helpers of the native core's tests: positions along random games, and the outcome of a call."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from typing import Any

from builders.core.errors import BuildersError


def positions_along(
    states: Iterable[Any],
    every: int,
    also: Callable[[Any], bool] | None = None,
    bot: Callable[[int], Any] | None = None,
) -> list[Any]:
    """Copies of each state every ``every`` decisions of its game (and at each decision where
    ``also(state)``), and its end. The decisions are random, or those of ``bot(i)`` (an agent made
    for the i-th game) when given."""
    out = []
    for seed, state in enumerate(states):
        rnd = random.Random(seed)
        agent = None if bot is None else bot(seed)
        n = 0
        while not state.is_over():
            if n % every == 0 or (also is not None and also(state)):
                out.append(state.copy())
            if agent is not None:
                state.apply(agent.act(state))
            else:
                legal = state.legal_actions()
                state.apply(legal[rnd.randrange(len(legal))])
            n += 1
        out.append(state)
    return out


def outcome(fn: Callable[[], Any]) -> tuple[str, Any]:
    """("ok", the value) or (the engine error's class name, its message)."""
    try:
        return ("ok", fn())
    except BuildersError as e:
        return (type(e).__name__, str(e))


def matches_side_by_side(python: Any, native: Any, seed: int):
    """The two matches (builders.rl.base.Match) at every decision of one random game played index by
    index on both, and at its end: (python, native) pairs."""
    rnd = random.Random(seed)
    while True:
        yield python, native
        if python.is_over():
            assert native.is_over()
            return
        legal = python.legal_indices()
        index = legal[rnd.randrange(len(legal))]
        assert python.play(index) == native.play(index)
