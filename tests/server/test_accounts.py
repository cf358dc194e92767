"""Accounts and the seats that belong to them: sign up, sign in and out, passwords, guests, CSRF, login
rate limits, personal API tokens; fair invitations (one-time claim codes, by username, open seats),
seeds only for tables of one person, private games. Every refusal is a 4xx with one sentence and
changes nothing."""

from __future__ import annotations

import itertools

import httpx
import pytest

from builders.server.guard import Limits
from tests.server.conftest import make_app
from tests.server.helpers import ThreadServer

_names = itertools.count(1)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    # the address limits of the guard are raised: every person of these tests is on 127.0.0.1
    rates = {kind: (10_000, 60.0) for kind in ("create", "join", "action", "login", "chat")}
    app = make_app(
        tmp_path_factory.mktemp("accounts"),
        limits=Limits(rates=rates),
        login_limits={"login_per_name": (3, 60.0), "login_per_address": (1000, 60.0)},
    )
    with ThreadServer(app) as srv:
        yield srv


class Person:
    """A browser: its own cookie jar; sends the session's CSRF token on changes."""

    def __init__(self, url: str):
        self.http = httpx.Client(base_url=url, timeout=20)
        self.csrf: str | None = None

    def close(self) -> None:
        self.http.close()

    def remember(self, r: httpx.Response) -> httpx.Response:
        if r.status_code < 400 and r.headers.get("content-type", "").startswith("application/json"):
            body = r.json()
            if isinstance(body, dict) and "csrf" in body:
                self.csrf = body["csrf"]
        return r

    def get(self, path: str, **kw) -> httpx.Response:
        return self.http.get(path, **kw)

    def post(self, path: str, json=None, csrf: bool = True, **kw) -> httpx.Response:
        headers = dict(kw.pop("headers", {}))
        if csrf and self.csrf:
            headers["X-CSRF-Token"] = self.csrf
        return self.remember(self.http.post(path, json=json, headers=headers, **kw))

    def delete(self, path: str, csrf: bool = True) -> httpx.Response:
        headers = {"X-CSRF-Token": self.csrf} if csrf and self.csrf else {}
        return self.http.delete(path, headers=headers)

    def sign_up(self, name: str, password: str = "correct horse") -> dict:
        r = self.post("/api/accounts", json={"username": name, "password": password})
        assert r.status_code == 201, r.text
        return r.json()

    def guest(self) -> dict:
        r = self.post("/api/session/guest")
        assert r.status_code == 200, r.text
        return r.json()


@pytest.fixture
def people(server):
    made: list[Person] = []

    def make() -> Person:
        p = Person(server.url)
        made.append(p)
        return p

    yield make
    for p in made:
        p.close()


def fresh_name(prefix: str = "user") -> str:
    return f"{prefix}{next(_names)}"


def refused(r: httpx.Response, status: int, words: str) -> None:
    assert r.status_code == status, (r.status_code, r.text)
    detail = r.json()["detail"]
    assert isinstance(detail, str) and words in detail, detail
    assert detail.count(". ") == 0  # one sentence


def counts(server) -> dict:
    return server.app.state.store.counts()


# -- accounts --------------------------------------------------------------------------------------------
def test_sign_up_in_out_and_change_password(server, people):
    ada = people()
    name = fresh_name("Ada")
    made = ada.sign_up(name)
    assert made["account"]["username"] == name and not made["account"]["guest"]
    cookie = ada.http.cookies.get("builders_session")
    assert cookie and cookie not in str(made)  # the cookie never reaches the page's script
    assert ada.get("/api/session").json()["account"]["username"] == name

    # a second browser signs in; the name is found whatever its case
    other = people()
    r = other.post("/api/session", json={"username": name.upper(), "password": "correct horse"})
    assert r.status_code == 200 and r.json()["account"]["username"] == name

    # change the password: the old one no longer works, the other browser is signed out
    r = ada.post("/api/account/password", json={"old": "correct horse", "new": "battery staple"})
    assert r.status_code == 204, r.text
    assert other.get("/api/session").json()["account"] is None
    third = people()
    refused(
        third.post("/api/session", json={"username": name, "password": "correct horse"}),
        401,
        "wrong username or password",
    )
    assert third.post("/api/session", json={"username": name, "password": "battery staple"}).status_code == 200

    # sign out: the session is gone on the server too
    assert ada.delete("/api/session").status_code == 204
    assert ada.get("/api/session").json() == {"account": None, "csrf": None}
    replay = httpx.get(server.url + "/api/session", cookies={"builders_session": cookie})
    assert replay.json()["account"] is None


