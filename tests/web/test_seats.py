"""A seat over time: a page that loses its connection catches up by itself when it is back, and a person
who hands their seat over to a bot (through the page's dialog) watches it play the game to its end."""

from __future__ import annotations

import time

from playwright.sync_api import expect

from tests.web.conftest import PHONE
from tests.web.helpers import click_and_wait, page_state, wait_ready


def two_people(api) -> dict:
    return api.post(
        "/api/games",
        json={
            "game": "kingdom",
            "seats": [{"type": "human", "name": "Bob"}, {"type": "human", "name": "Alice"}],
        },
    ).json()


def act(api, game_id: str, token: str, action: str) -> dict:
    reply = api.post(f"/api/games/{game_id}/actions", json={"action": action}, headers={"X-Seat-Token": token})
    assert reply.status_code == 200, reply.text
    return reply.json()


def state(api, game_id: str, token: str | None = None) -> dict:
    return api.get(f"/api/games/{game_id}/state", headers={"X-Seat-Token": token} if token else {}).json()


def connected(api, game_id: str, seat: int) -> bool:
    return api.get(f"/api/games/{game_id}").json()["seats"][seat]["connected"]


def eventually(check, what: str, seconds: float = 10) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, what
        time.sleep(0.05)


def test_a_lost_connection_catches_up_without_a_reload(new_page, api, shots):
    created = two_people(api)
    game_id = created["id"]
    bob = created["seats"][0]["token"]  # seat 0 moves first, over HTTP
    alice = new_page()
    alice.goto(created["seats"][1]["link"])
    conn = alice.locator("#conn")
    expect(conn).to_have_attribute("data-status", "live")
    alice.wait_for_selector("#kb-map .hex")
    alice.evaluate("window.samePage = true")  # gone if the page reloads
    bob_houses = alice.locator('#kb-map .house[data-seat="0"]')
    alice_houses = alice.locator('#kb-map .house[data-seat="1"]')

    # while connected, Bob's first settlement shows up at once
    first = next(a for a in state(api, game_id, bob)["legal"] if a.startswith("build "))
    act(api, game_id, bob, first)
    expect(bob_houses).to_have_count(1)
    eventually(lambda: connected(api, game_id, 1), "the server never saw Alice's socket")
    shots(alice, "live")

    # the network goes away: the badge says so and the server sees the seat go
    alice.context.set_offline(True)
    expect(conn).to_have_attribute("data-status", "offline")
    expect(conn).to_have_text("reconnecting…")
    eventually(lambda: not connected(api, game_id, 1), "the server still counts Alice's socket as open")

    # Bob ends his turn meanwhile; none of it reaches Alice's page
    view = state(api, game_id, bob)
    for _ in range(2):
        view = act(api, game_id, bob, next(a for a in view["legal"] if a.startswith("build ")))
    assert "end" in view["legal"], view["legal"]
    view = act(api, game_id, bob, "end")
    assert view["to_move"] == 1
    alice.wait_for_timeout(600)  # time enough for a push, were there a connection
    assert bob_houses.count() == 1
    assert alice.evaluate("document.body.dataset.toMove") == "0"
    assert not alice.evaluate("document.body.classList.contains('your-turn')")
    expect(conn).to_have_attribute("data-status", "offline")
    shots(alice, "reconnecting")

    # the network is back: the same page catches up by itself
    alice.context.set_offline(False)
    expect(conn).to_have_attribute("data-status", "live")
    expect(conn).to_have_text("live")
    expect(bob_houses).to_have_count(3)
    wait_ready(alice, timeout=10000)
    assert alice.evaluate("window.samePage") is True, "the page was reloaded"
    assert alice.evaluate("document.body.dataset.toMove") == "1"
    expect(alice.locator("#turn-banner")).to_contain_text("Your turn")
    server = state(api, game_id, created["seats"][1]["token"])
    log = alice.locator("#log li[data-n]")
    expect(log).to_have_count(len(server["log"]))
    assert log.last.get_attribute("data-n") == str(server["log"][-1]["n"])
    assert alice.locator('#log li[data-seat="0"]').count() == 4  # three builds and the end of the turn
    assert alice.evaluate("document.body.dataset.version") == str(server["version"])
    assert connected(api, game_id, 1)
    shots(alice, "caught-up")

    # and Alice can play again
    click_and_wait(alice, alice.locator("#kb-map .target").first)
    expect(alice_houses).to_have_count(1)
    after = state(api, game_id, created["seats"][1]["token"])
    assert len(after["view"]["players"][1]["settlements"]) == 1
    assert after["log"][-1]["seat"] == 1
    shots(alice, "played-again")


