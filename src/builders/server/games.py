"""The game service: keeps the games in use in memory (loads them, catches up with other processes,
forgets the unused ones), creates and joins games, knows the seats and their tokens, and wires the
parts that do the rest, each given its collaborators when it is built: the views
(:mod:`builders.server.views`), presence and broadcast (:mod:`builders.server.presence`), playing
(:mod:`builders.server.playing`) and the bots' turns (:mod:`builders.server.scheduling`).

Only the games in use stay in memory: those with a socket open, a request or a change in the last
``keep_idle`` seconds, or a bot thinking. A sweep forgets the others, and :meth:`GameService.fetch`
(or :meth:`GameService.get`) loads a game again when it is asked for. At start the process that acts
for the machine loads only the games that need it (a bot to move, a clock running), found by a
query (``Store.attention_ids``), not by loading every game going on.

Every change follows one order (see :mod:`builders.server.playing`): check, apply to a copy of the
state, commit to the database, and only then swap the copy in and tell the connected clients.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import logging
import secrets
import time
from collections.abc import Callable, Iterable
from dataclasses import replace
from typing import Any

from sqlalchemy.exc import SQLAlchemyError

from builders.core.errors import BuildersError, InvalidSetup
from builders.core.games import get_game
from builders.core.messages import Message, msg
from builders.core.record import UnusedChance, apply_recorded
from builders.core.state import GameState
from builders.core.view import get_view
from builders.server.bots import BotRunner
from builders.server.live import (  # (the names other modules import from here)
    ApiError,
    Live,
    _saving,
    abort_refusal,
    final_result,
    initial_state,
    log_entry,
    record,
    row_summary,
    token_hash,
    undo_refusal,
)
from builders.server.messages import DEFAULT as DEFAULT_LANGUAGE
from builders.server.messages import engine_message
from builders.server.records import Options, Seat
from builders.server.schemas import CreateGame, SetupSpec
from builders.server.playing import ClockAfter, Playing
from builders.server.presence import Audience, Broadcast
from builders.server.scheduling import BotTurns
from builders.server.store import Store, StoredStep
from builders.server.views import LIST_LIMIT, LOBBY_PER_CREATOR, Views

log = logging.getLogger("builders.server")

MAX_TOKEN_LENGTH = 100
#: finished games kept in memory without a client (the oldest others are loaded again when asked for)
KEEP_FINISHED = 200
#: seconds a game nobody uses stays in memory, and how often the sweep looks (defaults)
KEEP_IDLE = 600.0
SWEEP_EVERY = 60.0


#: the keys a new seat is stored with (a person's, a bot's)
HUMAN_SEAT_KEYS = ("seat", "type", "level", "name", "open", "claimed", "resigned", "token_sha", "account", "invite_sha")
BOT_SEAT_KEYS = HUMAN_SEAT_KEYS[:8]

# the colours a seat may be given (web client: PALETTE in static/api.js, in the same order)
COLOURS = ("red", "blue", "white", "black", "yellow", "purple", "pink", "teal")


def check_colours(colours: list[str], players: int) -> None:
    """Refuse a list of seat colours that is not one known colour per seat, each a different one."""
    if len(colours) != players:
        raise ApiError(
            400,
            msg("give one colour per seat: {players} colours, not {colours}", players=players, colours=len(colours)),
        )
    for i, colour in enumerate(colours):
        if colour not in COLOURS:
            raise ApiError(
                400,
                msg(
                    "seat {seat} has an unknown colour {colour!r}: choose one of {colours}",
                    seat=i,
                    colour=colour,
                    colours=", ".join(COLOURS),
                ),
            )
    for i, colour in enumerate(colours):
        if colour in colours[:i]:
            raise ApiError(
                400,
                msg(
                    "seats {first} and {seat} are both {colour}: give each seat its own colour",
                    first=colours.index(colour),
                    seat=i,
                    colour=colour,
                ),
            )


class GameService:
    def __init__(
        self,
        store: Store,
        bots: BotRunner,
        bot_delay: float = 0.3,
        base_url: str = "",
        bots_only_turns_at_once: int = 1,
        keep_idle: float = KEEP_IDLE,
        sweep_every: float = SWEEP_EVERY,
        lobby_per_creator: int = LOBBY_PER_CREATOR,
        names: Callable[[Iterable[int]], dict[int, str]] | None = None,
        check_seat_name: Callable[[str, int | None], None] | None = None,
        clock_after: ClockAfter | None = None,
    ):
        self.store = store
        #: seconds an unused game stays in memory; how often the sweep forgets such games
        self.keep_idle = keep_idle
        self.sweep_every = sweep_every
        self.lobby_per_creator = lobby_per_creator
        self.sweeper: asyncio.Task | None = None
        #: games forgotten by the sweep so far (for /metrics)
        self.evicted = 0
        #: called with a game taken into memory (loaded, created) and with a game forgotten
        self.on_load: list[Callable[[Live], None]] = []
        self.on_evict: list[Callable[[Live], None]] = []
        self.bots = bots
        self.base_url = base_url
        self.live: dict[str, Live] = {}
        self.closing = False
        #: whether this process acts for the machine: plays the bots (see builders.server.lease)
        self.acting = True
        #: called, in order, after every change of a game a client may see (the fan-out to other
        #: processes, the clocks, the ratings)
        self.on_change: list[Callable[[Live], None]] = []
        #: called by tell() (the fan-out of messages such as chat to other processes)
        self.on_event: list[Callable[[Live, str, str], Any]] = []
        #: ``check_seat_name(name, account)``: ApiError when a seat's name looks like a registered
        #: player's who is not ``account`` (the accounts' check, when accounts are on)
        self.check_seat_name = check_seat_name or (lambda name, account: None)
        # the parts: who watches (here and on other processes), what they see, what they are told
        self.audience = Audience()
        self.views = Views(store, self.live, self.audience, names, lobby_per_creator)
        self.broadcast = Broadcast(self.audience, self.views.message_for, self.on_change, self.on_event)
        self.remote_seats, self.remote_spectators = self.audience.remote_seats, self.audience.remote_spectators
        self.connected, self.spectators = self.audience.connected, self.audience.spectators
        self.presence = self.audience.presence
        self.summary, self.view, self.view_text = self.views.summary, self.views.view, self.views.view_text
        self.state_message, self.message_for = self.views.state_message, self.views.message_for
        self.add_client, self.remove_client = self.broadcast.add_client, self.broadcast.remove_client
        self.client_changed, self.tell_players_presence = (
            self.broadcast.client_changed,
            self.broadcast.tell_players_presence,
        )
        self.tell, self.tell_here, self._broadcast = (
            self.broadcast.tell,
            self.broadcast.tell_here,
            self.broadcast.send_views,
        )
        # playing (actions, undo, seats' changes) and the bots' turns
        self.playing = Playing(
            store,
            self.broadcast,
            self.refresh,
            self._schedule_bot,
            self._trim,
            self.forget,
            self.check_bots_only,
            clock_after,
        )
        self.bot_turns = BotTurns(bots, self.live, self.playing.apply, bot_delay, bots_only_turns_at_once)
        self.act_as, self.undo_as, self.resign_as = self.playing.act_as, self.playing.undo_as, self.playing.resign_as
        self.take_back, self.abort, self._save_seats = (
            self.playing.take_back,
            self.playing.abort,
            self.playing.save_seats,
        )

    # -- life cycle ----------------------------------------------------------------------------
    async def start(self) -> None:
        """Load the games that need this process (a bot to move, a clock running) if it acts for the
        machine, let their bots go on, and start the sweep of unused games."""
        if self.acting:
            await self.attend()
        self.sweeper = asyncio.get_running_loop().create_task(self._sweep_loop())

    async def attend(self, clocks: bool = True) -> int:
        """Load the unfinished games with a bot to move, or (``clocks``) a clock running, that are not
        in memory (their bots then play, their clocks are enforced); how many were loaded. (Once
        started, the clocks load their games when they are due: builders.server.clocks.)"""
        loaded = 0
        for game_id in await asyncio.to_thread(self.store.attention_ids, clocks):
            if game_id in self.live:
                continue
            try:
                await self.fetch(game_id)
                loaded += 1
            except Exception:
                log.exception("game %s cannot be loaded", game_id)
        return loaded

    async def stop(self) -> None:
        self.closing = True
        self.bot_turns.close()
        if self.sweeper is not None:
            self.sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self.sweeper
        await self.bot_turns.stop()

    # -- loading -------------------------------------------------------------------------------
    def get(self, game_id: str) -> Live:
        """The game ``game_id``, loaded from the database if it is not in memory (404 if there is no
        such game). Prefer :meth:`fetch` in a coroutine: this one reads the database on the event loop."""
        live = self.live.get(game_id)
        if live is not None:
            live.used = time.monotonic()
            self.freshen(live)
            return live
        if not isinstance(game_id, str) or not game_id or not game_id.isprintable():  # no NUL to the database
            raise ApiError(404, msg("there is no such game"))
        return self._load(game_id)

    async def fetch(self, game_id: str) -> Live:
        """:meth:`get` reading the database in a thread (other games go on meanwhile)."""
        live = self.live.get(game_id)
        if live is not None:
            live.used = time.monotonic()
            if not live.lock.locked():
                stored = await asyncio.to_thread(self.store.version, live.id)
                if stored is not None and stored > live.version and not live.lock.locked():
                    found = await asyncio.to_thread(self.store.snapshot, live.id)
                    if not live.lock.locked():
                        self.refresh(live, found)
            return live
        if not isinstance(game_id, str) or not game_id or not game_id.isprintable():  # no NUL to the database
            raise ApiError(404, msg("there is no such game"))
        found = await asyncio.to_thread(self.store.snapshot, game_id)
        live = self.live.get(game_id)  # loaded meanwhile
        if live is not None:
            if not live.lock.locked():
                self.refresh(live, found)
            return live
        live = self._build(game_id, found)  # 404 if not found
        self._adopt(live)
        return live

    def _load(self, game_id: str) -> Live:
        live = self._build(game_id)
        self._adopt(live)
        return live

    def _adopt(self, live: Live) -> None:
        """Take ``live`` (loaded or new) into memory: its clock is armed, its bot plays if it is to move."""
        self._trim()
        live.used = time.monotonic()
        self.live[live.id] = live
        for listener in self.on_load:
            listener(live)
        self._schedule_bot(live)

    # -- forgetting unused games -----------------------------------------------------------------
    def unused(self, live: Live, now: float) -> bool:
        """Whether ``live`` may be forgotten: no socket, nothing being changed, no bot thinking, and
        not used for ``keep_idle`` seconds."""
        return (
            not live.clients
            and not live.lock.locked()
            and now - live.used >= self.keep_idle
            and (live.bot_task is None or live.bot_task.done())
        )

    def forget(self, game_id: str) -> None:
        """Drop the game from memory (it is loaded again when asked for)."""
        live = self.live.pop(game_id, None)
        if live is not None:
            self.evicted += 1
            for listener in self.on_evict:
                listener(live)

    def sweep(self, now: float | None = None) -> list[str]:
        """Forget the games not in use (see :meth:`unused`); their ids."""
        now = time.monotonic() if now is None else now
        gone = [live.id for live in list(self.live.values()) if self.unused(live, now)]
        for game_id in gone:
            self.forget(game_id)
        return gone

    async def _sweep_loop(self) -> None:
        while True:
            await asyncio.sleep(self.sweep_every)
            try:
                gone = self.sweep()
                if gone:
                    log.info("%d unused games forgotten (%d in memory)", len(gone), len(self.live))
            except Exception:
                log.exception("the sweep of unused games failed")

    # -- several processes -----------------------------------------------------------------------
    def freshen(self, live: Live) -> None:
        """Bring ``live`` up to the database if another process changed the game (one key lookup)."""
        if not live.lock.locked() and self.store.version(live.id) not in (None, live.version):
            self.refresh(live)

    def refresh(self, live: Live, found: tuple[dict[str, Any], list[StoredStep]] | None | bool = False) -> bool:
        """Replace ``live``'s copy with the stored game (or with ``found``, its row and steps read
        already), tell its clients; True if it had changed. Never while a change of this process is
        being committed (the caller holds the lock or checked it is free). A version moves only
        forwards: a copy read before a newer one was taken in is ignored."""
        if found is False:
            found = self.store.snapshot(live.id)
        if found is None or found[0]["version"] <= live.version:
            return False
        row, steps = found
        known = len(live.steps)
        if len(steps) >= known and all(_same_step(a, b) for a, b in zip(steps, live.steps)):
            # the usual case: actions were added; play only those on the copy
            state, entries = live.state.copy(), list(live.log)
            self._replay(live.id, live.presenter, state, steps, known, entries)
        else:  # an undo: replay the record
            fresh = self._build(live.id, found)
            state, entries = fresh.state, fresh.log
        live.name, live.seats, live.version = row["name"], row["seats"], row["version"]
        live.options = row["options"]
        live.state, live.steps, live.log = state, steps, entries
        live.undo = []
        live.changed()
        self.broadcast.send_views(live)
        self._schedule_bot(live)
        return True

    def _build(self, game_id: str, found: tuple[dict[str, Any], list[StoredStep]] | None | bool = False) -> Live:
        """The stored game ``game_id`` (or its row and steps ``found``), replayed (not registered)."""
        if found is False:
            found = self.store.snapshot(game_id)
        if found is None:
            raise self.no_such_game(game_id)
        row, steps = found
        state = initial_state(row["game"], row["setup"], row["options"])
        entries: list[dict[str, Any]] = []
        self._replay(game_id, get_view(row["game"]), state, steps, 0, entries)
        live = Live(
            id=row["id"],
            game=row["game"],
            name=row["name"],
            created=row["created"],
            setup=row["setup"],
            seats=row["seats"],
            version=row["version"],
            state=state,
            steps=steps,
            log=entries,
            options=row["options"],
        )
        return live

    @staticmethod
    def _replay(
        game_id: str,
        presenter: Any,
        state: GameState,
        steps: list[StoredStep],
        start: int,
        entries: list[dict[str, Any]],
    ) -> None:
        """Play ``steps[start:]`` on ``state`` (at action ``start``), adding their log entries."""
        for n in range(start, len(steps)):
            step = steps[n]
            try:
                action = state.parse_action(step.action)
                before = len(state.history)
                apply_recorded(state, action, step.chance)
            except UnusedChance:
                raise ApiError(
                    409,
                    msg(
                        "game {game_id} cannot be replayed at action {n}: the recorded draws did not happen",
                        game_id=game_id,
                        n=n,
                    ),
                ) from None
            except BuildersError as e:
                raise ApiError(
                    409,
                    msg(
                        "game {game_id} cannot be replayed at action {n}: {error}",
                        game_id=game_id,
                        n=n,
                        error=engine_message(e),
                    ),
                ) from None
            entries.append(
                log_entry(presenter, state, n, step.seat, action, [str(c) for c in state.history[before + 1 :]])
            )

    def _trim(self) -> None:
        """Forget the oldest finished games nobody watches, beyond KEEP_FINISHED of them."""
        idle = [g for g in self.live.values() if g.over and not g.clients]
        if len(idle) > KEEP_FINISHED:
            idle.sort(key=lambda g: g.created)
            for g in idle[: len(idle) - KEEP_FINISHED]:
                self.forget(g.id)

    # -- creating and joining ------------------------------------------------------------------
    def create(
        self,
        req: CreateGame,
        creator: int | None = None,
        find_user: Any = None,
        extra: dict[str, Any] | None = None,
        address: str | None = None,
    ) -> dict[str, Any]:
        """A new game (see :meth:`open`, which does the same without holding up the event loop
        while the game is stored)."""
        live, row, out = self._new_game(req, creator, find_user, extra, address)
        with _saving():
            self.store.create(row)
        self._register(live)
        return out

    async def open(
        self,
        req: CreateGame,
        creator: int | None = None,
        find_user: Any = None,
        extra: dict[str, Any] | None = None,
        address: str | None = None,
    ) -> dict[str, Any]:
        """A new game, stored in a thread (other games go on meanwhile). ``address``: a digest of
        the creator's address (the caps on one person's games count by it)."""
        live, row, out = self._new_game(req, creator, find_user, extra, address)
        try:
            await asyncio.to_thread(self.store.create, row)
        except SQLAlchemyError:
            log.exception("a database write failed")
            raise ApiError(503, msg("the game could not be saved just now; nothing changed, try again")) from None
        self._register(live)
        return out

    def _register(self, live: Live) -> None:
        self._adopt(live)

    def _new_game(
        self,
        req: CreateGame,
        creator: int | None,
        find_user: Any,
        extra: dict[str, Any] | None,
        address: str | None = None,
    ) -> tuple[Live, dict[str, Any], dict[str, Any]]:
        """A new game: its copy in memory, its row and the answer to its creator (nothing stored). ``creator`` is the account creating it (None: a program without an account,
        which gets the tokens of its own seats); ``find_user(name)`` is the account id of a username.
        A human seat is the creator's own, an open seat (claimed from the lobby), an invitation (a
        one-time link) or a named account's: the creator holds no credential of a seat not theirs."""
        others = 0
        for i, spec in enumerate(req.seats):
            if spec.type == "human":
                kinds = int(spec.open) + int(spec.invite) + int(spec.user is not None)
                if kinds > 1:
                    raise ApiError(
                        400, msg("seat {seat} can be open, an invitation or a username's, not several of them", seat=i)
                    )
                if spec.user is not None and (creator is None or find_user is None):
                    raise ApiError(401, msg("inviting by username needs an account: sign in first"))
                others += kinds
                if req.private and spec.open:
                    raise ApiError(
                        400,
                        msg(
                            "seat {seat} is open, but a private game is seen by its players only: invite the other "
                            "players with an invitation link or by username",
                            seat=i,
                        ),
                    )
        if req.colours is not None:
            check_colours(req.colours, len(req.seats))
        seeded = req.setup is not None and req.setup.seed is not None
        if seeded and others:
            raise ApiError(
                400,
                msg(
                    "a seed may be chosen only when every human seat is yours (against bots or pass-and-play): it would tell you the other players' cards"
                ),
            )
        users: dict[int, int] = {}
        for i, spec in enumerate(req.seats):
            if spec.type == "human" and spec.user is not None:
                found = find_user(spec.user)
                if found is None:
                    raise ApiError(404, msg("there is no player named {user!r}", user=spec.user))
                users[i] = found
        for i, spec in enumerate(req.seats):
            if spec.type == "human" and spec.name is not None:
                own = None if spec.open or spec.invite else users.get(i, creator)
                self.check_seat_name(spec.name, own)
        setup = build_setup(req.game, len(req.seats), req.setup or SetupSpec())
        try:
            state = get_game(req.game).new_state(setup)
        except BuildersError as e:
            raise ApiError(400, engine_message(e)) from None
        game_id = secrets.token_urlsafe(6)
        seats: list[Seat] = []
        created: list[dict[str, Any]] = []
        for i, spec in enumerate(req.seats):
            if spec.type == "human":
                seat = Seat(seat=i, type="human", name=spec.name, open=spec.open, stored=HUMAN_SEAT_KEYS)
                item: dict[str, Any] = {"seat": i, "type": "human", "name": spec.name, "open": spec.open}
                if spec.open:
                    seat.claimed = False
                elif spec.invite:
                    code = secrets.token_urlsafe(18)
                    seat.claimed, seat.invite_sha = False, token_hash(code)
                    item["invite"] = f"/play/{game_id}#invite={code}"
                elif spec.user is not None:
                    seat.account = users[i]
                    item["user"] = spec.user
                elif creator is not None:
                    seat.account = creator
                else:
                    token = secrets.token_urlsafe(24)
                    seat.token_sha = token_hash(token)
                    item["token"] = token
                    item["link"] = self.link(game_id, i, token)
            else:
                seat = Seat(seat=i, type="bot", level=spec.level, stored=BOT_SEAT_KEYS)
                item = {"seat": i, "type": "bot", "level": spec.level}
            seats.append(seat)
            created.append(item)
        now = time.time()
        options = Options.from_json(
            {
                "creator": creator,
                "private": req.private,
                "seeded": seeded,
                "format": state.record_format,
                **(extra or {}),
            }
        )
        if req.resign_bot != "easy" and len(req.seats) > 2:
            options.resign_bot = req.resign_bot
        if req.colours is not None:
            options.colours = list(req.colours)
        live = Live(
            id=game_id,
            game=req.game,
            name=req.name,
            created=now,
            setup=setup,
            seats=seats,
            version=0,
            state=state,
            steps=[],
            log=[],
            options=options,
        )
        row = {
            "id": game_id,
            "game": req.game,
            "name": req.name,
            "created": now,
            "setup": setup,
            "seats": seats,
            "private": req.private,
            "options": options,
            "bots_only": options.bots_only,
            "creator": creator,
            "address": address or options.address,
            **row_summary(live, state, 0, 0),
        }
        return live, row, {"id": game_id, "game": req.game, "seats": created, "watch": f"/play/{game_id}"}

    def check_caps(self, creator: int | None, address: str | None, waiting: int, going_on: int, opening: bool) -> None:
        """ApiError 429 when a new game by ``creator`` (an account id, or None) from ``address`` (a
        digest of the client's address) would be more than ``going_on`` games not over of theirs, or,
        if it waits for players (``opening``: an open or invited seat), more than ``waiting`` such
        games, counted by account and by address each."""
        counts = self.store.games_by(creator, address)
        theirs = max(counts["account_unfinished"], counts["address_unfinished"])
        if theirs >= going_on:
            raise ApiError(
                429,
                msg(
                    "you have {games} going on, as many as one person may have at once: create another when {ended}",
                    games=_games(theirs),
                    ended=_ended(theirs),
                ),
            )
        waits = max(counts["account_open"], counts["address_open"])
        if opening and waits >= waiting:
            raise ApiError(
                429,
                msg(
                    "you have {games} waiting for players, as many as one person may have at "
                    "once: create another when {started} (its seats all taken)",
                    games=_games(waits),
                    started=msg("it has started") if waits == 1 else msg("one of them has started"),
                ),
            )

    def check_bots_only(self, creator: int | None, address: str, per_creator: int, most: int) -> None:
        """ApiError 429 when a game of bots alone by ``creator`` (an account id, or None) from
        ``address`` (a digest of the client's address) would be more than ``per_creator`` such games
        not over of theirs (by account or by address), or more than ``most`` on the server."""
        games = self.store.bots_only_games()
        theirs = sum(
            1 for options in games if (creator is not None and options.creator == creator) or options.address == address
        )
        if theirs >= per_creator:
            cap = msg(
                "you already have {games} of bots alone going on, as many as one player may have at once",
                games=_games(theirs),
            )
            raise ApiError(429, msg("{cap}: create another when {ended}", cap=cap, ended=_ended(theirs)))
        if len(games) >= most:
            cap = msg(
                "the server already runs {games} of bots alone, as many as it takes at once", games=_games(len(games))
            )
            raise ApiError(429, msg("{cap}: create yours when {ended}", cap=cap, ended=_ended(len(games))))

    def link(self, game_id: str, seat: int, token: str) -> str:
        return f"/play/{game_id}#seat={seat}&token={token}"

    def join(self, game_id: str, seat: int, name: str | None, account: int | None = None) -> dict[str, Any]:
        """Claim open seat ``seat`` for ``account`` (None: a program, which gets the seat's token)."""
        live = self.get(game_id)
        if live.over:
            raise ApiError(409, msg("the game is over"))
        if not 0 <= seat < len(live.seats):
            raise ApiError(409, msg("the game has seats 0 to {last}, not {seat}", last=len(live.seats) - 1, seat=seat))
        s = live.seats[seat]
        if s.type != "human" or not s.open:
            raise ApiError(409, msg("seat {seat} is not open: it is joined by its own link", seat=seat))
        if s.claimed:
            raise ApiError(409, msg("seat {seat} is already taken", seat=seat))
        if name is not None:
            self.check_seat_name(name, account)
        return self._take(live, seat, name, account)

    def claim(self, game_id: str, code: Any, account: int | None = None) -> dict[str, Any]:
        """Take the seat of invitation ``code``: the first to open the link gets it, then it is dead."""
        live = self.get(game_id)
        if not isinstance(code, str) or not code or len(code) > MAX_TOKEN_LENGTH:
            raise ApiError(404, msg("this invitation link is not valid"))
        found = self.invited_seat(live, code)
        if found is None:
            raise ApiError(410, msg("this invitation link has been used already or is not valid"))
        if live.over:
            raise ApiError(409, msg("the game is over"))
        return self._take(live, found, None, account)

    @staticmethod
    def invited_seat(live: Live, code: Any) -> int | None:
        """The seat whose invitation (not yet used) is ``code`` (None: none)."""
        if not isinstance(code, str) or not code or len(code) > MAX_TOKEN_LENGTH:
            return None
        digest = token_hash(code).encode()
        found = None
        for s in live.seats:  # look at every seat: the time taken does not depend on the match
            if hmac.compare_digest((s.invite_sha or "").encode(), digest) and found is None:
                found = s.seat
        return found

    def _take(self, live: Live, seat: int, name: str | None, account: int | None) -> dict[str, Any]:
        s = replace(live.seats[seat])
        token = None if account is not None else secrets.token_urlsafe(24)
        s.claimed, s.token_sha, s.account, s.name = True, token_hash(token) if token else None, account, name or s.name
        s.used_invite_sha, s.invite_sha = s.invite_sha or s.used_invite_sha, None  # (seats.py: "used")
        seats = list(live.seats)
        seats[seat] = s
        with _saving():
            self._save_seats(live, seats)
        live.seats = seats
        live.changed()
        self.broadcast.send_views(live)
        out: dict[str, Any] = {"seat": seat, "token": token, "link": f"/play/{live.id}"}
        if token:
            out["link"] = self.link(live.id, seat, token)
        return out

    def seats_of(self, live: Live, account: int | None) -> list[int]:
        """The seats of ``account`` in the game (in seat order)."""
        if account is None:
            return []
        return [s.seat for s in live.seats if s.account == account]

    # -- private games -------------------------------------------------------------------------
    def may_see(self, live: Live, account: int | None, token: Any = None) -> bool:
        """Whether a request of ``account`` (an account id, or None) with the seat token ``token``
        may see ``live``: any game that is not private; a private game only its players (the
        account has a seat in it, or created it; the token is one of its seats')."""
        if not live.options.private:
            return True
        if account is not None and (self.seats_of(live, account) or live.options.creator == account):
            return True
        if token is None:
            return False
        try:
            return self.seat_of(live, token) is not None
        except ApiError:
            return False

    @staticmethod
    def no_such_game(game_id: str) -> ApiError:
        """The refusal of a game that does not exist, or is private and not the asker's (the same
        answer: a private game's existence is not told)."""
        return ApiError(404, msg("there is no game {game_id!r}", game_id=game_id))

    # -- seats ---------------------------------------------------------------------------------
    def seat_of(self, live: Live, token: Any) -> int | None:
        """The seat of ``token`` (None for no token); 401 for a token that is no seat's."""
        if token is None:
            return None
        if not isinstance(token, str) or not token or len(token) > MAX_TOKEN_LENGTH:
            raise ApiError(401, msg("the seat token is not valid"))
        digest = token_hash(token)
        found = None
        for s in live.seats:  # look at every seat: the time taken does not depend on the match
            stored = s.token_sha or ""
            if hmac.compare_digest(stored.encode(), digest.encode()) and found is None:
                found = s.seat
        if found is None:
            raise ApiError(401, msg("the seat token is not valid for this game"))
        return found

    def require_seat(self, live: Live, token: Any) -> int:
        if token is None:
            raise ApiError(401, msg("this needs the seat token (header X-Seat-Token)"))
        seat = self.seat_of(live, token)
        assert seat is not None
        return seat

    # -- summaries and views -------------------------------------------------------------------
    def list_games(self, status: str | None, rows: list[dict[str, Any]] | None = None) -> list[dict[str, Any]]:
        """Summaries of the listed (not private) games, or of ``rows`` (:meth:`Views.list_games`)."""
        return self.views.list_games(status, rows, LIST_LIMIT)

    def replay_view(self, game_id: str, n: int, lang: str = DEFAULT_LANGUAGE) -> dict[str, Any]:
        """The position of the finished game ``game_id`` after ``n`` actions (:meth:`Views.replay_view`)."""
        return self.views.replay_view(self.get(game_id), n, lang)

    # -- playing -------------------------------------------------------------------------------
    async def act(self, game_id: str, token: Any, text: Any, version: Any = None, key: Any = None) -> Live:
        live = self.get(game_id)
        seat = self.require_seat(live, token)
        await self.act_as(live, seat, text, version, key)
        return live

    async def undo(self, game_id: str, token: Any) -> Live:
        live = self.get(game_id)
        seat = self.require_seat(live, token)
        await self.undo_as(live, seat)
        return live

    async def resign(self, game_id: str, token: Any, level: str | None) -> Live:
        live = self.get(game_id)
        seat = self.require_seat(live, token)
        await self.resign_as(live, seat, level)
        return live

    # -- records -------------------------------------------------------------------------------
    record = staticmethod(record)
    undo_refusal = staticmethod(undo_refusal)
    abort_refusal = staticmethod(abort_refusal)

    def finished_record(self, game_id: str) -> dict[str, Any]:
        live = self.get(game_id)
        if not live.over:
            raise ApiError(409, msg("the record is available once the game is over"))
        out = record(live)
        out["result"] = final_result(live.presenter, live.state, live.options)
        return out

    # -- bots ----------------------------------------------------------------------------------
    def _schedule_bot(self, live: Live) -> None:
        """Let the bot to move in ``live`` play, if this process plays the bots (:class:`BotTurns`)."""
        if self.closing or not self.acting:
            return
        self.bot_turns.schedule(live)

    async def idle(self, timeout: float = 30.0) -> None:
        """Wait until no bot is thinking (for tests)."""
        await self.bot_turns.idle(timeout)


def _same_step(a: StoredStep, b: StoredStep) -> bool:
    return a.seat == b.seat and a.action == b.action and a.chance == b.chance and a.key == b.key


def _games(n: int) -> Message:
    return msg("1 game") if n == 1 else msg("{count} games", count=n)


def _ended(n: int) -> Message:
    return msg("it has ended") if n == 1 else msg("one of them has ended")


# -- setups ------------------------------------------------------------------------------------
def build_setup(game: str, players: int, spec: SetupSpec) -> dict[str, Any]:
    """The engine setup of a new game. Without a seed, the server draws a secret one: the deck
    orders follow from it, so it must not be guessable."""
    seed = spec.seed if spec.seed is not None else secrets.randbelow(2**62)
    try:
        return get_view(game).setup(players, seed, **spec.choices())
    except InvalidSetup as e:
        raise ApiError(400, engine_message(e)) from None
