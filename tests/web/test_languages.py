"""The web client in German and in French, in a real browser: the lobby, the rules and the first-game
walkthrough of Kingdom Builder, a game of The Builders against a bot to its end, chat and the game-over
screen. On every screen no text left is English (no text node, tooltip or accessible name reads as a value
of the English catalogue, nor holds English function words), and on a phone (375x812) no button, heading
or chip is cut off and the page does not scroll sideways. The language comes from ``?lang=`` (kept in the
``lang`` cookie for the next pages), from the cookie, or from the browser's languages; the switcher of
the top bar changes it. Screenshots go to out/web/i18n/ (docs/images/ with BUILDERS_DOCS_SHOTS=1)."""

from __future__ import annotations

import json
import os
import random
import re
import time
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest

from builders.web import STATIC_DIR
from tests.web.conftest import DESKTOP, PHONE
from tests.web.helpers import (
    click_and_wait,
    play_builders_turn,
    play_kingdom_turn,
    send_and_wait,
    wait_ready,
)

ROOT = Path(__file__).resolve().parents[2]
# the screenshots of docs/i18n.md are made with BUILDERS_DOCS_SHOTS=1; other runs keep theirs in out/web/
DOCS_IMAGES = ROOT / "docs" / "images" if os.environ.get("BUILDERS_DOCS_SHOTS") else ROOT / "out" / "web" / "i18n"
CATALOGUES = {
    code: json.loads((STATIC_DIR / "i18n" / f"{code}.json").read_text(encoding="utf-8")) for code in ("en", "de", "fr")
}

# Text on screen that is not the client's to translate: what people typed (names, chat), ids of cards.
NOT_OURS = [
    "#chat-log .chat-text",
    "#chat-log b",
    ".player-name",
    "#account-name",
    ".ma-id",
    ".worker-tag",
    "#lang-select",
]

# Text nodes, tooltips and accessible names of everything visible (elements of NOT_OURS left out).
SCREEN_TEXT = """skip => {
  const out = [];
  const hidden = (el) => !el || !el.getClientRects().length || getComputedStyle(el).visibility === 'hidden';
  const skipped = (el) => skip.some(sel => el.closest(sel));
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    const text = node.textContent.trim();
    if (!text || !el || ['SCRIPT', 'STYLE', 'NOSCRIPT'].includes(el.tagName) || skipped(el)) continue;
    if (hidden(el) && !el.closest('.sr-only, #announcer, svg')) continue;
    out.push(text);
  }
  for (const el of document.querySelectorAll('[title], [aria-label], [placeholder]')) {
    if (skipped(el) || hidden(el)) continue;
    for (const attr of ['title', 'aria-label', 'placeholder']) if (el.getAttribute(attr)) out.push(el.getAttribute(attr).trim());
  }
  for (const t of document.querySelectorAll('svg title')) if (!skipped(t)) out.push(t.textContent.trim());
  for (const o of document.querySelectorAll('select option')) if (!skipped(o) && !hidden(o.parentElement)) out.push(o.textContent.trim());
  out.push(document.title);
  return out;
}"""

# Buttons, headings and chips whose text does not fit in them (the text's extent, so that a badge drawn on
# a corner is not taken for text), and whether the page scrolls sideways.
CUT_OFF = """() => {
  const cut = [];
  const sel = 'button, .btn, h1, h2, h3, h4, summary, .seat-chip, .tile-chip, .pill, .game-title, .turn-banner, label, select';
  for (const el of document.querySelectorAll(sel)) {
    if (!el.getClientRects().length || getComputedStyle(el).visibility === 'hidden' || el.closest('.map-box')) continue;
    const box = el.getBoundingClientRect();
    const range = document.createRange();
    range.selectNodeContents(el);
    const text = range.getBoundingClientRect();
    const wider = el.tagName === 'SELECT' ? el.scrollWidth > el.clientWidth + 1 : text.width > 0 && (text.right > box.right + 1 || text.left < box.left - 1);
    if (wider) cut.push(`${el.tagName.toLowerCase()}#${el.id}.${el.className}: "${el.textContent.trim().slice(0, 60)}" ${Math.round(text.width)}>${Math.round(box.width)}`);
  }
  const wide = document.documentElement.scrollWidth > window.innerWidth + 1;
  return {cut, wide, width: document.documentElement.scrollWidth};
}"""

