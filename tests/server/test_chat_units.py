"""The chat's own rules, one at a time: the exact refusals, the channels, who is named as the author,
whose messages count against whose limit, the newest 200 kept in an answer; and what a rematch copies
from the finished game (through the real service and store on SQLite)."""

from __future__ import annotations

import pytest

from builders.server.chat import HISTORY, MAX_CHAT, Chat, make_rematch
from builders.server.games import ApiError
from tests.server.test_accounts import refused


def tokens_game(api, seats=None) -> tuple[str, list[str]]:
    """A game made by a program without an account: its id and the seats' tokens."""
    made = api.post("/api/games", json={"game": "kingdom", "seats": seats or [{"type": "human"}, {"type": "human"}]})
    assert made.status_code == 201, made.text
    return made.json()["id"], [s.get("token") for s in made.json()["seats"]]


@pytest.fixture
def chat(server):
    """A chat of the test server's service with a limit of 1 message per 100 seconds per person."""
    state = server.app.state
    return Chat(state.service, state.accounts, per_person=(1, 100.0))


def refusal(call) -> tuple[int, str]:
    with pytest.raises(ApiError) as e:
        call()
    return e.value.status, e.value.detail


def test_each_refusal_of_a_message_is_exact_and_stores_nothing(server, api, chat):
    gid, _ = tokens_game(api)
    live = server.app.state.service.get(gid)
    assert refusal(lambda: chat.post(live, 0, None, None)) == (400, "a chat message needs some text")
    assert refusal(lambda: chat.post(live, 0, None, 12)) == (400, "a chat message needs some text")
    assert refusal(lambda: chat.post(live, 0, None, " \n\t ")) == (400, "a chat message needs some text")
    assert refusal(lambda: chat.post(live, 0, None, "x" * (MAX_CHAT + 1))) == (
        400,
        "a chat message has at most 500 characters, not 501",
    )
    assert refusal(lambda: chat.post(live, 0, None, "bell\x07")) == (
        400,
        "chat message: control characters are not allowed",
    )
    assert refusal(lambda: chat.post(live, None, None, "hello")) == (401, "sign in or play as a guest to chat")
    assert chat.messages(gid, "players") == [] and chat.messages(gid, "spectators") == []


def test_a_message_is_stripped_keeps_its_line_breaks_and_is_named_by_its_seat(server, api, chat):
    gid, _ = tokens_game(api, [{"type": "human"}] * 4)
    live = server.app.state.service.get(gid)
    longest = chat.post(live, 3, None, "  " + "y" * MAX_CHAT + "  ")
    assert longest["text"] == "y" * MAX_CHAT
    said = chat.post(live, 1, None, "  two\nlines \n")
    assert {k: said[k] for k in ("channel", "author", "seat", "text", "account")} == {
        "channel": "players",
        "author": "Blue",
        "seat": 1,
        "text": "two\nlines",
        "account": False,
    }
    assert sorted(said) == ["account", "at", "author", "channel", "id", "seat", "text"]
    assert said["id"] == longest["id"] + 1
    assert [(m["author"], m["seat"]) for m in chat.messages(gid, "players")] == [("Black", 3), ("Blue", 1)]
    assert chat.messages(gid, "players")[1] == said
    assert chat.post(live, 0, None, "r")["author"] == "Red" and chat.post(live, 2, None, "w")["author"] == "White"


def test_an_account_speaks_under_its_name_in_the_channel_of_its_place(server, people):
    chat = Chat(server.app.state.service, server.app.state.accounts, per_person=(2, 100.0))
    ada = people("chatunit1")
    gid = ada.post(
        "/api/games", json={"game": "kingdom", "seats": [{"type": "human"}, {"type": "human", "open": True}]}
    ).json()["id"]
    service = server.app.state.service
    live = service.get(gid)
    account = server.app.state.accounts.by_username("chatunit1")
    said = chat.post(live, 0, account, "hi")
    assert (said["author"], said["channel"], said["seat"], said["account"]) == ("chatunit1", "players", 0, True)
    watching = chat.post(live, None, account, "from the stands")
    assert (watching["author"], watching["channel"], watching["seat"]) == ("chatunit1", "spectators", None)
    assert [m["account"] for m in chat.messages(gid, "players")] == [True]  # as stored, read back
    with server.app.state.store.engine.connect() as conn:
        from sqlalchemy import select

        from builders.server.models import ChatRow

        rows = conn.execute(
            select(ChatRow.account_id, ChatRow.channel).where(ChatRow.game_id == gid).order_by(ChatRow.id)
        ).all()
    assert [tuple(r) for r in rows] == [(account.id, "players"), (account.id, "spectators")]


