"""What a game needs from the process that acts for the machine (a bot to move, a clock's deadline,
its last move), and who created it (account and address digest), in columns: the server finds the
games needing it by queries instead of keeping every unfinished game in memory, and the caps on one
person's games count with an index.

Revision ID: 0007
Revises: 0006
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None

COLUMNS = (
    ("bot_turn", lambda: sa.Column("bot_turn", sa.Boolean, nullable=False, server_default=sa.false()), True),
    ("deadline", lambda: sa.Column("deadline", sa.Float, nullable=True), True),
    ("moved", lambda: sa.Column("moved", sa.Float, nullable=True), False),
    ("creator", lambda: sa.Column("creator", sa.Integer, nullable=True), True),
    ("address", lambda: sa.Column("address", sa.String(24), nullable=True), True),
)


def upgrade() -> None:
    bind = op.get_bind()
    present = {c["name"] for c in sa.inspect(bind).get_columns("games")}
    with op.batch_alter_table("games") as batch:
        for name, column, indexed in COLUMNS:
            if name not in present:
                batch.add_column(column())
                if indexed:
                    batch.create_index(f"ix_games_{name}", [name])
    games = sa.table(
        "games",
        sa.column("id", sa.String),
        sa.column("status", sa.String),
        sa.column("seats", sa.JSON),
        sa.column("to_move", sa.Integer),
        sa.column("options", sa.JSON),
        sa.column("bot_turn", sa.Boolean),
        sa.column("deadline", sa.Float),
        sa.column("moved", sa.Float),
        sa.column("creator", sa.Integer),
        sa.column("address", sa.String),
    )
    actions = sa.table("actions", sa.column("game_id", sa.String), sa.column("at", sa.Float))
    moved = dict(
        bind.execute(sa.select(actions.c.game_id, sa.func.max(actions.c.at)).group_by(actions.c.game_id)).all()
    )
    # the games going on (a finished game needs none of these: it is neither attended nor counted)
    rows = bind.execute(
        sa.select(games.c.id, games.c.seats, games.c.to_move, games.c.options).where(games.c.status != "finished")
    ).all()
    for row in rows:
        options = row.options if isinstance(row.options, dict) else {}
        seats = row.seats if isinstance(row.seats, list) else []
        to_move = row.to_move
        bot_turn = to_move is not None and 0 <= to_move < len(seats) and seats[to_move].get("type") == "bot"
        clock = options.get("clock")
        deadline = None
        if isinstance(clock, dict) and clock.get("running") is not None:
            deadline = float(clock["since"]) + float(clock["left"][clock["running"]])
        creator = options.get("creator")
        values = {
            "bot_turn": bool(bot_turn),
            "deadline": deadline,
            "moved": moved.get(row.id),
            "creator": creator if isinstance(creator, int) else None,
            "address": options.get("address") if isinstance(options.get("address"), str) else None,
        }
        bind.execute(games.update().where(games.c.id == row.id).values(**values))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        for name, _, indexed in reversed(COLUMNS):
            if indexed:
                batch.drop_index(f"ix_games_{name}")
            batch.drop_column(name)
