"""Leaving a game in the browser, as two people would: abort before both have moved, resign (a real
loss, told to the other player), hand the seat over and take it back, and the rating change shown at
the end of a rated game. Issue: "hand over to a bot" was the only way out, and for good."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.web.conftest import PHONE
from tests.web.test_accounts import Browser, fresh


def new_pair(api) -> tuple[str, list[str]]:
    created = api.post(
        "/api/games",
        json={"game": "middle-ages", "seats": [{"type": "human", "name": "Ann"}, {"type": "human", "name": "Ben"}]},
    ).json()
    return created["id"], [s["link"] for s in created["seats"]]


def act(api, gid: str, link: str, action: str) -> None:
    token = link.split("token=")[1]
    reply = api.post(f"/api/games/{gid}/actions", json={"action": action}, headers={"X-Seat-Token": token})
    assert reply.status_code == 200, reply.text


def test_abort_before_both_have_moved_takes_both_pages_back_to_the_lobby(new_page, api, shots):
    gid, links = new_pair(api)
    ann, ben = new_page(), new_page(PHONE)
    ann.goto(links[0])
    ben.goto(links[1])
    act(api, gid, links[0], "coins 1")  # Ann has moved, Ben not yet
    expect(ben.locator("#abort-btn")).to_be_visible()
    shots(ben, "abort-offered-phone")
    ben.locator("#abort-btn").click()
    for page in (ann, ben):
        expect(page.locator("#aborted")).to_contain_text("aborted")
    shots(ann, "aborted")
    assert api.get(f"/api/games/{gid}").status_code == 404


def test_resigning_asks_first_ends_a_game_of_two_and_tells_the_other(new_page, api, shots):
    gid, links = new_pair(api)
    ann, ben = new_page(), new_page()
    ann.goto(links[0])
    ben.goto(links[1])
    for action in ("coins 1", "coins 1", "coins 1", "end"):
        act(api, gid, links[0], action)
    act(api, gid, links[1], "coins 1")  # both have moved: no abort any more, resign instead
    expect(ann.locator("#resign-btn")).to_be_visible()
    expect(ann.locator("#abort-btn")).to_have_count(0)
    ann.locator("#resign-btn").click()
    dialog = ann.locator("#resign-dialog")
    expect(dialog).to_contain_text("counts as a loss")
    shots(ann, "resign-dialog")
    ann.locator("#resign-cancel").click()  # a second thought: nothing happens
    expect(dialog).to_have_count(0)
    assert api.get(f"/api/games/{gid}").json()["status"] == "running"
    ann.locator("#resign-btn").click()
    ann.locator("#resign-confirm").click()
    expect(ann.locator("body")).to_have_attribute("data-status", "finished")
    expect(ben.locator("body")).to_have_attribute("data-status", "finished")
    expect(ben.locator("#log li.event-line")).to_have_text("Ann resigned.")
    expect(ben.locator("#event-news")).to_have_text("Ann resigned.")
    shots(ben, "the-other-resigned")
    summary = api.get(f"/api/games/{gid}").json()
    assert summary["result"]["winners"] == [1] and summary["result"]["resigned"] == [0]


def test_a_seat_handed_over_is_taken_back(new_page, api, shots):
    gid, links = new_pair(api)
    ann = new_page()
    ann.goto(links[0])
    ann.locator("#handover-btn").click()
    expect(ann.locator("#bot-dialog")).to_contain_text("take the seat back")
    ann.locator("#bot-confirm").click()
    take_back = ann.locator("#take-back-btn")
    expect(take_back).to_be_visible()
    shots(ann, "handed-over")
    take_back.click()
    expect(ann.locator("#resign-btn")).to_be_visible()
    expect(ann.locator("#seat-chip")).not_to_have_class("seat-chip handed-over")
    assert api.get(f"/api/games/{gid}").json()["seats"][0]["type"] == "human"


def test_the_end_of_a_rated_game_shows_each_rating_change(new_page, shots):
    ann, ben = Browser(new_page), Browser(new_page)
    ann_name, ben_name = fresh("Leaver"), fresh("Leaver")
    ann.sign_up(ann_name)
    ben.sign_up(ben_name)
    gid = ann.page.evaluate(
        """async (other) => {
        const s = await fetch('/api/session').then(r => r.json());
        const made = await fetch('/api/games', {method: 'POST', headers: {'Content-Type': 'application/json',
          'X-CSRF-Token': s.csrf}, body: JSON.stringify({game: 'kingdom', rated: true,
          clock: {kind: 'live', total: 600, increment: 0},
          seats: [{type: 'human'}, {type: 'human', user: other}]})}).then(r => r.json());
        await fetch(`/api/games/${made.id}/resign`, {method: 'POST', headers: {'X-CSRF-Token': s.csrf}});
        return made.id;
    }""",
        ben_name,
    )
    ben.page.goto(f"/play/{gid}")
    changes = ben.page.locator("#rating-changes")
    expect(changes).to_contain_text(ann_name)
    text = changes.inner_text()
    # Ann resigned: her rating falls, Ben's (shown as "You" on his own page) rises; both provisional
    assert re.search(rf"{ann_name} 1[0-9]{{3}}\? \(−[0-9]+\)", text), text
    assert re.search(r"You 1[0-9]{3}\? \(\+[0-9]+\)", text), text
    shots(ben.page, "rating-changes")


def test_the_lobby_marks_guests_and_shows_the_time_left_in_words(new_page, api, shots):
    """Issue: a guest looked like a registered player in the lobby, and turn-based games did not say
    whose deadline was when. A guest's seat reads "(guest)"; a running clock's time left is in words."""
    created = api.post(
        "/api/games",
        json={
            "game": "kingdom",
            "clock": {"kind": "turn", "per_turn": 2 * 86400},
            "seats": [{"type": "human", "name": "Mallory"}, {"type": "human", "name": "Trent"}],
        },
    ).json()
    gid = created["id"]
    token = created["seats"][0]["token"]
    legal = api.get(f"/api/games/{gid}/state", headers={"X-Seat-Token": token}).json()["legal"]
    api.post(f"/api/games/{gid}/actions", json={"action": legal[0]}, headers={"X-Seat-Token": token})
    page = new_page()
    page.goto("/")
    row = page.locator(f'li.game-row[data-id="{gid}"]').first
    expect(row).to_contain_text("Mallory (guest)")
    expect(row.locator(".deadline")).to_have_text(re.compile(r" · 1 day left| · 2 days left"))
    shots(page, "lobby-guest-and-deadline")
    page.goto("/?lang=de")
    row = page.locator(f'li.game-row[data-id="{gid}"]').first
    expect(row).to_contain_text("Mallory (Gast)")
    expect(row.locator(".deadline")).to_have_text(re.compile(r" · noch (1 Tag|2 Tage)"))
