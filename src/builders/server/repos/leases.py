"""Leases (the row of the process that acts for the machine) and the clocks' checkpoint time."""

from __future__ import annotations

from sqlalchemy import insert, select, update
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError

from builders.server.models import LeaseRow


class LeaseRepo:
    """The table ``leases``: one row per name, its holder and when it expires."""

    def __init__(self, engine: Engine):
        self.engine = engine
        self.table = LeaseRow.__table__

    def renew(self, name: str, holder: str, until: float, now: float) -> bool:
        """Whether ``holder`` holds the lease until ``until`` now: it held it, or it had expired."""
        t = self.table
        with self.engine.begin() as conn:
            moved = conn.execute(
                update(t)
                .where(t.c.name == name, (t.c.holder == holder) | (t.c.expires < now))
                .values(holder=holder, expires=until)
            )
        return moved.rowcount == 1

    def holder(self, name: str) -> str | None:
        """Who holds the lease (None: nobody ever did)."""
        with self.engine.connect() as conn:
            return conn.execute(select(self.table.c.holder).where(self.table.c.name == name)).scalar_one_or_none()

    def create(self, name: str, holder: str, until: float) -> bool:
        """Whether the new lease was made (False: another process made it meanwhile)."""
        try:
            with self.engine.begin() as conn:
                conn.execute(insert(self.table).values(name=name, holder=holder, expires=until))
            return True
        except IntegrityError:
            return False

    def take_over(self, name: str, current: str, holder: str, until: float) -> bool:
        """Whether ``holder`` took the lease from ``current`` (False: it had moved on)."""
        t = self.table
        with self.engine.begin() as conn:
            moved = conn.execute(
                update(t).where(t.c.name == name, t.c.holder == current).values(holder=holder, expires=until)
            )
        return moved.rowcount == 1

    def release(self, name: str, holder: str) -> None:
        t = self.table
        with self.engine.begin() as conn:
            conn.execute(update(t).where(t.c.name == name, t.c.holder == holder).values(expires=0.0))

    def expires(self, name: str) -> float | None:
        """The ``expires`` of the row ``name`` (None: no such row)."""
        with self.engine.connect() as conn:
            return conn.execute(select(self.table.c.expires).where(self.table.c.name == name)).scalar_one_or_none()

    def mark(self, name: str, holder: str, when: float) -> None:
        """The row ``name`` says ``when`` (made if missing; one written by another process at the same
        moment is kept)."""
        t = self.table
        try:
            with self.engine.begin() as conn:
                if conn.execute(update(t).where(t.c.name == name).values(expires=when)).rowcount == 0:
                    conn.execute(insert(t).values(name=name, holder=holder, expires=when))
        except IntegrityError:
            pass