ENGLISH_WORDS = re.compile(
    r"\b(the|your|you|with|and|of|is|are|to|turn|game|card|cards|settlement|settlements|tiles?|build|player|workers?|coins?)\b",
    re.I,
)


def english_patterns(code: str) -> list[re.Pattern]:
    """A pattern for every English catalogue text that differs from the language's own: placeholders match
    anything; texts that are only placeholders, or that the language writes the same way, are left out."""
    english, other = CATALOGUES["en"], CATALOGUES[code]
    theirs = {
        text.strip() for value in other.values() for text in (value.values() if isinstance(value, dict) else [value])
    }
    patterns = []
    for key, value in english.items():
        for text in value.values() if isinstance(value, dict) else [value]:
            text = text.strip()
            bare = re.sub(r"\{\w+\}", "", text)
            if text in theirs or not re.search(r"[A-Za-z]{3,}", bare):
                continue
            parts = re.split(r"\{\w+\}", text)
            patterns.append(re.compile("^" + ".+?".join(re.escape(p) for p in parts) + "$", re.S))
    return patterns


PATTERNS = {code: english_patterns(code) for code in ("de", "fr")}


def english_left(page, code: str) -> list[str]:
    """The texts on screen that read as English."""
    found = []
    for text in page.evaluate(SCREEN_TEXT, NOT_OURS):
        if any(p.match(text) for p in PATTERNS[code]) or ENGLISH_WORDS.search(text.replace("The Builders", "")):
            found.append(text)
    return sorted(set(found))


def check(page, code: str, where: str, phone: bool = False) -> None:
    """Everything on screen is in ``code``; on a phone, nothing is cut off."""
    assert page.evaluate("document.documentElement.lang") == code
    left = english_left(page, code)
    assert not left, f"{where}: English on the {code} page: {left}"
    if phone:
        result = page.evaluate(CUT_OFF)
        assert not result["cut"], f"{where}: cut off at 375 px: {result['cut']}"
        assert not result["wide"], f"{where}: the page is {result['width']} px wide at 375 px"


def shot(page, name: str, full_page: bool = False) -> None:
    DOCS_IMAGES.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(DOCS_IMAGES / f"{name}.png"), full_page=full_page)


def guide_title(page, code: str, key: str) -> None:
    """Wait for the guide's step titled by catalogue ``key`` in ``code``."""
    want = CATALOGUES[code][key]
    page.wait_for_function(
        "t => (document.querySelector('#guide-title') || {}).textContent === t", arg=want, timeout=30_000
    )


def start_guided(page, code: str, game: str):
    """From the rules page in ``code`` (chosen by ?lang=), a first game with the guide."""
    page.goto(f"/static/rules.html?lang={code}")
    page.wait_for_function("() => document.body.dataset.ready === '1'")
    page.locator(f"#guide-{game}").click()
    page.wait_for_url("**/play/**")
    wait_ready(page)
    return page


def finish_by_api(page, rng: random.Random) -> None:
    """Play the page's seat on with legal actions chosen at random, through the HTTP API as the page's
    browser (its seat token, or its session's cookie and CSRF token), the bot playing the other seat, until
    the game is over; then wait for the page to show the end. The browser's turns are the game's first."""
    http = page.context.request  # shares the page's cookies
    url = urlsplit(page.url)
    game_id = url.path.rsplit("/", 1)[1]
    token = parse_qs(url.fragment).get("token")
    headers = {"X-Seat-Token": token[0]} if token else {"X-CSRF-Token": http.get("/api/session").json()["csrf"]}
    deadline = time.monotonic() + 180
    while True:
        view = http.get(f"/api/games/{game_id}/state", headers=headers).json()
        if view["status"] == "finished":
            break
        assert time.monotonic() < deadline, "the game did not end"
        if view["to_move"] == view["seat"] and view["legal"]:
            body = {"action": rng.choice(view["legal"]), "version": view["version"]}
            reply = http.post(f"/api/games/{game_id}/actions", headers=headers, data=body)
            assert reply.status == 200, reply.text()
        else:
            time.sleep(0.02)
    page.wait_for_function("() => document.body.dataset.status === 'finished'")


