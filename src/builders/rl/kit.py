"""What the environments need of one game: its RL kit, named by the game's plugin (``rl``).

A kit brings the game's codec (observations, the index of each action, the mask, the drawing) and how
indices make engine actions; the environments (PettingZoo, Gymnasium, the benchmark) call nothing else
of a game. A game without a kit has no environment.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from builders.core.errors import RecordError
from builders.core.games import game_names
from builders.core.plugins import part
from builders.rl.encoding import Layout


def _probe_draws(st: Any, action: Any) -> int:
    """The chance draws ``action`` makes in ``st``, found on a copy."""
    from builders.core.state import Chance

    probe = st.copy()
    before = len(probe.history)
    probe.apply(action)
    return sum(isinstance(e, Chance) for e in probe.history[before:])


def _no_cut(st: Any) -> list[int]:
    raise ValueError("a game whose rules bound its length is never cut")


@dataclass(frozen=True)
class SpielParts:
    """One game's parts of the OpenSpiel game (:mod:`builders.rl.openspiel`): its chance nodes (every
    draw is one, its outcomes the cards that can come) and its bounds."""

    long_name: str
    #: ``max_length(players, params)``: the most player decisions of a game
    max_length: Callable[[int, dict[str, Any]], int]
    max_chance_outcomes: int
    #: the text of a chance outcome
    outcome_string: Callable[[int], str]
    #: ``pool(state, pending action, outcomes drawn so far)``: a Counter of the outcomes of the next draw
    pool: Callable[[Any, Any, list[int]], Any]
    #: ``apply_chance(state, pending action, outcomes drawn)``: plays the pending action once the
    #: outcomes are all its draws (True), else False
    apply_chance: Callable[[Any, Any, list[int]], bool]
    #: ``draws(state, action)``: how many chance draws the action makes (default: found on a copy)
    draws: Callable[[Any, Any], int] = _probe_draws
    #: the winners of a game cut before its end (a game whose kit is not ``bounded``)
    cut_winners: Callable[[Any], list[int]] = _no_cut


@dataclass(frozen=True)
class RlKit:
    """One game's parts of the environments."""

    #: the codec of a game of ``num_players`` (a :class:`~builders.rl.encoding.Layout` with ``game``,
    #: ``num_actions``, ``mask``, ``needs_more``, ``describe``, ``why_not``, ``new_state``, ``render``,
    #: ``render_rgb`` and ``score_margins``)
    codec: Callable[[int], Layout]
    #: the engine action the indices of a whole pick make
    index_to_action: Callable[[Sequence[int]], Any]
    #: the indices that play a whole engine action (one, or a pick of several)
    action_to_index: Callable[[Any], tuple[int, ...]]
    #: whether the rules bound a game's length (else the environments cut it after ``max_rounds``)
    bounded: bool = True
    #: the Gymnasium id of its single-learner environment (None: not registered)
    solo_id: str | None = None
    #: its parts of the OpenSpiel game (None: not registered with OpenSpiel)
    spiel: SpielParts | None = None
    #: the native core's state of an engine state (None: the game's native core is not built)
    to_native: Callable[[Any], Any] | None = None


def rl_games() -> list[str]:
    """The registered games that have an RL kit."""
    return [g for g in game_names() if part(g, "rl") is not None]


def rl_kit(game: str) -> RlKit:
    """The RL kit of the game ``game``; ValueError for an unknown game or one without a kit."""
    try:
        found = part(game, "rl")
    except RecordError:
        found = None
    if found is None:
        raise ValueError(f"unknown game {game!r} (choose from {', '.join(rl_games())})")
    return found
