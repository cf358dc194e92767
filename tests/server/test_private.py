"""Private games stay private, running and finished: only their players (a seat of their account, the
account that created it, or a seat token) see them. To everyone else every route answers exactly as
for a game that does not exist (404 ``there is no game '<id>'``), and lists and profiles leave them out."""

from __future__ import annotations

import asyncio
import json
import time

import pytest
import websockets

from tests.server.test_accounts import fresh_name, refused


def kingdom(seats, **extra):
    return {"game": "kingdom", "seats": seats, **extra}


def finish(server, gid: str, timeout: float = 60.0) -> None:
    """Wait until the bots have played ``gid`` to its end."""
    service = server.app.state.service
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if service.store.game(gid)["status"] == "finished":
            return
        time.sleep(0.05)
    raise AssertionError(f"game {gid} did not end")


def every_route(gid: str) -> list[tuple[str, str, dict | None]]:
    """(method, path, body) of every route of one game."""
    return [
        ("GET", f"/api/games/{gid}", None),
        ("GET", f"/api/games/{gid}/state", None),
        ("GET", f"/api/games/{gid}/mine", None),
        ("GET", f"/api/games/{gid}/record", None),
        ("GET", f"/api/games/{gid}/replay/0", None),
        ("GET", f"/api/games/{gid}/analysis", None),
        ("POST", f"/api/games/{gid}/analysis", None),
        ("GET", f"/api/games/{gid}/chat", None),
        ("POST", f"/api/games/{gid}/chat", {"text": "hello?"}),
        ("POST", f"/api/games/{gid}/join", {"seat": 1}),
        ("POST", f"/api/games/{gid}/claim", {"code": "not-a-code"}),
        ("POST", f"/api/games/{gid}/actions", {"action": "end"}),
        ("POST", f"/api/games/{gid}/undo", None),
        ("POST", f"/api/games/{gid}/resign", None),
        ("POST", f"/api/games/{gid}/hint", None),
        ("POST", f"/api/games/{gid}/rematch", None),
    ]


def call(person, method: str, path: str, body, **kw):
    return person.get(path, **kw) if method == "GET" else person.post(path, json=body, **kw)


def assert_hidden(server, gid: str, outsiders) -> None:
    """Every route of ``gid`` answers each outsider as for a game that does not exist, and changes nothing."""
    store = server.app.state.service.store
    before = (store.game(gid)["version"], store.counts())
    for who, kw in outsiders:
        for method, path, body in every_route(gid):
            r = call(who, method, path, body, **kw)
            assert (r.status_code, r.json()["detail"]) == (404, f"there is no game '{gid}'"), (method, path, r.text)
    assert (store.game(gid)["version"], store.counts()) == before


@pytest.fixture
def cast(people):
    """Ada and Bo play a private game (Ada's seat, and Bo's by username) with hints; Eve is signed up
    but not in it; a stranger has no account at all."""
    ada, bo, eve, stranger = people(fresh_name("Ada")), people(fresh_name("Bo")), people(fresh_name("Eve")), people()
    bo_name = bo.get("/api/session").json()["account"]["username"]
    r = ada.post(
        "/api/games", json=kingdom([{"type": "human"}, {"type": "human", "user": bo_name}], private=True, hints=True)
    )
    assert r.status_code == 201, r.text
    return ada, bo, eve, stranger, r.json()["id"]


def test_a_running_private_game_is_nobody_elses(server, cast, api):
    ada, bo, eve, stranger, gid = cast
    nothing = api.get("/api/games/NoSuch12")
    assert (nothing.status_code, nothing.json()["detail"]) == (404, "there is no game 'NoSuch12'")
    # a signed-up outsider, a guest, a client without any session, one with a made-up seat token,
    # one with a personal API token that is not valid
    assert_hidden(
        server,
        gid,
        [
            (eve, {}),
            (stranger, {}),
            (api, {}),
            (api, {"headers": {"X-Seat-Token": "made-up-token-000000000"}}),
            (api, {"headers": {"Authorization": "Bearer bld_not_a_token"}}),
        ],
    )
    for status in (None, "open", "running", "finished"):
        listed = api.get("/api/games", params={"status": status} if status else {}).json()
        assert gid not in {g["id"] for g in listed}
    # its players see it all
    for player, seat in ((ada, 0), (bo, 1)):
        summary = player.get(f"/api/games/{gid}").json()
        assert summary["id"] == gid and summary["private"] is True
        assert player.get(f"/api/games/{gid}/state").json()["seat"] == seat
        assert player.get(f"/api/games/{gid}/mine").json() == {"seats": [seat]}
        assert player.get(f"/api/games/{gid}/chat").json() == []
        assert gid in {g["id"] for g in player.get("/api/account/games").json()}
    refused(ada.get(f"/api/games/{gid}/record"), 409, "once the game is over")
    refused(bo.post(f"/api/games/{gid}/hint"), 403, "it is seat 0's turn, not seat 1's")  # seen, then refused
    said = bo.post(f"/api/games/{gid}/chat", json={"text": "good luck"})
    assert said.status_code == 201 and [m["text"] for m in ada.get(f"/api/games/{gid}/chat").json()] == ["good luck"]


