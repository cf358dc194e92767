"""The static files the server serves, without a browser."""

from __future__ import annotations

import json
import re
from urllib.parse import urljoin

from builders.middle_ages.cards import CARDS
from builders.web import INDEX_HTML, PLAY_HTML, REPLAY_HTML, STATIC_DIR
from tests.web.scripts import game_folders, game_script, installed, scripts


def test_pages_and_modules_exist():
    for page in (INDEX_HTML, PLAY_HTML, REPLAY_HTML):
        assert page.is_file()
        text = page.read_text()
        assert '<meta name="viewport"' in text
        for src in re.findall(r'(?:src|href)="/static/([^"]+)"', text):
            assert (STATIC_DIR / src).is_file(), f"{page.name} links a missing file {src}"


def test_every_module_import_resolves():
    """Every import of every script, shared or a game's, names a script the server serves (a game's files
    import the shared modules from ``/static/`` and each other by their own folder)."""
    served = scripts()
    imports = 0
    for url, module in served.items():
        for name in re.findall(r'^\s*(?:import|\}|.* from) "([^"]+)";', module.read_text(), flags=re.M):
            assert urljoin(url, name) in served, f"{url} imports {name}, which the server does not serve"
            imports += 1
    assert imports >= 30


def test_a_game_s_web_files_live_in_its_package():
    """Each game's web modules (table, guide, rules, lobby) and its stylesheet are files of its own web
    folder, named by the path the server serves them at; the shared folder holds none of them."""
    folders = game_folders()
    assert set(folders) >= {"kingdom", "middle-ages"}
    for p in installed():
        if p.web_dir is None:
            continue
        assert folders[p.name].parent.name == p.game.partition(":")[0].split(".")[1]
        assert p.web_style.endswith(".css"), p.name  # both games style their own parts
        for module in filter(None, (p.web_table, p.web_guide, p.web_rules, p.web_lobby, p.web_style)):
            folder, _, file = module.rpartition("/")
            assert folder == f"games/{p.name}" and (folders[p.name] / file).is_file(), (p.name, module)
            assert not (STATIC_DIR / file).exists(), f"{file} is in the shared folder too"


def test_card_table_matches_the_engine():
    text = game_script("ma_cards.js").read_text()
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
