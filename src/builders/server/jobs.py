"""Bot moves, hints and analyses as jobs on a Redis queue, computed by ``builders worker`` processes.

With ``--redis URL`` a server hands the bots' decisions and the post-game analyses to the job
library `arq <https://arq-docs.helpmanual.io/>`_ (asyncio and Redis, like the server itself) as
long as at least one worker is alive (a worker renews its health key on Redis every
:data:`HEALTH_SECONDS`); without a live worker, or without Redis, the server computes them in its
own pool of processes (:mod:`builders.server.workers`).

A worker only computes: the notation of the action the bot of a level plays in the last position of
a record (:func:`builders.server.bots.choose_action`), the hint for a seat there
(:func:`builders.server.analysis.hint_from_record`: its planner too gets only positions drawn from
what the seat may see), or the analysis of a finished record. The
server stays the truth: it applies the notation through the same path as every move, under the
game's version check, in the one process that holds the lease (:mod:`builders.server.cluster`), so a
result that arrives twice (a retried job) plays one move. A job's id is a hash of its input, so two
servers asking for the same decision share one job.

Lost jobs:

- **A worker dies in the middle of a job** (killed, its machine gone): the job stays in the queue and
  arq runs it again on another worker (or the same one after a restart) once the dead worker's claim
  on it has expired: ``--job-timeout`` plus :data:`CLAIM_MARGIN` seconds after it started.
- **No worker left, Redis gone, or the job lost from Redis**: the server notices within about
  :data:`NO_WORKER_GRACE` seconds and computes the move itself (its embedded pool) and takes the
  job off the queue.
- **Deadline**: a bot move not back after ``BUILDERS_BOT_JOB_DEADLINE`` seconds (default
  :data:`BOT_DEADLINE`) is computed by the server itself too, so a game never waits forever. An
  analysis whose progress has not moved for :data:`ANALYSIS_STALL` seconds is the server's too.

Jobs and results are JSON on Redis (never pickles): a worker cannot be made to run code by what it
reads from the queue, and neither can the server.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import os
import signal
import socket
import time
from typing import Any, Awaitable, Callable

from builders.server.workers import BACKGROUND, PLAY, WorkerDied, WorkerPool

log = logging.getLogger("builders.server")

#: the queue of bot decisions and the queue of analyses
BOT_QUEUE = "builders:bots"
ANALYSIS_QUEUE = "builders:analyses"
#: the health key of a queue is renewed by its workers this often (seconds); it lives one more second
HEALTH_SECONDS = 1.0
#: how long (seconds) no worker may be alive while the server waits for a job before it computes
#: itself: longer than a worker takes to start again
NO_WORKER_GRACE = 10.0
#: a bot move not back after this many seconds is computed by the server (BUILDERS_BOT_JOB_DEADLINE)
BOT_DEADLINE = 60.0
#: an analysis whose progress has not moved for this many seconds is run by the server
ANALYSIS_STALL = 120.0
#: a worker's claim on a job lasts its timeout plus this (then another worker runs it again)
CLAIM_MARGIN = 2.0
#: the default longest run of one job on a worker (seconds): bots, analyses
BOT_JOB_TIMEOUT = 20.0
ANALYSIS_JOB_TIMEOUT = 3600.0
#: how often the server looks for a job's result (seconds)
POLL_SECONDS = 0.05
#: how long a result stays on Redis (seconds)
KEEP_RESULT = 600
#: the key of an analysis's progress ("done/total")
PROGRESS_KEY = "builders:analysis-progress:"


def _dumps(data: Any) -> bytes:
    return json.dumps(data, separators=(",", ":")).encode()


def _loads(raw: bytes) -> Any:
    return json.loads(raw)


def job_id(kind: str, *parts: Any) -> str:
    """The id of a job: its kind and a hash of its input (the same input is the same job)."""
    digest = hashlib.sha256(json.dumps(parts, sort_keys=True, separators=(",", ":")).encode()).hexdigest()
    return f"{kind}:{digest[:32]}"


def shown(url: str) -> str:
    """A Redis URL without its password."""
    scheme, sep, rest = url.partition("://")
    return f"{scheme}{sep}{rest.split('@')[-1]}" if sep else url


class JobLost(Exception):
    """The job will not come back: no live worker, Redis unreachable, past the deadline, or gone."""


# -- the server's side ----------------------------------------------------------------------------
class JobQueue:
    """A server's connection to the job queue on ``redis_url``.

    ``deadline`` is the longest wait for a bot move (seconds; default ``BUILDERS_BOT_JOB_DEADLINE``
    or :data:`BOT_DEADLINE`). ``stats`` counts what happened: jobs queued, results received, results
    of a job run again after its worker died (``retried``), moves or analyses the server computed
    itself after a lost job (``fallbacks``) and because no worker was alive (``local``).
    """

    def __init__(
        self,
        redis_url: str,
        deadline: float | None = None,
        poll: float = POLL_SECONDS,
        stall: float = ANALYSIS_STALL,
        no_worker_grace: float = NO_WORKER_GRACE,
    ):
        self.redis_url = redis_url
        self.deadline = (
            deadline if deadline is not None else float(os.environ.get("BUILDERS_BOT_JOB_DEADLINE") or BOT_DEADLINE)
        )
        self.poll = poll
        self.stall = stall
        self.no_worker_grace = no_worker_grace
        self.stats = {"queued": 0, "results": 0, "retried": 0, "fallbacks": 0, "local": 0}
        self._pool: Any = None
        self._alive: dict[str, tuple[float, bool]] = {}
        self._lock: asyncio.Lock | None = None
        #: the jobs waited for -> their waiters; one task looks their results up
        self._waiting: dict[str, list[asyncio.Future]] = {}
        self._poller: asyncio.Task | None = None

    async def _redis(self) -> Any:
        if self._pool is None:
            from arq import create_pool
            from arq.connections import RedisSettings

            if self._lock is None:
                self._lock = asyncio.Lock()
            async with self._lock:
                if self._pool is None:
                    settings = RedisSettings.from_dsn(self.redis_url)
                    settings.conn_retries = 0
                    settings.conn_timeout = 2
                    self._pool = await create_pool(
                        settings, job_serializer=_dumps, job_deserializer=_loads, default_queue_name=BOT_QUEUE
                    )
        return self._pool

    async def close(self) -> None:
        if self._poller is not None:
            self._poller.cancel()
            self._poller = None
        if self._pool is not None:
            pool, self._pool = self._pool, None
            try:
                await pool.aclose()
            except Exception:
                pass

    async def alive(self, queue: str) -> bool:
        """Whether a worker of ``queue`` renewed its health key lately (looked up at most every 0.5 s)."""
        now = time.monotonic()
        known = self._alive.get(queue)
        if known is not None and now - known[0] < 0.5:
            return known[1]
        try:
            redis = await self._redis()
            found = bool(await redis.exists(queue + ":health-check"))
        except Exception:
            found = False
        self._alive[queue] = (now, found)
        return found

    async def _submit(self, queue: str, function: str, jid: str, *args: Any, expires: float | None) -> Any:
        from arq.jobs import Job

        redis = await self._redis()
        job = await redis.enqueue_job(function, *args, _job_id=jid, _queue_name=queue, _expires=expires)
        if job is None:  # the same job is queued or done already (another server asked for it): share it
            job = Job(jid, redis, _queue_name=queue, _deserializer=_loads)
        else:
            self.stats["queued"] += 1
        return job

    async def _poll_results(self) -> None:
        """Look up the results of every job waited for, in one round trip each :attr:`poll` seconds."""
        from arq.constants import result_key_prefix

        while self._waiting:
            ids = list(self._waiting)
            try:
                values = await (await self._redis()).mget([result_key_prefix + jid for jid in ids])
            except Exception:
                values = [None] * len(ids)
                await asyncio.sleep(0.5)
            for jid, raw in zip(ids, values):
                if raw is not None:
                    for waiter in self._waiting.pop(jid, []):
                        if not waiter.done():
                            waiter.set_result(raw)
            await asyncio.sleep(self.poll)

    async def _wait(self, job: Any, queue: str, give_up: Callable[[], Awaitable[str | None]]) -> Any:
        """The result of ``job``; JobLost when it will not come (``give_up`` says why, or None)."""
        from arq.jobs import JobStatus, deserialize_result

        waiter = asyncio.get_running_loop().create_future()
        self._waiting.setdefault(job.job_id, []).append(waiter)
        if self._poller is None or self._poller.done():
            self._poller = asyncio.get_running_loop().create_task(self._poll_results())
        missing_since: float | None = None
        try:
            while True:
                try:
                    raw = await asyncio.wait_for(asyncio.shield(waiter), 1.0)
                    break
                except asyncio.TimeoutError:
                    pass
                # every second: is the job still there, is a worker alive, is it time to give up
                now = time.monotonic()
                if await job.status() == JobStatus.not_found and await job.result_info() is None:
                    raise JobLost("the job is gone from Redis")
                if await self.alive(queue):
                    missing_since = None
                elif missing_since is None:
                    missing_since = now
                elif now - missing_since >= self.no_worker_grace:
                    raise JobLost(f"no worker has been alive for {self.no_worker_grace:g} s")
                why = await give_up()
                if why:
                    raise JobLost(why)
        finally:
            waiting = self._waiting.get(job.job_id)
            if waiting is not None and waiter in waiting:
                waiting.remove(waiter)
                if not waiting:
                    del self._waiting[job.job_id]
        info = deserialize_result(raw, deserializer=_loads)
        if not info.success:
            raise JobLost(f"the job failed on its worker: {info.result}")
        self.stats["results"] += 1
        if info.job_try and info.job_try > 1:
            self.stats["retried"] += 1
        return info.result

    async def _drop(self, job: Any, queue: str) -> None:
        """Take a job the server computes itself off the queue (a worker that has it may finish it)."""
        try:
            await (await self._redis()).zrem(queue, job.job_id)
        except Exception:
            pass

    async def _job(
        self,
        queue: str,
        function: str,
        jid: str,
        args: tuple,
        expires: float | None,
        give_up: Callable[[], Awaitable[str | None]],
        what: str,
    ) -> Any:
        """The result of job ``jid`` (``function(*args)`` on ``queue``), or None when the server must
        compute ``what`` itself: no live worker, Redis failing, the job lost or ``give_up`` saying why."""
        try:
            if not await self.alive(queue):
                self.stats["local"] += 1
                return None
            job = await self._submit(queue, function, jid, *args, expires=expires)
        except Exception as e:
            log.warning("the job queue cannot be used (%s): the server computes %s", e, what)
            self.stats["fallbacks"] += 1
            return None
        try:
            return await self._wait(job, queue, give_up)
        except asyncio.CancelledError:
            raise
        except Exception as e:
            log.warning("job %s lost (%s): the server computes %s", jid, e, what)
            self.stats["fallbacks"] += 1
            await self._drop(job, queue)
            return None

    async def bot_move(self, record: dict[str, Any], level: str, seed: int) -> str | None:
        """The notation a worker's bot plays, or None when the server must compute it itself (no
        live worker, the job lost, past the deadline)."""
        texts = await self.bot_turn(record, level, seed)
        return texts[0] if texts else None

    async def bot_turn(self, record: dict[str, Any], level: str, seed: int) -> list[str] | None:
        """The notations a worker's bot plays (its action, then the rest of its plan for the turn:
        :func:`builders.server.bots.choose_turn`), or None as :meth:`bot_move`."""
        started = time.monotonic()

        async def past_deadline() -> str | None:
            if time.monotonic() - started > self.deadline:
                return f"no result after {self.deadline:g} s"
            return None

        result = await self._job(
            BOT_QUEUE,
            "bot_move",
            job_id("bot", record, level, seed),
            (record, level, seed),
            self.deadline,
            past_deadline,
            "the bot move",
        )
        if result is None:
            return None
        return [str(result["action"]), *(str(t) for t in result.get("then", ()))]

    async def hint(
        self, game_id: str, record: dict[str, Any], seat: int, seed: int, iterations: int
    ) -> dict[str, Any] | None:
        """A worker's hint for ``seat`` at the end of ``record``
        (:func:`builders.server.analysis.hint_from_record`), or None when the server must find it
        itself (as :meth:`bot_move`)."""
        started = time.monotonic()

        async def past_deadline() -> str | None:
            if time.monotonic() - started > self.deadline:
                return f"no result after {self.deadline:g} s"
            return None

        return await self._job(
            BOT_QUEUE,
            "hint",
            job_id("hint", game_id, record, seat, seed, iterations),
            (game_id, record, seat, seed, iterations),
            self.deadline,
            past_deadline,
            "the hint",
        )

    async def analysis(
        self,
        game_id: str,
        record: dict[str, Any],
        iterations: int,
        seed: int,
        progress: Callable[[int, int], Awaitable[None]],
    ) -> dict[str, Any] | None:
        """The analysis of a finished ``record`` by a worker (``builders.ai.analysis.Analysis.to_json()``
        and its number of decisions), reporting ``progress(done, total)`` as it goes; None when the
        server must run it itself."""
        jid = job_id("analysis", game_id, record, iterations, seed)
        seen = ["", time.monotonic()]

        async def stalled() -> str | None:
            text = await (await self._redis()).get(PROGRESS_KEY + jid)
            text = text.decode() if isinstance(text, bytes) else (text or "")
            now = time.monotonic()
            if text != seen[0]:
                seen[0], seen[1] = text, now
                if "/" in text:
                    done, total = text.split("/", 1)
                    await progress(int(done), int(total))
            elif now - seen[1] > self.stall:
                return f"no progress for {self.stall:g} s"
            return None

        return await self._job(
            ANALYSIS_QUEUE,
            "analysis",
            jid,
            (record, iterations, seed, PROGRESS_KEY + jid),
            None,
            stalled,
            "the analysis",
        )


# -- the worker's side ------------------------------------------------------------------------------
_child: dict[str, Any] = {}


def _child_start(redis_url: str) -> None:
    """In a compute process of a worker: keep the Redis URL for progress, import the bots now (not
    in the first job)."""
    from builders.server.bots import prepare_worker

    _child["redis_url"] = redis_url
    prepare_worker()


def _child_analysis(record: dict[str, Any], iterations: int, seed: int, key: str) -> dict[str, Any]:
    import redis

    from builders.ai.analysis import analyse

    client = redis.Redis.from_url(_child["redis_url"], socket_timeout=5)
    last = [0.0]

    def progress(done: int, total: int) -> None:
        now = time.monotonic()
        if now - last[0] >= 0.5 or done == total:
            last[0] = now
            try:
                client.set(key, f"{done}/{total}", ex=KEEP_RESULT)
            except redis.RedisError:
                pass

    progress(0, 1)
    result = analyse(record, iterations=iterations, seed=seed, progress=progress)
    return {"result": result.to_json(), "decisions": len(result.decisions)}


async def _compute(ctx: dict[str, Any], lane: str, fn: Any, *args: Any) -> Any:
    """``fn(*args)`` on the worker's pool of compute processes; a job whose process died twice goes
    back on the queue (arq runs it again)."""
    from arq.worker import Retry

    try:
        return await ctx["pool"].run(lane, fn, *args)
    except WorkerDied:
        raise Retry(defer=0) from None


async def bot_move(ctx: dict[str, Any], record: dict[str, Any], level: str, seed: int) -> dict[str, Any]:
    """The job of a bot decision: the notation of the action, those the bot's plan plays after it in
    the turn, and who computed it."""
    from builders.server.bots import choose_turn

    texts = await _compute(ctx, PLAY, choose_turn, record, level, seed)
    return {"action": texts[0], "then": texts[1:], "worker": ctx["name"]}


async def hint(
    ctx: dict[str, Any], game_id: str, record: dict[str, Any], seat: int, seed: int, iterations: int
) -> dict[str, Any]:
    """The job of a hint (on the bots' queue: a player waits for it)."""
    from builders.server.analysis import hint_from_record

    found = await _compute(ctx, PLAY, hint_from_record, game_id, record, seat, seed, iterations)
    return {**found, "worker": ctx["name"]}


async def analysis(ctx: dict[str, Any], record: dict[str, Any], iterations: int, seed: int, key: str) -> dict[str, Any]:
    """The job of an analysis: the result and its number of decisions."""
    found = await _compute(ctx, BACKGROUND, _child_analysis, record, iterations, seed, key)
    return {**found, "worker": ctx["name"]}


def check_redis(redis_url: str) -> str | None:
    """Why ``redis_url`` cannot be used (one sentence), or None."""
    import redis

    if not redis_url.startswith(("redis://", "rediss://", "unix://")):
        return f"--redis must be a Redis URL (redis://host:port/db), not {redis_url!r}"
    try:
        redis.Redis.from_url(redis_url, socket_connect_timeout=3, socket_timeout=3).ping()
    except (redis.RedisError, ValueError, OSError) as e:
        return f"Redis at {shown(redis_url)} cannot be reached: {e}"
    return None


async def work(
    redis_url: str,
    processes: int,
    analyses: bool = True,
    job_timeout: float = BOT_JOB_TIMEOUT,
    analysis_timeout: float = ANALYSIS_JOB_TIMEOUT,
    ready: Callable[[], None] | None = None,
) -> None:
    """Consume the bot queue with ``processes`` compute processes (and the analysis queue with one
    more, if ``analyses``), one pool of them (:class:`builders.server.workers.WorkerPool`: bot
    moves and hints first), until SIGTERM or SIGINT."""
    from arq.connections import RedisSettings
    from arq.worker import Worker, func

    name = f"{socket.gethostname()}:{os.getpid()}"
    # as the server's own pool: people's bot moves and hints first, analyses in the background lane
    pool = WorkerPool(
        processes + (1 if analyses else 0),
        "process",
        background=1 if analyses else 0,
        initializer=_child_start,
        initargs=(redis_url,),
    )
    pool.warm()
    ctx: dict[str, Any] = {"name": name, "pool": pool}
    settings = RedisSettings.from_dsn(redis_url)
    common: dict[str, Any] = dict(
        redis_settings=settings,
        handle_signals=False,
        poll_delay=0.02,
        health_check_interval=HEALTH_SECONDS,
        keep_result=KEEP_RESULT,
        job_serializer=_dumps,
        job_deserializer=_loads,
        max_tries=5,
        log_results=False,
    )
    # hints go with the bot moves: a player waits for both
    players = [func(bot_move, name="bot_move", timeout=job_timeout), func(hint, name="hint", timeout=job_timeout)]
    queues: list[tuple[str, list[Any], float, int]] = [(BOT_QUEUE, players, job_timeout, processes)]
    if analyses:
        queues.append(
            (ANALYSIS_QUEUE, [func(analysis, name="analysis", timeout=analysis_timeout)], analysis_timeout, 1)
        )
    stop = asyncio.Event()

    async def consume(queue: str, functions: list[Any], timeout: float, jobs: int) -> None:
        """Run arq's worker on ``queue``; when Redis fails under it, wait and start it again."""
        while not stop.is_set():
            worker = Worker(functions, queue_name=queue, max_jobs=jobs, job_timeout=timeout, ctx=ctx, **common)
            # a dead worker's claim on a job lasts the job's timeout and a little more (arq's default
            # margin is ten seconds): a job of a killed worker is run again soon
            worker.in_progress_timeout_s = worker.job_timeout_s + CLAIM_MARGIN
            running = asyncio.create_task(worker.async_run())
            stopping = asyncio.create_task(stop.wait())
            await asyncio.wait([running, stopping], return_when=asyncio.FIRST_COMPLETED)
            failed = running.exception() if running.done() and not running.cancelled() else None
            try:
                await worker.close()  # cancels its jobs: they go back on the queue for another worker
            except Exception:
                pass
            running.cancel()
            stopping.cancel()
            for task in (running, stopping):
                try:
                    await task
                except (asyncio.CancelledError, Exception):
                    pass
            if failed is not None and not stop.is_set():
                log.warning("the queue %s failed (%s); starting again in a second", queue, failed)
                await asyncio.sleep(1.0)

    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    if ready is not None:
        ready()
    try:
        await asyncio.gather(*(consume(*q) for q in queues))
    finally:
        pool.close()
