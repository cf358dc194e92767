"""Hints and analyses on a real server in the test's process, with analyses of short games (Kingdom
Builder at one iteration a decision: about a second): the progress an analysis writes and when, an
analysis left running or failed started again, what stopping leaves, a hint remembered for its
position, a worker's hint from the record equal to the server's own, and the refusals of the service
and of its routes word for word."""

from __future__ import annotations

import asyncio
import time
import types

import httpx
import pytest
from sqlalchemy import insert

from builders.core.rng import Rng
from builders.server import analysis
from builders.server.analysis import Analyses, _seed, hint_from_record, hint_positions
from builders.server.games import ApiError
from builders.server.models import AnalysisRow
from builders.server.repos.analyses import AnalysisRepo
from tests.server.conftest import make_app
from tests.server import test_jobs_unit
from tests.server.helpers import ThreadServer

BOTS = [{"type": "bot", "level": "easy"}] * 2
HUMANS = [{"type": "human"}, {"type": "human"}]
#: the fixture of a Redis database of its own, emptied before and after
url = test_jobs_unit.url


@pytest.fixture(scope="module")
def srv(tmp_path_factory):
    app = make_app(tmp_path_factory.mktemp("analysis-unit"), analysis_iterations=1)
    with ThreadServer(app) as server:
        server.app = app
        yield server


@pytest.fixture
def api(srv):
    with httpx.Client(base_url=srv.url, timeout=60) as client:
        yield client


def create(api, seats, **options) -> dict:
    r = api.post("/api/games", json={"game": "kingdom", "seats": seats, **options})
    assert r.status_code == 201, r.text
    return r.json()


def finished(api, seed: int) -> str:
    """The id of a Kingdom Builder game of random bots, waited for until it is over."""
    game_id = create(api, BOTS, setup={"seed": seed})["id"]
    for _ in range(600):
        if api.get(f"/api/games/{game_id}").json()["status"] == "finished":
            return game_id
        time.sleep(0.05)
    raise AssertionError("the bots did not finish the game")


def decisions(api, game_id: str) -> int:
    return sum(1 for e in api.get(f"/api/games/{game_id}/record").json()["history"] if isinstance(e, str))


def wait_done(api, game_id: str) -> dict:
    for _ in range(1500):
        body = api.get(f"/api/games/{game_id}/analysis").json()
        if body["status"] != "running":
            return body
        time.sleep(0.02)
    raise AssertionError("the analysis did not end")


def insert_row(store, game_id: str, status: str, **values) -> None:
    """A row of the table of analyses as a stopped (or failed) server leaves it."""
    with store.engine.begin() as conn:
        conn.execute(
            insert(AnalysisRow.__table__).values(
                game_id=game_id, status=status, iterations=1, seed=5, started=time.time(), **values
            )
        )


def test_an_analysis_writes_its_progress_each_half_second_then_its_result(srv, api, monkeypatch):
    """A clock that moves a quarter of a second a decision: progress at the first decision, then each
    second one (0.5 s after the last written), never the last (the result says it), then the result."""
    game_id = finished(api, 41)
    total = decisions(api, game_id)
    clock = iter(1000.0 + 0.25 * k for k in range(1, 10_000))
    monkeypatch.setattr(analysis, "time", types.SimpleNamespace(monotonic=lambda: next(clock), time=time.time))
    written: list = []
    real = AnalysisRepo.write

    def write(self, game, values):
        written.append((game, dict(values)))
        return real(self, game, values)

    monkeypatch.setattr(AnalysisRepo, "write", write)
    r = api.post(f"/api/games/{game_id}/analysis")
    assert r.status_code == 202
    assert r.json() == {
        "game_id": game_id,
        "status": "running",
        "done": 0,
        "total": total,
        "iterations": 1,
        "result": None,
        "error": None,
    }
    final = wait_done(api, game_id)
    assert final["status"] == "done" and final["done"] == final["total"] == total
    assert [d["index"] for d in final["result"]["decisions"]] == list(range(total))
    progress = [values for game, values in written[:-1]]
    assert {game for game, _ in written} == {game_id}
    assert progress == [{"done": k, "total": total} for k in range(1, total, 2)]
    assert written[-1][1]["status"] == "done" and written[-1][1]["result"] == final["result"]


