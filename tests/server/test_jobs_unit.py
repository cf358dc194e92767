"""The job queue and its worker in this test process (issue 43: mutation testing of ``server/jobs.py``).

test_jobs.py runs ``builders worker`` in processes of its own; here the same code runs in-process on
the real Redis of the tests: ``jobs.work`` as a task of the test's event loop (its compute processes
are real), and the server's :class:`JobQueue` against it, or against a queue whose worker is only
its health key (a worker that never answers, dies, or loses a job), so that each way a job can be
lost is seen with its exact reason, count and log line.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import random
import signal
import socket
import time
from pathlib import Path

import pytest
import redis

from builders.core.games import get_game
from builders.server import jobs
from builders.server.jobs import ANALYSIS_QUEUE, BOT_QUEUE, PROGRESS_KEY, JobQueue, job_id

ZERO = {"queued": 0, "results": 0, "retried": 0, "fallbacks": 0, "local": 0}
NAME = f"{socket.gethostname()}:{os.getpid()}"


@pytest.fixture
def url(redis_server):
    """A database of its own on the tests' redis-server, empty (test_jobs.py has 1 to 6)."""
    found = redis_server.url.rsplit("/", 1)[0] + "/8"
    redis.Redis.from_url(found).flushdb()
    yield found
    redis.Redis.from_url(found).flushdb()


def kingdom_record(moves: int = 0, finished: bool = False, seed: int = 3) -> dict:
    """A Kingdom Builder record of ``moves`` random actions (or played to its end), the same for a seed."""
    game = get_game("kingdom")
    state = game.new_state(game.random_setup(2, seed))
    rng = random.Random(seed)
    while not state.is_over() and (finished or len(state.player_actions()) < moves):
        actions = state.legal_actions()
        state.apply(actions[rng.randrange(len(actions))])
    return state.to_record()


def run(coro):
    return asyncio.run(coro)


async def until(check, timeout: float = 90.0, every: float = 0.02):
    deadline = time.monotonic() + timeout
    while True:
        found = check()
        if found:
            return found
        assert time.monotonic() < deadline, "waited too long"
        await asyncio.sleep(every)


def children() -> dict[int, int]:
    """The processes this test process started -> their nice value."""
    out = {}
    me = str(os.getpid())
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if fields[1] == me and fields[0] != "Z":
            out[int(stat.parent.name)] = int(fields[16])
    return out


def spawned() -> dict[int, int]:
    """The compute processes (spawned by multiprocessing) of this test process -> their nice value."""
    out = {}
    for pid, nice in children().items():
        try:
            cmd = Path(f"/proc/{pid}/cmdline").read_bytes()
        except OSError:
            continue
        if b"spawn_main" in cmd:
            out[pid] = nice
    return out


def own_nice(more: int) -> int:
    return min(os.getpriority(os.PRIO_PROCESS, 0) + more, 19)


@contextlib.asynccontextmanager
async def worker(url: str, processes: int = 1, analyses: bool = True, job_timeout: float = 60.0):
    """``jobs.work`` on ``url`` as a task of this event loop; stopped by SIGTERM as a worker is."""
    before = set(spawned())
    ready = asyncio.Event()
    task = asyncio.create_task(jobs.work(url, processes, analyses=analyses, job_timeout=job_timeout, ready=ready.set))
    await asyncio.wait_for(ready.wait(), 60)
    client = redis.Redis.from_url(url)
    await until(lambda: client.exists(BOT_QUEUE + ":health-check"))
    if analyses:
        await until(lambda: client.exists(ANALYSIS_QUEUE + ":health-check"))
    try:
        yield task, before
    finally:
        if not task.done():
            os.kill(os.getpid(), signal.SIGTERM)  # the worker's own handler: it stops, nothing else
        await asyncio.wait_for(task, 60)


def alive_marker(url: str, queue: str = BOT_QUEUE) -> redis.Redis:
    """A queue whose worker is only its health key (it never takes a job)."""
    client = redis.Redis.from_url(url)
    client.set(queue + ":health-check", b"test")
    return client


