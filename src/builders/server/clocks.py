"""Clocks: live (a total time per player plus an increment per turn), turn-based (a time per turn,
for example days) or none (untimed, the default).

A game's clock is part of its stored options (``options["clock"]``)::

    {"kind": "live" | "turn", "total": s, "increment": s, "per_turn": s, "bot": level,
     "left": [s per seat], "running": seat | null, "since": epoch seconds, "flagged": [seats]}

``left[running]`` is the time the running seat had at ``since``; it has ``left - (now - since)`` now.
The clocks start once every seat is taken and the first move of the game is made (as on lichess);
then the clock runs for the seat to move while a person plays it (never for a bot). When the seat to move changes, the one that moved is charged (and given the increment,
live); a turn-based clock starts each turn at ``per_turn``. When a clock runs out the server hands
the seat to a bot of the level chosen at creation; in a rated game it is a loss, as a resignation is
(a game of two ends at once). Every player is told by the game's events (kind "timeout"). The acting process checkpoints running clocks
every few seconds and when it stops; after a restart a clock goes on from its last checkpoint, so
the time the server was down is not charged.

Housekeeping (the acting process, at each checkpoint): a game still waiting for people (an open or
invited seat not taken) with no action after ``expire_open`` seconds (7 days by default) is deleted;
an untimed game nobody has moved in for ``idle`` seconds (30 days) is settled like a clock: its seat
to move goes to a medium bot. A timed game needs neither: its clock decides. Sessions past their end
are deleted.

Games not in memory (forgotten while unused, see :mod:`builders.server.games`) are found by queries:
a clock running out within two checkpoints (the ``deadline`` column) loads its game, which arms its
timer; idle untimed games are found by the time of their last move (the ``moved`` column). The
clock of a game forgotten while it ran was last saved when it was forgotten: each checkpoint also
writes when it was made (the row "clocks" of ``leases``), and at start every running clock is charged
up to the last checkpoint, then goes on from now (only the time the server was down is not charged).
"""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import replace
from typing import Any

from sqlalchemy.exc import SQLAlchemyError

from builders.core.messages import msg
from builders.core.state import Chance
from builders.server.games import ApiError, GameService, Live, _saving
from builders.server.scheduling import cancel_all
from builders.server.repos.accounts import AccountRepo
from builders.server.repos.games import GameRepo
from builders.server.repos.leases import LeaseRepo
from builders.server.records import Clock, Seat
from builders.server.schemas import ClockSpec
from builders.server.store import Stale

log = logging.getLogger("builders.server")

#: the row of ``leases`` that holds the time of the last checkpoint (in ``expires``)
ALIVE = "clocks"


def initial(spec: ClockSpec | None, players: int) -> dict[str, Any] | None:
    """The stored clock of a new game (None: untimed)."""
    if spec is None:
        return None
    if spec.kind == "live":
        if spec.total is None or spec.per_turn is not None:
            raise ApiError(400, msg("a live clock has a total time (and an increment), not a time per turn"))
        start = float(spec.total)
    else:
        if spec.per_turn is None or spec.total is not None or spec.increment:
            raise ApiError(400, msg("a turn-based clock has a time per turn only"))
        start = float(spec.per_turn)
    return Clock(
        kind=spec.kind,
        total=spec.total,
        increment=spec.increment,
        per_turn=spec.per_turn,
        bot=spec.bot,
        left=[start] * players,
        since=time.time(),
        present=frozenset(("total", "increment", "per_turn")),
    ).to_json()


def remaining(clock: dict[str, Any], now: float | None = None) -> list[float]:
    """Each seat's time left now."""
    return Clock.from_json(clock).remaining(now)


def _copy(clock: Clock) -> Clock:
    """A copy of ``clock`` to change (the game's own is replaced, never changed in place)."""
    return replace(clock, left=list(clock.left), flagged=list(clock.flagged))


def _running(live: Live) -> Clock | None:
    """A copy of the clock of ``live`` if it runs and the game is not over."""
    clock = live.options.clock
    return _copy(clock) if clock and clock.running is not None and not live.over else None


def _keep(live: Live, clock: Clock) -> None:
    """``clock`` becomes the clock of ``live`` in memory."""
    live.options = replace(live.options, clock=clock)


def started(state: Any, seats: list[Seat]) -> bool:
    """Whether the clocks run: every seat is taken and the first move of the game has been made, as
    on lichess (nobody's time runs while a friend is still on the way, nor before the first move)."""
    if any(s.type == "human" and not s.claimed for s in seats):
        return False
    return any(not isinstance(entry, Chance) for entry in state.history)


