"""Helpers of the tests of the learning aids: games made through the API, opened in a page as a seat."""

from __future__ import annotations

from tests.web.conftest import DESKTOP
from tests.web.helpers import wait_ready


def create_game(api, game: str = "kingdom", bot: str = "easy", setup: dict | None = None) -> tuple[str, str]:
    """A game of a person (seat 0) against a bot; returns (game id, seat 0's token)."""
    body: dict = {"game": game, "seats": [{"type": "human", "name": "Ada"}, {"type": "bot", "level": bot}]}
    if setup is not None:
        body["setup"] = setup
    elif game == "kingdom":
        body["setup"] = {"mode": "first"}
    reply = api.post("/api/games", json=body)
    assert reply.status_code in (200, 201), reply.text
    made = reply.json()
    return made["id"], next(s["token"] for s in made["seats"] if s["seat"] == 0)


def open_seat(new_page, game_id: str, token: str, viewport=DESKTOP, ready: bool = True):
    page = new_page(viewport)
    page.goto(f"/play/{game_id}#seat=0&token={token}")
    if ready:
        wait_ready(page)
    return page


def play_game(new_page, api, game: str = "kingdom", viewport=DESKTOP, **kw):
    game_id, token = create_game(api, game, **kw)
    return open_seat(new_page, game_id, token, viewport), game_id, token


def state(api, game_id: str, token: str) -> dict:
    return api.get(f"/api/games/{game_id}/state", headers={"X-Seat-Token": token}).json()


def contrast(a: str, b: str) -> float:
    """The WCAG 2 contrast ratio of two #rrggbb colours."""

    def luminance(colour: str) -> float:
        rgb = [int(colour.lstrip("#")[i:i + 2], 16) / 255 for i in (0, 2, 4)]
        lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in rgb]
        return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]

    hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)
