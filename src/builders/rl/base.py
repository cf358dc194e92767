"""The piece every environment shares: one game, its pending picks and its legal-index mask.

A :class:`Match` plays indices (the codec of the game's RL kit, :mod:`builders.rl.kit`) into an
engine state. A pick that does not yet make a whole engine action (an action of several indices, such
as a tile and the hexes it builds on) is kept here, never in the engine, so the game's record holds
only whole actions.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from builders.core.errors import IllegalAction
from builders.core.games import CoreError, core_setting
from builders.rl.encoding import is_native
from builders.rl.kit import rl_kit


class IllegalIndex(IllegalAction):
    """An index that cannot be played now (masked out, out of range, or not an integer).

    Nothing changes when it is raised."""


_empty, _UINT8, _INT8 = np.empty, np.dtype(np.uint8), np.dtype(np.int8)

#: a game whose rules set no bound on its length (its kit is not ``bounded``: seats may never end it)
#: is cut after this many rounds (a round: every seat plays a turn)
MAX_ROUNDS = 100


def max_turns(game: str, num_players: int, max_rounds: int | None) -> int | None:
    """The turns after which a game is cut (None: never, for a game whose rules bound it)."""
    if rl_kit(game).bounded:
        return None
    rounds = MAX_ROUNDS if max_rounds is None else max_rounds
    if isinstance(rounds, bool) or not isinstance(rounds, int) or rounds < 1:
        raise ValueError(f"max_rounds must be an integer of at least 1, not {rounds!r}")
    return rounds * num_players


def make_codec(game: str, num_players: int):
    """The codec of ``game`` for ``num_players`` (its RL kit's); ValueError for an unknown game or a
    number of players out of range."""
    kit = rl_kit(game)
    if isinstance(num_players, bool) or not isinstance(num_players, int) or not 2 <= num_players <= 4:
        raise ValueError(f"num_players must be 2, 3 or 4, not {num_players!r}")
    return kit.codec(num_players)


CORES = ("auto", "python", "native")


def check_core(game: str, core: str) -> str:
    """The core the environments of ``game`` run on for the option ``core``: "auto" is the native core
    when the game's is built, unless ``BUILDERS_CORE=python``; "python" and "native" ask for one
    (CoreError if the native core is not built). ValueError for anything else."""
    if core not in CORES:
        raise ValueError(f"core must be 'auto', 'python' or 'native', not {core!r}")
    built = rl_kit(game).to_native is not None
    if core == "native" and not built:
        raise CoreError("core='native', but the native core is not built (make native)")
    if core == "auto":
        return "native" if built and core_setting() != "python" else "python"
    return core


def new_game(game: str, codec: Any, setup: Any, seed: int, core: str) -> Any:
    """A new game of ``codec`` on ``core``: the codec of a game with a native core makes it there
    itself (``new_state(setup, seed, core)``); a game without one has one kind of state
    (``new_state(setup, seed)``, the codec protocol every game's RL kit gives)."""
    if rl_kit(game).to_native is None:
        return codec.new_state(setup, seed)
    return codec.new_state(setup, seed, core)


def on_core(game: str, state: Any, core: str) -> Any:
    """``state`` on the core ``core`` ("python" or "native", as :func:`check_core` gives it)."""
    native = is_native(state)
    if core == "native" and not native:
        return rl_kit(game).to_native(state)
    if core == "python" and native:
        return state.to_python()
    return state


class Match:
    """One game seen as a sequence of index decisions. On a native core's state the observations and
    masks are filled by the core (byte for byte the same arrays); a codec with ``native_observer`` and
    ``native_player`` has the core fill a seat's observation and mask in one call and play an index in
    one call while no pick is pending."""

    __slots__ = (
        "codec",
        "_state",
        "_native",
        "prefix",
        "_legal",
        "_mask",
        "_mask_buf",
        "_encoders",
        "_kit",
        "_fill",
        "_play",
    )

    def __init__(self, codec, state):
        self.codec = codec
        self.state = state
        self.prefix: list[int] = []
        self._legal: list | None = None
        self._mask: np.ndarray | None = None
        #: the array the native core fills with the mask, made once and kept
        self._mask_buf = np.empty(codec.num_actions, dtype=np.int8)
        #: each seat's encoder of the Python core's observations (made on first use)
        self._encoders: list | None = None
        self._kit = rl_kit(codec.game)

    @property
    def state(self):
        """The engine state (Python or native)."""
        return self._state

    @state.setter
    def state(self, state) -> None:
        self._state = state
        self._native = native = is_native(state)
        codec = self.codec
        fast = native and hasattr(codec, "native_observer")
        #: the core's ``fill(seat, obs, mask)`` and ``play(index)`` of this state (None: not offered)
        self._fill = codec.native_observer(state) if fast else None
        self._play = codec.native_player(state) if fast else None

    def copy(self) -> Match:
        """An independent copy (the engine state copied, the codec shared)."""
        other = Match(self.codec, self.state.copy())
        other.prefix = list(self.prefix)
        other._legal = self._legal
        other._mask = self._mask.copy() if self._mask is self._mask_buf else self._mask
        return other

    def __deepcopy__(self, memo) -> Match:
        return self.copy()

    @property
    def current_player(self) -> int:
        return self.state.current_player

    def is_over(self) -> bool:
        return self.state.is_over()

    def legal(self) -> list:
        """The engine's legal actions of the current decision (cached until it changes)."""
        if self._legal is None:
            self._legal = self.state.legal_actions()
        return self._legal

    def mask(self) -> np.ndarray:
        """The int8 0/1 mask of the indices playable now (do not change it: it is cached)."""
        if self._mask is None:
            if self._native:
                self._mask = self.codec.native_mask(self._state, self.prefix, self._mask_buf)
            else:
                self._mask = self.codec.mask(self.legal(), self.prefix)
        return self._mask

    def legal_indices(self) -> list[int]:
        return np.flatnonzero(self.mask()).tolist()

    def check(self, index: Any) -> int:
        """``index`` as an int if it can be played now; IllegalIndex saying why not otherwise."""
        if (
            type(index) is int
            and 0 <= index < self.codec.num_actions
            and not self._state.is_over()
            and self.mask()[index]
        ):
            return index  # the common case, checked first
        if isinstance(index, np.ndarray) and index.shape == ():
            index = index.item()
        if isinstance(index, (bool, np.bool_)) or not isinstance(index, (int, np.integer)):
            raise IllegalIndex(
                f"an action index is an integer from 0 to {self.codec.num_actions - 1}, "
                f"not {index!r} ({type(index).__name__})"
            )
        index = int(index)
        if not 0 <= index < self.codec.num_actions:
            raise IllegalIndex(f"action index {index} is out of range (0-{self.codec.num_actions - 1})")
        if self.state.is_over():
            raise IllegalIndex(f"action index {index} cannot be played: the game is over")
        if not self.mask()[index]:
            what = self.codec.describe(index, self.prefix)
            raise IllegalIndex(
                f"action index {index} ({what}) is illegal: {self.codec.why_not(self.state, index, self.prefix)}"
            )
        return index

    def play(self, index: Any) -> Any:
        """Play one index; returns the engine action it completed, or None for a pick."""
        if self._play is not None and type(index) is int and not self.prefix:
            action = self._play(index)  # checked and played by the core in one call
            if action >= 0:
                self._legal = None
                self._mask = None
                return action
            if action == -1:  # a pick
                self.prefix = [index]
                self._mask = None
                return None
            # refused (-2), nothing changed: the Python way below says why (or plays recorded draws)
        elif self._native and type(index) is int and 0 <= index < self.codec.num_actions:
            # checked and played by the core in one call
            action = self.codec.native_play(self._state, self.prefix, index)
            if action == -1:
                self.prefix.append(index)
                self._mask = None
                return None
            if action != -2:
                self.prefix = []
                self._legal = None
                self._mask = None
                return action
        index = self.check(index)  # raises IllegalIndex saying why (or plays the forced draws below)
        prefix = self.prefix
        prefix.append(index)
        if self.codec.needs_more(prefix):
            self._mask = None
            return None
        action = self._kit.index_to_action(prefix)
        self._state.apply(action)
        self.prefix = []
        self._legal = None
        self._mask = None
        return action

    def indices(self, action: Any) -> tuple[int, ...]:
        """The indices that play the whole engine action ``action`` (one, or a tile's two or three)."""
        return self._kit.action_to_index(action)

    def _engine_action(self, prefix: list[int]):
        return self._kit.index_to_action(prefix)

    def play_action(self, action: Any) -> None:
        """Play a whole engine action (for built-in agents); only between picks."""
        if self.prefix:
            raise IllegalIndex("a pick is pending: play indices until it makes a whole action")
        self.state.apply(action)
        self._legal = None
        self._mask = None

    def observe(self, seat: int, observation: str = "flat") -> dict[str, np.ndarray]:
        """The observation of ``seat`` in the format ``observation`` ("flat" or "dict"). Its mask: the
        legal indices for the seat to act, all zeros for the others, and all ones once the game is over
        (the step that follows is a reset, which ignores its action: a learner never gets an empty
        mask to sample from)."""
        codec = self.codec
        state = self._state
        if self._fill is not None and not self.prefix:  # both filled by the core in one call
            flat = _empty(codec.size, _UINT8)
            mask = _empty(codec.num_actions, _INT8)
            self._fill(seat, flat, mask)
            if observation == "flat":
                return {"observation": flat, "action_mask": mask}
            return codec.observation(flat, mask, observation)
        if state.is_over():
            mask = np.ones(codec.num_actions, dtype=np.int8)
        elif seat == state.current_player:
            mask = (self._mask if self._mask is not None else self.mask()).copy()
        else:
            mask = np.zeros(codec.num_actions, dtype=np.int8)
        if self._native:
            flat = codec.native_encode(state, seat, self.prefix)
        else:
            if self._encoders is None:
                self._encoders = [codec.encoder(q) for q in range(codec.num_players)]
            flat = self._encoders[seat](state, self.prefix)
        if observation == "flat":
            return {"observation": flat, "action_mask": mask}
        return codec.observation(flat, mask, observation)

    def rewards(self, kind: str) -> list[float]:
        """Final rewards (docs/rl.md, "Rewards"): "win" = 1 for a sole winner, 1/k for each of k tied
        winners, -1 for the others; "zero-sum" = (n * share - 1) / (n - 1) for n seats, a winner's share
        1/k and a loser's 0 (two players: win +1, loss -1, draw 0); "margin" = own score minus the best
        other score."""
        if kind == "margin":
            return self.codec.score_margins(self.state)
        result = self.state.result()
        return win_rewards(len(result.scores), result.winners, kind)


def win_rewards(n: int, winners, kind: str) -> list[float]:
    """The rewards of ``n`` seats with these winners: "win" (1/k for k winners, -1 for the others),
    "zero-sum" ((n * share - 1) / (n - 1)) or OpenSpiel's "win" utility when called with
    kind="share" (1/k for k winners, 0 for the others)."""
    share = 1.0 / len(winners)
    if kind == "zero-sum":
        return [(n * (share if p in winners else 0.0) - 1.0) / (n - 1) for p in range(n)]
    loss = 0.0 if kind == "share" else -1.0
    return [share if p in winners else loss for p in range(n)]


REWARDS = ("win", "zero-sum", "margin")


def check_reward(reward: str) -> str:
    if reward not in REWARDS:
        raise ValueError(f"reward must be 'win', 'zero-sum' or 'margin', not {reward!r}")
    return reward