def test_the_patterns_catch_english_and_pass_translations():
    """The check is not blind: English text of the catalogue is found, its translations are not."""
    for code in ("de", "fr"):
        patterns = PATTERNS[code]
        for text in [
            "Start the game",
            "Your turn: build on canyon (1 of 3 built).",
            "Hint: build on grass 3,4 · win chance 40%",
        ]:
            assert any(p.match(text) for p in patterns), (code, text)
        mine = CATALOGUES[code]
        for text in [mine["lobby.start"], mine["kb.banner.use_tile"], mine["guide.kb.welcome"]]:
            assert not any(p.match(text) for p in patterns) and not ENGLISH_WORDS.search(text), (code, text)


@pytest.mark.parametrize("code", ["de", "fr"])
def test_lobby_rules_and_account_pages_in_the_language(new_page, code):
    page = new_page(PHONE)
    page.goto(f"/?lang={code}")
    page.locator("#open-games li").first.wait_for()
    page.wait_for_function("() => !document.querySelector('#finished-games').textContent.includes('…')")
    assert page.locator("#start").inner_text() == CATALOGUES[code]["lobby.start"]
    assert page.locator("#lang-select").input_value() == code
    check(page, code, "lobby", phone=True)
    shot(page, f"i18n-{code}-lobby-phone", full_page=True)
    # the cookie keeps the language for the next pages, without ?lang=
    cookie = next(c for c in page.context.cookies() if c["name"] == "lang")
    assert cookie["value"] == code and cookie["sameSite"] == "Lax" and cookie["expires"] > 0
    page.locator("#learn-link").click()
    page.wait_for_url("**/static/rules.html")
    page.wait_for_function("() => document.body.dataset.ready === '1'")
    assert page.locator("#kb-tile-paddock h3").inner_text().startswith(CATALOGUES[code]["kb.tile.paddock"])
    assert page.locator("#kb-card-lords h3").inner_text().startswith(CATALOGUES[code]["kb.card.lords"])
    check(page, code, "rules", phone=True)
    if code == "fr":
        shot(page, "i18n-fr-rules-phone")
    page.goto("/account")
    page.locator("#status-text").wait_for()
    page.wait_for_function(
        "t => document.querySelector('#status-text').textContent !== t", arg=CATALOGUES[code]["common.loading"]
    )
    check(page, code, "account", phone=True)
    # sign up in the language, then the player's page with its ratings and results
    name = f"{code}_{random.randrange(10**6):06d}"
    page.locator("#signup-name").fill(name)
    page.locator("#signup-password").fill("a long enough password")
    page.locator("#signup-btn").click()
    page.wait_for_function(
        "t => document.querySelector('#status-text').textContent === t",
        arg=CATALOGUES[code]["account.status.named"].format(name=name),
    )
    page.locator(".toast", has_text=CATALOGUES[code]["account.welcome"].format(name=name)).wait_for()
    check(page, code, "signed up", phone=True)
    page.goto(f"/players/{name}")
    page.locator("#games-played").wait_for()
    assert page.locator("#profile-stats dt").all_inner_texts()[:2] == [
        CATALOGUES[code]["profile.games_played"],
        CATALOGUES[code]["profile.win_rate"],
    ]
    assert page.locator("#rating-plot").inner_text().strip() == CATALOGUES[code]["lobby.no_rated"]
    check(page, code, "player's page", phone=True)


