"""Nothing outside a game's own files names a game: the game-name check of ``make test``.

A game's files are its package (``builders/<package>``, its web files in its ``web`` folder included)
and the modules of other layers its plugin lists as its own (``modules``: its AI and RL kits and what they
use). Every other file of ``src/builders`` (Python, JavaScript, HTML, CSS), the shared web client's
included, that names a game (its registry name, its package, its title, the prefix of its message keys or
CSS classes) fails the check, listed as file:line.
``ALLOWED`` holds the few lines that name a game without branching on it, each with its reason.
A class of a shared stylesheet that only one game's web files use (and no shared one) fails it too, named
with its game: its rules belong in that game's stylesheet.
"""

from __future__ import annotations

import re
from pathlib import Path

from builders.core.plugins import plugins

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src" / "builders"
#: the names of the two games: registry names, packages, titles (titles as written, the others in any case),
#: and their prefixes: of message keys (``kb.card.castles``, ``guide.ma.score``) and CSS classes (``.kb-map``)
NAMES = re.compile(r"(?i:kingdom|middle[-_ ]ages)|The Builders|\b(?:kb|ma)[.-][a-z]")
#: (file, text of the line) -> why it may name a game: text that branches on nothing
ALLOWED: dict[tuple[str, str], str] = {
    (
        "src/builders/__init__.py",
        '"""builders: exact, fast engines for Kingdom Builder and The Builders: Middle Ages."""',
    ): "the package's one-line description",
    (
        "src/builders/cli.py",
        'help="Kingdom Builder and The Builders: Middle Ages: rules engines, tools and play.",',
    ): "the command line's help text",
    (
        "src/builders/cli.py",
        '"""Kingdom Builder and The Builders: Middle Ages: rules engines, tools and play."""',
    ): "the command line's help text",
    (
        "src/builders/core/record.py",
        '{"game": "kingdom", "format": 1, "setup": {...},',
    ): "an example record in a docstring",
    (
        "src/builders/core/state.py",
        '#: the registry name of the game ("kingdom", "middle-ages")',
    ): "examples of registry names in a comment",
    (
        "src/builders/rl/__init__.py",
        '"""The research kit: every registered game with an RL kit (Kingdom Builder and The Builders: Middle',
    ): "the research kit's description",
    (
        "src/builders/rl/__init__.py",
        "(``builders.rl.KingdomSolo-v0``, ``builders.rl.MiddleAgesSolo-v0``). The engines, the server and the",
    ): "the research kit's description",
    (
        "src/builders/rl/__init__.py",
        "from builders.rl.kit_kingdom import KINGDOM_SOLO, kingdom_env",
    ): "the games' RL shorthands, re-exported as the research kit's public names",
    (
        "src/builders/rl/__init__.py",
        "from builders.rl.kit_middle_ages import MIDDLE_AGES_SOLO, middle_ages_env",
    ): "the games' RL shorthands, re-exported as the research kit's public names",
    **{
        ("src/builders/rl/__init__.py", f'"{name}",'): "the research kit's public names"
        for name in ("KINGDOM_SOLO", "MIDDLE_AGES_SOLO", "kingdom_env", "middle_ages_env")
    },
}


def _own_files(src: Path) -> dict[str, set[Path]]:
    """The files of ``src`` (a copy of ``src/builders``) that belong to each game, by the game's name."""
    out: dict[str, set[Path]] = {}
    for p in plugins():
        files = out.setdefault(p.name, set())
        files.update((src / p.game.partition(":")[0].split(".")[1]).rglob("*"))
        for module in p.modules:
            path = src.parent / (module.replace(".", "/") + ".py")
            assert path.exists(), f"{p.name}'s plugin lists {module}, which is not a module"
            files.add(path)
    return out


def _owned(src: Path) -> set[Path]:
    """The files of ``src`` that belong to a game."""
    return set().union(*_own_files(src).values())


