"""The analyses of finished games: their progress while they run, then their results."""

from __future__ import annotations

from typing import Any

from sqlalchemy import create_engine, insert, select, update
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError

from builders.server.models import AnalysisRow

_TABLE = AnalysisRow.__table__
#: the engines of the worker processes that write analyses, one per database URL
_engines: dict[str, Engine] = {}


class AnalysisRepo:
    """The table ``analyses``: a row per analysed game (see :class:`builders.server.models.AnalysisRow`)."""

    def __init__(self, engine: Engine):
        self.engine = engine

    @classmethod
    def at(cls, db_url: str) -> AnalysisRepo:
        """The repository of the database ``db_url``, for a worker process (one engine per URL, kept)."""
        engine = _engines.get(db_url)
        if engine is None:
            kwargs: dict[str, Any] = {"hide_parameters": True}
            if db_url.startswith("sqlite"):
                kwargs["connect_args"] = {"check_same_thread": False, "timeout": 30}
            engine = _engines[db_url] = create_engine(db_url, **kwargs)
        return cls(engine)

    def running(self) -> list[str]:
        """The games whose analysis is running."""
        with self.engine.connect() as conn:
            return list(conn.execute(select(_TABLE.c.game_id).where(_TABLE.c.status == "running")).scalars())

    def get(self, game_id: str) -> dict[str, Any] | None:
        """The row of the game's analysis (its columns by name), if there is one."""
        with self.engine.connect() as conn:
            row = conn.execute(select(_TABLE).where(_TABLE.c.game_id == game_id)).mappings().first()
        return dict(row) if row is not None else None

    def start(self, game_id: str, values: dict[str, Any], again: bool) -> bool:
        """Store the started analysis ``values`` (``again``: over the row of one that failed); False
        if another process started it at the same moment (nothing written)."""
        try:
            with self.engine.begin() as conn:
                if again:
                    conn.execute(update(_TABLE).where(_TABLE.c.game_id == game_id).values(**values))
                else:
                    conn.execute(insert(_TABLE).values(game_id=game_id, **values))
        except IntegrityError:
            return False
        return True

    def write(self, game_id: str, values: dict[str, Any]) -> None:
        """Update the analysis's row with ``values`` (progress, result, failure)."""
        with self.engine.begin() as conn:
            conn.execute(update(_TABLE).where(_TABLE.c.game_id == game_id).values(**values))
