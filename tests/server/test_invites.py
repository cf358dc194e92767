"""Invitations as a guest meets them, and the lobby's own fields: a used link says it was used (before
anything about the game: a finished rated game told a guest to sign up), a link that never was one
says so, a guest is sent to sign up for a rated seat and then takes it; the games where it is your
turn (asked every two seconds by the pages); the clock's kind in the summaries."""

from __future__ import annotations

import itertools

from tests.server.test_accounts import counts, refused

_names = itertools.count(1)
CLOCK = {"kind": "turn", "per_turn": 86400}


def name() -> str:
    return f"inviter{next(_names)}"


def code_of(created: dict, seat: int = 1) -> str:
    return created["seats"][seat]["invite"].split("#invite=")[1]


def test_a_guest_signs_up_and_takes_a_rated_seat_and_the_used_link_says_so(server, people):
    ada = people(name())
    made = ada.post(
        "/api/games",
        json={
            "game": "kingdom",
            "rated": True,
            "clock": CLOCK,
            "seats": [{"type": "human"}, {"type": "human", "invite": True}],
        },
    )
    assert made.status_code == 201, made.text
    gid, code = made.json()["id"], code_of(made.json())

    guest = people()
    before = counts(server)
    refused(guest.post(f"/api/games/{gid}/claim", json={"code": code}), 401, "sign up or sign in first")
    assert counts(server) == before
    assert guest.get(f"/api/games/{gid}").json()["seats"][1]["invited"] is True
    # the guest signs up (same browser) and the same link now gives the seat
    bo = name()
    guest.sign_up(bo)
    taken = guest.post(f"/api/games/{gid}/claim", json={"code": code})
    assert taken.status_code == 200, taken.text
    assert taken.json() == {"seat": 1, "token": None, "link": f"/play/{gid}"}
    assert guest.get(f"/api/games/{gid}").json()["seats"][1]["user"] == bo

    # the game ends; a guest opening the used link is told it was used, not to sign up
    assert ada.post(f"/api/games/{gid}/resign").status_code == 200
    assert guest.get(f"/api/games/{gid}").json()["status"] == "finished"
    late = people()
    before = counts(server)
    refused(late.post(f"/api/games/{gid}/claim", json={"code": code}), 410, "this invitation was already used")
    refused(guest.post(f"/api/games/{gid}/claim", json={"code": code}), 410, "this invitation was already used")
    assert counts(server) == before


def test_a_link_that_never_was_an_invitation_is_not_valid(server, people):
    ada = people()
    made = ada.post(
        "/api/games", json={"game": "middle-ages", "seats": [{"type": "human"}, {"type": "human", "invite": True}]}
    ).json()
    gid, code = made["id"], code_of(made)
    eve = people()
    before = counts(server)
    for wrong in (code[:-2] + ("xx" if not code.endswith("xx") else "yy"), "x", "a" * 100):
        refused(eve.post(f"/api/games/{gid}/claim", json={"code": wrong}), 404, "not valid: ask for a new one")
    refused(eve.post("/api/games/nosuchgame/claim", json={"code": code}), 404, "there is no game")
    assert counts(server) == before
    assert eve.get(f"/api/games/{gid}").json()["seats"][1]["invited"] is True
    # the good code still works after the wrong ones
    assert eve.post(f"/api/games/{gid}/claim", json={"code": code}).json()["seat"] == 1
    refused(people().post(f"/api/games/{gid}/claim", json={"code": code}), 410, "already used")


def test_an_unused_invitation_of_a_finished_game_is_refused_as_over(server, people):
    ada = people()
    made = ada.post(
        "/api/games",
        json={
            "game": "middle-ages",
            "seats": [{"type": "human"}, {"type": "human", "invite": True}, {"type": "human", "invite": True}],
        },
    ).json()
    gid = made["id"]
    assert ada.post(f"/api/games/{gid}/claim", json={"code": code_of(made, 1)}).status_code == 200
    assert ada.post(f"/api/games/{gid}/abort?seat=0").status_code == 204
    refused(people().post(f"/api/games/{gid}/claim", json={"code": code_of(made, 2)}), 404, "there is no game")


def test_the_games_waiting_for_you_follow_each_move(server, people, api):
    ada_name, bo_name = name(), name()
    ada, bo = people(ada_name), people(bo_name)
    gid = ada.post(
        "/api/games",
        json={
            "game": "middle-ages",
            "clock": {"kind": "live", "total": 600},
            "seats": [{"type": "human"}, {"type": "human", "user": bo_name}],
        },
    ).json()["id"]
    assert [g["id"] for g in ada.get("/api/account/waiting").json()["games"]].count(gid) == 1
    assert gid not in [g["id"] for g in bo.get("/api/account/waiting").json()["games"]]
    entry = next(g for g in ada.get("/api/account/waiting").json()["games"] if g["id"] == gid)
    assert entry == {"id": gid, "game": "middle-ages", "name": None, "turn": 0}
    for action in ("coins 1", "coins 1", "coins 1", "end"):
        assert ada.post(f"/api/games/{gid}/actions", json={"action": action}).status_code == 200
    assert gid not in [g["id"] for g in ada.get("/api/account/waiting").json()["games"]]
    assert gid in [g["id"] for g in bo.get("/api/account/waiting").json()["games"]]
    # a seat handed over to a bot waits for nobody; nor does a request without an account
    assert bo.post(f"/api/games/{gid}/resign", json={"bot": "easy"}).status_code == 200
    assert gid not in [g["id"] for g in bo.get("/api/account/waiting").json()["games"]]
    assert api.get("/api/account/waiting").json() == {"games": []}


def test_summaries_say_the_kind_of_clock(server, people, api):
    ada = people()
    kinds = {}
    for clock in (None, {"kind": "live", "total": 300, "increment": 5}, CLOCK):
        body = {"game": "middle-ages", "seats": [{"type": "human"}, {"type": "human", "open": True}]}
        if clock:
            body["clock"] = clock
        gid = ada.post("/api/games", json=body).json()["id"]
        kinds[gid] = clock["kind"] if clock else None
        assert api.get(f"/api/games/{gid}").json()["clock_kind"] == kinds[gid]
    listed = {g["id"]: g["clock_kind"] for g in api.get("/api/games?status=open").json()}
    assert {gid: listed[gid] for gid in kinds} == kinds
    mine = {g["id"]: g["clock_kind"] for g in ada.get("/api/account/games").json()}
    assert {gid: mine[gid] for gid in kinds} == kinds
