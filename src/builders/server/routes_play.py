"""The routes of playing: a seat's (or a spectator's) view, actions, undo, resigning or handing a
seat over to a bot, taking it back, aborting, and the game socket."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Body, Request, WebSocket
from fastapi.responses import Response

from builders.server.accounts import Accounts
from builders.server.games import GameService
from builders.server.guard import Limits
from builders.server.messages import language
from builders.server.privacy import visible
from builders.server.routes_common import GameId, SeatChoice, Token, client_address, json_text
from builders.server.schemas import ActionBody, ResignBody, Summary, View
from builders.server.seats import seat_for
from builders.server.ws import game_socket


def router(service: GameService, accounts: Accounts, limits: Limits, metrics: Any = None) -> APIRouter:
    r = APIRouter()

    @r.get(
        "/api/games/{game_id}/state",
        response_model=View,
        tags=["play"],
        summary="The view of a seat (with its token) or of a spectator (without)",
    )
    async def state(
        request: Request, game_id: str = GameId, x_seat_token: str | None = Token, seat: int | None = SeatChoice
    ):
        live = await visible(service, accounts, game_id, request, x_seat_token)
        return json_text(
            service.view_text(
                live, seat_for(service, accounts, live, request, x_seat_token, seat, False), language(request)
            )
        )

    @r.post(
        "/api/games/{game_id}/actions",
        response_model=View,
        tags=["play"],
        summary="Play an action for the seat of the token",
    )
    async def act(
        body: ActionBody,
        request: Request,
        game_id: str = GameId,
        x_seat_token: str | None = Token,
        seat: int | None = SeatChoice,
    ):
        live = await visible(service, accounts, game_id, request, x_seat_token)
        who = seat_for(service, accounts, live, request, x_seat_token, seat, True)
        await service.act_as(live, who, body.action, body.version)
        return json_text(service.view_text(live, who, language(request)))

    @r.post(
        "/api/games/{game_id}/undo",
        response_model=View,
        tags=["play"],
        summary="Take back the seat's last action of its turn",
    )
    async def undo(
        request: Request, game_id: str = GameId, x_seat_token: str | None = Token, seat: int | None = SeatChoice
    ):
        live = await visible(service, accounts, game_id, request, x_seat_token)
        who = seat_for(service, accounts, live, request, x_seat_token, seat, True)
        await service.undo_as(live, who)
        return json_text(service.view_text(live, who, language(request)))

    @r.post(
        "/api/games/{game_id}/resign",
        response_model=Summary,
        tags=["seats"],
        summary="Resign (a loss: placed last; with one player left the game ends), or with "
        '{"bot": level} hand the seat over to a bot',
    )
    async def resign(
        request: Request,
        game_id: str = GameId,
        x_seat_token: str | None = Token,
        body: ResignBody | None = Body(None),
        seat: int | None = SeatChoice,
    ):
        live = await visible(service, accounts, game_id, request, x_seat_token)
        who = seat_for(service, accounts, live, request, x_seat_token, seat, True)
        await service.resign_as(
            live,
            who,
            body.bot if body else None,
            client_address(request),
            (limits.bots_only_per_creator, limits.bots_only_games),
        )
        return service.summary(live)

    @r.post(
        "/api/games/{game_id}/take-back",
        response_model=Summary,
        tags=["seats"],
        summary="Play again a seat you handed over to a bot (unrated games)",
    )
    async def take_back(
        request: Request, game_id: str = GameId, x_seat_token: str | None = Token, seat: int | None = SeatChoice
    ):
        live = await visible(service, accounts, game_id, request, x_seat_token)
        who = seat_for(service, accounts, live, request, x_seat_token, seat, True)
        await service.take_back(live, who)
        return service.summary(live)

    @r.post(
        "/api/games/{game_id}/abort",
        status_code=204,
        tags=["seats"],
        summary="End the game without a result, before every player has made a first move",
    )
    async def abort(
        request: Request, game_id: str = GameId, x_seat_token: str | None = Token, seat: int | None = SeatChoice
    ):
        live = await visible(service, accounts, game_id, request, x_seat_token)
        seat_for(service, accounts, live, request, x_seat_token, seat, True)  # a player of the game
        await service.abort(live)
        return Response(status_code=204)

    @r.websocket("/ws/games/{game_id}")
    async def socket(ws: WebSocket, game_id: str):
        await game_socket(ws, game_id, service, accounts, metrics)

    return r
