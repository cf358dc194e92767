"""The chat of a game, and rematches.

Two channels per game: ``players`` (the people seated at the table) and ``spectators`` (everyone
else watching); each person reads and writes their own. Messages are stored with the game (table
``chat``), at most 500 characters (line breaks are kept, other control characters refused), rate
limited per person, and go out to the game's sockets as ``{"type": "chat", ...}``. The web client
shows them as text, never as markup.

A rematch offers the same seats a new game: the same accounts in the same seats, bots of the same
levels, open seats open again; the finished game's summary then names it (``rematch``).
"""

from __future__ import annotations

import json
import time
from dataclasses import replace
from typing import Any

from fastapi import APIRouter, Path as PathParam, Request
from builders.core.messages import msg
from builders.server import names
from builders.server.accounts import Accounts, RateLimit
from builders.server.games import ApiError, GameService, Live, _saving
from builders.server.repos.chat import ChatRecord, ChatRepo
from builders.server.privacy import visible
from builders.server.schemas import GAME_ID_PATTERN, ChatBody, ChatMessage, Created, CreateGame
from builders.server.seats import seat_for

MAX_CHAT = 500
#: messages kept in a channel's answer (the newest)
HISTORY = 200
SEAT_NAMES = ("Red", "Blue", "White", "Black")


class Chat:
    def __init__(self, service: GameService, accounts: Accounts, per_person: tuple[int, float] = (5, 10.0)):
        self.service = service
        self.accounts = accounts
        self.rows = ChatRepo(service.store.engine)
        self.limit = RateLimit(*per_person)

    def messages(self, game_id: str, channel: str) -> list[dict[str, Any]]:
        return [_public(r) for r in self.rows.messages(game_id, channel, HISTORY)]

    def post(self, live: Live, seat: int | None, account: Any, text: Any) -> dict[str, Any]:
        if not isinstance(text, str) or not text.strip():
            raise ApiError(400, msg("a chat message needs some text"))
        text = text.strip()
        if len(text) > MAX_CHAT:
            raise ApiError(
                400,
                msg("a chat message has at most {count} characters, not {length}", count=MAX_CHAT, length=len(text)),
            )
        try:  # the HTTP body was checked already; any other caller is checked here
            names.check_text(text, "chat message", newlines=True)
        except names.BadText as e:
            raise ApiError(400, e.message) from None
        if seat is None and account is None:
            raise ApiError(401, msg("sign in or play as a guest to chat"))
        channel = "players" if seat is not None else "spectators"
        who = f"account:{account.id}" if account is not None else f"seat:{live.id}:{seat}"
        wait = self.limit.check(who)
        if wait:
            raise ApiError(429, msg("too many chat messages; wait {seconds} seconds", seconds=int(wait) + 1))
        author = account.display if account is not None else SEAT_NAMES[seat]
        now = time.time()
        with _saving():
            stored = self.rows.add(live.id, channel, account.id if account else None, author, seat, text, now)
        message = _public(stored)
        wire = json.dumps({"type": "chat", **message})
        self.service.tell(live, wire, channel)  # on every server process
        return message


def _public(m: ChatRecord) -> dict[str, Any]:
    return {
        "id": m.id,
        "channel": m.channel,
        "author": m.author,
        "seat": m.seat,
        "text": m.text,
        "at": m.at,
        "account": m.by_account,
    }


def make_rematch(service: GameService, live: Live, creator: int) -> dict[str, Any]:
    """The same table again: each account in its seat, bots of the same levels, other seats open. The
    finished game then names the new one (``rematch`` in its summary)."""
    stored = live.options
    seats: list[dict[str, Any]] = []
    for s in live.seats:
        if s.account == creator:
            seats.append({"type": "human"})
        elif s.account is not None:
            seats.append({"type": "human", "user": f"#id{s.account}"})
        elif s.bot and s.token_sha is None:
            seats.append({"type": "bot", "level": s.level})
        else:  # (a private game's seat for someone else is an invitation: it has no open seats)
            seats.append({"type": "human", "invite": True} if stored.private else {"type": "human", "open": True})
    req = CreateGame(game=live.game, seats=seats, name=live.name, private=stored.private, colours=stored.colours)

    def by_id(ref: str) -> int | None:  # the seats name accounts by id here, never by a typed name
        return int(ref[3:]) if ref.startswith("#id") else None

    created = service.create(req, creator, by_id)
    options = replace(stored, rematch=created["id"])
    with _saving():
        service.store.update(live.id, {"options": options})
    live.options = options
    live.changed()
    for client in list(live.clients):
        client.send(service.message_for(live, client))
    return created


def router(service: GameService, accounts: Accounts, chat: Chat) -> APIRouter:
    r = APIRouter()

    @r.get(
        "/api/games/{game_id}/chat",
        response_model=list[ChatMessage],
        tags=["chat"],
        summary="The chat of your channel: players (seated) or spectators",
    )
    async def read(request: Request, game_id: str = PathParam(pattern=GAME_ID_PATTERN)):
        live = await visible(service, accounts, game_id, request, request.headers.get("x-seat-token"))
        seat = seat_for(service, accounts, live, request, request.headers.get("x-seat-token"), None, False)
        return chat.messages(live.id, "players" if seat is not None else "spectators")

    @r.post(
        "/api/games/{game_id}/chat",
        status_code=201,
        response_model=ChatMessage,
        tags=["chat"],
        summary="Say something in your channel (at most 500 characters)",
        responses={429: {"description": "too many messages"}},
    )
    async def say(body: ChatBody, request: Request, game_id: str = PathParam(pattern=GAME_ID_PATTERN)):
        live = await visible(service, accounts, game_id, request, request.headers.get("x-seat-token"))
        token = request.headers.get("x-seat-token")
        who = accounts.identify(request, write=True) if token is None else None
        seat = seat_for(service, accounts, live, request, token, None, False)
        return chat.post(live, seat, who.account if who else None, body.text)

    @r.post(
        "/api/games/{game_id}/rematch",
        status_code=201,
        response_model=Created,
        tags=["seats"],
        summary="Offer the same seats a new game (a player of a finished game)",
    )
    async def rematch(request: Request, game_id: str = PathParam(pattern=GAME_ID_PATTERN)):
        live = await visible(service, accounts, game_id, request)
        who = accounts.identify(request, write=True)
        mine = service.seats_of(live, who.account.id if who.account else None)
        if not mine:
            raise ApiError(403, msg("only a signed-in player of this game can offer a rematch"))
        if not live.over:
            raise ApiError(409, msg("a rematch is offered once the game is over"))
        if live.options.rematch:
            raise ApiError(409, msg("a rematch was offered already: game {rematch}", rematch=live.options.rematch))
        return make_rematch(service, live, who.account.id)

    return r
