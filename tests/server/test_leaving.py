"""Leaving a game: resign (a real loss), hand the seat over to a bot (and take it back), abort (no
result). Issue: the only way out was "Hand over to a bot", which played the game out, and the seat
could never be taken back."""

from __future__ import annotations

import time

from tests.server.test_api import act, new_game, state
from tests.server.test_clocks import first_move, view


def resign(api, gid, token, bot=None):
    return api.post(f"/api/games/{gid}/resign", json={"bot": bot} if bot else None, headers={"X-Seat-Token": token})


def end_turn(api, gid, token):
    """The seat of ``token`` plays to the end of its turn (the end as soon as it may)."""
    view_ = state(api, gid, token)
    seat = view_["seat"]
    while view_["to_move"] == seat:
        r = act(api, gid, token, "end" if "end" in view_["legal"] else view_["legal"][0])
        assert r.status_code == 200, r.text
        view_ = r.json()


def test_resigning_a_game_of_two_ends_it_and_the_other_player_wins(api):
    gid, tokens = new_game(api, "middle-ages")
    act(api, gid, tokens[0], "coins 1")
    r = resign(api, gid, tokens[1])
    assert r.status_code == 200, r.text
    summary = r.json()
    assert summary["status"] == "finished" and summary["to_move"] is None
    assert summary["result"]["winners"] == [0] and summary["result"]["resigned"] == [1]
    assert summary["seats"][1]["resigned"] is True
    # the record of the game and its replays are there, with the result
    record = api.get(f"/api/games/{gid}/record").json()
    assert record["result"]["winners"] == [0] and record["result"]["resigned"] == [1]
    assert [p["seat"] for p in record["result"]["players"]] == [0, 1]
    assert api.get(f"/api/games/{gid}/replay/1").status_code == 200
    # nobody can act any more
    assert act(api, gid, tokens[0], "coins 1").status_code == 409
    assert [g["id"] for g in api.get("/api/games", params={"status": "finished"}).json()].count(gid) == 1


def test_a_resigned_player_never_wins_even_ahead_on_points():
    """A game of three played to its end: seat 0 (resigned, its bot played on) and seat 2 share the
    most points; seat 0 is no winner, seat 2 wins alone; with 0 and 2 resigned, seat 1 wins."""
    from builders.core.state import Result
    from builders.server.games import final_result
    from builders.server.records import Options

    class Ended:  # a finished game's state: only its result is read
        @staticmethod
        def is_over():
            return True

        @staticmethod
        def result():
            return Result(scores=(9, 3, 9), breakdown=({"points": 9}, {"points": 3}, {"points": 9}), winners=(0, 2))

    got = final_result(None, Ended, Options(resigned=[0]))
    assert got["winners"] == [2] and got["resigned"] == [0]
    got = final_result(None, Ended, Options(resigned=[0, 2]))
    assert got["winners"] == [1] and got["resigned"] == [0, 2]
    assert final_result(None, Ended, Options())["winners"] == [0, 2]
    assert "resigned" not in final_result(None, Ended, Options())


def test_in_a_game_of_three_the_others_play_on_and_the_creators_bot_plays_the_resigned_seat(api):
    r = api.post(
        "/api/games",
        json={
            "game": "middle-ages",
            "resign_bot": "medium",
            "seats": [{"type": "human"}, {"type": "human"}, {"type": "human"}],
        },
    )
    assert r.status_code == 201, r.text
    gid, tokens = r.json()["id"], {s["seat"]: s["token"] for s in r.json()["seats"]}
    summary = resign(api, gid, tokens[2]).json()
    assert summary["status"] == "running"
    assert {k: summary["seats"][2][k] for k in ("type", "level", "resigned")} == {
        "type": "bot",
        "level": "medium",
        "resigned": True,
    }
    # a resigned seat cannot be taken back
    refused = api.post(f"/api/games/{gid}/take-back", headers={"X-Seat-Token": tokens[2]})
    assert (refused.status_code, refused.json()["detail"]) == (
        409,
        "seat 2 was not handed over to a bot: there is nothing to take back",
    )
    # a second resignation leaves one player: the game ends and that player wins
    summary = resign(api, gid, tokens[0]).json()
    assert summary["status"] == "finished" and summary["result"]["winners"] == [1]
    assert summary["result"]["resigned"] == [2, 0]


