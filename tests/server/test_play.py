"""Whole games through the API: people on sockets and over HTTP, bots, a spectator; every message
any of them received is scanned for hidden information."""

from __future__ import annotations

import asyncio
import random

import httpx
import pytest

from builders.core.record import replay
from tests.server.helpers import SocketClient, check_hidden, illegal_action


async def play_game(server, game: str, seats: list[dict], setup: dict | None = None, seed: int = 1):
    """Play one game to its end: socket players on even human seats, HTTP players on odd ones,
    random choices, some undos, some refused actions. Returns (record, clients, http views)."""
    rnd = random.Random(seed)
    async with httpx.AsyncClient(base_url=server.url, timeout=10) as http:
        body = {"game": game, "seats": seats}
        if setup is not None:
            body["setup"] = setup
        r = await http.post("/api/games", json=body)
        assert r.status_code == 201, r.text
        created = r.json()
        gid = created["id"]
        tokens = {s["seat"]: s["token"] for s in created["seats"] if s["type"] == "human"}
        assert all(
            s["link"] == f"/play/{gid}#seat={s['seat']}&token={s['token']}"
            for s in created["seats"]
            if s["type"] == "human"
        )
        sockets = {seat: SocketClient(server.ws_url, gid, tok) for seat, tok in tokens.items() if seat % 2 == 0}
        http_seats = {seat: tok for seat, tok in tokens.items() if seat % 2 == 1}
        spectator = SocketClient(server.ws_url, gid, None)
        http_views: list[tuple[int | None, str]] = []
        async with spectator:
            for client in sockets.values():
                await client.__aenter__()
            try:
                undos = refused = 0
                for _ in range(3000):
                    r = await http.get(f"/api/games/{gid}/state")
                    http_views.append((None, r.text))
                    view = r.json()
                    if view["status"] == "finished":
                        break
                    seat, version = view["to_move"], view["version"]
                    if seat in sockets:
                        client = sockets[seat]
                        mine = await client.state(version)
                        assert mine["seat"] == seat and mine["legal"]
                        if mine["can_undo"] and rnd.random() < 0.15:
                            await client.send({"type": "undo"})
                            undone = await client.state(version + 1)
                            assert undone["actions"] == mine["actions"] - 1
                            undos += 1
                            continue
                        if rnd.random() < 0.05:  # an illegal action is refused, nothing changes
                            await client.send(
                                {"type": "action", "action": illegal_action(game, mine["legal"]), "version": version}
                            )
                            err = await client.error()
                            assert err["message"]
                            refused += 1
                        await client.send({"type": "action", "action": rnd.choice(mine["legal"]), "version": version})
                        await client.state(version + 1)
                    elif seat in http_seats:
                        headers = {"X-Seat-Token": http_seats[seat]}
                        r = await http.get(f"/api/games/{gid}/state", headers=headers)
                        http_views.append((seat, r.text))
                        mine = r.json()
                        if mine["version"] != version:
                            continue
                        if mine["can_undo"] and rnd.random() < 0.15:
                            r = await http.post(f"/api/games/{gid}/undo", headers=headers)
                            assert r.status_code == 200, r.text
                            undos += 1
                            continue
                        other = next((s for s in tokens if s != seat), None)
                        if other is not None and rnd.random() < 0.05:  # out of turn
                            r = await http.post(
                                f"/api/games/{gid}/actions",
                                json={"action": "end"},
                                headers={"X-Seat-Token": tokens[other]},
                            )
                            assert r.status_code == 403, r.text
                            refused += 1
                        r = await http.post(
                            f"/api/games/{gid}/actions",
                            headers=headers,
                            json={"action": rnd.choice(mine["legal"]), "version": version},
                        )
                        assert r.status_code == 200, r.text
                        http_views.append((seat, r.text))
                        assert r.json()["version"] == version + 1
                    else:  # a bot's turn: wait for its move
                        await spectator.state(version + 1)
                else:
                    pytest.fail("the game did not end")
                # everyone ends up with the final view
                for client in [spectator, *sockets.values()]:
                    final = await client.state(view["version"])
                    assert final["status"] == "finished" and final["result"] == view["result"]
            finally:
                for client in sockets.values():
                    await client.__aexit__(None, None, None)
        r = await http.get(f"/api/games/{gid}/record")
        assert r.status_code == 200
        record = r.json()
        return gid, record, [spectator, *sockets.values()], http_views, view


def check_game(record, clients, http_views, final):
    state = replay(record)
    assert state.is_over()
    assert record["result"] == state.result().to_json() == final["result"]
    assert final["actions"] == len(state.player_actions())
    for client in clients:
        seat = None if client.token is None else client.messages[0]["seat"]
        for raw, msg in zip(client.raw, client.messages):
            if msg["type"] == "state":
                check_hidden(record, seat, raw)
    for seat, raw in http_views:
        check_hidden(record, seat, raw)


def test_kingdom_game_people_and_bots(server):
    seats = [
        {"type": "human", "name": "Ada"},
        {"type": "human", "name": "Bo"},
        {"type": "bot", "level": "easy"},
        {"type": "human"},
    ]
    gid, record, clients, http_views, final = asyncio.run(
        play_game(server, "kingdom", seats, {"mode": "random"}, seed=3)
    )
    check_game(record, clients, http_views, final)
    assert final["board"]["rows"] and len(final["board"]["rows"]) == 20
    assert set(final["scoring_hexes"]) == {"0", "1", "2", "3"}
    # bots did play: some actions of seat 2
    assert any(entry["seat"] == 2 for entry in final["log"])


def test_middle_ages_game_people_and_bots(server):
    seats = [{"type": "bot", "level": "medium"}, {"type": "human"}, {"type": "human"}]
    gid, record, clients, http_views, final = asyncio.run(play_game(server, "middle-ages", seats, seed=5))
    check_game(record, clients, http_views, final)
    assert "board" not in final or final["board"] is None


def test_two_bots_and_one_person_first_game(server):
    seats = [{"type": "human"}, {"type": "bot", "level": "hard"}, {"type": "bot", "level": "easy"}]
    gid, record, clients, http_views, final = asyncio.run(
        play_game(server, "kingdom", seats, {"mode": "first"}, seed=9)
    )
    check_game(record, clients, http_views, final)
    assert record["setup"]["cards"] == ["fishermen", "merchants", "knights"]