def test_cookie_is_httponly_lax_and_secure_behind_https(server):
    r = httpx.post(server.url + "/api/session/guest")
    header = r.headers["set-cookie"].lower()
    assert "httponly" in header and "samesite=lax" in header and "secure" not in header
    r = httpx.post(server.url + "/api/session/guest", headers={"X-Forwarded-Proto": "https"})
    assert "; secure" in r.headers["set-cookie"].lower()


@pytest.mark.parametrize(
    "username, password, status, words",
    [
        ("ab", "long enough", 400, "3 to 20 letters"),
        ("has space", "long enough", 400, "3 to 20 letters"),
        ("x" * 21, "long enough", 400, "3 to 20 letters"),
        ("fine_name", "short", 400, "at least 8 characters"),
    ],
)
def test_bad_sign_ups_are_refused(server, people, username, password, status, words):
    before = counts(server)
    refused(people().post("/api/accounts", json={"username": username, "password": password}), status, words)
    assert counts(server) == before


def test_taken_names_differ_regardless_of_case(server, people):
    name = fresh_name("Bo")
    people().sign_up(name)
    refused(people().post("/api/accounts", json={"username": name.lower(), "password": "long enough"}), 409, "is taken")


def test_csrf_token_is_needed_for_cookie_changes(server, people):
    ada = people()
    ada.sign_up(fresh_name())
    before = counts(server)
    body = {"game": "kingdom", "seats": [{"type": "human"}, {"type": "bot"}]}
    refused(ada.post("/api/games", json=body, csrf=False), 403, "CSRF token")
    refused(ada.post("/api/games", json=body, headers={"X-CSRF-Token": "forged"}, csrf=False), 403, "CSRF token")
    refused(ada.delete("/api/session", csrf=False), 403, "CSRF token")
    assert counts(server) == before
    assert ada.post("/api/games", json=body).status_code == 201


def test_sign_in_attempts_are_rate_limited_per_name(server, people):
    name = fresh_name()
    people().sign_up(name, "right password")
    eve = people()
    for _ in range(3):
        refused(eve.post("/api/session", json={"username": name, "password": "wrong password"}), 401, "wrong")
    # even the right password is refused now, from any address: the name has had its attempts
    r = eve.post("/api/session", json={"username": name, "password": "right password"})
    refused(r, 429, "too many sign-in attempts")
    assert eve.get("/api/session").json()["account"] is None


def test_acting_without_a_session_is_refused(server, people, api):
    ada = people()
    ada.guest()
    gid = ada.post("/api/games", json={"game": "kingdom", "seats": [{"type": "human"}, {"type": "human"}]}).json()["id"]
    legal = ada.get(f"/api/games/{gid}/state").json()["legal"]
    before = counts(server)
    refused(api.post(f"/api/games/{gid}/actions", json={"action": legal[0]}), 401, "seat token")
    refused(api.post(f"/api/games/{gid}/undo"), 401, "seat token")
    refused(api.post("/api/account/password", json={"old": "a" * 8, "new": "b" * 8}), 401, "sign in")
    refused(api.post("/api/account/tokens", json={"name": "bot"}), 401, "sign in")
    assert counts(server) == before