def test_a_seat_handed_over_is_taken_back_in_an_unrated_game(api):
    gid, tokens = new_game(api, "middle-ages")
    r = resign(api, gid, tokens[1], bot="easy")
    assert r.json()["seats"][1]["type"] == "bot" and r.json()["seats"][1]["resigned"] is False
    end_turn(api, gid, tokens[0])
    deadline = time.monotonic() + 10  # the bot plays seat 1's turn
    while state(api, gid, tokens[0])["to_move"] != 0:
        assert time.monotonic() < deadline
        time.sleep(0.02)
    back = api.post(f"/api/games/{gid}/take-back", headers={"X-Seat-Token": tokens[1]})
    assert back.status_code == 200, back.text
    assert back.json()["seats"][1]["type"] == "human" and back.json()["seats"][1]["level"] is None
    end_turn(api, gid, tokens[0])
    view_1 = state(api, gid, tokens[1])
    assert view_1["to_move"] == 1 and view_1["legal"]  # the person plays seat 1 again
    assert act(api, gid, tokens[1], view_1["legal"][0]).status_code == 200
    # only the seat's own player, and only a seat that was handed over
    assert api.post(f"/api/games/{gid}/take-back", headers={"X-Seat-Token": "nope"}).status_code == 401
    again = api.post(f"/api/games/{gid}/take-back", headers={"X-Seat-Token": tokens[1]})
    assert (again.status_code, again.json()["detail"]) == (
        409,
        "seat 1 was not handed over to a bot: there is nothing to take back",
    )


def test_abort_before_every_player_has_moved_and_not_after(api):
    gid, tokens = new_game(api, "middle-ages")
    act(api, gid, tokens[0], "coins 1")  # one player has moved, the other not yet: abort is possible
    assert api.post(f"/api/games/{gid}/abort", headers={}).status_code == 401
    r = api.post(f"/api/games/{gid}/abort", headers={"X-Seat-Token": tokens[1]})
    assert r.status_code == 204, r.text
    # no result, no game: gone from every list, its pages answer 404
    assert api.get(f"/api/games/{gid}").status_code == 404
    assert gid not in [g["id"] for g in api.get("/api/games").json()]
    assert api.get(f"/api/games/{gid}/record").status_code == 404

    gid, tokens = new_game(api, "middle-ages")
    end_turn(api, gid, tokens[0])
    assert act(api, gid, tokens[1], "coins 1").status_code == 200  # every person has moved
    r = api.post(f"/api/games/{gid}/abort", headers={"X-Seat-Token": tokens[0]})
    assert (r.status_code, r.json()["detail"]) == (
        409,
        "every player has moved: the game can no longer be aborted (resign instead)",
    )
    assert api.get(f"/api/games/{gid}").json()["status"] == "running"


def test_a_resignation_stops_the_clock(api):
    r = api.post(
        "/api/games",
        json={
            "game": "kingdom",
            "seats": [{"type": "human"}, {"type": "human"}],
            "clock": {"kind": "live", "total": 300, "increment": 0},
        },
    )
    gid, tokens = r.json()["id"], {s["seat"]: s["token"] for s in r.json()["seats"]}
    first_move(api, gid, tokens[0])
    assert view(api, gid)["clock"]["running"] == 0
    resign(api, gid, tokens[0])
    clock = view(api, gid)["clock"]
    assert clock["running"] is None and 299.0 < clock["left"][0] <= 300.0


def test_every_player_is_told_of_timeouts_resignations_and_seats_handed_over(api):
    """The view's events: what happened to a seat besides its moves, after which move, with the bot
    that plays it now (the web client shows them in the log and as a notice)."""
    r = api.post(
        "/api/games", json={"game": "middle-ages", "seats": [{"type": "human"}, {"type": "human"}, {"type": "human"}]}
    )
    gid, tokens = r.json()["id"], {s["seat"]: s["token"] for s in r.json()["seats"]}
    act(api, gid, tokens[0], "coins 1")
    resign(api, gid, tokens[1], bot="hard")
    api.post(f"/api/games/{gid}/take-back", headers={"X-Seat-Token": tokens[1]})
    resign(api, gid, tokens[2])
    events = state(api, gid, tokens[0])["events"]
    assert [(e["kind"], e["seat"], e["bot"], e["after"]) for e in events] == [
        ("handed_over", 1, "hard", 1),
        ("took_back", 1, None, 1),
        ("resigned", 2, "easy", 1),
    ]
    assert all(abs(e["at"] - time.time()) < 30 for e in events)


