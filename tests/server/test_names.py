"""Honest names and clean text (builders.server.names), on SQLite and on PostgreSQL: a name is checked
whole and normalised (NFKC), holds no control or invisible character, and may not look like a
registered player's (the same casefolded confusable skeleton, UTS #39): not as a username, not as a
seat's name. Every text field refuses NUL and the other control characters with 400 and a one-line
reason naming the field, and stores nothing."""

from __future__ import annotations

import asyncio
import itertools
import json
import unicodedata

import httpx
import pytest
import websockets
from hypothesis import given, settings, strategies as st
from sqlalchemy import create_engine, func, select, text

from builders.server import migrate, names
from builders.server.models import AccountRow, ApiTokenRow, ChatRow, GameRow
from builders.server.store import database_url
from tests.server.conftest import make_app
from tests.server.helpers import ThreadServer
from tests.server.test_accounts import Person

CYRILLIC_A = "\u0430"
_numbers = itertools.count(1)


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def server(request, tmp_path_factory):
    """A server on SQLite or on a throwaway PostgreSQL database, with the player ``admin`` signed up
    (the ``people`` of these tests come to it)."""
    if request.param == "sqlite":
        app = make_app(tmp_path_factory.mktemp("names"))
    else:
        url = request.getfixturevalue("postgres").new_database()
        app = make_app(tmp_path_factory.mktemp("names"), db_url=url)
    with ThreadServer(app) as srv:
        admin = Person(srv.url)
        admin.sign_up("admin", "admin's password")
        srv.admin = admin
        yield srv
        admin.close()


def count(server, column) -> int:
    with server.app.state.store.engine.connect() as conn:
        return conn.execute(select(func.count(column))).scalar()


def usernames(server) -> list[str]:
    with server.app.state.store.engine.connect() as conn:
        return sorted(conn.execute(select(AccountRow.username).where(AccountRow.username.is_not(None))).scalars())


def refused(r: httpx.Response, status: int, detail: str) -> None:
    assert (r.status_code, r.json()["detail"]) == (status, detail), (r.status_code, r.text)


def raw_post(p: Person, path: str, body: dict) -> httpx.Response:
    """A JSON body as written, escapes and all (a lone surrogate goes out as ``\\ud800``)."""
    headers = {"Content-Type": "application/json", **({"X-CSRF-Token": p.csrf} if p.csrf else {})}
    return p.http.post(path, content=json.dumps(body), headers=headers)


# -- usernames ---------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "name, status, detail",
    [
        ("admin\n", 400, "username: control characters are not allowed"),
        ("admin\x00", 400, "username: control characters are not allowed"),
        (
            "ad\u200bmin",
            400,
            "username: invisible characters (such as zero-width spaces or text-direction marks) are not allowed",
        ),
        (
            "admin\u202e",
            400,
            "username: invisible characters (such as zero-width spaces or text-direction marks) are not allowed",
        ),
        (" admin", 400, "username: no spaces at the start or the end"),
        ("\uff21\uff24\uff2d\uff29\uff2e", 409, "the username 'ADMIN' is taken"),  # fullwidth: NFKC gives ADMIN
        ("Admin", 409, "the username 'Admin' is taken"),
        ("adrnin", 409, "the username 'adrnin' looks like the registered player 'admin'"),
        (CYRILLIC_A + "dmin", 400, "a username is 3 to 20 letters, digits, '_' or '-'"),
    ],
)
def test_a_username_that_is_or_looks_like_admin_is_refused(server, people, name, status, detail):
    guest = people()
    refused(guest.post("/api/accounts", json={"username": name, "password": "long enough"}), status, detail)
    assert "admin" in usernames(server) and not [
        n for n in usernames(server) if n != "admin" and names.skeleton(n) == names.skeleton("admin")
    ]
    assert guest.get("/api/session").json()["account"]["guest"] is True


