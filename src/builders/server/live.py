"""A game in memory (:class:`Live`) and what every part of the service reads of it: the refusal
(:class:`ApiError`), the public seats, the result, the scores and the log, the refusals of undo and
abort, and the row summary stored with each change."""

from __future__ import annotations

import asyncio
import hashlib
import logging
import time
from collections.abc import Iterable
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any, Protocol

import orjson
from sqlalchemy.exc import SQLAlchemyError

from builders.core.games import get_game
from builders.core.messages import Message, msg, verbatim
from builders.core.record import apply_recorded
from builders.core.state import GameState
from builders.core.view import GameView, get_view
from builders.server.messages import DEFAULT as DEFAULT_LANGUAGE, translate
from builders.server.records import Clock, Options, Seat
from builders.server.store import StoredStep

log = logging.getLogger("builders.server")

#: the ``Idempotency-Key`` header of the HTTP request being handled (set by builders.server.guard)
REQUEST_KEY: ContextVar[str | None] = ContextVar("request_key", default=None)


class ApiError(Exception):
    """A refused request: an HTTP status and one sentence saying what was wrong, a message that is
    translated for its reader (``detail`` is its English text)."""

    def __init__(self, status: int, message: Message | str):
        super().__init__(str(message))
        self.status = status
        self.message = message if isinstance(message, Message) else verbatim(message)
        self.detail = str(message)


class Client(Protocol):
    """A connected WebSocket client of one game (see :mod:`builders.server.ws`)."""

    seat: int | None
    #: the language of the client's reader (builders.server.messages; "en" when it has none)
    lang: str

    def send(self, text: str) -> None: ...


@dataclass
class Live:
    """A game in memory: its stored data, its current state and what the views need."""

    id: str
    game: str
    name: str | None
    created: float
    setup: dict[str, Any]
    seats: list[Seat]
    version: int
    state: GameState
    steps: list[StoredStep]
    log: list[dict[str, Any]]
    #: states before the last steps that can still be undone (may be shorter than they are)
    undo: list[GameState] = field(default_factory=list)
    clients: set = field(default_factory=set)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    bot_task: asyncio.Task | None = None
    cache: dict[Any, Any] = field(default_factory=dict)
    #: creator (account id), private, seeded, the clock, ... (see builders.server.records)
    options: Options = field(default_factory=Options)
    #: when it was last used (time.monotonic()): a request, a change, a socket
    used: float = field(default_factory=time.monotonic)
    #: the game's presentation, and the parts of its views that never change (a map, ...)
    presenter: GameView = field(init=False)
    fixed: dict[str, Any] = field(init=False)

    def __post_init__(self) -> None:
        self.presenter = get_view(self.game)
        self.fixed = self.presenter.fixed(self.state)

    def changed(self) -> None:
        self.cache.clear()

    @property
    def over(self) -> bool:
        """The game is over: played to its end, or ended by a resignation."""
        return self.state.is_over() or self.options.ended is not None

    @property
    def to_move(self) -> int | None:
        return None if self.over else self.state.current_player

    @property
    def status(self) -> str:
        if self.over:
            return "finished"
        if any(not s.claimed for s in self.seats):
            return "open"
        return "running"


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def public_seat(
    seat: Seat, connected: bool, names: dict[int, str] | None = None, rated: bool = False
) -> dict[str, Any]:
    """A seat as everyone may see it. A person without a registered account (a guest, or a seat
    token's holder) is marked ``guest``; in a rated game a player shows by their account's name."""
    account = seat.account
    user = (names or {}).get(account) if account is not None else None
    registered = user is not None and " " not in user  # (usernames hold no spaces; "guest 12" does)
    name = user if rated and registered else seat.name or user
    out = {
        "seat": seat.seat,
        "type": seat.type,
        "name": name,
        "open": seat.open,
        "claimed": seat.claimed,
        "connected": connected,
        "resigned": seat.resigned,
        "user": user,
        "invited": bool(seat.invite_sha) and not seat.claimed,
        "guest": seat.type == "human" and seat.claimed and (user is None or user.startswith("guest ")),
    }
    if seat.type == "bot":
        out["level"] = seat.level
    return out


def dumps(value: Any) -> str:
    """Compact JSON text (orjson: the views are encoded after every change, for every seat)."""
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()


def initial_state(game: str, setup: dict[str, Any], options: Options) -> GameState:
    """A stored game's initial state, under the rules of the record format it was started in
    (games stored before formats were kept were started in format 1)."""
    return get_game(game).state_for_record(setup, 1 if options.format is None else options.format)


def deadline(clock: Clock | None) -> float | None:
    """When the running clock runs out (None: no clock running)."""
    if clock is None or clock.running is None:
        return None
    return clock.since + clock.left[clock.running]


