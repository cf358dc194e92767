"""Bot moves and analyses as jobs on Redis, computed by real ``builders worker`` processes (issue 13,
part 6): a hard bot's move computed by a worker reaches the game; a worker killed with SIGKILL in the
middle of a job is replaced and the move still arrives, once; an analysis runs on a worker and is
stored with the game; a worker with an unreachable Redis refuses to start in one line."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
import redis

from builders.server.jobs import BOT_QUEUE, JobQueue, job_id
from tests.server.conftest import make_app
from tests.server.helpers import ROOT, ThreadServer, free_port

CLI = [sys.executable, "-c", "from builders.cli import main; main()"]


def redis_db(server, n: int) -> str:
    """A database of its own on the tests' redis-server (the queues of one test are not another's)."""
    url = server.url.rsplit("/", 1)[0] + f"/{n}"
    redis.Redis.from_url(url).flushdb()
    return url


class Worker:
    """``builders worker`` in a process of its own, its output in ``log``."""

    def __init__(self, url: str, log: Path, *args: str):
        self.url, self.log = url, log
        env = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
        self.proc = subprocess.Popen(
            [*CLI, "worker", "--redis", url, "--processes", "1", *args],
            stdout=open(log, "ab"),
            stderr=subprocess.STDOUT,
            env=env,
        )

    def wait_alive(self, timeout: float = 60) -> None:
        client = redis.Redis.from_url(self.url)
        deadline = time.monotonic() + timeout
        while not client.exists(BOT_QUEUE + ":health-check"):
            assert self.proc.poll() is None, self.log.read_text()
            assert time.monotonic() < deadline, "the worker did not start"
            time.sleep(0.05)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)


@pytest.fixture
def workers():
    started: list[Worker] = []

    def start(url: str, log: Path, *args: str) -> Worker:
        started.append(Worker(url, log, *args))
        return started[-1]

    yield start
    for w in started:
        w.stop()


def wait_for(check, timeout: float = 120, every: float = 0.01):
    deadline = time.monotonic() + timeout
    while True:
        found = check()
        if found:
            return found
        assert time.monotonic() < deadline, "waited too long"
        time.sleep(every)


def test_a_hard_bot_move_survives_its_worker_killed_in_the_middle_and_is_played_once(tmp_path, redis_server, workers):
    url = redis_db(redis_server, 1)
    # a job of a dead worker is run again 3 + 2 s after it started
    first = workers(url, tmp_path / "first.log", "--job-timeout", "3")
    first.wait_alive()
    # the server's own bots are random players: a move computed by the server would not be the hard bot's
    app = make_app(tmp_path, redis_url=url)
    jobs: JobQueue = app.state.service.bots.jobs
    jobs.no_worker_grace = 120.0  # however slowly the new worker starts on a busy machine, wait for it
    client = redis.Redis.from_url(url)
    with ThreadServer(app) as server, httpx.Client(base_url=server.url, timeout=30) as api:
        created = api.post(
            "/api/games", json={"game": "kingdom", "seats": [{"type": "bot", "level": "hard"}, {"type": "human"}]}
        ).json()
        gid = created["id"]
        # the first decision of the hard bot is a job on the queue; kill its worker while it computes:
        # a worker marks a job in progress, then counts its try as it starts it (the try's key); a kill
        # between the two would leave a job never started, whose next try is its first
        started = wait_for(lambda: client.keys("arq:retry:bot:*"))
        first.proc.kill()
        first.proc.wait(timeout=10)
        jid = started[0].decode().split("arq:retry:", 1)[1]
        assert client.exists("arq:in-progress:" + jid)
        assert not client.exists("arq:result:" + jid), "the job ended before its worker was killed"
        assert api.get(f"/api/games/{gid}").json()["version"] == 0
        second = workers(url, tmp_path / "second.log", "--job-timeout", "3")
        # the job is run again by the new worker; the hard bot's whole turn arrives
        wait_for(lambda: api.get(f"/api/games/{gid}").json()["to_move"] == 1, timeout=120, every=0.1)
        assert second.proc.poll() is None
        record = api.get(f"/api/games/{gid}/state", headers={"X-Seat-Token": created["seats"][1]["token"]}).json()
        log = record["log"]
        # the job's result, computed on its second try, is the game's first action, played once
        result = json.loads(client.get("arq:result:" + jid))
        assert result["t"] == 2 and result["s"] is True
        assert log[0]["action"] == result["r"]["action"]
        assert result["r"]["worker"].endswith(f":{second.proc.pid}")
        # the hard bot of Kingdom Builder plans its whole turn: the job's result holds the turn, which
        # the server played action by action, each once (none computed by the server): rules.md
        # "Turn": the mandatory build's three settlements, then `end`
        assert [e["seat"] for e in log] == [0] * len(log)
        assert [e["action"] for e in log].count("end") == 1 and log[-1]["action"] == "end"
        assert [e["action"] for e in log] == [result["r"]["action"], *result["r"]["then"]]
        assert jobs.stats["results"] == 1
        assert jobs.stats["fallbacks"] == 0 and jobs.stats["local"] == 0 and jobs.stats["retried"] >= 1
        assert record["version"] == len(log)
        # the same counts for Prometheus
        metrics = api.get("/metrics").text
        assert 'builders_bot_jobs_total{outcome="results"} 1.0' in metrics
        assert 'builders_bot_jobs_total{outcome="fallbacks"} 0.0' in metrics
        assert f'builders_bot_jobs_total{{outcome="retried"}} {float(jobs.stats["retried"])}' in metrics


def test_without_a_live_worker_the_server_computes_the_bot_moves_itself(tmp_path, redis_server, workers):
    url = redis_db(redis_server, 2)
    app = make_app(tmp_path, redis_url=url)
    jobs: JobQueue = app.state.service.bots.jobs
    with ThreadServer(app) as server, httpx.Client(base_url=server.url, timeout=30) as api:
        created = api.post(
            "/api/games", json={"game": "kingdom", "seats": [{"type": "bot", "level": "hard"}, {"type": "human"}]}
        ).json()
        wait_for(lambda: api.get(f"/api/games/{created['id']}").json()["to_move"] == 1, timeout=60, every=0.05)
    assert jobs.stats["queued"] == 0 and jobs.stats["local"] >= 4


def test_a_job_whose_worker_never_comes_back_is_computed_by_the_server(tmp_path, redis_server, workers):
    url = redis_db(redis_server, 3)
    first = workers(url, tmp_path / "first.log", "--job-timeout", "3")
    first.wait_alive()
    app = make_app(tmp_path, redis_url=url)
    jobs: JobQueue = app.state.service.bots.jobs
    jobs.no_worker_grace = 1.0
    client = redis.Redis.from_url(url)
    with ThreadServer(app) as server, httpx.Client(base_url=server.url, timeout=30) as api:
        created = api.post(
            "/api/games", json={"game": "kingdom", "seats": [{"type": "bot", "level": "hard"}, {"type": "human"}]}
        ).json()
        claimed = wait_for(lambda: client.keys("arq:in-progress:bot:*"))
        first.proc.kill()
        first.proc.wait(timeout=10)
        wait_for(lambda: api.get(f"/api/games/{created['id']}").json()["to_move"] == 1, timeout=60, every=0.05)
    assert jobs.stats["fallbacks"] == 1 and jobs.stats["results"] == 0
    # the lost job was taken off the queue: a worker started later does not compute it for nothing
    jid = claimed[0].decode().split("arq:in-progress:", 1)[1]
    assert client.zscore(BOT_QUEUE, jid) is None


def test_a_hint_is_found_by_a_worker_and_is_the_servers_own(tmp_path, redis_server, workers):
    """With a live worker a hint is a job on the bots' queue; the worker's hint is the one the server
    finds itself for that position (the same positions drawn from what the seat sees, the same seeds),
    and the worker's name does not reach the player."""
    from builders.server import analysis
    from builders.server.analysis import _seed, hint_from_record

    url = redis_db(redis_server, 6)
    app = make_app(tmp_path, redis_url=url, analysis_iterations=25)
    jobs: JobQueue = app.state.service.bots.jobs
    with ThreadServer(app) as server, httpx.Client(base_url=server.url, timeout=30) as api:
        created = api.post(
            "/api/games", json={"game": "middle-ages", "hints": True, "seats": [{"type": "human"}, {"type": "human"}]}
        ).json()
        gid, token = created["id"], {"X-Seat-Token": created["seats"][0]["token"]}
        first = api.post(f"/api/games/{gid}/hint", headers=token).json()  # no worker: the server's own
        assert jobs.stats["local"] == 1 and jobs.stats["results"] == 0
        api.post(f"/api/games/{gid}/actions", headers=token, json={"action": first["action"]}).raise_for_status()
        worker = workers(url, tmp_path / "worker.log")
        worker.wait_alive()
        time.sleep(0.6)  # the server looks a worker's health up at most every 0.5 s
        r = api.post(f"/api/games/{gid}/hint", headers=token)
        assert r.status_code == 200, r.text
        second = r.json()
        assert jobs.stats["results"] == 1
        record = app.state.service.record(app.state.service.live[gid])
    assert set(second) == {"seat", "action", "win_chance", "visits", "plan", "version", "actions"}
    analysis._HINT_BOTS.clear()
    expected = hint_from_record(gid, record, 0, _seed("analysis", gid), 25)
    # the worker had not seen the turn: it planned the turn again from its start, as this does
    assert {k: second[k] for k in expected} == expected