def test_a_name_is_matched_whole_and_stored_normalised(server, people):
    p = Person(server.url)
    try:
        refused(
            p.post("/api/accounts", json={"username": "zed\n", "password": "long enough"}),
            400,
            "username: control characters are not allowed",
        )
        made = p.sign_up("\uff3a\uff45\uff44\uff11")  # fullwidth Zed1
        assert made["account"]["username"] == "Zed1"
    finally:
        p.close()
    assert "Zed1" in usernames(server)
    with server.app.state.store.engine.connect() as conn:
        key = conn.execute(select(AccountRow.username_skeleton).where(AccountRow.username == "Zed1")).scalar()
    assert key == "zedl"  # a one looks like an l
    refused(
        people().post("/api/accounts", json={"username": "ZEDl", "password": "long enough"}),
        409,
        "the username 'ZEDl' looks like the registered player 'Zed1'",
    )


def test_signing_in_takes_the_normalised_name_and_refuses_control_characters(server):
    p = Person(server.url)
    try:
        refused(
            p.post("/api/session", json={"username": "admin\x00", "password": "admin's password"}),
            400,
            "username: control characters are not allowed",
        )
        refused(
            p.post("/api/session", json={"username": "admin", "password": "admin's\x00password"}),
            400,
            "password: control characters are not allowed",
        )
        wide = "\uff41\uff44\uff4d\uff49\uff4e"  # admin in fullwidth letters
        done = p.post("/api/session", json={"username": wide, "password": "admin's password"})
        assert done.status_code == 200 and done.json()["account"]["username"] == "admin"
    finally:
        p.close()


def test_two_sign_ups_of_look_alike_names_at_once_make_one_account(server):
    """The unique skeleton column decides a race the look-up before it cannot."""
    import concurrent.futures

    variants = ["racer0", "racerO", "RACER0", "racero", "Racer0", "RacerO"]
    browsers = [Person(server.url) for _ in variants]
    try:
        with concurrent.futures.ThreadPoolExecutor(len(variants)) as pool:
            answers = list(
                pool.map(
                    lambda pv: pv[0].post("/api/accounts", json={"username": pv[1], "password": "long enough"}),
                    zip(browsers, variants),
                )
            )
    finally:
        for p in browsers:
            p.close()
    made = [v for v, r in zip(variants, answers) if r.status_code == 201]
    assert len(made) == 1, [(r.status_code, r.text) for r in answers]
    assert sorted(r.status_code for r in answers) == [201] + [409] * (len(variants) - 1)
    assert [n for n in usernames(server) if names.skeleton(n) == "racero"] == made


# -- seat names --------------------------------------------------------------------------------------
#: a game with the creator's seat and an open one
OPEN = {"game": "kingdom", "seats": [{"type": "human"}, {"type": "human", "open": True}]}


def with_name(name: str, **seat) -> dict:
    return {"game": "kingdom", "seats": [{"type": "human", "name": name, **seat}, {"type": "human", "open": True}]}


@pytest.mark.parametrize(
    "name, shown",
    [
        (CYRILLIC_A + "dmin", CYRILLIC_A + "dmin"),
        ("\uff21\uff24\uff2d\uff29\uff2e", "ADMIN"),
        ("Admin", "Admin"),
        ("adrnin", "adrnin"),
    ],
)
def test_a_guest_cannot_name_a_seat_like_a_registered_player(server, people, name, shown):
    guest = people()
    before = count(server, GameRow.id)
    refused(
        guest.post("/api/games", json=with_name(name)),
        409,
        f"the name {shown!r} looks like the registered player 'admin': choose another",
    )
    refused(
        people(f"notadmin{next(_numbers)}").post("/api/games", json=with_name(name)),
        409,
        f"the name {shown!r} looks like the registered player 'admin': choose another",
    )
    assert count(server, GameRow.id) == before


