"""Sequences that refuse to be read where a seat may not look: an observation made of them must
never touch what its seat does not see (built from what is visible, not blanked afterwards)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any


class Unseen(list):
    """A list whose items may not be read, but for the indices in ``seen``; its length may be."""

    def __init__(self, items: Iterable[Any], seen: Iterable[int] = ()):
        super().__init__(items)
        self.seen = set(seen)

    def __getitem__(self, i: Any) -> Any:
        if isinstance(i, int) and (i in self.seen or i - len(self) in self.seen):
            return super().__getitem__(i)
        raise AssertionError(f"an observation read a hidden item ({i!r})")

    def __iter__(self) -> Any:
        raise AssertionError("an observation read a hidden list")

    def __reversed__(self) -> Any:
        raise AssertionError("an observation read a hidden list")

    def __contains__(self, item: Any) -> bool:
        raise AssertionError("an observation read a hidden list")
