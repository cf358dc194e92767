"""The first schema: games and their accepted actions (as written by the server up to commit f89c35d).

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "games",
        sa.Column("id", sa.String(40), primary_key=True),
        sa.Column("game", sa.String(20), nullable=False),
        sa.Column("name", sa.String(80), nullable=True),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("setup", sa.JSON, nullable=False),
        sa.Column("seats", sa.JSON, nullable=False),
        sa.Column("status", sa.String(10), nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("actions", sa.Integer, nullable=False),
        sa.Column("turn", sa.Integer, nullable=False),
        sa.Column("to_move", sa.Integer, nullable=True),
        sa.Column("result", sa.JSON, nullable=True),
    )
    op.create_index("ix_games_created", "games", ["created"])
    op.create_index("ix_games_status", "games", ["status"])
    op.create_table(
        "actions",
        sa.Column("game_id", sa.String(40), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("n", sa.Integer, primary_key=True),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("action", sa.Text, nullable=False),
        sa.Column("chance", sa.JSON, nullable=False),
        sa.Column("by_bot", sa.Boolean, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("actions")
    op.drop_index("ix_games_status", table_name="games")
    op.drop_index("ix_games_created", table_name="games")
    op.drop_table("games")
