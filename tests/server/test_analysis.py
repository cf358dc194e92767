"""Hints and post-game analyses through the HTTP API (issue 13, parts 4 and 5): the refusals word for
word, a hint that is a legal move and depends only on what the seat may see, an analysis that shows
its progress and then its result, stored with the game across a restart of the server."""

from __future__ import annotations

import time

import httpx
import pytest

from builders.ai.analysis import LABELS
from builders.core.record import replay
from tests.ai.helpers import kingdom_twin, middle_ages_twin
from tests.server.conftest import make_app
from tests.server.helpers import FORBIDDEN_KEYS, ThreadServer, keys_of


@pytest.fixture(scope="module")
def srv(tmp_path_factory):
    # hints have the analysis's budget (counted: the same hint whatever the machine's load)
    app = make_app(tmp_path_factory.mktemp("analysis"), analysis_iterations=25)
    with ThreadServer(app) as server:
        yield server


@pytest.fixture
def api(srv):
    with httpx.Client(base_url=srv.url, timeout=60) as client:
        yield client


def create(api, game="kingdom", seats=None, **options):
    body = {"game": game, "seats": seats or [{"type": "human"}, {"type": "human"}], **options}
    r = api.post("/api/games", json=body)
    assert r.status_code == 201, r.text
    return r.json()


def token(created, seat):
    return {"X-Seat-Token": created["seats"][seat]["token"]}


def view(api, created, seat):
    r = api.get(f"/api/games/{created['id']}/state", headers=token(created, seat))
    assert r.status_code == 200
    return r.json()


def refused(r, status, detail):
    assert (r.status_code, r.json()["detail"]) == (status, detail)


def finished_bot_game(api, game="kingdom", **options):
    """A game of random bots (they move at once in the tests' server), waited for until it is over."""
    created = create(api, game, [{"type": "bot", "level": "easy"}] * 2, **options)
    for _ in range(600):
        if api.get(f"/api/games/{created['id']}").json()["status"] == "finished":
            return created
        time.sleep(0.05)
    raise AssertionError("the bots did not finish the game")


# -- hints ----------------------------------------------------------------------------------------
def test_hints_are_an_option_shown_in_the_summary_and_the_view(api):
    on = create(api, hints=True)
    off = create(api)
    assert api.get(f"/api/games/{on['id']}").json()["hints"] is True
    assert api.get(f"/api/games/{off['id']}").json()["hints"] is False
    assert view(api, on, 0)["hints"] is True and view(api, off, 0)["hints"] is False


def test_a_rated_game_refuses_hints(api):
    r = api.post(
        "/api/games",
        json={
            "game": "kingdom",
            "rated": True,
            "hints": True,
            "seats": [{"type": "human"}, {"type": "human", "open": True}],
        },
    )
    refused(r, 400, "a rated game has no hints: leave hints out or make the game unrated")


def test_hint_refusals_word_for_word_change_nothing(api):
    off = create(api)
    before = view(api, off, 0)
    refused(api.post(f"/api/games/{off['id']}/hint", headers=token(off, 0)), 403, "this game was created without hints")
    on = create(api, hints=True)
    refused(api.post(f"/api/games/{on['id']}/hint", headers=token(on, 1)), 403, "it is seat 0's turn, not seat 1's")
    refused(
        api.post(f"/api/games/{on['id']}/hint"),
        401,
        "this needs the seat token (header X-Seat-Token) or a signed-in player of the seat",
    )
    refused(
        api.post(f"/api/games/{on['id']}/hint", headers={"X-Seat-Token": "nope"}),
        401,
        "the seat token is not valid for this game",
    )
    assert view(api, off, 0) == before
    assert view(api, on, 0)["version"] == 0


def test_no_hint_once_the_game_is_over(api):
    created = create(api, seats=[{"type": "human"}, {"type": "bot", "level": "easy"}], hints=True)
    r = api.post(f"/api/games/{created['id']}/resign", headers=token(created, 0), json={"bot": "easy"})
    assert r.status_code == 200
    for _ in range(600):
        if api.get(f"/api/games/{created['id']}").json()["status"] == "finished":
            break
        time.sleep(0.05)
    refused(api.post(f"/api/games/{created['id']}/hint", headers=token(created, 0)), 409, "the game is over")


