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
from builders.core.games import CoreError, native_wanted
from builders.core.rng import Rng
from builders.core.state import Chance, GameState, Result, check_not_over, winners_of
from builders.kingdom import dump, notation, rules
from builders.kingdom.board import BIT, CODE_OF_LETTER, LOCATION, Board, bits, get_board
from builders.kingdom.data import CARDS, SECTION_NAMES, TERRAINS, section_rows
from builders.kingdom.setup import normalize_setup
from builders.kingdom.state import KingdomState

try:  # the native module is optional: without it the Python engine plays
    import builders_native as _native
except ImportError:  # pragma: no cover - depends on the install
    _native = None

_CODE = {t: i for i, t in enumerate(TERRAINS)}
_CHANCE = [Chance(t) for t in TERRAINS]
_LIMIT = 1 << 31
_BOARDS: dict[Any, Any] = {}
#: the text of each action code named lately (see NativeKingdomState.action_to_string)
_TEXTS: dict[int, str] = {}


def available() -> bool:
    """Whether the native module ``builders_native`` is installed."""
    return _native is not None


def native_board(board: Board):
    """The native module's board of a Python :class:`Board` (made once per map, the last few hundred
    kept)."""
    return native_board_of(board.sections)


_LETTER_CODES = bytes.maketrans("".join(CODE_OF_LETTER).encode("ascii"), bytes(CODE_OF_LETTER.values()))
#: what one section turned one way puts in one slot: its 10 rows of terrain codes and its location
#: hexes (the map's indices), the same on every map with it there
_SLOTS: dict[tuple[tuple[str, bool], int], tuple[list[bytes], list[int]]] = {}


def _slot(section: tuple[str, bool], slot: int) -> tuple[list[bytes], list[int]]:
    found = _SLOTS.get((section, slot))
    if found is None:
        rows = [row.encode("ascii").translate(_LETTER_CODES) for row in section_rows(*section)]
        top, left = 10 * (slot >= 2), 10 * (slot & 1)
        locations = [
            (top + r) * 20 + left + c for r, row in enumerate(rows) for c, code in enumerate(row) if code == LOCATION
        ]
        found = _SLOTS[(section, slot)] = (rows, locations)
    return found


def board_lists(sections: tuple[tuple[str, bool], ...]) -> tuple[list[int], list[int]]:
    """(terrain code of each hex, location kind of each hex or -1) of the map of ``sections``: what
    :class:`Board` has as ``terrain`` and ``loc_kind``, without making the whole Board."""
    slots = [_slot(section, k) for k, section in enumerate(sections)]
    terrain = b"".join(slots[0][0][r] + slots[1][0][r] for r in range(10))
    terrain += b"".join(slots[2][0][r] + slots[3][0][r] for r in range(10))
    kinds = [-1] * 400
    for (name, _), (_, locations) in zip(sections, slots):
        kind = SECTION_NAMES.index(name)
        for h in locations:
            kinds[h] = kind
    return list(terrain), kinds


def native_board_of(sections: tuple[tuple[str, bool], ...]):
    """The native module's board of the map of ``sections`` (``Board.sections``: a tuple of (name,
    turned) pairs), made once per map (the last few hundred kept) without a Python Board."""
    found = _BOARDS.get(sections)
    if found is None:
        if len(_BOARDS) >= 512:  # random maps seldom come back: keep the memory of a few hundred
            _BOARDS.clear()
        found = _BOARDS[sections] = _native.KBBoard(*board_lists(sections))
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
    locations = board.locations
    while mask:  # a player holds few tiles: one step per tile
        low = mask & -mask
        out |= BIT[locations[low.bit_length() - 1]]
        mask ^= low
    return out


def _encode_history(history: list) -> list[int]:
    return [-(_CODE[e] + 1) if isinstance(e, Chance) else e for e in history]


def _decode_history(history: list[int]) -> list:
    return [e if e >= 0 else _CHANCE[-e - 1] for e in history]


#: the fields that both cores keep alike (numbers, flags, lists of numbers)
_PLAIN_FIELDS = (
    "to_move",
    "built",
    "turn",
    "final_round",
    "over",
    "legacy",
    "supply",
    "hand",
    "left",
    "deck",
    "discard",
    "removed",
)


def _copy_fields(source: Any, target: Any) -> None:
    for name in _PLAIN_FIELDS:
        setattr(target, name, getattr(source, name))


def from_python(st: KingdomState) -> NativeKingdomState:
    """The native state of a Python ``KingdomState`` (history, forced draws and generator included)."""
    if _native is None:
        raise CoreError("the native core is not built (make native)")
    board = st.board
    n = NativeKingdomState(native_board(board), st.num_players, [CARDS.index(c) for c in st.cards], st.start_player)
    n.meta = (board, st.cards, st._setup)
    _copy_fields(st, n)
    n.rng_state = st.rng.state
    n.occ_bytes = _mask(st.occ)
    for p in range(st.num_players):
        n.set_own(p, _mask(st.own[p]), _mask(st.near[p]))
        n.set_tiles(p, *(_to_ordinals(board, m) for m in (st.held[p], st.used[p], st.new[p], st.taken[p])))
    n.set_history(_encode_history(st.history))
    n.forced = list(st.forced)
    return n


