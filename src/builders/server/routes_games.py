"""The routes of the games: create one, list them, one game's summary, claim an open seat."""

from __future__ import annotations

import asyncio
from typing import Any, Literal

from fastapi import APIRouter, Query, Request

from builders.core.messages import msg
from builders.core.plugins import GamePlugin, plugins
from builders.server.accounts import Accounts
from builders.server.analysis import Analyses
from builders.server.clocks import Clocks, initial as initial_clock
from builders.server.games import ApiError, GameService
from builders.server.guard import Limits
from builders.server.privacy import visible
from builders.server.ratings import check_claim, check_rated
from builders.server.routes_common import GameId, Token, client_address
from builders.server.repos.games import GameRepo
from builders.server.schemas import Created, CreateGame, FirstGame, GameName, GameType, Join, Joined, Summary
from builders.server.seats import account_for_seat_claim


def game_type(game: GamePlugin) -> dict[str, Any]:
    """What the web client needs of a game: its names, web modules, colour and player counts."""
    engine = game.load("game")
    return {
        "name": game.name,
        "title": game.title,
        "table": game.web_table,
        "guide": game.web_guide,
        "rules": game.web_rules,
        "lobby": game.web_lobby,
        "style": game.web_style,
        "colour": game.colour,
        "min_players": engine.min_players,
        "max_players": engine.max_players,
    }


def first_game_of(service: GameService, account: int, game: str) -> str | None:
    """The first game of ``game`` (started from the guide) that ``account`` plays and is not over, if
    any: a person's first game follows them from browser to browser."""
    return GameRepo(service.store.engine).first_game_of(account, game)


def check_first_game(body: CreateGame, creator: int | None) -> None:
    """A first game is an account's (a guest's too), private, with one seat of theirs and bots."""
    if creator is None:
        raise ApiError(401, msg("a first game is kept for an account: sign in or play as a guest first"))
    people = [seat for seat in body.seats if seat.type == "human"]
    if (
        not body.private
        or body.rated
        or len(people) != 1
        or people[0].open
        or people[0].invite
        or people[0].user is not None
    ):
        raise ApiError(400, msg("a first game is private, with one seat of yours and bots in the others"))


def router(service: GameService, accounts: Accounts, analyses: Analyses, clocks: Clocks, limits: Limits) -> APIRouter:
    r = APIRouter()
    #: one creation of a game at a time: the counts of the caps and the new game agree
    creating = asyncio.Lock()

    @r.post("/api/games", status_code=201, response_model=Created, tags=["games"], summary="Create a game")
    async def create_game(body: CreateGame, request: Request) -> dict[str, Any]:
        who = accounts.identify(request, write=True)
        creator = who.account.id if who.account else None
        if body.hints and body.rated:
            raise ApiError(400, msg("a rated game has no hints: leave hints out or make the game unrated"))
        check_rated(body, who.account)
        if body.first_game:
            check_first_game(body, creator)

        def find_user(name: str) -> int | None:
            found = accounts.by_username(name)
            return found.id if found else None

        extra: dict[str, Any] = {"clock": initial_clock(body.clock, len(body.seats))} if body.clock else {}
        if body.rated:
            extra["rated"] = True
        if body.hints:
            extra["hints"] = True
        if body.first_game:
            extra["first_game"] = True
        address = client_address(request)
        # a few games waiting for players and a few dozen going on per creator, by account and by
        # address (guest accounts cost nothing)
        opening = any(seat.type == "human" and (seat.open or seat.invite) for seat in body.seats)
        bots_only = all(seat.type == "bot" for seat in body.seats)
        if bots_only:
            # a game of bots alone keeps a bot thinking to its end and nobody plays in it: a few at once
            # per creator (account and address) and on the server
            extra.update(bots_only=True, address=address)
        async with creating:
            if body.first_game:  # one at a time: the one going on is opened again, on any browser
                going = await asyncio.to_thread(first_game_of, service, creator, body.game)
                if going is not None:
                    raise ApiError(
                        409, msg("you have a first game of this game going on already: {link}", link=f"/play/{going}")
                    )
            await asyncio.to_thread(
                service.check_caps,
                creator,
                address,
                limits.games_waiting_per_creator,
                limits.games_per_creator,
                opening,
            )
            if bots_only:
                await asyncio.to_thread(
                    service.check_bots_only, creator, address, limits.bots_only_per_creator, limits.bots_only_games
                )
            created = await service.open(body, creator, find_user, extra, address)
        if body.hints:
            analyses.warm(created["id"], [i for i, seat in enumerate(body.seats) if seat.type == "human"])
        if body.clock:
            clocks.changed(service.live[created["id"]])
        return created

    @r.get(
        "/api/account/first-game/{game}",
        response_model=FirstGame,
        tags=["accounts"],
        summary="Your first game of this game (started from the guide) still going on, if any",
    )
    async def first_game(request: Request, game: GameName) -> dict[str, Any]:
        who = accounts.identify(request)
        if who.account is None:
            return {"id": None}
        return {"id": await asyncio.to_thread(first_game_of, service, who.account.id, game)}

    @r.get(
        "/api/game-types",
        response_model=list[GameType],
        tags=["games"],
        summary="The games this server plays, in the registry's order",
    )
    async def game_types() -> list[dict[str, Any]]:
        return [game_type(p) for p in plugins()]

    @r.get("/api/games", response_model=list[Summary], tags=["games"], summary="List games, newest first")
    async def list_games(status: Literal["open", "running", "finished"] | None = Query(None)):
        return service.list_games(status)

    @r.get("/api/games/{game_id}", response_model=Summary, tags=["games"], summary="One game's summary")
    async def game_summary(request: Request, game_id: str = GameId, x_seat_token: str | None = Token):
        return service.summary(await visible(service, accounts, game_id, request, x_seat_token))

    @r.post("/api/games/{game_id}/join", response_model=Joined, tags=["seats"], summary="Claim an open seat")
    async def join(body: Join, request: Request, game_id: str = GameId):
        live = await visible(service, accounts, game_id, request)
        who = accounts.identify(request, write=True)
        check_claim(live, who.account, service)
        return service.join(game_id, body.seat, body.name, account_for_seat_claim(accounts, request))

    return r