def test_an_analysis_runs_on_a_worker_and_is_stored_with_the_game(tmp_path, redis_server, workers):
    from builders.ai.analysis import analyse
    from builders.server.analysis import _seed

    url = redis_db(redis_server, 4)
    app = make_app(tmp_path, redis_url=url, analysis_iterations=25)
    jobs: JobQueue = app.state.service.bots.jobs
    with ThreadServer(app) as server, httpx.Client(base_url=server.url, timeout=30) as api:
        # no worker yet: the server's random bots play the game to its end at once
        created = api.post(
            "/api/games", json={"game": "kingdom", "seats": [{"type": "bot", "level": "easy"}] * 2}
        ).json()
        gid = created["id"]
        wait_for(lambda: api.get(f"/api/games/{gid}").json()["status"] == "finished", every=0.05)
        record = api.get(f"/api/games/{gid}/record").json()
        worker = workers(url, tmp_path / "worker.log")
        worker.wait_alive()
        wait_for(lambda: redis.Redis.from_url(url).exists("builders:analyses:health-check"))
        before = dict(jobs.stats)  # the bots' moves of the game, all computed by the server
        r = api.post(f"/api/games/{gid}/analysis")
        assert r.status_code == 202 and r.json()["status"] == "running"
        shown = wait_for(
            lambda: (lambda a: a if a["status"] != "running" else None)(api.get(f"/api/games/{gid}/analysis").json()),
            timeout=300,
            every=0.1,
        )
    assert shown["status"] == "done" and shown["error"] is None
    assert before["results"] == 0 and before["local"] > 0
    assert jobs.stats == {**before, "queued": 1, "results": 1}
    # the worker's analysis is the one the search gives for this record, seed and budget
    expected = analyse(record, iterations=25, seed=_seed("analysis", gid)).to_json()
    assert shown["result"] == expected
    assert shown["done"] == shown["total"] == len(expected["decisions"])


