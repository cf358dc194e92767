"""Rate limits shared by every server process: at most ``count`` requests of a key in ``per`` seconds,
in bursts of at most ``count`` (GCRA: the same answers as a token bucket of ``count`` tokens that
refills one every ``per / count`` seconds; a refused request takes nothing).

- :class:`LocalLimits`: in this process's memory (one process, or the fallback).
- :class:`RedisLimits`: one Lua script on Redis per request (the time is Redis's own, so processes on
  several machines agree). When Redis cannot be reached, the limits fall back to another limiter for
  :data:`FALLBACK_SECONDS` before Redis is tried again: a request is never refused for Redis being away.
- :class:`DatabaseLimits`: a row of ``rate_limits`` per key, changed by compare-and-set (no lock held,
  the same on SQLite and PostgreSQL): the processes of one database share the limits without Redis.

``take(key, count, per)`` answers 0.0 when the request may go on (and counts it), else the seconds
until it may.
"""

from __future__ import annotations

import logging
import time
from typing import Any


from builders.server.repos.limits import RateLimitRepo

log = logging.getLogger("builders.server")

#: seconds the limits keep to their fallback after Redis failed, before trying Redis again
FALLBACK_SECONDS = 5.0
#: how long a Redis call of a limit may take before the fallback answers (seconds)
REDIS_TIMEOUT = 0.25

#: KEYS[1]: the key; ARGV: seconds per request, the window (both as text)
GCRA = """
local now = redis.call('TIME')
now = tonumber(now[1]) + tonumber(now[2]) / 1000000
local step = tonumber(ARGV[1])
local per = tonumber(ARGV[2])
local tat = tonumber(redis.call('GET', KEYS[1]) or '0')
if tat < now then tat = now end
local after = tat + step
if after - now > per + 1e-9 then return tostring(after - now - per) end
redis.call('SET', KEYS[1], string.format('%.6f', after), 'PX', math.ceil((after - now) * 1000) + 1)
return '0'
"""


def gcra(tat: float | None, now: float, count: int, per: float) -> tuple[float, float]:
    """(the key's new theoretical arrival time, 0.0) for a request let through, else (``tat``, the
    seconds to wait)."""
    step = per / count
    start = max(tat or now, now)
    after = start + step
    if after - now > per + 1e-9:
        return (tat or now), after - now - per
    return after, 0.0


class LocalLimits:
    """The limits in this process's memory; keys not seen for a while are forgotten."""

    def __init__(self) -> None:
        self.tats: dict[str, float] = {}
        self.swept = time.monotonic()

    def take(self, key: str, count: int, per: float) -> float:
        now = time.monotonic()
        tat, wait = gcra(self.tats.get(key), now, count, per)
        if not wait:
            self.tats[key] = tat
            if now - self.swept > 60.0:
                self.swept = now
                self.tats = {k: t for k, t in self.tats.items() if t > now}
        return wait

    async def take_async(self, key: str, count: int, per: float) -> float:
        return self.take(key, count, per)


class DatabaseLimits:
    """The limits in the table ``rate_limits`` of the database (shared by its server processes)."""

    def __init__(self, engine: Any, prefix: str = "") -> None:
        self.engine = engine
        self.rows = RateLimitRepo(engine)
        self.prefix = prefix
        self.swept = 0.0

    def take(self, key: str, count: int, per: float) -> float:
        key = (self.prefix + key)[:200]
        now = time.time()
        if now - self.swept > 60.0:
            self.swept = now
            self.rows.sweep(now)
        for _ in range(20):  # another process changed the row between the read and the write: again
            old = self.rows.tat(key)
            tat, wait = gcra(old, now, count, per)
            if wait:
                return wait
            if self.rows.replace(key, old, tat):
                return 0.0
            now = time.time()
        return per / count  # never reached in practice: many processes at once on one key


class RedisLimits:
    """The limits on Redis (``url``), with ``fallback`` while Redis cannot be reached."""

    def __init__(self, url: str, fallback: Any, prefix: str = "builders:rate:") -> None:
        import redis

        self.prefix = prefix
        self.fallback = fallback
        options = {"socket_timeout": REDIS_TIMEOUT, "socket_connect_timeout": REDIS_TIMEOUT}
        self.sync = redis.Redis.from_url(url, **options)
        self.sync_script = self.sync.register_script(GCRA)
        self.url = url
        self.options = options
        self.async_client: Any = None
        self.async_script: Any = None
        self.failed_at = -FALLBACK_SECONDS
        self.failures = 0

    def _away(self) -> bool:
        return time.monotonic() - self.failed_at < FALLBACK_SECONDS

    def _failed(self, error: Exception) -> None:
        self.failed_at = time.monotonic()
        self.failures += 1
        log.warning(
            "Redis cannot be reached for the rate limits (%s): this process counts them itself for %g s",
            type(error).__name__,
            FALLBACK_SECONDS,
        )

    def take(self, key: str, count: int, per: float) -> float:
        if not self._away():
            try:
                return float(self.sync_script(keys=[self.prefix + key], args=[repr(per / count), repr(per)]))
            except Exception as e:  # noqa: BLE001 - any failure of Redis: the fallback answers
                self._failed(e)
        return self.fallback.take(key, count, per)

    async def take_async(self, key: str, count: int, per: float) -> float:
        if not self._away():
            try:
                if self.async_client is None:
                    import redis.asyncio as aioredis

                    self.async_client = aioredis.Redis.from_url(self.url, **self.options)
                    self.async_script = self.async_client.register_script(GCRA)
                return float(await self.async_script(keys=[self.prefix + key], args=[repr(per / count), repr(per)]))
            except Exception as e:  # noqa: BLE001
                self._failed(e)
        if hasattr(self.fallback, "take_async"):
            return await self.fallback.take_async(key, count, per)
        return self.fallback.take(key, count, per)


def shared(redis_url: str | None, engine: Any = None, prefix: str = "") -> Any:
    """The limits shared by the server processes: on Redis when there is one (the database, else this
    process, while it is away), else in the database (``engine``), else in this process."""
    fallback = DatabaseLimits(engine, prefix) if engine is not None else LocalLimits()
    if redis_url:
        return RedisLimits(redis_url, fallback, "builders:rate:" + prefix)
    return fallback