def test_an_analysis_left_running_is_taken_up_by_a_post_and_one_that_failed_is_started_again(srv, api):
    store = srv.app.state.store
    left, failed = finished(api, 42), finished(api, 43)
    insert_row(store, left, "running", done=3, total=10)
    insert_row(store, failed, "failed", done=2, total=10, error="the analysis failed: boom", finished=time.time())
    r = api.post(f"/api/games/{left}/analysis")  # no task of this server runs it: it is launched again
    assert r.status_code == 200
    assert r.json() == {
        "game_id": left,
        "status": "running",
        "done": 3,
        "total": 10,
        "iterations": 1,
        "result": None,
        "error": None,
    }
    done = wait_done(api, left)
    assert done["status"] == "done" and done["done"] == done["total"] == decisions(api, left)
    assert api.get(f"/api/games/{failed}/analysis").json()["error"] == "the analysis failed: boom"
    r = api.post(f"/api/games/{failed}/analysis")
    assert r.status_code == 202
    assert r.json()["status"] == "running" and r.json()["error"] is None and r.json()["done"] == 0
    again = wait_done(api, failed)
    assert again["status"] == "done" and again["error"] is None and again["total"] == decisions(api, failed)
    row = AnalysisRepo(store.engine).get(failed)
    assert (row["seed"], row["iterations"]) == (_seed("analysis", failed), 1)


def test_the_next_server_finishes_an_analysis_left_running(tmp_path):
    app = make_app(tmp_path, analysis_iterations=1)
    with ThreadServer(app) as server, httpx.Client(base_url=server.url, timeout=60) as api:
        game_id = finished(api, 44)
        total = decisions(api, game_id)
    insert_row(app.state.store, game_id, "running", done=3, total=10)
    app.state.store.close()
    app = make_app(tmp_path, analysis_iterations=1)
    with ThreadServer(app) as server, httpx.Client(base_url=server.url, timeout=60) as api:
        final = wait_done(api, game_id)
        assert final["status"] == "done" and final["done"] == final["total"] == total
        assert [d["index"] for d in final["result"]["decisions"]] == list(range(total))


def test_stopping_cancels_the_analyses_and_closes_a_pool_of_its_own(srv, api):
    game_id = finished(api, 45)
    service = srv.app.state.service
    own = Analyses(service, mode="thread", workers=1, analysis_iterations=1)

    async def run():
        body, started = own.start_analysis(service.get(game_id))
        assert started and body["status"] == "running"
        task = own._tasks[game_id]
        await own.stop()
        return task

    task = asyncio.run(run())
    assert task.cancelled() and own._tasks == {} and own.pool._closed


def test_a_hint_is_found_once_for_its_position_and_refused_in_words_by_the_service(srv, api, monkeypatch):
    created = create(api, HUMANS, hints=True)
    game_id, seat0 = created["id"], {"X-Seat-Token": created["seats"][0]["token"]}
    first = api.post(f"/api/games/{game_id}/hint", headers=seat0)
    assert first.status_code == 200
    assert (first.json()["version"], first.json()["actions"], first.json()["seat"]) == (0, 0, 0)

    def not_again(*args):
        raise AssertionError("the hint of this position was found again")

    monkeypatch.setattr(analysis, "hint_job", not_again)  # the second answer is the one remembered
    second = api.post(f"/api/games/{game_id}/hint", headers=seat0)
    assert second.status_code == 200 and second.json() == first.json()
    # the service's own refusals (the routes refuse a game without hints before asking it)
    service = srv.app.state.service
    plain = service.get(create(api, HUMANS)["id"])
    with pytest.raises(ApiError) as refused:
        asyncio.run(Analyses(service, pool=srv.app.state.workers).hint(plain, 0))
    assert (refused.value.status, str(refused.value.detail)) == (403, "this game was created without hints")