def test_a_guest_signs_up_and_keeps_its_games(server, people):
    guest = people()
    info = guest.guest()
    assert info["account"]["guest"] and info["account"]["username"] is None
    created = guest.post("/api/games", json={"game": "middle-ages", "seats": [{"type": "human"}, {"type": "bot"}]})
    assert created.status_code == 201, created.text
    gid = created.json()["id"]
    assert [s["token"] for s in created.json()["seats"]] == [None, None]  # the account is the key
    # a reload (the same cookie) finds the game again
    mine = guest.get("/api/account/games").json()
    assert [g["id"] for g in mine] == [gid] and mine[0]["my_seats"] == [0]
    name = fresh_name("Guest")
    made = guest.sign_up(name)
    assert made["account"]["id"] == info["account"]["id"]
    assert [g["id"] for g in guest.get("/api/account/games").json()] == [gid]
    assert guest.get(f"/api/games/{gid}/state").json()["seat"] == 0


def test_personal_api_tokens_are_shown_once_and_act_for_the_account(server, people, api):
    ada = people()
    ada.sign_up(fresh_name())
    made = ada.post("/api/account/tokens", json={"name": "my bot"})
    assert made.status_code == 201, made.text
    token = made.json()["token"]
    listed = ada.get("/api/account/tokens").json()
    assert [t["name"] for t in listed] == ["my bot"] and "token" not in listed[0]
    store = server.app.state.store
    with store.engine.connect() as conn:
        stored = conn.exec_driver_sql("select token_sha from api_tokens").scalars().all()
    assert token not in stored and all(len(s) == 64 for s in stored)

    # a program with the token creates a game and plays its seat (no cookie, no CSRF token)
    bearer = {"Authorization": f"Bearer {token}"}
    gid = api.post(
        "/api/games", json={"game": "kingdom", "seats": [{"type": "human"}, {"type": "bot"}]}, headers=bearer
    ).json()["id"]
    view = api.get(f"/api/games/{gid}/state", headers=bearer).json()
    assert view["seat"] == 0 and view["legal"]
    r = api.post(f"/api/games/{gid}/actions", json={"action": view["legal"][0]}, headers=bearer)
    assert r.status_code == 200 and r.json()["actions"] == 1

    # revoked: refused
    assert ada.delete(f"/api/account/tokens/{made.json()['id']}").status_code == 204
    refused(api.get(f"/api/games/{gid}/state", headers=bearer), 401, "personal API token is not valid")
    refused(api.get(f"/api/games/{gid}/state", headers={"Authorization": "Basic x"}), 401, "Bearer")
    guest = people()
    guest.guest()
    refused(guest.post("/api/account/tokens", json={"name": "x"}), 403, "guest")


# -- fair seats ---------------------------------------------------------------------------------------
def test_an_invitation_link_is_a_one_time_claim_code(server, people, api):
    ada, bo, eve = people(), people(), people()
    ada.sign_up(fresh_name("Ada"))
    created = ada.post(
        "/api/games", json={"game": "kingdom", "seats": [{"type": "human"}, {"type": "human", "invite": True}]}
    )
    assert created.status_code == 201, created.text
    data = created.json()
    gid = data["id"]
    # the creator holds no credential of Blue's seat: only a claim code in the link
    assert all(s.get("token") is None for s in data["seats"])
    link = data["seats"][1]["invite"]
    assert link.startswith(f"/play/{gid}#invite=")
    code = link.split("#invite=")[1]
    summary = api.get(f"/api/games/{gid}").json()
    assert summary["status"] == "open" and summary["seats"][1]["invited"] and not summary["seats"][1]["claimed"]

    # the creator cannot view or play Blue
    refused(ada.get(f"/api/games/{gid}/state?seat=1"), 403, "not yours")
    assert ada.get(f"/api/games/{gid}/state").json()["seat"] == 0

    bo.guest()
    taken = bo.post(f"/api/games/{gid}/claim", json={"code": code})
    assert taken.status_code == 200, taken.text
    assert taken.json()["seat"] == 1 and taken.json()["token"] is None
    assert bo.get(f"/api/games/{gid}/state").json()["seat"] == 1
    # the link is dead now, for everyone
    before = counts(server)
    eve.guest()
    refused(eve.post(f"/api/games/{gid}/claim", json={"code": code}), 410, "already used")
    refused(ada.post(f"/api/games/{gid}/claim", json={"code": code}), 410, "already used")
    assert counts(server) == before
    summary = api.get(f"/api/games/{gid}").json()
    assert summary["status"] == "running" and summary["seats"][1]["user"] is not None

    # Bo's card is Bo's: the creator's view of the game shows no terrain for seat 1
    view = ada.get(f"/api/games/{gid}/state").json()
    assert view["view"]["players"][1]["terrain"] is None
    refused(ada.post(f"/api/games/{gid}/actions?seat=1", json={"action": "end"}), 403, "not yours")


