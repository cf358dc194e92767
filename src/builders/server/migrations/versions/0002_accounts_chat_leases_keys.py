"""Accounts and their sessions, API tokens and seats; chat; the lease of the acting process; private
games and game options (clocks); the client's key of an action (idempotency).

A database made by a development version (tables created without migrations) may have some of
these already: what exists is kept.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def _tables() -> set[str]:
    return set(sa.inspect(op.get_bind()).get_table_names())


def _columns(table: str) -> set[str]:
    return {c["name"] for c in sa.inspect(op.get_bind()).get_columns(table)}


def _indexes(table: str) -> set[str]:
    return {i["name"] for i in sa.inspect(op.get_bind()).get_indexes(table)}


def _table(name: str, *columns, indexes: tuple[tuple[str, list[str], bool], ...] = ()) -> None:
    if name not in _tables():
        op.create_table(name, *columns)
    have = _indexes(name)
    for index, cols, unique in indexes:
        if index not in have:
            op.create_index(index, name, cols, unique=unique)


def upgrade() -> None:
    _table(
        "accounts",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("username", sa.String(20), nullable=True),
        sa.Column("username_key", sa.String(20), nullable=True, unique=True),
        sa.Column("password_hash", sa.String(200), nullable=True),
        sa.Column("created", sa.Float, nullable=False),
    )
    _table(
        "sessions",
        sa.Column("token_sha", sa.String(64), primary_key=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("csrf", sa.String(64), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("expires", sa.Float, nullable=False),
        indexes=(("ix_sessions_account_id", ["account_id"], False), ("ix_sessions_expires", ["expires"], False)),
    )
    _table(
        "api_tokens",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("token_sha", sa.String(64), nullable=False, unique=True),
        sa.Column("created", sa.Float, nullable=False),
        indexes=(("ix_api_tokens_account_id", ["account_id"], False),),
    )
    _table(
        "seat_owners",
        sa.Column("game_id", sa.String(40), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=False),
        indexes=(("ix_seat_owners_account_id", ["account_id"], False),),
    )
    _table(
        "chat",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("game_id", sa.String(40), sa.ForeignKey("games.id"), nullable=False),
        sa.Column("channel", sa.String(12), nullable=False),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=True),
        sa.Column("author", sa.String(40), nullable=False),
        sa.Column("seat", sa.Integer, nullable=True),
        sa.Column("text", sa.Text, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
        indexes=(("ix_chat_game_id", ["game_id"], False),),
    )
    _table(
        "leases",
        sa.Column("name", sa.String(40), primary_key=True),
        sa.Column("holder", sa.String(200), nullable=False),
        sa.Column("expires", sa.Float, nullable=False),
    )

    games = _columns("games")
    with op.batch_alter_table("games") as batch:
        if "private" not in games:  # the games so far were all listed
            batch.add_column(sa.Column("private", sa.Boolean, nullable=False, server_default=sa.false()))
        if "options" not in games:
            batch.add_column(sa.Column("options", sa.JSON, nullable=True))
    if "ix_games_private" not in _indexes("games"):
        op.create_index("ix_games_private", "games", ["private"])

    if "client_key" not in _columns("actions"):
        with op.batch_alter_table("actions") as batch:
            batch.add_column(sa.Column("client_key", sa.String(100), nullable=True))
    if "ix_actions_client_key" not in _indexes("actions"):
        op.create_index("ix_actions_client_key", "actions", ["game_id", "client_key"], unique=True)


def downgrade() -> None:
    op.drop_index("ix_actions_client_key", table_name="actions")
    with op.batch_alter_table("actions") as batch:
        batch.drop_column("client_key")
    op.drop_index("ix_games_private", table_name="games")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("options")
        batch.drop_column("private")
    for table in ("leases", "chat", "seat_owners", "api_tokens", "sessions", "accounts"):
        op.drop_table(table)