def test_the_hint_is_the_move_and_the_chance_the_games_analysis_shows(api):
    """A hint is the analysis's own judgement, given early: at each decision where it was asked, the
    analysis of the finished game shows the hinted move as the better one with the hint's win chance,
    or, where the hint was played, no label and the hint's chance (the same seed, made of the game's
    id, and the same budget, ``analysis_iterations``)."""
    created = create(api, "kingdom", hints=True, setup={"seed": 21})
    gid = created["id"]
    hints = {}
    for n in range(24):
        v = view(api, created, view(api, created, 0)["to_move"])
        seat = v["seat"]
        r = api.post(f"/api/games/{gid}/hint", headers=token(created, seat))
        assert r.status_code == 200, r.text
        h = r.json()
        assert h["actions"] == n
        if len(v["legal"]) > 1:
            hints[n] = h
        # follow the hint at most decisions, leave it at every third
        others = [a for a in v["legal"] if a != h["action"]]
        action = others[-1] if others and n % 3 == 0 else h["action"]
        api.post(f"/api/games/{gid}/actions", headers=token(created, seat), json={"action": action}).raise_for_status()
    for seat in (0, 1):  # bots finish the game
        api.post(f"/api/games/{gid}/resign", headers=token(created, seat), json={"bot": "easy"}).raise_for_status()
    for _ in range(600):
        if api.get(f"/api/games/{gid}").json()["status"] == "finished":
            break
        time.sleep(0.05)
    assert api.post(f"/api/games/{gid}/analysis").status_code == 202
    result = wait_for_analysis(api, gid, [])["result"]
    assert result["iterations"] == 25
    kinds = set()
    for n, h in hints.items():
        d = result["decisions"][n]
        if d["best"] != d["played"]:
            assert (d["best"], d["before"]) == (h["action"], h["win_chance"])
            kinds.add("better")
        elif d["played"] == h["action"]:
            assert d["before"] == d["after"] == h["win_chance"] and d["label"] is None
            kinds.add("hinted")
        else:
            assert d["before"] == d["after"] >= h["win_chance"]
    assert kinds == {"better", "hinted"}


def test_hints_are_rate_limited_per_address(tmp_path):
    """A hint costs the hints' worker up to a second or two: an address may ask so many a minute
    (``Limits.rates["hint"]``, 60 by default), then gets 429 with when to try again."""
    from builders.server.guard import Limits

    assert Limits().rates["hint"] == (60, 60.0)
    app = make_app(tmp_path, analysis_iterations=25, limits=Limits(rates={**Limits().rates, "hint": (2, 60.0)}))
    with ThreadServer(app) as server, httpx.Client(base_url=server.url, timeout=60) as api:
        created = create(api, hints=True)
        for _ in range(2):
            assert api.post(f"/api/games/{created['id']}/hint", headers=token(created, 0)).status_code == 200
        r = api.post(f"/api/games/{created['id']}/hint", headers=token(created, 0))
        assert r.status_code == 429 and r.headers["retry-after"] == str(int(r.headers["retry-after"]))
        assert r.json()["detail"].startswith("too many hint requests from your address: try again in ")


