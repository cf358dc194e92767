"""The static files the server serves, without a browser."""

from __future__ import annotations

import json
import re

from builders.middle_ages.cards import CARDS
from builders.web import INDEX_HTML, PLAY_HTML, REPLAY_HTML, STATIC_DIR


def test_pages_and_modules_exist():
    for page in (INDEX_HTML, PLAY_HTML, REPLAY_HTML):
        assert page.is_file()
        text = page.read_text()
        assert '<meta name="viewport"' in text
        for src in re.findall(r'(?:src|href)="/static/([^"]+)"', text):
            assert (STATIC_DIR / src).is_file(), f"{page.name} links a missing file {src}"


def test_every_module_import_resolves():
    for module in STATIC_DIR.glob("*.js"):
        for name in re.findall(r'from "\./([^"]+)"', module.read_text()):
            assert (STATIC_DIR / name).is_file(), f"{module.name} imports a missing module {name}"


def test_card_table_matches_the_engine():
    text = (STATIC_DIR / "ma_cards.js").read_text()
    rows = dict(re.findall(r"^  (\w+): (\{.*\}),$", text, flags=re.M))
    assert len(rows) == len(CARDS) == 84
    for card in CARDS:
        data = json.loads(rows[card.id])
        assert data["kind"] == card.kind
        assert data.get("cost", 0) == card.cost
        assert data.get("prod", [0, 0, 0, 0]) == list(card.production)
        assert data.get("req", [0, 0, 0, 0]) == list(card.requirement)
        assert data.get("coins", 0) == card.coins
        assert data.get("vp", 0) == card.vp
        assert data.get("name", "") == card.english