def test_a_worker_with_an_unreachable_redis_refuses_to_start_in_one_line():
    port = free_port()  # nothing listens there
    for args, start in (
        (["--redis", f"redis://127.0.0.1:{port}/0"], f"error: Redis at redis://127.0.0.1:{port}/0 cannot be reached: "),
        (
            ["--redis", "localhost:6379"],
            "error: --redis must be a Redis URL (redis://host:port/db), not 'localhost:6379'",
        ),
        (["--redis", "redis://127.0.0.1:1/0", "--processes", "0"], "error: --processes must be from 1 to 64, not 0"),
    ):
        proc = subprocess.run(
            [*CLI, "worker", *args],
            capture_output=True,
            text=True,
            timeout=60,
            env=dict(os.environ, PYTHONPATH=str(ROOT / "src")),
        )
        assert proc.returncode == 2, proc.stderr
        assert proc.stderr.startswith(start) and proc.stderr.count("\n") == 1, proc.stderr
        assert proc.stdout == ""


def test_job_ids_are_the_hash_of_the_input():
    record = {"game": "kingdom", "history": ["a"]}
    assert job_id("bot", record, "hard", 1) == job_id("bot", dict(reversed(record.items())), "hard", 1)
    assert job_id("bot", record, "hard", 1) != job_id("bot", record, "hard", 2)
    assert job_id("bot", record, "hard", 1).startswith("bot:") and len(job_id("bot", record, "hard", 1)) == 36


def test_the_embedded_bot_pool_is_one_process_per_core_unless_told(monkeypatch):
    from builders.server.run import default_bot_workers

    monkeypatch.delenv("BUILDERS_BOT_WORKERS", raising=False)
    assert default_bot_workers() == os.cpu_count()
    monkeypatch.setenv("BUILDERS_BOT_WORKERS", "3")
    assert default_bot_workers() == 3
    proc = subprocess.run(
        [*CLI, "serve", "--bot-workers", "0"],
        capture_output=True,
        text=True,
        timeout=60,
        env=dict(os.environ, PYTHONPATH=str(ROOT / "src")),
    )
    assert (proc.returncode, proc.stderr) == (2, "error: --bot-workers must be from 1 to 64, not 0\n")