def test_hand_over_to_a_bot_from_the_dialog(new_page, api, shots):
    created = api.post(
        "/api/games",
        json={
            "game": "kingdom",
            "seats": [{"type": "human", "name": "Ada"}, {"type": "bot", "level": "medium"}],
        },
    ).json()
    game_id = created["id"]
    token = created["seats"][0]["token"]
    link = created["seats"][0]["link"]
    page = new_page()
    page.goto(link)
    wait_ready(page)
    # one settlement of her own, then she leaves in the middle of her turn
    click_and_wait(page, page.locator("#kb-map .target").first)

    # the dialog: three levels, each with a line about it; Cancel changes nothing
    page.locator("#handover-btn").click()
    dialog = page.locator("#bot-dialog")
    expect(dialog).to_be_visible()
    options = dialog.locator(".level-option")
    assert options.evaluate_all("els => els.map(e => e.dataset.level)") == ["easy", "medium", "hard", "expert"]
    for text in options.locator("small").all_inner_texts():
        assert len(text) > 20, text
    expect(dialog.locator('input[value="medium"]')).to_be_checked()
    expect(dialog.locator("#bot-cancel")).to_be_visible()
    shots(page, "dialog-desktop")
    dialog.locator("#bot-cancel").click()
    expect(dialog).to_have_count(0)
    assert api.get(f"/api/games/{game_id}").json()["seats"][0]["type"] == "human"
    expect(page.locator("#handover-btn")).to_be_visible()

    # on a phone: the whole dialog fits on the screen; she picks the easy bot there
    phone = new_page(PHONE)
    phone.goto(link)
    wait_ready(phone)
    phone.locator("#handover-btn").click()
    small = phone.locator("#bot-dialog")
    expect(small).to_be_visible()
    for part in ("#bot-dialog", "#bot-cancel", "#bot-confirm", '.level-option[data-level="hard"]'):
        box = phone.locator(part).bounding_box()
        assert box and box["x"] >= 0 and box["y"] >= 0, (part, box)
        assert box["x"] + box["width"] <= PHONE["width"] and box["y"] + box["height"] <= PHONE["height"], (part, box)
    shots(phone, "dialog-phone")
    phone.locator('.level-option[data-level="easy"]').click()
    expect(small.locator('input[value="easy"]')).to_be_checked()
    version = int(phone.evaluate("document.body.dataset.version"))
    phone.locator("#bot-confirm").click()
    expect(small).to_have_count(0)

    # the bot plays her seat to the end of the game, without her
    for p in (phone, page):
        try:
            p.wait_for_function("() => document.body.dataset.status === 'finished'", timeout=40000)
        except Exception:
            raise AssertionError(f"the game did not end: {page_state(p)}") from None
    summary = api.get(f"/api/games/{game_id}").json()
    assert summary["status"] == "finished"
    assert summary["seats"][0]["type"] == "bot" and summary["seats"][0]["level"] == "easy"
    final = state(api, game_id, token)
    bot_moves = [e for e in final["log"] if e["seat"] == 0 and e["n"] > version]
    assert len(bot_moves) > 20, "the bot did not play the seat"
    assert sum(1 for e in final["log"] if e["seat"] == 0 and e["n"] <= version) == 1

    # the page says the seat is the bot's, offers no hand-over, and shows the final score
    for p in (phone, page):
        expect(p.locator("#seat-chip")).to_have_text("Red: easy bot")
        expect(p.locator("#player-0 .player-name")).to_have_text("Red bot (easy)")
        expect(p.locator("#handover-btn")).to_have_count(0)
        expect(p.locator("#final-scores")).to_be_visible()
        assert not p.evaluate("document.body.classList.contains('your-turn')")
        expect(p.locator("#log li[data-n]")).to_have_count(len(final["log"]))
    shots(phone, "bot-finished-phone")
    shots(page, "bot-finished")
