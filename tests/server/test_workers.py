"""The server's one pool of worker processes (builders.server.workers): bot moves and hints first,
analyses in the background lane, a worker killed in the middle of a task, the pool's depth in
/metrics, and its processes ended with the server."""

from __future__ import annotations

import asyncio
import os
import signal
import threading
import time

import httpx
import pytest

from builders.server.workers import BACKGROUND, PLAY, WorkerDied, WorkerPool
from tests.server.conftest import make_app
from tests.server.helpers import ProcessServer, ThreadServer, slow_agent
from tests.server.test_analysis import create, finished_bot_game, wait_for_analysis
from tests.server.test_restart import wait_for


# -- the lanes ---------------------------------------------------------------------------------------
def test_play_tasks_go_before_waiting_analyses_and_analyses_never_hold_the_last_worker():
    pool = WorkerPool(3, "thread", background=2)
    gates = {name: threading.Event() for name in ("a0", "a1", "a2", "p0", "p1", "p2")}
    started: list[str] = []

    def task(name: str) -> str:
        started.append(name)
        gates[name].wait(10)
        return name

    async def main():
        runs = {
            name: asyncio.create_task(pool.run(BACKGROUND if name[0] == "a" else PLAY, task, name))
            for name in ("a0", "a1", "a2")
        }
        await asyncio.sleep(0.2)
        # two analyses at most: the third waits although a worker is free (kept for people)
        assert started == ["a0", "a1"] and pool.busy() == {"play": 0, "background": 2}
        assert pool.depth() == {"play": 0, "background": 1}
        runs["p0"] = asyncio.create_task(pool.run(PLAY, task, "p0"))
        await asyncio.sleep(0.2)
        assert started == ["a0", "a1", "p0"]
        runs["p1"] = asyncio.create_task(pool.run(PLAY, task, "p1"))
        await asyncio.sleep(0.1)
        assert pool.depth() == {"play": 1, "background": 1}
        gates["a0"].set()  # a worker is free: the bot move waiting goes first, not the analysis
        await asyncio.sleep(0.2)
        assert started == ["a0", "a1", "p0", "p1"] and pool.depth() == {"play": 0, "background": 1}
        for gate in gates.values():
            gate.set()
        assert [await runs[n] for n in ("a0", "a1", "a2", "p0", "p1")] == ["a0", "a1", "a2", "p0", "p1"]
        assert started[-1] == "a2" and pool.stats == {"done": 5, "restarts": 0, "retried": 0, "failed": 0}

    try:
        asyncio.run(main())
    finally:
        pool.close()


def test_a_keyed_task_runs_on_its_worker_when_it_is_free_else_on_another():
    pool = WorkerPool(2, "thread", background=0)
    key = next(k for k in (f"hints:g{i}/0" for i in range(50)) if pool.slot_of(k) == 1)
    hold = threading.Event()

    def name(wait: bool = False) -> str:
        if wait:
            hold.wait(10)
        return threading.current_thread().name.rsplit("_", 1)[0]

    async def main():
        assert [await pool.run(PLAY, name, key=key) for _ in range(3)] == ["builders-worker-1"] * 3
        busy = asyncio.create_task(pool.run(PLAY, name, True, key=key))
        await asyncio.sleep(0.1)
        assert await pool.run(PLAY, name, key=key) == "builders-worker-0"  # its worker is busy
        hold.set()
        assert await busy == "builders-worker-1"

    try:
        asyncio.run(main())
    finally:
        pool.close()


def test_bad_modes_and_lanes_are_refused_and_a_closed_pool_runs_nothing():
    with pytest.raises(ValueError, match=r"^the worker mode must be process, thread or inline, not 'fork'$"):
        WorkerPool(1, "fork")
    pool = WorkerPool(1, "thread", background=1)
    assert (pool.size, pool.background) == (2, 1)  # one worker more than the analyses may hold

    async def main():
        with pytest.raises(ValueError, match=r"^the lane must be play or background, not 'urgent'$"):
            await pool.run("urgent", len, "x")
        assert await pool.run(PLAY, len, "abc") == 3
        pool.close()
        with pytest.raises(WorkerDied, match=r"^the worker pool is closed: the server is stopping$"):
            await pool.run(PLAY, len, "abc")

    asyncio.run(main())


