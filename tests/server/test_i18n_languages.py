"""The languages are the catalogues present (docs/i18n.md, "Adding a language"): the server speaks the
language of each catalogue in its locale folder, the web client has the same ones, and a fourth language
added as a catalogue (Dutch, in a copy of the folder) is spoken end to end: chosen by Accept-Language,
its texts, its numbers."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from babel.messages.pofile import read_po, write_po

from builders.core.messages import msg
from builders.server import messages

ROOT = Path(__file__).resolve().parents[2]
STATIC = ROOT / "src" / "builders" / "web" / "static"


def test_the_languages_are_those_of_the_catalogues_present_and_the_client_has_the_same():
    assert messages.LANGUAGES == messages.present() == ("en", "de", "fr")
    client = {path.stem for path in (STATIC / "i18n").glob("*.json")}
    assert client == set(messages.LANGUAGES)
    switcher = re.search(r"export const LANGUAGES = \{([^}]*)\}", (STATIC / "i18n.js").read_text()).group(1)
    assert set(re.findall(r"(\w+):", switcher)) == set(messages.LANGUAGES)
    from builders.server.schemas import LanguageChoice

    for lang in messages.LANGUAGES:
        assert LanguageChoice(language=lang).language == lang
    from tests.web.test_i18n_catalogues import LANGUAGES as CHECKED

    assert set(CHECKED) == set(messages.LANGUAGES)


@pytest.fixture
def with_dutch(tmp_path, monkeypatch):
    """The server's catalogues and a Dutch one beside them (German's, with one message in Dutch)."""
    locale = tmp_path / "locale"
    shutil.copytree(messages.LOCALE_DIR, locale)
    with (locale / "de" / "LC_MESSAGES" / "messages.po").open("rb") as f:
        dutch = read_po(f, locale="nl")
    dutch.locale = "nl"
    dutch[
        "the request body is too large: at most {count} bytes"
    ].string = "de inhoud van het verzoek is te groot: hoogstens {count} bytes"
    (locale / "nl" / "LC_MESSAGES").mkdir(parents=True)
    with (locale / "nl" / "LC_MESSAGES" / "messages.po").open("wb") as f:
        write_po(f, dutch)

    def fresh():
        for cached in (messages.catalogue, messages._templates, messages._localizer):
            cached.cache_clear()

    fresh()
    monkeypatch.setattr(messages, "LOCALE_DIR", locale)
    monkeypatch.setattr(messages, "LANGUAGES", messages.present(locale))
    yield
    fresh()


def test_a_language_added_as_a_catalogue_is_spoken(with_dutch):
    assert messages.LANGUAGES == ("en", "de", "fr", "nl")
    messages.load()  # read at start-up like the others
    assert messages.accepted("nl-BE,nl;q=0.9,en;q=0.5") == "nl"
    too_large = msg("the request body is too large: at most {count} bytes", count=16384)
    assert messages.translate(too_large, "nl") == "de inhoud van het verzoek is te groot: hoogstens 16.384 bytes"
    assert messages.refusal(too_large, "nl") == {
        "detail": "de inhoud van het verzoek is te groot: hoogstens 16.384 bytes",
        "code": "the request body is too large: at most {count} bytes",
        "params": {"count": 16384},
    }
    # the others are unchanged
    assert messages.translate(too_large, "de") == "der Inhalt der Anfrage ist zu groß: höchstens 16.384 Bytes"
    assert (
        json.loads(json.dumps(messages.refusal(too_large, "en")))["detail"]
        == "the request body is too large: at most 16384 bytes"
    )


def test_a_folder_without_a_catalogue_is_no_language(tmp_path):
    (tmp_path / "es" / "LC_MESSAGES").mkdir(parents=True)
    (tmp_path / "it").mkdir()
    assert messages.present(tmp_path) == ("en",)