def test_a_program_without_an_account_proves_its_seat_with_its_token(server, api):
    r = api.post("/api/games", json=kingdom([{"type": "human"}, {"type": "human"}], private=True))
    assert r.status_code == 201
    gid, token = r.json()["id"], r.json()["seats"][1]["token"]
    mine = {"X-Seat-Token": token}
    assert api.get(f"/api/games/{gid}", headers=mine).json()["id"] == gid
    assert api.get(f"/api/games/{gid}/state", headers=mine).json()["seat"] == 1
    refused(api.post(f"/api/games/{gid}/actions", json={"action": "end"}, headers=mine), 403, "seat 0's turn")
    assert_hidden(server, gid, [(api, {})])


def test_a_finished_private_game_stays_private(server, people, api):
    ada, eve = people(fresh_name("Ada")), people(fresh_name("Eve"))
    ada_name = ada.get("/api/session").json()["account"]["username"]
    r = ada.post("/api/games", json=kingdom([{"type": "human"}, {"type": "bot", "level": "easy"}], private=True))
    gid = r.json()["id"]
    public = ada.post("/api/games", json=kingdom([{"type": "human"}, {"type": "bot", "level": "easy"}])).json()["id"]
    for game in (gid, public):  # Ada leaves both; the bots play them to their ends
        assert ada.post(f"/api/games/{game}/resign", json={"bot": "easy"}).status_code == 200
        finish(server, game)
    assert_hidden(server, gid, [(eve, {}), (api, {})])
    assert gid not in {g["id"] for g in api.get("/api/games", params={"status": "finished"}).json()}
    # Ada still has it: record, replays, analysis (none yet), her games
    record = ada.get(f"/api/games/{gid}/record")
    assert record.status_code == 200 and record.json()["game"] == "kingdom"
    assert ada.get(f"/api/games/{gid}/replay/0").json()["actions"] == 0
    refused(ada.get(f"/api/games/{gid}/analysis"), 404, "has not been analysed yet")
    assert gid in {g["id"] for g in ada.get("/api/account/games").json()}
    # her profile: the private game for her, not for others
    own = ada.get(f"/api/players/{ada_name}").json()
    assert {g["id"] for g in own["games"]} == {gid, public} and own["games_played"] == 2
    for viewer in (eve, api):
        seen = viewer.get(f"/api/players/{ada_name}").json()
        assert {g["id"] for g in seen["games"]} == {public}
        assert seen["games_played"] == 1
        assert seen["wins"] == sum(g["won"] for g in seen["games"])
        assert seen["mean_score"] == (seen["games"][0]["scores"][0] if seen["games"] else None)


def test_a_spectators_socket_on_a_private_game_is_refused(server, cast):
    ada, bo, eve, stranger, gid = cast

    async def hello(cookies: dict | None) -> dict:
        headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in cookies.items())} if cookies else {}
        async with websockets.connect(f"{server.ws_url}/ws/games/{gid}", additional_headers=headers) as ws:
            await ws.send(json.dumps({"type": "hello", "token": None}))
            first = json.loads(await asyncio.wait_for(ws.recv(), 10))
            if first["type"] == "error":
                with pytest.raises(websockets.ConnectionClosed) as closed:
                    await asyncio.wait_for(ws.recv(), 10)
                assert closed.value.rcvd.code == 4404
            return first

    for outsider in (None, dict(eve.http.cookies)):
        assert asyncio.run(hello(outsider)) == {
            "type": "error",
            "message": f"there is no game '{gid}'",
            "code": 404,
            "key": "there is no game {game_id!r}",
            "params": {"game_id": gid},
        }
    seen = asyncio.run(hello(dict(bo.http.cookies)))
    assert seen["type"] == "state" and seen["seat"] == 1


def test_a_private_game_lets_in_whoever_has_its_invitation(server, people, api):
    ada, friend = people(fresh_name("Ada")), people()
    r = ada.post("/api/games", json=kingdom([{"type": "human"}, {"type": "human", "invite": True}], private=True))
    gid = r.json()["id"]
    code = r.json()["seats"][1]["invite"].split("#invite=")[1]
    refused(friend.get(f"/api/games/{gid}"), 404, f"there is no game '{gid}'")
    refused(friend.post(f"/api/games/{gid}/claim", json={"code": code[:-2] + "xx"}), 404, f"there is no game '{gid}'")
    taken = friend.post(f"/api/games/{gid}/claim", json={"code": code})
    assert taken.status_code == 200 and taken.json()["seat"] == 1
    assert friend.get(f"/api/games/{gid}/state").json()["seat"] == 1
    # the code is dead: to someone else the game is still not there
    refused(people().post(f"/api/games/{gid}/claim", json={"code": code}), 404, f"there is no game '{gid}'")


def test_a_private_game_has_no_open_seat_and_is_never_rated(server, people):
    ada = people(fresh_name("Ada"))
    before = server.app.state.service.store.counts()
    refused(
        ada.post("/api/games", json=kingdom([{"type": "human"}, {"type": "human", "open": True}], private=True)),
        400,
        "seat 1 is open, but a private game is seen by its players only: invite the other players "
        "with an invitation link or by username",
    )
    refused(
        ada.post(
            "/api/games",
            json=kingdom(
                [{"type": "human"}, {"type": "human", "invite": True}],
                private=True,
                rated=True,
                clock={"kind": "turn", "per_turn": 86400},
            ),
        ),
        400,
        "a rated game is public (its result moves ratings everyone sees): leave private out or make the game unrated",
    )
    assert server.app.state.service.store.counts() == before
