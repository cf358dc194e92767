"""Playing in the page: helpers that choose among the targets the page highlights and click them."""

from __future__ import annotations

import random
import re

READY = """() => !document.body.classList.contains('busy') && (document.body.dataset.status === 'finished'
  || document.body.classList.contains('your-turn'))"""
CHANGED = """old => !document.body.classList.contains('busy') && (document.body.dataset.version !== old
  || document.body.dataset.status === 'finished')"""


def is_finished(page) -> bool:
    return page.evaluate("document.body.dataset.status") == "finished"


def page_state(page) -> str:
    """What the page shows now, for failure messages."""
    return page.evaluate("""() => JSON.stringify({classes: document.body.className, data: {...document.body.dataset},
      banner: (document.querySelector('#turn-banner') || {}).textContent,
      toasts: [...document.querySelectorAll('.toast')].map(t => t.textContent)})""")


def wait_ready(page, timeout: float = 30000) -> None:
    """Until it is this page's turn or the game is over."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    try:
        page.wait_for_function(READY, timeout=timeout)
    except PlaywrightTimeout:
        raise AssertionError(f"the page never got ready to play: {page_state(page)}") from None


def click_and_wait(page, locator) -> None:
    """Clicks an element that sends an action, then waits for the server's new view."""
    old = page.evaluate("document.body.dataset.version")
    locator.click()
    page.wait_for_function(CHANGED, arg=old)


def send_and_wait(page, button) -> None:
    """Clicks a "Send here" button of The Builders and waits for the new view; a worker that brings
    nothing the site still needs asks first ("send anyway?"), and the question is answered yes."""
    old = page.evaluate("document.body.dataset.version")
    button.click()
    anyway = page.locator("#send-anyway")
    if anyway.count():
        anyway.click()
    page.wait_for_function(CHANGED, arg=old)


def pick(rng: random.Random, locator):
    return locator.nth(rng.randrange(locator.count()))


