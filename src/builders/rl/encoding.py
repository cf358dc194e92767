"""The observation layout both games share: one flat uint8 vector per seat, cut into named parts.

Each codec gives :meth:`layout` ((key, shape, highest value) of each part, in order) and ``encode``
(the flat vector). An environment hands a learner one of two formats:

* ``"flat"`` (the default): ``{"observation": the flat vector, "action_mask": the mask}``, PettingZoo's
  Classic convention, which Tianshou, SB3 (``MultiInputPolicy``) and CleanRL-style loops read as is;
* ``"dict"``: the named parts (views of one flat vector) and ``"action_mask"``.

``ENCODING_VERSION`` changes whenever an observation or action layout changes (CHANGELOG.md says how).
"""

from __future__ import annotations

from typing import Any

import numpy as np

#: the version of the observation and action layouts (docs/rl.md, CHANGELOG.md)
ENCODING_VERSION = 2
FORMATS = ("flat", "dict")


def is_native(state: Any) -> bool:
    """Whether ``state`` is a native core's state (one that fills the research kit's arrays itself)."""
    return hasattr(state, "rl_encode")


def check_format(observation: str) -> str:
    if observation not in FORMATS:
        raise ValueError(f"observation must be 'flat' or 'dict', not {observation!r}")
    return observation


class Layout:
    """The parts of a codec's flat observation: offsets, spaces, and the named views."""

    num_actions: int

    def layout(self) -> tuple[tuple[str, tuple[int, ...], Any], ...]:
        raise NotImplementedError

    def encode(self, state, seat: int, prefix) -> np.ndarray:
        raise NotImplementedError

    def encoder(self, seat: int):
        """A callable ``(state, prefix)`` giving ``seat``'s flat observation (a codec whose encoding
        gains from the last observation returns an object that keeps it)."""
        return lambda state, prefix: self.encode(state, seat, prefix)

    def offsets(self) -> dict[str, int]:
        """The offset of each part in the flat vector, and ``"end"``, its length."""
        out, at = {}, 0
        for key, shape, _ in self.layout():
            out[key] = at
            at += int(np.prod(shape))
        out["end"] = at
        return out

    def high(self) -> np.ndarray:
        """The highest value of each entry of the flat vector."""
        return np.concatenate(
            [np.broadcast_to(np.asarray(top, dtype=np.uint8), shape).ravel() for _, shape, top in self.layout()]
        )

    def observation_space(self, observation: str = "flat"):
        """The Gymnasium space of an observation in the format ``observation``."""
        from gymnasium import spaces

        mask = spaces.Box(0, 1, shape=(self.num_actions,), dtype=np.int8)
        if observation == "flat":
            return spaces.Dict({"observation": spaces.Box(0, self.high(), dtype=np.uint8), "action_mask": mask})
        parts = {
            key: spaces.Box(0, np.broadcast_to(np.asarray(top, dtype=np.uint8), shape).copy(), dtype=np.uint8)
            for key, shape, top in self.layout()
        }
        return spaces.Dict({**parts, "action_mask": mask})

    def split(self, flat: np.ndarray) -> dict[str, np.ndarray]:
        """The named parts of a flat observation (views of it)."""
        out, at = {}, 0
        for key, shape, _ in self.layout():
            size = int(np.prod(shape))
            out[key] = flat[at : at + size].reshape(shape)
            at += size
        return out

    def observation(self, flat: np.ndarray, mask: np.ndarray, observation: str = "flat") -> dict[str, np.ndarray]:
        """The observation handed to a learner, in the format ``observation``."""
        if observation == "flat":
            return {"observation": flat, "action_mask": mask}
        return {**self.split(flat), "action_mask": mask}
