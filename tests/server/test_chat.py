"""Chat (players and spectators, stored, at most 500 characters, rate limited, pushed on the socket
to its channel only) and rematch (the same seats again)."""

from __future__ import annotations

import asyncio
import itertools
import json

import websockets

from tests.server.test_accounts import refused
from tests.server.test_ratings import play_to_end

_names = itertools.count(1)


def test_channels_limits_and_the_socket(server, people, api):
    ada, bo, fan = people(), people(), people()
    data = ada.post(
        "/api/games", json={"game": "kingdom", "seats": [{"type": "human"}, {"type": "human", "invite": True}]}
    ).json()
    gid = data["id"]
    bo.post(f"/api/games/{gid}/claim", json={"code": data["seats"][1]["invite"].split("#invite=")[1]})

    async def listen(cookie: str | None, seat_token: str | None = None):
        headers = {"Cookie": f"builders_session={cookie}"} if cookie else {}
        ws = await websockets.connect(f"{server.ws_url}/ws/games/{gid}", additional_headers=headers)
        await ws.send(json.dumps({"type": "hello", "token": seat_token}))
        first = json.loads(await asyncio.wait_for(ws.recv(), 5))
        assert first["type"] == "state"
        return ws, first["seat"]

    async def scenario():
        bo_ws, bo_seat = await listen(bo.http.cookies["builders_session"])
        fan_ws, fan_seat = await listen(fan.http.cookies["builders_session"])
        assert (bo_seat, fan_seat) == (1, None)
        said = await asyncio.to_thread(ada.post, f"/api/games/{gid}/chat", {"text": "  good luck  "})
        assert said.status_code == 201, said.text
        message = said.json()
        assert message["channel"] == "players" and message["text"] == "good luck" and message["seat"] == 0
        # Bo's socket gets it; the spectator's does not
        while True:
            got = json.loads(await asyncio.wait_for(bo_ws.recv(), 5))
            if got["type"] == "chat":
                break
        assert got == {"type": "chat", **message}
        cheer = await asyncio.to_thread(fan.post, f"/api/games/{gid}/chat", {"text": "go blue"})
        assert cheer.json()["channel"] == "spectators"
        while True:
            got = json.loads(await asyncio.wait_for(fan_ws.recv(), 5))
            if got["type"] == "chat":
                break
        assert got["text"] == "go blue" and got["seat"] is None
        await bo_ws.close()
        await fan_ws.close()

    asyncio.run(scenario())
    assert [m["text"] for m in bo.get(f"/api/games/{gid}/chat").json()] == ["good luck"]
    assert [m["text"] for m in fan.get(f"/api/games/{gid}/chat").json()] == ["go blue"]
    assert [m["text"] for m in api.get(f"/api/games/{gid}/chat").json()] == ["go blue"]

    refused(ada.post(f"/api/games/{gid}/chat", json={"text": "x" * 501}), 400, "at most 500 characters")
    refused(ada.post(f"/api/games/{gid}/chat", json={"text": "   "}), 400, "needs some text")
    refused(ada.post(f"/api/games/{gid}/chat", json={"text": "hi"}, csrf=False), 403, "CSRF token")
    refused(api.post(f"/api/games/{gid}/chat", json={"text": "hi"}), 401, "sign in or play as a guest")
    # 5 messages in 10 seconds per person; the refused one is not stored
    for i in range(5):
        assert bo.post(f"/api/games/{gid}/chat", json={"text": f"m{i}"}).status_code == 201
    refused(bo.post(f"/api/games/{gid}/chat", json={"text": "one too many"}), 429, "too many chat messages")
    assert "one too many" not in [m["text"] for m in ada.get(f"/api/games/{gid}/chat").json()]


def test_a_rematch_offers_the_same_seats(server, people):
    ada_name, bo_name = f"chatter{next(_names)}", f"chatter{next(_names)}"
    ada, bo = people(ada_name), people(bo_name)
    gid = ada.post(
        "/api/games",
        json={
            "game": "kingdom",
            "seats": [{"type": "human"}, {"type": "human", "user": bo_name}, {"type": "bot", "level": "easy"}],
        },
    ).json()["id"]
    refused(ada.post(f"/api/games/{gid}/rematch"), 409, "once the game is over")
    play_to_end({0: ada, 1: bo}, gid)
    outsider = people()
    refused(outsider.post(f"/api/games/{gid}/rematch"), 403, "only a signed-in player")
    made = bo.post(f"/api/games/{gid}/rematch")
    assert made.status_code == 201, made.text
    new = made.json()["id"]
    summary = ada.get(f"/api/games/{new}").json()
    assert [(s["type"], s["user"], s.get("level")) for s in summary["seats"]] == [
        ("human", ada_name, None),
        ("human", bo_name, None),
        ("bot", None, "easy"),
    ]
    assert ada.get(f"/api/games/{gid}").json()["rematch"] == new
    assert ada.get(f"/api/games/{gid}/state").json()["rematch"] == new
    refused(ada.post(f"/api/games/{gid}/rematch"), 409, "offered already")
    assert new in [g["id"] for g in ada.get("/api/account/games").json()]
