"""The language an account chose for what the server says to it (refusals, the game log): a nullable
column; None, the browser's ``Accept-Language``.

Revision ID: 0009
Revises: 0008
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    if "language" not in {c["name"] for c in sa.inspect(op.get_bind()).get_columns("accounts")}:
        op.add_column("accounts", sa.Column("language", sa.String(8), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("accounts") as batch:
        batch.drop_column("language")
