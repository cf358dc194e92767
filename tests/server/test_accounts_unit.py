"""Accounts without a server: the stored rows of accounts, sessions, tokens and known addresses
(builders.server.repos.accounts) and what Accounts makes of them, on a SQLite file of the test's own;
the sockets a credential ends, closed on their loop from any thread."""

from __future__ import annotations

import asyncio
import threading

import pytest

from builders.server import accounts as accounts_module
from builders.server.accounts import CLOSE_ENDED, Account, Accounts, OpenSockets, sha
from builders.server.games import ApiError
from builders.server.repos.accounts import AccountRecord, AccountRepo, NameRecord, Taken, TokenRecord
from builders.server.store import Store


@pytest.fixture
def store(tmp_path):
    return Store(f"sqlite:///{tmp_path / 'accounts.sqlite3'}")


@pytest.fixture
def rows(store):
    return AccountRepo(store.engine)


def named(rows: AccountRepo, username: str, digest: str = "digest", guest: int | None = None) -> int:
    from builders.server import names

    return rows.name(
        guest,
        {"username": username, "username_key": username.lower(), "username_skeleton": names.skeleton(username)},
        digest,
        1000.0,
    )


def test_the_rows_of_accounts_hold_names_languages_and_passwords(rows):
    guest = rows.create_guest(1000.0)
    assert rows.get(guest) == AccountRecord(guest, None)
    assert named(rows, "Ada", "hash-1", guest=guest) == guest  # the guest becomes the named account
    bo = named(rows, "Bo_9", "hash-2")
    assert bo != guest
    assert rows.get(guest) == AccountRecord(guest, "Ada") and rows.get(bo) == AccountRecord(bo, "Bo_9")
    assert rows.get(bo + 100) is None
    assert rows.by_name_key("ada") == AccountRecord(guest, "Ada") and rows.by_name_key("Ada") is None
    assert rows.by_skeleton("bo_9") == AccountRecord(bo, "Bo_9") and rows.by_skeleton("nobody") is None
    with pytest.raises(Taken) as e:
        named(rows, "ADA", "hash-3")
    assert e.value.args == ("ADA",)
    assert rows.password_hash(guest) == "hash-1" and rows.password_hash(bo) == "hash-2"
    rows.set_language(bo, "fr")
    login = rows.login("bo_9")
    assert (login.account, login.password_hash) == (AccountRecord(bo, "Bo_9", "fr"), "hash-2")
    assert rows.login("nobody") is None
    assert sorted(rows.names([guest, bo, bo + 100]), key=lambda r: r.id) == [
        NameRecord(guest, "Ada", False),
        NameRecord(bo, "Bo_9", False),
    ]


def test_sessions_and_tokens_hold_until_they_end_or_expire(rows):
    ada, bo = named(rows, "Ada"), named(rows, "Bo")
    rows.set_language(ada, "de")
    rows.add_session("s1", ada, "csrf-1", 1000.0, 2000.0)
    rows.add_session("s2", ada, "csrf-2", 1000.0, 3000.0)
    rows.add_session("s3", bo, "csrf-3", 1000.0, 3000.0)
    found = rows.session("s1")
    assert (found.account, found.csrf, found.expires) == (AccountRecord(ada, "Ada", "de"), "csrf-1", 2000.0)
    assert rows.session("nothing") is None
    first = rows.add_token(ada, "bot", "t1", 1500.0)
    second = rows.add_token(ada, "other", "t2", 1400.0)
    bos = rows.add_token(bo, "bo's", "t3", 1000.0)
    assert rows.tokens(ada) == [TokenRecord(first, "bot", 1500.0), TokenRecord(second, "other", 1400.0)]
    assert rows.token("t1") == (AccountRecord(ada, "Ada", "de"), first) and rows.token("t9") is None
    everything = ["s1", "s2", "s3", "gone"]
    assert rows.alive(everything, [first, second, bos, 999], 1999.0) == {
        ("session", "s1"),
        ("session", "s2"),
        ("session", "s3"),
        ("token", str(first)),
        ("token", str(second)),
        ("token", str(bos)),
    }
    # a session is alive until the second it expires, not at it
    assert rows.alive(everything, [], 2000.0) == {("session", "s2"), ("session", "s3")}
    assert rows.alive([], [], 1000.0) == set()
    # more than one batch of 500 of each
    many = [f"x{i}" for i in range(600)] + ["s3"]
    assert rows.alive(many, list(range(10_000, 10_600)) + [bos], 1000.0) == {("session", "s3"), ("token", str(bos))}
    assert rows.delete_token(bo, first) is False  # not bo's
    assert rows.delete_token(ada, first) is True and rows.delete_token(ada, first) is False
    assert rows.tokens(ada) == [TokenRecord(second, "other", 1400.0)]
    rows.end_session("s2")
    assert rows.session("s2") is None and rows.session("s1") is not None
    rows.end_sessions_before(2000.5)
    assert rows.session("s1") is None and rows.session("s3") is not None


