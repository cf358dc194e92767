"""Computer players for every registered game, and the factory the server and the command line use."""

from __future__ import annotations

from builders.ai.agents import AgentSpec, parse_agent, parse_agents
from builders.ai.factory import LEVELS, make_bot
from builders.ai.greedy import GreedyAgent
from builders.ai.mcts import MCTSAgent

__all__ = ["LEVELS", "AgentSpec", "GreedyAgent", "MCTSAgent", "make_bot", "parse_agent", "parse_agents"]