def play_kingdom_turn(page, rng: random.Random, stats: dict) -> None:
    """One whole turn of Kingdom Builder, by clicking: tiles when they glow (mostly), highlighted hexes,
    then "End turn"."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    for _ in range(40):
        if is_finished(page) or not page.evaluate("document.body.classList.contains('your-turn')"):
            return
        usable = page.locator(".tile-chip.usable")
        targets = page.locator("#kb-map .target")
        if usable.count() and rng.random() < 0.75:
            tile = pick(rng, usable)
            kind = tile.get_attribute("data-kind")
            tile.click()
            froms = page.locator("#kb-map .target-from")
            if froms.count():
                pick(rng, froms).click()
            tile_targets = page.locator("#kb-map .target-tile")
            assert tile_targets.count() > 0, (
                f"the {kind} tile glows but has no highlighted target: {page_state(page)} "
                + str(
                    page.locator("#kb-map .target, #kb-map .selected-from").evaluate_all(
                        "els => els.map(e => e.getAttribute('class') + ' ' + e.dataset.hex)"
                    )
                )
            )
            click_and_wait(page, pick(rng, tile_targets))
            stats["tiles"] = stats.get("tiles", 0) + 1
            stats.setdefault("kinds", set()).add(kind)
        elif targets.count():
            click_and_wait(page, targets.nth(choose_build(page, rng)))
            stats["builds"] = stats.get("builds", 0) + 1
        else:
            end = page.locator("#end-btn")
            if not end.is_enabled():
                # the view of the turn may still be drawing (a pass-and-play hand-over): wait for a
                # highlighted hex, a usable tile or the end button, then look again
                try:
                    page.wait_for_function(
                        "() => document.querySelector('#kb-map .target, .tile-chip.usable')"
                        " || !document.querySelector('#end-btn').disabled",
                        timeout=10000,
                    )
                except PlaywrightTimeout:
                    raise AssertionError(
                        "no highlighted hex, no usable tile and no way to end the turn: " + page_state(page)
                    ) from None
                continue
            click_and_wait(page, end)
            stats["turns"] = stats.get("turns", 0) + 1
            return
    raise AssertionError("a turn did not end after 40 clicks")


def neighbours(r: int, c: int) -> set[tuple[int, int]]:
    odd = r % 2
    return {(r - 1, c - 1 + odd), (r - 1, c + odd), (r, c - 1), (r, c + 1), (r + 1, c - 1 + odd), (r + 1, c + odd)}


def choose_build(page, rng: random.Random) -> int:
    """The index of a highlighted hex to build on: mostly one next to a location with tiles left (to
    get tiles to play with), else any."""
    hexes = page.locator("#kb-map .target").evaluate_all("els => els.map(e => [+e.dataset.r, +e.dataset.c])")
    locations = page.locator('#kb-map .location:not([data-count="0"])').evaluate_all(
        "els => els.map(e => [+e.dataset.r, +e.dataset.c])"
    )
    near = set()
    for r, c in locations:
        near |= neighbours(r, c)
    good = [i for i, (r, c) in enumerate(hexes) if (r, c) in near]
    if good and rng.random() < 0.8:
        return rng.choice(good)
    return rng.randrange(len(hexes))


def number(text: str) -> int:
    match = re.search(r"-?\d+", text or "")
    assert match, f"no number in {text!r}"
    return int(match.group())


def play_builders_turn(page, rng: random.Random, stats: dict) -> None:
    """One turn of The Builders, by clicking buttons and cards: send workers where they help, open a site
    or two, recruit, take coins, then end the turn."""
    for _ in range(60):
        if is_finished(page) or not page.evaluate("document.body.classList.contains('your-turn')"):
            return
        end = page.locator('#action-bar [data-action="end"]')
        if end.is_enabled():
            buy = page.locator('#action-bar [data-action="buy"]')
            coins = number(page.locator(".coins-left b").inner_text())
            if buy.is_enabled() and coins >= 12 and rng.random() < 0.5:
                click_and_wait(page, buy)
                stats["buys"] = stats.get("buys", 0) + 1
                continue
            click_and_wait(page, end)
            stats["turns"] = stats.get("turns", 0) + 1
            return
        coins = number(page.locator(".coins-left b").inner_text())
        sendable = page.locator("#my-crew .ma-card.sendable")
        sites = page.locator("#my-sites .ma-card.site").count()
        if sendable.count() and coins >= 3 and rng.random() < 0.85:
            pick(rng, sendable).click()
            send = page.locator("#my-sites button.send:not([disabled])")
            if send.count():
                # the price is on the button before the click
                assert send.first.locator(".price").inner_text().strip()
                send_and_wait(page, pick(rng, send))
                stats["sends"] = stats.get("sends", 0) + 1
                continue
            page.keyboard.press("Escape")
        opens = page.locator('#building-row button[data-action^="open"]:not([disabled])')
        recruits = page.locator('#worker-row button[data-action^="recruit"]:not([disabled])')
        crew = page.locator("#my-crew .ma-card").count()
        if sites < 2 and opens.count():
            click_and_wait(page, pick(rng, opens))
            stats["opens"] = stats.get("opens", 0) + 1
        elif crew < 5 and recruits.count() and coins >= 4:
            click_and_wait(page, pick(rng, recruits))
            stats["recruits"] = stats.get("recruits", 0) + 1
        else:
            for k in ("3", "2", "1"):
                button = page.locator(f'#action-bar [data-action="coins {k}"]')
                if button.is_enabled():
                    click_and_wait(page, button)
                    stats["coins"] = stats.get("coins", 0) + 1
                    break
            else:
                if opens.count():
                    click_and_wait(page, pick(rng, opens))
                elif recruits.count():
                    click_and_wait(page, pick(rng, recruits))
                else:
                    raise AssertionError("no action button is enabled while actions are left")
    raise AssertionError("a turn did not end after 60 clicks")


def play_to_end(page, play_turn, rng: random.Random, max_turns: int, on_turn=None) -> dict:
    """Play the page's seat with ``play_turn(page, rng, stats)`` until the game is over; ``on_turn(n)``
    is called after turn ``n`` (for screenshots). Returns the stats the turns collected."""
    stats: dict = {}
    turns = 0
    while not is_finished(page):
        wait_ready(page)
        if is_finished(page):
            break
        play_turn(page, rng, stats)
        turns += 1
        if on_turn:
            on_turn(turns)
        assert turns < max_turns, "the game did not end"
    return stats
