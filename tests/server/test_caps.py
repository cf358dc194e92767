"""Caps on one person's games: games waiting for players and games going on, counted by account and by
address each (429 with one sentence, nothing created), and a lobby that one creator cannot fill."""

from __future__ import annotations

import httpx
import pytest

from builders.server.guard import Limits
from tests.server.conftest import make_app
from tests.server.helpers import ThreadServer
from tests.server.test_accounts import Person, fresh_name

WAITING, GOING_ON, LOBBY = 4, 6, 2


@pytest.fixture(scope="module")
def capped(tmp_path_factory):
    limits = Limits(
        rates={kind: (100_000, 60.0) for kind in Limits().rates},
        bots_only_per_creator=100,
        bots_only_games=100,
        games_waiting_per_creator=WAITING,
        games_per_creator=GOING_ON,
        lobby_per_creator=LOBBY,
    )
    with ThreadServer(make_app(tmp_path_factory.mktemp("caps"), limits=limits)) as srv:
        yield srv


class From(Person):
    """A browser at the client address ``address`` (told by the proxy header the server trusts from
    127.0.0.1)."""

    def __init__(self, url: str, address: str):
        super().__init__(url)
        self.http.headers["X-Forwarded-For"] = address


WAITS = {"game": "kingdom", "seats": [{"type": "human"}, {"type": "human", "invite": True}]}
PLAYS = {"game": "kingdom", "seats": [{"type": "human"}, {"type": "bot", "level": "easy"}]}


def waiting_refusal(n: int) -> str:
    return (
        f"you have {n} games waiting for players, as many as one person may have at once: create another "
        f"when one of them has started (its seats all taken)"
    )


def going_on_refusal(n: int) -> str:
    return f"you have {n} games going on, as many as one person may have at once: create another when one of them has ended"


def refused_exactly(server, r: httpx.Response, detail: str) -> None:
    assert (r.status_code, r.json()["detail"]) == (429, detail), r.text


def test_games_waiting_for_players_are_capped_per_account(capped):
    ada = From(capped.url, "10.1.0.1")
    ada.sign_up(fresh_name("Ada"))
    for _ in range(WAITING):
        assert ada.post("/api/games", json=WAITS).status_code == 201
    before = capped.app.state.store.counts()
    refused_exactly(capped, ada.post("/api/games", json=WAITS), waiting_refusal(WAITING))
    ada.http.headers["X-Forwarded-For"] = "10.1.0.2"  # another address: the account still counts
    refused_exactly(capped, ada.post("/api/games", json=WAITS), waiting_refusal(WAITING))
    assert capped.app.state.store.counts() == before
    # a game that waits for nobody is still allowed (it counts among the games going on)
    assert ada.post("/api/games", json=PLAYS).status_code == 201


def test_games_are_capped_per_address_whatever_the_accounts(capped):
    first, second = From(capped.url, "10.2.0.1"), From(capped.url, "10.2.0.1")
    first.guest()
    second.guest()
    for _ in range(WAITING):
        assert first.post("/api/games", json=WAITS).status_code == 201
    before = capped.app.state.store.counts()
    refused_exactly(capped, second.post("/api/games", json=WAITS), waiting_refusal(WAITING))  # a fresh guest
    assert capped.app.state.store.counts() == before
    elsewhere = From(capped.url, "10.2.0.2")
    elsewhere.guest()
    assert elsewhere.post("/api/games", json=WAITS).status_code == 201


def test_games_going_on_are_capped_and_free_again_when_one_ends(capped):
    program = httpx.Client(base_url=capped.url, timeout=20, headers={"X-Forwarded-For": "10.3.0.1"})
    made = [program.post("/api/games", json=PLAYS).json() for _ in range(GOING_ON)]
    assert all("id" in m for m in made)
    before = capped.app.state.store.counts()
    refused_exactly(capped, program.post("/api/games", json=PLAYS), going_on_refusal(GOING_ON))
    refused_exactly(capped, program.post("/api/games", json=WAITS), going_on_refusal(GOING_ON))
    assert capped.app.state.store.counts() == before
    # one of them ends (its player hands it to a bot, which plays it out): a new game is allowed
    first = made[0]
    r = program.post(
        f"/api/games/{first['id']}/resign", json={"bot": "easy"}, headers={"X-Seat-Token": first["seats"][0]["token"]}
    )
    assert r.status_code == 200
    from tests.server.test_private import finish

    finish(capped, first["id"])
    assert program.post("/api/games", json=PLAYS).status_code == 201
    refused_exactly(capped, program.post("/api/games", json=PLAYS), going_on_refusal(GOING_ON))


def test_one_creator_cannot_fill_the_lobby(capped, monkeypatch):
    from builders.server import games

    other = From(capped.url, "10.4.0.1")
    other.guest()
    theirs = other.post(
        "/api/games", json={"game": "kingdom", "seats": [{"type": "human"}, {"type": "human", "open": True}]}
    )
    spammer = From(capped.url, "10.4.0.2")
    spammer.guest()
    spam = [
        spammer.post(
            "/api/games", json={"game": "middle-ages", "seats": [{"type": "human"}, {"type": "human", "open": True}]}
        ).json()["id"]
        for _ in range(WAITING)
    ]
    refused_exactly(capped, spammer.post("/api/games", json=WAITS), waiting_refusal(WAITING))
    monkeypatch.setattr(games, "LIST_LIMIT", LOBBY + 1)  # a first page just longer than one creator's share
    page = [g["id"] for g in other.get("/api/games", params={"status": "open"}).json()]
    assert page == [spam[-1], spam[-2], theirs.json()["id"]]  # newest first; the spammer's two newest only
    everything = [g["id"] for g in other.get("/api/games").json()]
    assert theirs.json()["id"] in everything and len(set(everything) & set(spam)) == LOBBY
