"""Several server processes on one database: keeping each process's copies fresh, fanning changes
out to every process's sockets, and electing the one process that acts for the machine.

- **Fan-out.** With ``--redis URL`` every change of a game is published on a Redis channel (the game,
  its new version, the seats connected through the publishing process and how many spectators watch
  through it); every other process
  brings its copy up to date from the database and sends its own sockets the new views within
  milliseconds. Messages for a game's clients (chat) sent with ``GameService.tell`` go out the same
  way. Without Redis (one process, or several on one SQLite file) each process polls the
  versions of its games once a second instead, and every request checks the game's version first,
  so a read never answers from a stale copy.
- **The lease.** One process holds the lease row "machine" of the ``leases`` table and renews it every
  second; only it plays the bots (and enforces clocks and expiry). When it dies, another process
  takes the lease over once it has expired (:data:`LEASE_SECONDS`), or at once when the holder is a
  dead process of the same machine. The database stays the judge: a bot move made twice by two
  processes that both believe they hold the lease is stored once (the version check refuses the
  second).
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import random
import secrets
import socket
import time
from dataclasses import replace
from typing import Any

from sqlalchemy.exc import SQLAlchemyError

from builders.server.records import Clock
from builders.server.repos.leases import LeaseRepo
from builders.server.store import Store

log = logging.getLogger("builders.server")

#: how long a lease lasts without renewal (seconds); it is renewed every LEASE_SECONDS / 5
LEASE_SECONDS = 5.0
#: the channel of game changes
CHANNEL = "builders:games"
#: the most changes published together in one Redis message
BATCH = 200
#: how often a process tells the others again which seats are connected (and how many spectators
#: watch) through it (seconds)
PRESENCE_SECONDS = 20.0
#: waits between attempts to reach Redis again: the first, and the longest (doubling between them,
#: each with up to half of it again at random so that processes do not all knock at once): a
#: process is back on Redis within 1.5 s of its return, and knocks about once a second meanwhile
RETRY_FIRST = 0.1
RETRY_MOST = 1.0
#: the polling of the games' versions while Redis is away (seconds)
POLL_WITHOUT_REDIS = 1.0


class Backoff:
    """Waits that double from ``first`` to ``most``, with jitter; :meth:`reset` after a success."""

    def __init__(self, first: float = RETRY_FIRST, most: float = RETRY_MOST):
        self.first = first
        self.most = most
        self.next = first

    def reset(self) -> None:
        self.next = self.first

    async def wait(self) -> None:
        delay = self.next * (1 + random.random() / 2)
        self.next = min(self.most, self.next * 2)
        await asyncio.sleep(delay)


class Lease:
    """The lease row ``name``: :meth:`hold` takes or renews it, :meth:`release` gives it up."""

    def __init__(self, store: Store, name: str = "machine", seconds: float = LEASE_SECONDS):
        self.store = store
        self.rows = LeaseRepo(store.engine)
        self.name = name
        self.seconds = seconds
        self.host = socket.gethostname()
        self.holder = f"{self.host}:{os.getpid()}:{secrets.token_hex(4)}"

    def hold(self) -> bool:
        """Take or renew the lease; True if this process holds it now."""
        now = time.time()
        until = now + self.seconds
        if self.rows.renew(self.name, self.holder, until, now):
            return True
        current = self.rows.holder(self.name)
        if current is None:
            return self.rows.create(self.name, self.holder, until)
        if self._dead_here(current):  # the holder was a process of this machine that is gone
            return self.rows.take_over(self.name, current, self.holder, until)
        return False

    def _dead_here(self, holder: str) -> bool:
        parts = holder.rsplit(":", 2)
        if len(parts) != 3 or parts[0] != self.host:
            return False
        try:
            pid = int(parts[1])
        except ValueError:
            return False
        if pid == os.getpid():
            return True  # an earlier server of this very process (tests)
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        except PermissionError:
            return False
        try:  # a zombie (killed, not yet reaped by its parent) is dead too
            with open(f"/proc/{pid}/stat") as f:
                return f.read().rsplit(")", 1)[1].split()[0] == "Z"
        except OSError:
            return False

    def release(self) -> None:
        self.rows.release(self.name, self.holder)


class Cluster:
    """Runs the lease, the fan-out and the version polling of one server process."""

    def __init__(
        self,
        service: Any,
        store: Store,
        redis_url: str | None = None,
        *,
        lease: bool = True,
        poll_seconds: float | None = None,
    ):
        from concurrent.futures import ThreadPoolExecutor

        #: the lease's own thread: renewing it never waits behind the games' commits
        self.lease_thread = ThreadPoolExecutor(1, thread_name_prefix="lease")
        self.service = service
        self.store = store
        self.redis_url = redis_url
        self.lease = Lease(store) if lease else None
        self.origin = self.lease.holder if self.lease else secrets.token_hex(6)
        self.poll_seconds = poll_seconds if poll_seconds is not None else (5.0 if redis_url else 1.0)
        self.tasks: list[asyncio.Task] = []
        self.redis: Any = None
        self.outbox: asyncio.Queue | None = None
        self.sent: dict[str, tuple[int, tuple[tuple[int, ...], int]]] = {}
        #: game -> origin -> (seats connected there, spectators watching there, when heard)
        self.presence: dict[str, dict[str, tuple[set[int], int, float]]] = {}
        self.published = 0
        self.received = 0
        #: the game being brought up to date from another process's change (not published again)
        self.muted: str | None = None
        self.announced = time.time()
        #: whether the subscription to Redis is up (with Redis); /healthz tells it
        self.redis_up = False
        #: times Redis was lost and found again
        self.redis_outages = 0

    # -- life cycle ------------------------------------------------------------------------------
    async def start(self) -> None:
        if self.lease is not None:
            self.service.acting = await self._try(self.lease.hold, False)
        if self.redis_url:
            import redis.asyncio as aioredis

            # timeouts: a Redis that hangs (not only one that is gone) never holds a task for long
            self.redis = aioredis.Redis.from_url(self.redis_url, socket_connect_timeout=2, socket_timeout=5)
            await self.redis.ping()  # fail at start, not later, when Redis is not there
            self.outbox = asyncio.Queue()
            pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
            await pubsub.subscribe(CHANNEL)
            self.redis_up = True
            self.tasks.append(asyncio.create_task(self._listen(pubsub)))
            self.tasks.append(asyncio.create_task(self._publish()))
        if self.lease is not None:
            self.tasks.append(asyncio.create_task(self._keep_lease()))
        self.tasks.append(asyncio.create_task(self._poll()))

    async def stop(self) -> None:
        for task in self.tasks:
            task.cancel()
        for task in self.tasks:
            try:
                await task
            except (asyncio.CancelledError, Exception):
                pass
        self.tasks = []
        if self.lease is not None and self.service.acting:
            await self._try(self.lease.release, None)
        self.lease_thread.shutdown(wait=False)
        if self.redis is not None:
            try:
                await asyncio.wait_for(self.redis.aclose(), 2)
            except Exception:
                pass

    async def _try(self, fn: Any, default: Any) -> Any:
        try:
            return await asyncio.get_running_loop().run_in_executor(self.lease_thread, fn)
        except SQLAlchemyError:
            log.warning("the database cannot be reached (lease)")
            return default

    # -- the lease -------------------------------------------------------------------------------
    async def _keep_lease(self) -> None:
        assert self.lease is not None
        while True:
            await asyncio.sleep(self.lease.seconds / 5)
            holding = await self._try(self.lease.hold, False)
            if holding and not self.service.acting:
                log.info("this process now acts for the machine (bots, clocks)")
                self.service.acting = True
                await self._take_over()
            elif not holding and self.service.acting:
                log.warning("this process lost the lease: another one acts for the machine now")
                self.service.acting = False
                for live in list(self.service.live.values()):
                    if live.bot_task is not None and not live.bot_task.done():
                        live.bot_task.cancel()

    async def _take_over(self) -> None:
        """Load the games that need the acting process (a bot to move, a clock running) and let their
        bots go on (as a fresh server does); the bots of those in memory go on too."""
        for live in list(self.service.live.values()):
            self.service._schedule_bot(live)
        await self.service.attend(clocks=False)

    # -- polling ---------------------------------------------------------------------------------
    async def _poll(self) -> None:
        while True:
            away = self.redis_url is not None and not self.redis_up
            await asyncio.sleep(min(self.poll_seconds, POLL_WITHOUT_REDIS) if away else self.poll_seconds)
            try:
                await self.catch_up()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("polling the games' versions failed")

    async def catch_up(self) -> None:
        """Bring every copy in memory up to the database; the acting process loads the games that
        need it (a bot to move, a clock running: new games of other processes)."""
        if self.service.acting:
            await self.service.attend(clocks=False)
        ids = [g.id for g in self.service.live.values() if not g.over]
        versions = await asyncio.to_thread(self.store.versions, ids)
        for game_id, version in versions.items():
            live = self.service.live.get(game_id)
            if live is None:
                continue  # forgotten meanwhile
            if version > live.version and not live.lock.locked():
                found = await asyncio.to_thread(self.store.snapshot, game_id)
                if live.lock.locked():
                    continue  # a change of this process is being made: it brings the copy up to date
                self.muted = game_id
                try:
                    self.service.refresh(live, found)
                finally:
                    self.muted = None
        now = time.time()
        for game_id, seen in list(self.presence.items()):  # processes not heard of for a minute
            for origin, (_, _, at) in list(seen.items()):
                if now - at > 60:
                    del seen[origin]
                    self._update_presence(game_id)
                    live = self.service.live.get(game_id)
                    if live is not None:  # its seats and spectators are gone: tell the clients here
                        live.changed()
                        for client in list(live.clients):
                            client.send(self.service.message_for(live, client))
            if not seen:
                del self.presence[game_id]
        for game_id in [g for g in self.sent if g not in self.service.live]:
            del self.sent[game_id]
        if self.outbox is not None and now - self.announced > PRESENCE_SECONDS:
            # the seats and spectators present here, again: the others forget a process not heard
            # of for a minute
            self.announced = now
            for live in list(self.service.live.values()):
                seats, watching = self._here(live)
                if seats or watching:
                    self.outbox.put_nowait(
                        json.dumps(
                            {
                                "o": self.origin,
                                "g": live.id,
                                "v": live.version,
                                "s": seats,
                                "w": watching,
                                "n": len(live.steps),
                            }
                        )
                    )

    # -- fan-out ---------------------------------------------------------------------------------
    @staticmethod
    def _here(live: Any) -> tuple[tuple[int, ...], int]:
        """The seats connected through this process and the number of its spectators."""
        seats = tuple(sorted({c.seat for c in live.clients if c.seat is not None}))
        return seats, sum(1 for c in live.clients if c.seat is None)

    def changed(self, live: Any) -> None:
        """Publish a change of ``live`` to the other processes (with Redis, once started)."""
        if self.outbox is None:
            return
        here = self._here(live)
        key = (live.version, here)
        if self.sent.get(live.id) == key:
            return
        known = self.sent.get(live.id)
        self.sent[live.id] = key
        if live.id == self.muted and (known is None or known[1] == here):
            return  # the other processes made this change: they know it
        message: dict[str, Any] = {
            "o": self.origin,
            "g": live.id,
            "v": live.version,
            "s": here[0],
            "w": here[1],
            "n": len(live.steps),
        }
        if live.steps:
            # a process whose copy is at the version before with one action less plays this action
            # without reading the database (one version and one action more: it was added)
            step = live.steps[-1]
            message["a"] = [step.seat, step.action, step.chance, step.by_bot, step.key]
        clock = live.options.clock
        if clock:  # the clock stored with the change (the other processes take it in as it is)
            message["c"] = clock.to_json()
        self.outbox.put_nowait(json.dumps(message))

    def event(self, live: Any, text: str, audience: str) -> None:
        """Publish a message told to the clients of ``live`` (chat, ...) to the other processes."""
        if self.outbox is None:
            return
        self.outbox.put_nowait(json.dumps({"o": self.origin, "g": live.id, "t": text, "a": audience}))

    async def _publish(self) -> None:
        """Publish the outbox: the messages waiting go out together, as one Redis message (a JSON
        list) when there are several, so a busy process pays one publish for many changes.

        While Redis is away the messages are dropped (the other processes poll the database then,
        and read it again when Redis is back), and Redis is tried again with backoff."""
        assert self.outbox is not None
        backoff = Backoff()
        while True:
            batch = [await self.outbox.get()]
            while not self.outbox.empty() and len(batch) < BATCH:
                batch.append(self.outbox.get_nowait())
            try:
                await self.redis.publish(CHANNEL, batch[0] if len(batch) == 1 else "[" + ",".join(batch) + "]")
                self.published += len(batch)
                backoff.reset()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.warning("publishing a change on Redis failed (the other processes poll the database)")
                while not self.outbox.empty():  # stale by the time Redis is back: dropped
                    self.outbox.get_nowait()
                await backoff.wait()

    async def _listen(self, pubsub: Any) -> None:
        """Receive the other processes' changes. When the subscription fails, subscribe again with
        backoff (never in a busy loop); once subscribed again, read every game in memory from the
        database, so that what was missed meanwhile reaches the clients here."""
        backoff = Backoff()
        while True:
            try:
                while True:
                    if not pubsub.subscribed:
                        raise ConnectionError("not subscribed")
                    message = await pubsub.get_message(ignore_subscribe_messages=True, timeout=1.0)
                    if message is not None and message.get("type") == "message":
                        self._received(message["data"])
            except asyncio.CancelledError:
                await self._close_pubsub(pubsub)
                raise
            except Exception as e:
                if self.redis_up:
                    self.redis_up = False
                    self.redis_outages += 1
                    log.warning(
                        "the Redis subscription was lost (%s): polling the database until it is back", type(e).__name__
                    )
            await self._close_pubsub(pubsub)
            while True:  # subscribe again, waiting longer each time
                await backoff.wait()
                pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
                try:
                    await pubsub.subscribe(CHANNEL)
                    break
                except asyncio.CancelledError:
                    await self._close_pubsub(pubsub)
                    raise
                except Exception:
                    await self._close_pubsub(pubsub)
            backoff.reset()
            self.redis_up = True
            log.warning("Redis is back: catching up with the database")
            try:
                await self.catch_up()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("catching up after Redis came back failed (the polling goes on)")

    @staticmethod
    async def _close_pubsub(pubsub: Any) -> None:
        try:
            await asyncio.wait_for(pubsub.aclose(), 1)
        except Exception:  # (a timeout too) the connection is dropped with the object
            pass

    def _received(self, data: bytes | str) -> None:
        try:
            found = json.loads(data)
        except ValueError:
            return
        for msg in found if isinstance(found, list) else [found]:
            self._one(msg)

    def _one(self, msg: Any) -> None:
        try:
            origin, game_id = msg["o"], msg["g"]
            if origin == self.origin:
                return
            if "t" in msg:  # a message for the game's clients (chat, ...)
                live = self.service.live.get(game_id)
                if live is not None:
                    self.received += 1
                    self.service.tell_here(live, str(msg["t"]), str(msg["a"]))
                return
            version, seats, watching = int(msg["v"]), set(msg["s"]), max(0, int(msg.get("w", 0)))
        except (ValueError, KeyError, TypeError):
            return
        self.received += 1
        seen = self.presence.setdefault(game_id, {})
        before = seen.get(origin, (set(), 0, 0.0))[:2]
        seen[origin] = (seats, watching, time.time())
        live = self.service.live.get(game_id)
        if before != (seats, watching):
            self._update_presence(game_id)
        if live is None:
            if self.service.acting:  # a game created through another process may need its bots
                asyncio.create_task(self._catch_up_new(game_id))
            return
        if version > live.version:  # (a message older than the copy needs nothing)
            if not (
                version == live.version + 1
                and "a" in msg
                and msg.get("n") == len(live.steps) + 1
                and not live.lock.locked()
                and self._play_along(live, version, msg["a"], msg.get("c"))
            ):
                asyncio.create_task(self._catch_up_game(live))
        elif before[0] != seats:
            live.changed()
            for client in list(live.clients):
                client.send(self.service.message_for(live, client))
        elif before[1] != watching:  # only the spectators' count: the players here are told
            live.changed()
            self.service.tell_players_presence(live)

    def _play_along(self, live: Any, version: int, data: list, clock: Any = None) -> bool:
        """Play the action another process added (``live`` is at the version before) and take in the
        game's clock stored with it; False if it cannot be (then the copy is read from the database)."""
        from builders.server.games import ApiError
        from builders.server.store import StoredStep

        try:
            seat, action, chance, by_bot, key = data
            step = StoredStep(int(seat), str(action), [str(c) for c in chance], bool(by_bot), key)
            state, entries = live.state.copy(), list(live.log)
            steps = [*live.steps, step]
            self.service._replay(live.id, live.presenter, state, steps, len(live.steps), entries)
        except (ApiError, ValueError, TypeError):
            return False
        if live.options.clock:
            if not isinstance(clock, dict):
                return False  # read from the database, with its clock
            try:
                live.options = replace(live.options, clock=Clock.from_json(clock))
            except (KeyError, TypeError):
                return False
        live.state, live.steps, live.log, live.version = state, steps, entries, version
        live.undo = []
        live.changed()
        self.muted = live.id
        try:
            self.service._broadcast(live)
        finally:
            self.muted = None
        self.service._schedule_bot(live)
        return True

    def _update_presence(self, game_id: str) -> None:
        seen = self.presence.get(game_id, {})
        union: set[int] = set()
        watching = 0
        for seats, spectators, _ in seen.values():
            union |= seats
            watching += spectators
        if union:
            self.service.remote_seats[game_id] = union
        else:
            self.service.remote_seats.pop(game_id, None)
        if watching:
            self.service.remote_spectators[game_id] = watching
        else:
            self.service.remote_spectators.pop(game_id, None)

    async def _catch_up_game(self, live: Any) -> None:
        async with live.lock:
            try:
                found = await asyncio.to_thread(self.store.snapshot, live.id)
                self.muted = live.id
                self.service.refresh(live, found)
            except Exception:
                log.exception("game %s cannot be brought up to date", live.id)
            finally:
                self.muted = None

    async def _catch_up_new(self, game_id: str) -> None:
        if game_id in self.service.live:
            return
        try:
            self.service._schedule_bot(await self.service.fetch(game_id))
        except Exception:
            log.exception("game %s cannot be loaded", game_id)
