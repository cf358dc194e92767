"""Games of bots alone (a bot in every seat from the start): nobody plays in them and a bot thinks in
them until their end, so a player may have 2 going on at once (by account and by address: guest
accounts cost nothing), the server 20 (docs/deploy.md, *Limits against abuse*); and their bot turns
take one of the bots' workers at most, so that however many run, the bots of people's games answer.
Refusals are one sentence (429) and create nothing. Real servers on 127.x.x.x addresses."""

from __future__ import annotations

import threading
import time

import httpx

from builders.core.agents import RandomAgent
from builders.server.guard import Limits
from tests.server.conftest import make_app
from tests.server.helpers import ThreadServer

BOTS = [{"type": "bot", "level": "easy"}, {"type": "bot", "level": "easy"}]
MINE = (
    "you already have 2 games of bots alone going on, as many as one player may have at once: create "
    "another when one of them has ended"
)


ONE = (
    "you already have 1 game of bots alone going on, as many as one player may have at once: create another "
    "when it has ended"
)


def limits(per_player: int, games: int) -> Limits:
    rates = {kind: (100_000, 60.0) for kind in Limits().rates}
    return Limits(rates=rates, bots_only_per_creator=per_player, bots_only_games=games)


def client(url: str, address: str) -> httpx.Client:
    """A client whose connections come from ``address`` (any 127.x.x.x reaches the server)."""
    return httpx.Client(base_url=url, timeout=20, transport=httpx.HTTPTransport(local_address=address))


def test_games_of_bots_alone_are_capped_per_player_by_address_and_account_and_on_the_server(tmp_path):
    # the bots wait a minute before each move: the games stay going on for the whole test
    app = make_app(tmp_path, limits=limits(2, 5), bot_delay=60)
    with ThreadServer(app) as srv, client(srv.url, "127.0.0.1") as a, client(srv.url, "127.0.0.2") as b:
        store = app.state.store
        for _ in range(2):
            assert a.post("/api/games", json={"game": "kingdom", "seats": BOTS}).status_code == 201
        before = store.counts()
        r = a.post("/api/games", json={"game": "middle-ages", "seats": BOTS})
        assert (r.status_code, r.json()["detail"]) == (429, MINE)
        assert store.counts() == before
        # a game with a person in it is not one of them
        people = a.post("/api/games", json={"game": "kingdom", "seats": [{"type": "human"}, BOTS[0]]})
        assert people.status_code == 201
        # an account counts its games from any address
        signed = a.post("/api/accounts", json={"username": "ada", "password": "correct horse"})
        assert signed.status_code == 201
        cookie, csrf = a.cookies, {"X-CSRF-Token": signed.json()["csrf"]}
        made = []
        for address in ("127.0.0.3", "127.0.0.4", "127.0.0.5"):
            with client(srv.url, address) as ada:
                ada.cookies = cookie
                made.append(ada.post("/api/games", json={"game": "kingdom", "seats": BOTS}, headers=csrf))
        assert [r.status_code for r in made[:2]] == [201, 201]
        assert (made[2].status_code, made[2].json()["detail"]) == (429, MINE)
        # (the first two of 127.0.0.1 and ada's two: a fifth game is the server's last)
        assert b.post("/api/games", json={"game": "kingdom", "seats": BOTS}).status_code == 201
        before = store.counts()
        r = b.post("/api/games", json={"game": "kingdom", "seats": BOTS})
        assert (r.status_code, r.json()["detail"]) == (
            429,
            "the server already runs 5 games of bots alone, as "
            "many as it takes at once: create yours when one of "
            "them has ended",
        )
        assert store.counts() == before
        summaries = [g for g in a.get("/api/games").json() if g["status"] == "running"]
        assert len(summaries) == 6  # five of bots alone, one with a person


