"""limits and credentials: rate limits shared by the server processes of a database, the addresses
accounts signed in from, deleted accounts.

Revision ID: 0006
Revises: 0005
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    tables = set(sa.inspect(op.get_bind()).get_table_names())
    if "rate_limits" not in tables:
        op.create_table(
            "rate_limits",
            sa.Column("key", sa.String(200), primary_key=True),
            sa.Column("tat", sa.Float, nullable=False),
        )
        op.create_index("ix_rate_limits_tat", "rate_limits", ["tat"])
    if "known_addresses" not in tables:
        op.create_table(
            "known_addresses",
            sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True),
            sa.Column("address_sha", sa.String(64), primary_key=True),
            sa.Column("last", sa.Float, nullable=False),
        )
    if "deleted_accounts" not in tables:
        op.create_table(
            "deleted_accounts",
            sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), primary_key=True),
            sa.Column("at", sa.Float, nullable=False),
        )


def downgrade() -> None:
    op.drop_table("deleted_accounts")
    op.drop_table("known_addresses")
    op.drop_index("ix_rate_limits_tat", "rate_limits")
    op.drop_table("rate_limits")
