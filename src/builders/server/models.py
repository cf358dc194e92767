"""The database tables: one row per game (its setup, seats and a summary) and one row per accepted
player action (with the chance outcomes that followed it). A game's record is its setup plus its
actions in order; the server rebuilds a game's state by replaying it."""

from __future__ import annotations

from sqlalchemy import JSON, Boolean, Float, ForeignKey, Index, Integer, String, Text, false, text
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class Base(DeclarativeBase):
    pass


class GameRow(Base):
    __tablename__ = "games"

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    game: Mapped[str] = mapped_column(String(20))
    name: Mapped[str | None] = mapped_column(String(80), nullable=True)
    created: Mapped[float] = mapped_column(Float, index=True)
    #: the engine setup (hidden information: never sent to clients before the game is over)
    setup: Mapped[dict] = mapped_column(JSON)
    #: the seats: type, level, name, open, claimed, resigned and the SHA-256 of the seat token
    seats: Mapped[list] = mapped_column(JSON)
    status: Mapped[str] = mapped_column(String(10), index=True)
    version: Mapped[int] = mapped_column(Integer, default=0)
    actions: Mapped[int] = mapped_column(Integer, default=0)
    turn: Mapped[int] = mapped_column(Integer, default=0)
    to_move: Mapped[int | None] = mapped_column(Integer, nullable=True)
    result: Mapped[dict | None] = mapped_column(JSON, nullable=True)
    #: a private game is not listed: it is watched with its link only
    private: Mapped[bool] = mapped_column(Boolean, default=False, index=True)
    #: who created it (an account id), whether the seed was chosen, the clock, rated (see seats.py)
    options: Mapped[dict | None] = mapped_column(JSON, nullable=True)
    #: a game with no person playing in it (a bot in every seat from the start, or since the last
    #: person left): the caps of games of bots alone count these
    bots_only: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false(), index=True)
    #: a bot is to move: the process that acts for the machine finds these games by this column (it
    #: does not load every game going on to see whose turn it is)
    bot_turn: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false(), index=True)
    #: when the running seat's clock runs out (epoch seconds; None: no clock runs)
    deadline: Mapped[float | None] = mapped_column(Float, nullable=True, index=True)
    #: when the last action was played (None: none yet); idle games are settled by it
    moved: Mapped[float | None] = mapped_column(Float, nullable=True)
    #: the account that created the game and a digest of the address it came from: the caps on
    #: one person's games count by them, and the lobby shows a few open games of each creator
    creator: Mapped[int | None] = mapped_column(Integer, nullable=True, index=True)
    address: Mapped[str | None] = mapped_column(String(24), nullable=True, index=True)


class ActionRow(Base):
    __tablename__ = "actions"

    game_id: Mapped[str] = mapped_column(String(40), ForeignKey("games.id"), primary_key=True)
    #: 0-based position of the action in the game's record
    n: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int] = mapped_column(Integer)
    action: Mapped[str] = mapped_column(Text)
    #: the chance outcomes (card draws) the action caused, in order
    chance: Mapped[list] = mapped_column(JSON, default=list)
    by_bot: Mapped[bool] = mapped_column(Boolean, default=False)
    at: Mapped[float] = mapped_column(Float)
    #: the client's key for the action (Idempotency-Key): a retried action is found, not played again
    client_key: Mapped[str | None] = mapped_column(String(100), nullable=True)

    #: unique within the game; only the actions that have a key are in it (migration 0010)
    __table_args__ = (
        Index(
            "ix_actions_client_key",
            "game_id",
            "client_key",
            unique=True,
            sqlite_where=text("client_key IS NOT NULL"),
            postgresql_where=text("client_key IS NOT NULL"),
        ),
    )


class LeaseRow(Base):
    """A lease: the one server process that acts for the machine (bots, clocks, expiry) holds the
    row named "machine" and renews it; another takes it over once it has expired."""

    __tablename__ = "leases"

    name: Mapped[str] = mapped_column(String(40), primary_key=True)
    holder: Mapped[str] = mapped_column(String(200))
    expires: Mapped[float] = mapped_column(Float)


# -- people ------------------------------------------------------------------------------------------
class AccountRow(Base):
    """A person: a named account (username and Argon2 password hash) or a guest (no name yet)."""

    __tablename__ = "accounts"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    #: the name as typed (None for a guest)
    username: Mapped[str | None] = mapped_column(String(20), nullable=True)
    #: the name in lower case: unique, so names differ regardless of case
    username_key: Mapped[str | None] = mapped_column(String(20), nullable=True, unique=True)
    #: what the name looks like (its casefolded confusable skeleton, builders.server.names): unique, so
    #: no name can look like another's; None for a guest, and for a name that looked like an older
    #: account's when the column was added (migration 0008)
    username_skeleton: Mapped[str | None] = mapped_column(String(80), nullable=True, unique=True, index=True)
    password_hash: Mapped[str | None] = mapped_column(String(200), nullable=True)
    created: Mapped[float] = mapped_column(Float)
    #: the language the server speaks to the account ("de"; None: the browser's, builders.server.messages)
    language: Mapped[str | None] = mapped_column(String(8), nullable=True)


