"""The web client's catalogues (src/builders/web/static/i18n/*.json), without a browser: every language has
exactly the English keys, with the same placeholders; every key the scripts and pages use exists and every
key is used; and no text a person reads bypasses the catalogue (a scan of the scripts, the shared ones and
each installed game's, and of the pages)."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser

import pytest

from builders.web import STATIC_DIR
from tests.web.scripts import scripts

I18N = STATIC_DIR / "i18n"
LANGUAGES = ("en", "de", "fr")
SCRIPTS = list(scripts().values())
PAGES = sorted(STATIC_DIR.glob("*.html"))
PLACEHOLDER = re.compile(r"\{(\w+)\}")

# Literal keys: t("kb.banner.build"); keys built from data: t(`kb.card.${card}`) (checked by their prefix).
KEY_CALL = re.compile(r"""\bt\(\s*"([\w.-]+)\"""")
KEY_TEMPLATE = re.compile(r"""\bt\(\s*`([\w.-]+)\$\{""")
# Keys named where a call chooses between two: t(flagged ? "clock.title_out" : "clock.title", ...).
KEY_CHOICE = re.compile(r"""\bt\(\s*[\w.!]+\s*\?\s*"([\w.-]+)"\s*:\s*"([\w.-]+)\"""")
KEY_STRING = re.compile(r""""((?:[a-z_]+\.)+[\w-]+)\"""")

# Text that is not a sentence: ids, proper names, symbols (and the names of the languages themselves).
NOT_TEXT = {"Builders", "Kingdom Builder", "W07", "English", "Deutsch", "Français"}


def catalogue(code: str) -> dict:
    return json.loads((I18N / f"{code}.json").read_text(encoding="utf-8"))


def forms(value) -> list[str]:
    return list(value.values()) if isinstance(value, dict) else [value]


def placeholders(value) -> set[str]:
    return {name for text in forms(value) for name in PLACEHOLDER.findall(text)}


def scripts_text() -> str:
    return "\n".join(path.read_text(encoding="utf-8") for path in SCRIPTS)


def test_the_catalogues_are_valid_json_objects_of_text():
    for code in LANGUAGES:
        cat = catalogue(code)
        assert isinstance(cat, dict) and len(cat) > 500, code
        for key, value in cat.items():
            assert re.fullmatch(r"[a-z_]+(\.[\w-]+)+", key), (code, key)
            if isinstance(value, dict):
                assert "other" in value and "one" in value, (code, key, "a plural needs 'one' and 'other'")
                assert set(value) <= {"zero", "one", "two", "few", "many", "other"}, (code, key)
            for text in forms(value):
                assert isinstance(text, str) and text.strip(), (code, key)


@pytest.mark.parametrize("code", ["de", "fr"])
def test_every_language_has_exactly_the_english_keys(code):
    english, other = catalogue("en"), catalogue(code)
    missing = sorted(set(english) - set(other))
    extra = sorted(set(other) - set(english))
    assert not missing, f"{code}.json misses {len(missing)} keys: {missing[:20]}"
    assert not extra, f"{code}.json has {len(extra)} keys English has not (obsolete?): {extra[:20]}"


@pytest.mark.parametrize("code", ["de", "fr"])
def test_placeholders_and_plurals_agree_with_english(code):
    english, other = catalogue("en"), catalogue(code)
    wrong = [key for key in english if key in other and placeholders(english[key]) != placeholders(other[key])]
    assert not wrong, [(k, sorted(placeholders(english[k])), sorted(placeholders(other[k]))) for k in wrong[:10]]
    shapes = [key for key in english if key in other and isinstance(english[key], dict) != isinstance(other[key], dict)]
    assert not shapes, f"plural in one language and not in the other: {shapes}"


@pytest.mark.parametrize("code", ["de", "fr"])
def test_a_translation_is_not_left_in_english(code):
    """Sentences are translated: a value equal to English is allowed only for words the languages share."""
    english, other = catalogue("en"), catalogue(code)

    def words(value) -> list[str]:
        return re.findall(r"[A-Za-z]{2,}", PLACEHOLDER.sub(" ", " ".join(forms(value))))

    same = [k for k, v in english.items() if other.get(k) == v and len(words(v)) > 2]
    assert not same, f"{code}.json keeps English sentences: {same[:15]}"