def test_the_limit_is_per_person_an_account_across_games_a_seat_token_per_game_and_seat(server, api, people):
    state = server.app.state
    chat = Chat(state.service, state.accounts, per_person=(1, 100.0))
    gid, _ = tokens_game(api)
    other, _ = tokens_game(api)
    live, live2 = state.service.get(gid), state.service.get(other)
    assert chat.post(live, 0, None, "a")["text"] == "a"
    assert refusal(lambda: chat.post(live, 0, None, "b")) == (429, "too many chat messages; wait 100 seconds")
    assert chat.post(live, 1, None, "c")["text"] == "c"  # the other seat: its own limit
    assert chat.post(live2, 0, None, "d")["text"] == "d"  # the same seat of another game: its own limit
    people("chatunit2")
    account = state.accounts.by_username("chatunit2")
    assert chat.post(live, None, account, "e")["channel"] == "spectators"
    assert refusal(lambda: chat.post(live2, None, account, "f"))[0] == 429  # an account: one limit everywhere
    assert [m["text"] for m in chat.messages(gid, "players")] == ["a", "c"]
    assert [m["text"] for m in chat.messages(other, "spectators")] == []


def test_an_answer_holds_the_newest_messages_of_its_channel_oldest_first(server, api, people):
    state = server.app.state
    chat = Chat(state.service, state.accounts, per_person=(10_000, 100.0))
    gid, _ = tokens_game(api)
    live = state.service.get(gid)
    for i in range(HISTORY + 2):
        chat.post(live, 0, None, f"m{i}")
    people("chatunit3")
    chat.post(live, None, state.accounts.by_username("chatunit3"), "watching")
    kept = chat.messages(gid, "players")
    assert len(kept) == HISTORY == 200
    assert (kept[0]["text"], kept[-1]["text"]) == ("m2", f"m{HISTORY + 1}")
    assert [m["text"] for m in chat.messages(gid, "spectators")] == ["watching"]


def test_the_rematch_refusals_are_exact(server, people):
    ada, bo = people("chatunit4"), people("chatunit5")
    gid = ada.post(
        "/api/games", json={"game": "kingdom", "seats": [{"type": "human"}, {"type": "human", "user": "chatunit5"}]}
    ).json()["id"]
    r = ada.post(f"/api/games/{gid}/rematch")
    assert (r.status_code, r.json()["detail"]) == (409, "a rematch is offered once the game is over")
    guest = people()
    r = guest.post(f"/api/games/{gid}/rematch")
    assert (r.status_code, r.json()["detail"]) == (403, "only a signed-in player of this game can offer a rematch")
    refused(bo.post(f"/api/games/{gid}/rematch", csrf=False), 403, "CSRF token")


def test_a_rematch_copies_seats_name_privacy_and_colours(server, people):
    ada = people("chatunit6")
    made = ada.post(
        "/api/games",
        json={
            "game": "kingdom",
            "name": "Friday table",
            "private": True,
            "colours": ["blue", "red", "white"],
            "seats": [{"type": "human"}, {"type": "human", "invite": True}, {"type": "bot", "level": "medium"}],
        },
    )
    assert made.status_code == 201, made.text
    gid = made.json()["id"]
    service = server.app.state.service
    live = service.get(gid)
    account = server.app.state.accounts.by_username("chatunit6")
    created = make_rematch(service, live, account.id)
    new = service.get(created["id"])
    assert new.name == "Friday table" and new.game == "kingdom"
    assert new.options.private is True
    assert new.options.colours == live.options.colours == ["blue", "red", "white"]
    assert [s.type for s in new.seats] == ["human", "human", "bot"]
    assert new.seats[0].account == account.id
    assert new.seats[1].account is None and new.seats[2].level == "medium"
    assert [s["type"] for s in created["seats"]] == ["human", "human", "bot"]
    assert "invite" in created["seats"][1] and created["seats"][1]["invite"]
    assert live.options.rematch == created["id"]
    assert ada.get(f"/api/games/{gid}").json()["rematch"] == created["id"]


def test_a_rematch_of_a_public_game_opens_the_seats_of_others(server, people):
    ada = people("chatunit7")
    gid = ada.post(
        "/api/games", json={"game": "kingdom", "seats": [{"type": "human"}, {"type": "human", "open": True}]}
    ).json()["id"]
    service = server.app.state.service
    live = service.get(gid)
    created = make_rematch(service, live, server.app.state.accounts.by_username("chatunit7").id)
    new = service.get(created["id"])
    assert new.options.private is False
    assert new.seats[1].open is True and new.seats[1].account is None
    assert ada.get(f"/api/games/{created['id']}").json()["seats"][1]["open"] is True