def test_a_workers_hint_from_the_record_is_the_servers_own(tmp_path, monkeypatch):
    """At the analysis's budget (25 iterations here: enough for the seed to matter), with the seat's
    bot kept for the game's next hint."""
    app = make_app(tmp_path, analysis_iterations=25)
    with ThreadServer(app) as server, httpx.Client(base_url=server.url, timeout=60) as api:
        created = create(api, HUMANS, hints=True, setup={"seed": 46})
        game_id, seat0 = created["id"], {"X-Seat-Token": created["seats"][0]["token"]}
        service = app.state.service
        live = service.get(game_id)
        record = service.record(live)
        seed = _seed("analysis", game_id)
        monkeypatch.setattr(analysis, "_HINT_BOTS", {})
        worker = hint_from_record(game_id, record, 0, seed, 25)
        assert list(analysis._HINT_BOTS) == [(game_id, 0, seed, 25)]
        monkeypatch.setattr(analysis, "_HINT_BOTS", {})
        own = api.post(f"/api/games/{game_id}/hint", headers=seat0).json()
        assert worker == {k: v for k, v in own.items() if k not in ("version", "actions")}
        assert worker["visits"] >= 25
        # the position is drawn from what the seat sees, seeded by the game, the number of actions and the seat
        earlier, state = hint_positions(game_id, record, 1)
        drawn = live.state.resample_hidden(1, Rng(_seed("hint", game_id, 0, 1)))
        assert earlier == [] and state.to_json() == drawn.to_json()


def test_the_analysis_routes_refuse_a_malformed_game_id_before_looking_for_it(api):
    form = "path.game_id: does not have the expected form ^[A-Za-z0-9_-]{1,40}$"
    for method, path in (("GET", "analysis"), ("POST", "analysis"), ("POST", "hint")):
        for game_id in ("no.such.game", "a" * 41):
            r = api.request(method, f"/api/games/{game_id}/{path}")
            assert (r.status_code, r.json()["detail"]) == (422, form), (method, path, game_id)
        r = api.request(method, f"/api/games/{'a' * 40}/{path}")
        assert (r.status_code, r.json()["detail"]) == (404, f"there is no game '{'a' * 40}'")


def test_the_remembered_hints_are_forgotten_all_at_once_past_a_thousand(srv, api):
    service = srv.app.state.service
    own = Analyses(service, pool=srv.app.state.workers, analysis_iterations=1)
    own._hints = {("other", 0, i): {} for i in range(1000)}
    first, second = (service.get(create(api, HUMANS, hints=True)["id"]) for _ in range(2))
    asyncio.run(own.hint(first, 0))
    assert len(own._hints) == 1001  # a thousand kept, then this one
    asyncio.run(own.hint(second, 0))
    assert list(own._hints) == [(second.id, 0, 0)]


def test_analyses_and_hints_go_to_the_job_queue_while_a_worker_is_alive(tmp_path, url):
    """With a job queue and a live worker (``jobs.work`` in this process, its compute processes real),
    the analysis is the worker's, written into the row by the server, and so is the hint."""
    from builders.ai.analysis import analyse
    import redis

    from builders.server.jobs import JobQueue, job_id

    app = make_app(tmp_path, analysis_iterations=1)
    with ThreadServer(app) as server, httpx.Client(base_url=server.url, timeout=60) as api:
        service = app.state.service
        game_id, hinted = finished(api, 47), create(api, HUMANS, hints=True)["id"]
        over, to_hint = service.get(game_id), service.get(hinted)
        expected = analyse(service.record(over), iterations=1, seed=_seed("analysis", game_id)).to_json()
        analysis._HINT_BOTS.clear()
        record = service.record(to_hint)
        expected_hint = hint_from_record(hinted, record, 0, _seed("analysis", hinted), 1)
        analysis._HINT_BOTS.clear()

        async def scenario():
            async with test_jobs_unit.worker(url, processes=1):
                queue = JobQueue(url)
                try:
                    own = Analyses(service, jobs=queue, pool=app.state.workers, analysis_iterations=1)
                    body, started = own.start_analysis(over)
                    assert started and body["status"] == "running"
                    await own._tasks[game_id]
                    hint = await own.hint(to_hint, 0)
                    return dict(queue.stats), hint
                finally:
                    await queue.close()

        stats, hint = asyncio.run(scenario())
        row = AnalysisRepo(app.state.store.engine).get(game_id)
    assert (row["status"], row["error"], row["result"]) == ("done", None, expected)
    assert row["done"] == row["total"] == len(expected["decisions"])
    assert (stats["results"], stats["local"], stats["fallbacks"]) == (2, 0, 0)
    assert hint == {**expected_hint, "version": 0, "actions": 0}
    # the worker's answer is stored under the job of this game's hint
    hint_job_id = job_id("hint", hinted, record, 0, _seed("analysis", hinted), 1)
    assert redis.Redis.from_url(url).exists("arq:result:" + hint_job_id) == 1
