"""Helpers of the tests of the learning aids: games made through the API, opened in a page as a seat."""

from __future__ import annotations

import os
import shutil
import subprocess
import tarfile
import tempfile
from pathlib import Path

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
        rgb = [int(colour.lstrip("#")[i : i + 2], 16) / 255 for i in (0, 2, 4)]
        lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in rgb]
        return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]

    hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


# -- the accessibility scan ------------------------------------------------------------------------
AXE_VERSION = "4.10.2"  # axe-core, fetched from the npm registry on first use (not committed)
AXE_CACHE = Path(__file__).resolve().parents[2] / "out" / "cache" / f"axe-core-{AXE_VERSION}"


def axe_script() -> Path:
    """axe.min.js of axe-core, packed by npm from the npm registry into out/cache/ once."""
    target = AXE_CACHE / "package" / "axe.min.js"
    if target.is_file():
        return target
    npm = shutil.which("npm")
    if not npm:
        raise AssertionError("npm is needed once to fetch axe-core for the accessibility scan: apt-get install -y npm")
    AXE_CACHE.mkdir(parents=True, exist_ok=True)
    # several test workers may get here at once: each packs into its own folder, the last rename wins
    work = Path(tempfile.mkdtemp(dir=AXE_CACHE))
    subprocess.run(
        [npm, "pack", f"axe-core@{AXE_VERSION}", "--silent", "--pack-destination", str(work)],
        check=True,
        capture_output=True,
        timeout=300,
    )
    with tarfile.open(work / f"axe-core-{AXE_VERSION}.tgz") as tar:
        tar.extract("package/axe.min.js", work, filter="data")
    target.parent.mkdir(parents=True, exist_ok=True)
    os.replace(work / "package" / "axe.min.js", target)
    shutil.rmtree(work, ignore_errors=True)
    return target


def axe_violations(page, impacts=("serious", "critical")) -> list[str]:
    """The accessibility problems of the page as axe-core sees them, of the given impacts, in words."""
    # evaluated, not added as a script tag: the pages' Content-Security-Policy allows only their own scripts
    page.evaluate(axe_script().read_text() + "\n;undefined")
    found = page.evaluate("""async () => {
      const r = await axe.run(document, { resultTypes: ['violations'] });
      return r.violations.map(v => ({ id: v.id, impact: v.impact, help: v.help,
        nodes: v.nodes.slice(0, 3).map(n => n.target.join(' ')) }));
    }""")
    return [f"{v['impact']}: {v['id']} ({v['help']}) at {v['nodes']}" for v in found if v["impact"] in impacts]
