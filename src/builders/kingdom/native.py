"""Kingdom Builder on the native core: :class:`NativeKingdomState`, a ``GameState`` whose position
lives in the C++ module ``builders_native`` (built from ``native/``).

It plays exactly like :class:`~builders.kingdom.state.KingdomState`: the same actions in the same
order, the same draws from the same seed, the same scores, records and error messages. What the
native core does not do itself (error messages, JSON positions and observations, the bots' reading of
the position: ``own``, ``held``, ``deck``, ...) it asks of a Python ``KingdomState`` made from it on
demand (and kept until the next action), so every caller works on either core. Those fields are
read-only here: a caller that changes a state by hand (``preview_turn`` does) gets a new one.

:func:`available` says whether the module was built; :func:`from_python` and :meth:`to_python`
convert a position either way.
"""

from __future__ import annotations

from typing import Any

from builders.core.errors import IllegalAction
from builders.core.games import CoreError, core_setting
from builders.core.rng import Rng
from builders.core.state import Chance, GameState, Result, check_not_over, winners_of
from builders.kingdom import notation, rules
from builders.kingdom.board import BIT, Board, bits
from builders.kingdom.data import CARDS, TERRAINS
from builders.kingdom.state import KingdomState

try:  # the native module is optional: without it the Python engine plays
    import builders_native as _native
except ImportError:  # pragma: no cover - depends on the install
    _native = None

_CODE = {t: i for i, t in enumerate(TERRAINS)}
_CHANCE = [Chance(t) for t in TERRAINS]
_LIMIT = 1 << 31
_BOARDS: dict[Any, Any] = {}


def available() -> bool:
    """Whether the native module ``builders_native`` is installed."""
    return _native is not None


def native_board(board: Board):
    """The native module's board of a Python :class:`Board` (made once per map)."""
    found = _BOARDS.get(board.sections)
    if found is None:
        kinds = [board.loc_kind.get(h, -1) for h in range(400)]
        found = _BOARDS[board.sections] = _native.KBBoard(board.terrain, kinds)
    return found


def _mask(value: int) -> bytes:
    return value.to_bytes(50, "little")


def _int(data: bytes) -> int:
    return int.from_bytes(data, "little")


def _to_ordinals(board: Board, mask: int) -> int:
    """A mask of location hexes as a mask of location ordinals (the native core's tile masks)."""
    out = 0
    for h in bits(mask):
        out |= 1 << board.loc_ord[h]
    return out


def _from_ordinals(board: Board, mask: int) -> int:
    out = 0
    for o, h in enumerate(board.locations):
        if mask >> o & 1:
            out |= BIT[h]
    return out


def _encode_history(history: list) -> list[int]:
    return [-(_CODE[e] + 1) if isinstance(e, Chance) else e for e in history]


def _decode_history(history: list[int]) -> list:
    return [e if e >= 0 else _CHANCE[-e - 1] for e in history]


def from_python(st: KingdomState) -> NativeKingdomState:
    """The native state of a Python ``KingdomState`` (history, forced draws and generator included)."""
    if _native is None:
        raise RuntimeError("the native core is not built (pip install ./native)")
    board = st.board
    n = _native.KBState.blank(native_board(board), st.num_players, [CARDS.index(c) for c in st.cards],
                              st.start_player)
    n.to_move = st.to_move
    n.built = st.built
    n.turn = st.turn
    n.final_round = st.final_round
    n.over = st.over
    n.legacy = st.legacy
    n.rng_state = st.rng.state
    n.occ = _mask(st.occ)
    for p in range(st.num_players):
        n.set_own(p, _mask(st.own[p]), _mask(st.near[p]))
        n.set_tiles(p, *(_to_ordinals(board, m) for m in (st.held[p], st.used[p], st.new[p], st.taken[p])))
    n.supply = st.supply
    n.hand = st.hand
    n.left = st.left
    n.deck = st.deck
    n.discard = st.discard
    n.removed = st.removed
    n.set_history(_encode_history(st.history))
    return NativeKingdomState._wrap(n, board, st.cards, st._setup, list(st.forced))