def test_the_player_may_name_a_seat_of_their_own_like_themselves_only(server, people):
    admin = server.admin
    made = admin.post("/api/games", json=with_name("Admin"))
    assert made.status_code == 201, made.text
    assert made.json()["seats"][0]["name"] == "Admin"
    # a seat for someone else (open, or an invitation) is not the player's own
    for seat in ({"open": True}, {"invite": True}):
        seats = [{"type": "human"}, {"type": "human", "name": "admin", **seat}]
        refused(
            admin.post("/api/games", json={"game": "kingdom", "seats": seats}),
            409,
            "the name 'admin' looks like the registered player 'admin': choose another",
        )


def test_a_seat_name_may_not_pass_for_a_guest_but_the_guests_own(server, people, api):
    guest = people()
    me = guest.get("/api/session").json()["account"]
    other = f"guest {me['id'] + 1000}"
    refused(
        guest.post("/api/games", json=with_name(other)),
        409,
        f"the name {other!r} looks like a guest's name: choose another",
    )
    refused(
        api.post("/api/games", json=with_name("Guest 1O")),
        409,  # a program, without an account
        "the name 'Guest 1O' looks like a guest's name: choose another",
    )
    made = guest.post("/api/games", json=with_name(me["name"].upper()))
    assert made.status_code == 201, made.text
    assert made.json()["seats"][0]["name"] == me["name"].upper() == f"GUEST {me['id']}"
    assert api.post("/api/games", json=with_name("Guesthouse")).status_code == 201


def test_joining_under_a_registered_players_name_is_refused_and_changes_nothing(server, people):
    host = people()
    gid = host.post("/api/games", json=OPEN).json()["id"]
    joiner = people()
    refused(
        joiner.post(f"/api/games/{gid}/join", json={"seat": 1, "name": "ADM" + "\u0399" + "N"}),
        409,
        "the name 'ADMΙN' looks like the registered player 'admin': choose another",
    )  # a Greek capital iota
    refused(
        joiner.post(f"/api/games/{gid}/join", json={"seat": 1, "name": "ad\u200bmin"}),
        400,
        "seat name: invisible characters (such as zero-width spaces or text-direction marks) are not allowed",
    )
    seat = host.get(f"/api/games/{gid}").json()["seats"][1]
    assert (seat["claimed"], seat["name"]) == (False, None)
    # the registered player themselves may take it under their name; anyone under another name
    done = server.admin.post(f"/api/games/{gid}/join", json={"seat": 1, "name": "\uff41dmin"})
    assert done.status_code == 200, done.text
    assert host.get(f"/api/games/{gid}").json()["seats"][1]["name"] == "admin"


