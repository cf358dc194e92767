"""A first game follows the person, not the browser: one account signed in on two browsers (two browser
contexts, each its own storage) gets the same first game from "First game" on either, its walkthrough
on both. Issue: the first game was kept in one browser's storage, so a second browser made another."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.web.conftest import PHONE
from tests.web.test_accounts import Browser, fresh
from tests.web.test_guide import from_rules


def sign_in(page, name: str) -> None:
    page.goto("/account")
    page.fill("#signin-name", name)
    page.fill("#signin-password", "a good password")
    page.locator("#signin-btn").click()
    expect(page.locator("#status-text")).to_have_text(f"Signed in as {name}.")


def test_one_account_on_two_browsers_gets_one_first_game(new_page, shots):
    desk = Browser(new_page)
    name = fresh("Firsty")
    desk.sign_up(name)
    first = from_rules(desk.page, "kingdom")
    expect(desk.page.locator("#guide")).to_have_attribute("data-first", "1")
    assert "builders.firstGame" not in desk.holdings()  # nothing of it kept in the browser
    # the same person on a phone: signed in there too, "First game" opens the same table
    phone = new_page(PHONE)
    sign_in(phone, name)
    assert from_rules(phone, "kingdom") == first
    guide = phone.locator("#guide")
    expect(guide).to_have_attribute("data-first", "1")  # the first-game walkthrough, here too
    expect(guide.locator("#guide-title")).to_have_text("Welcome to Kingdom Builder")
    expect(phone.locator("#seat-chip")).to_have_text("you: Red")
    shots(phone, "first-game-on-a-second-browser")
    # a move on one is on the other: one game
    phone.locator("#guide-next").click()
    phone.locator("#guide-next").click()
    old = phone.evaluate("document.body.dataset.version")
    phone.locator("#kb-map .target").first.click()
    phone.wait_for_function("old => document.body.dataset.version !== old", arg=old)
    desk.page.reload()
    expect(desk.page.locator('#log li[data-n="1"]')).to_be_visible()
    # The Builders' first game is another one, the same on both browsers too
    builders = from_rules(phone, "middle-ages")
    assert builders != first and from_rules(desk.page, "middle-ages") == builders
    # a guest elsewhere starts a first game of their own
    stranger = new_page()
    assert from_rules(stranger, "kingdom") not in (first, builders)