class Clocks:
    def __init__(
        self, service: GameService, checkpoint: float = 5.0, expire_open: float = 7 * 86400, idle: float = 30 * 86400
    ):
        self.service = service
        engine = service.store.engine
        #: the games that never started, the checkpoint's time, the sessions past their end
        self.games, self.leases, self.accounts = GameRepo(engine), LeaseRepo(engine), AccountRepo(engine)
        self.checkpoint = checkpoint
        self.expire_open = expire_open
        self.idle = idle
        self.timers: dict[str, asyncio.Task] = {}
        self.ticker: asyncio.Task | None = None
        self.started = False

    # -- life cycle ------------------------------------------------------------------------------
    async def start(self) -> None:
        """Go on with the clocks of the loaded games from their checkpoints (downtime not charged)."""
        self.started = True
        now = time.time()
        alive = await asyncio.to_thread(self._last_checkpoint)
        for live in list(self.service.live.values()):
            if live.options.clock and not live.over:
                clock = _running(live)
                if clock is not None:
                    # charged up to the last checkpoint (a game forgotten while it ran was saved
                    # last when it was forgotten); not the time the server was down
                    clock.left[clock.running] -= max(0.0, min(now, alive or 0.0) - clock.since)
                    clock.since = now
                    _keep(live, clock)
                    self._save(live)
                self.changed(live)
        self.ticker = asyncio.get_running_loop().create_task(self._tick())

    async def stop(self) -> None:
        if not self.started:
            return
        self.started = False
        await cancel_all([t for t in [self.ticker, *self.timers.values()] if t is not None])
        self.timers.clear()
        self.save_all()
        if self.service.acting:
            try:
                self._checkpointed(time.time())
            except SQLAlchemyError:
                log.warning("the time of the last checkpoint could not be saved")

    def save_all(self) -> None:
        """Checkpoint every running clock: its seat's time left, as of now."""
        now = time.time()
        for live in list(self.service.live.values()):
            clock = _running(live)
            if clock is not None:
                clock.left[clock.running] = clock.left_at(clock.running, now)
                clock.since = now
                _keep(live, clock)
                try:
                    self._save(live)
                except ApiError:
                    log.warning("the clock of game %s could not be saved", live.id)

    async def _tick(self) -> None:
        while True:
            await asyncio.sleep(self.checkpoint)
            if self.service.acting:
                self.save_all()
                try:
                    await asyncio.to_thread(self._checkpointed, time.time())
                    await self.due()
                    await self.housekeeping()
                except Exception:
                    log.exception("housekeeping failed")

    async def due(self, now: float | None = None) -> list[str]:
        """Load the games not in memory whose clock runs out within two checkpoints (loading arms
        their timers); their ids."""
        now = time.time() if now is None else now
        found = await asyncio.to_thread(self.service.store.due_ids, now + 2 * self.checkpoint)
        loaded = []
        for game_id in found:
            if game_id not in self.service.live:
                try:
                    await self.service.fetch(game_id)
                except ApiError:
                    continue  # deleted meanwhile
                loaded.append(game_id)
        return loaded

    async def housekeeping(self, now: float | None = None) -> dict[str, list[str]]:
        """Deletes abandoned games that never started and settles untimed games nobody moves in."""
        now = time.time() if now is None else now
        stale = self.games.unstarted_before(now - self.expire_open)
        idle = await asyncio.to_thread(self.service.store.idle_games, now - self.idle)
        self.accounts.end_sessions_before(now)
        expired = []
        for game_id in stale:
            live = self.service.live.get(game_id)
            if live is not None and (live.clients or live.steps):
                continue
            with _saving():
                self.games.delete_unstarted(game_id)
            self.service.forget(game_id)
            expired.append(game_id)
        settled = []
        for row in idle:  # untimed games whose seat to move is a person's (decided from the row)
            to_move = row["to_move"]
            if row["options"].clock or to_move is None or row["id"] in expired:
                continue
            seat = row["seats"][to_move]
            if seat.type != "human" or not seat.claimed:
                continue
            try:
                live = await self.service.fetch(row["id"])
            except ApiError:
                continue
            seat = live.state.current_player
            if not live.over and live.seats[seat].type == "human" and live.seats[seat].claimed:
                await self.service.resign_as(live, seat, "medium", kind="timeout")
                settled.append(live.id)
        if expired or settled:
            log.info("housekeeping: %d abandoned games deleted, %d idle games settled", len(expired), len(settled))
        return {"expired": expired, "settled": settled}

    # -- changes ---------------------------------------------------------------------------------
    @staticmethod
    def advance(live: Live, state: Any, seats: list[Seat], now: float | None = None) -> Clock | None:
        """The clock of ``live`` after a change to ``state`` and ``seats``: the seat that moved is
        charged (and given the increment) and the next one's clock starts. None if the running seat
        stays the same (nothing to store). ``live``'s own clock is not touched: the game service
        stores the new one with the change, in the same transaction, and takes it in once committed."""
        stored = live.options.clock
        if not stored:
            return None
        clock = _copy(stored)
        running = clock.running
        following = None
        if not state.is_over() and live.options.ended is None and started(state, seats):
            seat = state.current_player
            info = seats[seat]
            if info.type == "human" and info.claimed:
                following = seat
        if following == running:
            return None
        now = time.time() if now is None else now
        if running is not None:
            clock.left[running] = max(0.0, clock.left_at(running, now))
            if running in clock.flagged:
                # its time ran out (the timer may fire a few ms before the last of it is used up)
                clock.left[running] = 0.0
            elif clock.kind == "live":
                clock.left[running] += float(clock.increment or 0)
        if following is not None and clock.kind == "turn":
            clock.left[following] = float(clock.per_turn or 0)
        clock.running = following
        clock.since = now
        return clock

    def changed(self, live: Live) -> None:
        """After any change of ``live`` (made here or by another process): (re)arm the running
        seat's timer. A change made through the game service carries its clock already; one that
        did not (a new game) moves the clock on here and stores it under the version check."""
        if not live.options.clock or not self.started:  # (start() goes over the games loaded before it)
            return
        moved = self.advance(live, live.state, live.seats)
        if moved is not None:
            _keep(live, moved)
            try:
                self._save(live)
            except ApiError:
                log.warning("the clock of game %s could not be saved", live.id)
            live.changed()
        self.arm(live)

    def _save(self, live: Live) -> None:
        """Store the clock of ``live`` if the stored game is still at the version of this copy (a
        process whose copy is stale stores nothing: the change that made it stale carried the
        clock). The version does not move: nothing a client sees changes."""
        with _saving():
            try:
                self.service.store.update(live.id, {"options": live.options}, version=live.version, bump=False)
            except Stale:
                log.info("the clock of game %s was not saved: the game changed meanwhile", live.id)

    def _last_checkpoint(self) -> float | None:
        """When the last checkpoint was made (None: never)."""
        return self.leases.expires(ALIVE)

    def _checkpointed(self, now: float) -> None:
        """Store ``now`` as the time of the last checkpoint."""
        self.leases.mark(ALIVE, "checkpoint", now)

    def disarm(self, live: Live) -> None:
        """``live`` is forgotten: its timer stops (the deadline query loads it again when it is due)."""
        timer = self.timers.pop(live.id, None)
        if timer is not None and timer is not asyncio.current_task():
            timer.cancel()

    def arm(self, live: Live) -> None:
        """(Re)start the timer of the running seat of ``live``."""
        clock = _running(live)
        old = self.timers.pop(live.id, None)
        if old is not None and old is not asyncio.current_task():
            old.cancel()
        if clock is None or clock.running is None or not self.started:
            return
        seat = clock.running
        due = clock.left_at(seat)
        self.timers[live.id] = asyncio.get_running_loop().create_task(self._expire(live, seat, due))

    async def _expire(self, live: Live, seat: int, due: float) -> None:
        await asyncio.sleep(max(0.0, due))
        clock = _running(live)
        if clock is None or clock.running != seat or not self.service.acting:
            return
        if clock.left_at(seat) > 0.05:
            self.arm(live)  # the clock was given time meanwhile (a restart): wait again
            return
        clock.flagged.append(seat)
        _keep(live, clock)
        log.info("game %s: the clock of seat %s ran out; a %s bot takes over", live.id, seat, clock.bot)
        try:
            # in a rated game running out of time loses, as resigning does (a game of two ends);
            # else the bot chosen at creation plays on
            level = None if live.options.rated else clock.bot
            await self.service.resign_as(live, seat, level, kind="timeout")
        except ApiError as e:
            log.warning("game %s: seat %s could not be handed over: %s", live.id, seat, e.detail)
