"""Typed records of what a game stores beside its actions, read from and written back to the JSON of
its row: the clock (``options["clock"]``).

``from_json`` reads a stored record (keys an older row lacks take their defaults, so rows written by
any earlier version load); ``to_json`` writes it back in the same shape: the keys it had when it was
read, and those set since.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field, fields
from typing import Any

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
        return cls(kind=data.get("kind"), left=list(data["left"]), total=data.get("total"),
                   increment=data.get("increment"), per_turn=data.get("per_turn"), bot=data.get("bot"),
                   running=data.get("running"), since=data.get("since", 0.0), flagged=list(data.get("flagged") or []),
                   present=frozenset(data))

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