def test_a_password_change_and_a_deletion_end_exactly_the_account_s_credentials(rows, store):
    from sqlalchemy import insert, select

    from builders.server.models import ChatRow, DeletedAccountRow, GameRow

    ada, bo = named(rows, "Ada", "old"), named(rows, "Bo")
    for cookie in ("a1", "a2", "a3"):
        rows.add_session(cookie, ada, "c", 1000.0, 9000.0)
    rows.add_session("b1", bo, "c", 1000.0, 9000.0)
    token = rows.add_token(ada, "bot", "ta", 1000.0)
    bos = rows.add_token(bo, "bot", "tb", 1000.0)
    ended = rows.change_password(ada, "new", "a2")
    assert sorted(ended) == [("session", "a1"), ("session", "a2"), ("session", "a3"), ("token", str(token))]
    assert rows.password_hash(ada) == "new" and rows.password_hash(bo) == "digest"
    assert rows.alive(["a1", "a2", "a3", "b1"], [token, bos], 1000.0) == {
        ("session", "a2"),
        ("session", "b1"),
        ("token", str(bos)),
    }

    rows.remember_address(ada, "addr", 1000.0, 20)
    with store.engine.begin() as conn:
        conn.execute(
            insert(GameRow).values(id="g1", game="kingdom_builder", created=1.0, setup={}, seats=[], status="playing")
        )
        conn.execute(
            insert(ChatRow).values(
                game_id="g1", channel="players", account_id=ada, author="Ada", seat=0, text="hello", at=1.0
            )
        )
        conn.execute(
            insert(ChatRow).values(
                game_id="g1", channel="players", account_id=bo, author="Bo", seat=1, text="hi", at=2.0
            )
        )
    rows.add_token(ada, "again", "tc", 1000.0)
    ended = rows.delete(ada, "deleted player", 5000.0)
    assert sorted(ended) == [("session", "a2"), ("token", str(token + 2))]
    assert rows.get(ada) == AccountRecord(ada, None) and rows.password_hash(ada) is None
    assert rows.by_name_key("ada") is None and rows.by_skeleton("ada") is None
    assert rows.known_address("ada", "addr") is False
    assert rows.names([ada, bo]) == [NameRecord(ada, None, True), NameRecord(bo, "Bo", False)]
    with store.engine.connect() as conn:
        assert conn.execute(select(ChatRow.author).order_by(ChatRow.id)).scalars().all() == ["deleted player", "Bo"]
        assert conn.execute(select(DeletedAccountRow.account_id, DeletedAccountRow.at)).all() == [(ada, 5000.0)]
    assert named(rows, "Ada") not in (ada, bo)  # the name is free again


def test_an_account_keeps_only_its_latest_addresses(rows):
    ada, bo = named(rows, "Ada"), named(rows, "Bo")
    for i in range(4):
        rows.remember_address(ada, f"a{i}", 1000.0 + i, 3)
    assert [rows.known_address("ada", f"a{i}") for i in range(4)] == [False, True, True, True]
    rows.remember_address(ada, "a1", 2000.0, 3)  # seen again: the latest now, nothing forgotten
    assert [rows.known_address("ada", f"a{i}") for i in range(4)] == [False, True, True, True]
    rows.remember_address(ada, "a4", 2001.0, 3)
    assert [rows.known_address("ada", f"a{i}") for i in range(5)] == [False, True, False, True, True]
    assert rows.known_address("bo", "a1") is False
    rows.remember_address(bo, "a1", 1.0, 3)
    assert rows.known_address("bo", "a1") is True and rows.known_address("ada", "a1") is True


