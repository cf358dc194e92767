"""Position evaluations of every game, through its AI kit (:mod:`builders.ai.kit`): per-seat
estimates of final points, read from the public part of a position only (never a hidden card or a
deck order).

``values(state)`` gives one number per seat in the game's points. ``win_values(state)`` turns them
into per-seat values in [0, 1] (the chance of winning, as a logistic of the lead over the best other
seat); a finished game gives its true returns.
"""

from __future__ import annotations

import math

from builders.ai.kit import kit
from builders.core.state import GameState


def values(state: GameState, turn_over: int | None = None, weights=None) -> list[float]:
    """Per-seat estimates of the final points of ``state`` (public information only), by the game's
    evaluation.

    ``weights`` (an agent's own weights of the evaluation, from the kit's ``weights``) replaces the
    evaluation's own; a game without weights refuses them (ValueError).

    ``turn_over`` (the turn planners' valuation): the seat whose turn is complete in ``state`` (it is
    about to play its end of turn), or -1 for none; a game's evaluation may value its last round
    exactly with it (the kit's ``values`` says)."""
    return kit(state.GAME).values(state, turn_over, weights)


def advantages(state: GameState, turn_over: int | None = None, weights=None) -> list[float]:
    """Per seat: its value minus the best value of the other seats (``turn_over``, ``weights``: see
    ``values``)."""
    v = values(state, turn_over, weights)
    out = []
    for p, mine in enumerate(v):
        best = max(x for q, x in enumerate(v) if q != p)
        out.append(mine - best)
    return out


def win_value(state: GameState, advantage: float, scale: float | None = None, weights=None) -> float:
    """The win value in [0, 1] of a seat of the unfinished ``state`` whose lead over the best other
    seat is ``advantage``: a logistic of the lead, kept the kit's ``win_margin`` (``end_margin`` once
    the end is triggered) away from 0 and 1; in a very long game whose end is not triggered, times a factor
    that falls round by round (the kit's ``late_factor``, of the agent's ``weights``: see ``values``). The
    scale and margins are the game's kit's (a game that may go on for ever keeps a margin, so that a won
    game that ends is worth more than the same lead kept)."""
    k = kit(state.GAME)
    x = advantage / (scale or k.win_scale)
    w = 1.0 / (1.0 + math.exp(-x)) if x > -30 else 0.0
    if k.end_triggered(state):
        margin, factor = k.end_margin, 1.0
    else:
        margin, factor = k.win_margin, k.late_factor(state, weights)
    if margin:
        w = margin + (1.0 - 2.0 * margin) * w
    return w * factor


def win_values(state: GameState, scale: float | None = None, weights=None) -> list[float]:
    """Per-seat values in [0, 1]: the true returns of a finished game, else :func:`win_value` of
    each seat's lead over the best other seat (``weights``: see ``values``)."""
    if state.is_over():
        return state.returns()
    return [win_value(state, a, scale, weights) for a in advantages(state, None, weights)]


def win_scale(game: str) -> float:
    """The logistic scale of the win values of ``game``, in its points."""
    return kit(game).win_scale


def move_values(state: GameState, actions: list, weights=None) -> list[float] | None:
    """A cheap value of each of ``actions`` for the player to move (higher first), or None when the
    game has no move heuristic (the search then orders actions by the full evaluation); ``weights``
    (the kit's ``weights``) replaces the heuristic's own."""
    found = kit(state.GAME).move_values
    if found is None:
        return None
    return found(state, actions) if weights is None else found(state, actions, weights)


def decision_key(state: GameState):
    """What, besides the actions that led to a position, decides its legal actions (the game's kit
    says: in a game of cards, the cards in view); None when the game does not say."""
    found = kit(state.GAME).decision_key
    return None if found is None else found(state)