def offences(src: Path = SRC) -> list[str]:
    """``file:line: text`` of every line of ``src`` outside the games' own files that names a game."""
    owned = _owned(src)
    found = []
    for path in sorted(src.rglob("*")):
        if path.suffix not in (".py", ".js", ".html", ".css") or path in owned or "__pycache__" in path.parts:
            continue
        rel = path.relative_to(src.parents[1]).as_posix()
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if NAMES.search(line) and (rel, line.strip()) not in ALLOWED:
                found.append(f"{rel}:{n}: {line.strip()}")
    return found


#: the web client's files, whose words may name a CSS class
WEB = (".js", ".html", ".css")
#: the head of a rule of a stylesheet (its selectors, or an at-rule), comments taken out first
RULE_HEAD = re.compile(r"([^{}]+)\{")
#: a class in a selector
CLASS = re.compile(r"\.(-?[A-Za-z_][\w-]*)")


def _classes(css: str) -> list[str]:
    """The classes of the selectors of a stylesheet, in their first order (at-rules' heads left out)."""
    found: dict[str, None] = {}
    for head in RULE_HEAD.findall(re.sub(r"/\*.*?\*/", "", css, flags=re.S)):
        if not head.strip().startswith("@"):
            found.update(dict.fromkeys(CLASS.findall(head)))
    return list(found)


def one_game_classes(src: Path = SRC) -> list[str]:
    """``file: .class ...`` for every class of a shared stylesheet that one game's web files use (a word of
    a script, page or stylesheet of the game) and no shared web file does: its rules belong in that game's
    stylesheet (its plugin's ``web_style``)."""
    own = {game: sorted(p for p in files if p.suffix in WEB) for game, files in _own_files(src).items()}
    owned = _owned(src)
    web = [p for p in sorted(src.rglob("*")) if p.suffix in WEB and p not in owned and "__pycache__" not in p.parts]
    text = {p: p.read_text(encoding="utf-8") for p in web + [p for files in own.values() for p in files]}
    root = src.parents[1]
    found = []
    for sheet in (p for p in web if p.suffix == ".css"):
        for name in _classes(text[sheet]):
            word = re.compile(rf"(?<![\w-]){re.escape(name)}(?![\w-])")
            if any(word.search(text[p]) for p in web if p != sheet):
                continue
            users = {game: [p for p in files if word.search(text[p])] for game, files in own.items()}
            users = {game: files for game, files in users.items() if files}
            if len(users) == 1:
                [(game, files)] = users.items()
                found.append(
                    f"{sheet.relative_to(root).as_posix()}: .{name} is used only by {game}'s files "
                    f"({', '.join(p.relative_to(root).as_posix() for p in files)}): its rules belong in that "
                    "game's stylesheet"
                )
    return found


def test_no_file_outside_a_game_names_a_game():
    found = offences()
    assert not found, f"{len(found)} lines outside the games' own files name a game:\n" + "\n".join(found)


def _write(src: Path, files: dict[str, str]) -> None:
    """A small tree at ``src``: ``files`` (path under ``src``: text) and the kit modules the plugins list."""
    for rel, text in files.items():
        (src / rel).parent.mkdir(parents=True, exist_ok=True)
        (src / rel).write_text(text, encoding="utf-8")
    for module in {m for p in plugins() for m in p.modules}:
        path = src.parent / (module.replace(".", "/") + ".py")
        path.parent.mkdir(parents=True, exist_ok=True)
        path.touch()