class SessionRow(Base):
    """A signed-in browser: the SHA-256 of its session cookie and the CSRF token it sends back."""

    __tablename__ = "sessions"

    token_sha: Mapped[str] = mapped_column(String(64), primary_key=True)
    account_id: Mapped[int] = mapped_column(Integer, ForeignKey("accounts.id"), index=True)
    csrf: Mapped[str] = mapped_column(String(64))
    created: Mapped[float] = mapped_column(Float)
    expires: Mapped[float] = mapped_column(Float, index=True)


class ApiTokenRow(Base):
    """A personal API token of an account (for programs): only its SHA-256 is stored."""

    __tablename__ = "api_tokens"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    account_id: Mapped[int] = mapped_column(Integer, ForeignKey("accounts.id"), index=True)
    name: Mapped[str] = mapped_column(String(40))
    token_sha: Mapped[str] = mapped_column(String(64), unique=True)
    created: Mapped[float] = mapped_column(Float)


class SeatOwnerRow(Base):
    """Which account plays which seat of which game (the seats of a game list it too)."""

    __tablename__ = "seat_owners"

    game_id: Mapped[str] = mapped_column(String(40), ForeignKey("games.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    account_id: Mapped[int] = mapped_column(Integer, ForeignKey("accounts.id"), index=True)


class ChatRow(Base):
    """A chat message of a game, in the players' or the spectators' channel."""

    __tablename__ = "chat"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(String(40), ForeignKey("games.id"), index=True)
    channel: Mapped[str] = mapped_column(String(12))
    account_id: Mapped[int | None] = mapped_column(Integer, ForeignKey("accounts.id"), nullable=True)
    author: Mapped[str] = mapped_column(String(40))
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    text: Mapped[str] = mapped_column(Text)
    at: Mapped[float] = mapped_column(Float)


# -- ratings -----------------------------------------------------------------------------------------
class RatingRow(Base):
    """A player's rating in one game (Weng-Lin, openskill's Plackett-Luce model)."""

    __tablename__ = "ratings"

    account_id: Mapped[int] = mapped_column(Integer, ForeignKey("accounts.id"), primary_key=True)
    game: Mapped[str] = mapped_column(String(20), primary_key=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer, default=0)


class RatingChangeRow(Base):
    """What one rated game did to one player's rating (one row per player and game: never twice)."""

    __tablename__ = "rating_changes"

    game_id: Mapped[str] = mapped_column(String(40), ForeignKey("games.id"), primary_key=True)
    account_id: Mapped[int] = mapped_column(Integer, ForeignKey("accounts.id"), primary_key=True, index=True)
    game: Mapped[str] = mapped_column(String(20))
    seat: Mapped[int] = mapped_column(Integer)
    rank: Mapped[int] = mapped_column(Integer)
    score: Mapped[int] = mapped_column(Integer)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    at: Mapped[float] = mapped_column(Float, index=True)


# -- limits and credentials --------------------------------------------------------------------------
class RateLimitRow(Base):
    """A rate limit shared by the server processes of a database (when there is no Redis): the
    theoretical arrival time of the next request of its key (GCRA, :mod:`builders.server.limits`)."""

    __tablename__ = "rate_limits"

    key: Mapped[str] = mapped_column(String(200), primary_key=True)
    tat: Mapped[float] = mapped_column(Float, index=True)


class KnownAddressRow(Base):
    """An address an account signed in from successfully (a digest of it): sign-ins from it are not
    slowed by the failed attempts on the account's name from other addresses."""

    __tablename__ = "known_addresses"

    account_id: Mapped[int] = mapped_column(Integer, ForeignKey("accounts.id"), primary_key=True)
    address_sha: Mapped[str] = mapped_column(String(64), primary_key=True)
    last: Mapped[float] = mapped_column(Float)


class DeletedAccountRow(Base):
    """An account its owner deleted: its name, password, sessions and tokens are gone; the row of
    ``accounts`` stays (finished games keep the seat) and this one says it was deleted, and when."""

    __tablename__ = "deleted_accounts"

    account_id: Mapped[int] = mapped_column(Integer, ForeignKey("accounts.id"), primary_key=True)
    at: Mapped[float] = mapped_column(Float)


# -- analyses ----------------------------------------------------------------------------------------
class AnalysisRow(Base):
    """The analysis of a finished game: its progress while it runs, then its result."""

    __tablename__ = "analyses"

    game_id: Mapped[str] = mapped_column(String(40), ForeignKey("games.id"), primary_key=True)
    #: running, done or failed
    status: Mapped[str] = mapped_column(String(10))
    done: Mapped[int] = mapped_column(Integer, default=0)
    total: Mapped[int] = mapped_column(Integer, default=0)
    iterations: Mapped[int] = mapped_column(Integer)
    seed: Mapped[int] = mapped_column(Integer)
    #: builders.ai.analysis.Analysis.to_json()
    result: Mapped[dict | None] = mapped_column(JSON, nullable=True)
    error: Mapped[str | None] = mapped_column(Text, nullable=True)
    started: Mapped[float] = mapped_column(Float)
    finished: Mapped[float | None] = mapped_column(Float, nullable=True)