def test_a_queue_s_settings_and_counts_start_as_documented(monkeypatch):
    monkeypatch.delenv("BUILDERS_BOT_JOB_DEADLINE", raising=False)
    q = JobQueue("redis://127.0.0.1:9/0")
    assert (q.redis_url, q.deadline, q.poll, q.stall, q.no_worker_grace) == (
        "redis://127.0.0.1:9/0",
        60.0,
        0.05,
        120.0,
        10.0,
    )
    assert q.stats == ZERO
    monkeypatch.setenv("BUILDERS_BOT_JOB_DEADLINE", "7.5")
    assert JobQueue("redis://x").deadline == 7.5
    assert JobQueue("redis://x", deadline=3).deadline == 3
    assert JobQueue("redis://x", deadline=0).deadline == 0
    monkeypatch.setenv("BUILDERS_BOT_JOB_DEADLINE", "")
    assert JobQueue("redis://x").deadline == 60.0
    q = JobQueue("redis://x", poll=0.2, stall=5, no_worker_grace=3)
    assert (q.poll, q.stall, q.no_worker_grace) == (0.2, 5, 3)


def test_a_worker_is_alive_while_its_health_key_is_and_is_looked_up_at_most_every_half_second(url):
    async def scenario():
        q = JobQueue(url)
        try:
            assert await q.alive(BOT_QUEUE) is False
            client = alive_marker(url)
            assert await q.alive(BOT_QUEUE) is False  # looked up less than 0.5 s ago
            await asyncio.sleep(0.6)
            assert await q.alive(BOT_QUEUE) is True
            assert await q.alive(ANALYSIS_QUEUE) is False  # each queue its own key
            client.delete(BOT_QUEUE + ":health-check")
            assert await q.alive(BOT_QUEUE) is True
            await asyncio.sleep(0.6)
            assert await q.alive(BOT_QUEUE) is False
        finally:
            await q.close()
        # Redis unreachable: no worker, no error
        gone = JobQueue("redis://127.0.0.1:9/0")
        assert await gone.alive(BOT_QUEUE) is False
        await gone.close()

    run(scenario())


def test_without_a_live_worker_the_server_computes_each_job_itself_and_counts_it(url, caplog):
    async def scenario():
        q = JobQueue(url)
        try:
            record = kingdom_record(2)
            assert await q.bot_move(record, "medium", 1) is None
            assert await q.bot_turn(record, "medium", 1) is None
            assert await q.hint("g1", record, 0, 1, 10) is None

            async def progress(done, total):
                raise AssertionError("no progress without a worker")

            assert await q.analysis("g1", record, 10, 1, progress) is None
            assert q.stats == {**ZERO, "local": 4}
        finally:
            await q.close()

    with caplog.at_level(logging.WARNING, "builders.server"):
        run(scenario())
    assert caplog.records == []  # no worker is no fault
    assert redis.Redis.from_url(url).keys("arq:*") == []  # nothing queued


def lost(caplog) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name == "builders.server"]


def given_up(q: JobQueue, ask, queue: str, jid: str, then=None, stats: dict | None = None) -> float:
    """Ask the queue ``q`` (``ask(q)``) for job ``jid``, which no worker takes; once it is queued, do
    ``then()``; check that None comes back with ``stats`` (one queued, one fallback by default) and
    give the seconds from the job's queueing to that."""
    client = redis.Redis.from_url(q.redis_url)

    async def scenario():
        try:
            task = asyncio.create_task(ask(q))
            await until(lambda: client.zscore(queue, jid) is not None)
            queued = time.monotonic()
            if then is not None:
                then()
            assert await task is None
            assert q.stats == (stats or {**ZERO, "queued": 1, "fallbacks": 1})
            return time.monotonic() - queued
        finally:
            await q.close()

    return run(scenario())