def test_a_game_of_bots_alone_that_has_ended_no_longer_counts(tmp_path):
    app = make_app(tmp_path, limits=limits(1, 10), bot_delay=0.01)  # random bots, a few seconds a game
    with ThreadServer(app) as srv, client(srv.url, "127.0.0.1") as a:
        first = a.post("/api/games", json={"game": "kingdom", "seats": BOTS})
        assert first.status_code == 201
        r = a.post("/api/games", json={"game": "kingdom", "seats": BOTS})
        assert (r.status_code, r.json()["detail"]) == (429, ONE)
        deadline = time.monotonic() + 60
        while a.get(f"/api/games/{first.json()['id']}").json()["status"] != "finished":
            assert time.monotonic() < deadline, "the bots did not finish"
            time.sleep(0.1)
        assert a.post("/api/games", json={"game": "kingdom", "seats": BOTS}).status_code == 201


def test_the_games_of_bots_alone_an_account_created_are_among_its_games_while_they_go_on(tmp_path):
    app = make_app(tmp_path, limits=limits(2, 10), bot_delay=0.01)
    with ThreadServer(app) as srv, client(srv.url, "127.0.0.1") as a:
        csrf = {
            "X-CSRF-Token": a.post("/api/accounts", json={"username": "ada", "password": "correct horse"}).json()[
                "csrf"
            ]
        }
        played = a.post("/api/games", json={"game": "kingdom", "seats": [{"type": "human"}, BOTS[0]]}, headers=csrf)
        watched = a.post("/api/games", json={"game": "kingdom", "seats": BOTS}, headers=csrf)
        assert played.status_code == watched.status_code == 201
        mine = a.get("/api/account/games").json()
        assert [(g["id"], g["my_seats"], g["waiting"]) for g in mine] == [
            (watched.json()["id"], [], False),
            (played.json()["id"], [0], True),
        ]
        deadline = time.monotonic() + 60
        while a.get(f"/api/games/{watched.json()['id']}").json()["status"] != "finished":
            assert time.monotonic() < deadline, "the bots did not finish"
            time.sleep(0.1)
        assert [g["id"] for g in a.get("/api/account/games").json()] == [played.json()["id"]]


def test_a_game_the_last_person_left_counts_as_one_of_bots_alone(tmp_path):
    """A person who leaves a game against bots leaves a game of bots alone: it counts for the caps
    (by the creator's account and by the address of who left) and is listed once among the account's
    games, to watch; a game another person still plays in does not count."""
    app = make_app(tmp_path, limits=limits(1, 10), bot_delay=60)
    with (
        ThreadServer(app) as srv,
        client(srv.url, "127.0.0.1") as a,
        client(srv.url, "127.0.0.2") as b,
        client(srv.url, "127.0.0.3") as c,
    ):
        store = app.state.store
        csrf = {
            "X-CSRF-Token": a.post("/api/accounts", json={"username": "ada", "password": "correct horse"}).json()[
                "csrf"
            ]
        }
        solo = a.post("/api/games", json={"game": "kingdom", "seats": [{"type": "human"}, BOTS[0]]}, headers=csrf)
        assert solo.status_code == 201
        gid = solo.json()["id"]
        # a game of two people and a bot: one of them leaves, the other plays on
        two = b.post(
            "/api/games", json={"game": "kingdom", "seats": [{"type": "human"}, {"type": "human"}, BOTS[0]]}
        ).json()
        r = b.post(
            f"/api/games/{two['id']}/resign", json={"bot": None}, headers={"X-Seat-Token": two["seats"][0]["token"]}
        )
        assert r.status_code == 200
        assert store.bots_only_games() == []
        r = a.post(f"/api/games/{gid}/resign?seat=0", json={"bot": "easy"}, headers=csrf)
        assert r.status_code == 200, r.text
        assert [o.creator for o in store.bots_only_games()] == [1]
        before = store.counts()
        # ada's account from another address, and anyone from the address she left from
        with client(srv.url, "127.0.0.4") as ada:
            ada.cookies = a.cookies
            r = ada.post("/api/games", json={"game": "kingdom", "seats": BOTS}, headers=csrf)
            assert (r.status_code, r.json()["detail"]) == (429, ONE)
        with client(srv.url, "127.0.0.1") as guest:
            r = guest.post("/api/games", json={"game": "middle-ages", "seats": BOTS})
            assert (r.status_code, r.json()["detail"]) == (429, ONE)
        assert store.counts() == before
        assert c.post("/api/games", json={"game": "kingdom", "seats": BOTS}).status_code == 201
        mine = a.get("/api/account/games").json()
        assert [(g["id"], g["my_seats"], g["waiting"]) for g in mine] == [(gid, [0], False)]
        # a person can still play against bots
        assert (
            a.post(
                "/api/games", json={"game": "kingdom", "seats": [{"type": "human"}, BOTS[0]]}, headers=csrf
            ).status_code
            == 201
        )


