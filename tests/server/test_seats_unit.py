"""The seats' finer points, each pinned by its exact outcome: the games waiting for you carry their
names, a signed-in player's change needs the session's CSRF token (and changes nothing without it),
an account holding some seats of a game acts for its first one while another seat is to move: HTTP
against a real server on SQLite."""

from __future__ import annotations

import asyncio
import itertools

from builders.server.seats import adopt

_names = itertools.count(1)


def name() -> str:
    return f"seatunit{next(_names)}"


def detail(r) -> tuple[int, str]:
    return r.status_code, r.json()["detail"]


def create(person, seats: list[dict], **fields) -> str:
    """A game of The Builders that ``person`` creates; its id."""
    made = person.post("/api/games", json={"game": "middle-ages", "seats": seats, **fields})
    assert made.status_code == 201, made.text
    return made.json()["id"]


def test_the_games_waiting_for_you_carry_their_names(server, people):
    ada_name, bo_name = name(), name()
    ada, bo = people(ada_name), people(bo_name)
    gid = create(ada, [{"type": "human"}, {"type": "human", "user": bo_name}], name="Friday table")
    waiting = [g for g in ada.get("/api/account/waiting").json()["games"] if g["id"] == gid]
    assert waiting == [{"id": gid, "game": "middle-ages", "name": "Friday table", "turn": 0}]
    assert [g for g in bo.get("/api/account/waiting").json()["games"] if g["id"] == gid] == []


def test_a_signed_in_player_s_action_needs_the_session_s_csrf_token(server, people):
    ada = people(name())
    gid = create(ada, [{"type": "human"}, {"type": "human"}])
    before = ada.get(f"/api/games/{gid}/state").json()
    assert detail(ada.post(f"/api/games/{gid}/actions", json={"action": "coins 1"}, csrf=False)) == (
        403,
        "this request needs your session's CSRF token in the X-CSRF-Token header",
    )
    assert ada.get(f"/api/games/{gid}/state").json() == before  # nothing changed
    assert ada.post(f"/api/games/{gid}/actions", json={"action": "coins 1"}).status_code == 200


def test_an_account_acts_for_its_first_seat_while_another_seat_is_to_move(server, people):
    ada_name, bo_name = name(), name()
    ada, bo = people(ada_name), people(bo_name)
    gid = create(ada, [{"type": "human", "user": bo_name}, {"type": "human"}, {"type": "human"}])
    assert ada.get(f"/api/games/{gid}/mine").json() == {"seats": [1, 2]}
    assert bo.get(f"/api/games/{gid}/mine").json() == {"seats": [0]}
    view = ada.get(f"/api/games/{gid}/state").json()
    assert (view["to_move"], view["seat"]) == (0, 1)  # seat 0 (bo's) to move: ada views its first seat
    assert detail(ada.post(f"/api/games/{gid}/actions", json={"action": "coins 1"})) == (
        403,
        "it is seat 0's turn, not seat 1's",
    )
    for action in ("coins 1", "coins 1", "coins 1", "end"):
        assert bo.post(f"/api/games/{gid}/actions", json={"action": action}).status_code == 200
    view = ada.get(f"/api/games/{gid}/state").json()
    assert (view["to_move"], view["seat"]) == (1, 1)


def test_a_program_without_an_account_joins_an_open_seat_with_a_seat_token(server, people, api):
    ada = people(name())
    gid = create(ada, [{"type": "human"}, {"type": "human", "open": True}])
    joined = api.post(f"/api/games/{gid}/join", json={"seat": 1, "name": "Robot"})
    assert joined.status_code == 200, joined.text
    body = joined.json()
    assert body["seat"] == 1 and isinstance(body["token"], str) and len(body["token"]) >= 20
    token = body["token"]
    assert api.get(f"/api/games/{gid}/state", headers={"X-Seat-Token": token}).json()["seat"] == 1
    assert api.get(f"/api/games/{gid}/mine").json() == {"seats": []}  # nobody's account holds it
    assert ada.get(f"/api/games/{gid}/mine").json() == {"seats": [0]}


def test_adopting_a_guest_s_seats_returns_the_games_moved(server, people):
    owner = people(name())
    owner_id = owner.get("/api/session").json()["account"]["id"]
    guest = people()
    guest_id = guest.get("/api/session").json()["account"]["id"]
    gid = create(guest, [{"type": "human"}, {"type": "human", "open": True}])
    service = server.app.state.service
    moved = asyncio.run_coroutine_threadsafe(
        adopt(service, guest_id, owner_id), server.app.state.clocks.ticker.get_loop()
    ).result(20)
    assert moved == [gid]
    assert owner.get(f"/api/games/{gid}/mine").json() == {"seats": [0]}
    assert guest.get(f"/api/games/{gid}/mine").json() == {"seats": []}
