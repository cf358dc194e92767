"""Random games for the research-kit tests."""

from __future__ import annotations

import random
from collections.abc import Iterator

from builders.kingdom.game import KingdomBuilder
from builders.middle_ages.game import MiddleAges


def new_state(game: str, players: int, seed: int):
    g = KingdomBuilder() if game == "kingdom" else MiddleAges()
    return g.new_state(g.random_setup(players, seed))


def random_positions(game: str, players: int, seed: int, limit: int = 10_000) -> Iterator:
    """Every position of one random game (the same state object, advanced after each yield)."""
    state = new_state(game, players, seed)
    rnd = random.Random(seed)
    for _ in range(limit):
        if state.is_over():
            return
        yield state
        legal = state.legal_actions()
        state.apply(legal[rnd.randrange(len(legal))])