def test_a_program_claims_an_invitation_with_a_seat_token(server, people, api):
    ada = people()
    ada.guest()
    data = ada.post(
        "/api/games", json={"game": "middle-ages", "seats": [{"type": "human"}, {"type": "human", "invite": True}]}
    ).json()
    code = data["seats"][1]["invite"].split("#invite=")[1]
    taken = api.post(f"/api/games/{data['id']}/claim", json={"code": code}).json()
    assert taken["seat"] == 1 and taken["token"]
    assert api.get(f"/api/games/{data['id']}/state", headers={"X-Seat-Token": taken["token"]}).json()["seat"] == 1


def test_invite_by_username_and_games_waiting(server, people):
    ada, bo = people(), people()
    ada.sign_up(fresh_name("Ada"))
    bo_name = fresh_name("Bo")
    bo.sign_up(bo_name)
    before = counts(server)
    refused(
        ada.post(
            "/api/games",
            json={"game": "kingdom", "seats": [{"type": "human"}, {"type": "human", "user": "nobody_here"}]},
        ),
        404,
        "no player named",
    )
    assert counts(server) == before
    data = ada.post(
        "/api/games", json={"game": "kingdom", "seats": [{"type": "human"}, {"type": "human", "user": bo_name.upper()}]}
    ).json()
    gid = data["id"]
    games = bo.get("/api/account/games").json()
    assert [(g["id"], g["my_seats"], g["waiting"]) for g in games] == [(gid, [1], False)]
    assert ada.get("/api/account/games").json()[0]["waiting"] is True
    # Ada plays her turn; then the game waits for Bo
    view = ada.get(f"/api/games/{gid}/state").json()
    while view["to_move"] == 0:
        action = "end" if "end" in view["legal"] else view["legal"][0]
        r = ada.post(f"/api/games/{gid}/actions", json={"action": action})
        assert r.status_code == 200, r.text
        view = r.json()
    assert bo.get("/api/account/games").json()[0]["waiting"] is True
    assert bo.get(f"/api/games/{gid}/state").json()["seat"] == 1


def test_open_seats_are_claimed_by_accounts(server, people):
    ada, bo = people(), people()
    ada.guest()
    bo.guest()
    gid = ada.post(
        "/api/games", json={"game": "kingdom", "seats": [{"type": "human"}, {"type": "human", "open": True}]}
    ).json()["id"]
    joined = bo.post(f"/api/games/{gid}/join", json={"seat": 1})
    assert joined.status_code == 200 and joined.json()["token"] is None
    assert bo.get(f"/api/games/{gid}/mine").json() == {"seats": [1]}
    assert ada.get(f"/api/games/{gid}/mine").json() == {"seats": [0]}
    refused(ada.post(f"/api/games/{gid}/join", json={"seat": 1}), 409, "already taken")


@pytest.mark.parametrize(
    "other", [{"type": "human", "open": True}, {"type": "human", "invite": True}, {"type": "human", "user": "someone"}]
)
def test_a_seed_only_for_tables_of_one_person(server, people, other):
    ada = people()
    ada.sign_up(fresh_name())
    before = counts(server)
    refused(
        ada.post("/api/games", json={"game": "kingdom", "seats": [{"type": "human"}, other], "setup": {"seed": 7}}),
        400,
        "a seed may be chosen only when every human seat is yours",
    )
    assert counts(server) == before