def test_the_browser_language_and_the_switcher(browser, server):
    """With no cookie the browser's languages choose; the switcher changes the language and keeps it."""
    context = browser.new_context(viewport=DESKTOP, base_url=server.url, locale="de-AT")
    try:
        page = context.new_page()
        page.goto("/")
        page.locator("#lang-select").wait_for()  # the catalogue is loaded and the page translated
        assert page.evaluate("document.documentElement.lang") == "de"
        assert page.locator("#new-game-title").inner_text() == CATALOGUES["de"]["lobby.new_game"]
        with page.expect_navigation():
            page.locator("#lang-select").select_option("fr")
        page.locator("#lang-select").wait_for()
        assert page.evaluate("document.documentElement.lang") == "fr"
        assert page.locator("#new-game-title").inner_text() == CATALOGUES["fr"]["lobby.new_game"]
        assert {c["name"]: c["value"] for c in context.cookies()}["lang"] == "fr"
        page.goto("/static/rules.html")
        page.locator("#lang-select").wait_for()
        assert page.evaluate("document.documentElement.lang") == "fr"
        with page.expect_navigation():
            page.locator("#lang-select").select_option("en")
        page.wait_for_function("() => document.body.dataset.ready === '1'")
        assert page.locator("#guide-kingdom").inner_text() == CATALOGUES["en"]["rules.guide_kingdom"]
        # a language the client does not have falls back to English; a forged cookie changes nothing
        context.add_cookies([{"name": "lang", "value": "xx<script>", "url": server.url}])
        page.goto("/?lang=zz")
        page.locator("#lang-select").wait_for()
        assert page.evaluate("document.documentElement.lang") in ("de", "en")
        assert (
            page.locator("#new-game-title").inner_text()
            == CATALOGUES[page.evaluate("document.documentElement.lang")]["lobby.new_game"]
        )
    finally:
        context.close()


@pytest.mark.parametrize("code", ["de", "fr"])
def test_kingdom_builder_first_game_with_the_walkthrough(new_page, code):
    cat = CATALOGUES[code]
    page = start_guided(new_page(PHONE), code, "kingdom")
    guide_title(page, code, "guide.kb.welcome.title")
    assert page.locator("#guide .guide-step").inner_text() == cat["guide.step"].format(n=1, of=8)
    check(page, code, "walkthrough: welcome", phone=True)
    if code == "de":
        shot(page, "i18n-de-walkthrough-phone")
    page.locator("#guide-next").click()
    guide_title(page, code, "guide.kb.card.title")
    terrain = page.locator("#my-card .terrain-card").get_attribute("data-terrain")
    assert cat[f"kb.terrain_in.{terrain}"] in page.locator("#guide-text").inner_text()
    assert page.locator("#my-card .terrain-card").inner_text().strip() == cat[f"kb.terrain.{terrain}"]
    page.locator("#guide-next").click()
    guide_title(page, code, "guide.kb.build.title")
    check(page, code, "walkthrough: build", phone=True)
    click_and_wait(page, page.locator("#kb-map .target").first)
    guide_title(page, code, "guide.kb.next.title")
    for _ in range(2):
        click_and_wait(page, page.locator("#kb-map .target").first)
    guide_title(page, code, "guide.kb.tiles.title")
    check(page, code, "walkthrough: three builds", phone=True)
    page.locator("#guide-next").click()
    guide_title(page, code, "guide.kb.end.title")
    click_and_wait(page, page.locator("#end-btn"))
    wait_ready(page)
    guide_title(page, code, "guide.kb.use.title")
    # the log tells the bot's turn in the language: its builds and the end of its turn
    lines = page.locator("#log li").all_inner_texts()
    assert any(cat["kb.log.ended"] in line for line in lines), lines
    check(page, code, "walkthrough: second turn, log", phone=True)
    page.locator("#legend summary").click()
    check(page, code, "walkthrough: legend", phone=True)
    if code == "fr":
        shot(page, "i18n-fr-kingdom-phone-legend")
    # a hex's accessible name and a target's are in the language too
    label = page.locator("#kb-map .target").first.get_attribute("aria-label")
    assert label.endswith(cat["kb.target.legal"].replace("{what}", "").strip()), label


