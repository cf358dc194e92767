"""Invitations with a guest at the other end, two people in two browsers: the inviter sends a link,
the guest opens it. For a rated game the guest is offered sign-up and sign-in right there (or on the
account page, and back) and lands in the seat; a link pasted into the same tab (only the fragment
changes) is acted on; a used link says it was used, a wrong or expired one says so. Issue: "a guest
opening an invite to a rated game hits a dead end"."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.web.conftest import PHONE
from tests.web.test_accounts import Browser, fresh

CREATE = """async ([body]) => {
    const s = await fetch('/api/session').then(r => r.json());
    const made = await fetch('/api/games', {method: 'POST', headers: {'Content-Type': 'application/json',
      'X-CSRF-Token': s.csrf}, body: JSON.stringify(body)}).then(r => r.json());
    return made;
}"""
RESIGN = """async (gid) => {
    const s = await fetch('/api/session').then(r => r.json());
    return (await fetch(`/api/games/${gid}/resign`, {method: 'POST', headers: {'X-CSRF-Token': s.csrf}})).status;
}"""


def rated_invitation(inviter: Browser) -> tuple[str, str]:
    """A rated game of Kingdom Builder made in the lobby by ``inviter``: seat 1 a friend by link."""
    page = inviter.page
    page.goto("/")
    page.locator('.game-option[data-game="kingdom"]').click()
    page.locator("#seat-1").select_option("friend")
    page.locator("#clock").select_option("live:600:20")
    page.locator("#rated").check()
    page.locator("#start").click()
    link = page.locator('#invite-dialog input[data-seat="1"]').input_value()
    page.locator("#go-to-table").click()
    page.wait_for_url("**/play/**")
    return page.url.rstrip("/").split("/")[-1], link


def test_a_guest_signs_up_where_the_link_opens_and_lands_in_the_rated_seat(new_page, api, shots):
    ada, guest = Browser(new_page), Browser(lambda: new_page(PHONE))
    ada.sign_up(fresh("Host"))
    gid, link = rated_invitation(ada)
    expect(ada.page.locator("#rated-badge")).to_have_text("Rated")

    guest.page.goto(link)
    dialog = guest.page.locator("#claim-dialog")
    expect(dialog).to_contain_text("A rated game: sign up or sign in to take your seat")
    shots(guest.page, "rated-invitation-phone")
    name = fresh("Guest")
    guest.page.locator("#claim-signup-name").fill(name)
    guest.page.locator("#claim-signup-password").fill("a good password")
    guest.page.locator("#claim-signup-btn").click()
    expect(dialog).to_have_count(0)
    expect(guest.page.locator("#seat-chip")).to_have_text("you: Blue")
    expect(guest.page.locator("#account-name")).to_have_text(name)
    assert guest.page.url.endswith(f"/play/{gid}")  # the code left the address
    summary = api.get(f"/api/games/{gid}").json()
    assert summary["seats"][1]["user"] == name and summary["status"] == "running"
    shots(guest.page, "in-the-seat-phone")
    # the inviter's page sees the seat taken by the new player's name
    expect(ada.page.locator("#seat-chip")).to_have_text("you: Red")
    expect(ada.page.locator("#table")).to_contain_text(name)


def test_the_invitation_survives_a_sign_in_on_the_account_page(new_page, api, shots):
    ada, bo, guest = Browser(new_page), Browser(new_page), Browser(new_page)
    ada.sign_up(fresh("Host"))
    bo_name = fresh("Known")
    bo.sign_up(bo_name)  # Bo has an account, but opens the link in a browser where he is nobody yet
    gid, link = rated_invitation(ada)
    guest.page.goto(link)
    expect(guest.page.locator("#claim-dialog")).to_be_visible()
    # a wrong password is said in the dialog, and nothing is taken
    guest.page.locator("#claim-signin-name").fill(bo_name)
    guest.page.locator("#claim-signin-password").fill("not his password")
    guest.page.locator("#claim-signin-btn").click()
    expect(guest.page.locator("#claim-signin-error")).to_contain_text("wrong")
    # "Just watch": the table as a spectator, the seat one click away
    guest.page.locator("#claim-watch").click()
    expect(guest.page.locator("#invite-notice")).to_contain_text("Your invitation to this rated game waits")
    expect(guest.page.locator("#seat-chip")).to_have_text("watching")
    guest.page.locator("#claim-again").click()
    guest.page.locator("#claim-account-page").click()
    guest.page.wait_for_url("**/account?next=*")
    guest.page.locator("#signin-name").fill(bo_name)
    guest.page.locator("#signin-password").fill("a good password")
    guest.page.locator("#signin-btn").click()
    guest.page.wait_for_url(f"**/play/{gid}")
    expect(guest.page.locator("#seat-chip")).to_have_text("you: Blue")
    expect(guest.page.locator("#invite-notice")).to_have_count(0)
    assert api.get(f"/api/games/{gid}").json()["seats"][1]["user"] == bo_name
    shots(guest.page, "back-in-the-seat")


def test_an_invitation_pasted_into_the_same_tab_takes_the_seat(new_page, api, shots):
    ada, guest = Browser(new_page), Browser(new_page)
    ada.sign_up(fresh("Host"))
    made = ada.page.evaluate(
        CREATE, [{"game": "middle-ages", "seats": [{"type": "human"}, {"type": "human", "invite": True}]}]
    )
    gid, link = made["id"], made["seats"][1]["invite"]
    guest.page.goto(f"/play/{gid}")
    expect(guest.page.locator("#seat-chip")).to_have_text("watching")
    guest.page.evaluate("window.__samePage = true")
    guest.page.goto(link)  # only the fragment differs: no new page is loaded
    expect(guest.page.locator("#seat-chip")).to_have_text("you: Blue")
    assert guest.page.evaluate("window.__samePage") is True
    assert "#invite" not in guest.page.url
    assert api.get(f"/api/games/{gid}").json()["seats"][1]["claimed"] is True
    shots(guest.page, "pasted-link")


def test_a_used_invitation_of_a_finished_game_says_it_was_used(new_page, api, shots):
    ada, bo, late = Browser(new_page), Browser(new_page), Browser(new_page)
    ada.sign_up(fresh("Host"))
    bo_name = fresh("Friend")
    bo.sign_up(bo_name)
    gid, link = rated_invitation(ada)
    bo.page.goto(link)  # signed up: the seat at once
    expect(bo.page.locator("#seat-chip")).to_have_text("you: Blue")
    assert ada.page.evaluate(RESIGN, gid) == 200
    expect(bo.page.locator("body")).to_have_attribute("data-status", "finished")
    # a guest opening the used link: it was used (not "sign up for a rated game")
    late.page.goto(link)
    notice = late.page.locator("#invite-notice")
    expect(notice).to_contain_text("This invitation was already used.")
    expect(late.page.locator("#claim-dialog")).to_have_count(0)
    shots(late.page, "already-used")
    # Bo opening his own used link again just sees his table
    bo.page.goto("/")
    bo.page.goto(link)
    expect(bo.page.locator("#seat-chip")).to_have_text("you: Blue")
    expect(bo.page.locator("#invite-notice")).to_have_count(0)


def test_a_wrong_or_expired_invitation_says_so(new_page, api, shots):
    ada, guest = Browser(new_page), Browser(new_page)
    ada.sign_up(fresh("Host"))
    made = ada.page.evaluate(
        CREATE, [{"game": "middle-ages", "seats": [{"type": "human"}, {"type": "human", "invite": True}]}]
    )
    gid, link = made["id"], made["seats"][1]["invite"]
    wrong = link[:-3] + ("abc" if not link.endswith("abc") else "xyz")
    guest.page.goto(wrong)
    expect(guest.page.locator("#invite-notice")).to_contain_text(
        "This invitation link is not valid or has expired: ask for a new one."
    )
    assert api.get(f"/api/games/{gid}").json()["seats"][1]["claimed"] is False
    shots(guest.page, "not-valid")
    # the game is gone (aborted, or deleted after 7 days waiting): the same words
    status = ada.page.evaluate(
        """async (gid) => {
        const s = await fetch('/api/session').then(r => r.json());
        return (await fetch(`/api/games/${gid}/abort`, {method: 'POST', headers: {'X-CSRF-Token': s.csrf}})).status;
    }""",
        gid,
    )
    assert status == 204
    other = Browser(new_page)
    other.page.goto(link)
    expect(other.page.locator("#invite-notice")).to_contain_text("not valid or has expired")
