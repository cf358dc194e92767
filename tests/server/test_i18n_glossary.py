"""One word for one thing: the game words and the words of the table that the server's catalogues and the
web client's share are the same in each language (docs/i18n.md, Glossary). A seat is "Platz" in German and
"place" in French on the page and in the server's refusals and log alike; a terrain or a tile is the
client's word inside a sentence."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from builders.server import messages

ROOT = Path(__file__).resolve().parents[2]
CLIENT = ROOT / "src" / "builders" / "web" / "static" / "i18n"
LANGUAGES = [lang for lang in messages.LANGUAGES if lang != messages.DEFAULT]


def client(lang: str) -> dict:
    return json.loads((CLIENT / f"{lang}.json").read_text(encoding="utf-8"))


def server(lang: str) -> dict[tuple[str | None, str], str]:
    return {(m.context, str(m.id)): str(m.string) for m in messages.catalogue(lang) if m.id}


#: term: (the English words that name it in a template, a regex; the client's key whose text names it; each
#: language's forms of the word, singular, plural, cases and compounds; the words that would name the same
#: thing otherwise, which neither catalogue may use). A template where the English word is a key of the
#: notation or of a setup (``coins 2``, ``seed must be...``) is left out (EXCEPT).
TERMS = {
    "seat": (
        r"\bseats?\b",
        "seat.numbered",
        {"de": ["Platz", "Plätze", "Platzes", "Platznummer"], "fr": ["place", "places"]},
        {"de": ["Sitz", "Sitze", "Sitzes", "Sitznummer"], "fr": ["siège", "sièges"]},
    ),
    "seed": (r"\bseed\b", "lobby.seed", {"de": ["Startwert"], "fr": ["graine"]}, {"de": ["Seed"], "fr": ["semence"]}),
    "turn": (r"\bturn\b", "help.a_turn", {"de": ["Zug", "Züge"], "fr": ["tour"]}, {"de": [], "fr": []}),
    "The Builders": (
        r"The Builders: Middle Ages",
        "game.middle_ages",
        {"de": ["Baumeister: Mittelalter"], "fr": ["Bâtisseurs : Moyen-Âge"]},
        {"de": [], "fr": []},
    ),
    "hex": (
        r"\bhex\b",
        "kb.place.hex",
        {"de": ["Feld"], "fr": ["case"]},
        {"de": ["Hexfeld", "Sechseck"], "fr": ["hexagone"]},
    ),
    "settlement": (
        r"\bsettlements?\b",
        "lobby.kingdom_blurb",
        {"de": ["Siedlung", "Siedlungen"], "fr": ["cité", "cités"]},
        {"de": ["Haus", "Häuser", "Häusern"], "fr": ["colonie", "colonies", "maisons"]},
    ),
    "coins": (
        r"\bcoins?\b",
        "ma.coins",
        {"de": ["Münze", "Münzen"], "fr": ["écu", "écus"]},
        {"de": ["Geld"], "fr": ["pièce", "pièces"]},
    ),
}
EXCEPT = [r"^seed must", r"coins, buy", r"^\{key\} must", r"'s turn, not seat"]


def plain(text: str) -> str:
    """``text`` with its no-break spaces as spaces (French puts one before a colon)."""
    return text.replace("\u00a0", " ").replace("\u202f", " ")


def has(text: str, forms: list[str], case: bool = False) -> bool:
    """Whether ``text`` has one of ``forms`` as a word (with ``case``, written with their capitals)."""
    flags = 0 if case else re.IGNORECASE
    return any(re.search(rf"(?<![\w-]){re.escape(form)}(?!\w)", plain(text), flags) for form in forms)


def texts(catalogue: dict) -> list[str]:
    """Every text of a client's catalogue (each plural form), but the names of The Builders' cards (printed
    names: "La maison urbaine" is a building, not a settlement)."""
    return [
        t
        for key, v in catalogue.items()
        if not key.startswith("ma.card.")
        for t in (v.values() if isinstance(v, dict) else [v])
    ]


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("term", sorted(TERMS))
def test_a_shared_term_is_the_same_word_in_the_server_s_and_the_client_s_catalogue(lang, term):
    english, key, forms, others = TERMS[term]
    said = client(lang)[key]
    said = said["other"] if isinstance(said, dict) else said
    assert has(said, forms[lang]), (lang, key, said)  # the client says it this way
    templates = {
        ids: text
        for ids, text in server(lang).items()
        if re.search(english, re.sub(r"\{[^}]*\}", "", ids[1]), re.IGNORECASE)
        and not any(re.search(e, ids[1]) for e in EXCEPT)
    }
    assert templates, term  # the server says it somewhere
    for (_, template), text in templates.items():
        assert has(text, forms[lang]), (lang, term, template, text)  # and says it the same way
    for catalogue in (list(server(lang).values()), texts(client(lang))):
        used = [text for text in catalogue if has(text, others[lang], case=True)]
        assert used == [], (lang, term, used)  # neither says it another way


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize(("context", "family"), [("terrain", "kb.terrain_in"), ("tile", "kb.tile")])
def test_the_game_words_of_the_server_are_the_client_s(lang, context, family):
    theirs = client(lang)
    ours = {key: text for (ctx, key), text in server(lang).items() if ctx == context}
    assert len(ours) >= 8
    for key, text in ours.items():
        word = theirs.get(f"{family}.{key}") or theirs[f"kb.place.{key}"]  # a location is a place of the map
        assert text.lower() == word.lower(), (lang, context, key, text, word)
