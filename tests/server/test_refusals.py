"""Every refusal of the game service has its exact status and sentence and changes nothing; a game
played to its end refuses every further change; a bot that keeps failing gives up after three tries,
and one that fails now and then goes on."""

from __future__ import annotations

import random
import threading
import time

import httpx
import pytest

from builders.core.agents import RandomAgent
from tests.server.conftest import make_app
from tests.server.helpers import ThreadServer


def create(api, game="kingdom", seats=None, setup=None):
    body = {"game": game, "seats": seats or [{"type": "human"}, {"type": "human"}]}
    if setup is not None:
        body["setup"] = setup
    r = api.post("/api/games", json=body)
    assert r.status_code == 201, r.text
    data = r.json()
    return data["id"], {s["seat"]: s.get("token") for s in data["seats"]}


def refused(r: httpx.Response, status: int, detail: str) -> None:
    assert (r.status_code, r.json()["detail"]) == (status, detail)


def version(api, gid) -> int:
    return api.get(f"/api/games/{gid}").json()["version"]


def seat_headers(token):
    return {"X-Seat-Token": token}


def test_refusals_of_a_running_game_say_exactly_why(api):
    gid, tokens = create(api, "middle-ages", setup={"seed": 5})
    other, other_tokens = create(api, "middle-ages", setup={"seed": 5})
    url = f"/api/games/{gid}"
    view = api.get(f"{url}/state", headers=seat_headers(tokens[0])).json()
    assert view["to_move"] == 0 and view["version"] == 0
    first = view["legal"][0]

    cases = [
        (
            api.post(f"{url}/actions", json={"action": first}),
            401,
            "this needs the seat token (header X-Seat-Token) or a signed-in player of the seat",
        ),
        (
            api.post(f"{url}/actions", json={"action": first}, headers=seat_headers(other_tokens[0])),
            401,
            "the seat token is not valid for this game",
        ),
        # a token of exactly the longest length is looked up; one character more is refused unseen
        (
            api.post(f"{url}/actions", json={"action": first}, headers=seat_headers("a" * 100)),
            401,
            "the seat token is not valid for this game",
        ),
        (
            api.post(f"{url}/actions", json={"action": first}, headers=seat_headers("a" * 101)),
            401,
            "the seat token is not valid",
        ),
        (api.get(f"{url}/state", headers=seat_headers("a" * 101)), 401, "the seat token is not valid"),
        (
            api.post(f"{url}/actions", json={"action": first}, headers=seat_headers(tokens[1])),
            403,
            "it is seat 0's turn, not seat 1's",
        ),
        (
            api.post(f"{url}/actions", json={"action": first, "version": 7}, headers=seat_headers(tokens[0])),
            409,
            "the game has changed: it is at version 0, not 7",
        ),
        (api.post(f"{url}/undo", headers=seat_headers(tokens[0])), 409, "there is nothing to undo in this turn"),
        (
            api.post(f"{url}/undo", headers=seat_headers(tokens[1])),
            409,
            "only the player to move can undo, within their own turn",
        ),
        (
            api.post(f"{url}/undo"),
            401,
            "this needs the seat token (header X-Seat-Token) or a signed-in player of the seat",
        ),
        (api.post(f"{url}/join", json={"seat": 1}), 409, "seat 1 is not open: it is joined by its own link"),
        (api.post(f"{url}/join", json={"seat": 3}), 409, "the game has seats 0 to 1, not 3"),
        (api.get(f"{url}/record"), 409, "the record is available once the game is over"),
        (api.get(f"{url}/replay/0"), 409, "a game can be replayed once it is over"),
        (api.get("/api/games/nosuchgame"), 404, "there is no game 'nosuchgame'"),
        (api.get("/api/games/nosuchgame/state"), 404, "there is no game 'nosuchgame'"),
    ]
    for r, status, detail in cases:
        refused(r, status, detail)
    assert version(api, gid) == 0 and version(api, other) == 0

    # the version check passes with the current version
    r = api.post(f"{url}/actions", json={"action": "coins 1", "version": 0}, headers=seat_headers(tokens[0]))
    assert r.status_code == 200 and r.json()["version"] == 1
    assert r.json()["can_undo"] is True
    # seat 1 may not undo seat 0's action
    refused(
        api.post(f"{url}/undo", headers=seat_headers(tokens[1])),
        409,
        "only the player to move can undo, within their own turn",
    )
    r = api.post(f"{url}/undo", headers=seat_headers(tokens[0]))
    assert r.status_code == 200 and r.json()["version"] == 2 and r.json()["actions"] == 0
    assert r.json()["can_undo"] is False and r.json()["log"] == []


