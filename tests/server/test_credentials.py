"""Credentials that end: signing out, a password change, revoking a personal API token and deleting
the account close every game socket opened with the credential, on the process that ended it at once
and on every other process of the database within a second (code 4401, with the reason); the closed
socket's client cannot act any more. A password change ends the account's other sessions and its API
tokens; an API token cannot make tokens. Two real `builders serve` processes on one database (a SQLite
file, and PostgreSQL)."""

from __future__ import annotations

import itertools
import json
import os
import time

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from tests.server.helpers import ProcessServer

_names = itertools.count(1)
PASSWORD = "correct horse"
HUMANS = [{"type": "human"}, {"type": "human"}]  # both seats the creator's: not waiting for players


@pytest.fixture(scope="module")
def pair(tmp_path_factory):
    folder = tmp_path_factory.mktemp("credentials")
    url = f"sqlite:///{folder / 'games.sqlite3'}"
    with pytest.MonkeyPatch.context() as env:  # the address limits raised: every client is on 127.0.0.1
        env.setenv("BUILDERS_RATES", "login=10000/60,create=10000/60")
        a = ProcessServer(url, log_path=folder / "a.log").start()
        b = ProcessServer(url, log_path=folder / "b.log").start()
    try:
        yield a, b
    finally:
        a.stop()
        b.stop()


class Browser:
    """A browser on one server process: its own cookies; the CSRF token on changes."""

    def __init__(self, url: str):
        self.http = httpx.Client(base_url=url, timeout=30)
        self.csrf = None

    def send(self, method: str, path: str, json=None, csrf: bool = True) -> httpx.Response:
        headers = {"X-CSRF-Token": self.csrf} if csrf and self.csrf else {}
        r = self.http.request(method, path, json=json, headers=headers)
        if r.status_code < 300 and r.headers.get("content-type", "").startswith("application/json"):
            body = r.json()
            if isinstance(body, dict) and "csrf" in body:
                self.csrf = body["csrf"]
        return r

    def cookie(self) -> str:
        return f"builders_session={self.http.cookies['builders_session']}"


def sign_up(url: str) -> tuple[Browser, str]:
    name = f"cred{os.getpid() % 1000}x{next(_names)}"
    browser = Browser(url)
    assert browser.send("POST", "/api/accounts", {"username": name, "password": PASSWORD}).status_code == 201
    return browser, name


def sign_in(url: str, name: str, password: str = PASSWORD) -> Browser:
    browser = Browser(url)
    r = browser.send("POST", "/api/session", {"username": name, "password": password})
    assert r.status_code == 200, r.text
    return browser


def game_of(browser: Browser) -> str:
    r = browser.send("POST", "/api/games", {"game": "middle-ages", "seats": HUMANS})
    assert r.status_code == 201, r.text
    return r.json()["id"]


def socket(server: ProcessServer, gid: str, headers: dict[str, str]):
    """A game socket to ``server`` that said hello with the credential in ``headers``; its view."""
    ws = connect(f"{server.ws_url}/ws/games/{gid}", additional_headers=headers)
    ws.send(json.dumps({"type": "hello", "token": None}))
    state = json.loads(ws.recv(timeout=10))
    assert state["type"] == "state"
    return ws, state


def closed_within(ws, seconds: float) -> tuple[float, int, str]:
    """Waits for the server to close ``ws``: (seconds it took, close code, reason)."""
    started = time.monotonic()
    with pytest.raises(ConnectionClosed) as closed:
        while True:
            ws.recv(timeout=seconds)
    assert closed.value.rcvd is not None, "the socket was not closed by the server"
    return time.monotonic() - started, closed.value.rcvd.code, closed.value.rcvd.reason


