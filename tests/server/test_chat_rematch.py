"""A rematch as the players of the finished game see it (issue 43: mutation testing of
``server/chat.py``): the finished game names the new one in the database, not only in this process's
copy, and every socket of it is sent its own view naming the new game."""

from __future__ import annotations

import asyncio

import httpx

from builders.server.chat import make_rematch
from tests.server.helpers import SocketClient


def test_a_rematch_is_stored_with_the_finished_game_and_its_sockets_get_their_own_views(server, people):
    people("rematchunit1")  # offers the rematch of a game made without an account (seat tokens)
    made = httpx.post(server.url + "/api/games", json={"game": "kingdom", "seats": [{"type": "human"}] * 2}, timeout=30)
    assert made.status_code == 201, made.text
    gid, token = made.json()["id"], made.json()["seats"][1]["token"]
    service = server.app.state.service
    account = server.app.state.accounts.by_username("rematchunit1")
    loop = server.app.state.cluster.tasks[0].get_loop()

    async def scenario():
        async with SocketClient(server.ws_url, gid, token) as seat1, SocketClient(server.ws_url, gid, None) as fan:
            assert seat1.latest["rematch"] is None and seat1.latest["seat"] == 1

            async def rematch():  # on the server's loop, as its route does
                return make_rematch(service, service.live[gid], account.id)

            created = await asyncio.wrap_future(asyncio.run_coroutine_threadsafe(rematch(), loop))
            seen = await seat1.receive()
            while seen.get("rematch") is None:
                seen = await seat1.receive()
            assert (seen["rematch"], seen["seat"]) == (created["id"], 1)
            watched = await fan.receive()
            while watched.get("rematch") is None:
                watched = await fan.receive()
            assert (watched["rematch"], watched["seat"]) == (created["id"], None)
            return created["id"]

    new = asyncio.run(scenario())
    row, _ = service.store.snapshot(gid)
    assert row["options"].rematch == new