def test_a_hint_asked_twice_at_once_is_found_once(tmp_path, monkeypatch):
    """Two requests for the same hint while it is being found (a double click, two tabs) get the same
    answer from one run of the hints' worker."""
    import threading

    from builders.server import analysis

    runs = []
    real = analysis.hint_job

    def counted(*args):
        runs.append(args[0])
        return real(*args)

    monkeypatch.setattr(analysis, "hint_job", counted)
    app = make_app(tmp_path, bot_mode="thread", analysis_iterations=1000)
    with ThreadServer(app) as server, httpx.Client(base_url=server.url, timeout=60) as api:
        created = create(api, hints=True)
        answers = []

        def ask():
            answers.append(api.post(f"/api/games/{created['id']}/hint", headers=token(created, 0)).json())

        threads = [threading.Thread(target=ask) for _ in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert len(answers) == 2 and answers[0] == answers[1] and answers[0]["visits"] > 1000
        assert runs == [created["id"]]


def test_each_seat_asks_its_hints_of_one_worker_and_the_seats_of_games_are_spread(tmp_path, monkeypatch):
    """Hints run on the server's worker pool: each seat of a game asks the same worker while it is
    free (it keeps the seat's bot from one hint to the next: ``hint_key``), and the seats of many
    games are spread over all of them, so that players of different games are answered side by side."""
    import threading

    from builders.server import analysis

    ran = []
    real = analysis.hint_job

    def where(*args):
        ran.append(((args[0], args[3]), threading.current_thread().name.rsplit("_", 1)[0]))
        return real(*args)

    monkeypatch.setattr(analysis, "hint_job", where)
    app = make_app(tmp_path, bot_mode="thread", analysis_iterations=25, bot_workers=2, analysis_workers=1)
    with ThreadServer(app) as server, httpx.Client(base_url=server.url, timeout=60) as api:
        analyses, pool = app.state.analyses, app.state.workers
        assert pool.size == 2
        for _ in range(6):
            created = create(api, "middle-ages", hints=True)
            seats = set()
            while len(seats) < 2:  # hinted moves played until both seats have asked
                seat = view(api, created, 0)["to_move"]
                seats.add(seat)
                r = api.post(f"/api/games/{created['id']}/hint", headers=token(created, seat))
                assert r.status_code == 200, r.text
                r = api.post(
                    f"/api/games/{created['id']}/actions",
                    headers=token(created, seat),
                    json={"action": r.json()["action"]},
                )
                assert r.status_code == 200, r.text
    workers = {}
    for key, name in ran:
        workers.setdefault(key, set()).add(name)
    assert len(workers) == 12 and len(ran) > 12
    # one worker for every seat of a game, the one its hash names (nothing else ran: it was free)
    named = {key: f"builders-worker-{pool.slot_of(analyses.hint_key(*key))}" for key in workers}
    assert all(names == {named[key]} for key, names in workers.items())
    # every worker the seats' hashes name was used (the game ids are random: twelve seats all on one of
    # two workers happens about once in two thousand runs), and the hash spreads seats over both
    assert set().union(*workers.values()) == set(named.values())
    assert {pool.slot_of(analyses.hint_key(f"game{i}", seat)) for i in range(20) for seat in (0, 1)} == {0, 1}


@pytest.mark.parametrize("game", ["kingdom", "middle-ages"])
def test_a_hint_is_a_legal_move_of_the_seat_to_move_with_its_win_chance(api, game):
    created = create(api, game, hints=True, setup={"seed": 11})
    for _ in range(5):  # a few moves in, by both seats
        v = view(api, created, view(api, created, 0)["to_move"])
        r = api.post(
            f"/api/games/{created['id']}/actions", headers=token(created, v["seat"]), json={"action": v["legal"][-1]}
        )
        assert r.status_code == 200
    v = view(api, created, view(api, created, 0)["to_move"])
    seat = v["seat"]
    r = api.post(f"/api/games/{created['id']}/hint", headers=token(created, seat))
    assert r.status_code == 200, r.text
    h = r.json()
    assert h["seat"] == seat and h["action"] in v["legal"]
    assert 0.0 <= h["win_chance"] <= 1.0
    # the positions the hard level's turn planner evaluated
    assert h["visits"] > 60
    assert (h["version"], h["actions"]) == (v["version"], v["actions"])
    assert not keys_of(h) & FORBIDDEN_KEYS
    # asked again at the same position: the same answer, and the game did not change
    assert api.post(f"/api/games/{created['id']}/hint", headers=token(created, seat)).json() == h
    assert view(api, created, seat)["version"] == v["version"]


def test_the_hints_of_a_turn_follow_one_plan(srv, api):
    """A hint gives the rest of the hard level's plan for the turn; a seat that plays the hinted
    action is hinted the plan's next action at once (no new plan that could change its mind half-way
    through the turn, as the hard bot plays its plan through), by a new worker too (the plan is made
    again, the same); a seat that leaves the plan gets a new one."""
    from builders.server import analysis

    created = create(api, "kingdom", hints=True, setup={"seed": 11})
    gid = created["id"]
    v = view(api, created, 0)
    seat = v["seat"]
    assert v["to_move"] == seat

    def ask():
        r = api.post(f"/api/games/{gid}/hint", headers=token(created, seat))
        assert r.status_code == 200, r.text
        return r.json()

    def play(action):
        api.post(f"/api/games/{gid}/actions", headers=token(created, seat), json={"action": action}).raise_for_status()

    first = ask()
    # the first turn: three builds and the end, no card drawn (every terrain has free hexes left)
    assert first["visits"] > 60 and len(first["plan"]) >= 3 and first["plan"][-1] == "end"
    play(first["action"])
    second = ask()
    assert (second["action"], second["visits"], second["plan"]) == (first["plan"][0], 0, first["plan"][1:])
    assert second["actions"] == first["actions"] + 1 and 0.0 <= second["win_chance"] <= 1.0
    assert second["action"] in view(api, created, seat)["legal"]
    # a worker that has not seen the turn (restarted, or another process) makes the same plan again
    analysis._HINT_BOTS.clear()
    srv.app.state.analyses._hints.clear()
    again = ask()
    assert {**again, "visits": 0} == second and again["visits"] == first["visits"]
    # leaving the plan (in a new game, at the first build, so that a choice is left): a new plan,
    # from where the seat is
    created = create(api, "kingdom", hints=True, setup={"seed": 11})
    gid = created["id"]
    first = ask()
    live = srv.app.state.service.live[gid].state

    def choices_after(action):
        after = live.copy()
        after.apply(after.parse_action(action))
        return len(after.legal_actions())

    play(next(a for a in view(api, created, seat)["legal"] if a != first["action"] and choices_after(a) > 3))
    third = ask()
    assert third["visits"] > 60 and third["action"] in view(api, created, seat)["legal"]
    assert third["plan"] and third["plan"][-1] == "end"
    play(third["action"])
    fourth = ask()
    assert (fourth["action"], fourth["visits"], fourth["plan"]) == (third["plan"][0], 0, third["plan"][1:])


def test_a_hint_after_an_undo_is_the_hint_of_that_position_again(api):
    """Taking back a move of the turn: the hint is the one given before the move (the hint is made of
    the turn so far, not of what a worker remembers), and after a move played instead of the hinted
    one and taken back, the hints follow the first plan again."""
    created = create(api, "kingdom", hints=True, setup={"seed": 13})
    gid = created["id"]
    seat = view(api, created, 0)["seat"]

    def ask():
        r = api.post(f"/api/games/{gid}/hint", headers=token(created, seat))
        assert r.status_code == 200, r.text
        return {k: v for k, v in r.json().items() if k != "version"}

    def play(action):
        api.post(f"/api/games/{gid}/actions", headers=token(created, seat), json={"action": action}).raise_for_status()

    first = ask()
    play(first["action"])
    second = ask()
    assert second["action"] == first["plan"][0]
    api.post(f"/api/games/{gid}/undo", headers=token(created, seat)).raise_for_status()
    assert ask() == first
    other = next(a for a in view(api, created, seat)["legal"] if a != first["action"])
    play(other)
    ask()  # a plan from the move played instead
    api.post(f"/api/games/{gid}/undo", headers=token(created, seat)).raise_for_status()
    assert ask() == first
    play(first["action"])
    assert ask() == second


@pytest.mark.parametrize("game", ["kingdom", "middle-ages"])
def test_the_hint_depends_only_on_what_the_seat_sees(srv, api, game):
    """Two true states that differ only in hidden information (other seats' cards, the deck orders:
    rules.md, "Setup") give the same hint through the endpoint: the search gets a determinization
    drawn from the seat's observation, never the true state."""
    from builders.server import analysis

    created = create(api, game, hints=True, setup={"seed": 5})
    for _ in range(7):
        v = view(api, created, view(api, created, 0)["to_move"])
        api.post(
            f"/api/games/{created['id']}/actions", headers=token(created, v["seat"]), json={"action": v["legal"][0]}
        ).raise_for_status()
    service, analyses = srv.app.state.service, srv.app.state.analyses
    live = service.live[created["id"]]
    seat = live.state.current_player
    true_state = live.state
    twin = (kingdom_twin if game == "kingdom" else middle_ages_twin)(true_state, 99)
    assert twin.observation(seat) == true_state.observation(seat) and twin.to_json() != true_state.to_json()
    first = api.post(f"/api/games/{created['id']}/hint", headers=token(created, seat)).json()
    analyses._hints.clear()
    analysis._HINT_BOTS.clear()
    live.state = twin
    try:
        second = api.post(f"/api/games/{created['id']}/hint", headers=token(created, seat)).json()
    finally:
        live.state = true_state
    assert second == first


# -- analyses -------------------------------------------------------------------------------------
def test_analysis_refusals(api):
    running = create(api)
    refused(
        api.post(f"/api/games/{running['id']}/analysis"),
        409,
        "the game is not over: it can be analysed once it is over",
    )
    refused(
        api.get(f"/api/games/{running['id']}/analysis"), 409, "the game is not over: it can be analysed once it is over"
    )
    refused(api.get("/api/games/nosuchgame/analysis"), 404, "there is no game 'nosuchgame'")
    done = finished_bot_game(api, "middle-ages")
    refused(
        api.get(f"/api/games/{done['id']}/analysis"),
        404,
        "this game has not been analysed yet: start its analysis with POST",
    )


def wait_for_analysis(api, game_id, seen):
    for _ in range(3000):
        body = api.get(f"/api/games/{game_id}/analysis").json()
        seen.append(body)
        if body["status"] != "running":
            return body
        time.sleep(0.02)
    raise AssertionError("the analysis did not end")


def test_analysis_shows_progress_then_its_result_and_survives_a_restart(tmp_path):
    app = make_app(tmp_path, analysis_iterations=40)
    with ThreadServer(app) as server, httpx.Client(base_url=server.url, timeout=60) as api:
        created = finished_bot_game(api, "kingdom", setup={"seed": 3})
        game_id = created["id"]
        record = api.get(f"/api/games/{game_id}/record").json()
        total = sum(1 for e in record["history"] if isinstance(e, str))
        r = api.post(f"/api/games/{game_id}/analysis")
        assert r.status_code == 202
        assert r.json() == {
            "game_id": game_id,
            "status": "running",
            "done": 0,
            "total": total,
            "iterations": 40,
            "result": None,
            "error": None,
        }
        again = api.post(f"/api/games/{game_id}/analysis")  # the same job, not a second one
        assert again.status_code == 200 and again.json()["status"] in ("running", "done")
        seen: list = []
        final = wait_for_analysis(api, game_id, seen)
        middle = [b for b in seen if b["status"] == "running" and 0 < b["done"] < total]
        assert middle, "no progress was shown while the analysis ran"
        dones = [b["done"] for b in seen if b["status"] == "running"]
        assert dones == sorted(dones)
        assert final["status"] == "done" and final["done"] == final["total"] == total
        result = final["result"]
        assert [d["index"] for d in result["decisions"]] == list(range(total))
        played = [e for e in record["history"] if isinstance(e, str)]
        for d in result["decisions"]:
            assert d["played"] == played[d["index"]]
            assert d["seat"] == replay(record, until=d["index"]).current_player
            if not d["forced"]:
                assert 0 <= d["before"] <= 1 and 0 <= d["after"] <= 1 and d["loss"] >= 0
                assert d["best"] is not None and (d["label"] in LABELS or d["label"] is None)
        assert [p["seat"] for p in result["players"]] == [0, 1]
        assert result["scores"] == [p["total"] for p in record["result"]["players"]]
        assert result["winners"] == record["result"]["winners"]
    # a new server on the same database: the stored analysis, shown to anyone
    app = make_app(tmp_path, analysis_iterations=40)
    with ThreadServer(app) as server, httpx.Client(base_url=server.url, timeout=60) as api:
        assert api.get(f"/api/games/{game_id}/analysis").json() == final
        r = api.post(f"/api/games/{game_id}/analysis")
        assert r.status_code == 200 and r.json() == final


def test_an_analysis_left_running_is_started_again_by_the_next_server(tmp_path):
    # few iterations per decision: what is tested is that the job starts again and ends, not its judgement
    app = make_app(tmp_path, analysis_iterations=3)
    with ThreadServer(app) as server, httpx.Client(base_url=server.url, timeout=60) as api:
        game_id = finished_bot_game(api, "middle-ages", setup={"seed": 4})["id"]
    # as if the server had stopped while the analysis ran
    from sqlalchemy import insert

    from builders.server.models import AnalysisRow

    with app.state.store.engine.begin() as conn:
        conn.execute(
            insert(AnalysisRow.__table__).values(
                game_id=game_id, status="running", done=3, total=10, iterations=3, seed=1, started=time.time()
            )
        )
    app.state.store.close()
    app = make_app(tmp_path, analysis_iterations=3)
    with ThreadServer(app) as server, httpx.Client(base_url=server.url, timeout=60) as api:
        final = wait_for_analysis(api, game_id, [])
        assert final["status"] == "done" and final["done"] == final["total"] > 10 and final["iterations"] == 3
        assert final["result"]["decisions"]


def test_seeds_shards_and_a_finished_row_are_exact(monkeypatch):
    from builders.server import analysis
    from builders.server.analysis import Analyses, _seed, finished_values

    # a seed is the first 8 bytes of SHA-256 of the parts joined by ':', 31 bits of it
    assert (_seed("hint", "g1", 3, 0), _seed("a"), _seed()) == (1215292207, 1699463305, 1910006305)
    assert _seed("a", 1) != _seed("a:1", "") and all(0 <= _seed(i) < 2**31 for i in range(50))
    from builders.server.workers import WorkerPool

    assert (Analyses.hint_key("abc", 2), Analyses.hint_key("x", 0)) == ("hints:abc/2", "hints:x/0")
    # a key's worker: CRC-32 of the key modulo the pool's size
    assert [WorkerPool(4, "thread", 0).slot_of(Analyses.hint_key("abc", s)) for s in range(4)] == [3, 1, 3, 1]
    assert [WorkerPool(3, "thread", 0).slot_of(Analyses.hint_key("xyz", s)) for s in range(4)] == [1, 0, 0, 2]
    assert {WorkerPool(1, "thread", 0).slot_of(Analyses.hint_key(g, s)) for g in "abc" for s in range(4)} == {0}
    monkeypatch.setattr(analysis.time, "time", lambda: 1234.5)
    assert finished_values({"players": []}, 17) == {
        "status": "done",
        "done": 17,
        "total": 17,
        "result": {"players": []},
        "finished": 1234.5,
    }


def test_analyses_run_on_a_pool_of_processes_unless_told(tmp_path):
    """Without the server's pool, Analyses makes one of its own: processes by default, one more than
    its analysis workers (a hint never waits behind analyses), threads when told."""
    from builders.server.analysis import Analyses

    app = make_app(tmp_path)
    service = app.state.service
    own = Analyses(service, workers=2)
    threads = Analyses(service, mode="thread", workers=1)
    shared = Analyses(service, pool=app.state.workers)
    assert (own.mode, own.pool.size, own.pool.background) == ("process", 3, 2)
    assert (threads.mode, threads.pool.size, threads.pool.background) == ("thread", 2, 1)
    assert shared.pool is app.state.workers and shared.mode == "inline"
    own.pool.close()
    threads.pool.close()