# -- the bots of games without a person take one worker at most ----------------------------------
_lock = threading.Lock()
_busy = {"easy": 0, "medium": 0}
_most = {"easy": 0, "medium": 0, "both": 0}
_moves = {"easy": 0, "medium": 0}


class _Slow:
    """A random player that thinks 0.1 s, counting how many of its level think at once."""

    def __init__(self, level: str, seed: int):
        self.level, self.inner = level, RandomAgent(seed)

    def act(self, state):
        with _lock:
            _busy[self.level] += 1
            _most[self.level] = max(_most[self.level], _busy[self.level])
            _most["both"] = max(_most["both"], _busy["easy"] + _busy["medium"])
        time.sleep(0.1)
        with _lock:
            _busy[self.level] -= 1
            _moves[self.level] += 1
        return self.inner.act(state)


def slow_by_level(game: str, level: str, seed: int) -> _Slow:
    return _Slow(level, seed)


def test_bot_turns_of_games_without_a_person_take_one_worker_and_leave_the_rest_to_people(tmp_path):
    """Four games of bots alone (easy) and one of a person against a bot (medium) on three workers:
    the bots alone think one at a time, the person's bot beside them, and it answers every turn."""
    app = make_app(tmp_path, limits=limits(10, 10), bot_mode="thread", bot_workers=3, bot_factory=slow_by_level)
    with ThreadServer(app) as srv, client(srv.url, "127.0.0.1") as a:
        for _ in range(4):
            assert a.post("/api/games", json={"game": "middle-ages", "seats": BOTS}).status_code == 201
        made = a.post(
            "/api/games", json={"game": "middle-ages", "seats": [{"type": "human"}, {"type": "bot", "level": "medium"}]}
        ).json()
        gid, token = made["id"], {"X-Seat-Token": made["seats"][0]["token"]}
        for turn in range(4):
            for action in ("coins 1", "coins 1", "coins 1", "end"):
                r = a.post(f"/api/games/{gid}/actions", json={"action": action}, headers=token)
                assert r.status_code == 200, r.text
            deadline = time.monotonic() + 30
            while a.get(f"/api/games/{gid}").json()["to_move"] != 0:
                assert time.monotonic() < deadline, "the person's bot did not answer"
                time.sleep(0.02)
        assert _moves["medium"] >= 4 and _moves["easy"] >= 8
        assert _most["easy"] == 1  # never two bots of games without a person at once
        assert _most["medium"] == 1 and _most["both"] == 2  # the person's bot thought beside them


def test_the_settings_set_the_limits(monkeypatch):
    """BUILDERS_BOT_GAMES_PER_PLAYER, BUILDERS_BOT_GAMES and BUILDERS_BOT_GAMES_AT_ONCE are the limits of
    `builders serve` (a value out of range: tests/server/test_settings.py)."""
    from builders.server.run import limits_from_env

    for name, value in (
        ("BUILDERS_BOT_GAMES_PER_PLAYER", "3"),
        ("BUILDERS_BOT_GAMES", "7"),
        ("BUILDERS_BOT_GAMES_AT_ONCE", "2"),
    ):
        monkeypatch.setenv(name, value)
    got = limits_from_env()
    assert (got.bots_only_per_creator, got.bots_only_games, got.bots_only_turns_at_once) == (3, 7, 2)
    assert (Limits().bots_only_per_creator, Limits().bots_only_games, Limits().bots_only_turns_at_once) == (2, 20, 1)
