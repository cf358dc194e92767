"""One pool of worker processes for everything the server computes away from its event loop: bot
moves, hints and post-game analyses (and, in a ``builders worker``, the jobs of the queue).

A strong bot thinks for seconds of pure-Python CPU time and an analysis for minutes: neither may
hold the server's interpreter. :class:`WorkerPool` keeps ``size`` processes, each started when first
needed (``spawn``), at a lower priority than the server (nice :data:`NICE`, so that people's actions
are answered first), and exiting with the server even when it is killed. Tasks wait in two lanes:

- ``play`` (:data:`PLAY`): what a person waits for (bot moves, hints), always served first;
- ``background`` (:data:`BACKGROUND`): analyses, which hold at most ``background`` processes at
  once and never the last one (the pool has at least ``background + 1`` processes), so that a bot
  move never waits behind an analysis of 200 positions.

A task may name a ``key`` (a seat's hints): it runs on the process the key's hash names when that
one is free, so that the caches kept there serve it, else on any free process.

A process that dies in the middle of a task (killed, out of memory) is started again, and its task
is run once more on a fresh process (every task given to the pool is a pure function of its input or
writes what it computed idempotently, so nothing is doubled); if that one dies too the task fails
with :class:`WorkerDied`. The other processes and their tasks are not touched. ``close()`` ends
the processes (the server's SIGTERM): a task still running is abandoned.

Modes: "process" (the default), "thread" (the same lanes on threads: tests and the browser tests)
and "inline" (play tasks run at once on the caller's thread, background ones in a thread).
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import threading
import time
import zlib
from collections import deque
from collections.abc import Callable
from concurrent.futures import BrokenExecutor, Executor, Future, ProcessPoolExecutor, ThreadPoolExecutor
from typing import Any

#: the lanes, first served first
PLAY = "play"
BACKGROUND = "background"
LANES = (PLAY, BACKGROUND)
MODES = ("process", "thread", "inline")
#: the priority (nice) of the worker processes, below the server's own
NICE = 5


class WorkerDied(RuntimeError):
    """A task whose worker process died twice (killed, out of memory): it was not computed."""


def watch_parent(parent: int) -> None:
    """In a worker process: exit as soon as the process ``parent`` is gone (even killed with
    SIGKILL), so that no worker outlives the server."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(0)

    threading.Thread(target=watch, daemon=True, name="parent-watch").start()


def _start_process(parent: int, nice: int, initializer: Callable[..., None] | None, initargs: tuple) -> None:
    """In a new worker process: exit with the server, yield the CPU to it, then ``initializer``."""
    watch_parent(parent)
    if nice:
        try:
            os.nice(nice)
        except OSError:
            pass
    if initializer is not None:
        initializer(*initargs)


def _nothing() -> None:
    """A task that starts a process and does nothing (``warm``)."""


class _Slot:
    """One worker: a one-process (or one-thread) executor, started when first used, and the lane of
    the task it runs (None: free)."""

    def __init__(self, index: int):
        self.index = index
        self.executor: Executor | None = None
        self.lane: str | None = None


