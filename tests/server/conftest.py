from __future__ import annotations

import pytest

from builders.server.app import create_app
from builders.server.bots import random_agent
from tests.server.helpers import ThreadServer


def make_app(tmp_path, db_url: str | None = None, **kwargs):
    """The server of the tests: cheap bots that move at once, limits for scripted clients; on a SQLite
    file in ``tmp_path`` unless ``db_url`` names another database."""
    kwargs.setdefault("bot_mode", "inline")
    kwargs.setdefault("bot_delay", 0)
    kwargs.setdefault("bot_factory", random_agent)
    if "limits" not in kwargs:  # every client of the tests is on 127.0.0.1: raise the address limits
        from builders.server.guard import Limits

        kwargs["limits"] = Limits(
            rates={kind: (100_000, 60.0) for kind in Limits().rates},
            socket_messages=(10_000.0, 10_000.0),  # scripted players are fast
            bots_only_per_creator=10_000,
            bots_only_games=10_000,
            games_waiting_per_creator=10_000,
            games_per_creator=100_000,
        )
    return create_app(db_url or f"sqlite:///{tmp_path / 'games.sqlite3'}", **kwargs)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """A server with cheap (random) bots that move at once, on 127.0.0.1."""
    app = make_app(tmp_path_factory.mktemp("server"))
    with ThreadServer(app) as srv:
        yield srv


@pytest.fixture
def people(server):
    """People, each with a browser of their own: ``people()`` is a guest, ``people("ada")`` signs up."""
    from tests.server.test_accounts import Person

    made = []

    def make(name: str | None = None):
        p = Person(server.url)
        made.append(p)
        p.sign_up(name) if name else p.guest()
        return p

    yield make
    for p in made:
        p.close()


@pytest.fixture
def api(server):
    import httpx

    with httpx.Client(base_url=server.url, timeout=10) as client:
        yield client


@pytest.fixture(scope="session")
def postgres():
    """A throwaway PostgreSQL server for this test process (see tests/server/services.py)."""
    import tempfile
    from pathlib import Path

    from tests.server.services import Postgres

    pg = Postgres(Path(tempfile.mkdtemp(prefix="builders-pg-"))).start()
    try:
        yield pg
    finally:
        pg.stop()


@pytest.fixture
def pg_url(postgres):
    """The URL of a new, empty PostgreSQL database."""
    return postgres.new_database()


@pytest.fixture(scope="session")
def redis_server():
    """A throwaway redis-server for this test process."""
    import tempfile
    from pathlib import Path

    from tests.server.services import Redis

    server = Redis(Path(tempfile.mkdtemp(prefix="builders-redis-"))).start()
    try:
        yield server
    finally:
        server.stop()
