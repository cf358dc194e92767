"""Positions for the agent tests: mid-game states of both games, and twins that differ from them only
in what the player to move cannot see."""

from __future__ import annotations

import importlib.util
import random
from pathlib import Path
from types import ModuleType

from builders.core.games import get_game, on_python
from builders.core.rng import Rng


def midgame(game: str, players: int, seed: int, actions: int):
    """The state after ``actions`` random actions of a random setup."""
    g = get_game(game)
    state = g.new_state(g.random_setup(players, seed))
    rnd = random.Random(seed)
    for _ in range(actions):
        legal = state.legal_actions()
        state.apply(legal[rnd.randrange(len(legal))])
    while len(state.legal_actions()) < 3:  # a real choice
        legal = state.legal_actions()
        state.apply(legal[rnd.randrange(len(legal))])
    assert not state.is_over()
    return state


def kingdom_twin(state, salt: int):
    """A copy in which the other seats' hidden terrain cards, the deck order and the generator of
    future reshuffles are different (on the Python engine, whose fields can be changed by hand)."""
    twin = on_python(state.copy())
    me = twin.to_move
    rnd = random.Random(salt)
    pool = twin.deck[:]
    others = [q for q in range(twin.num_players) if q != me and twin.hand[q] >= 0]
    pool += [twin.hand[q] for q in others]
    # a pool order that differs from the true one, and another card in another seat's hand
    while True:
        rnd.shuffle(pool)
        if [pool[-1 - i] for i in range(len(others))] != [twin.hand[q] for q in others] or pool[
            : len(twin.deck)
        ] != twin.deck:
            break
    for q in others:
        twin.hand[q] = pool.pop()
    twin.deck = pool
    twin.rng = Rng(salt + 12345)
    return twin


def middle_ages_twin(state, salt: int):
    """A copy with the building deck below its visible top card and the whole worker deck reordered
    (on the Python engine, whose fields can be changed by hand)."""
    twin = on_python(state.copy())
    rnd = random.Random(salt)
    below = twin.bdeck[:-1]
    while len(below) > 1:
        rnd.shuffle(below)
        if below != twin.bdeck[:-1]:
            break
    twin.bdeck[:-1] = below
    workers = twin.wdeck[:]
    while len(workers) > 1:
        rnd.shuffle(workers)
        if workers != twin.wdeck:
            break
    twin.wdeck = workers
    return twin


def play_out(game: str, setup_seed: int, make_bots):
    """A 2-player game of ``game`` (setup ``setup_seed``) played to its end by ``make_bots()``: its
    history and scores."""
    g = get_game(game)
    state = g.new_state(g.random_setup(2, setup_seed))
    bots = make_bots()
    while not state.is_over():
        state.apply(bots[state.current_player].act(state))
    return state.history, state.result().scores


def benchmark(name: str) -> ModuleType:
    """The script ``benchmarks/NAME.py`` loaded as a module (the benchmarks are not a package)."""
    path = Path(__file__).resolve().parents[2] / "benchmarks" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