def test_signing_out_on_one_process_closes_the_socket_on_the_other_within_a_second(pair):
    a, b = pair
    ada, _ = sign_up(a.url)
    gid = game_of(ada)
    cookie = {"Cookie": ada.cookie()}
    ws, state = socket(b, gid, cookie)
    assert state["seat"] == 0
    assert ada.send("DELETE", "/api/session").status_code == 204
    took, code, reason = closed_within(ws, 5)
    assert (code, reason) == (
        4401,
        ("your sign-in ended (signed out, password changed, token revoked or account deleted)"),
    )
    assert took < 1.0
    # the client cannot act any more: its cookie is a spectator's now, over the socket and over HTTP
    again, view = socket(b, gid, cookie)
    assert view["seat"] is None
    again.send(json.dumps({"type": "action", "action": view["legal"][0] if view.get("legal") else "coins 1"}))
    assert json.loads(again.recv(timeout=10)) == {
        "type": "error",
        "message": "a spectator cannot play: hello with a seat token first",
        "code": 403,
        "key": "a spectator cannot play: hello with a seat token first",
        "params": {},
    }
    again.close()
    r = httpx.post(
        f"{b.url}/api/games/{gid}/actions",
        json={"action": "coins 1"},
        headers={**cookie, "X-CSRF-Token": ada.csrf},
        timeout=10,
    )
    assert r.status_code == 401


def test_signing_out_closes_the_socket_on_the_same_process_at_once(pair):
    a, _ = pair
    ada, _ = sign_up(a.url)
    gid = game_of(ada)
    ws, _ = socket(a, gid, {"Cookie": ada.cookie()})
    assert ada.send("DELETE", "/api/session").status_code == 204
    took, code, reason = closed_within(ws, 5)
    assert (code, reason) == (4401, "you signed out")
    assert took < 0.3


def test_revoking_a_token_closes_its_sockets_everywhere_within_a_second(pair):
    a, b = pair
    ada, _ = sign_up(a.url)
    gid = game_of(ada)
    made = ada.send("POST", "/api/account/tokens", {"name": "my bot"}).json()
    bearer = {"Authorization": f"Bearer {made['token']}"}
    on_b, state = socket(b, gid, bearer)
    on_a, _ = socket(a, gid, bearer)
    assert state["seat"] == 0
    assert ada.send("DELETE", f"/api/account/tokens/{made['id']}").status_code == 204
    assert closed_within(on_a, 5)[1:] == (4401, "the personal API token was revoked")
    took, code, _ = closed_within(on_b, 5)
    assert code == 4401 and took < 1.0
    r = httpx.post(f"{b.url}/api/games/{gid}/actions", json={"action": "coins 1"}, headers=bearer, timeout=10)
    assert (r.status_code, r.json()["detail"]) == (401, "the personal API token is not valid")


def test_a_password_change_ends_the_other_sessions_and_the_tokens_with_their_sockets(pair):
    a, b = pair
    ada, name = sign_up(a.url)
    gid = game_of(ada)
    phone = sign_in(b.url, name)
    made = ada.send("POST", "/api/account/tokens", {"name": "my bot"}).json()
    bearer = {"Authorization": f"Bearer {made['token']}"}
    mine, _ = socket(b, gid, {"Cookie": ada.cookie()})  # the session that changes the password
    phones, _ = socket(b, gid, {"Cookie": phone.cookie()})
    programs, _ = socket(b, gid, bearer)
    r = ada.send("POST", "/api/account/password", {"old": PASSWORD, "new": "battery staple"})
    assert r.status_code == 204
    for ws in (phones, programs):
        took, code, _ = closed_within(ws, 5)
        assert code == 4401 and took < 1.0
    # the session that changed it goes on, its socket too
    mine.send(json.dumps({"type": "ping"}))
    assert json.loads(mine.recv(timeout=5)) == {"type": "pong"}
    mine.close()
    assert phone.send("GET", "/api/session").json()["account"] is None
    assert ada.send("GET", "/api/account/tokens").json() == []
    assert httpx.get(f"{a.url}/api/account/tokens", headers=bearer, timeout=10).status_code == 401
    assert ada.send("GET", "/api/session").json()["account"]["username"] == name