def test_the_check_finds_a_game_named_where_it_should_not_be(tmp_path):
    """The check is not blind: on a small tree, the lines that name a game outside the games' own files
    are found (a branch, a title, a package, a game's script left in the shared web folder, a game's
    message key or CSS class in a shared script or stylesheet), and those in a game's package (its web
    folder included) and its kit modules are not, nor words that only hold the letters (``schema``,
    ``.map-box``)."""
    src = tmp_path / "src" / "builders"
    files = {
        "server/games.py": 'if game == "kingdom":\n    pass\nx = 1\n',
        "web/static/play.js": 'const t = "The Builders: Middle Ages";\n',
        "ai/greedy.py": "from builders.middle_ages import cards\n",
        "kingdom/rules.py": 'GAME = "kingdom"\n',
        "ai/kit_kingdom.py": 'KIT = "kingdom"\n',
        "kingdom/web/kingdom.js": "// Kingdom Builder's table\n",
        "middle_ages/web/ma_cards.js": "// The Builders' cards\n",
        "web/static/middle_ages.js": "// The Builders' table\n",
        "web/static/profile.js": 'const key = `kb.card.${card}`;\nconst schema = "ma";\n',
        "web/static/guide.js": 't("guide.ma.score.title");\n',
        "web/static/style.css": ".ma-card { width: 142px; }\n.map-box { padding: 4px; }\n.a:has(.kb-map) { }\n",
        "kingdom/web/kingdom.css": ".kb-map { width: 100%; }\n",
        "middle_ages/web/middle_ages_lobby.js": 'const name = t("ma.card.B01");\n',
    }
    _write(src, files)
    assert offences(src) == [
        "src/builders/ai/greedy.py:1: from builders.middle_ages import cards",
        'src/builders/server/games.py:1: if game == "kingdom":',
        'src/builders/web/static/guide.js:1: t("guide.ma.score.title");',
        "src/builders/web/static/middle_ages.js:1: // The Builders' table",
        'src/builders/web/static/play.js:1: const t = "The Builders: Middle Ages";',
        "src/builders/web/static/profile.js:1: const key = `kb.card.${card}`;",
        "src/builders/web/static/style.css:1: .ma-card { width: 142px; }",
        "src/builders/web/static/style.css:3: .a:has(.kb-map) { }",
    ]


def test_no_shared_style_serves_one_game_alone():
    found = one_game_classes()
    assert not found, f"{len(found)} classes of a shared stylesheet serve one game alone:\n" + "\n".join(found)


def test_the_check_finds_a_shared_class_that_one_game_alone_uses(tmp_path):
    """A class of the shared stylesheet that only one game's files use (its script, or its own stylesheet)
    is found, named with its game and the files that use it; one that a shared script uses, one that both
    games use, one that no file names as a word (built by a script: ``state-${s}``) and one in a comment or
    a rule's body are not."""
    src = tmp_path / "src" / "builders"
    files = {
        "web/static/style.css": (
            "/* .in-a-comment { } */\n.btn, .tile-chip { min-height: 40px; }\n.crew-chip.kind-master { x: 1; }\n"
            "@media (max-width: 600px) { .tile-chip, .legend-row { y: 2; } }\n.state-used { z: 0.5em; }\n"
            ".map-box.zoomed { w: 3; }\n"
        ),
        "web/static/play.js": 'el("button", { class: "btn" });\nconst box = "map-box"; // .tile-chip-like\n',
        "kingdom/web/kingdom.js": 'el("span", { class: `tile-chip state-${state}` }, "legend-row");\n',
        "kingdom/web/kingdom.css": ".map-box.zoomed .kb-map { width: 1040px; }\n",
        "middle_ages/web/middle_ages.js": 'el("span", { class: `crew-chip kind-${kind}` }, "legend-row");\n',
        "middle_ages/web/middle_ages.css": ".in-a-comment { }\n",
    }
    _write(src, files)
    assert one_game_classes(src) == [
        "src/builders/web/static/style.css: .tile-chip is used only by kingdom's files "
        "(src/builders/kingdom/web/kingdom.js): its rules belong in that game's stylesheet",
        "src/builders/web/static/style.css: .crew-chip is used only by middle-ages's files "
        "(src/builders/middle_ages/web/middle_ages.js): its rules belong in that game's stylesheet",
        "src/builders/web/static/style.css: .zoomed is used only by kingdom's files "
        "(src/builders/kingdom/web/kingdom.css): its rules belong in that game's stylesheet",
    ]