def final_result(presenter: GameView, state: GameState, options: Options) -> dict[str, Any] | None:
    """The result of a game that is over (None while it goes on): the engine's, or for a game ended
    by resignation the scores of the moment, the player left winning. A seat that resigned never
    wins (the best of the others do) and is named in ``resigned``."""
    ended = options.ended
    if state.is_over():
        result = state.result().to_json()
    elif ended:
        result = {**scores(presenter, state), "winners": list(ended["winners"])}
    else:
        return None
    resigned = list(options.resigned or [])
    if resigned:
        winners = [w for w in result["winners"] if w not in resigned]
        if not winners:
            totals = {p["seat"]: p["total"] for p in result["players"] if p["seat"] not in resigned}
            best = max(totals.values())
            winners = sorted(seat for seat, total in totals.items() if total == best)
        result = {**result, "winners": winners, "resigned": resigned}
    return result


@contextmanager
def _saving():
    """A failed database write becomes a 503 refusal (the game is left as it was)."""
    try:
        yield
    except SQLAlchemyError:
        log.exception("a database write failed")
        raise ApiError(503, msg("the game could not be saved just now; nothing changed, try again")) from None


def bot_turn(state: GameState, seats: list[Seat]) -> bool:
    """Whether a bot is to move (the acting process finds such games by it)."""
    return not state.is_over() and seats[state.current_player].bot


def status_of(state: GameState, seats: Iterable[Seat]) -> str:
    if state.is_over():
        return "finished"
    if any(not s.claimed for s in seats):
        return "open"
    return "running"


# -- what each seat sees -------------------------------------------------------------------------
def scores(presenter: GameView, state: GameState) -> dict[str, Any]:
    return {
        "players": [
            {"seat": seat, "breakdown": part, "total": sum(part.values())}
            for seat, part in enumerate(presenter.score_parts(state))
        ]
    }


class LogEntry(dict):
    """A line of the public log: JSON data (``text`` in English, ``key`` and ``params`` of its message)
    that keeps its message, to be told in other languages (once each)."""

    message: Message
    texts: dict[str, str]

    def text_in(self, lang: str) -> str:
        found = self.texts.get(lang)
        if found is None:
            found = self.texts[lang] = translate(self.message, lang)
        return found


def log_entry(presenter: GameView, after: GameState, n: int, seat: int, action: Any, chance: list[str]) -> LogEntry:
    """The public log line of action ``n`` of ``seat``, from the state after it."""
    text = after.action_to_string(action)
    said = presenter.log_message(after, text, chance)
    entry = LogEntry(n=n + 1, seat=seat, action=text, text=str(said), **said.data())
    entry.message, entry.texts = said, {}
    return entry


def log_in(entries: list[dict[str, Any]], lang: str) -> list[dict[str, Any]]:
    """The log with its texts in ``lang``."""
    if lang == DEFAULT_LANGUAGE:
        return entries
    return [{**e, "text": e.text_in(lang)} if isinstance(e, LogEntry) else e for e in entries]


# -- what can be done now -----------------------------------------------------------------------
def undo_refusal(live: Live, seat: int) -> Message | None:
    """Why ``seat`` cannot undo now (None: it can)."""
    st = live.state
    if live.over:
        return msg("the game is over")
    if seat != st.current_player:
        return msg("only the player to move can undo, within their own turn")
    if live.seats[seat].type != "human":
        return msg("seat {seat} is played by a bot now", seat=seat)
    if not live.steps or live.steps[-1].seat != seat:
        return msg("there is nothing to undo in this turn")
    if live.steps[-1].chance:
        return msg("a card was drawn since that action: it cannot be undone")
    return None


def abort_refusal(live: Live) -> Message | None:
    """Why ``live`` cannot be aborted now (None: it can): only before every person has made a
    first move."""
    if live.over:
        return msg("the game is over")
    waiting = {s.seat for s in live.seats if s.type == "human" or s.resigned}
    if not waiting:
        return None
    for step in live.steps:  # (asked after every change: it stops at the last person's first move)
        if not step.by_bot:
            waiting.discard(step.seat)
            if not waiting:
                return msg("every player has moved: the game can no longer be aborted (resign instead)")
    return None


# -- records -------------------------------------------------------------------------------------
def record(live: Live, upto: int | None = None) -> dict[str, Any]:
    """The record of ``live`` (of its first ``upto`` actions)."""
    history: list[Any] = []
    for step in live.steps[:upto]:
        history.append(step.action)
        history.extend({"chance": c} for c in step.chance)
    return {"game": live.game, "format": live.state.record_format, "setup": live.setup, "history": history}


def rebuild(live: Live, n: int) -> GameState:
    """The state of ``live`` after its first ``n`` actions, replayed."""
    state = initial_state(live.game, live.setup, live.options)
    for step in live.steps[:n]:
        apply_recorded(state, state.parse_action(step.action), step.chance)
    return state


def row_summary(live: Live, state: GameState, version: int, actions: int) -> dict[str, Any]:
    """The columns of the game's row stored with a change to ``state``."""
    over = state.is_over()
    return {
        "status": status_of(state, live.seats),
        "version": version,
        "actions": actions,
        "turn": state.turn,
        "to_move": None if over else state.current_player,
        "result": state.result().to_json() if over else None,
        "bot_turn": bot_turn(state, live.seats),
    }