def test_deleting_the_account_closes_its_sockets_resigns_its_seats_and_frees_the_name(pair):
    a, b = pair
    ada, name = sign_up(a.url)
    gid = game_of(ada)
    ws, _ = socket(b, gid, {"Cookie": ada.cookie()})
    wrong = ada.send("DELETE", "/api/account", {"password": "not the password"})
    assert (wrong.status_code, wrong.json()["detail"]) == (403, "the password is wrong")
    no_csrf = ada.send("DELETE", "/api/account", {"password": PASSWORD}, csrf=False)
    assert no_csrf.status_code == 403 and "CSRF" in no_csrf.json()["detail"]
    made = ada.send("POST", "/api/account/tokens", {"name": "my bot"}).json()
    by_token = httpx.request(
        "DELETE",
        f"{a.url}/api/account",
        json={"password": PASSWORD},
        timeout=30,
        headers={"Authorization": f"Bearer {made['token']}"},
    )
    assert (by_token.status_code, by_token.json()["detail"]) == (
        403,
        "an account is deleted from a signed-in session, not with a personal API token",
    )
    assert ada.send("GET", "/api/session").json()["account"]["username"] == name  # nothing changed
    r = ada.send("DELETE", "/api/account", {"password": PASSWORD})
    assert r.status_code == 204
    took, code, _ = closed_within(ws, 5)
    assert code == 4401 and took < 1.0
    seat = httpx.get(f"{a.url}/api/games/{gid}", timeout=10).json()["seats"][0]
    assert (seat["resigned"], seat["name"]) == (True, "deleted player")  # resigned, as by POST resign
    assert ada.send("GET", "/api/session").json()["account"] is None
    refused = Browser(a.url).send("POST", "/api/session", {"username": name, "password": PASSWORD})
    assert (refused.status_code, refused.json()["detail"]) == (401, "wrong username or password")
    assert Browser(b.url).send("POST", "/api/accounts", {"username": name, "password": PASSWORD}).status_code == 201


def test_a_guest_cannot_delete_its_account_and_a_token_cannot_make_tokens(pair):
    a, _ = pair
    guest = Browser(a.url)
    assert guest.send("POST", "/api/session/guest").status_code == 200
    r = guest.send("DELETE", "/api/account", {"password": PASSWORD})
    assert (r.status_code, r.json()["detail"]) == (
        403,
        "a guest account has no password to confirm with: sign up first, or just sign out",
    )
    ada, _ = sign_up(a.url)
    made = ada.send("POST", "/api/account/tokens", {"name": "my bot"}).json()
    bearer = {"Authorization": f"Bearer {made['token']}"}
    r = httpx.post(f"{a.url}/api/account/tokens", json={"name": "another"}, headers=bearer, timeout=10)
    assert (r.status_code, r.json()["detail"]) == (403, "a personal API token cannot make tokens: sign in to make one")
    assert [t["name"] for t in ada.send("GET", "/api/account/tokens").json()] == ["my bot"]


def test_on_postgresql_too_a_socket_on_the_other_process_is_closed_within_a_second(pg_url, tmp_path):
    with pytest.MonkeyPatch.context() as env:
        env.setenv("BUILDERS_RATES", "login=10000/60,create=10000/60")
        a = ProcessServer(pg_url, log_path=tmp_path / "a.log").start()
        b = ProcessServer(pg_url, log_path=tmp_path / "b.log").start()
    try:
        ada, _ = sign_up(a.url)
        gid = game_of(ada)
        made = ada.send("POST", "/api/account/tokens", {"name": "my bot"}).json()
        by_cookie, _ = socket(b, gid, {"Cookie": ada.cookie()})
        by_token, _ = socket(b, gid, {"Authorization": f"Bearer {made['token']}"})
        assert ada.send("DELETE", f"/api/account/tokens/{made['id']}").status_code == 204
        took, code, _ = closed_within(by_token, 5)
        assert code == 4401 and took < 1.0
        by_cookie.send(json.dumps({"type": "ping"}))  # the session's socket is not the token's
        assert json.loads(by_cookie.recv(timeout=5)) == {"type": "pong"}
        assert ada.send("DELETE", "/api/session").status_code == 204
        took, code, _ = closed_within(by_cookie, 5)
        assert code == 4401 and took < 1.0
    finally:
        a.stop()
        b.stop()
