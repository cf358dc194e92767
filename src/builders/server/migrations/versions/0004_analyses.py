"""The analyses of finished games (progress while they run, then the result).

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    tables = set(sa.inspect(op.get_bind()).get_table_names())
    if "analyses" not in tables:
        op.create_table(
            "analyses",
            sa.Column("game_id", sa.String(40), sa.ForeignKey("games.id"), primary_key=True),
            sa.Column("status", sa.String(10), nullable=False),
            sa.Column("done", sa.Integer, nullable=False),
            sa.Column("total", sa.Integer, nullable=False),
            sa.Column("iterations", sa.Integer, nullable=False),
            sa.Column("seed", sa.Integer, nullable=False),
            sa.Column("result", sa.JSON, nullable=True),
            sa.Column("error", sa.Text, nullable=True),
            sa.Column("started", sa.Float, nullable=False),
            sa.Column("finished", sa.Float, nullable=True),
        )


def downgrade() -> None:
    op.drop_table("analyses")