def test_a_bot_move_past_its_deadline_is_the_server_s_and_leaves_the_queue(url, caplog):
    record = kingdom_record(1)
    jid = job_id("bot", record, "medium", 5)
    client = alive_marker(url)

    ttl = []
    with caplog.at_level(logging.WARNING, "builders.server"):
        waited = given_up(
            JobQueue(url, deadline=1.5),
            lambda q: q.bot_move(record, "medium", 5),
            BOT_QUEUE,
            jid,
            then=lambda: ttl.append(client.pttl("arq:job:" + jid)),
        )
    assert 0 < ttl[0] <= 1500  # a bot move's job expires at its deadline
    assert 1.0 < waited < 6
    assert lost(caplog) == [f"job {jid} lost (no result after 1.5 s): the server computes the bot move"]
    assert client.zscore(BOT_QUEUE, jid) is None  # taken off the queue: no worker computes it for nothing


def test_a_hint_past_its_deadline_is_the_server_s(url, caplog):
    record = kingdom_record(2)
    jid = job_id("hint", "g7", record, 1, 4, 30)
    client = alive_marker(url)

    with caplog.at_level(logging.WARNING, "builders.server"):
        given_up(JobQueue(url, deadline=1.0), lambda q: q.hint("g7", record, 1, 4, 30), BOT_QUEUE, jid)
    assert lost(caplog) == [f"job {jid} lost (no result after 1 s): the server computes the hint"]
    assert client.zscore(BOT_QUEUE, jid) is None and client.zcard(BOT_QUEUE) == 0


def test_a_job_whose_workers_all_went_away_is_the_server_s_after_the_grace(url, caplog):
    record = kingdom_record(3)
    jid = job_id("bot", record, "easy", 2)
    client = alive_marker(url)

    with caplog.at_level(logging.WARNING, "builders.server"):
        waited = given_up(
            JobQueue(url, deadline=60, no_worker_grace=1.0),
            lambda q: q.bot_turn(record, "easy", 2),
            BOT_QUEUE,
            jid,
            then=lambda: client.delete(BOT_QUEUE + ":health-check"),
        )
    assert 1.5 < waited < 10  # seen gone at the first check (1 s), given up a grace (1 s) later
    assert lost(caplog) == [f"job {jid} lost (no worker has been alive for 1 s): the server computes the bot move"]
    assert client.zcard(BOT_QUEUE) == 0


def test_a_job_gone_from_redis_is_the_server_s(url, caplog):
    record = kingdom_record(4)
    jid = job_id("bot", record, "medium", 9)
    client = alive_marker(url)

    def gone():
        client.zrem(BOT_QUEUE, jid)
        client.delete("arq:job:" + jid)

    with caplog.at_level(logging.WARNING, "builders.server"):
        waited = given_up(JobQueue(url), lambda q: q.bot_move(record, "medium", 9), BOT_QUEUE, jid, then=gone)
    assert waited < 3  # noticed at the next check, each second
    assert lost(caplog) == [f"job {jid} lost (the job is gone from Redis): the server computes the bot move"]


def test_an_analysis_reports_its_worker_s_progress_and_is_the_server_s_once_it_stalls(url, caplog):
    record = kingdom_record(5)
    jid = job_id("analysis", "g3", record, 20, 6)
    client = alive_marker(url, ANALYSIS_QUEUE)
    seen = []

    async def progress(done, total):
        seen.append((done, total))

    async def scenario():
        q = JobQueue(url, stall=1.5)
        try:
            task = asyncio.create_task(q.analysis("g3", record, 20, 6, progress))
            await until(lambda: client.zscore(ANALYSIS_QUEUE, jid) is not None)
            queued = client.get("arq:job:" + jid)
            assert b'"analysis"' in queued and PROGRESS_KEY.encode() + jid.encode() in queued
            client.set(PROGRESS_KEY + jid, "2/7")
            await until(lambda: seen, timeout=5)
            assert seen == [(2, 7)]
            client.set(PROGRESS_KEY + jid, "5/7")
            await until(lambda: len(seen) == 2, timeout=5)
            changed = time.monotonic()
            assert await task is None  # then no progress for 1.5 s
            assert q.stats == {**ZERO, "queued": 1, "fallbacks": 1}
            return time.monotonic() - changed
        finally:
            await q.close()

    with caplog.at_level(logging.WARNING, "builders.server"):
        waited = run(scenario())
    assert seen == [(2, 7), (5, 7)]
    assert 0.5 < waited < 4
    assert lost(caplog) == [f"job {jid} lost (no progress for 1.5 s): the server computes the analysis"]
    assert client.zcard(ANALYSIS_QUEUE) == 0  # off the analyses' queue
    # no deadline on an analysis: it may run as long as it moves (arq keeps a job a day)
    assert 86_000_000 < client.pttl("arq:job:" + jid) <= 86_400_000