# -- a worker killed ---------------------------------------------------------------------------------
def test_a_worker_killed_in_the_middle_of_a_bots_move_the_game_goes_on_with_one_move(tmp_path):
    app = make_app(tmp_path, bot_mode="process", bot_factory=slow_agent, bot_workers=1)
    pool = app.state.workers
    with ThreadServer(app) as server, httpx.Client(base_url=server.url, timeout=30) as api:
        created = create(api, seats=[{"type": "bot", "level": "hard"}, {"type": "human"}])
        gid = created["id"]
        # the bot thinks for 2 s of CPU: kill its worker one second in
        first = wait_for(lambda: pool.pids(PLAY), what="the bot's move starting")
        time.sleep(1.0)
        assert api.get(f"/api/games/{gid}").json()["version"] == 0
        os.kill(first[0], signal.SIGKILL)
        wait_for(lambda: api.get(f"/api/games/{gid}").json()["version"] >= 1, 30, "the bot's move")
        # one build of the bot's turn played (its next one takes 2 s more), not two
        view = api.get(f"/api/games/{gid}/state", headers={"X-Seat-Token": created["seats"][1]["token"]}).json()
        assert view["version"] == 1 and [e["seat"] for e in view["log"]] == [0]
        assert (pool.stats["retried"], pool.stats["restarts"], pool.stats["failed"]) == (1, 1, 0)
        assert first[0] not in pool.pids() and len(pool.pids()) == 1


# 300 iterations a move: about a second of work on the native core, so that the worker can be caught
# in the middle (with 5, the whole analysis took 0.06 s and could end between two polls)
ANALYSIS_ITERATIONS = 300


def _analysis_app(tmp_path):
    app = make_app(
        tmp_path, bot_mode="process", analysis_iterations=ANALYSIS_ITERATIONS, bot_workers=1, analysis_workers=1
    )
    return app, app.state.workers


def test_a_worker_killed_in_the_middle_of_an_analysis_the_analysis_finishes_once_and_as_without(tmp_path):
    from builders.ai.analysis import analyse

    app, pool = _analysis_app(tmp_path)
    with ThreadServer(app) as server, httpx.Client(base_url=server.url, timeout=60) as api:
        gid = finished_bot_game(api, setup={"seed": 4})["id"]
        r = api.post(f"/api/games/{gid}/analysis")
        assert r.status_code == 202
        # some progress written and the worker still on it: it is in the middle
        killed = wait_for(
            lambda: api.get(f"/api/games/{gid}/analysis").json()["done"] > 0 and pool.pids(BACKGROUND), what="progress"
        )
        assert len(killed) == 1
        os.kill(killed[0], signal.SIGKILL)
        final = wait_for_analysis(api, gid, [])
        assert final["status"] == "done" and final["error"] is None and final["done"] == final["total"]
        assert (pool.stats["retried"], pool.stats["restarts"], pool.stats["failed"]) == (1, 1, 0)
        service = app.state.service
        record = service.record(service.get(gid))  # what the server gave the analysis
    from builders.server.analysis import _seed

    # the analysis run again from the start gives what one run gives
    assert final["result"] == analyse(record, iterations=ANALYSIS_ITERATIONS, seed=_seed("analysis", gid)).to_json()


