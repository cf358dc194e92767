"""A finished game's record and replay say what happened to the seats besides their moves (a seat
handed over to a bot, taken back, a resignation), each with the number of actions it followed: the
record all of them, the replay after n actions those of its first n actions. A private game's are
seen by its players only. Issue: the replay page showed no such event."""

from __future__ import annotations

import time

import pytest

from tests.server.test_api import act, state, wait_finished


def create(api, private: bool = False) -> tuple[str, list[str]]:
    made = api.post(
        "/api/games",
        json={
            "game": "kingdom",
            "private": private,
            "seats": [{"type": "human", "name": "Ann"}, {"type": "human", "name": "Ben"}],
        },
    )
    assert made.status_code == 201, made.text
    return made.json()["id"], [s["token"] for s in made.json()["seats"]]


def play_turn(api, gid: str, token: str, seat: int) -> None:
    """``seat`` plays its whole turn: its builds (the first legal one each time), then the end."""
    view = state(api, gid, token)
    assert view["to_move"] == seat, view["to_move"]
    while view["to_move"] == seat:
        legal = view["legal"]
        reply = act(api, gid, token, "end" if "end" in legal else legal[0], view["version"])
        assert reply.status_code == 200, reply.text
        view = reply.json()


def wait_turn(api, gid: str, token: str, seat: int, timeout: float = 20.0) -> dict:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        view = state(api, gid, token)
        if view["to_move"] == seat:
            return view
        time.sleep(0.05)
    pytest.fail(f"seat {seat}'s turn did not come")


def leave(api, gid: str, token: str, path: str, body: dict | None = None) -> None:
    reply = api.post(f"/api/games/{gid}/{path}", json=body, headers={"X-Seat-Token": token})
    assert reply.status_code == 200, reply.text


def hand_over_and_back(api, private: bool = False) -> tuple[str, list[str], list[int]]:
    """Ann plays a turn, Ben one; Ann hands her seat to a medium bot, which plays her turn; she takes
    it back on Ben's turn, and plays her next turn; Ben resigns. The game's id, tokens and the
    number of actions each event followed."""
    gid, tokens = create(api, private)
    play_turn(api, gid, tokens[0], 0)
    play_turn(api, gid, tokens[1], 1)
    handed = state(api, gid, tokens[0])["actions"]
    leave(api, gid, tokens[0], "resign", {"bot": "medium"})
    took = wait_turn(api, gid, tokens[0], 1)["actions"]
    leave(api, gid, tokens[0], "take-back")
    play_turn(api, gid, tokens[1], 1)
    play_turn(api, gid, tokens[0], 0)
    resigned = state(api, gid, tokens[0])["actions"]
    leave(api, gid, tokens[1], "resign")
    final = state(api, gid, tokens[0])
    assert final["status"] == "finished" and final["result"]["winners"] == [0]
    return gid, tokens, [handed, took, resigned]


def test_the_replay_says_when_seats_changed_hands(api):
    gid, _, (handed, took, resigned) = hand_over_and_back(api)
    assert 0 < handed < took < resigned
    record = api.get(f"/api/games/{gid}/record")
    assert record.status_code == 200, record.text
    assert set(record.json()) == {"game", "format", "setup", "history", "result"}
    total = api.get(f"/api/games/{gid}/replay/0").json()["total"]
    assert total == resigned == len([a for a in record.json()["history"] if isinstance(a, str)])
    events = api.get(f"/api/games/{gid}/replay/{total}").json()["events"]
    assert [(e["kind"], e["seat"], e["bot"], e["after"]) for e in events] == [
        ("handed_over", 0, "medium", handed),
        ("took_back", 0, None, took),
        ("resigned", 1, None, resigned),
    ]
    assert all(isinstance(e["at"], float) for e in events)
    assert events == state(api, gid)["events"]  # as the table said them
    # each position has the events of its actions: none before the hand-over, one from it on, ...
    for n, count in ((0, 0), (handed - 1, 0), (handed, 1), (took - 1, 1), (took, 2), (total - 1, 2)):
        replay = api.get(f"/api/games/{gid}/replay/{n}")
        assert replay.status_code == 200, replay.text
        assert replay.json()["events"] == events[:count], n
    # the moves of Ann's seat between the hand-over and the take-back were the bot's (seat 0's all)
    log = api.get(f"/api/games/{gid}/replay/{total}").json()["log"]
    assert {e["seat"] for e in log if handed < e["n"] <= took} == {0}
    assert log[handed]["seat"] == 0 and log[took]["seat"] == 1  # the bot's first move; Ben's after the take-back


def test_a_private_games_events_are_seen_by_its_players_only(api):
    gid, tokens, (_, _, resigned) = hand_over_and_back(api, private=True)
    for n in (0, 5, resigned):
        stranger = api.get(f"/api/games/{gid}/replay/{n}")
        assert stranger.status_code == 404, stranger.text
        assert stranger.json()["detail"] == f"there is no game '{gid}'"
    for token in tokens:
        last = api.get(f"/api/games/{gid}/replay/{resigned}", headers={"X-Seat-Token": token})
        assert last.status_code == 200, last.text
        assert [e["kind"] for e in last.json()["events"]] == ["handed_over", "took_back", "resigned"]


def test_a_game_of_bots_has_no_events(api):
    made = api.post("/api/games", json={"game": "kingdom", "seats": [{"type": "bot", "level": "easy"}] * 2})
    assert made.status_code == 201, made.text
    gid = made.json()["id"]
    wait_finished(api, gid)
    total = api.get(f"/api/games/{gid}/replay/0").json()["total"]
    assert total > 0 and api.get(f"/api/games/{gid}/replay/{total}").json()["events"] == []
