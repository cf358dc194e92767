"""The Builders: Middle Ages on a touch phone says "tap", not "click", and tells of no keys: the guide of a
first game (its welcome, opening a site, sending a worker), the guide of an ordinary game (no action
left), the legend; in English and German. With a mouse the words stay "click" and the keys are told.
Issue: The Builders' guide said "click" on a touch screen (Kingdom Builder's said "tap")."""

from __future__ import annotations

from contextlib import contextmanager

from playwright.sync_api import expect

from tests.web.conftest import PHONE
from tests.web.learn import create_game
from tests.web.test_guide import from_rules
from tests.web.test_walkthrough import wait_title

WELCOME = (
    "Finish buildings to score victory points (VP); the first to 17 VP ends the game. Each turn you have "
    "3 actions, and every button shows its price before you {}."
)
OPEN_TAP = (
    "Tap Open under a building: it becomes one of your sites. Look at what it needs (stone, wood, knowledge, tile)."
)
SEND_TAP = (
    "Tap a worker of your crew (outlined in yellow), then Send here on your site. You pay the worker's "
    "coins; a second worker on the same site in one turn costs 2 actions."
)


@contextmanager
def touch_phone(browser, server):
    """A page on a touch phone (375x812); every uncaught script error fails the test."""
    context = browser.new_context(viewport=PHONE, base_url=server.url, has_touch=True, is_mobile=True)
    errors: list[str] = []
    try:
        page = context.new_page()
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        yield page
    finally:
        context.close()
    assert not errors, errors


def tap_and_wait(page, locator) -> None:
    old = page.evaluate("document.body.dataset.version")
    locator.tap()
    page.wait_for_function("old => document.body.dataset.version !== old", arg=old)


def no_action_left(api) -> tuple[str, str]:
    """An ordinary game against a bot whose seat 0 took its three actions as coins: its id and token."""
    gid, token = create_game(api, "middle-ages")
    for _ in range(3):
        reply = api.post(f"/api/games/{gid}/actions", json={"action": "coins 1"}, headers={"X-Seat-Token": token})
        assert reply.status_code == 200, reply.text
    assert reply.json()["view"]["actions_left"] == 0
    return gid, token


def no_click_nor_keys(page) -> None:
    text = page.locator("body").inner_text()
    assert "click" not in text.lower() and "klick" not in text.lower(), text
    for keys in ("(E)", "Esc ", "Keys:", "Tasten:"):
        assert keys not in text, (keys, text)


def test_a_first_game_of_the_builders_on_a_touch_phone_says_tap(browser, server, shots):
    with touch_phone(browser, server) as page:
        gid = from_rules(page, "middle-ages")
        text = page.locator("#guide-text")
        expect(text).to_have_text(WELCOME.format("tap it"))
        page.locator("#guide-next").tap()
        expect(text).to_have_text(OPEN_TAP)
        # the legend: "tap", and no keys to tell of
        page.locator("#legend summary").tap()
        legend = page.locator("#legend")
        expect(legend).to_contain_text(
            "A worker you may send now is outlined in yellow: tap it, then Send here on a site."
        )
        expect(legend).to_contain_text("The price of an action, shown on its button before you tap it.")
        no_click_nor_keys(page)
        page.locator("#legend summary").tap()
        tap_and_wait(page, page.locator('#building-row button[data-action^="open"]').first)
        wait_title(page, "Send a worker")
        expect(text).to_have_text(SEND_TAP)
        page.locator("#my-crew .ma-card.sendable").first.tap()
        no_click_nor_keys(page)
        shots(page, "touch-guide-send")
        # in German too (the guide stays at its step)
        page.goto(f"/play/{gid}?lang=de")
        expect(page.locator("#guide-text")).to_have_text(
            "Tippe einen Arbeiter deiner Mannschaft an (gelb umrandet), dann „Hierher schicken“ auf deiner Baustelle. "
            "Du zahlst die Münzen des Arbeiters; ein zweiter Arbeiter auf derselben Baustelle im selben Zug kostet "
            "2 Aktionen."
        )
        page.locator("#legend summary").tap()
        expect(page.locator("#legend")).to_contain_text(
            "Ein Arbeiter, den du jetzt schicken kannst, ist gelb umrandet: tippe ihn an, dann „Hierher schicken“ "
            "auf einer Baustelle."
        )
        no_click_nor_keys(page)
        shots(page, "touch-guide-send-de")


def test_the_guide_of_an_ordinary_game_on_a_touch_phone_says_no_key(browser, server, api, shots):
    gid, token = no_action_left(api)
    with touch_phone(browser, server) as page:
        for lang, said in (
            ("en", "No action left: buy one for 5 coins, or end your turn."),
            ("de", "Keine Aktion mehr: kaufe eine für 5 Münzen oder beende deinen Zug."),
        ):
            page.goto(f"/play/{gid}?lang={lang}#seat=0&token={token}")
            page.locator("#guide-btn").tap()
            expect(page.locator("#guide")).to_have_attribute("data-first", "0")
            page.locator("#guide-next").tap()
            expect(page.locator("#guide-text")).to_have_text(said)
            no_click_nor_keys(page)
        shots(page, "touch-guide-now-de")


def test_with_a_mouse_the_builders_guide_says_click_and_tells_the_keys(new_page, api):
    page = new_page()
    from_rules(page, "middle-ages")
    expect(page.locator("#guide-text")).to_have_text(WELCOME.format("click"))
    page.locator("#guide-next").click()
    expect(page.locator("#guide-text")).to_have_text(OPEN_TAP.replace("Tap", "Click"))
    page.locator("#legend summary").click()
    expect(page.locator("#legend")).to_contain_text("Keys: Tab and Enter for every button and worker")
    gid, token = no_action_left(api)
    page.goto(f"/play/{gid}#seat=0&token={token}")
    page.locator("#guide-btn").click()
    page.locator("#guide-next").click()
    expect(page.locator("#guide-text")).to_have_text("No action left: buy one for 5 coins, or end your turn (E).")
