"""Games of bots alone marked in a column (the caps count them with an index, not by reading the
options of every game going on).

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    bind = op.get_bind()
    columns = {c["name"] for c in sa.inspect(bind).get_columns("games")}
    if "bots_only" not in columns:
        with op.batch_alter_table("games") as batch:
            batch.add_column(sa.Column("bots_only", sa.Boolean, nullable=False, server_default=sa.false()))
            batch.create_index("ix_games_bots_only", ["bots_only"])
    games = sa.table(
        "games",
        sa.column("id", sa.String),
        sa.column("status", sa.String),
        sa.column("options", sa.JSON),
        sa.column("bots_only", sa.Boolean),
    )
    marked = [
        row.id
        for row in bind.execute(sa.select(games.c.id, games.c.options))
        if isinstance(row.options, dict) and row.options.get("bots_only")
    ]
    if marked:
        bind.execute(games.update().where(games.c.id.in_(marked)).values(bots_only=True))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_index("ix_games_bots_only")
        batch.drop_column("bots_only")
