"""A game in memory holds its seats and options as records (builders.server.records), over a real
server: every change replaces them (the records a reader holds are never changed under it), and what
the store holds is the JSON of the records in memory, in the shape of the stored row."""

from __future__ import annotations

from builders.server.records import Clock, Options, Seat, seats_to_json


def test_a_hand_over_and_a_take_back_replace_the_records_and_store_their_json(server, api):
    created = api.post(
        "/api/games",
        json={
            "game": "kingdom",
            "seats": [{"type": "human"}, {"type": "human"}, {"type": "human"}],
            "clock": {"kind": "live", "total": 600, "increment": 5},
        },
    )
    assert created.status_code == 201, created.text
    gid, token = created.json()["id"], created.json()["seats"][1]["token"]
    service, store = server.app.state.service, server.app.state.store
    live = service.get(gid)
    assert all(isinstance(s, Seat) for s in live.seats) and isinstance(live.options, Options)
    assert isinstance(live.options.clock, Clock) and live.options.clock.left == [600.0] * 3
    seats, options, seat_1 = live.seats, live.options, live.seats[1]
    stored = store.game(gid)
    assert stored["seats"] == seats_to_json(live.seats) and stored["options"] == live.options.to_json()

    r = api.post(f"/api/games/{gid}/resign", headers={"X-Seat-Token": token}, json={"bot": "medium"})
    assert r.status_code == 200, r.text
    assert (live.seats[1].type, live.seats[1].level, live.seats[1].resigned) == ("bot", "medium", False)
    assert [(e["kind"], e["seat"], e["bot"]) for e in live.options.events] == [("handed_over", 1, "medium")]
    # the records held before the change are as they were
    assert seats is not live.seats and (seat_1.type, seat_1.level) == ("human", None) and seats[1] is seat_1
    assert options is not live.options and options.events == []
    stored = store.game(gid)
    assert stored["seats"] == seats_to_json(live.seats) and stored["options"] == live.options.to_json()
    assert stored["seats"][1]["type"] == "bot" and stored["options"]["events"][0]["kind"] == "handed_over"

    handed = live.seats[1]
    r = api.post(f"/api/games/{gid}/take-back", headers={"X-Seat-Token": token})
    assert r.status_code == 200, r.text
    assert (live.seats[1].type, live.seats[1].level) == ("human", None) and handed.type == "bot"
    assert [e["kind"] for e in live.options.events] == ["handed_over", "took_back"]
    stored = store.game(gid)
    assert stored["seats"] == seats_to_json(live.seats) and stored["options"] == live.options.to_json()
    assert stored["seats"][1]["type"] == "human" and stored["seats"][1]["token_sha"] == live.seats[1].token_sha


def test_a_resignation_that_ends_the_game_stores_the_end_and_stops_the_clock(server, api):
    created = api.post(
        "/api/games",
        json={
            "game": "kingdom",
            "seats": [{"type": "human"}, {"type": "human"}],
            "clock": {"kind": "live", "total": 600},
        },
    )
    assert created.status_code == 201, created.text
    gid, tokens = created.json()["id"], [s["token"] for s in created.json()["seats"]]
    live = server.app.state.service.get(gid)
    before = live.options
    r = api.post(f"/api/games/{gid}/resign", headers={"X-Seat-Token": tokens[0]})
    assert r.status_code == 200, r.text
    assert live.over and live.options.ended == {"reason": "resignation", "winners": [1]}
    assert live.options.resigned == [0] and live.seats[0].resigned is True and live.options.clock.running is None
    assert before.ended is None and before.resigned == []
    stored = server.app.state.store.game(gid)
    assert stored["status"] == "finished" and stored["options"]["ended"] == {"reason": "resignation", "winners": [1]}
    assert stored["options"] == live.options.to_json() and stored["seats"][0]["resigned"] is True
    assert r.json()["result"]["winners"] == [1] and r.json()["result"]["resigned"] == [0]