def test_an_analysis_whose_worker_dies_twice_fails_with_a_clear_message_and_can_be_started_again(tmp_path):
    app, pool = _analysis_app(tmp_path)
    with ThreadServer(app) as server, httpx.Client(base_url=server.url, timeout=60) as api:
        gid = finished_bot_game(api, setup={"seed": 4})["id"]
        assert api.post(f"/api/games/{gid}/analysis").status_code == 202
        for n in (1, 2):
            wait_for(lambda: pool.stats["restarts"] == n - 1 and pool.pids(BACKGROUND), what=f"attempt {n}")
            time.sleep(0.3)
            os.kill(pool.pids(BACKGROUND)[0], signal.SIGKILL)
        final = wait_for_analysis(api, gid, [])
        assert (final["status"], final["error"], final["result"]) == (
            "failed",
            "the analysis failed: a worker process died twice while computing it",
            None,
        )
        assert (pool.stats["retried"], pool.stats["restarts"], pool.stats["failed"]) == (1, 2, 1)
        # the pool serves again: the analysis started anew runs to its end
        assert api.post(f"/api/games/{gid}/analysis").status_code == 202
        again = wait_for_analysis(api, gid, [])
        assert again["status"] == "done" and again["error"] is None and again["done"] == again["total"]


def test_a_bot_move_comes_within_its_budget_while_a_long_analysis_runs(tmp_path):
    """The hard level has 2 s a turn. With an analysis of a whole game running in the background
    lane, the bot's move comes in its time: it does not wait behind the analysis."""
    app = make_app(
        tmp_path, bot_mode="process", bot_factory=None, analysis_iterations=2000, bot_workers=1, analysis_workers=1
    )
    pool = app.state.workers
    with ThreadServer(app) as server, httpx.Client(base_url=server.url, timeout=60) as api:
        gid = finished_bot_game(api, "kingdom", setup={"seed": 3})["id"]  # easy bots: the workers are up
        assert api.post(f"/api/games/{gid}/analysis").status_code == 202
        wait_for(lambda: pool.busy()[BACKGROUND] == 1, what="the analysis starting")
        started = time.monotonic()
        created = create(api, seats=[{"type": "bot", "level": "hard"}, {"type": "human"}])
        wait_for(lambda: api.get(f"/api/games/{created['id']}").json()["version"] >= 1, 30, "the bot's move")
        took = time.monotonic() - started
        analysis = api.get(f"/api/games/{gid}/analysis").json()
        assert analysis["status"] == "running" and pool.busy()[BACKGROUND] == 1  # it ran all along
        # 2 s of the planner's (it plans with 0.9 of it), its replay and the answer: a second to spare
        assert took < 3.0, f"the bot's move took {took:.2f} s"


# -- metrics and shutdown ----------------------------------------------------------------------------
def test_the_pools_depth_and_tasks_are_in_metrics(tmp_path):
    app = make_app(tmp_path, bot_mode="thread", bot_workers=2, analysis_workers=1)
    with ThreadServer(app) as server, httpx.Client(base_url=server.url, timeout=30) as api:
        finished_bot_game(api)
        done = app.state.workers.stats["done"]
        text = api.get("/metrics").text
    assert done > 10
    for line in (
        'builders_worker_queue{lane="play"} 0.0',
        'builders_worker_queue{lane="background"} 0.0',
        'builders_workers_busy{lane="play"} 0.0',
        "builders_workers 2.0",
        f'builders_worker_tasks_total{{outcome="done"}} {float(done)}',
        'builders_worker_tasks_total{outcome="failed"} 0.0',
    ):
        assert line in text.splitlines(), line


def test_sigterm_stops_the_server_and_its_worker_processes(tmp_path):
    log = tmp_path / "server.log"
    server = ProcessServer(f"sqlite:///{tmp_path / 'games.sqlite3'}", log_path=log, quiet=False).start()
    try:
        with httpx.Client(base_url=server.url, timeout=30) as api:
            finished_bot_game(api)
        children = server.children()
        assert children
        server.proc.send_signal(signal.SIGTERM)
        # the server shuts down (its lifespan ends the pool), then ends by the signal it was sent
        assert server.proc.wait(timeout=20) == -signal.SIGTERM
    finally:
        server.kill()
    assert "Application shutdown complete." in log.read_text()

    def gone() -> bool:
        for pid in children:
            try:
                with open(f"/proc/{pid}/stat") as f:
                    if f.read().rsplit(")", 1)[1].split()[0] != "Z":
                        return False
            except OSError:
                pass
        return True

    wait_for(gone, 5, "the workers ending")