def test_open_seats_are_taken_once(api):
    gid, tokens = create(
        api, "kingdom", seats=[{"type": "human"}, {"type": "human", "open": True}, {"type": "bot", "level": "easy"}]
    )
    url = f"/api/games/{gid}"
    assert tokens[1] is None
    refused(api.post(f"{url}/join", json={"seat": 2}), 409, "seat 2 is not open: it is joined by its own link")
    r = api.post(f"{url}/join", json={"seat": 1, "name": "Ada"})
    assert r.status_code == 200 and r.json()["seat"] == 1
    assert r.json()["link"] == f"/play/{gid}#seat=1&token={r.json()['token']}"
    refused(api.post(f"{url}/join", json={"seat": 1}), 409, "seat 1 is already taken")
    seats = api.get(url).json()["seats"]
    assert seats[1]["name"] == "Ada" and seats[1]["claimed"] is True


def _play_to_the_end(api, gid, token, seed):
    """Seat 0 (a person) plays random legal actions; seat 1 (a bot) answers; returns the final view."""
    rng = random.Random(seed)
    url = f"/api/games/{gid}"
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        view = api.get(f"{url}/state", headers=seat_headers(token)).json()
        if view["status"] == "finished":
            return view
        if view["to_move"] != 0:
            time.sleep(0.01)
            continue
        r = api.post(
            f"{url}/actions",
            json={"action": rng.choice(view["legal"]), "version": view["version"]},
            headers=seat_headers(token),
        )
        assert r.status_code == 200, r.text
    pytest.fail("the game did not finish")


def test_a_finished_game_refuses_every_change(api):
    gid, tokens = create(
        api, "middle-ages", seats=[{"type": "human"}, {"type": "bot", "level": "easy"}], setup={"seed": 11}
    )
    url = f"/api/games/{gid}"
    final = _play_to_the_end(api, gid, tokens[0], seed=3)
    assert final["to_move"] is None and final["legal"] == [] and final["legal_costs"] is None
    assert final["can_undo"] is False and final["result"]["winners"]
    before = version(api, gid)
    refused(
        api.post(f"{url}/actions", json={"action": "end"}, headers=seat_headers(tokens[0])), 409, "the game is over"
    )
    refused(api.post(f"{url}/undo", headers=seat_headers(tokens[0])), 409, "the game is over")
    refused(api.post(f"{url}/resign", headers=seat_headers(tokens[0])), 409, "the game is over")
    total = final["actions"]
    refused(
        api.get(f"{url}/replay/{total + 1}"), 404, f"the game has {total} actions: choose a position from 0 to {total}"
    )
    assert api.get(f"{url}/replay/{total}").json()["total"] == total
    record = api.get(f"{url}/record").json()
    assert record["result"] == final["result"]
    assert len([h for h in record["history"] if isinstance(h, str)]) == total
    assert version(api, gid) == before
    summary = api.get(url).json()
    assert summary["status"] == "finished" and summary["to_move"] is None


