"""Seeded randomness that gives the same numbers on every machine and every Python version.

The engines draw their chance outcomes (card draws, shuffles) from :class:`Rng`, a SplitMix64
generator. Its whole state is one integer, so copying a game state copies its generator for free,
and a seed means the same game everywhere.

>>> rng = Rng(42)
>>> [rng.randbelow(6) for _ in range(5)]
[1, 1, 0, 0, 4]
>>> deck = list(range(10)); Rng(7).shuffle(deck); deck
[8, 1, 5, 9, 0, 4, 3, 2, 6, 7]
"""

from __future__ import annotations

from collections.abc import MutableSequence, Sequence
from typing import TypeVar

T = TypeVar("T")

_MASK = (1 << 64) - 1


def seed_from(value: int | str) -> int:
    """Map an int or a string to a 64-bit seed, the same on every machine."""
    if isinstance(value, bool):
        raise TypeError("a seed is an integer or a string, not a bool")
    if isinstance(value, int):
        return value & _MASK
    if isinstance(value, str):
        h = 0xCBF29CE484222325  # FNV-1a, 64 bit
        for byte in value.encode("utf-8"):
            h = ((h ^ byte) * 0x100000001B3) & _MASK
        return h
    raise TypeError(f"a seed is an integer or a string, not {type(value).__name__}")


class Rng:
    """SplitMix64: a small, fast, well-tested 64-bit generator."""

    __slots__ = ("state",)

    def __init__(self, seed: int | str = 0):
        self.state = seed_from(seed)

    def copy(self) -> Rng:
        other = Rng.__new__(Rng)
        other.state = self.state
        return other

    def next64(self) -> int:
        self.state = z = (self.state + 0x9E3779B97F4A7C15) & _MASK
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def randbelow(self, n: int) -> int:
        """A uniform integer in ``range(n)``, without modulo bias."""
        if n <= 0:
            raise ValueError("randbelow needs a positive bound")
        limit = ((1 << 64) // n) * n
        while True:
            x = self.next64()
            if x < limit:
                return x % n

    def choice(self, seq: Sequence[T]) -> T:
        return seq[self.randbelow(len(seq))]

    def shuffle(self, seq: MutableSequence[T]) -> None:
        """Fisher-Yates shuffle in place."""
        for i in range(len(seq) - 1, 0, -1):
            j = self.randbelow(i + 1)
            seq[i], seq[j] = seq[j], seq[i]

    def fork(self) -> Rng:
        """A new generator seeded from this one (for a sub-task that must not disturb this stream)."""
        return Rng(self.next64())
