"""Persistence: games and their accepted actions in a SQL database (SQLite by default).

Every write is one transaction, committed before the caller goes on: the game service tells nobody
of an action before :meth:`Store.append` has returned. SQLite runs in WAL mode with
``synchronous=NORMAL``: a committed transaction survives the server process being killed at any
moment (only a power cut may lose the last transactions).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import bindparam, create_engine, delete, event, func, insert, select, update
from sqlalchemy.engine import Engine

from builders.server.models import ActionRow, Base, GameRow


def default_db_url() -> str:
    """A SQLite file in the user's data folder (created if missing)."""
    from platformdirs import user_data_dir

    folder = Path(user_data_dir("builders", appauthor=False))
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{folder / 'games.sqlite3'}"


#: the columns of a game's summary, updated with every action
SUMMARY_COLUMNS = ("status", "version", "actions", "turn", "to_move", "result")


@dataclass
class StoredStep:
    seat: int
    action: str
    chance: list[str]
    by_bot: bool


def database_url(db: str) -> str:
    """``db`` as a database URL: a URL is kept, a plain file path becomes a SQLite URL."""
    if "://" in db:
        return db
    return f"sqlite:///{Path(db).expanduser().resolve()}"


class Store:
    def __init__(self, url: str):
        url = database_url(url)
        self.url = url
        kwargs: dict[str, Any] = {}
        if url.startswith("sqlite"):
            kwargs["connect_args"] = {"check_same_thread": False}
        self.engine: Engine = create_engine(url, **kwargs)
        if url.startswith("sqlite"):
            event.listen(self.engine, "connect", _sqlite_pragmas)
        Base.metadata.create_all(self.engine)
        # statements built once: the per-action writes are the server's hottest path
        self._insert_action = insert(ActionRow)
        self._update_game = (update(GameRow).where(GameRow.id == bindparam("game_id_"))
                             .values({name: bindparam(name) for name in SUMMARY_COLUMNS}))

    def close(self) -> None:
        self.engine.dispose()

    # -- writes --------------------------------------------------------------------------------
    def create(self, row: dict[str, Any]) -> None:
        with self.engine.begin() as conn:
            conn.execute(insert(GameRow), [row])

    def append(self, game_id: str, n: int, step: StoredStep, summary: dict[str, Any]) -> None:
        """Add action number ``n`` and update the game's summary, in one transaction."""
        with self.engine.begin() as conn:
            conn.execute(self._insert_action, {
                "game_id": game_id, "n": n, "seat": step.seat, "action": step.action,
                "chance": list(step.chance), "by_bot": step.by_bot, "at": time.time(),
            })
            conn.execute(self._update_game, {"game_id_": game_id, **summary})

    def pop(self, game_id: str, n: int, summary: dict[str, Any]) -> None:
        """Take back action number ``n`` (the last one) and update the summary, in one transaction."""
        with self.engine.begin() as conn:
            gone = conn.execute(delete(ActionRow).where(ActionRow.game_id == game_id, ActionRow.n == n))
            if gone.rowcount != 1:
                raise RuntimeError(f"game {game_id} has no action {n} to take back")
            conn.execute(self._update_game, {"game_id_": game_id, **summary})

    def update(self, game_id: str, values: dict[str, Any]) -> None:
        with self.engine.begin() as conn:
            conn.execute(update(GameRow).where(GameRow.id == game_id).values(**values))

    # -- reads ---------------------------------------------------------------------------------
    def game(self, game_id: str) -> dict[str, Any] | None:
        with self.engine.connect() as conn:
            row = conn.execute(select(GameRow.__table__).where(GameRow.id == game_id)).mappings().first()
            return dict(row) if row is not None else None

    def steps(self, game_id: str) -> list[StoredStep]:
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(ActionRow.seat, ActionRow.action, ActionRow.chance, ActionRow.by_bot)
                .where(ActionRow.game_id == game_id).order_by(ActionRow.n)
            ).all()
        return [StoredStep(r.seat, r.action, list(r.chance or []), bool(r.by_bot)) for r in rows]

    def unfinished_ids(self) -> list[str]:
        with self.engine.connect() as conn:
            return list(conn.execute(
                select(GameRow.id).where(GameRow.status != "finished").order_by(GameRow.created)
            ).scalars())

    def list_games(self, status: str | None, limit: int) -> list[dict[str, Any]]:
        query = select(GameRow.__table__).order_by(GameRow.created.desc(), GameRow.id).limit(limit)
        if status is not None:
            query = query.where(GameRow.status == status)
        with self.engine.connect() as conn:
            return [dict(r) for r in conn.execute(query).mappings()]

    def counts(self) -> dict[str, int]:
        """Games and actions stored (for tests: bad requests must change neither)."""
        with self.engine.connect() as conn:
            games = conn.execute(select(func.count()).select_from(GameRow)).scalar_one()
            actions = conn.execute(select(func.count()).select_from(ActionRow)).scalar_one()
        return {"games": games, "actions": actions}


def _sqlite_pragmas(dbapi_conn, _record) -> None:
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=NORMAL")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.execute("PRAGMA busy_timeout=5000")
    cur.close()