def test_two_servers_asking_for_the_same_decision_share_one_job(tmp_path, redis_server, workers):
    """The job's id is the hash of its input: a second server process (or a retry) asking for the same
    decision waits for the same job; each server then plays it under its version check."""
    import asyncio

    from builders.core.games import get_game

    url = redis_db(redis_server, 5)
    worker = workers(url, tmp_path / "worker.log")
    worker.wait_alive()
    setup = get_game("kingdom").random_setup(2, 3)
    record = {"game": "kingdom", "format": 1, "setup": setup, "history": []}
    one, two = JobQueue(url), JobQueue(url)

    async def both():
        try:
            return await asyncio.gather(one.bot_move(record, "medium", 11), two.bot_move(record, "medium", 11))
        finally:
            await one.close()
            await two.close()

    first, second = asyncio.run(both())
    state = get_game("kingdom").new_state(setup)
    assert first == second and first in [state.action_to_string(a) for a in state.legal_actions()]
    assert one.stats["queued"] + two.stats["queued"] == 1
    assert one.stats["results"] == two.stats["results"] == 1
    assert client_jobs(url) == [job_id("bot", record, "medium", 11)]


def client_jobs(url: str) -> list[str]:
    """The ids of the bot jobs whose results are on Redis."""
    keys = redis.Redis.from_url(url).keys("arq:result:bot:*")
    return sorted(k.decode().split("arq:result:", 1)[1] for k in keys)


def test_an_analysis_whose_worker_dies_is_run_by_the_server(tmp_path, redis_server, workers):
    url = redis_db(redis_server, 6)
    app = make_app(tmp_path, redis_url=url, analysis_iterations=300)  # a second of work: killed in it
    jobs: JobQueue = app.state.service.bots.jobs
    jobs.no_worker_grace = 1.0
    client = redis.Redis.from_url(url)
    with ThreadServer(app) as server, httpx.Client(base_url=server.url, timeout=30) as api:
        created = api.post(
            "/api/games", json={"game": "kingdom", "seats": [{"type": "bot", "level": "easy"}] * 2}
        ).json()
        gid = created["id"]
        wait_for(lambda: api.get(f"/api/games/{gid}").json()["status"] == "finished", every=0.05)
        worker = workers(url, tmp_path / "worker.log")
        wait_for(lambda: client.exists("builders:analyses:health-check"), every=0.05)
        assert api.post(f"/api/games/{gid}/analysis").status_code == 202
        wait_for(lambda: client.keys("arq:in-progress:analysis:*"))
        worker.proc.kill()
        worker.proc.wait(timeout=10)
        shown = wait_for(
            lambda: (lambda a: a if a["status"] != "running" else None)(api.get(f"/api/games/{gid}/analysis").json()),
            timeout=300,
            every=0.1,
        )
    assert shown["status"] == "done" and shown["done"] == shown["total"] == len(shown["result"]["decisions"]) > 0
    assert jobs.stats["fallbacks"] == 1 and jobs.stats["results"] == 0


def test_job_ids_urls_shown_and_bad_redis_urls_exactly():
    from builders.server.jobs import _dumps, _loads, check_redis, shown

    assert job_id("bot", {"a": 1}, "hard", 1) == "bot:62862c17f01ce7235f0ab7c48fef345f"
    assert job_id("analysis") == "analysis:4f53cda18c2baa0c0354bb5f9a3ecbe5"
    assert shown("redis://user:secret@cache.example:6380/2") == "redis://cache.example:6380/2"
    assert shown("redis://cache.example:6379/0") == "redis://cache.example:6379/0"
    assert shown("rediss://:pw@a@host/1") == "rediss://host/1"
    assert shown("not a url") == "not a url"
    assert _dumps({"b": [1, 2], "a": None}) == b'{"b":[1,2],"a":null}' and _loads(b'{"x":[1]}') == {"x": [1]}
    assert check_redis("http://cache.example") == (
        "--redis must be a Redis URL (redis://host:port/db), not 'http://cache.example'"
    )
    refusal = check_redis("redis://user:secret@127.0.0.1:9/0")  # nothing listens on port 9
    assert refusal.startswith("Redis at redis://127.0.0.1:9/0 cannot be reached: ") and "secret" not in refusal


def test_a_live_redis_is_fit_for_the_queue(redis_server):
    from builders.server.jobs import check_redis

    assert check_redis(redis_server.url) is None
