"""Ratings: rated games, their effect on each player's rating, leaderboards and profiles.

A rated game has only people, each a signed-up account with one seat, a clock, and no chosen seed
(undo stays within a turn, as in every game). Ratings are per registered game, with openskill's Plackett-Luce model (Weng-Lin: 2 to 4 players, shared places). When a rated game
ends, the ratings of all its players and one change row per player are written in one transaction;
the change rows' key (game, account) makes a second update of the same game impossible. A player
whose clock ran out is placed last (a bot finished the game for them), and so is one who resigned.
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import replace
from typing import Any

from fastapi import APIRouter, Path as PathParam, Request
from builders.core.messages import msg
from builders.core.games import game_names
from builders.core.plugins import part
from builders.server.accounts import Accounts
from builders.server.games import ApiError, GameService, Live, final_result
from builders.server.repos.ratings import HistoryPoint, Rating, RatingChange, RatingRepo
from builders.server.privacy import account_of
from builders.server.schemas import CreateGame, Leader, Profile

#: ratings are shown on the familiar scale: openskill's mu times SCALE, so a new player (mu 25) has 1500
SCALE = 60.0
#: a rating is provisional (shown with a "?") while its uncertainty sigma is above this (a new player's
#: is 25/3, about 8.3; it falls below 5 after some 8 to 12 rated games)
PROVISIONAL_SIGMA = 5.0
#: what the number means, for the leaderboard
MEANING = (
    "A rating is a measure of strength from rated games: a new player starts at 1500, and the "
    "winner of a game between two players 200 points apart is the stronger one about three times in "
    "four. A ? marks a provisional rating: too few games yet to be sure of it."
)


def shown(mu: float) -> int:
    """A rating on the familiar scale (1500 for a new player)."""
    return round(SCALE * mu)


def provisional(sigma: float) -> bool:
    return sigma > PROVISIONAL_SIGMA


def check_rated(body: CreateGame, creator: Any) -> None:
    """Refuses a rated game that cannot be one (400, one sentence)."""
    if not body.rated:
        return
    if creator is None or creator.guest:
        raise ApiError(401, msg("a rated game is for signed-up players: sign up or sign in first"))
    if body.private:
        raise ApiError(
            400,
            msg(
                "a rated game is public (its result moves ratings everyone sees): leave private out or make the game unrated"
            ),
        )
    if any(s.type != "human" for s in body.seats):
        raise ApiError(400, msg("a rated game has people only, no bots"))
    if body.clock is None:
        raise ApiError(400, msg("a rated game needs a clock"))
    if body.setup is not None and body.setup.seed is not None:
        raise ApiError(400, msg("a rated game is dealt from a secret seed: leave the seed out"))
    own = [s for s in body.seats if not s.open and not s.invite and s.user is None]
    if len(own) != 1:
        raise ApiError(400, msg("in a rated game you play exactly one seat"))
    users = [s.user.lower() for s in body.seats if s.user is not None]
    if len(set(users)) != len(users) or (creator.username or "").lower() in users:
        raise ApiError(400, msg("in a rated game every player has one seat"))


def check_claim(live: Live, account: Any, service: GameService) -> None:
    """Refuses a seat of a rated game to a guest, a program without an account or a player who has one."""
    if not live.options.rated:
        return
    if account is None or account.guest:
        raise ApiError(401, msg("a rated game is for signed-up players: sign up or sign in first"))
    if service.seats_of(live, account.id):
        raise ApiError(409, msg("you have a seat in this rated game already: one seat each"))


def ranks_of(result: dict[str, Any], flagged: list[int]) -> list[int]:
    """Places (1 = first) from a result: winners first, then by total; equal totals share a place;
    a seat whose clock ran out, or whose player resigned, is last."""
    players = {p["seat"]: p["total"] for p in result["players"]}
    winners = set(result.get("winners") or [])
    key = {s: (s in flagged, s not in winners, -players[s]) for s in players}
    order = sorted(players, key=lambda s: key[s])
    ranks: dict[int, int] = {}
    for i, s in enumerate(order):
        ranks[s] = ranks[order[i - 1]] if i and key[order[i - 1]] == key[s] else i + 1
    return [ranks[s] for s in sorted(players)]


class Ratings:
    def __init__(self, service: GameService, accounts: Accounts):
        from openskill.models import PlackettLuce

        self.service = service
        self.accounts = accounts
        self.rows = RatingRepo(service.store.engine)
        self.model = PlackettLuce()

    async def start(self) -> None:
        # rated games that ended while no process rated them (a crash between the two)
        for live in list(self.service.live.values()):
            self.changed(live)

    def changed(self, live: Live) -> None:
        if live.over and live.options.rated and not live.options.rated_done:
            self.rate(live)

    def rate(self, live: Live) -> bool:
        """Updates the ratings of a finished rated game's players, all at once (False: done already)."""
        result = final_result(live.presenter, live.state, live.options)
        stored = live.options
        ranks = ranks_of(result, [*(stored.clock.flagged if stored.clock else []), *(stored.resigned or [])])
        totals = {p["seat"]: p["total"] for p in result["players"]}
        seats = [s for s in live.seats if s.account is not None]
        if len(seats) != len(live.seats):
            return False
        now = time.time()
        changes: list[dict[str, Any]] = []
        # (the changes are filled in by compute() before the options are stored)
        options = replace(live.options, rated_done=True, rating_changes=changes)

        def compute(current: list[Rating | None]) -> list[RatingChange]:
            teams = [[self.model.rating(mu=r.mu, sigma=r.sigma) if r else self.model.rating()] for r in current]
            new = self.model.rate(teams, ranks=[ranks[s.seat] for s in seats])
            out = []
            for s, before, team in zip(seats, current, new):
                mu, sigma = team[0].mu, team[0].sigma
                changes.append(
                    {
                        "seat": s.seat,
                        "rating": shown(mu),
                        "provisional": provisional(sigma),
                        "change": shown(mu) - shown(before.mu if before else self.model.mu),
                    }
                )
                out.append(RatingChange(s.account, s.seat, ranks[s.seat], totals[s.seat], mu, sigma))
            return out

        accounts = [s.account for s in seats if s.account is not None]
        if not self.rows.rate(live.id, live.game, accounts, compute, options, now):
            # rated already (by another process)
            live.options = replace(live.options, rated_done=True)
            return False
        live.options = options
        live.changed()
        return True

    # -- reading ---------------------------------------------------------------------------------
    def leaderboard(self, game: str, limit: int = 50) -> list[dict[str, Any]]:
        """The best rated players of ``game``: established ratings first, highest first, then the
        provisional ones."""
        rows = self.rows.players(game)
        out = [
            {
                "username": r.username,
                "rating": shown(r.mu),
                "provisional": provisional(r.sigma),
                "mu": r.mu,
                "sigma": r.sigma,
                "games": r.games,
            }
            for r in rows
            if r.username
        ]
        out.sort(key=lambda x: (x["provisional"], -x["rating"], x["username"].lower()))
        for i, item in enumerate(out[:limit]):
            item["rank"] = i + 1
        return out[:limit]

    def profile(self, username: str, viewer: int | None = None) -> dict[str, Any]:
        """The profile of ``username`` as the account ``viewer`` sees it: its private games (games,
        counts, scores, cards, the games of its rating history) only for the player themselves."""
        account = self.accounts.by_username(username)
        if account is None:
            raise ApiError(404, msg("there is no player named {username!r}", username=username))
        store = self.service.store
        ratings = self.rows.of(account.id)
        changes = self.rows.history(account.id)
        rated_count = self.rows.rated_games(account.id)
        own = viewer == account.id
        finished = [
            row
            for row in store.games_of(account.id)
            if row["status"] == "finished" and row["result"] and (own or not row["private"])
        ]
        wins = 0
        scores: list[int] = []
        favourites: dict[str, Counter[str]] = {}  # by game
        games = []
        for row in finished:
            mine = [s.seat for s in row["seats"] if s.account == account.id]
            result = row["result"]
            totals = {p["seat"]: p["total"] for p in result["players"]}
            won = any(s in (result.get("winners") or []) for s in mine)
            wins += won
            scores.extend(totals[s] for s in mine)
            found = part(row["game"], "profile")  # what the game adds to the favourite cards
            if found is not None:
                cards = found(row["setup"], lambda gid=row["id"]: store.steps(gid), mine)
                favourites.setdefault(row["game"], Counter()).update(cards)
            games.append(
                {
                    "id": row["id"],
                    "game": row["game"],
                    "name": row["name"],
                    "created": row["created"],
                    "seats": mine,
                    "won": won,
                    "scores": [totals[s] for s in mine],
                    "rated": bool(row["options"].rated),
                    "replay": f"/replay/{row['id']}",
                }
            )
        played = len(finished)
        return {
            "username": account.username,
            "ratings": {
                r.game: {
                    "rating": shown(r.mu),
                    "provisional": provisional(r.sigma),
                    "mu": r.mu,
                    "sigma": r.sigma,
                    "games": r.games,
                }
                for r in ratings
            },
            "history": _history(changes, own, self.model.mu),
            "games_played": played,
            "rated_games": rated_count,
            "wins": wins,
            "win_rate": round(wins / played, 3) if played else None,
            "mean_score": round(sum(scores) / len(scores), 2) if scores else None,
            "favourite_cards": [
                {"game": game, "card": card}
                for game in game_names()
                for card, _ in favourites.get(game, Counter()).most_common(3)
            ],
            "games": games[:50],
        }