# -- control characters in every text field ----------------------------------------------------------
def test_every_text_field_refuses_control_characters_with_400_and_stores_nothing(server, people):
    me = people(f"texter{next(_numbers)}")
    gid = me.post("/api/games", json=OPEN).json()["id"]
    rows = (AccountRow.id, GameRow.id, ApiTokenRow.id, ChatRow.id)
    counted = [count(server, column) for column in rows]
    base = {"game": "kingdom", "seats": [{"type": "human"}, {"type": "bot", "level": "easy"}]}
    cases = [
        ("/api/accounts", {"username": "nul\x00name", "password": "long enough"}, "username"),
        ("/api/accounts", {"username": "goodname", "password": "long\x00enough"}, "password"),
        ("/api/session", {"username": "admin\x00", "password": "long enough"}, "username"),
        ("/api/account/password", {"old": "correct horse", "new": "new\x07password"}, "new password"),
        ("/api/account/password", {"old": "correct\x00horse", "new": "new password"}, "password"),
        ("/api/account/tokens", {"name": "bot\x00token"}, "token name"),
        ("/api/games", {**base, "name": "friday\x00game"}, "game name"),
        ("/api/games", {**base, "name": "friday\u0085game"}, "game name"),  # C1 control: next line
        ("/api/games", {**base, "seats": [{"type": "human", "name": "Ada\x1b[31m"}, base["seats"][1]]}, "seat name"),
        ("/api/games", {**base, "seats": [{"type": "human"}, {"type": "human", "user": "bo\x00b"}]}, "user"),
        ("/api/games", {**base, "colours": ["red\x00", "blue"]}, "colour"),
        (
            "/api/games",
            {
                **base,
                "setup": {
                    "mode": "custom",
                    "cards": ["fishermen\x00", "merchants", "knights"],
                    "sections": [["tavern", False], ["paddock", False], ["oasis", True], ["farm", False]],
                },
            },
            "card",
        ),
        (f"/api/games/{gid}/join", {"seat": 1, "name": "Bo\tB"}, "seat name"),
        (f"/api/games/{gid}/claim", {"code": "abc\x00"}, "code"),
        (f"/api/games/{gid}/actions", {"action": "coins\x00 1"}, "action"),
        (f"/api/games/{gid}/chat", {"text": "hello\x00"}, "chat message"),
        (f"/api/games/{gid}/chat", {"text": "hello\rthere"}, "chat message"),
    ]
    for path, body, field in cases:
        refused(me.post(path, json=body), 400, f"{field}: control characters are not allowed")
    # a lone surrogate is no text at all: refused as the JSON is read
    refused(raw_post(me, f"/api/games/{gid}/chat", {"text": "half \ud83d"}), 422, "text: must be valid Unicode text")
    refused(raw_post(me, "/api/games", {**base, "name": "\udc00"}), 422, "name: must be valid Unicode text")
    assert [count(server, column) for column in rows] == counted
    # a chat message keeps its line breaks
    said = me.post(f"/api/games/{gid}/chat", json={"text": "good\nluck"})
    assert said.status_code == 201 and said.json()["text"] == "good\nluck"


def test_the_chat_itself_refuses_control_characters(server, people):
    """Chat.post checks the text whoever calls it (the HTTP body is checked before it)."""
    from builders.server.games import ApiError

    me = people()
    gid = me.post("/api/games", json=OPEN).json()["id"]
    live = server.app.state.service.get(gid)
    with pytest.raises(ApiError) as refused_here:
        server.app.state.chat.post(live, 0, None, "hi\x00there")
    assert (refused_here.value.status, refused_here.value.detail) == (
        400,
        "chat message: control characters are not allowed",
    )
    assert server.app.state.chat.messages(gid, "players") == []


def test_nul_in_paths_queries_and_the_socket_is_never_a_server_error(server):
    with httpx.Client(base_url=server.url, timeout=10) as api:
        for path in (
            "/api/players/a%00b",
            "/api/players/admin%0A",
            "/api/games/a%00b",
            "/api/games/a%00b/chat",
            "/api/games?status=open%00",
            "/api/leaderboard/kingdom%00",
        ):
            r = api.get(path)
            assert r.status_code in (404, 422) and "detail" in r.json(), (path, r.status_code, r.text)

    async def socket() -> dict:
        async with websockets.connect(f"{server.ws_url}/ws/games/a%00b") as ws:
            return json.loads(await asyncio.wait_for(ws.recv(), 5))

    assert asyncio.run(socket()) == {
        "type": "error",
        "code": 404,
        "message": "there is no such game",
        "key": "there is no such game",
        "params": {},
    }


