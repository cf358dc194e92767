"""What the generic agents need of one game: its AI kit, named by the game's plugin (``ai``).

The agents (greedy, the search, the bot levels, tournaments) play every game through the protocol and
call a game's kit for what differs: the evaluation, the win scale and margins, the move heuristic and
decision key of the search, the split of a turn's time, the turn planner of the hard and expert
levels and its options, and the calibration of the analysis. A game without a kit (or a part left
unset) gets the defaults: an evaluation that knows only finished games, no move heuristic, a turn of
one decision, and the search (MCTS) as its planner.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields, replace
from typing import Any

from builders.core.plugins import part
from builders.core.state import GameState


def _returns(state: GameState, turn_over: int | None = None, weights: Any = None) -> list[float]:
    """The true returns of a finished game, else an even estimate (no evaluation of its own)."""
    if weights is not None:
        raise ValueError(f"weights of the evaluation are not {state.GAME}'s")
    return state.returns() if state.is_over() else [0.0] * state.num_players


def _one_decision(state: GameState) -> tuple[float, float, float]:
    return 1.0, 1.0, 1.0


@dataclass(frozen=True)
class AiKit:
    """One game's parts of the agents (each optional; see the module docstring)."""

    #: ``values(state, turn_over=None, weights=None)``: per-seat estimates of the final points
    values: Callable[..., list[float]] = _returns
    #: ``weights(overrides)``: an agent's own weights of the evaluation, checked (ValueError); None:
    #: the evaluation has no weights of an agent's own
    weights: Callable[..., Any] | None = None
    #: the logistic scale of the win values, in the game's points
    win_scale: float = 1.0
    #: the win values of a game going on stay this far from 0 and 1 ...
    win_margin: float = 0.0
    #: ... and this far once its end is triggered (``end_triggered``)
    end_margin: float = 0.0
    end_triggered: Callable[[GameState], bool] = lambda state: False
    #: ``late_factor(state, settings=None)``: the factor of the win values of a very long game whose
    #: end is not triggered (``settings``: an agent's, from the kit's ``weights``; None: the defaults)
    late_factor: Callable[..., float] = lambda state, settings=None: 1.0
    #: ``move_values(state, actions)``: a cheap value of each action (None: no move heuristic); a kit
    #: with ``weights`` takes an agent's too: ``move_values(state, actions, settings)``
    move_values: Callable[..., list[float]] | None = None
    #: what, besides the actions that led to a position, decides its legal actions (None: unknown)
    decision_key: Callable[[GameState], Any] | None = None
    #: ``(this, rest, total)`` of the decision of the player to move (``builders.ai.budget``)
    turn_share: Callable[[GameState], tuple[float, float, float]] = _one_decision
    #: ``planner(seed, level, turn_time, **options)``: the agent of the hard and expert levels
    #: (None: the search, ``builders.ai.mcts``)
    planner: Callable[..., Any] | None = None
    #: the options of ``builders.ai.agents`` this game's planner takes (the others are refused)
    planner_options: tuple[str, ...] = ()
    #: whose options they are, in refusals ("option beam of plan is not one of Pig's")
    options_owner: str | None = None
    #: a further check of a spec's planner options (ValueError saying what is wrong)
    check_planner: Callable[[str, Mapping[str, Any]], None] | None = None
    #: the search's defaults: exploration ``c``, ``scale``, ``widen`` and root ``top``
    search: Mapping[str, Any] = field(default_factory=lambda: {"c": 0.5, "scale": 1.0, "widen": 2.0, "top": 0})
    #: ``native_search(weights)``: the game's own arguments of the native core's search tree
    #: (``state.mcts_tree``) for an agent with these evaluation weights (the kit's settings object,
    #: or None): a tuple, or None where the core cannot search with them; None (the field): the core
    #: has no search of this game (``builders.ai.mcts_native``)
    native_search: Callable[[Any], tuple[Any, ...] | None] | None = None
    #: estimator -> (a, b): the calibration map of the analysis's win chances (none: shown raw)
    calibration: Mapping[str, tuple[float, float]] = field(default_factory=dict)


#: the kit of a game whose plugin names none
DEFAULT = AiKit()


def check_weights(weights: Mapping[str, float]) -> None:
    """ValueError unless the evaluation of some registered game has these weights of an agent's own
    (the first such game's reason)."""
    from builders.core.games import game_names

    reasons = []
    for game in game_names():
        check = kit(game).weights
        if check is None:
            continue
        try:
            check(weights)
            return
        except ValueError as e:
            reasons.append(e)
    if reasons:
        raise reasons[0]
    raise ValueError("no game's evaluation has weights of an agent's own")


def numbers_of(settings: Any, names: tuple[str, ...], cache: dict[Any, list[float]]) -> list[float]:
    """The values of ``settings`` named by ``names``, in that order, as floats: the weights a native
    core takes. Kept in ``cache`` (a few settings objects; emptied when it holds 16)."""
    found = cache.get(settings)
    if found is None:
        if len(cache) >= 16:
            cache.clear()
        found = cache[settings] = [float(getattr(settings, name)) for name in names]
    return found


def settings_with(default: Any, overrides: Any, owner: str, check: Callable[[str, Any], None]) -> Any:
    """A game's settings (``default``, a frozen dataclass whose fields are the settings' names) with
    ``overrides`` (name -> value) instead, each value checked by ``check(name, value)``; a settings
    object of that class is returned as it is. ValueError for another name, object or value."""
    cls = type(default)
    if isinstance(overrides, cls):
        return overrides
    if overrides is not None and not isinstance(overrides, Mapping):
        raise ValueError(f"settings of {type(overrides).__name__} are not {owner}")
    over = dict(overrides or {})
    names = [f.name for f in fields(cls)]
    unknown = sorted(set(over) - set(names), key=str)
    if unknown:
        raise ValueError(f"unknown weight {', '.join(map(str, unknown))} (choose from {', '.join(names)})")
    for name, value in over.items():
        check(name, value)
    return replace(default, **over) if over else default


def kit(game: str) -> AiKit:
    """The AI kit of the game registered as ``game`` (RecordError for an unknown game)."""
    found = part(game, "ai")
    return DEFAULT if found is None else found
