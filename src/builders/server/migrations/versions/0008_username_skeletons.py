"""What each username looks like (its casefolded confusable skeleton, builders.server.names), in a
column with a unique index: no two accounts can have names that look alike, even when they sign up
at the same moment on two server processes. The accounts there are get theirs; of older accounts
whose names already looked alike, the first keeps the skeleton and the others have none (they keep
their names, and no new name can look like them either).

Revision ID: 0008
Revises: 0007
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from builders.server.names import skeleton

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    bind = op.get_bind()
    inspector = sa.inspect(bind)
    if "username_skeleton" not in {c["name"] for c in inspector.get_columns("accounts")}:
        op.add_column("accounts", sa.Column("username_skeleton", sa.String(80), nullable=True))
    if "ix_accounts_username_skeleton" not in {i["name"] for i in inspector.get_indexes("accounts")}:
        op.create_index("ix_accounts_username_skeleton", "accounts", ["username_skeleton"], unique=True)
    accounts = sa.table(
        "accounts",
        sa.column("id", sa.Integer),
        sa.column("username", sa.String),
        sa.column("username_skeleton", sa.String),
    )
    rows = bind.execute(
        sa.select(accounts.c.id, accounts.c.username, accounts.c.username_skeleton)
        .where(accounts.c.username.is_not(None))
        .order_by(accounts.c.id)
    ).all()
    seen = {row.username_skeleton for row in rows if row.username_skeleton is not None}
    for row in rows:
        if row.username_skeleton is not None:
            continue
        key = skeleton(row.username)
        if key not in seen:
            seen.add(key)
            bind.execute(accounts.update().where(accounts.c.id == row.id).values(username_skeleton=key))


def downgrade() -> None:
    op.drop_index("ix_accounts_username_skeleton", "accounts")
    with op.batch_alter_table("accounts") as batch:
        batch.drop_column("username_skeleton")
