"""Typed records of what a game stores beside its actions, read from and written back to the JSON of
its row: the seats (:class:`Seat`), the options (:class:`Options`) and the clock (``options["clock"]``,
:class:`Clock`).

``from_json`` reads a stored record (keys an older row lacks take their defaults, so rows written by
any earlier version load); ``to_json`` writes it back in the same shape: the keys it had when it was
read, and those set since.
"""

from __future__ import annotations

import time
from dataclasses import MISSING, dataclass, field, fields
from typing import Any, ClassVar, TypeVar

_R = TypeVar("_R", bound="_Stored")

#: the keys a stored clock always has (a clock read from an older row may lack the others)
_CLOCK_KEYS = ("left", "running", "since", "flagged")


@dataclass
class Clock:
    """A game's clock: live (a total time per player plus an increment per turn) or turn-based (a
    time per turn). ``left[running]`` is the time the running seat had at ``since``."""

    #: "live" or "turn"
    kind: str | None
    left: list[float]
    total: float | None = None
    increment: float | None = None
    per_turn: float | None = None
    #: the level of the bot that takes over a seat whose time ran out
    bot: str | None = None
    running: int | None = None
    since: float = 0.0
    #: the seats whose time ran out
    flagged: list[int] = field(default_factory=list)
    #: the keys the stored clock had beyond those it always has (written back even when None)
    present: frozenset[str] = frozenset()

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Clock:
        return cls(
            kind=data.get("kind"),
            left=list(data["left"]),
            total=data.get("total"),
            increment=data.get("increment"),
            per_turn=data.get("per_turn"),
            bot=data.get("bot"),
            running=data.get("running"),
            since=data.get("since", 0.0),
            flagged=list(data.get("flagged") or []),
            present=frozenset(data),
        )

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name != "present" and (f.name in _CLOCK_KEYS or f.name in self.present or value is not None):
                out[f.name] = list(value) if isinstance(value, list) else value
        return out

    def left_at(self, seat: int, now: float | None = None) -> float:
        """The time ``seat`` has left at ``now`` (below 0 once it ran out)."""
        if seat != self.running:
            return self.left[seat]
        return self.left[seat] - ((time.time() if now is None else now) - self.since)

    def remaining(self, now: float | None = None) -> list[float]:
        """Each seat's time left at ``now`` (never below 0)."""
        now = time.time() if now is None else now
        return [max(0.0, self.left_at(seat, now)) for seat in range(len(self.left))]


@dataclass
class _Stored:
    """A record read from a JSON object that writes back the keys it was read with, in their order
    (even when None; ``extra`` holds those it does not know, so a key of a later version survives a
    round trip through this one), then those set since (a value other than the default)."""

    #: the keys of the stored object, in their order
    stored: tuple[str, ...] = field(default=(), repr=False, compare=False)
    extra: dict[str, Any] = field(default_factory=dict, repr=False)
    #: the fields that are not stored keys
    _OWN: ClassVar[frozenset[str]] = frozenset({"stored", "extra"})

    @classmethod
    def _keys(cls) -> list[str]:
        return [f.name for f in fields(cls) if f.name not in _Stored._OWN]

    @classmethod
    def _read(cls: type[_R], data: dict[str, Any], **typed: Any) -> _R:
        keys = cls._keys()
        values = {k: data[k] for k in keys if k in data}
        return cls(**{**values, **typed}, stored=tuple(data), extra={k: v for k, v in data.items() if k not in keys})

    def _json(self, key: str) -> Any:
        value = getattr(self, key)
        return list(value) if isinstance(value, list) else value

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        known = self._keys()
        for key in self.stored:
            out[key] = self._json(key) if key in known else self.extra[key]
        for f in fields(self):
            if f.name in known and f.name not in out and getattr(self, f.name) != _default(f):
                out[f.name] = self._json(f.name)
        for key, value in self.extra.items():
            out.setdefault(key, value)
        return out


def _default(f: Any) -> Any:
    return f.default_factory() if f.default is MISSING and f.default_factory is not MISSING else f.default


@dataclass
class Seat(_Stored):
    """One seat of a game: who plays it (a person or a bot of ``level``) and how a person holds it (a
    seat token's hash, an account, an invitation's hash; ``open`` to anyone until ``claimed``)."""

    seat: int = 0
    #: "human" or "bot"
    type: str = "human"
    level: str | None = None
    name: str | None = None
    open: bool = False
    claimed: bool = True
    resigned: bool = False
    token_sha: str | None = None
    account: int | None = None
    invite_sha: str | None = None
    #: the invitation the seat was claimed with (its link then says "used")
    used_invite_sha: str | None = None

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Seat:
        return cls._read(data)

    @property
    def bot(self) -> bool:
        return self.type == "bot"


def seats_from_json(data: list[dict[str, Any]]) -> list[Seat]:
    return [Seat.from_json(s) for s in data]


def seats_to_json(seats: list[Seat]) -> list[dict[str, Any]]:
    return [s.to_json() for s in seats]


@dataclass
class Options(_Stored):
    """What a game stores beside its seats and actions: who made it and how (``creator``,
    ``private``, ``seeded``, the record's ``format``, ``colours``, the level of the bot that takes a
    resigned seat, ``rated``, ``hints``, a ``first_game``), its clock, and what happened to it (seats
    ``resigned``, ``ended`` by resignation, the ``rematch`` offered, ``events`` of the replay, the
    rating done and its changes, a game of bots only and the address that made it so)."""

    creator: int | None = None
    private: bool = False
    seeded: bool = False
    format: int | None = None
    resign_bot: str | None = None
    colours: list[str] | None = None
    rated: bool = False
    hints: bool = False
    first_game: bool = False
    clock: Clock | None = None
    resigned: list[int] = field(default_factory=list)
    #: how a game ended before its end (``{"reason": "resignation", "winners": [...]}``)
    ended: dict[str, Any] | None = None
    rematch: str | None = None
    events: list[dict[str, Any]] = field(default_factory=list)
    rated_done: bool = False
    rating_changes: Any = None
    bots_only: bool = False
    address: str | None = None

    @classmethod
    def from_json(cls, data: dict[str, Any] | None) -> Options:
        data = data or {}
        clock = data.get("clock")
        return cls._read(data, clock=Clock.from_json(clock) if clock else clock)

    def _json(self, key: str) -> Any:
        if key == "clock" and isinstance(self.clock, Clock):
            return self.clock.to_json()
        return super()._json(key)
