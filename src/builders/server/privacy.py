"""Private games are seen by their players only, running or finished: the summary, the views and the
sockets, the record and the replays, the hints and the analysis, the chat, and the lists and
profiles. To anyone else a private game answers as a game that does not exist (404 ``there is no
game '<id>'``), so its existence is not told either.

A player is a request with the seat token of one of its seats (``X-Seat-Token``), or of an account
(session cookie or personal API token) that has a seat in it or created it.
"""

from __future__ import annotations

from typing import Any

from builders.server.games import ApiError, GameService, Live


def account_of(accounts: Any, request: Any) -> int | None:
    """The account id of ``request`` (None: none, or a credential that is not valid)."""
    if accounts is None or request is None:
        return None
    try:
        who = accounts.identify(request)
    except ApiError:
        return None
    return who.account.id if who.account else None


def check_visible(service: GameService, accounts: Any, live: Live, request: Any, token: Any = None) -> None:
    """404, as for a game that does not exist, when ``live`` is private and ``request`` (with the
    seat token ``token``) is not one of its players'."""
    if live.options.private and not service.may_see(live, account_of(accounts, request), token):
        raise service.no_such_game(live.id)


async def visible(service: GameService, accounts: Any, game_id: str, request: Any, token: Any = None) -> Live:
    """The game ``game_id`` (loaded if need be) if ``request`` may see it, else 404."""
    live = await service.fetch(game_id)
    check_visible(service, accounts, live, request, token)
    return live
