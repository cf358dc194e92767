"""Presence and broadcast: who watches each game (its sockets here and, through the fan-out, on
other server processes) and what they are told (their views after a change, the messages of the
game, the seats present and the spectators' count).

:class:`Audience` counts the seats present and the spectators; :class:`Broadcast` sends the views
(built by :class:`builders.server.views.Views`, handed in as ``message_for``) and the messages, and
calls the listeners of a change (the fan-out, the clocks, the ratings) after each.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from builders.server.live import Client, Live


class Audience:
    """The seats connected and the spectators of each game, here and on other server processes."""

    def __init__(self) -> None:
        #: the seats connected through other server processes, per game (kept by the fan-out)
        self.remote_seats: dict[str, set[int]] = {}
        #: the spectators (sockets without a seat) watching through other server processes, per game
        self.remote_spectators: dict[str, int] = {}

    def connected(self, live: Live) -> set[int]:
        """The seats of ``live`` with a socket open, through any server process."""
        here = {c.seat for c in live.clients if c.seat is not None}
        there = self.remote_seats.get(live.id)
        return here | there if there else here

    def spectators(self, live: Live) -> int:
        """How many sockets without a seat watch ``live``, through any server process."""
        return sum(1 for c in live.clients if c.seat is None) + self.remote_spectators.get(live.id, 0)

    def presence(self, live: Live) -> tuple[set[int], int]:
        """The seats connected and the number of spectators: a change of either is pushed."""
        return self.connected(live), self.spectators(live)


class Broadcast:
    """The clients of each game in this process and what they are told."""

    def __init__(
        self,
        audience: Audience,
        message_for: Callable[[Live, Client], str],
        on_change: list[Callable[[Live], None]],
        on_event: list[Callable[[Live, str, str], Any]],
    ):
        self.audience = audience
        #: the state message of a client (its seat's view in its language)
        self.message_for = message_for
        #: called, in order, after every change of a game a client may see
        self.on_change = on_change
        #: called by tell() (the fan-out of messages such as chat to other processes)
        self.on_event = on_event

    def add_client(self, live: Live, client: Client) -> None:
        """A new client: it gets its view; the others only if the seats present changed."""
        before = self.audience.presence(live)
        live.used = time.monotonic()
        live.clients.add(client)
        self._presence(live, before, client)

    def client_changed(
        self, live: Live, client: Client | None = None, before: tuple[set[int], int] | None = None
    ) -> None:
        """``client`` said hello again (its seat may differ; ``before``: :meth:`presence` before)."""
        if client is None or before is None:
            live.changed()
            self.send_views(live)
        else:
            self._presence(live, before, client)

    def remove_client(self, live: Live, client: Client) -> None:
        """``client`` has gone: the others are told if the seats present changed."""
        if client in live.clients:
            live.used = time.monotonic()
            before = self.audience.presence(live)
            live.clients.discard(client)
            self._presence(live, before, None)

    def _presence(self, live: Live, before: tuple[set[int], int], client: Client | None) -> None:
        """Tell what changed since the presence ``before`` (and ``client`` its view)."""
        now = self.audience.presence(live)
        if now[0] != before[0]:  # the seats present changed: everyone is told
            live.changed()
            self.send_views(live)
        elif now[1] != before[1]:
            # only the spectators' count: the players are told, and the client that said hello; the
            # other spectators see the count with their next view (a crowd arriving costs each
            # arrival a few messages, not one per spectator)
            live.changed()
            self.tell_players_presence(live, client)
            for listener in self.on_change:
                listener(live)
        elif client is not None:
            client.send(self.message_for(live, client))

    def tell_players_presence(self, live: Live, client: Client | None = None) -> None:
        """Send the fresh view to the players of ``live`` here (and to ``client``)."""
        for other in list(live.clients):
            if other.seat is not None or other is client:
                other.send(self.message_for(live, other))

    def tell(self, live: Live, text: str, audience: str = "all") -> None:
        """Send the message ``text`` to the clients of ``live`` connected to any server process:
        "all", the "players" (clients with a seat) or the "spectators"."""
        self.tell_here(live, text, audience)
        for listener in self.on_event:
            listener(live, text, audience)

    def tell_here(self, live: Live, text: str, audience: str = "all") -> None:
        """:meth:`tell` to the clients of this process only."""
        for client in list(live.clients):
            if audience == "all" or (client.seat is not None) == (audience == "players"):
                client.send(text)

    def send_views(self, live: Live) -> None:
        """Send every client of ``live`` here its view, then call the listeners of a change."""
        live.used = time.monotonic()
        for client in list(live.clients):
            client.send(self.message_for(live, client))
        for listener in self.on_change:
            listener(live)
