"""What happens to a seat besides its moves, at the table, as the players see it (two people in two
browser contexts): a timeout, a resignation, a seat handed over and taken back are lines of the game
log after the move they followed, in the reader's language, and the banner says the latest while it
is news. With "notify me" chosen, the browser notifies a player whose tab is out of sight of a timeout,
a resignation, or their turn; the permission is asked for only by that click, never on a page's load.
Issue: running out of time was silent (a bot just played on), told at most by a passing toast."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.web.conftest import PHONE

# new Notification(...) calls recorded (the browser's own Notification still makes them); the page's
# visibility as the test sets it (window.__hide(true): another tab in front, the window minimised)
NOTES = """(() => {
  window.__notes = [];
  window.__asked = 0;
  const Real = window.Notification;
  let hidden = false;
  window.__hide = (on) => { hidden = on; document.dispatchEvent(new Event("visibilitychange")); };
  Object.defineProperty(Document.prototype, "hidden", { configurable: true, get: () => hidden });
  Object.defineProperty(Document.prototype, "visibilityState", { configurable: true,
    get: () => (hidden ? "hidden" : "visible") });
  window.Notification = class extends Real {
    constructor(title, options) {
      window.__notes.push({ title, body: (options || {}).body || "", tag: (options || {}).tag || "" });
      super(title, options);
    }
    static get permission() { return Real.permission; }
    static requestPermission() { window.__asked += 1; return Real.requestPermission(); }
  };
})();"""


def person(new_page, viewport=None, granted: bool = True):
    page = new_page(viewport) if viewport else new_page()
    if granted:
        page.context.grant_permissions(["notifications"])
    page.context.add_init_script(NOTES)
    return page


def create(api, names: list[str], **extra) -> tuple[str, list[str], list[str]]:
    """A Kingdom Builder game of people with seat links: its id, the links and the tokens."""
    made = api.post(
        "/api/games", json={"game": "kingdom", "seats": [{"type": "human", "name": n} for n in names], **extra}
    )
    assert made.status_code == 201, made.text
    made = made.json()
    return made["id"], [s["link"] for s in made["seats"]], [s["token"] for s in made["seats"]]


def act(api, gid: str, token: str) -> None:
    legal = api.get(f"/api/games/{gid}/state", headers={"X-Seat-Token": token}).json()["legal"]
    reply = api.post(
        f"/api/games/{gid}/actions",
        json={"action": next(a for a in legal if a != "end")},
        headers={"X-Seat-Token": token},
    )
    assert reply.status_code == 200, reply.text


def leave(api, gid: str, token: str, path: str = "resign", body: dict | None = None) -> None:
    reply = api.post(f"/api/games/{gid}/{path}", json=body, headers={"X-Seat-Token": token})
    assert reply.status_code == 200, reply.text


def opt_in(page) -> None:
    box = page.locator("#notify-away")
    expect(box).not_to_be_checked()
    box.check()
    expect(box).to_be_checked()
    expect(page.locator("#notify-btn")).to_have_text("Alerts: on")  # one choice: the top bar's follows


def notes(page) -> list[dict]:
    return page.evaluate("window.__notes")


def test_a_timeout_is_a_log_line_the_banner_and_a_notification_for_both_players(new_page, api, shots):
    gid, links, tokens = create(api, ["Ann", "Ben"], clock={"kind": "live", "total": 3, "bot": "medium"})
    ann, ben = person(new_page), person(new_page, PHONE)
    ann.goto(links[0])
    ben.goto(links[1])
    for page in (ann, ben):
        expect(page.locator("#log")).to_contain_text("No move yet.")
        opt_in(page)
        page.evaluate("window.__hide(true)")  # both look at another tab
    act(api, gid, tokens[0])  # Ann's first build starts her clock; she then lets it run out
    line = "Ann ran out of time: a bot (medium) plays on."
    for page in (ann, ben):
        event = page.locator('#log li.event-line[data-event="0"]')
        expect(event).to_have_text(line, timeout=15000)
        expect(event).to_have_attribute("data-kind", "timeout")
        # in the log after the move it followed: Ann's first build, then the timeout, then the bot's moves
        order = page.evaluate("""() => [...document.querySelectorAll('#log li')].slice(0, 2)
            .map((li) => li.classList.contains('event-line') ? 'event' : li.dataset.n)""")
        assert order == ["1", "event"], order
    # the bot played Ann's turn: it is Ben's, and his hidden tab says so, after the timeout
    ben.wait_for_function("() => window.__notes.some((n) => n.title === 'Your turn')", timeout=15000)
    ben_notes = notes(ben)
    assert ben_notes[0] == {"title": line, "body": "Kingdom Builder", "tag": f"{gid}:event:0"}, ben_notes
    assert {"title": "Your turn", "body": "Kingdom Builder: it is your turn.", "tag": gid} in ben_notes
    ann.wait_for_function("() => window.__notes.length > 0")
    assert notes(ann)[0]["title"] == line
    # back at the table, the banner still says it (news for a while)
    for page in (ann, ben):
        page.evaluate("window.__hide(false)")
        expect(page.locator("#turn-banner #event-news").first).to_contain_text("Ann ran out of time")
    shots(ann, "timeout-in-the-log")
    ben.locator("#log").evaluate("e => e.closest('.log-panel').scrollIntoView({block: 'center'})")
    shots(ben, "timeout-in-the-log-phone")


def test_resigning_handing_over_and_taking_back_are_log_lines_in_the_readers_language(new_page, api, shots):
    gid, links, tokens = create(api, ["Ann", "Ben", "Cy"])
    ann, ben = person(new_page), person(new_page)
    ann.goto(links[0])
    ben.goto(links[1].replace("#", "?lang=de#"))
    opt_in(ann)
    ben.locator("#notify-away").check()
    act(api, gid, tokens[0])
    leave(api, gid, tokens[1], body={"bot": "hard"})  # Ben hands his seat over (from another device)
    expect(ann.locator('#log li.event-line[data-event="0"]')).to_have_text("Ben handed the seat to a bot (hard).")
    expect(ben.locator('#log li.event-line[data-event="0"]')).to_have_text(
        "Ben hat den Platz einem Bot (schwer) übergeben."
    )
    leave(api, gid, tokens[1], "take-back")
    expect(ann.locator('#log li.event-line[data-event="1"]')).to_have_text("Ben took the seat back.")
    expect(ben.locator('#log li.event-line[data-event="1"]')).to_have_text("Ben hat den Platz zurückgenommen.")
    # Ann in sight: her page says it in the banner, and no notification
    expect(ann.locator("#event-news")).to_have_text("Ben took the seat back.")
    assert notes(ann) == []
    ben.evaluate("window.__hide(true)")
    leave(api, gid, tokens[0])  # Ann resigns; a game of three goes on, an easy bot plays her turns
    expect(ann.locator('#log li.event-line[data-event="2"]')).to_have_text(
        "Ann resigned; a bot (easy) plays their turns."
    )
    said = "Ann hat aufgegeben; ein Bot (leicht) spielt die weiteren Züge."
    expect(ben.locator('#log li.event-line[data-event="2"]')).to_have_text(said)
    ben.wait_for_function("() => window.__notes.length > 0")
    assert notes(ben)[0] == {"title": said, "body": "Kingdom Builder", "tag": f"{gid}:event:2"}
    # all three after Ann's first build, in the order they happened; the log goes on after them
    kinds = ann.evaluate("""() => [...document.querySelectorAll('#log li')].slice(0, 4)
        .map((li) => li.dataset.kind || li.dataset.n)""")
    assert kinds == ["1", "handed_over", "took_back", "resigned"], kinds
    assert notes(ann) == []  # in sight all along
    shots(ann, "events-in-the-log")


def test_notify_me_asks_the_browser_only_when_chosen_and_is_remembered(new_page, api):
    gid, links, tokens = create(api, ["Ann", "Ben"])
    page = person(new_page, granted=False)
    page.goto(links[1])
    expect(page.locator("#log")).to_contain_text("No move yet.")
    box = page.locator("#notify-away")
    expect(box).not_to_be_checked()  # off unless chosen
    assert page.evaluate("[window.__asked, Notification.permission]") == [0, "default"]  # nothing asked on load
    box.check()
    page.wait_for_function("() => window.__asked === 1")
    assert page.evaluate("localStorage.getItem('builders.notify')") == "1"
    page.reload()
    expect(page.locator("#notify-away")).to_be_checked()
    expect(page.locator("#notify-btn")).to_have_text("Alerts: on")
    assert page.evaluate("window.__asked") == 0  # (a new page) not asked again on load
    # without the browser's permission nothing is shown, hidden or not
    page.evaluate("window.__hide(true)")
    act(api, gid, tokens[0])
    expect(page.locator('#log li[data-n="1"]')).to_be_visible()
    leave(api, gid, tokens[0])
    expect(page.locator('#log li.event-line[data-event="0"]')).to_have_text("Ann resigned.")
    assert page.evaluate("window.__notes") == []
    # turned off from the top bar: the table's box follows
    page.evaluate("window.__hide(false)")
    page.locator("#notify-btn").click()
    expect(page.locator("#notify-away")).not_to_be_checked()
    assert page.evaluate("localStorage.getItem('builders.notify')") == "0"
