"""Playing a game: actions (checked, applied to a copy, committed, then told), undo, resigning or
handing a seat over to a bot, taking it back, aborting, and the stored changes of seats.

Every change follows one order: check, apply to a copy of the state, commit to the database, and
only then swap the copy in and tell the connected clients. A change that fails at any step leaves
the game exactly as it was.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from sqlalchemy.exc import SQLAlchemyError

from builders.core.errors import BuildersError
from builders.core.messages import msg
from builders.core.state import GameState
from builders.server.live import (
    REQUEST_KEY,
    ApiError,
    Live,
    _saving,
    abort_refusal,
    bot_turn,
    final_result,
    log_entry,
    rebuild,
    row_summary,
    status_of,
    undo_refusal,
)
from builders.server.messages import engine_message
from builders.server.presence import Broadcast
from builders.server.records import Clock, Options, Seat
from builders.server.store import Busy, Stale, Store, StoredStep

log = logging.getLogger("builders.server")

#: ``clock_after(live, state, seats)``: a game's clock after a change to ``state`` and ``seats``
ClockAfter = Callable[[Live, GameState, list[Seat]], "Clock | None"]


class Playing:
    """The changes of the games in memory, each under its game's lock."""

    def __init__(
        self,
        store: Store,
        broadcast: Broadcast,
        refresh: Callable[[Live], Any],
        schedule: Callable[[Live], None],
        trim: Callable[[], None],
        forget: Callable[[str], None],
        check_bots_only: Callable[[int | None, str, int, int], None],
        clock_after: ClockAfter | None = None,
    ):
        self.store = store
        self.broadcast = broadcast
        #: bring a stale copy up to the database (a change refused as stale)
        self.refresh = refresh
        #: let the bot to move play (after a change); forget old finished games; forget a game
        self.schedule = schedule
        self.trim = trim
        self.forget = forget
        #: the caps of games of bots alone (a player leaving may make one)
        self.check_bots_only = check_bots_only
        #: the game's clock after a change (None: clocks do not move; builders.server.clocks.advance).
        #: The clock is stored in the same transaction as the change, under its version check
        self.clock_after = clock_after

    async def write(self, live: Live, method: Any, *args: Any, at_once: bool = False) -> None:
        """Commit one write of ``live`` in a thread (other games go on meanwhile; nobody is told
        before it is committed). A stale copy (another process changed the game) is brought up to
        date, its clients get the fresh state, and the change is refused with 409. ``at_once``: a
        write that may be tried on the event loop first, without waiting (``method(..., wait=False)``:
        a SQLite append), in a thread only if it would have to wait."""
        try:
            if at_once:
                try:
                    method(*args, wait=False)
                except Busy:
                    await asyncio.to_thread(method, *args)
            else:
                await asyncio.to_thread(method, *args)
        except Stale:
            self.refresh(live)
            raise ApiError(
                409,
                msg(
                    "the game was changed meanwhile (by another server process): its current state has been sent; choose again"
                ),
            ) from None
        except SQLAlchemyError:
            log.exception("a database write failed")
            raise ApiError(503, msg("the game could not be saved just now; nothing changed, try again")) from None

    def save_seats(self, live: Live, seats: list[Seat], options: Options | None = None) -> None:
        """Store new seats of ``live`` (and its clock, moved on, and new ``options``) if the stored
        game is still at its version (else 409)."""
        values: dict[str, Any] = {
            "seats": seats,
            "status": status_of(live.state, seats),
            "bot_turn": bot_turn(live.state, seats),
        }
        if options is not None and options.ended is not None:  # ended by a resignation: the clock stops
            values.update(
                status="finished",
                to_move=None,
                bot_turn=False,
                result=final_result(live.presenter, live.state, options),
            )
            kept, live.options = live.options, replace(live.options, ended=options.ended)
            try:
                moved = self.options_after(live, live.state, seats)
            finally:
                live.options = kept
        else:
            moved = self.options_after(live, live.state, seats)
        if options is not None:
            values["options"] = replace(options, clock=moved.clock) if moved is not None else options
            values["bots_only"] = bool(options.bots_only)
        elif moved is not None:
            values["options"] = moved
        try:
            self.store.update(live.id, values, version=live.version)
        except Stale:
            if not live.lock.locked():
                self.refresh(live)
            raise ApiError(409, msg("the game was changed meanwhile (by another server process): try again")) from None
        live.version += 1
        if "options" in values:
            live.options = values["options"]

    def options_after(self, live: Live, state: GameState, seats: list[Seat]) -> Options | None:
        """The game's options after a change to ``state`` and ``seats`` if its clock moves on (None:
        nothing to store with the change)."""
        if self.clock_after is None or not live.options.clock:
            return None
        clock = self.clock_after(live, state, seats)
        return None if clock is None else replace(live.options, clock=clock)

    async def act_as(self, live: Live, seat: int, text: Any, version: Any = None, key: Any = None) -> None:
        """Play ``text`` for ``seat`` (whose token was checked). ``key`` is the client's key for the
        action: an action already stored with the same key and seat is not played again."""
        if not isinstance(text, str):
            raise ApiError(400, msg("the action must be a string in the game's notation"))
        if version is not None and (isinstance(version, bool) or not isinstance(version, int)):
            raise ApiError(400, msg("version must be a whole number"))
        if key is None:
            key = REQUEST_KEY.get()
        if key is not None and (not isinstance(key, str) or not 0 < len(key) <= 100):
            raise ApiError(400, msg("the idempotency key must be a string of 1 to 100 characters"))
        if key is not None and not key.isprintable():
            raise ApiError(400, msg("the idempotency key: control and invisible characters are not allowed"))
        async with live.lock:
            if key is not None and self._keyed(live, seat, key):
                return
            if live.seats[seat].type != "human":
                raise ApiError(403, msg("seat {seat} is played by a bot now", seat=seat))
            try:
                await self.apply(live, seat, text, version=version, by_bot=False, key=key)
            except ApiError as e:
                if key is not None and e.status == 409 and self._keyed(live, seat, key):
                    return  # another process stored this very action: it is applied once
                raise

    @staticmethod
    def _keyed(live: Live, seat: int, key: str) -> bool:
        for step in reversed(live.steps):
            if step.key == key:
                if step.seat != seat:
                    raise ApiError(409, msg("this idempotency key was used for another seat's action"))
                return True
        return False

    async def apply(
        self, live: Live, seat: int, text: str, version: int | None, by_bot: bool, key: str | None = None
    ) -> None:
        st = live.state
        if live.over:
            raise ApiError(409, msg("the game is over"))
        if seat != st.current_player:
            raise ApiError(403, msg("it is seat {turn}'s turn, not seat {seat}'s", turn=st.current_player, seat=seat))
        if version is not None and version != live.version:
            raise ApiError(
                409,
                msg("the game has changed: it is at version {version}, not {sent}", version=live.version, sent=version),
            )
        if len(text) > 200:
            raise ApiError(400, msg("an action is at most 200 characters long"))
        new = st.copy()
        try:
            action = new.parse_action(text)
            before = len(st.history)  # (the same as the copy's; the old position's is made already)
            new.apply(action)
        except BuildersError as e:
            raise ApiError(400, engine_message(e)) from None
        chance = [str(c) for c in new.history[before + 1 :]]
        step = StoredStep(seat, new.action_to_string(action), chance, by_bot, key)
        n = len(live.steps)
        summary = row_summary(live, new, live.version + 1, n + 1)
        options = self.options_after(live, new, live.seats)
        if options is not None:
            summary["options"] = options
        await self.write(live, self.store.append, live.id, n, step, summary, live.version, at_once=self.store.sqlite)
        # committed: now the change is real and may be told
        if options is not None:
            live.options = options
        if not chance and not new.is_over() and new.current_player == seat:
            live.undo.append(st)
        else:
            live.undo.clear()
        live.state = new
        live.steps.append(step)
        live.log.append(log_entry(live.presenter, new, n, seat, action, chance))
        live.version += 1
        live.changed()
        self.broadcast.send_views(live)
        if new.is_over():
            self.trim()
        else:
            self.schedule(live)

    async def undo_as(self, live: Live, seat: int) -> None:
        async with live.lock:
            reason = undo_refusal(live, seat)
            if reason is not None:
                raise ApiError(409, reason)
            n = len(live.steps) - 1
            prev = live.undo[-1] if live.undo else rebuild(live, n)
            summary = row_summary(live, prev, live.version + 1, n)
            options = self.options_after(live, prev, live.seats)
            if options is not None:
                summary["options"] = options
            await self.write(live, self.store.pop, live.id, n, live.steps[-1], summary, live.version)
            if options is not None:
                live.options = options
            if live.undo:
                live.undo.pop()
            live.state = prev
            live.steps.pop()
            live.log.pop()
            live.version += 1
            live.changed()
            self.broadcast.send_views(live)

    async def resign_as(
        self,
        live: Live,
        seat: int,
        level: str | None,
        address: str | None = None,
        caps: tuple[int, int] | None = None,
        kind: str | None = None,
    ) -> None:
        """``level`` given: a bot of that level takes ``seat`` over (the player hands the seat over,
        and may take it back in an unrated game). None: the player resigns, a real loss: placed last
        and rated so; with one player left the game ends and that player wins, else the others play
        on and a bot plays the resigned seat's turns (the level the creator chose, easy by default).

        When no person is left playing, the game becomes one of bots alone: the caps of those count it
        for its creator and for ``address`` (a digest of the address of who left, if known); with
        ``caps`` (per creator, on the server: :meth:`check_bots_only`) a leaving beyond them is
        refused (409), as the creation of such a game would be. The game's events (``kind``: default
        resigned or handed_over; the clocks say timeout) note it for every player."""
        async with live.lock:
            if live.over:
                raise ApiError(409, msg("the game is over"))
            if live.seats[seat].type != "human":
                raise ApiError(409, msg("seat {seat} is already played by a bot", seat=seat))
            seats = list(live.seats)
            mine = seats[seat] = replace(live.seats[seat])
            resigned = list(live.options.resigned or [])
            options: Options | None = None
            if level is None:
                resigned.append(seat)
                mine.resigned = True
                options = replace(live.options, resigned=resigned)
                left = [s.seat for s in seats if s.seat not in resigned]
                if len(left) == 1:  # one player left: the game ends, that player wins
                    options.ended = {"reason": "resignation", "winners": left}
                else:
                    mine.type, mine.level = "bot", live.options.resign_bot or "easy"
            else:
                mine.type, mine.level, mine.resigned = "bot", level, False
            options = with_event(
                options or live.options,
                kind or ("resigned" if level is None else "handed_over"),
                seat,
                mine.level if mine.bot else None,
                live,
            )
            if options.ended is None and all(s.bot for s in seats) and not live.options.bots_only:
                if caps is not None:
                    try:
                        await asyncio.to_thread(self.check_bots_only, live.options.creator, address or "?", *caps)
                    except ApiError as e:
                        raise ApiError(
                            409,
                            msg(
                                "leaving would leave this game to bots alone: {reason}", reason=e.message.params["cap"]
                            ),
                        ) from None
                options.bots_only = True
                if address is not None and not options.address:
                    options.address = address
            with _saving():
                self.save_seats(live, seats, options)
            live.seats = seats
            live.changed()
            self.broadcast.send_views(live)
            self.schedule(live)

    async def take_back(self, live: Live, seat: int) -> None:
        """The player of ``seat``, handed over to a bot, plays it again (an unrated game only)."""
        async with live.lock:
            info, stored = replace(live.seats[seat]), live.options
            if live.over:
                raise ApiError(409, msg("the game is over"))
            if not info.bot or info.resigned or (info.token_sha is None and info.account is None):
                raise ApiError(
                    409, msg("seat {seat} was not handed over to a bot: there is nothing to take back", seat=seat)
                )
            if stored.rated:
                raise ApiError(409, msg("in a rated game a seat handed over to a bot stays with it"))
            if stored.clock and seat in stored.clock.flagged:
                raise ApiError(409, msg("seat {seat}'s time ran out: it stays with the bot", seat=seat))
            info.type, info.level = "human", None
            seats = list(live.seats)
            seats[seat] = info
            options = with_event(live.options, "took_back", seat, None, live)
            if stored.bots_only:
                options.bots_only = False
            with _saving():
                self.save_seats(live, seats, options)
            live.seats = seats
            if live.bot_task is not None and not live.bot_task.done():
                live.bot_task.cancel()
            live.changed()
            self.broadcast.send_views(live)

    async def abort(self, live: Live) -> None:
        """End ``live`` without a result, before every person has made a first move: it is deleted
        (no result, no rating, gone from every list); its sockets are told and closed."""
        async with live.lock:
            why = abort_refusal(live)
            if why is not None:
                raise ApiError(409, why)
            try:
                with _saving():
                    await asyncio.to_thread(self.store.delete_game, live.id, live.version)
            except Stale:
                self.refresh(live)
                raise ApiError(
                    409, msg("the game was changed meanwhile (by another server process): try again")
                ) from None
            for client in list(live.clients):
                client.send('{"type":"aborted","message":"the game was aborted"}')
            live.changed()
        if live.bot_task is not None and not live.bot_task.done():
            live.bot_task.cancel()
        self.forget(live.id)


def with_event(options: Options, kind: str, seat: int, bot: str | None, live: Live) -> Options:
    """A copy of ``options`` with an event of ``seat`` added (see :class:`builders.server.schemas.GameEvent`)."""
    event = {"kind": kind, "seat": seat, "bot": bot, "after": len(live.steps), "at": time.time()}
    return replace(options, events=[*(options.events or []), event])
