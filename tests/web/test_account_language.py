"""The account's language on a new browser, in Chromium: a person whose account speaks German signs in on
a browser that speaks English, and the page turns German and stays so (the ``lang`` cookie keeps it); a
browser already signed in shows its first page in the account's language; ``?lang=`` in the address still
wins; an account without a language leaves the browser's."""

from __future__ import annotations

import json

import httpx
import pytest

from builders.web import STATIC_DIR
from tests.web.conftest import DESKTOP

CATALOGUES = {
    code: json.loads((STATIC_DIR / "i18n" / f"{code}.json").read_text(encoding="utf-8")) for code in ("en", "de", "fr")
}
PASSWORD = "correct horse"


def account(server, name: str, language: str | None) -> None:
    """An account ``name`` whose language is ``language`` (set over the API, as the switcher does)."""
    with httpx.Client(base_url=server.url, timeout=20) as client:
        r = client.post("/api/accounts", json={"username": name, "password": PASSWORD})
        assert r.status_code == 201, r.text
        if language is not None:
            r = client.put(
                "/api/account/language", json={"language": language}, headers={"X-CSRF-Token": r.json()["csrf"]}
            )
            assert r.status_code == 200 and r.json()["account"]["language"] == language, r.text


@pytest.fixture
def english_browser(browser, server):
    """A fresh browser context whose language is English (no cookie)."""
    errors: list[str] = []
    context = browser.new_context(viewport=DESKTOP, base_url=server.url, locale="en-US")
    context.set_default_timeout(15000)
    context.on("weberror", lambda e: errors.append(str(e.error)))
    yield context
    context.close()
    assert not errors, f"script errors in the page: {errors}"


def language_of(page) -> str:
    page.locator("#lang-select").wait_for()
    return page.evaluate("document.documentElement.lang")


def cookie_language(context) -> str | None:
    return {c["name"]: c["value"] for c in context.cookies()}.get("lang")


def test_signing_in_on_an_english_browser_shows_the_account_s_german(english_browser, server):
    account(server, "ute_de", "de")
    page = english_browser.new_page()
    page.goto("/account")
    assert language_of(page) == "en"
    assert page.locator("#signin-title").inner_text() == CATALOGUES["en"]["account.sign_in"]
    page.fill("#signin-name", "ute_de")
    page.fill("#signin-password", PASSWORD)
    with page.expect_navigation():
        page.click("#signin-btn")
    assert language_of(page) == "de"
    assert page.locator("#status-title").inner_text() == CATALOGUES["de"]["account.who"]
    assert cookie_language(english_browser) == "de"
    # the next page too, and what the server says
    page.goto("/")
    assert language_of(page) == "de"
    assert page.locator("#new-game-title").inner_text() == CATALOGUES["de"]["lobby.new_game"]
    answer = page.evaluate("fetch('/api/games/NoSuch12').then((r) => r.json())")
    assert answer["detail"] == "es gibt keine Partie 'NoSuch12'"


def test_a_browser_signed_in_already_shows_its_first_page_in_the_account_s_language(english_browser, server):
    account(server, "vic_fr", "fr")
    r = english_browser.request.post("/api/session", data={"username": "vic_fr", "password": PASSWORD})
    assert r.status == 200 and cookie_language(english_browser) is None
    page = english_browser.new_page()
    page.goto("/")
    page.wait_for_function("() => document.documentElement.lang === 'fr'")
    assert language_of(page) == "fr"
    assert page.locator("#new-game-title").inner_text() == CATALOGUES["fr"]["lobby.new_game"]
    assert cookie_language(english_browser) == "fr"
    # the address still chooses for itself, and keeps its choice
    page.goto("/?lang=de")
    assert language_of(page) == "de"
    page.wait_for_timeout(500)  # no reload back to the account's
    assert language_of(page) == "de" and page.url.endswith("/?lang=de")


def test_an_account_without_a_language_leaves_the_browser_s(english_browser, server):
    account(server, "wes_none", None)
    page = english_browser.new_page()
    page.goto("/account")
    page.fill("#signin-name", "wes_none")
    page.fill("#signin-password", PASSWORD)
    page.click("#signin-btn")
    page.wait_for_function("() => document.getElementById('account-name').textContent === 'wes_none'")
    page.wait_for_timeout(300)  # no reload
    assert language_of(page) == "en" and cookie_language(english_browser) is None
    assert page.locator("#status-title").inner_text() == CATALOGUES["en"]["account.who"]