class WorkerPool:
    """``size`` workers in ``mode`` serving two lanes (module docstring); ``background`` is the most
    workers background tasks hold at once. ``initializer(*initargs)`` runs in each new process.

    ``stats`` counts the tasks done, the workers started again after one died (``restarts``), the
    tasks run again after their worker died (``retried``) and those that failed for it (``failed``).
    """

    def __init__(
        self,
        size: int = 1,
        mode: str = "process",
        background: int = 1,
        nice: int = NICE,
        initializer: Callable[..., None] | None = None,
        initargs: tuple = (),
    ):
        if mode not in MODES:
            raise ValueError(f"the worker mode must be process, thread or inline, not {mode!r}")
        self.mode = mode
        self.background = max(0, int(background))
        self.size = max(1, int(size), self.background + 1)
        self.nice = nice
        self.initializer = initializer
        self.initargs = initargs
        self.slots = [_Slot(i) for i in range(self.size)]
        self.stats = {"done": 0, "restarts": 0, "retried": 0, "failed": 0}
        self._waiting: dict[str, deque[tuple[str | None, asyncio.Future]]] = {lane: deque() for lane in LANES}
        self._closed = False

    # -- the workers -----------------------------------------------------------------------------
    def _executor(self, slot: _Slot) -> Executor:
        if slot.executor is None:
            if self.mode == "process":
                slot.executor = ProcessPoolExecutor(
                    max_workers=1,
                    mp_context=multiprocessing.get_context("spawn"),
                    initializer=_start_process,
                    initargs=(os.getpid(), self.nice, self.initializer, self.initargs),
                )
            else:
                slot.executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix=f"builders-worker-{slot.index}")
        return slot.executor

    def _drop(self, slot: _Slot) -> None:
        """Forget the broken executor of ``slot`` (its process died): the next task starts another."""
        if slot.executor is not None:
            slot.executor.shutdown(wait=False, cancel_futures=True)
            slot.executor = None
            self.stats["restarts"] += 1

    def slot_of(self, key: str) -> int:
        """The worker a task with ``key`` runs on when it is free (a hash of the key)."""
        return zlib.crc32(key.encode()) % self.size

    def warm(self, key: str | None = None) -> None:
        """Start now the process of ``key``'s worker (all of them without a key), so that its first
        task does not wait for a process to start and import what it needs."""
        if self.mode != "process" or self._closed:
            return
        for slot in [self.slots[self.slot_of(key)]] if key is not None else self.slots:
            if slot.executor is None:
                self._executor(slot).submit(_nothing)

    def pids(self, lane: str | None = None) -> list[int]:
        """The process ids of the workers started (with ``lane``: of those running one of its tasks)."""
        out: list[int] = []
        for slot in self.slots:
            if lane is None or slot.lane == lane:
                out.extend(getattr(slot.executor, "_processes", None) or {})
        return out

    def depth(self) -> dict[str, int]:
        """Per lane, the tasks waiting for a worker."""
        return {lane: len(self._waiting[lane]) for lane in LANES}

    def busy(self) -> dict[str, int]:
        """Per lane, the workers running one of its tasks."""
        return {lane: sum(1 for s in self.slots if s.lane == lane) for lane in LANES}

    # -- scheduling ------------------------------------------------------------------------------
    def _dispatch(self) -> None:
        """Give free workers to the waiting tasks: play first, background within its share."""
        for lane in LANES:
            queue = self._waiting[lane]
            while queue:
                free = [s for s in self.slots if s.lane is None]
                if not free:
                    return
                if lane == BACKGROUND and self.busy()[BACKGROUND] >= self.background:
                    break
                key, waiter = queue.popleft()
                if waiter.done():  # its caller gave up
                    continue
                slot = free[0]
                if key is not None and self.slots[self.slot_of(key)] in free:
                    slot = self.slots[self.slot_of(key)]
                else:  # a worker already started, if one is free
                    slot = min(free, key=lambda s: s.executor is None)
                slot.lane = lane
                waiter.set_result(slot)

    async def _acquire(self, lane: str, key: str | None) -> _Slot:
        waiter = asyncio.get_running_loop().create_future()
        self._waiting[lane].append((key, waiter))
        self._dispatch()
        try:
            return await waiter
        except asyncio.CancelledError:
            if waiter.done() and not waiter.cancelled():
                self._release(waiter.result())
            else:
                waiter.cancel()
            raise

    def _release(self, slot: _Slot, done: Future | None = None) -> None:
        """``slot`` is free again (after ``done``, its task: a dead process's executor is dropped)."""
        if done is not None and not done.cancelled() and isinstance(done.exception(), BrokenExecutor):
            self._drop(slot)
        slot.lane = None
        if not self._closed:
            self._dispatch()

    async def run(self, lane: str, fn: Callable[..., Any], *args: Any, key: str | None = None) -> Any:
        """``fn(*args)`` on a worker of the pool, in ``lane`` (PLAY or BACKGROUND), preferably on the
        worker of ``key``; run once more if its worker dies, then WorkerDied."""
        if lane not in LANES:
            raise ValueError(f"the lane must be {' or '.join(LANES)}, not {lane!r}")
        if self._closed:
            raise WorkerDied("the worker pool is closed: the server is stopping")
        if self.mode == "inline":
            return fn(*args) if lane == PLAY else await asyncio.to_thread(fn, *args)
        loop = asyncio.get_running_loop()
        for attempt in range(2):
            slot = await self._acquire(lane, key)
            try:
                try:
                    done = self._executor(slot).submit(fn, *args)
                except BrokenExecutor:  # its process died while it was idle: a new one
                    self._drop(slot)
                    done = self._executor(slot).submit(fn, *args)
            except BaseException:
                self._release(slot)
                raise

            def free(f: Future, slot: _Slot = slot) -> None:
                try:
                    loop.call_soon_threadsafe(self._release, slot, f)
                except RuntimeError:  # the loop is closed: the server is gone
                    pass

            done.add_done_callback(free)
            try:
                result = await asyncio.wrap_future(done)
            except BrokenExecutor:
                if attempt:
                    self.stats["failed"] += 1
                    raise WorkerDied("a worker process died twice while computing it") from None
                self.stats["retried"] += 1
                continue
            self.stats["done"] += 1
            return result
        raise AssertionError("unreachable")

    def close(self) -> None:
        """End the workers (a task still running is abandoned) and refuse new tasks."""
        self._closed = True
        for queue in self._waiting.values():
            while queue:
                _, waiter = queue.popleft()
                if not waiter.done():
                    waiter.cancel()
        for slot in self.slots:
            executor, slot.executor = slot.executor, None
            if executor is None:
                continue
            for process in list((getattr(executor, "_processes", None) or {}).values()):
                try:
                    process.terminate()
                except Exception:
                    pass
            executor.shutdown(wait=False, cancel_futures=True)