def test_resign_refusals(api):
    gid, tokens = create(api, "middle-ages", setup={"seed": 2})
    url = f"/api/games/{gid}"
    r = api.post(f"{url}/resign", headers=seat_headers(tokens[1]), json={"bot": "easy"})
    assert r.status_code == 200
    seat = r.json()["seats"][1]
    assert (seat["type"], seat["level"], seat["resigned"]) == ("bot", "easy", False)
    refused(api.post(f"{url}/resign", headers=seat_headers(tokens[1])), 409, "seat 1 is already played by a bot")
    # seat 0 resigns: the only other seat wins at once (a real loss), and nothing more can be done
    r = api.post(f"{url}/resign", headers=seat_headers(tokens[0]))
    assert r.status_code == 200 and r.json()["seats"][0]["resigned"] is True
    assert r.json()["result"]["winners"] == [1] and r.json()["status"] == "finished"
    refused(api.post(f"{url}/resign", headers=seat_headers(tokens[0])), 409, "the game is over")
    refused(api.post(f"{url}/take-back", headers=seat_headers(tokens[1])), 409, "the game is over")


class Flaky:
    """A bot factory that fails on the calls that ``fails(n)`` picks (n = 1, 2, ...) and otherwise
    gives a random player; it counts its calls."""

    def __init__(self, fails):
        self.fails = fails
        self.calls = 0
        self.lock = threading.Lock()

    def __call__(self, game: str, level: str, seed: int):
        with self.lock:
            self.calls += 1
            n = self.calls
        if self.fails(n):
            raise RuntimeError(f"bot failure {n}")
        return RandomAgent(seed)


def _bot_task_done(app, gid, timeout=15.0):
    live = app.state.service.live[gid]
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if live.bot_task is not None and live.bot_task.done():
            return live
        time.sleep(0.02)
    pytest.fail("the bot never stopped")


def test_a_bot_that_keeps_failing_gives_up_after_three_tries(tmp_path):
    factory = Flaky(lambda n: True)
    app = make_app(tmp_path, bot_factory=factory)
    with ThreadServer(app) as server, httpx.Client(base_url=server.url, timeout=10) as api:
        gid, _ = create(api, "kingdom", seats=[{"type": "bot"}, {"type": "human"}], setup={"mode": "first"})
        live = _bot_task_done(app, gid)
        assert factory.calls == 3
        assert live.version == 0 and live.steps == [] and live.log == []
        time.sleep(0.3)
        assert factory.calls == 3
        view = api.get(f"/api/games/{gid}/state").json()
        assert view["to_move"] == 0 and view["version"] == 0 and view["log"] == []


def test_a_bot_that_fails_now_and_then_goes_on(tmp_path):
    # two failures, then a move: the count of failures starts again after every move
    factory = Flaky(lambda n: n % 3 != 0)
    app = make_app(tmp_path, bot_factory=factory)
    with ThreadServer(app) as server, httpx.Client(base_url=server.url, timeout=10) as api:
        gid, _ = create(api, "kingdom", seats=[{"type": "bot"}, {"type": "human"}], setup={"mode": "first", "seed": 4})
        live = _bot_task_done(app, gid, timeout=60)
        view = api.get(f"/api/games/{gid}/state").json()
        # the bot played its whole turn; every move came after two failures
        assert view["to_move"] == 1 and view["version"] >= 2
        assert all(e["seat"] == 0 for e in view["log"]) and view["log"][-1]["action"] == "end"
        assert factory.calls == 3 * len(live.steps)


def test_a_too_large_body_is_refused_as_json(api, server):
    r = api.post("/api/games", content=b"x" * (16 * 1024 + 1), headers={"content-type": "application/json"})
    assert r.status_code == 413
    assert r.headers["content-type"] == "application/json"
    assert r.json()["detail"] == "the request body is too large: at most 16384 bytes"
    assert int(r.headers["content-length"]) == len(r.content)


