"""The database tables: one row per game (its setup, seats and a summary) and one row per accepted
player action (with the chance outcomes that followed it). A game's record is its setup plus its
actions in order; the server rebuilds a game's state by replaying it."""

from __future__ import annotations

from sqlalchemy import JSON, Boolean, Float, ForeignKey, Index, Integer, String, Text
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class Base(DeclarativeBase):
    pass


class GameRow(Base):
    __tablename__ = "games"

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    game: Mapped[str] = mapped_column(String(20))
    name: Mapped[str | None] = mapped_column(String(80), nullable=True)
    created: Mapped[float] = mapped_column(Float, index=True)
    #: the engine setup (hidden information: never sent to clients before the game is over)
    setup: Mapped[dict] = mapped_column(JSON)
    #: the seats: type, level, name, open, claimed, resigned and the SHA-256 of the seat token
    seats: Mapped[list] = mapped_column(JSON)
    status: Mapped[str] = mapped_column(String(10), index=True)
    version: Mapped[int] = mapped_column(Integer, default=0)
    actions: Mapped[int] = mapped_column(Integer, default=0)
    turn: Mapped[int] = mapped_column(Integer, default=0)
    to_move: Mapped[int | None] = mapped_column(Integer, nullable=True)
    result: Mapped[dict | None] = mapped_column(JSON, nullable=True)


class ActionRow(Base):
    __tablename__ = "actions"

    game_id: Mapped[str] = mapped_column(String(40), ForeignKey("games.id"), primary_key=True)
    #: 0-based position of the action in the game's record
    n: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int] = mapped_column(Integer)
    action: Mapped[str] = mapped_column(Text)
    #: the chance outcomes (card draws) the action caused, in order
    chance: Mapped[list] = mapped_column(JSON, default=list)
    by_bot: Mapped[bool] = mapped_column(Boolean, default=False)
    at: Mapped[float] = mapped_column(Float)
    #: the client's key for the action (Idempotency-Key): a retried action is found, not played again
    client_key: Mapped[str | None] = mapped_column(String(100), nullable=True)

    __table_args__ = (Index("ix_actions_client_key", "game_id", "client_key", unique=True),)


class LeaseRow(Base):
    """A lease: the one server process that acts for the machine (bots, clocks, expiry) holds the
    row named "machine" and renews it; another takes it over once it has expired."""

    __tablename__ = "leases"

    name: Mapped[str] = mapped_column(String(40), primary_key=True)
    holder: Mapped[str] = mapped_column(String(200))
    expires: Mapped[float] = mapped_column(Float)
