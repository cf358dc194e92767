"""The server's catalogues (builders.server.messages) against its code, without a server: every message
the code can say is translated in every language, with the same placeholders, and no refusal or log line
goes out as a bare string that no catalogue can translate."""

from __future__ import annotations

import ast
import string
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir

from builders.core.messages import Message, msg, verbatim, word
from builders.server import messages
from builders.server.guard import KIND_WORDS, kind_of

ROOT = Path(__file__).resolve().parents[2]
SERVER = ROOT / "src" / "builders" / "server"
#: every language but English (the templates' own)
LANGUAGES = [lang for lang in messages.LANGUAGES if lang != messages.DEFAULT]
#: translations that are rightly the English text: placeholders alone, and words spelled alike
SAME = {
    "de": {"{text}", "{field}: {problem}", "Taverne"},
    "fr": {"{text}", "canyon", "action", "{n} action", "{n} actions"},
}


def extracted() -> set[tuple[str | None, str]]:
    """The msgids of the code, as Babel extracts them with babel.cfg (docs/i18n.md)."""
    found = set()
    method_map = [
        ("src/builders/server/cluster.py", "ignore"),
        ("src/builders/server/**.py", "python"),
        ("src/builders/core/**.py", "python"),
        ("src/builders/kingdom/**.py", "python"),
        ("src/builders/middle_ages/**.py", "python"),
    ]
    for _, _, message, _, context in extract_from_dir(
        str(ROOT), method_map, keywords={"msg": None, "word": ((1, "c"), 2)}
    ):
        found.add((context, message))
    return found


def test_babel_cfg_is_the_method_map_of_this_check():
    text = (ROOT / "babel.cfg").read_text()
    for pattern in (
        "[ignore: src/builders/server/cluster.py]",
        "[python: src/builders/server/**.py]",
        "[python: src/builders/core/**.py]",
        "[python: src/builders/kingdom/**.py]",
        "[python: src/builders/middle_ages/**.py]",
    ):
        assert pattern in text


def catalogue_ids(lang: str) -> set[tuple[str | None, str]]:
    return {(m.context, str(m.id)) for m in messages.catalogue(lang) if m.id}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_message_of_the_code_is_in_the_catalogue_and_nothing_else(lang):
    code, catalogue = extracted(), catalogue_ids(lang)
    assert len(code) > 150
    assert sorted(code - catalogue, key=str) == [], f"missing in {lang}"
    assert sorted(catalogue - code, key=str) == [], f"obsolete in {lang}"


def placeholders(template: str) -> list[str]:
    """The placeholders of a template, each with its conversion and format ("{seconds:g}", "{name!r}")."""
    return sorted(
        f"{name}!{conversion}:{spec}"
        for _, name, spec, conversion in string.Formatter().parse(template)
        if name is not None
    )


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_translation_has_the_placeholders_of_its_template_and_is_translated(lang):
    for m in messages.catalogue(lang):
        if not m.id:
            continue
        assert m.string and not m.fuzzy, (lang, m.id)
        assert placeholders(str(m.string)) == placeholders(str(m.id)), (lang, m.id, m.string)
        if m.string == m.id:
            assert m.id in SAME[lang], (lang, m.id)


def test_the_placeholder_check_sees_a_difference():
    assert placeholders("seat {seat} is taken") != placeholders("Sitz {sitz} ist besetzt")
    assert placeholders("in {seconds:g} s") != placeholders("in {seconds} s")
    assert placeholders("the name {name!r}") != placeholders("der Name {name}")
    assert placeholders("{a} and {b}") == placeholders("{b} und {a}")


def test_the_game_words_of_the_log_and_the_request_kinds_are_complete():
    from builders.kingdom.data import SECTION_NAMES, TERRAINS
    from builders.kingdom.view import TERRAIN_WORDS, TILE_WORDS

    assert set(TERRAIN_WORDS) == set(TERRAINS)
    assert set(TILE_WORDS) == set(SECTION_NAMES)
    paths = [
        "/",
        "/api/games",
        "/api/games/x/actions",
        "/api/games/x/join",
        "/api/games/x/chat",
        "/api/games/x/hint",
        "/api/session",
        "/api/account",
    ]
    kinds = {kind_of(method, path) for method in ("GET", "POST", "DELETE") for path in paths} - {None}
    assert kinds <= set(KIND_WORDS)


# -- no refusal bypasses the messages -----------------------------------------------------------
#: the calls that send a person a refusal, and which argument is its text
REFUSALS = {"ApiError": 1, "BadText": 0, "_refuse": 3, "_error": 1, "refused": 1}


#: the errors of the engines that the server shows a person (an action text, a setup: docs/i18n.md), and
#: the modules that raise them (a position's and a record's errors are the command line's, in English)
ENGINE_REFUSALS = {"IllegalAction": 0, "InvalidSetup": 0, "error": 0}
ENGINE_MODULES = [
    "kingdom/notation.py",
    "kingdom/setup.py",
    "kingdom/checks.py",
    "kingdom/rules.py",
    "kingdom/view.py",
    "kingdom/state.py",
    "kingdom/native.py",
    "middle_ages/notation.py",
    "middle_ages/setup.py",
    "middle_ages/rules.py",
    "middle_ages/view.py",
    "middle_ages/state.py",
    "middle_ages/native.py",
]


