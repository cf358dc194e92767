"""The routes of finished games' records: the record and the position after any number of actions."""

from __future__ import annotations

from fastapi import APIRouter, Path as PathParam, Request

from builders.server.accounts import Accounts
from builders.server.games import GameService
from builders.server.messages import language
from builders.server.privacy import visible
from builders.server.routes_common import GameId, Token
from builders.server.schemas import RecordModel, ReplayView


def router(service: GameService, accounts: Accounts) -> APIRouter:
    r = APIRouter()

    @r.get(
        "/api/games/{game_id}/record",
        response_model=RecordModel,
        tags=["records"],
        summary="The record of a finished game",
    )
    async def record(request: Request, game_id: str = GameId, x_seat_token: str | None = Token):
        return service.finished_record((await visible(service, accounts, game_id, request, x_seat_token)).id)

    @r.get(
        "/api/games/{game_id}/replay/{n}",
        response_model=ReplayView,
        tags=["records"],
        summary="A finished game's position after n actions",
    )
    async def replay(
        request: Request, game_id: str = GameId, n: int = PathParam(ge=0, le=100_000), x_seat_token: str | None = Token
    ):
        return service.replay_view(
            (await visible(service, accounts, game_id, request, x_seat_token)).id, n, language(request)
        )

    return r
