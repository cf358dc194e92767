"""The limits on Redis when Redis cannot answer (issue 43: mutation testing of ``server/limits.py``):
the warning names the error, and a Redis that accepts connections but never answers (a hung server,
not one that is gone) holds a request for no longer than the limits' timeout before this process's
own count answers."""

from __future__ import annotations

import asyncio
import logging
import socket
import time

from builders.server.limits import REDIS_TIMEOUT, LocalLimits, RedisLimits


def test_redis_gone_is_logged_once_with_the_error_and_the_time_counted_here(caplog):
    away = RedisLimits("redis://127.0.0.1:9/0", LocalLimits())  # nothing listens on port 9
    with caplog.at_level(logging.WARNING, "builders.server"):
        assert [away.take("k", 2, 60.0) for _ in range(2)] == [0.0, 0.0]
        assert asyncio.run(away.take_async("k", 2, 60.0)) > 0  # counted here meanwhile, 2 per 60 s
    said = [r.getMessage() for r in caplog.records if r.name == "builders.server"]
    assert said == [
        "Redis cannot be reached for the rate limits (ConnectionError): this process counts them itself for 5 s"
    ]


def test_a_redis_that_never_answers_holds_a_limit_no_longer_than_its_timeout(caplog):
    silent = socket.socket()
    silent.bind(("127.0.0.1", 0))
    silent.listen(8)  # connections accepted by the kernel, never answered
    url = f"redis://127.0.0.1:{silent.getsockname()[1]}/0"
    try:
        with caplog.at_level(logging.WARNING, "builders.server"):
            hung = RedisLimits(url, LocalLimits())
            started = time.monotonic()
            waited = asyncio.run(asyncio.wait_for(hung.take_async("k", 2, 60.0), 10))
            took = time.monotonic() - started
            assert waited == 0.0 and took < 10 * REDIS_TIMEOUT, took
            started = time.monotonic()
            assert hung.take("k", 2, 60.0) == 0.0  # (the fallback's second of two)
            assert time.monotonic() - started < REDIS_TIMEOUT  # within FALLBACK_SECONDS: not tried
        said = [r.getMessage() for r in caplog.records if r.name == "builders.server"]
        assert said == [
            "Redis cannot be reached for the rate limits (TimeoutError): this process counts them itself for 5 s"
        ]
    finally:
        silent.close()


def test_limits_shared_through_the_database_answer_from_it_while_redis_is_away(tmp_path):
    from builders.server.limits import DatabaseLimits, shared
    from builders.server.store import Store

    store = Store(f"sqlite:///{tmp_path / 'games.sqlite3'}")
    try:
        away = shared("redis://127.0.0.1:9/0", store.engine)
        assert isinstance(away, RedisLimits) and isinstance(away.fallback, DatabaseLimits)
        assert [asyncio.run(away.take_async("k", 2, 60.0)) for _ in range(2)] == [0.0, 0.0]
        assert 29.0 <= asyncio.run(away.take_async("k", 2, 60.0)) <= 30.0
        assert 29.0 <= DatabaseLimits(store.engine).take("k", 2, 60.0) <= 30.0  # counted in the database
    finally:
        store.close()
