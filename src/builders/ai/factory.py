"""``make_bot(game, level, seed)``: a ready-to-play agent for a person to play against.

========  ======================================================================================
level     agent
========  ======================================================================================
random    uniformly random legal actions
easy      greedy with noise (one ply, the game's evaluation plus a Gaussian error): fast
medium    greedy (one ply, the game's evaluation): fast
hard      mcts, about ``time_limit`` seconds a decision (default 1)
========  ======================================================================================
"""

from __future__ import annotations

from builders.ai.greedy import GreedyAgent
from builders.ai.mcts import MCTSAgent
from builders.core.agents import Agent, RandomAgent

GAMES = ("kingdom", "middle-ages")
LEVELS = ("easy", "medium", "hard", "random")
#: the noise of the easy level, in units of the game's win scale
EASY_NOISE = 0.6


def make_bot(game: str, level: str, seed: int | None = None, time_limit: float = 1.0) -> Agent:
    """An agent for ``game`` ("kingdom" or "middle-ages") at ``level`` (easy, medium, hard, random).

    The agent decides from what ``state.current_player`` may know. ``time_limit`` is the time per
    decision of the hard level, in seconds. Raises ValueError for an unknown game or level.
    """
    if game not in GAMES:
        raise ValueError(f"unknown game {game!r} (choose from {', '.join(GAMES)})")
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r} (choose from {', '.join(LEVELS)})")
    if not time_limit > 0:
        raise ValueError(f"time limit must be positive, not {time_limit!r}")
    agent: Agent
    if level == "random":
        agent = RandomAgent(seed)
    elif level == "easy":
        agent = GreedyAgent(seed, noise=EASY_NOISE)
    elif level == "medium":
        agent = GreedyAgent(seed)
    else:
        agent = MCTSAgent(seed, time_limit=time_limit)
    agent.name = level
    return agent
