"""``make_bot(game, level, seed, turn_time=None)``: a ready-to-play agent for a person to play against.

========  ======================================================================================
level     agent
========  ======================================================================================
random    uniformly random legal actions
easy      greedy with noise (one ply, the game's evaluation plus a Gaussian error): fast
medium    greedy (one ply, the game's evaluation): fast
hard      the game's turn planner, 2 s a turn: whole turns by beam search, the best looked ahead
          (its AI kit's ``planner``: :mod:`builders.ai.kit`; a game without one gets the search,
          ``builders.ai.mcts``, with the same time)
expert    the same with 10 s a turn (the game's planner at its expert settings)
========  ======================================================================================

The time of hard and expert covers the seat's whole turn (every action until the end of the turn): a
planner spends it on the turn's first decision and plays the rest of its plan. ``turn_time`` sets another. The search
(``builders.ai.mcts``, the hard level before the planners) stays an agent of its own.
"""

from __future__ import annotations

from builders.ai.greedy import GreedyAgent
from builders.ai.kit import kit
from builders.ai.mcts import MCTSAgent
from builders.core.agents import Agent, RandomAgent
from builders.core.errors import BuildersError
from builders.core.games import game_names

LEVELS = ("random", "easy", "medium", "hard", "expert")
#: the noise of the easy level, in units of the game's win scale
EASY_NOISE = 0.6
#: seconds for a whole turn of the searching levels
TURN_TIME = {"hard": 2.0, "expert": 10.0}
#: the longest turn time a bot accepts (seconds)
MAX_TURN_TIME = 600.0


class BotError(BuildersError, ValueError):
    """A bot that cannot be made: an unknown game or level, or a turn time out of range."""


def check_turn_time(turn_time: object) -> float:
    """``turn_time`` as seconds, or BotError saying why it is not a usable turn time."""
    if isinstance(turn_time, bool) or not isinstance(turn_time, (int, float)):
        raise BotError(f"turn time must be a number of seconds, not {turn_time!r}")
    t = float(turn_time)
    if not t > 0 or t != t:
        raise BotError(f"turn time must be positive, not {turn_time!r}")
    if t > MAX_TURN_TIME:
        raise BotError(f"turn time must be at most {MAX_TURN_TIME:g} seconds, not {turn_time!r}")
    return t


def make_planner(seed: int | None, level: str, turn_time: float, game: str, **options) -> Agent:
    """The turn planner of ``game`` at ``level`` (hard or expert) with ``turn_time`` seconds a
    turn; ``options`` (the options its kit's ``planner_options`` name) replace the level's settings.
    A game whose kit has no planner gets the search with ``turn_time`` a turn."""
    planner = kit(game).planner
    if planner is None:
        return MCTSAgent(seed, time_limit=None, turn_time=turn_time, weights=options.get("weights"))
    agent: Agent = planner(seed, level, turn_time, **options)
    return agent


def make_bot(game: str, level: str, seed: int | None = None, turn_time: float | None = None) -> Agent:
    """An agent for ``game`` (a registered game) at ``level`` (random, easy, medium, hard,
    expert).

    The agent decides from what ``state.current_player`` may know. ``turn_time`` (seconds, more
    than 0 and at most 600) is the time of a whole turn of the hard and expert levels (default 2 and
    10); the other levels take no time worth counting and ignore it. Raises BotError (a ValueError)
    for an unknown game or level or a turn time out of range.
    """
    if game not in game_names():
        raise BotError(f"unknown game {game!r} (choose from {', '.join(game_names())})")
    if level not in LEVELS:
        raise BotError(f"unknown level {level!r} (choose from {', '.join(LEVELS)})")
    if turn_time is not None:
        turn_time = check_turn_time(turn_time)
    agent: Agent
    if level == "random":
        agent = RandomAgent(seed)
    elif level == "easy":
        agent = GreedyAgent(seed, noise=EASY_NOISE)
    elif level == "medium":
        agent = GreedyAgent(seed)
    else:
        agent = make_planner(seed, level, turn_time if turn_time is not None else TURN_TIME[level], game)
    agent.name = level
    return agent