@pytest.mark.parametrize("code", ["de", "fr"])
def test_builders_game_against_a_bot_to_the_end(new_page, api, code):
    """A whole game of The Builders in the language: the guide, the first turns by clicking (the rest through
    the API), the log, the final score and the game-over line; the phone layout of the table checked on the
    way."""
    cat = CATALOGUES[code]
    page = start_guided(new_page(DESKTOP), code, "middle-ages")
    guide_title(page, code, "guide.ma.welcome.title")
    page.locator("#guide-next").click()
    guide_title(page, code, "guide.ma.open.title")
    check(page, code, "builders: first turn")
    click_and_wait(page, page.locator('#building-row button[data-action^="open"]').first)
    worker = page.locator("#my-crew .ma-card.sendable").first.get_attribute("data-worker")
    page.locator("#my-crew .ma-card.sendable").first.click()
    assert page.locator("#my-sites button.send .act-label").first.inner_text() == cat["ma.send_here"].format(
        worker=worker
    )
    check(page, code, "builders: a worker chosen")
    if code == "fr":
        shot(page, "i18n-fr-builders-desktop")
    send_and_wait(page, page.locator("#my-sites button.send").first)
    page.locator("#guide-skip").click()
    page.set_viewport_size(PHONE)
    check(page, code, "builders: phone", phone=True)
    if code == "de":
        shot(page, "i18n-de-builders-phone")
    page.set_viewport_size(DESKTOP)
    rng = random.Random(7)
    for _ in range(2):  # turns by clicking in the language, then the rest of the game through the API
        wait_ready(page)
        play_builders_turn(page, rng, {})
    finish_by_api(page, rng)
    page.locator("#final-scores").wait_for()
    assert page.locator("#final-scores h3").inner_text() == cat["score.final"]
    assert page.locator("#game-over-line").inner_text().startswith(cat["common.game_over"])
    lines = page.locator("#log li").all_inner_texts()
    assert any(cat["kb.log.ended"] in line for line in lines), lines[-5:]
    check(page, code, "builders: game over")
    shot(page, f"i18n-{code}-builders-game-over")
    page.set_viewport_size(PHONE)
    check(page, code, "builders: game over on a phone", phone=True)
    # the replay tells the game again in the language, with the offer of an analysis
    page.locator("#replay-link").click()
    page.wait_for_url("**/replay/**")
    page.locator("#analyse-btn").wait_for()
    page.wait_for_function("t => document.querySelector('#step-text').textContent === t", arg=cat["replay.start"])
    page.locator("#next").click()
    page.wait_for_function("() => document.body.dataset.step === '1'")
    check(page, code, "replay on a phone", phone=True)


def test_two_accounts_chat_and_resign_in_german_and_french(new_page, api, browser, server):
    """Two people with their own language at one table: the German creator invites a French friend by link;
    they chat (the messages stay as typed), the German hands over to a bot; both screens stay in their
    language."""
    de = new_page(DESKTOP)
    de.goto("/?lang=de")
    de.locator("#seat-1").select_option("friend")
    de.locator('.game-option[data-game="kingdom"]').click()
    de.locator("#start").click()
    de.locator("#invite-dialog").wait_for()
    check(de, "de", "invite dialog")
    link = de.locator("#invite-dialog .link-input").first.input_value()
    de.locator("#go-to-table").click()
    de.wait_for_url("**/play/**")
    fr = new_page(PHONE)
    fr.goto(f"{link.split('#')[0]}?lang=fr#{link.split('#')[1]}")
    fr.locator("#seat-chip").wait_for()
    expected_fr = CATALOGUES["fr"]["play.you_chip"].format(colour=CATALOGUES["fr"]["colour.blue"])
    fr.wait_for_function("t => document.querySelector('#seat-chip').textContent === t", arg=expected_fr)
    fr.locator("#chat-toggle").click()  # on a phone the chat opens over the table from its button
    fr.locator("#chat-input").fill("Bonjour, on y va ?")
    fr.locator("#chat-send").click()
    de.locator("#chat-log li .chat-text", has_text="Bonjour").wait_for()
    de.locator("#chat-input").fill("Viel Glück!")
    de.locator("#chat-send").click()
    fr.locator("#chat-log li .chat-text", has_text="Viel Glück").wait_for()
    wait_ready(de)
    check(de, "de", "table with chat")
    check(fr, "fr", "table with chat on a phone", phone=True)
    # the German hands the seat over to a bot: the dialog, the toast and the chip in German
    de.locator("#handover-btn").click()
    de.locator("#bot-dialog").wait_for()
    check(de, "de", "hand-over dialog")
    de.locator('#bot-dialog input[value="easy"]').check()
    de.locator("#bot-confirm").click()
    de.wait_for_function(
        "t => document.querySelector('#seat-chip').textContent === t",
        arg=CATALOGUES["de"]["play.handed_chip"].format(
            colour=CATALOGUES["de"]["colour.red"], level=CATALOGUES["de"]["bot.level.easy"]
        ),
    )
    de.locator(
        ".toast", has_text=CATALOGUES["de"]["bot.handed.easy"].format(colour=CATALOGUES["de"]["colour.red"])
    ).wait_for()
    check(de, "de", "after the hand-over")


