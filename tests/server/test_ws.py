"""The game socket: hello, views pushed to every client, reconnecting, and refusals."""

from __future__ import annotations

import asyncio
import json

import httpx
import websockets

from tests.server.helpers import SocketClient, illegal_action


async def create(server, game="kingdom", seats=None):
    async with httpx.AsyncClient(base_url=server.url) as http:
        r = await http.post("/api/games", json={"game": game, "seats": seats or [{"type": "human"}] * 2})
        data = r.json()
        return data["id"], {s["seat"]: s.get("token") for s in data["seats"]}


def test_every_client_gets_its_own_view_after_each_change(server):
    async def main():
        gid, tokens = await create(server, seats=[{"type": "human"}, {"type": "human"}, {"type": "human"}])
        async with (
            SocketClient(server.ws_url, gid, tokens[0]) as p0,
            SocketClient(server.ws_url, gid, tokens[1]) as p1,
            SocketClient(server.ws_url, gid, None) as watcher,
        ):
            first = await p0.state(0)
            assert first["seat"] == 0 and first["legal"] and first["to_move"] == 0
            await p0.send({"type": "action", "action": first["legal"][0], "version": first["version"]})
            mine, theirs, seen = await p0.state(1), await p1.state(1), await watcher.state(1)
            assert mine["seat"] == 0 and theirs["seat"] == 1 and seen["seat"] is None
            assert mine["legal"] and theirs["legal"] == [] and seen["legal"] == []
            assert mine["log"] == theirs["log"] == seen["log"]
            assert mine["view"]["players"][1]["terrain"] is None
            assert theirs["view"]["players"][1]["terrain"] is not None
            assert seen["view"]["players"][1]["terrain"] is None and seen["view"]["players"][2]["terrain"] is None
            # presence: seats 0 and 1 are connected, seat 2 is not
            assert [s["connected"] for s in seen["seats"]] == [True, True, False]

    asyncio.run(main())


def test_reconnect_and_catch_up(server):
    async def main():
        gid, tokens = await create(server)
        async with SocketClient(server.ws_url, gid, tokens[0]) as p0:
            view = await p0.state(0)
            for _ in range(2):
                await p0.send({"type": "action", "action": view["legal"][0]})
                view = await p0.state(view["version"] + 1)
        # gone; the game goes on over HTTP; a new socket's hello brings the current view
        async with httpx.AsyncClient(base_url=server.url) as http:
            r = await http.post(
                f"/api/games/{gid}/actions", json={"action": view["legal"][0]}, headers={"X-Seat-Token": tokens[0]}
            )
            assert r.status_code == 200
            current = r.json()
        async with SocketClient(server.ws_url, gid, tokens[0]) as again:
            latest = again.latest
            assert latest["version"] == current["version"] == 3 and latest["view"] == current["view"]
            # a second hello on the same socket answers with the view again
            await again.send({"type": "hello", "token": tokens[0]})
            msg = await again.receive()
            assert msg["type"] == "state" and msg["version"] == 3

    asyncio.run(main())


def test_socket_refusals_change_nothing(server):
    async def main():
        gid, tokens = await create(server)
        # an unknown game: an error, then the socket closes
        async with websockets.connect(f"{server.ws_url}/ws/games/nosuchgame") as ws:
            msg = json.loads(await asyncio.wait_for(ws.recv(), 5))
            assert msg["type"] == "error" and "no game" in msg["message"]
        async with websockets.connect(f"{server.ws_url}/ws/games/{gid}") as ws:

            async def ask(message):
                await ws.send(message)
                return json.loads(await asyncio.wait_for(ws.recv(), 5))

            assert "hello first" in (await ask(json.dumps({"type": "action", "action": "end"})))["message"]
            assert (await ask(json.dumps({"type": "ping"}))) == {"type": "pong"}
            bad = await ask(json.dumps({"type": "hello", "token": "wrong"}))
            assert bad["type"] == "error" and "token" in bad["message"]
            assert (await ask("{not json"))["type"] == "error"
            assert (await ask(json.dumps([1, 2])))["type"] == "error"
            assert "too long" in (await ask("x" * 9000))["message"]
            assert "too long" in (await ask(b"y" * 9000))["message"]
            view = await ask(json.dumps({"type": "hello", "token": None}))
            assert view["type"] == "state" and view["seat"] is None
            # a spectator cannot play
            msg = await ask(json.dumps({"type": "action", "action": view["legal"][0] if view["legal"] else "end"}))
            assert msg["type"] == "error" and "spectator" in msg["message"]
            # the seat not to move cannot play; the seat to move cannot play illegally
            msg = await ask(json.dumps({"type": "hello", "token": tokens[1]}))
            assert msg["seat"] == 1
            msg = await ask(json.dumps({"type": "action", "action": "end"}))
            assert msg["type"] == "error" and "turn" in msg["message"] and msg["code"] == 403
            msg = await ask(json.dumps({"type": "hello", "token": tokens[0]}))
            for bad_action in (illegal_action("kingdom", msg["legal"]), "end", 42, None, "x" * 300):
                msg = await ask(json.dumps({"type": "action", "action": bad_action}))
                assert msg["type"] == "error" and msg["message"]
            msg = await ask(json.dumps({"type": "undo"}))
            assert msg["type"] == "error" and "nothing to undo" in msg["message"]
            msg = await ask(json.dumps({"type": "dance"}))
            assert msg["type"] == "error" and "unknown" in msg["message"]
        async with httpx.AsyncClient(base_url=server.url) as http:
            view = (await http.get(f"/api/games/{gid}/state")).json()
            assert view["version"] == 0 and view["actions"] == 0

    asyncio.run(main())


def test_players_are_told_how_many_spectators_watch(server):
    async def main():
        gid, tokens = await create(server)
        async with SocketClient(server.ws_url, gid, tokens[0]) as p0:
            assert p0.latest["spectators"] == 0
            async with SocketClient(server.ws_url, gid, None) as watcher:
                assert watcher.latest["spectators"] == 1 and watcher.latest["seat"] is None
                msg = await p0.receive()
                assert msg["type"] == "state" and msg["seat"] == 0 and msg["spectators"] == 1
                # the same count over HTTP: the game's summary and a seat's view
                async with httpx.AsyncClient(base_url=server.url) as http:
                    assert (await http.get(f"/api/games/{gid}")).json()["spectators"] == 1
                    view = await http.get(f"/api/games/{gid}/state", headers={"X-Seat-Token": tokens[0]})
                    assert view.json()["spectators"] == 1
            msg = await p0.receive()
            assert msg["type"] == "state" and msg["spectators"] == 0
            # a second spectator, then the player's own hello again: the count holds
            async with SocketClient(server.ws_url, gid, None):
                assert (await p0.receive())["spectators"] == 1
                await p0.send({"type": "hello", "token": tokens[0]})
                assert (await p0.receive())["spectators"] == 1
            assert (await p0.receive())["spectators"] == 0

    asyncio.run(main())