def _history(changes: list[HistoryPoint], own: bool, start: float) -> list[dict[str, Any]]:
    """One point per rated game, in order: the rating after it and the change it made (a game's
    first point changes from 1500); a private game's point is not linked for others."""
    last: dict[str, float] = {}
    out = []
    for c in changes:
        before = last.get(c.game, start)
        last[c.game] = c.mu
        out.append(
            {
                "game_id": c.game_id if own or not c.private else None,
                "game": c.game,
                "rating": shown(c.mu),
                "change": shown(c.mu) - shown(before),
                "provisional": provisional(c.sigma),
                "rank": c.rank,
                "at": c.at,
            }
        )
    return out


def router(ratings: Ratings) -> APIRouter:
    r = APIRouter(tags=["ratings"])

    @r.get(
        "/api/leaderboard/{game}",
        response_model=list[Leader],
        summary="The best rated players of a game",
        description=MEANING,
    )
    def leaderboard(game: str = PathParam(pattern=r"^[a-z0-9-]{1,40}$")):
        if game not in game_names():
            raise ApiError(404, msg("there is no game named {game!r}", game=game))
        return ratings.leaderboard(game)

    @r.get(
        "/api/players/{username}",
        response_model=Profile,
        summary="A player's profile: ratings and their history, games, wins, mean score, favourite cards",
    )
    def profile(request: Request, username: str = PathParam(pattern=r"^[A-Za-z0-9_-]{3,20}$")):
        return ratings.profile(username, account_of(ratings.accounts, request))

    return r