def test_a_session_and_a_token_carry_the_account_s_language(store):
    accounts = Accounts(store)
    ada = Account(named(accounts.rows, "Ada"), "Ada")
    assert accounts.set_language(ada, "fr") == Account(ada.id, "Ada", "fr")
    cookie, csrf = accounts.new_session(ada)
    assert accounts.session(cookie) == (Account(ada.id, "Ada", "fr"), csrf)
    made = accounts.create_token(ada, "bot")
    assert made["token"].startswith("bld_") and made["name"] == "bot"
    assert accounts.token_account(made["token"]) == Account(ada.id, "Ada", "fr")
    assert accounts.token_account("bld_" + "x" * 97) is None and accounts.token_account("x" + made["token"]) is None
    assert accounts.tokens(ada) == [{"id": made["id"], "name": "bot", "created": made["created"]}]
    assert accounts.alive(
        [("session", sha(cookie)), ("session", sha("other")), ("token", str(made["id"])), ("token", "999")]
    ) == {("session", sha(cookie)), ("token", str(made["id"]))}
    with pytest.raises(ApiError) as e:
        accounts.delete_token(ada, 999)
    assert (e.value.status, e.value.detail) == (404, "you have no API token 999")
    accounts.delete_token(ada, made["id"])
    assert accounts.token_account(made["token"]) is None
    accounts.end_session(cookie)
    assert accounts.session(cookie) is None
    guest = accounts.create_guest()
    assert guest.guest and accounts.get(guest.id) == guest
    assert accounts.by_username("ADA") == Account(ada.id, "Ada") and accounts.by_username("a!") is None


def test_the_names_of_accounts_show_guests_and_deleted_accounts(store):
    accounts = Accounts(store)
    ada = named(accounts.rows, "Ada")
    guest = accounts.create_guest().id
    assert accounts.names({ada, guest}) == {ada: "Ada", guest: f"guest {guest}"}
    accounts.rows.delete(ada, "deleted player", 1.0)
    assert accounts.names({ada}) == {ada: "Ada"}  # remembered for a while
    accounts._names_at -= accounts_module.NAMES_SECONDS + 1
    assert accounts.names({ada, guest}) == {ada: "deleted player", guest: f"guest {guest}"}


def test_a_seat_name_may_not_look_like_a_player_s_or_a_guest_s(store):
    accounts = Accounts(store)
    ada = named(accounts.rows, "Ada")
    guest = accounts.create_guest()

    def why(name, account):
        with pytest.raises(ApiError) as e:
            accounts.check_seat_name(name, account)
        return e.value.status, e.value.detail

    assert why("ADA", None) == (409, "the name 'ADA' looks like the registered player 'Ada': choose another")
    assert accounts.check_seat_name("ADA", ada) is None  # its own
    assert why("guest 12", None) == (409, "the name 'guest 12' looks like a guest's name: choose another")
    assert why("guest 12", ada) == (409, "the name 'guest 12' looks like a guest's name: choose another")
    own = f"guest {guest.id}"
    assert accounts.check_seat_name(own, guest.id) is None
    assert why(f"guest {guest.id + 1}", guest.id)[0] == 409
    assert accounts.check_seat_name("guesthouse", None) is None


def test_ending_a_credential_closes_its_sockets_from_any_thread():
    class Socket:
        def __init__(self):
            self.ended: list[tuple[int, str]] = []

        def end(self, code, reason):
            self.ended.append((code, str(reason)))

    alive: set = set()
    sockets = OpenSockets(lambda held: {c for c in held if c in alive})
    one, two, three = Socket(), Socket(), Socket()
    sockets.end([("session", "a")], accounts_module.SIGNED_OUT)  # no loop yet: nothing to close

    async def scenario():
        alive.update({("session", "a"), ("token", "1")})
        sockets.add(one, ("session", "a"))
        sockets.add(two, ("session", "a"))
        sockets.add(three, ("token", "1"))
        sockets.remove(two, ("session", "a"))
        sockets.end([], accounts_module.SIGNED_OUT)
        worker = threading.Thread(target=sockets.end, args=([("session", "a")], accounts_module.SIGNED_OUT))
        worker.start()
        worker.join()
        await asyncio.sleep(0.05)
        assert one.ended == [(CLOSE_ENDED, "you signed out")] and two.ended == []
        assert three.ended == [] and list(sockets.held) == [("token", "1")]
        alive.discard(("token", "1"))  # ended on another process: the watch finds it
        await asyncio.sleep(accounts_module.WATCH_SECONDS * 3)
        assert three.ended == [
            (CLOSE_ENDED, "your sign-in ended (signed out, password changed, token revoked or account deleted)")
        ]
        assert sockets.held == {}
        await asyncio.sleep(accounts_module.WATCH_SECONDS * 2)
        assert sockets.task.done()

    asyncio.run(scenario())


