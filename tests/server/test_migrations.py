"""Schema migrations: a SQLite file written by the first release of the server (commit f89c35d, before
migrations) upgrades with its games intact; the migrated schema is exactly the models' (so a table
or column added without a migration fails here); `builders db upgrade`, upgrade at start and
`--no-upgrade` refusing an old schema."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import httpx
import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import create_engine

from builders.core.record import replay
from builders.server import migrate
from builders.server.models import Base
from tests.server.conftest import make_app
from tests.server.helpers import ROOT, ThreadServer

DATA = Path(__file__).parent / "data"
OLD = json.loads((DATA / "games-f89c35d.json").read_text())


@pytest.fixture
def old_file(tmp_path) -> Path:
    path = tmp_path / "games.sqlite3"
    shutil.copy(DATA / "games-f89c35d.sqlite3", path)
    return path


def differences(url: str) -> list:
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            return compare_metadata(MigrationContext.configure(conn), Base.metadata)
    finally:
        engine.dispose()


def builders(*args: str) -> subprocess.CompletedProcess:
    exe = ROOT / ".venv" / "bin" / "builders"
    command = [str(exe)] if exe.exists() else [sys.executable, "-m", "builders.cli"]
    return subprocess.run([*command, *args], capture_output=True, text=True, timeout=120)


def test_an_old_sqlite_file_upgrades_with_its_games_intact(old_file):
    url = f"sqlite:///{old_file}"
    assert migrate.current(url) == "0001"
    done = builders("db", "upgrade", "--db", str(old_file))
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == f"{url}: upgraded from migration 0001 to migration {migrate.head()}"
    again = builders("db", "upgrade", "--db", str(old_file))
    assert again.stdout.strip() == f"{url}: already at migration {migrate.head()}"
    assert differences(url) == []
    app = make_app(old_file.parent, upgrade=False)  # already upgraded: accepted as it is
    with ThreadServer(app) as srv, httpx.Client(base_url=srv.url, timeout=20) as api:
        listed = {g["id"]: g for g in api.get("/api/games").json()}
        assert set(listed) == {OLD["running"]["id"], OLD["finished"]["id"], OLD["open"]["id"]}
        for gid, before in OLD["summaries"].items():
            for key in ("game", "name", "status", "created", "to_move", "turn", "version", "result"):
                expected = before[key]
                if key == "result" and expected is not None:  # results now name resigned seats
                    expected = {"resigned": [], **expected}
                assert listed[gid][key] == expected, (gid, key)
        # the running game: the seat token still works and the game goes on
        running = OLD["running"]
        token = running["tokens"][listed[running["id"]]["to_move"]]
        view = api.get(f"/api/games/{running['id']}/state", headers={"X-Seat-Token": token}).json()
        assert view["actions"] == running["actions"] == len(view["log"]) and view["version"] == running["version"]
        r = api.post(
            f"/api/games/{running['id']}/actions",
            json={"action": view["legal"][0]},
            headers={"X-Seat-Token": token, "Idempotency-Key": "after-upgrade"},
        )
        assert r.status_code == 200 and r.json()["version"] == running["version"] + 1
        # the finished game: its record and result
        record = api.get(f"/api/games/{OLD['finished']['id']}/record").json()
        assert record["result"] == OLD["finished"]["result"]
        # it was played before the reshuffle-at-once rule: it stays a format-1 game, and replays so
        assert record["format"] == 1
        assert replay(record).result().to_json() == OLD["finished"]["result"]
        assert sum(1 for h in record["history"] if isinstance(h, str)) == OLD["finished"]["actions"]
        # the open game: its seat can be joined
        joined = api.post(f"/api/games/{OLD['open']['id']}/join", json={"seat": 1, "name": "Dee"})
        assert joined.status_code == 200, joined.text


def test_upgrade_at_start_and_refusal_with_no_upgrade(old_file, tmp_path):
    from builders.server.app import create_app

    with pytest.raises(migrate.SchemaError) as refused:
        create_app(f"sqlite:///{old_file}", upgrade=False)
    assert str(refused.value) == (
        "the database is at migration 0001, this server needs migration "
        f"{migrate.head()}: run `builders db upgrade` (or start without --no-upgrade)"
    )
    assert migrate.current(f"sqlite:///{old_file}") == "0001"  # refused: untouched
    server = subprocess.run(
        [sys.executable, "-m", "builders.server", "--db", str(old_file), "--no-upgrade", "--port", "1"],
        capture_output=True,
        text=True,
        timeout=60,
        env={"PYTHONPATH": str(ROOT / "src"), "PATH": ""},
    )
    assert server.returncode == 2 and server.stderr.strip() == f"error: {refused.value}"
    make_app(old_file.parent)  # the default: upgraded at start
    assert migrate.current(f"sqlite:///{old_file}") == migrate.head()


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_the_migrated_schema_is_the_models_schema(kind, tmp_path, request):
    url = f"sqlite:///{tmp_path / 'new.sqlite3'}" if kind == "sqlite" else request.getfixturevalue("pg_url")
    assert migrate.upgrade(url) == (None, migrate.head())
    assert differences(url) == []
    assert migrate.upgrade(url) == (migrate.head(), migrate.head())


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_the_client_key_index_holds_only_the_actions_with_a_key(kind, tmp_path, request):
    """Migration 0010: the unique index of (game, client key) leaves out the actions without a key
    (fewer pages written per action); two actions of a game with the same key are still refused."""
    from sqlalchemy import text
    from sqlalchemy.exc import IntegrityError

    url = f"sqlite:///{tmp_path / 'keys.sqlite3'}" if kind == "sqlite" else request.getfixturevalue("pg_url")
    migrate.upgrade(url)
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            if kind == "sqlite":
                sql = conn.execute(text("SELECT sql FROM sqlite_master WHERE name = 'ix_actions_client_key'")).scalar()
            else:
                sql = conn.execute(
                    text("SELECT indexdef FROM pg_indexes WHERE indexname = 'ix_actions_client_key'")
                ).scalar()
            assert sql.replace("(", "").replace(")", "").endswith("WHERE client_key IS NOT NULL")
        game = {
            "id": "g1",
            "game": "middle-ages",
            "setup": "{}",
            "seats": "[]",
            "status": "running",
            "version": 0,
            "actions": 0,
            "turn": 0,
            "private": False,
            "bots_only": False,
            "bot_turn": False,
            "created": 1.0,
        }
        columns = ", ".join(game)
        with engine.begin() as conn:
            conn.execute(text(f"INSERT INTO games ({columns}) VALUES ({', '.join(':' + k for k in game)})"), game)
            insert = text(
                "INSERT INTO actions (game_id, n, seat, action, chance, by_bot, at, client_key) "
                "VALUES ('g1', :n, 0, 'end', '[]', false, 1.0, :key)"
            )
            for n, key in enumerate([None, None, "k1", "k2"]):
                conn.execute(insert, {"n": n, "key": key})
        with pytest.raises(IntegrityError), engine.begin() as conn:
            conn.execute(insert, {"n": 4, "key": "k1"})
        with engine.connect() as conn:
            assert conn.execute(text("SELECT count(*) FROM actions")).scalar() == 4
    finally:
        engine.dispose()


def test_a_database_made_by_a_development_version_upgrades(tmp_path):
    """Tables created from the models without migrations (as the server did before them, with some
    tables of later versions): stamped at 0001, then the missing parts are added."""
    from builders.server.store import Store

    url = f"sqlite:///{tmp_path / 'dev.sqlite3'}"
    Store(url).close()  # every table of the models, no migration recorded
    assert migrate.current(url) == "0001"
    assert migrate.upgrade(url) == ("0001", migrate.head())
    assert differences(url) == []


def test_db_upgrade_refuses_an_unreachable_database():
    done = builders("db", "upgrade", "--db", "postgresql://nobody@127.0.0.1:1/none")
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith("error: the database 127.0.0.1:1/none cannot be upgraded: ")
    assert len(done.stderr.strip().splitlines()) == 1


def test_the_games_of_bots_alone_going_on_are_marked_by_the_upgrade(tmp_path):
    """Migration 0005 adds the column the caps of games of bots alone count by, and marks the games
    created as such before it (their options say so)."""
    from alembic import command
    from sqlalchemy import text

    url = f"sqlite:///{tmp_path / 'at4.sqlite3'}"
    engine = create_engine(url)
    try:
        with engine.begin() as conn:
            command.upgrade(migrate.config(conn), "0004")
            for gid, options in (("bots", {"bots_only": True, "creator": None}), ("people", {"creator": None})):
                conn.execute(
                    text(
                        "INSERT INTO games (id, game, created, setup, seats, status, version, actions, "
                        "turn, private, options) VALUES (:id, 'kingdom', 0, '{}', '[]', 'running', 0, 0, "
                        "0, 0, :options)"
                    ),
                    {"id": gid, "options": json.dumps(options)},
                )
    finally:
        engine.dispose()
    assert migrate.upgrade(url) == ("0004", migrate.head())
    assert differences(url) == []
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            marked = dict(conn.execute(text("SELECT id, bots_only FROM games ORDER BY id")).all())
    finally:
        engine.dispose()
    assert marked == {"bots": 1, "people": 0}
