"""Seat colours chosen at creation: stored with the game's options, sent in the summary, the lists and
every view (seats, spectators, replays), kept by a rematch; a wrong list is refused with one sentence and
creates nothing."""

from __future__ import annotations

import pytest

from builders.server.chat import make_rematch
from builders.server.games import COLOURS
from tests.server.test_api import state, wait_finished


@pytest.fixture
def store(server):
    return server.app.state.store


def test_chosen_colours_are_stored_and_sent_everywhere(api, server, store):
    body = {
        "game": "kingdom",
        "seats": [{"type": "human"}, {"type": "human"}, {"type": "bot", "level": "easy"}],
        "colours": ["teal", "yellow", "purple"],
    }
    r = api.post("/api/games", json=body)
    assert r.status_code == 201, r.text
    gid = r.json()["id"]
    token = r.json()["seats"][0]["token"]
    assert api.get(f"/api/games/{gid}").json()["colours"] == ["teal", "yellow", "purple"]
    assert state(api, gid, token)["colours"] == ["teal", "yellow", "purple"]
    assert state(api, gid)["colours"] == ["teal", "yellow", "purple"]  # a spectator's view too
    assert next(g for g in api.get("/api/games").json() if g["id"] == gid)["colours"] == ["teal", "yellow", "purple"]
    # stored in the game's options (the JSON column): read back from the store
    assert store.game(gid)["options"]["colours"] == ["teal", "yellow", "purple"]


def test_no_colours_means_the_defaults(api):
    r = api.post("/api/games", json={"game": "middle-ages", "seats": [{"type": "human"}, {"type": "human"}]})
    gid = r.json()["id"]
    assert api.get(f"/api/games/{gid}").json()["colours"] is None
    assert state(api, gid)["colours"] is None
    assert COLOURS[:4] == ("red", "blue", "white", "black")  # the default seat colours, in seat order


def test_replays_and_rematches_keep_the_colours(api, server):
    colours = ["black", "pink", "white"]
    r = api.post(
        "/api/games", json={"game": "kingdom", "seats": [{"type": "bot", "level": "easy"}] * 3, "colours": colours}
    )
    gid = r.json()["id"]
    wait_finished(api, gid)
    assert api.get(f"/api/games/{gid}/replay/0").json()["colours"] == colours
    service = server.app.state.service
    created = make_rematch(service, service.get(gid), creator=None)
    assert api.get(f"/api/games/{created['id']}").json()["colours"] == colours


@pytest.mark.parametrize(
    "colours, sentence",
    [
        (["red", "red"], "seats 0 and 1 are both red: give each seat its own colour"),
        (["blue", "white", "blue"], "seats 0 and 2 are both blue: give each seat its own colour"),
        (
            ["red", "gold"],
            "seat 1 has an unknown colour 'gold': choose one of red, blue, white, black, yellow, purple, pink, teal",
        ),
        (["red"], "give one colour per seat: 2 colours, not 1"),
    ],
)
def test_wrong_colours_are_refused_and_create_nothing(api, store, colours, sentence):
    seats = [{"type": "human"}] * (3 if len(colours) == 3 else 2)
    before = store.counts()
    r = api.post("/api/games", json={"game": "kingdom", "seats": seats, "colours": colours})
    assert r.status_code == 400, r.text
    assert r.json()["detail"] == sentence
    assert store.counts() == before