def test_seeded_games_say_so(server, people, api):
    ada = people()
    ada.guest()
    solo = ada.post(
        "/api/games", json={"game": "kingdom", "seats": [{"type": "human"}, {"type": "bot"}], "setup": {"seed": 7}}
    )
    assert solo.status_code == 201, solo.text
    pass_and_play = ada.post(
        "/api/games",
        json={"game": "middle-ages", "seats": [{"type": "human"}, {"type": "human"}], "setup": {"seed": 7}},
    )
    assert pass_and_play.status_code == 201
    assert api.get(f"/api/games/{solo.json()['id']}").json()["seeded"] is True
    unseeded = ada.post("/api/games", json={"game": "kingdom", "seats": [{"type": "human"}, {"type": "bot"}]}).json()
    assert api.get(f"/api/games/{unseeded['id']}").json()["seeded"] is False


def test_private_games_are_not_listed(server, people, api):
    ada = people()
    ada.guest()
    gid = ada.post(
        "/api/games",
        json={"game": "kingdom", "private": True, "seats": [{"type": "human"}, {"type": "human", "invite": True}]},
    ).json()["id"]
    listed = {g["id"] for g in api.get("/api/games").json()}
    assert gid not in listed
    assert ada.get(f"/api/games/{gid}").json()["private"] is True
    refused(api.get(f"/api/games/{gid}/state"), 404, f"there is no game '{gid}'")  # its players' only
    assert gid in {g["id"] for g in ada.get("/api/account/games").json()}


def test_several_kinds_of_one_seat_are_refused(server, people):
    ada = people()
    ada.guest()
    refused(
        ada.post(
            "/api/games",
            json={"game": "kingdom", "seats": [{"type": "human"}, {"type": "human", "open": True, "invite": True}]},
        ),
        400,
        "not several",
    )


def test_a_guest_signing_in_brings_its_games_along(server, people):
    name = fresh_name("Back")
    people().sign_up(name, "long enough")
    guest = people()
    guest.guest()
    gid = guest.post("/api/games", json={"game": "kingdom", "seats": [{"type": "human"}, {"type": "bot"}]}).json()["id"]
    r = guest.post("/api/session", json={"username": name, "password": "long enough"})
    assert r.status_code == 200, r.text
    assert guest.get(f"/api/games/{gid}/mine").json() == {"seats": [0]}
    assert gid in [g["id"] for g in guest.get("/api/account/games").json()]
    assert guest.get(f"/api/games/{gid}").json()["seats"][0]["user"] == name


# -- each rule of accounts in its exact words and numbers -----------------------------------------------


def _why(call) -> tuple[int, str]:
    from builders.server.games import ApiError

    with pytest.raises(ApiError) as e:
        call()
    return e.value.status, e.value.detail


def test_a_new_account_s_name_and_password_are_checked_in_exact_words():
    from builders.server.accounts import Accounts, check_password

    rule = (400, "a username is 3 to 20 letters, digits, '_' or '-'")
    for bad in (None, 12, "ab", "x" * 21, "ada lovelace", "ada!", "ädä"):
        assert _why(lambda: Accounts.check_new(bad, "correct horse")) == rule, bad
    assert _why(lambda: Accounts.check_new("ada\x00", "correct horse")) == (
        400,
        "username: control characters are not allowed",
    )
    assert Accounts.check_new("\uff21da_-9", "correct horse") == "Ada_-9"
    assert Accounts.check_new("abc", "x" * 8) == "abc" and Accounts.check_new("x" * 20, "x" * 200) == "x" * 20
    assert _why(lambda: check_password("x" * 7)) == (400, "a password needs at least 8 characters")
    assert _why(lambda: check_password(None)) == (400, "a password needs at least 8 characters")
    assert _why(lambda: check_password("x" * 201)) == (400, "a password has at most 200 characters")
    assert _why(lambda: check_password("password\x07")) == (400, "password: control characters are not allowed")
    assert check_password("x" * 8) is None and check_password("x" * 200) is None