def test_the_deadline_of_the_player_to_move_is_in_the_summary(api):
    r = api.post(
        "/api/games",
        json={
            "game": "kingdom",
            "seats": [{"type": "human"}, {"type": "human"}],
            "clock": {"kind": "turn", "per_turn": 2 * 86400},
        },
    )
    gid, tokens = r.json()["id"], {s["seat"]: s["token"] for s in r.json()["seats"]}
    assert api.get(f"/api/games/{gid}").json()["deadline"] is None  # no move yet: no clock running
    first_move(api, gid, tokens[0])
    clock = view(api, gid)["clock"]
    summary = api.get(f"/api/games/{gid}").json()
    assert summary["deadline"] == clock["since"] + 2 * 86400
    listed = {g["id"]: g for g in api.get("/api/games", params={"status": "running"}).json()}
    assert listed[gid]["deadline"] == summary["deadline"]


def test_running_out_of_time_in_a_rated_game_of_two_loses_it(server, people):
    from tests.server.test_ratings import name

    ada_name, bo_name = name(), name()
    ada = people(ada_name)
    people(bo_name)  # the other player's account
    created = ada.post(
        "/api/games",
        json={
            "game": "kingdom",
            "rated": True,
            "clock": {"kind": "live", "total": 1, "increment": 0},
            "seats": [{"type": "human"}, {"type": "human", "user": bo_name}],
        },
    )
    assert created.status_code == 201, created.text
    gid = created.json()["id"]
    legal = ada.get(f"/api/games/{gid}/state").json()["legal"]
    assert ada.post(f"/api/games/{gid}/actions", json={"action": legal[0]}).status_code == 200
    deadline = time.monotonic() + 15
    while (summary := ada.get(f"/api/games/{gid}").json())["status"] != "finished":
        assert time.monotonic() < deadline, "the clock never ran out"
        time.sleep(0.1)
    assert summary["result"]["winners"] == [1] and summary["result"]["resigned"] == [0]
    events = ada.get(f"/api/games/{gid}/state").json()["events"]
    assert [(e["kind"], e["seat"]) for e in events] == [("timeout", 0)]
    changes = {c["seat"]: c["change"] for c in summary["rating_changes"]}
    assert changes[0] < 0 < changes[1]


def test_guests_are_marked_and_rated_games_show_account_names(server, people, api):
    """Issue: a guest looked like a registered player in the lobby, and a signed-in player could show
    as another name. Seats of people without a registered account are marked guests; in a rated game
    a player is shown by their account's name, whatever name the seat was given."""
    from tests.server.test_ratings import name

    guest = people()
    made = guest.post(
        "/api/games",
        json={"game": "kingdom", "seats": [{"type": "human", "name": "Mallory"}, {"type": "human", "open": True}]},
    ).json()
    seats = api.get(f"/api/games/{made['id']}").json()["seats"]
    assert (seats[0]["name"], seats[0]["guest"]) == ("Mallory", True)
    assert seats[1]["guest"] is False  # not taken yet: nobody to mark
    by_token = api.post("/api/games", json={"game": "kingdom", "seats": [{"type": "human"}, {"type": "bot"}]}).json()
    seats = api.get(f"/api/games/{by_token['id']}").json()["seats"]
    assert seats[0]["guest"] is True and seats[1]["guest"] is False

    ada_name, bo_name = name(), name()
    ada = people(ada_name)
    people(bo_name)  # the other player's account
    rated = ada.post(
        "/api/games",
        json={
            "game": "kingdom",
            "rated": True,
            "clock": {"kind": "live", "total": 600, "increment": 0},
            "seats": [{"type": "human", "name": "Someone Else"}, {"type": "human", "user": bo_name}],
        },
    ).json()
    seats = api.get(f"/api/games/{rated['id']}").json()["seats"]
    assert [(s["name"], s["guest"]) for s in seats] == [(ada_name, False), (bo_name, False)]
    listed = {g["id"]: g for g in api.get("/api/games").json()}
    assert [s["name"] for s in listed[rated["id"]]["seats"]] == [ada_name, bo_name]
