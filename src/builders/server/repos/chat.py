"""The chat messages of games."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import insert, select
from sqlalchemy.engine import Engine

from builders.server.models import ChatRow


@dataclass(frozen=True)
class ChatRecord:
    id: int
    channel: str
    author: str
    seat: int | None
    text: str
    at: float
    #: whether an account wrote it (else a seat without one)
    by_account: bool


class ChatRepo:
    """The table ``chat``."""

    def __init__(self, engine: Engine):
        self.engine = engine

    def messages(self, game_id: str, channel: str, limit: int) -> list[ChatRecord]:
        """The newest ``limit`` messages of a game's channel, oldest first."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(ChatRow.__table__)
                .where(ChatRow.game_id == game_id, ChatRow.channel == channel)
                .order_by(ChatRow.id.desc())
                .limit(limit)
            ).all()
        return [
            ChatRecord(r.id, r.channel, r.author, r.seat, r.text, r.at, r.account_id is not None)
            for r in reversed(rows)
        ]

    def add(
        self, game_id: str, channel: str, account_id: int | None, author: str, seat: int | None, text: str, at: float
    ) -> ChatRecord:
        """The message, stored."""
        with self.engine.begin() as conn:
            new_id = conn.execute(
                insert(ChatRow).values(
                    game_id=game_id, channel=channel, account_id=account_id, author=author, seat=seat, text=text, at=at
                )
            ).inserted_primary_key[0]
        return ChatRecord(new_id, channel, author, seat, text, at, account_id is not None)
