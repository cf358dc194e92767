"""The server builds SQL only in its storage: the repositories (``builders/server/repos``), the game
store, the tables and the migrations. Every other module of ``builders/server`` that builds or runs
SQL fails this check, listed as file:line: an import of SQLAlchemy other than its exceptions, an
import of the tables (``builders.server.models``), a transaction or connection opened on an engine,
a statement executed, or SQL written as text.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

SERVER = Path(__file__).resolve().parents[1] / "src" / "builders" / "server"
#: the storage: where SQL is built (paths relative to the server package)
STORAGE = ("repos", "migrations", "store.py", "migrate.py", "models.py")
#: what a connection's or an engine's methods are called
OPENS = {"begin", "connect", "raw_connection", "execution_options"}
RUNS = {"execute", "exec_driver_sql", "executemany", "scalar", "scalars"}
#: SQL written as text: a statement's first word and a clause that goes with it
SQL_TEXT = re.compile(r"^\s*(SELECT\b.*\bFROM|INSERT\s+INTO|UPDATE\b.*\bSET|DELETE\s+FROM|CREATE\s+TABLE)\b", re.S)


def _receiver(node: ast.expr) -> str:
    """The last name of what a method is called on (``self.store.engine`` -> ``engine``)."""
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, ast.Name):
        return node.id
    return ""


def problems(source: str) -> list[tuple[int, str]]:
    """(line, what) of every place ``source`` builds or runs SQL."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and node.module:
            names = [node.module] if node.level == 0 else []
            if any(n == "sqlalchemy" or (n.startswith("sqlalchemy.") and n != "sqlalchemy.exc") for n in names):
                found.append((node.lineno, f"imports from {node.module}"))
            if node.module == "builders.server.models" or (node.level and node.module == "models"):
                found.append((node.lineno, "imports the tables"))
            if node.module == "builders.server" and any(a.name == "models" for a in node.names):
                found.append((node.lineno, "imports the tables"))
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if (
                    alias.name.startswith("sqlalchemy") and alias.name != "sqlalchemy.exc"
                ) or alias.name == "builders.server.models":
                    found.append((node.lineno, f"imports {alias.name}"))
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            method, on = node.func.attr, _receiver(node.func.value)
            if method in OPENS and re.search(r"engine|reader|autocommit", on, re.I):
                found.append((node.lineno, f"{on}.{method}()"))
            elif method in RUNS and re.search(r"conn|engine|session|cursor", on, re.I):
                found.append((node.lineno, f"{on}.{method}()"))
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and SQL_TEXT.match(node.value):
            found.append((node.lineno, "SQL as text"))
    return sorted(found)


def offences(server: Path = SERVER) -> list[str]:
    """``file:line: what`` of every module of ``server`` outside the storage that builds SQL."""
    out = []
    for path in sorted(server.rglob("*.py")):
        rel = path.relative_to(server)
        if rel.parts[0] in STORAGE:
            continue
        for line, what in problems(path.read_text(encoding="utf-8")):
            out.append(f"server/{rel.as_posix()}:{line}: {what}")
    return out


def test_no_module_of_the_server_outside_its_storage_builds_sql():
    found = offences()
    assert not found, "SQL outside the repositories (move it into builders/server/repos):\n" + "\n".join(found)


def test_the_repositories_are_where_the_sql_is():
    """The storage the check leaves out does build SQL (the check would not be looking at it in vain),
    and each repository module does."""
    repos = sorted((SERVER / "repos").glob("*.py"))
    assert {p.stem for p in repos} >= {"accounts", "analyses", "chat", "games", "leases", "limits", "ratings"}
    for path in repos:
        if path.stem != "__init__":
            assert problems(path.read_text(encoding="utf-8")), f"{path.name} builds no SQL"
    assert problems((SERVER / "store.py").read_text(encoding="utf-8"))


def test_the_check_finds_sql_where_it_should_not_be(tmp_path):
    """The check is not blind: on a small tree, each way of building SQL outside the storage is found,
    and the same code inside the repositories, the store and a module catching the database's errors
    is not."""
    sql = (
        "from sqlalchemy import select, update\n"  # 1
        "from sqlalchemy.exc import IntegrityError\n"  # 2: an exception class: allowed
        "from builders.server.models import GameRow\n"  # 3
        "import sqlalchemy as sa\n"  # 4
        "def f(self, game_id):\n"  # 5
        "    with self.store.engine.begin() as conn:\n"  # 6
        "        conn.execute(update(GameRow))\n"  # 7
        "    with self.engine.connect() as c:\n"  # 8
        "        pass\n"  # 9
        "    q = 'SELECT id FROM games WHERE id = :id'\n"  # 10
        "    r = self.rows.messages(game_id)\n"  # 11: a repository's method: allowed
        "    return 'select a seat'\n"  # 12: words, not SQL
    )
    for rel in ("chat.py", "repos/chat.py", "store.py", "routes/extra.py"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(sql, encoding="utf-8")
    (tmp_path / "errors.py").write_text("from sqlalchemy.exc import SQLAlchemyError\n", encoding="utf-8")
    expected = [
        (1, "imports from sqlalchemy"),
        (3, "imports the tables"),
        (4, "imports sqlalchemy"),
        (6, "engine.begin()"),
        (7, "conn.execute()"),
        (8, "engine.connect()"),
        (10, "SQL as text"),
    ]
    assert offences(tmp_path) == [
        f"server/{rel}:{line}: {what}" for rel in ("chat.py", "routes/extra.py") for line, what in expected
    ]
