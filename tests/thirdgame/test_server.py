"""Pig on the server: created and played to the end over HTTP and over a socket, with bots, its own setup
schema, its log and scores from its view, its record replayed, and its refusals."""

from __future__ import annotations

import asyncio
import random

import httpx
import pytest

from builders.core.record import replay
from tests.server.helpers import SocketClient

TWO = [{"type": "human"}, {"type": "human"}]


@pytest.fixture
def api(server):
    with httpx.Client(base_url=server.url, timeout=10) as client:
        yield client


def create(api, seats=TWO, setup=None):
    body = {"game": "pig", "seats": seats, **({"setup": setup} if setup is not None else {})}
    r = api.post("/api/games", json=body)
    assert r.status_code == 201, r.text
    data = r.json()
    return data["id"], {s["seat"]: s.get("token") for s in data["seats"]}


def test_pig_is_played_to_the_end_over_http_and_its_record_replays(api):
    gid, tokens = create(api, setup={"seed": 11, "target": 10})
    view = api.get(f"/api/games/{gid}/state", headers={"X-Seat-Token": tokens[0]}).json()
    assert (view["game"], view["view"]["target"], view["view"]["banked"], view["legal"]) == (
        "pig",
        10,
        [0, 0],
        ["roll"],
    )
    rnd = random.Random(1)
    moves = 0
    while not view["result"]:
        seat = view["to_move"]
        r = api.post(
            f"/api/games/{gid}/actions",
            json={"action": rnd.choice(view["legal"]), "version": view["version"]},
            headers={"X-Seat-Token": tokens[seat]},
        )
        assert r.status_code == 200, r.text
        moves += 1
        view = r.json()
        if not view["result"]:  # the view of the seat to move now
            view = api.get(f"/api/games/{gid}/state", headers={"X-Seat-Token": tokens[view["to_move"]]}).json()
    assert moves == view["version"] and view["log"][0]["text"].startswith("rolls ")
    totals = [p["total"] for p in view["result"]["players"]]
    assert max(totals) >= 10 and totals == view["view"]["banked"]
    record = api.get(f"/api/games/{gid}/record").json()
    assert record["game"] == "pig" and record["setup"] == {"players": 2, "target": 10, "seed": 11}
    assert replay(record).to_json()["banked"] == totals


def test_pig_between_the_project_s_bots_ends_by_itself(api):
    gid, tokens = create(
        api,
        seats=[
            {"type": "bot", "level": "medium"},
            {"type": "bot", "level": "easy"},
            {"type": "bot", "level": "medium"},
        ],
    )
    for _ in range(200):
        view = api.get(f"/api/games/{gid}/state").json()
        if view["result"]:
            break
    assert view["result"] and max(view["view"]["banked"]) >= 20 and len(view["seats"]) == 3


def test_pig_over_a_socket(server, api):
    gid, tokens = create(api, setup={"target": 10})

    async def main():
        async with SocketClient(server.ws_url, gid, tokens[0]) as p0, SocketClient(server.ws_url, gid, tokens[1]) as p1:
            view = await p0.state(0)
            while not view["result"]:
                mover = p0 if view["to_move"] == 0 else p1
                mine = await mover.state(view["version"])
                action = "hold" if "hold" in mine["legal"] and mine["view"]["pot"] >= 6 else "roll"
                await mover.send({"type": "action", "action": action, "version": mine["version"]})
                view = await p0.state(view["version"] + 1)
            other = await p1.state(view["version"])
            return view, other

    view, other = asyncio.run(main())
    assert view["result"] == other["result"] and max(view["view"]["banked"]) >= 10
    assert view["log"] == other["log"] and view["log"][-1]["text"] in (
        "holds",
        "rolls 2",
        "rolls 3",
        "rolls 4",
        "rolls 5",
        "rolls 6",
    )


@pytest.mark.parametrize(
    "setup, status, detail",
    [
        ({"target": 5}, 400, "setup.target: must be at least 10"),
        ({"target": "x"}, 400, "setup.target: must be a whole number"),
        ({"mode": "custom"}, 400, "setup.mode: Pig takes no such choice (its setup: target, seed)"),
        ({"target": 20, "seed": -1}, 400, "setup.seed: must be at least 0"),
        ({"cards": ["a\x00"]}, 400, "card: control characters are not allowed"),
    ],
)
def test_bad_pig_setups_are_refused_and_change_nothing(server, api, setup, status, detail):
    before = server.app.state.store.counts()
    r = api.post("/api/games", json={"game": "pig", "seats": TWO, "setup": setup})
    assert (r.status_code, r.json()["detail"]) == (status, detail)
    assert server.app.state.store.counts() == before


def test_the_api_names_pig_among_its_games(api):
    properties = api.get("/openapi.json").json()["components"]["schemas"]["CreateGame"]["properties"]
    assert properties["game"]["enum"] == ["kingdom", "middle-ages", "pig"]
    assert properties["setup"]["description"].endswith(
        "; middle-ages: the seed only; pig: target (the points to bank to win)"
    )
    r = api.post("/api/games", json={"game": "chess", "seats": TWO})
    assert (r.status_code, r.json()["detail"]) == (
        422,
        "game: unknown game 'chess' (the games are kingdom, middle-ages, pig)",
    )


def test_pig_has_a_leaderboard_and_an_unknown_game_none(api):
    assert (api.get("/api/leaderboard/pig").status_code, api.get("/api/leaderboard/pig").json()) == (200, [])
    r = api.get("/api/leaderboard/chess")
    assert (r.status_code, r.json()["detail"]) == (404, "there is no game named 'chess'")


def test_pig_s_favourites_on_a_profile_say_they_are_pig_s(server):
    """A third game's part of a profile comes with its name, after the registry's other games: Ada's
    favourites are Kingdom Builder's three cards, then Pig's target (``tests/thirdgame/profile.py``)."""
    from tests.server.test_accounts import Person, fresh_name

    ada, bo = Person(server.url), Person(server.url)
    try:
        ada_name, bo_name = fresh_name("Pig"), fresh_name("Pig")
        ada.sign_up(ada_name)
        bo.sign_up(bo_name)
        seats = [{"type": "human"}, {"type": "human", "user": bo_name}]
        pig = ada.post("/api/games", json={"game": "pig", "seats": seats, "setup": {"target": 12}})
        kb = ada.post("/api/games", json={"game": "kingdom", "seats": seats})
        for made in (pig, kb):
            assert made.status_code == 201, made.text
            assert bo.post(f"/api/games/{made.json()['id']}/resign").json()["status"] == "finished"
        cards = bo.get(f"/api/games/{kb.json()['id']}/record").json()["setup"]["cards"]
        assert ada.get(f"/api/players/{ada_name}").json()["favourite_cards"] == [
            *({"game": "kingdom", "card": card} for card in cards),
            {"game": "pig", "card": "target 12"},
        ]
    finally:
        ada.close()
        bo.close()
