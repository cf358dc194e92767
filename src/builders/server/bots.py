"""Bot moves, computed away from the server's event loop.

A bot move is a pure function of the game record, the level and a seed: :func:`choose_turn`
replays the record and asks the agent for the action of the seat to move, returning its notation
(and, for an agent that plans whole turns, the notations of the rest of its plan for the turn).
It runs in the play lane of the server's pool of worker processes (:mod:`builders.server.workers`:
a strong bot thinks for seconds of pure-Python CPU time, which must not hold the server's
interpreter), on threads, or inline (cheap bots in tests). With a job queue (:class:`builders.server.jobs.JobQueue`, when the server has
Redis) the decision is a job for the ``builders worker`` processes while one is alive, and the pool
computes it when none is, or when the job is lost.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from builders.core.agents import Agent, RandomAgent
from builders.core.record import replay
from builders.server.workers import MODES, PLAY, WorkerPool

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


def choose_action(record: dict[str, Any], level: str, seed: int, factory: AgentFactory | None = None) -> str:
    """The notation of the action the bot of ``level`` plays in the last position of ``record``."""
    return choose_turn(record, level, seed, factory)[0]


def choose_turn(record: dict[str, Any], level: str, seed: int, factory: AgentFactory | None = None) -> list[str]:
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


def prepare_worker() -> None:
    """In a new worker process: import the bots and the search now, so that the first bot move or
    hint does not wait for them."""
    try:
        import builders.ai.analysis  # noqa: F401
    except ImportError:
        pass


class BotRunner:
    """Runs :func:`choose_turn` on ``pool`` (a :class:`builders.server.workers.WorkerPool`, in its
    play lane), or on a pool of its own of ``workers`` in ``mode`` ("process", the default, "thread"
    or "inline"); with ``jobs`` (a :class:`builders.server.jobs.JobQueue`), as a job on the queue
    while a worker is alive."""

    def __init__(
        self,
        mode: str = "process",
        factory: AgentFactory | None = None,
        workers: int = 1,
        jobs: Any = None,
        pool: WorkerPool | None = None,
    ):
        if pool is not None:
            mode = pool.mode
        if mode not in MODES:
            raise ValueError(f"bot mode must be process, thread or inline, not {mode!r}")
        if mode == "process" and factory is not None and "<" in getattr(factory, "__qualname__", "<"):
            raise ValueError("in the process bot mode the agent factory must be a module-level function")
        self.mode = mode
        self.factory = factory
        self.jobs = jobs
        #: whether the pool is this runner's own (``close`` ends it) or shared (its owner ends it)
        self._own = pool is None
        self.pool = pool if pool is not None else WorkerPool(workers, mode, background=0)

    async def choose(self, record: dict[str, Any], level: str, seed: int) -> str:
        """The notation of the bot's action."""
        return (await self.choose_turn(record, level, seed))[0]

    async def choose_turn(self, record: dict[str, Any], level: str, seed: int) -> list[str]:
        """The bot's action and the ones its plan plays after it in the turn (:func:`choose_turn`)."""
        if self.jobs is not None:
            texts = await self.jobs.bot_turn(record, level, seed)
            if texts:
                return texts
        return await self.pool.run(PLAY, choose_turn, record, level, seed, self.factory)

    def close(self) -> None:
        if self._own:
            self.pool.close()