def used_keys() -> tuple[set[str], set[str]]:
    """The keys the scripts and pages name, and the prefixes of keys built from data."""
    text = scripts_text()
    literal = set(KEY_CALL.findall(text))
    for a, b in KEY_CHOICE.findall(text):
        literal |= {a, b}
    prefixes = set(KEY_TEMPLATE.findall(text))
    for page in PAGES:
        literal |= set(re.findall(r'data-i18n(?:-[a-z-]+)?="([\w.-]+)"', page.read_text(encoding="utf-8")))
    return literal, prefixes


def test_every_key_used_exists():
    english = catalogue("en")
    literal, prefixes = used_keys()
    missing = sorted(k for k in literal if k not in english)
    assert not missing, f"used but not in en.json: {missing}"
    for prefix in prefixes:
        assert any(k.startswith(prefix) for k in english), f"no key starts with {prefix!r}"


def test_every_key_is_used():
    """No obsolete key: each is named in a script or a page, built from a prefix used, or named as a string
    the scripts hand to t() later (a table of keys)."""
    english = catalogue("en")
    literal, prefixes = used_keys()
    named = set(KEY_STRING.findall(scripts_text()))
    unused = sorted(
        k for k in english if k not in literal and k not in named and not any(k.startswith(p) for p in prefixes)
    )
    assert not unused, f"keys no script or page uses: {unused}"


def test_the_families_built_from_data_are_complete():
    """Keys built from game data: every terrain, location, card, resource and worker kind has its words."""
    english = catalogue("en")
    from builders.middle_ages.cards import CARDS

    terrains = ["grass", "canyon", "desert", "flower", "forest", "water", "mountain", "castle"]
    tiles = ["oracle", "farm", "oasis", "tower", "tavern", "barn", "harbor", "paddock"]
    cards = [
        "fishermen",
        "miners",
        "merchants",
        "workers",
        "discoverers",
        "knights",
        "hermits",
        "lords",
        "citizens",
        "farmers",
    ]
    need = [f"kb.terrain.{t}" for t in terrains] + [f"kb.terrain_in.{t}" for t in terrains]
    need += [f"kb.{family}.{t}" for family in ("tile", "place", "near_tile", "tile_text") for t in tiles]
    need += [f"rules.tile_more.{t}" for t in tiles]
    need += [f"kb.card.{c}" for c in ["castles", *cards]] + [f"kb.card_text.{c}" for c in ["castles", *cards]]
    need += [f"rules.example.{c}" for c in ["castles", *cards]]
    need += [f"ma.card.{card.id}" for card in CARDS if card.english]
    need += [f"ma.res.{r}" for r in ("stone", "wood", "knowledge", "tile")]
    need += [
        f"ma.{f}.{k}"
        for f in ("kind", "kind_in")
        for k in ("apprentice", "labourer", "craftsman", "master", "building", "machine")
    ]
    need += [
        f"bot.{f}.{level}"
        for f in ("level", "name", "text", "handed")
        for level in ("easy", "medium", "hard", "expert")
    ]
    need += [f"colour.{c}" for c in ("red", "blue", "white", "black", "yellow", "purple", "pink", "teal")]
    assert sorted(set(need) - set(english)) == []


def test_french_building_names_are_the_printed_ones():
    """The Builders is French: its buildings and machines carry the names printed on the cards."""
    from builders.middle_ages.cards import CARDS

    french = catalogue("fr")
    for card in CARDS:
        if card.french:
            printed = re.sub(r"^(Une|Un) ", "", card.french)
            assert french[f"ma.card.{card.id}"].lower() == printed.lower(), card.id


# ---------------------------------------------------------------------------------------------------------
# Text that bypasses the catalogue


def outside_code(literal: str) -> str:
    """A template literal without its ${...} parts (nested braces and literals included; an unclosed part
    runs to the end)."""
    out, i, depth = [], 0, 0
    while i < len(literal):
        if depth == 0 and literal.startswith("${", i):
            depth, i = 1, i + 2
            out.append(" ")
            continue
        ch = literal[i]
        if depth:
            depth += {"{": 1, "}": -1}.get(ch, 0)
        else:
            out.append(ch)
        i += 1
    return "".join(out)


def words_in(literal: str) -> bool:
    """Whether a string literal of a script reads as text: letters left once ${...} parts are taken out."""
    bare = outside_code(literal)
    if bare.strip() in NOT_TEXT:
        return False
    return re.search(r"[A-Za-z]{2,}", bare) is not None


