"""Bot moves, computed away from the server's event loop.

A bot move is a pure function of the game record, the level and a seed: :func:`choose_turn`
replays the record and asks the agent for the action of the seat to move, returning its notation
(and, for an agent that plans whole turns, the notations of the rest of its plan for the turn).
It runs in a pool of worker processes of the server (the default: a strong bot thinks for seconds
of pure-Python CPU time, which must not hold the server's interpreter; the processes run at a lower
priority than the server, so that people's actions are answered first), in a thread, or inline
(cheap bots in tests). With a job queue (:class:`builders.server.jobs.JobQueue`, when the server has
Redis) the decision is a job for the ``builders worker`` processes while one is alive, and the pool
computes it when none is, or when the job is lost.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
from collections.abc import Callable
from concurrent.futures import BrokenExecutor, Executor, ProcessPoolExecutor, ThreadPoolExecutor
from typing import Any

from builders.core.agents import Agent, RandomAgent
from builders.core.record import replay

#: the priority (nice) of the bots' worker processes, below the server's own
BOT_NICE = 5

AgentFactory = Callable[[str, str, int], Agent]


def make_agent(game: str, level: str, seed: int) -> Agent:
    """The project's bot for ``level`` (a random player while :mod:`builders.ai` is not installed)."""
    try:
        from builders.ai import make_bot
    except ImportError:
        return RandomAgent(seed)
    return make_bot(game, level, seed)


def random_agent(game: str, level: str, seed: int) -> Agent:
    """A random player whatever the level: the cheap bot of tests and benchmarks."""
    return RandomAgent(seed)


def choose_action(record: dict[str, Any], level: str, seed: int,
                  factory: AgentFactory | None = None) -> str:
    """The notation of the action the bot of ``level`` plays in the last position of ``record``."""
    return choose_turn(record, level, seed, factory)[0]


def choose_turn(record: dict[str, Any], level: str, seed: int,
                factory: AgentFactory | None = None) -> list[str]:
    """The notation of the action the bot of ``level`` plays in the last position of ``record``,
    then those its plan plays after it in the same turn without a new decision (an agent with
    ``planned``: the hard and expert levels plan whole turns; none for the others)."""
    state = replay(record)
    agent = (factory or make_agent)(record["game"], level, seed)
    try:
        action = agent.act(state)
        first = state.action_to_string(state.parse_action(state.action_to_string(action)))
    except Exception:  # a faulty bot must not stall the game: fall back to a random legal action
        actions = state.legal_actions()
        return [state.action_to_string(actions[seed % len(actions)])]
    out = [first]
    planned = getattr(agent, "planned", None)
    if planned is not None:
        try:
            rest = planned(state, action)
            state.apply(action)
            for a in rest:
                out.append(state.action_to_string(a))
                state.apply(a)
        except Exception:  # the rest is only a shortcut: the server asks again
            pass
    return out


def _watch_parent(parent: int) -> None:
    """In a worker process: exit as soon as the server process is gone (even killed with SIGKILL),
    so that no worker outlives it."""
    import os
    import threading
    import time

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(0)

    threading.Thread(target=watch, daemon=True, name="parent-watch").start()


def _bot_process(parent: int) -> None:
    """In a bot worker process: exit with the server, and yield the CPU to it."""
    _watch_parent(parent)
    try:
        os.nice(BOT_NICE)
    except OSError:
        pass


class BotRunner:
    """Runs :func:`choose_action` in ``mode``: "process" (default: a pool of ``workers`` processes),
    "thread" or "inline"; with ``jobs`` (a :class:`builders.server.jobs.JobQueue`), as a job on the
    queue while a worker is alive."""

    def __init__(self, mode: str = "process", factory: AgentFactory | None = None, workers: int = 1,
                 jobs: Any = None):
        if mode not in ("process", "thread", "inline"):
            raise ValueError(f"bot mode must be process, thread or inline, not {mode!r}")
        if mode == "process" and factory is not None and "<" in getattr(factory, "__qualname__", "<"):
            raise ValueError("in the process bot mode the agent factory must be a module-level function")
        self.mode = mode
        self.factory = factory
        self.workers = workers
        self.jobs = jobs
        self._executor: Executor | None = None

    def _pool(self) -> Executor:
        if self._executor is None:
            if self.mode == "process":
                self._executor = ProcessPoolExecutor(
                    max_workers=self.workers, mp_context=multiprocessing.get_context("spawn"),
                    initializer=_bot_process, initargs=(os.getpid(),))
            else:
                self._executor = ThreadPoolExecutor(max_workers=self.workers)
        return self._executor

    async def choose(self, record: dict[str, Any], level: str, seed: int) -> str:
        """The notation of the bot's action."""
        return (await self.choose_turn(record, level, seed))[0]

    async def choose_turn(self, record: dict[str, Any], level: str, seed: int) -> list[str]:
        """The bot's action and the ones its plan plays after it in the turn (:func:`choose_turn`)."""
        if self.jobs is not None:
            texts = await self.jobs.bot_turn(record, level, seed)
            if texts:
                return texts
        if self.mode == "inline":
            return choose_turn(record, level, seed, self.factory)
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self._pool(), choose_turn, record, level, seed, self.factory)
        except BrokenExecutor:  # a worker died (killed, out of memory): start a new pool once
            self.close()
            return await loop.run_in_executor(self._pool(), choose_turn, record, level, seed, self.factory)

    def close(self) -> None:
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None
