"""Ratings: each player's rating per game and what each rated game did to it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from sqlalchemy import func, insert, select, update
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError

from builders.server.models import AccountRow, GameRow, RatingChangeRow, RatingRow
from builders.server.records import Options


@dataclass(frozen=True)
class Rating:
    """A player's rating in one game (openskill's mu and sigma) and the rated games behind it."""

    game: str
    mu: float
    sigma: float
    games: int


@dataclass(frozen=True)
class RatedPlayer:
    """A leaderboard's line: a named player's rating."""

    username: str | None
    mu: float
    sigma: float
    games: int


@dataclass(frozen=True)
class RatingChange:
    """What one rated game did to one player's rating (the rating after it)."""

    account_id: int
    seat: int
    rank: int
    score: int
    mu: float
    sigma: float


@dataclass(frozen=True)
class HistoryPoint:
    """A player's rating after one rated game; whether that game is private."""

    game_id: str
    game: str
    mu: float
    sigma: float
    rank: int
    at: float
    private: bool


class RatingRepo:
    """The tables ``ratings`` and ``rating_changes``."""

    def __init__(self, engine: Engine):
        self.engine = engine

    def rate(
        self,
        game_id: str,
        game: str,
        accounts: list[int],
        compute: Callable[[list[Rating | None]], list[RatingChange]],
        options: Options,
        now: float,
    ) -> bool:
        """In one transaction: the current ratings of ``accounts`` in ``game`` (None: not rated yet)
        given to ``compute``, whose changes are stored (a change row each, the ratings updated), and
        the game's ``options`` stored. False, with nothing written, if the game was rated already."""
        try:
            with self.engine.begin() as conn:
                current: list[Rating | None] = []
                for account in accounts:
                    row = conn.execute(
                        select(RatingRow.mu, RatingRow.sigma, RatingRow.games).where(
                            RatingRow.account_id == account, RatingRow.game == game
                        )
                    ).first()
                    current.append(Rating(game, row.mu, row.sigma, row.games) if row else None)
                for before, c in zip(current, compute(current)):
                    conn.execute(
                        insert(RatingChangeRow).values(
                            game_id=game_id,
                            account_id=c.account_id,
                            game=game,
                            seat=c.seat,
                            rank=c.rank,
                            score=c.score,
                            mu=c.mu,
                            sigma=c.sigma,
                            at=now,
                        )
                    )
                    if before is None:
                        conn.execute(
                            insert(RatingRow).values(
                                account_id=c.account_id, game=game, mu=c.mu, sigma=c.sigma, games=1
                            )
                        )
                    else:
                        conn.execute(
                            update(RatingRow)
                            .where(RatingRow.account_id == c.account_id, RatingRow.game == game)
                            .values(mu=c.mu, sigma=c.sigma, games=RatingRow.games + 1)
                        )
                conn.execute(update(GameRow).where(GameRow.id == game_id).values(options=options.to_json()))
        except IntegrityError:  # rated already (by another process)
            return False
        return True

    def players(self, game: str) -> list[RatedPlayer]:
        """The ratings of ``game``'s players, with their names (None: a guest or a deleted account)."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(AccountRow.username, RatingRow.mu, RatingRow.sigma, RatingRow.games)
                .join(AccountRow, AccountRow.id == RatingRow.account_id)
                .where(RatingRow.game == game)
            ).all()
        return [RatedPlayer(r.username, r.mu, r.sigma, r.games) for r in rows]

    def of(self, account_id: int) -> list[Rating]:
        """The account's rating in each game it was rated in."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(RatingRow.game, RatingRow.mu, RatingRow.sigma, RatingRow.games).where(
                    RatingRow.account_id == account_id
                )
            ).all()
        return [Rating(r.game, r.mu, r.sigma, r.games) for r in rows]

    def history(self, account_id: int) -> list[HistoryPoint]:
        """The account's rating after each of its rated games, oldest first."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(
                    RatingChangeRow.game_id,
                    RatingChangeRow.game,
                    RatingChangeRow.mu,
                    RatingChangeRow.sigma,
                    RatingChangeRow.rank,
                    RatingChangeRow.at,
                    GameRow.private,
                )
                .join(GameRow, GameRow.id == RatingChangeRow.game_id)
                .where(RatingChangeRow.account_id == account_id)
                .order_by(RatingChangeRow.at)
            ).all()
        return [HistoryPoint(r.game_id, r.game, r.mu, r.sigma, r.rank, r.at, bool(r.private)) for r in rows]

    def rated_games(self, account_id: int) -> int:
        """How many rated games the account played."""
        with self.engine.connect() as conn:
            return conn.execute(
                select(func.count()).select_from(RatingChangeRow).where(RatingChangeRow.account_id == account_id)
            ).scalar_one()