def test_a_deleted_account_is_shown_as_deleted_at_once_and_signs_its_chat_so(store):
    from sqlalchemy import insert, select

    from builders.server.models import ChatRow, GameRow

    accounts = Accounts(store)
    ada = Account(named(accounts.rows, "Ada"), "Ada")
    with store.engine.begin() as conn:
        conn.execute(
            insert(GameRow).values(id="g1", game="kingdom_builder", created=1.0, setup={}, seats=[], status="playing")
        )
        conn.execute(
            insert(ChatRow).values(
                game_id="g1", channel="players", account_id=ada.id, author="Ada", seat=0, text="hello", at=1.0
            )
        )
    assert accounts.names({ada.id}) == {ada.id: "Ada"}
    accounts.delete_account(ada)
    assert accounts.names({ada.id}) == {ada.id: "deleted player"}  # not the remembered name
    with store.engine.connect() as conn:
        assert conn.execute(select(ChatRow.author)).scalars().all() == ["deleted player"]


def test_at_most_as_many_passwords_are_hashed_at_once_as_there_are_cores_and_at_least_two(store):
    import os
    import time

    accounts = Accounts(store)

    bound = max(2, os.cpu_count() or 2)

    class Counting:
        """Hashes slowly and counts how many hashes run at once: each waits (up to 5 s) for the bound
        to be reached, then a little longer, so that one more would be seen if it were let in."""

        def __init__(self):
            self.now = self.most = 0
            self.turn = threading.Condition()

        def hash(self, password):
            with self.turn:
                self.now += 1
                self.most = max(self.most, self.now)
                self.turn.notify_all()
                self.turn.wait_for(lambda: self.now >= bound, timeout=5)
            time.sleep(0.3)
            with self.turn:
                self.now -= 1
            return "digest:" + password

    counting = Counting()
    accounts._hasher = counting
    threads = [threading.Thread(target=accounts.hash, args=(f"password {i}",)) for i in range(bound + 2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert counting.most == bound


def test_a_name_taken_by_another_request_meanwhile_is_refused_in_words(store):
    accounts = Accounts(store)

    class Meanwhile:
        """Another request names its account "ada" while this one hashes its password."""

        def hash(self, password):
            accounts.rows.name(
                None, {"username": "aDa", "username_key": "ada", "username_skeleton": "other"}, "digest", 1.0
            )
            return "digest:" + password

    accounts._hasher = Meanwhile()
    with pytest.raises(ApiError) as e:
        accounts.sign_up("Ada", "correct horse", None)
    assert (e.value.status, e.value.detail) == (409, "the username 'Ada' is taken")


def test_digests_take_any_text_and_a_forwarded_https_makes_a_secure_request():
    import hashlib

    from starlette.requests import Request

    from builders.server.accounts import secure_request

    assert sha("a\ud800") == hashlib.sha256(b"a\xed\xa0\x80").hexdigest()

    def request(scheme, headers):
        return Request(
            {
                "type": "http",
                "scheme": scheme,
                "method": "GET",
                "path": "/",
                "query_string": b"",
                "server": ("example.org", 80),
                "headers": headers,
            }
        )

    assert secure_request(request("https", [])) is True
    assert secure_request(request("http", [(b"x-forwarded-proto", b"HTTPS")])) is True
    assert secure_request(request("http", [(b"x-forwarded-proto", b"http")])) is False
    assert secure_request(request("http", [])) is False


def test_deleting_an_account_in_one_process_resigns_its_seats_and_ends_its_sessions(tmp_path):
    import httpx

    from tests.server.conftest import make_app
    from tests.server.helpers import ThreadServer

    with ThreadServer(make_app(tmp_path)) as server:
        with httpx.Client(base_url=server.url, timeout=30) as ada:
            made = ada.post("/api/accounts", json={"username": "Ada_del", "password": "correct horse"})
            assert made.status_code == 201, made.text
            csrf = {"X-CSRF-Token": made.json()["csrf"]}
            game = ada.post(
                "/api/games",
                json={"game": "middle-ages", "seats": [{"type": "human"}, {"type": "human"}]},
                headers=csrf,
            )
            assert game.status_code == 201, game.text
            gid = game.json()["id"]
            gone = ada.request("DELETE", "/api/account", json={"password": "correct horse"}, headers=csrf)
            assert gone.status_code == 204, gone.text
            seats = httpx.get(f"{server.url}/api/games/{gid}", timeout=10).json()["seats"]
            # the first seat resigned ends a game of two: the second need not resign
            assert [(s["resigned"], s["name"]) for s in seats] == [(True, "deleted player"), (False, "deleted player")]
            assert ada.get("/api/session").json()["account"] is None
