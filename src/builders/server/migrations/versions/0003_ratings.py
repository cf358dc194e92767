"""Ratings per player and game, and what each rated game did to them.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    tables = set(sa.inspect(op.get_bind()).get_table_names())
    if "ratings" not in tables:
        op.create_table(
            "ratings",
            sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True),
            sa.Column("game", sa.String(20), primary_key=True),
            sa.Column("mu", sa.Float, nullable=False),
            sa.Column("sigma", sa.Float, nullable=False),
            sa.Column("games", sa.Integer, nullable=False),
        )
    if "rating_changes" not in tables:
        op.create_table(
            "rating_changes",
            sa.Column("game_id", sa.String(40), sa.ForeignKey("games.id"), primary_key=True),
            sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True),
            sa.Column("game", sa.String(20), nullable=False),
            sa.Column("seat", sa.Integer, nullable=False),
            sa.Column("rank", sa.Integer, nullable=False),
            sa.Column("score", sa.Integer, nullable=False),
            sa.Column("mu", sa.Float, nullable=False),
            sa.Column("sigma", sa.Float, nullable=False),
            sa.Column("at", sa.Float, nullable=False),
        )
        op.create_index("ix_rating_changes_account_id", "rating_changes", ["account_id"])
        op.create_index("ix_rating_changes_at", "rating_changes", ["at"])


def downgrade() -> None:
    op.drop_table("rating_changes")
    op.drop_table("ratings")
