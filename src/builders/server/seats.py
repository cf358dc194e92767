"""Seats belong to accounts: who plays which seat of a request, invitations, and "your games".

A request plays or views a seat in one of three ways: a seat token (header ``X-Seat-Token``, for
programs without an account), a personal API token (``Authorization: Bearer``) or the session cookie
(a browser; changes need the CSRF token). With an account, ``?seat=N`` chooses among the account's
seats of the game (pass-and-play); without it the account's seat to move, else its first seat.
"""

from __future__ import annotations

import hmac
from dataclasses import replace
from typing import Any

from fastapi import APIRouter, Path as PathParam, Request
from builders.core.messages import msg
from builders.server.accounts import Accounts, Who
from builders.server.games import ApiError, GameService, Live, _saving, token_hash
from builders.server.repos.games import GameRepo
from builders.server.privacy import check_visible, visible
from builders.server.ratings import check_claim
from builders.server.schemas import GAME_ID_PATTERN, Claim, Joined, MyGame, MySeats, Waiting


def seat_for(
    service: GameService, accounts: Accounts, live: Live, request: Any, token: Any, wanted: int | None, write: bool
) -> int | None:
    """The seat a request acts for or views (None: a spectator). A write needs a seat."""
    if token is not None:
        seat = service.seat_of(live, token)
        if wanted is not None and wanted != seat:
            raise ApiError(403, msg("the seat token is seat {seat}'s, not seat {wanted}'s", seat=seat, wanted=wanted))
        return seat
    who = accounts.identify(request, write=write)
    mine = service.seats_of(live, who.account.id if who.account else None)
    if wanted is not None:
        if wanted not in mine:
            raise ApiError(403, msg("seat {wanted} is not yours in this game", wanted=wanted))
        return wanted
    if not mine:
        if write:
            if who.account is None:
                raise ApiError(
                    401, msg("this needs the seat token (header X-Seat-Token) or a signed-in player of the seat")
                )
            raise ApiError(403, msg("you have no seat in this game"))
        return None
    to_move = live.to_move
    return to_move if to_move in mine else mine[0]


def used_invitation(live: Live, code: str) -> bool:
    """Whether ``code`` is the invitation of a seat that was taken with it (every seat is looked at)."""
    digest = token_hash(code).encode()
    used = False
    for s in live.seats:
        used |= hmac.compare_digest((s.used_invite_sha or "").encode(), digest)
    return used


def waiting_games(service: GameService, account: int) -> list[dict[str, Any]]:
    """The games not over in which it is one of ``account``'s seats' turn (a seat a bot plays is not
    waiting), newest first."""
    return [
        {"id": g.id, "game": g.game, "name": g.name, "turn": g.turn}
        for g in GameRepo(service.store.engine).waiting_for(account)
    ]


def account_for_seat_claim(accounts: Accounts, request: Request) -> int | None:
    """The account that takes a seat (None: a program without an account gets a seat token)."""
    who: Who = accounts.identify(request, write=True)
    return who.account.id if who.account else None


async def adopt(service: GameService, guest: int, account: int) -> list[str]:
    """The seats of a guest's games become ``account``'s (a guest signing in to a named account);
    returns the games."""
    moved = []
    for row in service.store.games_of(guest, limit=1000):
        live = service.get(row["id"])
        async with live.lock:
            if not any(s.account == guest for s in live.seats):
                continue
            seats = [replace(s, account=account) if s.account == guest else s for s in live.seats]
            with _saving():
                service._save_seats(live, seats)
            live.seats = seats
            live.changed()
            service._broadcast(live)
        moved.append(live.id)
    return moved


def router(service: GameService, accounts: Accounts) -> APIRouter:
    r = APIRouter()

    @r.post(
        "/api/games/{game_id}/claim",
        response_model=Joined,
        tags=["seats"],
        summary="Take the seat of a one-time invitation link",
        responses={410: {"description": "the invitation was used already"}},
    )
    async def claim(body: Claim, request: Request, game_id: str = PathParam(pattern=GAME_ID_PATTERN)):
        live = await service.fetch(game_id)
        if service.invited_seat(live, body.code) is None:  # (an invitation is the way into a private game)
            check_visible(service, accounts, live, request)
            # what is wrong with the link comes first: a used one is said to be used, whoever opens it
            if used_invitation(live, body.code):
                raise ApiError(410, msg("this invitation was already used"))
            raise ApiError(404, msg("this invitation link is not valid: ask for a new one"))
        if live.over:
            raise ApiError(409, msg("the game is over"))
        who = accounts.identify(request, write=True)
        check_claim(live, who.account, service)
        return service.claim(game_id, body.code, account_for_seat_claim(accounts, request))

    @r.get(
        "/api/games/{game_id}/mine",
        response_model=MySeats,
        tags=["seats"],
        summary="Your seats in this game (signed in or a guest)",
    )
    async def my_seats(request: Request, game_id: str = PathParam(pattern=GAME_ID_PATTERN)):
        live = await visible(service, accounts, game_id, request, request.headers.get("x-seat-token"))
        who = accounts.identify(request)
        return {"seats": service.seats_of(live, who.account.id if who.account else None)}

    @r.get(
        "/api/account/waiting",
        response_model=Waiting,
        tags=["accounts"],
        summary="The games in which it is your turn (cheap: asked every few seconds by the pages)",
    )
    async def waiting(request: Request):
        who = accounts.identify(request)
        return {"games": waiting_games(service, who.account.id) if who.account else []}

    @r.get(
        "/api/account/games",
        response_model=list[MyGame],
        tags=["accounts"],
        summary="Your games, newest first (with the games of bots alone you created, while they go on); "
        "waiting: it is your turn",
    )
    async def my_games(request: Request):
        who = accounts.identify(request)
        if who.account is None:
            return []
        rows = service.store.games_of(who.account.id)
        # the games of bots alone it created and watches (no seat of its own, or one it left) while
        # they go on
        held = {row["id"] for row in rows}
        watched = [row for row in service.store.bots_only_of(who.account.id) if row["id"] not in held]
        if watched:
            rows = sorted(rows + watched, key=lambda row: (-row["created"], row["id"]))
        out = []
        for summary, row in zip(service.list_games(None, rows), rows):
            mine = [s.seat for s in row["seats"] if s.account == who.account.id]
            live = service.live.get(row["id"])
            if live is not None:
                mine = service.seats_of(live, who.account.id)
            waiting = (
                summary["status"] != "finished"
                and summary["to_move"] in mine
                and (summary["seats"][summary["to_move"]]["type"] == "human")
            )
            out.append({**summary, "my_seats": mine, "waiting": waiting})
        return out

    return r