class NativeKingdomState(GameState):
    """A Kingdom Builder position on the native core, with the protocol of ``KingdomState``."""

    GAME = "kingdom"
    RECORD_FORMAT = 2
    __slots__ = ("_n", "board", "cards", "_setup", "forced", "_py", "_hist")

    @classmethod
    def _wrap(cls, n, board: Board, cards: tuple[str, ...], setup: dict[str, Any], forced: list) -> NativeKingdomState:
        st = object.__new__(cls)
        st._n = n
        st.board = board
        st.cards = cards
        st._setup = setup
        st.forced = forced
        st._py = None
        st._hist = None
        return st

    def to_python(self) -> KingdomState:
        """This position as a Python ``KingdomState`` (a new, independent one)."""
        n = self._n
        board = self.board
        st = KingdomState.blank(board, n.num_players, self.cards, self._setup, n.start_player, Rng(0))
        st.rng.state = n.rng_state
        st.to_move = n.to_move
        st.built = n.built
        st.turn = n.turn
        st.final_round = n.final_round
        st.over = n.over
        st.legacy = n.legacy
        st.occ = _int(n.occ)
        for p in range(n.num_players):
            st.own[p] = _int(n.own(p))
            st.near[p] = _int(n.near(p))
            st.held[p], st.used[p], st.new[p], st.taken[p] = (_from_ordinals(board, m) for m in n.tiles(p))
        st.supply = n.supply
        st.hand = n.hand
        st.left = n.left
        st.deck = n.deck
        st.discard = n.discard
        st.removed = n.removed
        st.history = _decode_history(n.history)
        st.forced = list(self.forced)
        return st

    def _python(self) -> KingdomState:
        """The Python state of this position, made once per position (read it, do not change it)."""
        py = self._py
        if py is None:
            py = self._py = self.to_python()
        return py

    def copy(self) -> NativeKingdomState:
        st = object.__new__(NativeKingdomState)
        st._n = self._n.copy()
        st.board = self.board
        st.cards = self.cards
        st._setup = self._setup
        st.forced = self.forced[:]
        st._py = None
        st._hist = None
        return st

    # -- the decision -------------------------------------------------------------------------
    @property
    def num_players(self) -> int:
        return self._n.num_players

    @property
    def current_player(self) -> int:
        return self._n.to_move

    @property
    def to_move(self) -> int:
        return self._n.to_move

    @property
    def over(self) -> bool:
        return self._n.over

    @property
    def legacy(self) -> bool:
        return self._n.legacy

    @property
    def rng(self) -> Rng:
        """A copy of the state's generator (the native state keeps its own)."""
        rng = Rng(0)
        rng.state = self._n.rng_state
        return rng

    def is_over(self) -> bool:
        return self._n.over

    @property
    def record_format(self) -> int:
        return 1 if self._n.legacy else self.RECORD_FORMAT

    def legal_actions(self) -> list[int]:
        return self._n.legal_actions()

    def is_legal(self, action: Any) -> bool:
        return type(action) is int and 0 <= action < _LIMIT and self._n.is_legal(action)

    def apply(self, action: Any) -> None:
        if not self.forced and self._n.try_apply(action):
            self._py = self._hist = None
            return
        self._apply_forced_or_refuse(action)

    def _apply_forced_or_refuse(self, action: Any) -> None:
        """Play ``action`` with the pending forced draws, or raise the Python engine's error."""
        if self.forced and type(action) is int and 0 <= action < _LIMIT:
            codes = [_CODE.get(f, -1) if isinstance(f, str) else -1 for f in self.forced]
            status, value = self._n.apply_forced(action, codes)
            if status == 1:
                del self.forced[:value]
                self._py = self._hist = None
                return
            if status == -1:
                raise IllegalAction(f"{self.forced[value]!r} is not a terrain card (expected one of "
                                    f"{', '.join(TERRAINS)})")
            if status == -2:
                raise IllegalAction(f"no {self.forced[value]} card is left in the deck to draw")
        py = self._python()
        if py.over:
            check_not_over(py)
        raise IllegalAction(rules.why_illegal(py, action))

    @property
    def history(self) -> list:
        """The history (actions and Chance entries); a new list at each position."""
        hist = self._hist
        if hist is None:
            hist = self._hist = _decode_history(self._n.history)
        return hist

    @history.setter
    def history(self, value: list) -> None:
        self._n.set_history(_encode_history(value))
        self._py = self._hist = None

    # -- results ------------------------------------------------------------------------------
    def score_breakdown(self) -> list[dict[str, int]]:
        """The gold each seat would score now, per card (castles first)."""
        n = self._n
        out = []
        for seat in range(n.num_players):
            castles, *per_card = n.scores(seat)
            part = {"castles": castles}
            part.update(zip(self.cards, per_card))
            out.append(part)
        return out

    def result(self) -> Result:
        if not self._n.over:
            raise ValueError("the game is not over")
        parts = tuple(self.score_breakdown())
        scores = tuple(sum(p.values()) for p in parts)
        return Result(scores, parts, winners_of(scores))

    # -- notation -----------------------------------------------------------------------------
    action_to_string = KingdomState.action_to_string

    def parse_action(self, text: str) -> int:
        action = notation.parse(text)
        if not self.is_legal(action):
            raise IllegalAction(rules.why_illegal(self._python(), action))
        return action

    def to_record(self) -> dict[str, Any]:
        """The record, in the format of the rules this state follows."""
        return {**super().to_record(), "format": self.record_format}

    # -- information --------------------------------------------------------------------------
    setup = KingdomState.setup

    def to_json(self) -> dict[str, Any]:
        return self._python().to_json()

    def observation(self, seat: int) -> dict[str, Any]:
        return self._python().observation(seat)

    def resample_hidden(self, seat: int, rng: Rng) -> NativeKingdomState:
        """As ``KingdomState.resample_hidden``, on the native core."""
        return from_python(self.to_python().resample_hidden(seat, rng))

    def preview_turn(self, seat: int, terrain: int) -> NativeKingdomState:
        """As ``KingdomState.preview_turn``, on the native core."""
        return from_python(self.to_python().preview_turn(seat, terrain))

    def playout(self, seed: int) -> int:
        """Play this game to its end inside the core, each decision a uniform pick among the legal
        actions by ``Rng(seed)`` (``legal[rng.randbelow(len(legal))]``); returns the decisions made."""
        self._py = self._hist = None
        return self._n.playout(seed)

    def __repr__(self) -> str:
        n = self._n
        return (f"NativeKingdomState(turn={n.turn}, to_move={n.to_move}, built={n.built}, "
                f"supply={n.supply}, over={n.over})")


