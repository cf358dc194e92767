"""The rate limits shared through the database (GCRA's theoretical arrival times)."""

from __future__ import annotations

from sqlalchemy import delete, insert, select, update
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError

from builders.server.models import RateLimitRow


class RateLimitRepo:
    """The table ``rate_limits``: a key's theoretical arrival time (``tat``)."""

    def __init__(self, engine: Engine):
        self.engine = engine
        self.table = RateLimitRow.__table__

    def sweep(self, now: float) -> None:
        """Forget the keys whose time has passed."""
        with self.engine.begin() as conn:
            conn.execute(delete(self.table).where(self.table.c.tat < now))

    def tat(self, key: str) -> float | None:
        with self.engine.connect() as conn:
            return conn.execute(select(self.table.c.tat).where(self.table.c.key == key)).scalar()

    def replace(self, key: str, old: float | None, tat: float) -> bool:
        """Whether the key's time moved from ``old`` (None: no row) to ``tat`` (False: another process
        changed it meanwhile)."""
        t = self.table
        try:
            with self.engine.begin() as conn:
                if old is None:
                    conn.execute(insert(t).values(key=key, tat=tat))
                    return True
                return conn.execute(update(t).where(t.c.key == key, t.c.tat == old).values(tat=tat)).rowcount == 1
        except IntegrityError:
            return False