# Where a string literal is text a person reads: element text, a tooltip, an accessible name, a placeholder,
# a toast, an error shown, an element's children after its attributes.
BYPASS = [
    re.compile(r"""\b(?:text|title|placeholder|"aria-label"|label)\s*:\s*("(?:[^"\\]|\\.)*"|`(?:[^`\\]|\\.)*`)"""),
    re.compile(r"""\.(?:textContent|title|placeholder)\s*=\s*("(?:[^"\\]|\\.)*"|`(?:[^`\\]|\\.)*`)"""),
    re.compile(r"""setAttribute\("(?:aria-label|title|placeholder)",\s*("(?:[^"\\]|\\.)*"|`(?:[^`\\]|\\.)*`)"""),
    re.compile(r"""\b(?:toast|say|new Error|new ApiError\(\d+,)\s*\(?\s*("(?:[^"\\]|\\.)*"|`(?:[^`\\]|\\.)*`)"""),
    re.compile(r"""\},\s*("(?:[^"\\]|\\.)*"|`(?:[^`\\]|\\.)*`)\s*[,)]"""),
    re.compile(r"""\b(?:append|prepend|replaceChildren)\(\s*("(?:[^"\\]|\\.)*"|`(?:[^`\\]|\\.)*`)"""),
]


def test_no_script_text_bypasses_the_catalogue():
    found = []
    for path in SCRIPTS:
        if path.name == "ma_cards.js":  # the printed numbers; names come from ma.card.*
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if line.lstrip().startswith("//") or line.lstrip().startswith("*"):
                continue
            for pattern in BYPASS:
                for match in pattern.finditer(line):
                    literal = match.group(1)[1:-1]
                    if words_in(literal):
                        found.append(f"{path.name}:{number}: {match.group(1)}")
    assert not found, "text outside the catalogue:\n" + "\n".join(found)


class PageText(HTMLParser):
    """Text nodes and person-facing attributes of a page that are not under data-i18n."""

    ATTRS = ("title", "aria-label", "placeholder")
    VOID = {"meta", "link", "input", "br", "img", "hr"}

    def __init__(self):
        super().__init__()
        self.stack: list[tuple[str, bool, bool]] = []  # tag, translated here, exempt (script, noscript...)
        self.bare: list[str] = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        for attr in self.ATTRS:
            if attr in a and words_in(a[attr] or "") and f"data-i18n-{attr}" not in a:
                self.bare.append(f"<{tag} {attr}={a[attr]!r}>")
        exempt = tag in ("script", "style", "noscript", "code") or (bool(self.stack) and self.stack[-1][2])
        if tag not in self.VOID:
            self.stack.append((tag, "data-i18n" in a, exempt))

    def handle_endtag(self, tag):
        while self.stack and self.stack[-1][0] != tag:
            self.stack.pop()
        if self.stack:
            self.stack.pop()

    def handle_data(self, data):
        text = data.strip()
        if not text or not self.stack or not words_in(text):
            return
        tag, translated, exempt = self.stack[-1]
        if not translated and not exempt:
            self.bare.append(f"<{tag}>{text}")


def test_no_page_text_bypasses_the_catalogue():
    for page in PAGES:
        parser = PageText()
        parser.feed(page.read_text(encoding="utf-8"))
        assert not parser.bare, f"{page.name}: text without data-i18n: {parser.bare}"


def test_the_check_finds_text_that_bypasses_it():
    """The scans are not blind: each kind of bypass is caught."""
    samples = [
        'el("b", { text: "Hello there" })',
        'x.title = "Plain words"',
        "toast(`Saved ${n} games`)",
        'el("button", { class: "btn" }, "Close")',
        'node.setAttribute("aria-label", "Dismiss")',
        'el("input", { placeholder: "Say something" })',
        'throw new Error("The seed is wrong")',
    ]
    for line in samples:
        assert any(words_in(m.group(1)[1:-1]) for p in BYPASS for m in p.finditer(line)), line
    for line in [
        'el("b", { text: t("lobby.open") })',
        'el("span", { text: "W07" })',
        'el("span", { text: `${a}/${b}` })',
    ]:
        assert not any(words_in(m.group(1)[1:-1]) for p in BYPASS for m in p.finditer(line)), line
    parser = PageText()
    parser.feed('<p>Untranslated words</p><p data-i18n="x.y">Fine</p><button title="Plain tip">x</button>')
    assert parser.bare == ["<p>Untranslated words</p>".replace("</p>", ""), "<button title='Plain tip'>"]