def test_a_redis_lost_between_the_health_check_and_the_job_is_the_server_s(tmp_path, caplog):
    from tests.server.services import Redis

    own = Redis(tmp_path / "redis").start()
    try:
        alive_marker(own.url)

        async def scenario():
            q = JobQueue(own.url)
            try:
                assert await q.alive(BOT_QUEUE) is True
                own.kill()  # within the half second the health is known
                assert await q.bot_move(kingdom_record(1), "medium", 1) is None
                assert q.stats == {**ZERO, "fallbacks": 1}
                await asyncio.sleep(0.6)
                assert await q.bot_move(kingdom_record(1), "medium", 1) is None  # no worker now
                assert q.stats == {**ZERO, "fallbacks": 1, "local": 1}
            finally:
                await q.close()
                assert q._pool is None and q._poller is None

        with caplog.at_level(logging.WARNING, "builders.server"):
            run(scenario())
    finally:
        own.stop()
    found = lost(caplog)
    assert len(found) == 1 and found[0].startswith("the job queue cannot be used (")
    assert found[0].endswith("): the server computes the bot move")


def test_a_worker_in_this_process_computes_bot_moves_hints_and_analyses(url, caplog):
    from builders.ai.analysis import analyse
    from builders.server import analysis
    from builders.server.bots import choose_turn

    record = kingdom_record(2)
    finished = kingdom_record(finished=True, seed=4)
    client = redis.Redis.from_url(url)
    expected_move = choose_turn(record, "medium", 11)
    analysis._HINT_BOTS.clear()
    expected_hint = analysis.hint_from_record("g5", record, 0, 8, 12)
    expected_analysis = analyse(finished, iterations=1, seed=2)
    decisions = len(expected_analysis.decisions)
    reported = []

    async def progress(done, total):
        reported.append((done, total))

    async def scenario():
        async with worker(url, processes=2) as (task, before):
            # the compute processes are started before the first job: two for the bots and one more
            # for the analyses, at nice 5 (people first)
            niced = [own_nice(5)] * 3
            mine = await until(
                lambda: (lambda s: s if sorted(s.values()) == niced else None)(
                    {p: n for p, n in spawned().items() if p not in before}
                ),
                timeout=60,
            )
            one, two = JobQueue(url), JobQueue(url)
            try:
                # a bot's decision, shared by two servers asking for it at once
                first, second = await asyncio.gather(
                    one.bot_turn(record, "medium", 11), two.bot_move(record, "medium", 11)
                )
                assert first == expected_move and second == expected_move[0]
                assert one.stats["queued"] + two.stats["queued"] == 1
                assert {**one.stats, "queued": 0} == {**two.stats, "queued": 0} == {**ZERO, "results": 1}
                stored = client.get("arq:result:" + job_id("bot", record, "medium", 11))
                assert b'"worker":"' + NAME.encode() + b'"' in stored
                # the hard bot plans its whole turn: its action, then the rest of the turn
                start = kingdom_record(0)
                turn = await one.bot_turn(start, "hard", 1)
                state = get_game("kingdom").new_state(start["setup"])
                for text in turn:
                    state.apply_string(text)
                assert len(turn) > 1 and turn[-1] == "end" and state.current_player == 1
                # a hint: the one the server finds itself, and the worker's name
                hint = await one.hint("g5", record, 0, 8, 12)
                assert hint == {**expected_hint, "worker": NAME}
                # a job that fails on the worker (a record of no game) is the server's
                assert await one.bot_move({"game": "nope", "setup": {}, "history": []}, "medium", 1) is None
                # (either server may have queued the shared job)
                assert one.stats["queued"] + two.stats["queued"] == 4
                assert {**one.stats, "queued": 0} == {**ZERO, "results": 3, "fallbacks": 1}
                # an analysis, with its progress
                found = await one.analysis("g9", finished, 1, 2, progress)
                jid = job_id("analysis", "g9", finished, 1, 2)
                assert found == {"result": expected_analysis.to_json(), "decisions": decisions, "worker": NAME}
                assert client.get(PROGRESS_KEY + jid) == f"{decisions}/{decisions}".encode()
                assert 590 < client.ttl(PROGRESS_KEY + jid) <= 600
                assert one.stats["queued"] + two.stats["queued"] == 5
                assert {**one.stats, "queued": 0} == {**ZERO, "results": 4, "fallbacks": 1}
                assert 590 < client.ttl("arq:result:" + jid) <= 600
            finally:
                await one.close()
                await two.close()
            assert not task.done()
            return mine

    with caplog.at_level(logging.WARNING, "builders.server"):
        mine = run(scenario())
    assert all(0 <= d <= t for d, t in reported)
    failures = [m for m in lost(caplog) if "the job failed on its worker:" in m]
    assert len(failures) == 1 and failures[0].endswith(": the server computes the bot move"), lost(caplog)
    # stopped by SIGTERM: its compute processes are gone with it
    deadline = time.monotonic() + 30
    while set(mine) & set(children()) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not set(mine) & set(children())


