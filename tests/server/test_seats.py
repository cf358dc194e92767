"""Which seat a request acts for (a seat token, an account's seats, ``?seat=N``), every refusal in its
exact words, "your games" with the turns waiting for you, and a guest's seats following it when it
signs in to a named account: HTTP against a real server on SQLite."""

from __future__ import annotations

import itertools

_names = itertools.count(1)


def name() -> str:
    return f"seated{next(_names)}"


def detail(r) -> tuple[int, str]:
    return r.status_code, r.json()["detail"]


def test_a_seat_token_acts_for_its_own_seat_only(server, api):
    made = api.post("/api/games", json={"game": "kingdom", "seats": [{"type": "human"}, {"type": "human"}]}).json()
    gid, tokens = made["id"], [s["token"] for s in made["seats"]]
    first = {"X-Seat-Token": tokens[0]}
    assert detail(api.get(f"/api/games/{gid}/state?seat=1", headers=first)) == (
        403,
        "the seat token is seat 0's, not seat 1's",
    )
    assert detail(api.post(f"/api/games/{gid}/actions?seat=1", json={"action": "end"}, headers=first)) == (
        403,
        "the seat token is seat 0's, not seat 1's",
    )
    assert api.get(f"/api/games/{gid}/state?seat=0", headers=first).json()["seat"] == 0
    assert api.get(f"/api/games/{gid}/state", headers={"X-Seat-Token": tokens[1]}).json()["seat"] == 1
    assert api.get(f"/api/games/{gid}/state").json()["seat"] is None  # a spectator reads
    assert detail(api.post(f"/api/games/{gid}/actions", json={"action": "end"})) == (
        401,
        "this needs the seat token (header X-Seat-Token) or a signed-in player of the seat",
    )


def test_an_account_with_two_seats_acts_for_the_one_to_move_or_the_one_it_names(server, people):
    ada, outsider = people(name()), people(name())
    gid = ada.post("/api/games", json={"game": "kingdom", "seats": [{"type": "human"}, {"type": "human"}]}).json()["id"]
    assert ada.get(f"/api/games/{gid}/mine").json() == {"seats": [0, 1]}
    assert ada.get(f"/api/games/{gid}/state").json()["seat"] == 0
    assert ada.get(f"/api/games/{gid}/state?seat=1").json()["seat"] == 1
    for _ in range(20):  # seat 0 plays its turn: what it must, then the end of the turn
        view = ada.get(f"/api/games/{gid}/state").json()
        if view["to_move"] != 0:
            break
        step = "end" if "end" in view["legal"] else view["legal"][0]
        assert ada.post(f"/api/games/{gid}/actions", json={"action": step}).status_code == 200
    assert ada.get(f"/api/games/{gid}/state").json()["to_move"] == 1
    assert ada.get(f"/api/games/{gid}/state").json()["seat"] == 1  # now the seat to move
    assert ada.get(f"/api/games/{gid}/state?seat=0").json()["seat"] == 0
    assert detail(ada.get(f"/api/games/{gid}/state?seat=2")) == (403, "seat 2 is not yours in this game")
    assert detail(outsider.post(f"/api/games/{gid}/actions", json={"action": "end"})) == (
        403,
        "you have no seat in this game",
    )
    assert outsider.get(f"/api/games/{gid}/state").json()["seat"] is None
    assert outsider.get(f"/api/games/{gid}/mine").json() == {"seats": []}


def test_your_games_say_when_it_is_your_turn(server, people, api):
    ada_name, bo_name = name(), name()
    ada, bo = people(ada_name), people(bo_name)
    gid = ada.post(
        "/api/games", json={"game": "kingdom", "seats": [{"type": "human"}, {"type": "human", "user": bo_name}]}
    ).json()["id"]
    mine = {g["id"]: g for g in ada.get("/api/account/games").json()}
    assert (mine[gid]["my_seats"], mine[gid]["waiting"]) == ([0], True)
    theirs = {g["id"]: g for g in bo.get("/api/account/games").json()}
    assert (theirs[gid]["my_seats"], theirs[gid]["waiting"]) == ([1], False)
    assert api.get("/api/account/games").json() == []  # nobody signed in: no games


def test_a_guest_signing_in_brings_its_seats_to_the_named_account(server, people):
    owner_name = name()
    people(owner_name)
    guest = people()
    guest_id = guest.get("/api/session").json()["account"]["id"]
    gid = guest.post(
        "/api/games", json={"game": "kingdom", "seats": [{"type": "human"}, {"type": "human", "open": True}]}
    ).json()["id"]
    signed = guest.post("/api/session", json={"username": owner_name, "password": "correct horse"})
    assert signed.status_code == 200, signed.text
    owner_id = signed.json()["account"]["id"]
    assert owner_id != guest_id
    live = server.app.state.service.get(gid)
    assert [s.account for s in live.seats] == [owner_id, None]
    assert guest.get(f"/api/games/{gid}/mine").json() == {"seats": [0]}
    assert [(g["id"], g["my_seats"]) for g in guest.get("/api/account/games").json()] == [(gid, [0])]
    stored = {row["id"]: row for row in server.app.state.store.games_of(owner_id)}
    assert stored[gid]["seats"][0].account == owner_id
    assert gid not in {row["id"] for row in server.app.state.store.games_of(guest_id)}
