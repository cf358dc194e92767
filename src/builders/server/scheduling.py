"""Scheduling the bots' turns: a task per game plays its bots while one is to move, each turn's
actions computed by the bot runner (:class:`builders.server.bots.BotRunner`), a pause before each
action, and the games of bots alone through a gate that holds a few of the workers at most.
(The clocks' deadlines are scheduled by :class:`builders.server.clocks.Clocks`.)"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import time
from collections.abc import Awaitable, Callable

from builders.server.bots import BotRunner
from builders.server.live import ApiError, Live, record

log = logging.getLogger("builders.server")


class BotTurns:
    """The bots' turns of the games in memory."""

    def __init__(
        self,
        bots: BotRunner,
        games: dict[str, Live],
        play: Callable[..., Awaitable[None]],
        delay: float = 0.3,
        bots_only_turns_at_once: int = 1,
    ):
        self.bots = bots
        self.games = games
        #: ``play(live, seat, text, version=None, by_bot=True)``: apply a bot's action (under the lock)
        self.play = play
        #: the pause in seconds before each bot action
        self.delay = delay
        #: the bot turns of games without a person in them wait here (people's bots do not): however
        #: many such games run, they hold this many of the bots' workers at most
        self.bots_only_gate = asyncio.Semaphore(max(1, bots_only_turns_at_once))
        self.closing = False

    def schedule(self, live: Live) -> None:
        """Start the bots' turns of ``live`` if a bot is to move and none is thinking."""
        if self.closing or (live.bot_task is not None and not live.bot_task.done()):
            return
        if live.over or not live.seats[live.state.current_player].bot:
            return
        live.bot_task = asyncio.get_running_loop().create_task(self._bot_turns(live))

    async def _bot_turns(self, live: Live) -> None:
        """Play the bots' turns of ``live`` until a person is to move (three failures in a row stop it)."""
        failures = 0
        while not self.closing:
            st = live.state
            if live.over or not live.seats[st.current_player].bot:
                return
            await asyncio.sleep(self.delay)
            version = live.version
            seat = live.state.current_player
            if live.over or not live.seats[seat].bot:
                continue
            n = len(live.steps)
            seed = int.from_bytes(hashlib.sha256(f"{live.id}:{n}".encode()).digest()[:8], "big") >> 2
            try:
                nobody_waits = all(s.bot for s in live.seats)
                async with self.bots_only_gate if nobody_waits else contextlib.nullcontext():
                    texts = await self.bots.choose_turn(record(live), live.seats[seat].level, seed)
                for k, text in enumerate(texts):
                    if k:  # the rest of the bot's plan for its turn, one action at a time
                        await asyncio.sleep(self.delay)
                    async with live.lock:
                        if (
                            live.version != version
                            or live.over
                            or live.state.current_player != seat
                            or not live.seats[seat].bot
                        ):
                            break
                        try:
                            await self.play(live, seat, text, version=None, by_bot=True)
                        except ApiError:
                            if not k:
                                raise
                            break  # the rest of a plan is a shortcut: the bot is asked again
                        version = live.version
                failures = 0
            except asyncio.CancelledError:
                raise
            except Exception:
                failures += 1
                log.exception("the bot of game %s, seat %s failed", live.id, seat)
                if failures >= 3:
                    return
                await asyncio.sleep(0.5)

    async def idle(self, timeout: float = 30.0) -> None:
        """Wait until no bot is thinking (for tests)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            tasks = [g.bot_task for g in self.games.values() if g.bot_task and not g.bot_task.done()]
            if not tasks:
                return
            await asyncio.wait(tasks, timeout=deadline - time.monotonic())

    def close(self) -> None:
        """No bot starts or goes on playing from now on (:meth:`stop` ends those thinking)."""
        self.closing = True

    async def stop(self) -> None:
        """End the bots' tasks and the bot runner."""
        self.close()
        await cancel_all([live.bot_task for live in self.games.values() if live.bot_task and not live.bot_task.done()])
        self.bots.close()


async def cancel_all(tasks: list[asyncio.Task]) -> None:
    """Cancel ``tasks`` and wait until each has ended (however it ends)."""
    for task in tasks:
        task.cancel()
    for task in tasks:
        try:
            await task
        except (asyncio.CancelledError, Exception):
            pass