def test_a_seat_is_connected_while_its_socket_is_open(api, server):
    import asyncio

    from tests.server.helpers import SocketClient

    gid, tokens = create(api, "middle-ages", setup={"seed": 1})

    def connected():
        return [s["connected"] for s in api.get(f"/api/games/{gid}").json()["seats"]]

    async def main():
        async with SocketClient(server.ws_url, gid, tokens[1]) as client:
            assert [s["connected"] for s in client.latest["seats"]] == [False, True]
            assert connected() == [False, True]
            async with SocketClient(server.ws_url, gid, None):
                assert connected() == [False, True]
        deadline = time.monotonic() + 10
        while connected() != [False, False] and time.monotonic() < deadline:
            await asyncio.sleep(0.02)
        assert connected() == [False, False]
        live = server.app.state.service.live[gid]
        assert live.clients == set()

    asyncio.run(main())


def test_the_service_view_of_a_seat_is_what_the_api_sends(api, server):
    gid, tokens = create(api, "middle-ages", setup={"seed": 1})
    service = server.app.state.service
    live = service.get(gid)
    mine = api.get(f"/api/games/{gid}/state", headers=seat_headers(tokens[0])).json()
    assert service.view(live, 0) == mine and mine["seat"] == 0 and mine["legal"]
    spectator = service.view(live, None)
    assert spectator == api.get(f"/api/games/{gid}/state").json()
    assert spectator["seat"] is None and spectator["legal"] == [] and spectator["view"]["seat"] is None


def test_a_game_loaded_again_keeps_its_options(tmp_path):
    """After a restart the games come back from the database with everything the lobby shows."""
    first = make_app(tmp_path)
    with ThreadServer(first) as server, httpx.Client(base_url=server.url, timeout=10) as api:
        seeded, _ = create(api, "middle-ages", setup={"seed": 9})
        dealt, _ = create(api, "kingdom")
        before = {gid: api.get(f"/api/games/{gid}").json() for gid in (seeded, dealt)}
    assert (before[seeded]["seeded"], before[dealt]["seeded"]) == (True, False)
    again = make_app(tmp_path)
    with ThreadServer(again) as server, httpx.Client(base_url=server.url, timeout=10) as api:
        for gid in (seeded, dealt):
            after = api.get(f"/api/games/{gid}").json()
            assert {k: after[k] for k in ("seeded", "private", "rated", "rematch")} == {
                k: before[gid][k] for k in ("seeded", "private", "rated", "rematch")
            }
            assert again.state.service.live[gid].options.seeded is (gid == seeded)


def test_pages_without_the_web_client(tmp_path):
    app = make_app(tmp_path, static_dir=tmp_path / "no-client")
    with ThreadServer(app) as server, httpx.Client(base_url=server.url, timeout=10) as api:
        for path in ("/", "/play/abc", "/replay/abc"):
            r = api.get(path)
            assert r.status_code == 404 and r.headers["content-type"].startswith("text/html")
            assert r.text == (
                "<!doctype html><title>Builders</title><p>The web client is not installed. "
                'The API is described at <a href="/docs">/docs</a>.</p>'
            )
        # the API works all the same
        assert api.post("/api/games", json={"game": "kingdom", "seats": [{"type": "human"}] * 2}).status_code == 201


def test_a_socket_action_is_at_most_200_characters(api, server):
    import asyncio

    from tests.server.helpers import SocketClient

    gid, tokens = create(api, "middle-ages", setup={"seed": 1})

    async def main():
        async with SocketClient(server.ws_url, gid, tokens[0]) as client:
            await client.send({"type": "action", "action": "x" * 201})
            assert await client.error() == {
                "type": "error",
                "message": "an action is at most 200 characters long",
                "code": 400,
                "key": "an action is at most 200 characters long",
                "params": {},
            }
            # 200 characters are read (and refused by the game's notation)
            await client.send({"type": "action", "action": "x" * 200})
            refused = await client.error()
            assert refused["code"] == 400 and refused["message"] != "an action is at most 200 characters long"
        assert version(api, gid) == 0

    asyncio.run(main())
