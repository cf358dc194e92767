"""The index that keeps an action's client key unique within its game holds only the actions that
have a key: the actions played without one (most of them: sockets, bots) no longer write an index
entry of NULL, one page less in the database's log per action. The same constraint: NULL keys were
never compared.

Revision ID: 0010
Revises: 0009
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None

_HAS_KEY = sa.text("client_key IS NOT NULL")


def upgrade() -> None:
    op.drop_index("ix_actions_client_key", table_name="actions")
    op.create_index(
        "ix_actions_client_key",
        "actions",
        ["game_id", "client_key"],
        unique=True,
        sqlite_where=_HAS_KEY,
        postgresql_where=_HAS_KEY,
    )


def downgrade() -> None:
    op.drop_index("ix_actions_client_key", table_name="actions")
    op.create_index("ix_actions_client_key", "actions", ["game_id", "client_key"], unique=True)