def test_an_account_s_public_form_and_the_stored_digests():
    from builders.server.accounts import Account, _normal, address_digest, sha

    assert Account(7, None).to_json() == {"id": 7, "username": None, "guest": True, "name": "guest 7", "language": None}
    assert Account(8, "Ada", "fr").to_json() == {
        "id": 8,
        "username": "Ada",
        "guest": False,
        "name": "Ada",
        "language": "fr",
    }
    assert sha("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    assert address_digest("1.2.3.4") == sha("builders-address:1.2.3.4") != sha("1.2.3.4")
    assert _normal("\uff41da") == "ada" and _normal(None) is None and _normal("x" * 101) is None
    assert _normal("x" * 100) == "x" * 100 and _normal("a\u200bb") is None


def test_a_rate_limit_counts_events_in_a_sliding_window_and_forgets_idle_keys():
    from builders.server.accounts import RateLimit

    limit = RateLimit(2, 10.0)
    assert [limit.check("k", 100.0), limit.check("k", 101.0), limit.check("k", 102.0)] == [0.0, 0.0, 8.0]
    assert limit.check("k", 109.5) == 0.5  # the refused one was not recorded
    assert limit.check("k", 110.0) == 0.0  # the first left the window exactly at its end
    assert limit.check("k", 110.5) == 0.5
    assert limit.check("other", 110.5) == 0.0
    assert list(limit.events["k"]) == [101.0, 110.0]


def test_the_account_routes_refuse_in_exact_words(server, people):
    api = people()
    ada = people()
    ada.sign_up(fresh_name())
    assert detail_of(ada.post("/api/accounts", json={"username": fresh_name(), "password": "correct horse"})) == (
        409,
        f"you are signed in as {ada.get('/api/session').json()['account']['username']}: sign out first",
    )
    assert detail_of(api.delete("/api/session")) == (401, "you are not signed in")
    assert detail_of(api.post("/api/account/password", json={"old": "correct horse", "new": "another horse"})) == (
        401,
        "sign in to change your password",
    )
    assert detail_of(api.get("/api/account/tokens")) == (401, "sign in first")
    guest = people()
    guest.guest()
    assert detail_of(guest.get("/api/account/tokens")) == (403, "a guest has no API tokens: sign up first")
    assert detail_of(ada.delete("/api/account/tokens/999999")) == (404, "you have no API token 999999")
    assert detail_of(api.get("/api/account/tokens", headers={"Authorization": "Basic abc"})) == (
        401,
        "the Authorization header must be 'Bearer <personal API token>'",
    )
    assert detail_of(api.get("/api/account/tokens", headers={"Authorization": "Bearer bld_nothing"})) == (
        401,
        "the personal API token is not valid",
    )
    assert detail_of(api.post("/api/session", json={"username": "nobody_here", "password": "correct horse"})) == (
        401,
        "wrong username or password",
    )
    taken = ada.get("/api/session").json()["account"]["username"]
    other = people()
    assert detail_of(other.post("/api/accounts", json={"username": taken, "password": "correct horse"})) == (
        409,
        f"the username {taken!r} is taken",
    )
    assert detail_of(other.post("/api/accounts", json={"username": taken.upper(), "password": "correct horse"})) == (
        409,
        f"the username {taken.upper()!r} is taken",
    )


def detail_of(r: httpx.Response) -> tuple[int, str]:
    return r.status_code, r.json()["detail"]


def test_a_password_change_ends_only_that_account_s_other_sessions_and_tokens_need_the_csrf_token(server, people):
    ada, ada_elsewhere, bo = people(), people(), people()
    name, other = fresh_name(), fresh_name()
    ada.sign_up(name)
    bo.sign_up(other)
    assert ada_elsewhere.post("/api/session", json={"username": name, "password": "correct horse"}).status_code == 200
    assert detail_of(ada.post("/api/account/tokens", json={"name": "bot"}, csrf=False)) == (
        403,
        "this request needs your session's CSRF token in the X-CSRF-Token header",
    )
    assert ada.get("/api/account/tokens").json() == []
    r = ada.post("/api/account/password", json={"old": "correct horse", "new": "battery staple"})
    assert r.status_code == 204, r.text
    assert ada.get("/api/session").json()["account"]["username"] == name
    assert ada_elsewhere.get("/api/session").json()["account"] is None  # the account's other session ended
    assert bo.get("/api/session").json()["account"]["username"] == other  # another account's did not