def _read_python(name: str) -> property:
    def read(self: NativeKingdomState) -> Any:
        return getattr(self._python(), name)

    read.__doc__ = f"``KingdomState.{name}`` of this position (read it, do not change it)."
    return property(read)


def _read_native(name: str) -> property:
    def read(self: NativeKingdomState) -> Any:
        return getattr(self._n, name)

    read.__doc__ = f"``KingdomState.{name}`` of this position."
    return property(read)


# what callers read of a KingdomState: the small fields from the native state, the masks and piles
# from the Python state of the same position, and the helper methods of KingdomState on it (a class
# attribute each: a __getattr__ would slow every attribute of the class down)
for _name in ("start_player", "built", "turn", "final_round", "supply", "hand"):
    setattr(NativeKingdomState, _name, _read_native(_name))
for _name in ("own", "occ", "near", "deck", "discard", "removed", "held", "used", "new", "taken", "left",
              "scoring_hexes", "settlements", "mandatory_done"):
    setattr(NativeKingdomState, _name, _read_python(_name))


def select(state: KingdomState) -> GameState:
    """``state`` on the core the environment asks for (``BUILDERS_CORE``): the Python engine by
    default and for "python", the native core for "native" (CoreError if it is not built)."""
    core = core_setting()
    if core != "native":
        return state
    if _native is None:
        raise CoreError("BUILDERS_CORE=native, but the native core is not built (make native)")
    return from_python(state)