def test_a_socket_actions_key_with_a_control_character_is_refused(server):
    """The key of an action on the socket is stored with it: a NUL would make PostgreSQL fail the save."""
    with httpx.Client(base_url=server.url, timeout=10) as api:
        made = api.post("/api/games", json={"game": "kingdom", "seats": [{"type": "human"}, {"type": "bot"}]}).json()
    token = made["seats"][0]["token"]

    async def play() -> dict:
        async with websockets.connect(f"{server.ws_url}/ws/games/{made['id']}") as ws:
            await ws.send(json.dumps({"type": "hello", "token": token}))
            assert json.loads(await asyncio.wait_for(ws.recv(), 5))["type"] == "state"
            await ws.send(json.dumps({"type": "action", "action": "coins 1", "id": "key\u0000"}))
            while True:
                got = json.loads(await asyncio.wait_for(ws.recv(), 5))
                if got["type"] == "error":
                    return got

    assert asyncio.run(play()) == {
        "type": "error",
        "code": 400,
        "message": "the idempotency key: control and invisible characters are not allowed",
        "key": "the idempotency key: control and invisible characters are not allowed",
        "params": {},
    }
    with server.app.state.store.engine.connect() as conn:
        assert conn.execute(text("SELECT count(*) FROM actions WHERE game_id = :g"), {"g": made["id"]}).scalar() == 0


# -- the check itself --------------------------------------------------------------------------------
@settings(max_examples=400, deadline=None)
@given(st.text(max_size=30))
def test_a_name_is_refused_with_a_reason_or_normalised_with_a_stable_skeleton(raw):
    try:
        name = names.check_name(raw, "seat name")
    except names.BadText as e:
        reason = str(e)
        assert reason.startswith("seat name: ") and "\n" not in reason
        return
    assert name == unicodedata.normalize("NFKC", raw) and names.check_name(name, "seat name") == name
    assert all(unicodedata.category(c) not in ("Cc", "Cf", "Cs", "Co", "Cn") for c in name)
    key = names.skeleton(name)
    assert names.skeleton(key) == key and names.skeleton(raw) == key


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=50))
def test_a_seat_name_in_a_request_is_a_400_reason_a_length_error_or_the_normal_form(raw):
    """What the application answers 400 (TEXT_ERROR), 422 (too long or empty) or takes."""
    from pydantic import ValidationError

    from builders.server.schemas import TEXT_ERROR, Join

    try:
        name = Join(seat=0, name=raw).name
    except ValidationError as e:
        (error,) = e.errors()
        assert error["type"] in (TEXT_ERROR, "string_too_short", "string_too_long"), error
        if error["type"] == TEXT_ERROR:
            assert error["msg"].startswith("seat name: ")
        return
    assert name == names.check_name(raw, "seat name") and 1 <= len(name) <= 40
    assert names.skeleton(names.skeleton(name)) == names.skeleton(name)


@settings(max_examples=200, deadline=None)
@given(
    st.text(
        alphabet=st.sampled_from("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-"),
        min_size=3,
        max_size=20,
    )
)
def test_a_username_and_its_case_and_fullwidth_forms_look_alike(name):
    wide = "".join(chr(ord(c) + 0xFEE0) for c in name)  # the fullwidth forms of ASCII
    assert (
        names.skeleton(name)
        == names.skeleton(name.upper())
        == names.skeleton(name.lower())
        == names.skeleton(names.check_name(wide))
    )


def test_the_skeleton_is_uts39s_casefolded():
    assert {
        names.skeleton(n)
        for n in (
            "admin",
            "Admin",
            "ADMIN",
            CYRILLIC_A + "dmin",
            "\uff41dmin",
            "\U0001d41a\U0001d41d\U0001d426\U0001d422\U0001d427",
        )
    } == {"adrnin"}
    assert names.skeleton("adm1n") != names.skeleton("admin")  # a 1 looks like an l, not an i
    assert names.skeleton("b0b") == names.skeleton("BOB") and names.skeleton("pay1") == names.skeleton("payl")


