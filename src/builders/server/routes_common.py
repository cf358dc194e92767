"""What the routers of the games share: the path and header parameters, a client's address digest
and a JSON answer from text encoded already."""

from __future__ import annotations

import hashlib

from fastapi import Header, Path as PathParam, Query
from fastapi.responses import Response

from builders.server.schemas import GAME_ID_PATTERN

GameId = PathParam(pattern=GAME_ID_PATTERN, description="the game's id")
Token = Header(None, alias="X-Seat-Token", description="the seat's secret token")
SeatChoice = Query(None, ge=0, le=3, description="which of your seats (signed in with several seats of the game)")


def address(client: str) -> str:
    """The digest the caps of games of bots alone know a client's address by."""
    return hashlib.sha256(client.encode()).hexdigest()[:24]


def client_address(request) -> str:
    """The digest of ``request``'s client address ("?" when unknown)."""
    return address(request.client.host if request.client else "?")


def json_text(text: str, status: int = 200) -> Response:
    """A JSON answer whose body is ``text`` (encoded already)."""
    return Response(content=text, status_code=status, media_type="application/json")