def test_kingdom_builder_to_the_end_in_german(new_page, api):
    """A whole game of Kingdom Builder in German: the first turns by clicking (the rest through the API), then
    the final score with the cards' German names, every hidden card shown, the game-over line; desktop and
    phone."""
    cat = CATALOGUES["de"]
    body = {
        "game": "kingdom",
        "seats": [{"type": "human"}, {"type": "bot", "level": "easy"}],
        "setup": {"mode": "first"},
    }
    made = api.post("/api/games", json=body).json()
    token = next(s["token"] for s in made["seats"] if s["seat"] == 0)
    page = new_page(DESKTOP)
    page.goto(f"/play/{made['id']}?lang=de#seat=0&token={token}")
    wait_ready(page)
    check(page, "de", "kingdom: first turn")
    rng = random.Random(3)
    for _ in range(2):  # turns by clicking in German, then the rest of the game through the API
        wait_ready(page)
        play_kingdom_turn(page, rng, {})
    finish_by_api(page, rng)
    page.locator("#final-scores").wait_for()
    names = [n.strip() for n in page.locator("#final-scores .card-name b").all_inner_texts()]
    assert names == [cat[f"kb.card.{c}"] for c in ("castles", "fishermen", "merchants", "knights")]
    assert page.locator("#game-over-line").inner_text().startswith(cat["common.game_over"])
    page.locator(".their-terrain").first.wait_for()
    check(page, "de", "kingdom: game over")
    shot(page, "i18n-de-kingdom-game-over")
    page.set_viewport_size(PHONE)
    check(page, "de", "kingdom: game over on a phone", phone=True)


@pytest.mark.parametrize("game", ["kingdom", "middle-ages"])
def test_a_hint_in_french(new_page, api, game):
    """The hint button, the move in words and the hard bot's plan, in French, for both games."""
    cat = CATALOGUES["fr"]
    made = api.post(
        "/api/games",
        json={
            "game": game,
            "hints": True,
            "setup": {"seed": 21},
            "seats": [{"type": "human"}, {"type": "bot", "level": "easy"}],
        },
    ).json()
    link = made["seats"][0]["link"]
    page = new_page(PHONE)
    page.goto(link.replace("#", "?lang=fr#", 1))
    wait_ready(page)
    assert page.locator("#hint-btn").inner_text() == cat["hint.button"]
    page.locator("#hint-btn").click()
    page.wait_for_selector("#hint-text")
    text = page.locator("#hint-text").inner_text()
    assert text.startswith(cat["hint.text"].split("{move}")[0]), text
    assert cat["hint.text"].split("{chance}")[0].split("{move}")[1] in text, text
    check(page, "fr", f"hint in {game}", phone=True)


@pytest.mark.parametrize(
    ("code", "text", "said"),
    [
        ("en", "ended the turn; seat 1 plays grass", "Red ended the turn; Blue plays grass"),
        ("de", "hat den Zug beendet; Platz 1 spielt Gras", "Rot hat den Zug beendet; Blau spielt Gras"),
        ("fr", "a fini son tour ; la place 1 joue prairie", "Rouge a fini son tour ; Bleu joue prairie"),
    ],
)
def test_a_log_line_of_the_server_names_a_seat_by_its_colour_in_each_language(new_page, code, text, said):
    """The table's catch-all for a line it does not write itself (logText): the server's "seat 1" in the
    page's language becomes the seat's colour; a number that is not a seat's stays."""
    page = new_page()
    page.goto(f"/?lang={code}")
    page.locator("#lang-select").wait_for()
    view = {"seats": [{"seat": 0, "type": "human"}, {"seat": 1, "type": "human"}]}
    line = page.evaluate(
        """async ([view, text]) => (await import('/static/api.js')).logText(view, {seat: 0, text})""", [view, text]
    )
    assert line == said
    kept = page.evaluate(
        """async (view) => (await import('/static/api.js')).logText(view, {seat: 0, text: 'Platz 12, seat 7'})""", view
    )
    assert kept == f"{CATALOGUES[code]['colour.red']} Platz 12, seat 7"