def core_name() -> str:
    """The core Kingdom Builder games run on now: "native" or "python"."""
    return "native" if core_setting() == "native" and _native is not None else "python"


class KingdomBatch:
    """``size`` Kingdom Builder games stepped together, for learning: numpy arrays in and out.

    The games use the index encoding of the research kit (``builders.rl.kingdom``: hexes 0-399, the
    tiles 400-407, end 408; a tile or the settlement a move tile moves is a pick of its own). Game
    ``i`` starts as ``new_state({"players", "sections", "cards", "start_player": 0, "seed": seed + i})``;
    a game that ends starts again with the next unused seed. ``masks`` (size x 409, uint8) are the
    allowed indices now; :meth:`step` plays one index in every game and returns ``(masks, rewards,
    dones, to_move)``, where ``rewards[i]`` holds every seat's return (1 for a sole winner, 1/k for k
    tied ones) on the step game ``i`` ended, else zeros."""

    def __init__(self, size: int, players: int = 2, sections=None, cards=None, seed: int = 0, pick_seed: int = 0):
        import numpy as np

        from builders.kingdom.bench import WORKLOAD_CARDS, WORKLOAD_SECTIONS
        from builders.kingdom.board import get_board

        if _native is None:
            raise CoreError("the native core is not built (make native)")
        self.board = get_board(sections or WORKLOAD_SECTIONS)
        self.cards = tuple(cards or WORKLOAD_CARDS)
        self.players = players
        self._b = _native.KBBatch(native_board(self.board), players, [CARDS.index(c) for c in self.cards], size,
                                  seed, pick_seed)
        self.masks = np.zeros((size, 409), dtype=np.uint8)
        self.rewards = np.zeros((size, players), dtype=np.float32)
        self.dones = np.zeros(size, dtype=np.uint8)
        self.to_move = np.zeros(size, dtype=np.int32)
        self._actions = np.zeros(size, dtype=np.int64)
        self._planes = np.zeros((size, 19 + players, 20, 20), dtype=np.uint8)
        self._b.masks(self.masks)

    @property
    def size(self) -> int:
        return self._b.size

    def step(self, actions):
        """Play ``actions[i]`` (an index allowed by ``masks[i]``) in every game; ValueError naming the
        first game whose index is not allowed (nothing is played then)."""
        import numpy as np

        self._b.step(np.ascontiguousarray(actions, dtype=np.int64), self.masks, self.rewards, self.dones,
                     self.to_move)
        return self.masks, self.rewards, self.dones, self.to_move

    def sample(self):
        """A uniform random allowed index for every game (drawn inside the core)."""
        self._b.sample(self.masks, self._actions)
        return self._actions

    def run_random(self, steps: int) -> int:
        """``steps`` uniform random steps of every game inside the core; returns the games ended."""
        ended = self._b.run_random(steps)
        self._b.masks(self.masks)
        return ended

    def observe(self):
        """The board planes of the research kit's observation (``observation["board"]``) of every
        game, seen by its seat to move: (size, 19 + players, 20, 20) uint8."""
        self._b.observe(self._planes)
        return self._planes

    def state(self, i: int) -> tuple[NativeKingdomState, list[int]]:
        """A copy of game ``i`` (without its history) and its pending picks."""
        n, p0, p1 = self._b.state(i)
        setup = {"players": self.players, "sections": [list(s) for s in self.board.sections],
                 "cards": list(self.cards), "start_player": 0}
        return NativeKingdomState._wrap(n, self.board, self.cards, setup, []), [p for p in (p0, p1) if p >= 0]
