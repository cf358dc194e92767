"""Chat that gets noticed, as two players at one table see it: messages that come while the chat is
out of sight are counted on its heading, its button and in the tab title until read; an optional
sound (off unless chosen, remembered); a player's messages muted (not shown, not counted) and
unmuted; on a phone the chat's button stays on screen and opens the chat over the table without
moving the board. Issue: "new messages land off screen"."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.web.conftest import PHONE
from tests.web.test_leaving import new_pair

# counts the notes played through WebAudio (the chat's sound is made there: no file is fetched)
COUNT_NOTES = """(() => {
  window.__notes = 0;
  const make = AudioContext.prototype.createOscillator;
  AudioContext.prototype.createOscillator = function () { window.__notes += 1; return make.call(this); };
})();"""

HIDE = """() => { Object.defineProperty(document, 'visibilityState', {value: 'hidden', configurable: true});
  document.dispatchEvent(new Event('visibilitychange')); }"""
SHOW = """() => { Object.defineProperty(document, 'visibilityState', {value: 'visible', configurable: true});
  document.dispatchEvent(new Event('visibilitychange')); }"""


def say(page, text: str) -> None:
    page.locator("#chat-input").fill(text)
    page.locator("#chat-send").click()
    expect(page.locator("#chat-input")).to_have_value("")


def seated(new_page, api, viewport=None):
    """Ann (Red) on a desktop and Ben (Blue) at one table of The Builders, each by a seat link."""
    gid, links = new_pair(api)
    ann, ben = new_page(), new_page(viewport) if viewport else new_page()
    ben.context.add_init_script(COUNT_NOTES)
    ann.goto(links[0])
    ben.goto(links[1])
    for page in (ann, ben):
        expect(page.locator("#conn")).to_have_attribute("data-status", "live")
    return gid, ann, ben


def test_unread_messages_are_counted_until_the_chat_is_seen(new_page, api, shots):
    gid, ann, ben = seated(new_page, api)
    unread, badge = ben.locator("#chat-unread"), ben.locator("#chat-toggle-count")
    # Ben folds the chat away: Ann's messages are counted on its heading, its button and the title
    ben.locator("#chat-fold").click()
    expect(ben.locator("#chat-fold")).to_have_attribute("aria-expanded", "false")
    # on a wide screen the floating button waits for a message: it covers nothing for nothing
    expect(ben.locator("#chat-toggle")).to_be_hidden()
    say(ann, "hello Ben")
    expect(ben.locator("#chat-toggle")).to_be_visible()
    expect(unread).to_have_text("1")
    expect(badge).to_have_text("1")
    say(ann, "your move")
    expect(unread).to_have_text("2")
    expect(unread).to_have_attribute("aria-label", "2 unread messages")
    ben.wait_for_function("() => document.title.startsWith('(2) ')")
    shots(ben, "two-unread")
    # Ann's own page counts nothing of her own
    expect(ann.locator("#chat-unread")).to_be_hidden()
    assert not ann.title().startswith("(")
    # the chat's button brings it back: read, the counts go
    ben.locator("#chat-toggle").click()
    expect(ben.locator("#chat-body")).to_be_visible()
    expect(ben.locator("#chat-input")).to_be_focused()
    expect(unread).to_be_hidden()
    expect(badge).to_be_hidden()
    ben.wait_for_function("() => !document.title.startsWith('(')")
    expect(ben.locator("#chat-log li .chat-text")).to_have_text(["hello Ben", "your move"])

    # the page hidden (another tab in front): a message is unread even with the chat in view
    ben.evaluate(HIDE)
    say(ann, "still there?")
    ben.wait_for_function("() => document.title.startsWith('(1) ')")
    ben.evaluate(SHOW)
    ben.wait_for_function("() => !document.title.startsWith('(')")
    expect(unread).to_be_hidden()

    # no sound unless chosen; chosen, it is remembered and each message of the others plays it
    assert ben.evaluate("window.__notes") == 0
    assert not ben.locator("#chat-sound").is_checked()
    ben.locator("#chat-sound").check()
    ben.reload()
    expect(ben.locator("#chat-sound")).to_be_checked()
    expect(ben.locator("#conn")).to_have_attribute("data-status", "live")
    say(ann, "ping")
    ben.wait_for_function("() => document.body.dataset.chatSounds === '1'")
    assert ben.evaluate("window.__notes") == 2  # two short notes, made by WebAudio
    say(ben, "pong")  # his own message makes no sound
    expect(ann.locator("#chat-log li .chat-text").last).to_have_text("pong")
    ben.wait_for_timeout(300)
    assert ben.evaluate("document.body.dataset.chatSounds") == "1"


def test_a_muted_player_is_hidden_and_not_counted_until_unmuted(new_page, api, shots):
    gid, ann, ben = seated(new_page, api)
    say(ann, "first words")
    line = ben.locator("#chat-log li", has_text="first words")
    expect(line).to_be_visible()
    author = line.get_attribute("data-author")
    assert author == "Red"
    # Ann sees no mute button on her own line
    expect(ann.locator("#chat-log li .chat-mute")).to_have_count(0)
    line.locator(".chat-mute").click()
    expect(line).to_be_hidden()
    expect(ben.locator("#chat-muted")).to_contain_text("Muted:")
    unmute = ben.locator(f'#chat-muted .chat-unmute[data-author="{author}"]')
    expect(unmute).to_have_text(f"Unmute {author}")
    # muted messages are neither shown nor counted, also after a reload (kept in this browser)
    ben.reload()
    expect(ben.locator("#conn")).to_have_attribute("data-status", "live")
    ben.locator("#chat-fold").click()
    say(ann, "second words")
    arrived = ben.locator("#chat-log li", has_text="second words")
    expect(arrived).to_have_count(1)  # it came, and stays hidden
    expect(arrived).to_be_hidden()
    expect(ben.locator("#chat-unread")).to_be_hidden()
    assert not ben.title().startswith("(")
    ben.locator("#chat-fold").click()
    expect(ben.locator("#chat-log li", has_text="second words")).to_be_hidden()
    shots(ben, "muted")
    # unmuted: every message of Ann's shows again
    ben.locator(f'#chat-muted .chat-unmute[data-author="{author}"]').click()
    expect(ben.locator("#chat-log li", has_text="first words")).to_be_visible()
    expect(ben.locator("#chat-log li", has_text="second words")).to_be_visible()
    expect(ben.locator("#chat-muted")).to_be_hidden()


def test_muting_a_seat_mutes_it_in_that_game_only(new_page, api):
    """A guest on a seat link is known by the seat's colour: muting "Red" of one game leaves the Red
    of another game (another person) heard."""
    gid, ann, ben = seated(new_page, api)
    say(ann, "rude words")
    ben.locator("#chat-log li", has_text="rude words").locator(".chat-mute").click()
    expect(ben.locator("#chat-log li", has_text="rude words")).to_be_hidden()
    # a second game, Ben in the same browser (where his mutes are kept), a stranger in Red
    gid2, links = new_pair(api)
    ann2, ben2 = new_page(), ben.context.new_page()
    ann2.goto(links[0])
    ben2.goto(links[1])
    for page in (ann2, ben2):
        expect(page.locator("#conn")).to_have_attribute("data-status", "live")
    assert gid2 != gid
    say(ann2, "kind words")
    line = ben2.locator("#chat-log li", has_text="kind words")
    expect(line).to_be_visible()
    assert line.get_attribute("data-author") == "Red"
    expect(ben2.locator("#chat-muted")).to_be_hidden()


def test_on_a_phone_the_chat_button_stays_and_the_chat_opens_over_the_table(new_page, api, shots):
    gid, ann, ben = seated(new_page, api, PHONE)
    toggle = ben.locator("#chat-toggle")
    expect(toggle).to_be_visible()
    expect(ben.locator("#chat-panel")).to_be_hidden()
    # the button stays on screen wherever the page is scrolled
    for y in (0, 600, 10_000):
        ben.evaluate(f"window.scrollTo(0, {y})")
        box = toggle.bounding_box()
        assert box and box["y"] + box["height"] <= PHONE["height"] and box["x"] + box["width"] <= PHONE["width"], box
        assert box["height"] >= 40
    ben.evaluate("window.scrollTo(0, 0)")
    say(ann, "hi from the desktop")
    expect(ben.locator("#chat-toggle-count")).to_have_text("1")
    ben.wait_for_function("() => document.title.startsWith('(1) ')")
    shots(ben, "phone-unread")
    board = ben.locator("#table > *").first
    before = board.bounding_box()
    toggle.click()
    panel = ben.locator("#chat-panel")
    expect(panel).to_be_visible()
    box = panel.bounding_box()
    assert box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"] and box["width"] <= PHONE["width"], box
    assert board.bounding_box() == before  # over the table: the board did not move
    expect(ben.locator("#chat-toggle-count")).to_be_hidden()
    ben.wait_for_function("() => !document.title.startsWith('(')")
    shots(ben, "phone-chat-open")
    say(ben, "hi from the phone")
    expect(ann.locator("#chat-log li .chat-text").last).to_have_text("hi from the phone")
    toggle.click()
    expect(panel).to_be_hidden()