def new_state(setup: Any) -> NativeKingdomState:
    """The initial state of a setup made directly on the native core (the setup checked by
    ``builders.kingdom.setup`` as always): the same state as ``from_python(setup.new_state(setup))``."""
    return start_state(normalize_setup(setup))


def start_state(norm: dict[str, Any]) -> NativeKingdomState:
    """The initial state of an already normalized setup (``normalize_setup``'s, or ``random_setup``'s,
    which is normalized as drawn) made on the native core; its Python Board is made when first asked for."""
    if _native is None:
        raise CoreError("the native core is not built (make native)")
    sections = tuple((str(name), bool(turned)) for name, turned in norm["sections"])
    cards = norm["cards"]
    st = NativeKingdomState(
        native_board_of(sections), norm["players"], [CARDS.index(c) for c in cards], norm["start_player"]
    )
    st.start_game(norm["seed"], [_CODE[t] for t in norm["deck"]] if "deck" in norm else None)
    st.meta = (None, tuple(cards), norm)
    return st


class NativeKingdomState(_native.KBState if _native is not None else object):  # type: ignore[misc]
    """A Kingdom Builder position on the native core, with the protocol of ``KingdomState``.

    It is the native module's state itself (``legal_actions``, ``apply``, ``is_over``, ``copy`` and
    the small fields are the core's own methods and properties), registered as a ``GameState``."""

    GAME = "kingdom"
    RECORD_FORMAT = 2
    __slots__ = ()

    @property
    def board(self) -> Board:
        """The map (a Python Board, made on first use for a state made by :func:`start_state`)."""
        meta = self.meta
        board = meta[0]
        if board is None:
            board = get_board(meta[2]["sections"])
            self.meta = (board, meta[1], meta[2])
        return board

    cards = property(lambda self: self.meta[1], doc="The 3 scoring cards, by name.")
    _setup = property(lambda self: self.meta[2])

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        """Pickled as its Python state and made native again when unpickled: positions cross to
        worker processes (bots, hints, analyses) so."""
        return (from_python, (self.to_python(),))

    def to_python(self) -> KingdomState:
        """This position as a Python ``KingdomState`` (a new, independent one)."""
        board = self.board
        st = KingdomState.blank(board, self.num_players, self.cards, self._setup, self.start_player, Rng(0))
        st.rng.state = self.rng_state
        _copy_fields(self, st)
        st.occ = self.occ
        st.own = self.own
        st.near = self.near
        st.held, st.used, st.new, st.taken = self.held, self.used, self.new, self.taken
        st.history = _decode_history(self.history_codes)
        st.forced = list(self.forced)
        return st

    def _python(self) -> KingdomState:
        """The Python state of this position, made once per position (read it, do not change it)."""
        py = self.cache
        if py is None:
            py = self.cache = self.to_python()
        return py

    # -- the position, as KingdomState keeps it -----------------------------------------------
    @property
    def own(self) -> list[int]:
        return [_int(self.own_bytes(p)) for p in range(self.num_players)]

    @property
    def occ(self) -> int:
        return _int(self.occ_bytes)

    @property
    def near(self) -> list[int]:
        return [_int(self.near_bytes(p)) for p in range(self.num_players)]

    def _tiles(self, which: int) -> list[int]:
        board = self.board
        return [_from_ordinals(board, self.tiles(p)[which]) for p in range(self.num_players)]

    held = property(lambda self: self._tiles(0), doc="KingdomState.held (masks of location hexes).")
    used = property(lambda self: self._tiles(1), doc="KingdomState.used.")
    new = property(lambda self: self._tiles(2), doc="KingdomState.new.")
    taken = property(lambda self: self._tiles(3), doc="KingdomState.taken.")

    @property
    def rng(self) -> Rng:
        """A copy of the state's generator (the native state keeps its own)."""
        rng = Rng(0)
        rng.state = self.rng_state
        return rng

    @property
    def record_format(self) -> int:
        return 1 if self.legacy else self.RECORD_FORMAT

    def _apply_slow(self, action: Any) -> None:
        """``apply`` of an action with pending forced draws, or of one that is not legal (the
        Python engine's error, nothing changed)."""
        if self.forced and type(action) is int and 0 <= action < _LIMIT:
            forced = self.forced
            codes = [_CODE.get(f, -1) if isinstance(f, str) else -1 for f in forced]
            status, value = self.apply_forced(action, codes)
            if status == 1:
                del forced[:value]
                return
            if status == -1:
                raise notation.bad_draw(forced[value], in_deck=False)
            if status == -2:
                raise notation.bad_draw(forced[value], in_deck=True)
        py = self._python()
        if py.over:
            check_not_over(py)
        raise IllegalAction(rules.why_illegal(py, action))

    @property
    def history(self) -> list:
        """The history (actions and Chance entries); one list per position (do not change it)."""
        hist = self.hist
        if hist is None:
            hist = self.hist = _decode_history(self.history_codes)
        return hist

    @history.setter
    def history(self, value: list) -> None:
        self.set_history(_encode_history(value))

    # -- results ------------------------------------------------------------------------------
    def score_breakdown(self) -> list[dict[str, int]]:
        """The gold each seat would score now, per card (castles first)."""
        out = []
        for seat in range(self.num_players):
            castles, *per_card = self.scores(seat)
            part = {"castles": castles}
            part.update(zip(self.cards, per_card))
            out.append(part)
        return out

    def result(self) -> Result:
        if not self.over:
            raise ValueError("the game is not over")
        parts = tuple(self.score_breakdown())
        scores = tuple(sum(p.values()) for p in parts)
        return Result(scores, parts, winners_of(scores))

    returns = GameState.returns

    # -- notation and records -----------------------------------------------------------------
    def action_to_string(self, action: int) -> str:
        """``KingdomState.action_to_string``, the text of each code kept once made (the legal actions
        of every view are named; the texts of the last few ten thousand codes are kept)."""
        if type(action) is int:
            text = _TEXTS.get(action)
            if text is None:
                if len(_TEXTS) >= 50_000:
                    _TEXTS.clear()
                text = _TEXTS[action] = notation.to_string(action)
            return text
        return notation.to_string(action)

    apply_string = GameState.apply_string
    history_strings = GameState.history_strings
    player_actions = GameState.player_actions
    take_forced = GameState.take_forced

    def parse_action(self, text: str) -> int:
        action = notation.parse(text)
        if not self.is_legal(action):
            raise IllegalAction(rules.why_illegal(self._python(), action))
        return action

    def to_record(self) -> dict[str, Any]:
        """The record, in the format of the rules this state follows."""
        return {**GameState.to_record(self), "format": self.record_format}

    # -- information --------------------------------------------------------------------------
    setup = KingdomState.setup

    def to_json(self) -> dict[str, Any]:
        return self._python().to_json()

    def observation(self, seat: int | None) -> dict[str, Any]:
        """``KingdomState.observation`` read from the core's fields (no Python state is made)."""
        return dump.observation(self, seat)

    def resample_hidden(self, seat: int, rng: Rng) -> NativeKingdomState:
        """As ``KingdomState.resample_hidden``, made in the native core (``resample``)."""
        if type(seat) is not int or not -1 <= seat < self.num_players:
            return from_python(self.to_python().resample_hidden(seat, rng))
        other, rng.state = self.resample(seat, rng.state)
        return other

    def preview_turn(self, seat: int, terrain: int) -> NativeKingdomState:
        """As ``KingdomState.preview_turn``, on the native core (made there: ``preview``)."""
        return self.preview(seat, terrain)

    def scoring_hexes(self, seat: int, card: str) -> list[tuple[int, int]]:
        return self._python().scoring_hexes(seat, card)

    def settlements(self, seat: int) -> list[tuple[int, int]]:
        return self._python().settlements(seat)

    def mandatory_done(self) -> bool:
        return self._python().mandatory_done()

    def __repr__(self) -> str:
        return (
            f"NativeKingdomState(turn={self.turn}, to_move={self.to_move}, built={self.built}, "
            f"supply={self.supply}, over={self.over})"
        )


GameState.register(NativeKingdomState)


def select(state: KingdomState) -> GameState:
    """``state`` on the core the environment asks for (``BUILDERS_CORE``: see
    ``builders.core.games.native_wanted``; CoreError for "native" when it is not built)."""
    return from_python(state) if native_wanted(_native is not None) else state


def core_name() -> str:
    """The core Kingdom Builder games run on now: "native" or "python" (CoreError for a bad
    ``BUILDERS_CORE``; "python" when it asks for a native core that is not built)."""
    return "native" if _native is not None and native_wanted(True) else "python"


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
        self._b = _native.KBBatch(
            native_board(self.board), players, [CARDS.index(c) for c in self.cards], size, seed, pick_seed
        )
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

        self._b.step(np.ascontiguousarray(actions, dtype=np.int64), self.masks, self.rewards, self.dones, self.to_move)
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
        setup = {
            "players": self.players,
            "sections": [list(s) for s in self.board.sections],
            "cards": list(self.cards),
            "start_player": 0,
        }
        st = NativeKingdomState(native_board(self.board), self.players, [CARDS.index(c) for c in self.cards], 0)
        st.assign(n)
        st.meta = (self.board, self.cards, setup)
        return st, [p for p in (p0, p1) if p >= 0]
