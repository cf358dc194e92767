"""Nothing outside a game's own files names a game: the game-name check of ``make test``.

A game's files are its package (``builders/<package>``, its web files in its ``web`` folder included)
and the modules of other layers its plugin lists as its own (``modules``: its AI and RL kits and what they
use). Every other file of ``src/builders`` (Python, JavaScript, HTML, CSS), the shared web client's
included, that names a game (its registry name, its package, its title, the prefix of its message keys or
CSS classes) fails the check, listed as file:line.
``ALLOWED`` holds the few lines that name a game without branching on it, each with its reason.
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


def _owned(src: Path) -> set[Path]:
    """The files of ``src`` (a copy of ``src/builders``) that belong to a game."""
    out: set[Path] = set()
    for p in plugins():
        out.update((src / p.game.partition(":")[0].split(".")[1]).rglob("*"))
        for module in p.modules:
            path = src.parent / (module.replace(".", "/") + ".py")
            assert path.exists(), f"{p.name}'s plugin lists {module}, which is not a module"
            out.add(path)
    return out


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


def test_no_file_outside_a_game_names_a_game():
    found = offences()
    assert not found, f"{len(found)} lines outside the games' own files name a game:\n" + "\n".join(found)


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
    for rel, text in files.items():
        (src / rel).parent.mkdir(parents=True, exist_ok=True)
        (src / rel).write_text(text, encoding="utf-8")
    for module in {m for p in plugins() for m in p.modules}:  # the kit modules the plugins list
        path = src.parent / (module.replace(".", "/") + ".py")
        path.parent.mkdir(parents=True, exist_ok=True)
        path.touch()
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