# -- the migration -----------------------------------------------------------------------------------
@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_the_upgrade_gives_every_account_its_skeleton(kind, tmp_path, request):
    """Migration 0008 adds the column and fills it; of names that already looked alike, the first
    keeps the skeleton (``admin\n``, made before names were matched whole, gets none)."""
    from alembic import command

    url = f"sqlite:///{tmp_path / 'at7.sqlite3'}" if kind == "sqlite" else request.getfixturevalue("pg_url")
    engine = create_engine(database_url(url))
    try:
        with engine.begin() as conn:
            command.upgrade(migrate.config(conn), "0007")
            for i, name in enumerate(["Ada", "bo0", "BoO", None, "m1ke", "admin", "admin\n", "ad\u200bmin"], start=1):
                conn.execute(
                    text("INSERT INTO accounts (id, username, username_key, created) VALUES (:id, :n, :k, 0)"),
                    {"id": i, "n": name, "k": name.lower() if name else None},
                )
    finally:
        engine.dispose()
    assert migrate.upgrade(url) == ("0007", migrate.head())
    engine = create_engine(database_url(url))
    try:
        with engine.connect() as conn:
            keys = dict(conn.execute(text("SELECT id, username_skeleton FROM accounts ORDER BY id")).all())
    finally:
        engine.dispose()
    assert keys == {1: "ada", 2: "boo", 3: None, 4: None, 5: "rnlke", 6: "adrnin", 7: None, 8: None}


def test_each_refusal_of_a_name_or_a_text_in_its_exact_words():
    def why(call) -> str:
        with pytest.raises(names.BadText) as e:
            call()
        return str(e.value)

    assert why(lambda: names.check_text("a\x00b", "game name")) == "game name: control characters are not allowed"
    assert why(lambda: names.check_text("a\nb", "game name")) == "game name: control characters are not allowed"
    assert why(lambda: names.check_text("\ud800", "token name")) == (
        "token name: lone surrogates are not allowed (send text in UTF-8)"
    )
    assert why(lambda: names.check_text("a\n\tb", "chat message", newlines=True)) == (
        "chat message: control characters are not allowed"
    )
    assert names.check_text("two\nlines", "chat message", newlines=True) == "two\nlines"
    assert names.check_text("\u200bzero width is text", "chat message") == "\u200bzero width is text"
    assert why(lambda: names.check_name("")) == "name: it needs at least one character"
    assert why(lambda: names.check_name("a\u2028b", "seat name")) == (
        "seat name: control characters and line breaks are not allowed"
    )
    assert why(lambda: names.check_name("a\u200bb", "seat name")) == (
        "seat name: invisible characters (such as zero-width spaces or text-direction marks) are not allowed"
    )
    assert why(lambda: names.check_name("a\ue000b", "seat name")) == (
        "seat name: private-use and unassigned characters are not allowed"
    )
    assert why(lambda: names.check_name("a\U000e0080b", "seat name")) == (
        "seat name: private-use and unassigned characters are not allowed"
    )
    assert why(lambda: names.check_name(" ada", "username")) == "username: no spaces at the start or the end"
    assert why(lambda: names.check_name("ada\u3000", "username")) == "username: no spaces at the start or the end"
    assert why(lambda: names.check_name("x" * 41)) == "name: at most 40 characters"
    assert why(lambda: names.check_name("x" * 21, max_length=20)) == "name: at most 20 characters"
    assert names.check_name("x" * 40) == "x" * 40 and names.check_name("x" * 20, max_length=20) == "x" * 20
    assert names.check_name("\uff21da") == "Ada" and names.check_name("a b") == "a b"


def test_the_skeleton_leaves_out_what_nothing_shows_and_settles():
    assert names.skeleton("  ada\u200b ") == names.skeleton("ada") == "ada"
    assert names.skeleton("a\x07da") == "ada"
    assert names.skeleton("\u2028ada") == "ada"
    assert names.skeleton("") == ""
    assert names.skeleton("\u0410DA") == "ada"  # a Cyrillic capital A, casefolded then mapped
    assert names.skeleton("rn") == names.skeleton("m")  # a prototype of two letters
    table = names._prototypes()
    assert table["\u0430"] == "a" and "a" not in table and all(len(k) == 1 for k in table)