def test_a_job_whose_compute_process_died_twice_goes_back_on_the_queue_and_is_run_again(url):
    """The worker's pool runs a task once more when its process dies; when that one dies too, the
    job goes back on the queue (arq's Retry) and its next try computes it."""
    record = kingdom_record(0)
    jid = job_id("bot", record, "hard", 4)
    client = redis.Redis.from_url(url)

    async def scenario():
        async with worker(url, processes=1, analyses=False) as (task, before):
            first = await until(lambda: [p for p in spawned() if p not in before], timeout=60)
            assert len(first) == 1  # no analyses: one compute process
            q = JobQueue(url)
            try:
                asked = asyncio.create_task(q.bot_turn(record, "hard", 4))
                await until(lambda: client.exists("arq:in-progress:" + jid))
                killed: set[int] = set()
                for _ in range(2):  # its process, then the one that runs it again
                    pid = (await until(lambda: [p for p in spawned() if p not in before | killed], timeout=60))[0]
                    await asyncio.sleep(0.3)
                    os.kill(pid, signal.SIGKILL)
                    killed.add(pid)
                texts = await asyncio.wait_for(asked, 120)
                assert q.stats == {**ZERO, "queued": 1, "results": 1, "retried": 1}
            finally:
                await q.close()
            return texts

    texts = run(scenario())
    assert b'"t":2' in client.get("arq:result:" + jid)
    state = get_game("kingdom").new_state(record["setup"])
    for text in texts:  # the hard bot's decision (timed: not the same on every run), legal
        state.apply_string(text)
    assert not client.exists(ANALYSIS_QUEUE + ":health-check")


def test_a_compute_process_writes_an_analysis_s_progress_on_redis_and_goes_on_without_it(url):
    from builders.ai.analysis import analyse

    finished = kingdom_record(finished=True, seed=5)
    expected = analyse(finished, iterations=1, seed=3)
    n = len(expected.decisions)
    client = redis.Redis.from_url(url)
    saved = dict(jobs._child)
    try:
        jobs._child_start(url)
        assert jobs._child == {"redis_url": url}
        assert jobs._child_analysis(finished, 1, 3, PROGRESS_KEY + "a") == {
            "result": expected.to_json(),
            "decisions": n,
        }
        assert client.get(PROGRESS_KEY + "a") == f"{n}/{n}".encode()
        assert 590 < client.ttl(PROGRESS_KEY + "a") <= 600
        # Redis gone: the analysis is computed all the same, its progress unknown
        jobs._child_start("redis://127.0.0.1:9/0")
        assert jobs._child_analysis(finished, 1, 3, PROGRESS_KEY + "b") == {
            "result": expected.to_json(),
            "decisions": n,
        }
        assert not client.exists(PROGRESS_KEY + "b")
    finally:
        jobs._child.clear()
        jobs._child.update(saved)