def bypasses(source: str, refusals: dict[str, int] = REFUSALS) -> list[str]:
    """The places in ``source`` where a text meant for a person is not a message: a refusal given a
    string (a literal, an f-string, str(...), a concatenation), a JSON body with a literal ``detail``,
    or a msg()/word() whose template is not one literal (Babel could not extract it)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call):
            name = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", None)
            at = refusals.get(name)
            if at is not None and len(node.args) > at and _is_text(node.args[at]):
                found.append(f"line {node.lineno}: {name}({ast.unparse(node.args[at])[:60]})")
            if name in ("msg", "word"):
                templates = node.args[:1] if name == "msg" else node.args[:2]
                if len(templates) < (1 if name == "msg" else 2) or not all(
                    isinstance(a, ast.Constant) and isinstance(a.value, str) for a in templates
                ):
                    found.append(f"line {node.lineno}: {name} without a literal template")
        if isinstance(node, ast.Dict):
            for key, value in zip(node.keys, node.values):
                if isinstance(key, ast.Constant) and key.value == "detail" and _is_text(value):
                    found.append(f"line {node.lineno}: a literal detail")
    return found


def _is_text(node: ast.AST) -> bool:
    if isinstance(node, ast.BoolOp):  # reason or "..."
        return any(_is_text(value) for value in node.values)
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str)
    if isinstance(node, ast.JoinedStr):
        return True
    if isinstance(node, ast.BinOp):
        return _is_text(node.left) or _is_text(node.right)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("str", "repr"):
        return True
    return False


def test_no_refusal_in_the_server_is_a_bare_string():
    modules = sorted(SERVER.rglob("*.py"))
    assert len(modules) > 20
    found = {str(path.relative_to(SERVER)): bypasses(path.read_text()) for path in modules}
    assert {name: places for name, places in found.items() if places} == {}


def test_no_error_of_an_action_text_or_a_setup_in_the_engines_is_a_bare_string():
    found = {name: bypasses((SERVER.parent / name).read_text(), ENGINE_REFUSALS) for name in ENGINE_MODULES}
    assert {name: places for name, places in found.items() if places} == {}


@pytest.mark.parametrize(
    "source",
    [
        'raise IllegalAction(f"{text!r} is not a hex")',
        'raise InvalidSetup("a setup is a JSON object")',
        'raise error(f"the map needs 4 sections, not {len(sections)}")',
        'raise IllegalAction(reason or f"{shown(action)} cannot be played now")',
    ],
)
def test_the_scan_of_the_engines_finds_a_bare_string(source):
    assert len(bypasses(source, ENGINE_REFUSALS)) == 1
    assert (
        bypasses('raise IllegalAction(msg("hex {hex} is off the map", hex=h))\nraise error(why)', ENGINE_REFUSALS) == []
    )


@pytest.mark.parametrize(
    "source",
    [
        'raise ApiError(404, "there is no such game")',
        'raise ApiError(400, f"seat {seat} is taken")',
        "raise ApiError(400, str(e)) from None",
        'raise ApiError(409, "leaving: " + reason)',
        'raise BadText(f"{field}: at most {n} characters")',
        'await self._refuse(scope, send, 429, "too many requests")',
        'conn.send(_error(ws, "a message is JSON text", 400))',
        'return JSONResponse({"detail": "the request body is not valid JSON"}, status_code=400)',
        'raise ApiError(400, msg(f"seat {seat} is taken"))',
        "raise ApiError(400, msg(template))",
        'TERRAIN = word("terrain", name)',
    ],
)
def test_the_scan_finds_each_kind_of_bypass(source):
    assert len(bypasses(source)) == 1


def test_the_scan_lets_messages_through():
    assert (
        bypasses(
            'raise ApiError(409, msg("seat {seat} is already taken", seat=seat))\n'
            "raise ApiError(400, verbatim(str(e)))\nraise ApiError(403, wrong)\n"
            'x = word("terrain", "grass")\nconn.send(_error(ws, e.message, e.status))'
        )
        == []
    )


# -- translating ----------------------------------------------------------------------------------
def test_a_message_in_each_language_with_words_and_lists_translated():
    said = msg(
        "{action}; no free hex of the played terrain: drew {cards}",
        action=msg("built a settlement on {hex}", hex="12,7"),
        cards=[word("terrain", "flower"), word("terrain", "forest")],
    )
    assert str(said) == "built a settlement on 12,7; no free hex of the played terrain: drew flower, forest"
    assert messages.translate(said, "de") == (
        "baute eine Siedlung auf 12,7; kein freies Feld des gespielten Geländes: zog Blumenfeld, Wald"
    )
    assert messages.translate(said, "fr") == (
        "a construit une cité sur 12,7 ; aucune case libre du terrain joué : a pioché champ de fleurs, forêt"
    )
    assert said.data() == {
        "key": "{action}; no free hex of the played terrain: drew {cards}",
        "params": {
            "action": {"key": "built a settlement on {hex}", "params": {"hex": "12,7"}},
            "cards": ["flower", "forest"],
        },
    }
    # an unknown language is English; a message no catalogue has is shown as it is
    assert messages.translate(said, "xx") == str(said)
    assert messages.translate(Message("not in any catalogue {n}", {"n": 3}), "de") == "not in any catalogue 3"
    assert messages.translate(verbatim("an engine's {own} words"), "fr") == "an engine's {own} words"


@pytest.mark.parametrize(
    ("header", "lang"),
    [
        ("de-DE,de;q=0.9,en;q=0.8", "de"),
        ("fr-CH, fr;q=0.9, en;q=0.8, de;q=0.7, *;q=0.5", "fr"),
        ("en-US,en;q=0.9,de;q=0.8", "en"),
        ("es-ES,es;q=0.9,fr;q=0.5", "fr"),
        ("ja", None),
        ("", None),
        ("de;q=0.5,fr;q=0.9", "fr"),
        ("de;q=0,fr;q=0.1", "fr"),
        ("de;q=oops,fr", "fr"),
        ("*", None),
        ("x" * 5000, None),
        ("DE-at", "de"),
    ],
)
def test_accept_language_is_negotiated(header, lang):
    assert messages.accepted(header) == lang
