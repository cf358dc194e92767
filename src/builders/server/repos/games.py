"""Queries on the games beyond what :class:`builders.server.store.Store` reads and writes for play:
the housekeeping of games that never started, the games waiting for an account, an account's first
game."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import delete, select
from sqlalchemy.engine import Engine

from builders.server.models import ActionRow, ChatRow, GameRow, SeatOwnerRow


@dataclass(frozen=True)
class WaitingGame:
    """A game not over in which it is one of an account's seats' turn."""

    id: str
    game: str
    name: str | None
    turn: int


class GameRepo:
    """The tables ``games`` and ``seat_owners`` (and, deleting a game, its ``actions`` and ``chat``)."""

    def __init__(self, engine: Engine):
        self.engine = engine

    def unstarted_before(self, before: float) -> list[str]:
        """The games still waiting for people (open) with no action, created before ``before``."""
        with self.engine.connect() as conn:
            return list(
                conn.execute(
                    select(GameRow.id).where(GameRow.status == "open", GameRow.actions == 0, GameRow.created < before)
                ).scalars()
            )

    def delete_unstarted(self, game_id: str) -> None:
        """Delete the game with its chat and seats if it still has no action."""
        with self.engine.begin() as conn:
            for table in (ChatRow, SeatOwnerRow, ActionRow):
                conn.execute(delete(table).where(table.game_id == game_id))
            conn.execute(delete(GameRow).where(GameRow.id == game_id, GameRow.actions == 0))

    def waiting_for(self, account_id: int, limit: int = 200) -> list[WaitingGame]:
        """The games not over in which it is one of the account's seats' turn and a person plays that
        seat, newest first: one query on the seat owners joined at the seat to move."""
        query = (
            select(GameRow.id, GameRow.game, GameRow.name, GameRow.turn, GameRow.to_move, GameRow.seats)
            .join(SeatOwnerRow, (SeatOwnerRow.game_id == GameRow.id) & (SeatOwnerRow.seat == GameRow.to_move))
            .where(SeatOwnerRow.account_id == account_id, GameRow.status != "finished")
            .order_by(GameRow.created.desc(), GameRow.id)
            .limit(limit)
        )
        with self.engine.connect() as conn:
            rows = conn.execute(query).all()
        return [
            WaitingGame(r.id, r.game, r.name, r.turn)
            for r in rows
            if 0 <= r.to_move < len(r.seats) and r.seats[r.to_move]["type"] == "human"
        ]

    def first_game_of(self, account_id: int, game: str) -> str | None:
        """The newest game of ``game`` not over in which the account has a seat and whose options say
        it is a first game (started from the guide), if any."""
        query = (
            select(GameRow.id, GameRow.options)
            .join(SeatOwnerRow, SeatOwnerRow.game_id == GameRow.id)
            .where(SeatOwnerRow.account_id == account_id, GameRow.game == game, GameRow.status != "finished")
            .order_by(GameRow.created.desc(), GameRow.id)
        )
        with self.engine.connect() as conn:
            for row in conn.execute(query):
                if (row.options or {}).get("first_game"):
                    return row.id
        return None
