"""Kingdom Builder for learning: the factored action encoding and the observation planes.

Action indices (``NUM_ACTIONS`` = 409)::

    0-399    hex R,C (index R * 20 + C): a mandatory build, or the target of a tile, or the
             settlement a move tile moves, or where it goes, by the decision's phase
    400-407  pick a ready tile (SECTION_NAMES order: oracle, farm, oasis, tower, tavern, barn,
             harbor, paddock)
    408      end the turn

An engine action is one, two or three indices played by the same seat in a row:

    build R,C          -> (R*20+C,)
    oracle R,C         -> (400, R*20+C)              (farm 401, oasis 402, tower 403, tavern 404)
    barn A>B           -> (405, A, B)                (harbor 406, paddock 407)
    end                -> (408,)

Picking a tile or a settlement to move is a step of the environment, not of the game: the engine
sees (and records) the whole action once its last index is played. The mask of every step is
taken from the engine's own legal actions, so a pick is allowed only if some legal action starts
with it: every prefix can be completed, and every legal action is reachable.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from builders.core.errors import IllegalAction
from builders.kingdom.board import BIT, bits
from builders.kingdom.data import CARDS, SECTION_NAMES, TERRAINS
from builders.kingdom.notation import END, SHIFT, SRC_SHIFT, VERBS
from builders.rl.encoding import Layout, is_native

NUM_HEXES = 400
TILE0 = 400
END_INDEX = 408
NUM_ACTIONS = 409
TWO_HEX_KINDS = (5, 6, 7)  # barn, harbor, paddock

#: the phases of a decision: what the next index means
PHASE_ACTION, PHASE_TARGET, PHASE_SOURCE, PHASE_MOVE_TARGET = range(4)
PHASES = ("action", "tile target", "settlement to move", "move target")

#: static map planes: 9 terrain codes, 8 location kinds
_STATIC = 17
_STATIC_SIZE = _STATIC * 400
PLANE_NAMES_STATIC = (
    "grass",
    "canyon",
    "desert",
    "flower",
    "forest",
    "water",
    "mountain",
    "castle",
    "location",
    *(f"location {k}" for k in SECTION_NAMES),
)


def plane_names(num_players: int) -> tuple[str, ...]:
    """The names of the planes of ``observation["board"]``, in order."""
    return (
        *PLANE_NAMES_STATIC,
        "tiles left",
        *("own settlements" if k == 0 else f"settlements of the seat {k} after you" for k in range(num_players)),
        "settlement picked to move",
    )


def _hex(i: int) -> str:
    return f"{i // 20},{i % 20}"


def index_name(index: int, phase: int = PHASE_ACTION, tile: int = -1) -> str:
    """What ``index`` means in a phase (for tables, OpenSpiel's action strings, messages)."""
    if index == END_INDEX:
        return "end"
    if TILE0 <= index < END_INDEX:
        return f"tile {SECTION_NAMES[index - TILE0]}"
    if 0 <= index < NUM_HEXES:
        if phase == PHASE_ACTION:
            return f"build {_hex(index)}"
        verb = SECTION_NAMES[tile] if tile >= 0 else "tile"
        if phase == PHASE_TARGET:
            return f"{verb} {_hex(index)}"
        if phase == PHASE_SOURCE:
            return f"{verb} {_hex(index)}>"
        return f"{verb} >{_hex(index)}"
    return f"index {index}"


def action_to_index(action: int) -> tuple[int, ...]:
    """The indices that play the engine action ``action`` (one, two or three)."""
    if type(action) is not int or action < 0:
        raise IllegalAction(f"{action!r} is not a Kingdom Builder action")
    if action < NUM_HEXES:
        return (action,)
    if action == END:
        return (END_INDEX,)
    code, src, dst = action >> SHIFT, (action >> SRC_SHIFT) & 511, action & 511
    kind = code - 1
    if not 0 <= kind < 8 or dst >= NUM_HEXES or src >= NUM_HEXES:
        raise IllegalAction(f"{action!r} is not a Kingdom Builder action")
    if kind in TWO_HEX_KINDS:
        return (TILE0 + kind, src, dst)
    if src:
        raise IllegalAction(f"{action!r} is not a Kingdom Builder action")
    return (TILE0 + kind, dst)


def index_to_action(indices: Sequence[int]) -> int:
    """The engine action played by a complete sequence of indices (the inverse of action_to_index)."""
    if len(indices) == 1 and type(indices[0]) is int:  # a build or the end, the most common
        first = indices[0]
        if 0 <= first < NUM_HEXES:
            return first
        if first == END_INDEX:
            return END
    seq = [int(i) for i in indices]
    if len(seq) == 1 and 0 <= seq[0] < NUM_HEXES:
        return seq[0]
    if seq == [END_INDEX]:
        return END
    if seq and TILE0 <= seq[0] < END_INDEX and all(0 <= i < NUM_HEXES for i in seq[1:]):
        kind = seq[0] - TILE0
        if kind in TWO_HEX_KINDS and len(seq) == 3:
            return ((kind + 1) << SHIFT) | (seq[1] << SRC_SHIFT) | seq[2]
        if kind not in TWO_HEX_KINDS and len(seq) == 2:
            return ((kind + 1) << SHIFT) | seq[1]
    raise IllegalAction(
        f"{list(indices)!r} is not a complete Kingdom Builder action "
        "(a hex, end, a one-hex tile and a hex, or a move tile and two hexes)"
    )


def _mask_bytes(masks: Sequence[int]) -> np.ndarray:
    """Hex masks (400-bit ints) as a (len, 20, 20) uint8 array of 0/1."""
    buf = b"".join(m.to_bytes(50, "little") for m in masks)
    return np.unpackbits(np.frombuffer(buf, dtype=np.uint8), bitorder="little").reshape(len(masks), 20, 20)


class _StaticPlanes:
    """The planes of a map that never change (terrain and location kinds), cached per board."""

    _cache: dict[Any, tuple[np.ndarray, np.ndarray, np.ndarray]] = {}

    @classmethod
    def get(cls, board, cards: Sequence[str]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(static planes, location hex indices, scoring-card one-hot) of a map and its cards."""
        key = (board.sections, tuple(cards))
        found = cls._cache.get(key)
        if found is None:
            masks = [board.code_mask[c] for c in range(9)] + [board.kind_mask[k] for k in range(8)]
            planes = _mask_bytes(masks).reshape(-1)
            locations = np.array(board.locations, dtype=np.int64)
            one_hot = np.zeros(len(CARDS), dtype=np.int8)
            one_hot[[CARDS.index(c) for c in cards]] = 1
            for arr in (planes, locations, one_hot):
                arr.setflags(write=False)
            if len(cls._cache) > 512:
                cls._cache.clear()
            found = cls._cache[key] = (planes, locations, one_hot)
        return found


class KingdomEncoder:
    """The observations of one seat, kept between calls: the board planes are updated where the
    position differs from the last one encoded (settlements placed or moved, tiles taken), the rest
    is filled anew. Any state may come next (another game, an earlier position): every part is
    compared with what was encoded, never assumed."""

    __slots__ = ("codec", "seat", "board", "cards", "planes", "card_bytes", "own", "left", "src")

    def __init__(self, codec: KingdomCodec, seat: int):
        self.codec = codec
        self.seat = seat
        self.board = None

    def _start(self, state) -> None:
        """Encode the board planes from scratch for the map and cards of ``state``."""
        board = state.board
        codec = self.codec
        n = codec.num_players
        static, _, cards = _StaticPlanes.get(board, state.cards)
        own = [state.own[(self.seat + k) % n] for k in range(n)]
        planes = bytearray(codec.board_size)
        planes[:_STATIC_SIZE] = static.tobytes()
        planes[_STATIC_SIZE + 400 : _STATIC_SIZE + 400 * (n + 1)] = _mask_bytes(own).tobytes()
        self.planes = planes
        self.own = own
        self.left = [0] * len(board.locations)
        self.src = -1
        self.card_bytes = cards.tobytes()
        self.cards = state.cards[:]
        self.board = board

    def __call__(self, state, prefix: Sequence[int]) -> np.ndarray:
        if state.board is not self.board or state.cards != self.cards:
            self._start(state)
        planes = self.planes
        left = state.left
        if left != self.left:
            at = _STATIC_SIZE
            for h, count in zip(state.board.locations, left):
                planes[at + h] = count
            self.left = left[:]
        own, kept = state.own, self.own
        n = len(kept)
        seat = self.seat
        for k in range(n):
            m = own[(seat + k) % n]
            was = kept[k]
            if m != was:
                at = _STATIC_SIZE + 400 * (k + 1)
                for x in bits(m ^ was):
                    planes[at + x] = (m >> x) & 1
                kept[k] = m
        src = prefix[1] if len(prefix) == 2 and prefix[0] - TILE0 in TWO_HEX_KINDS else -1
        if src != self.src:
            at = _STATIC_SIZE + 400 * (n + 1)
            if self.src >= 0:
                planes[at + self.src] = 0
            if src >= 0:
                planes[at + src] = 1
            self.src = src
        return np.frombuffer(planes + self.codec.tail(state, seat, prefix, self.card_bytes), dtype=np.uint8)


class KingdomCodec(Layout):
    """Spaces, masks and observations of Kingdom Builder for ``num_players`` seats."""

    game = "kingdom"
    num_actions = NUM_ACTIONS

    def __init__(self, num_players: int):
        self.num_players = num_players
        self.num_planes = _STATIC + 1 + num_players + 1
        self.board_size = self.num_planes * 400
        self.size = self.offsets()["end"]

    # -- spaces -------------------------------------------------------------------------------
    def layout(self) -> tuple[tuple[str, tuple[int, ...], Any], ...]:
        """(key, shape, highest value) of each part of the observation, in the order of the flat vector."""
        n = self.num_players
        high = np.ones((self.num_planes, 20, 20), dtype=np.uint8)
        high[_STATIC] = 2
        return (
            ("board", (self.num_planes, 20, 20), high),
            ("cards", (len(CARDS),), 1),
            ("terrain", (n, len(TERRAINS)), 1),
            ("tiles", (n, 8, 3), 2),
            ("supply", (n,), 40),
            ("cards_seen", (2, len(TERRAINS)), 25),
            ("progress", (6,), 255),
            ("phase", (len(PHASES) + 8,), 1),
        )

    # -- masks --------------------------------------------------------------------------------
    @staticmethod
    def mask(legal: Sequence[int], prefix: Sequence[int]) -> np.ndarray:
        """The legal next indices after ``prefix`` (a pick not yet completed), as int8 0/1."""
        if not prefix:  # a Python loop over a few dozen actions costs less than numpy's calls
            buf = bytearray(NUM_ACTIONS)
            for a in legal:
                buf[a if a < NUM_HEXES else END_INDEX if a == END else TILE0 - 1 + (a >> SHIFT)] = 1
            return np.frombuffer(buf, dtype=np.int8)
        out = np.zeros(NUM_ACTIONS, dtype=np.int8)
        code = prefix[0] - TILE0 + 1
        arr = np.fromiter(legal, dtype=np.int64, count=len(legal))
        arr = arr[(arr >> SHIFT) == code]
        if len(prefix) == 1:
            out[(arr >> SRC_SHIFT) & 511 if code - 1 in TWO_HEX_KINDS else arr & 511] = 1
        else:
            out[arr[((arr >> SRC_SHIFT) & 511) == prefix[1]] & 511] = 1
        return out

    @staticmethod
    def needs_more(prefix: Sequence[int]) -> bool:
        """Whether the picks in ``prefix`` still need another index to make an engine action."""
        if not prefix:
            return False
        first = prefix[0]
        if first < TILE0 or first == END_INDEX:
            return False
        return len(prefix) < (3 if first - TILE0 in TWO_HEX_KINDS else 2)

    @staticmethod
    def phase(prefix: Sequence[int]) -> int:
        if not prefix:
            return PHASE_ACTION
        if prefix[0] - TILE0 in TWO_HEX_KINDS:
            return PHASE_SOURCE if len(prefix) == 1 else PHASE_MOVE_TARGET
        return PHASE_TARGET

    def describe(self, index: int, prefix: Sequence[int]) -> str:
        tile = prefix[0] - TILE0 if prefix else -1
        if self.phase(prefix) == PHASE_MOVE_TARGET and 0 <= index < NUM_HEXES:
            return f"{SECTION_NAMES[tile]} {_hex(prefix[1])}>{_hex(index)}"
        return index_name(index, self.phase(prefix), tile)

    def why_not(self, state, index: int, prefix: Sequence[int]) -> str:
        """Why the masked-out ``index`` cannot be played after ``prefix``, in the engine's words where
        the engine has them."""
        if state.is_over():
            return "the game is over"
        phase = self.phase(prefix)
        try:
            if phase == PHASE_ACTION:
                if index == END_INDEX:
                    state.parse_action("end")
                elif index < NUM_HEXES:
                    state.parse_action(f"build {_hex(index)}")
                else:
                    kind = index - TILE0
                    probe = "0,0>0,0" if kind in TWO_HEX_KINDS else "0,0"
                    try:
                        state.parse_action(f"{SECTION_NAMES[kind]} {probe}")
                    except IllegalAction as e:
                        if "0,0" not in str(e):
                            return str(e)
                    return f"your {SECTION_NAMES[kind]} tile has no legal use now"
            elif index >= NUM_HEXES:
                return (
                    f"a {SECTION_NAMES[prefix[0] - TILE0]} tile is picked: the next index is a hex (0-399), not {index}"
                )
            elif phase == PHASE_TARGET:
                state.parse_action(f"{SECTION_NAMES[prefix[0] - TILE0]} {_hex(index)}")
            elif phase == PHASE_SOURCE:
                verb = SECTION_NAMES[prefix[0] - TILE0]
                return (
                    f"hex {_hex(index)} is not one of your settlements"
                    if not self._own(state, index)
                    else f"no legal {verb} move starts at {_hex(index)}"
                )
            else:
                state.parse_action(f"{SECTION_NAMES[prefix[0] - TILE0]} {_hex(prefix[1])}>{_hex(index)}")
        except IllegalAction as e:
            return str(e)
        return "it is not legal now"

    @staticmethod
    def _own(state, index: int) -> bool:
        return bool(state.own[state.current_player] & BIT[index])

    # -- observations --------------------------------------------------------------------------
    def encode(self, state, seat: int, prefix: Sequence[int]) -> np.ndarray:
        """The flat uint8 observation of ``seat`` (the parts of :meth:`layout` in order): nothing of another
        seat's hidden card or of the deck order.

        Seats are relative: row 0 of every per-seat part is ``seat`` itself, row k the seat k places
        after it."""
        if is_native(state):
            return self.native_encode(state, seat, prefix)
        return KingdomEncoder(self, seat)(state, prefix)

    def native_encode(self, state, seat: int, prefix: Sequence[int]) -> np.ndarray:
        """:meth:`encode` of a native core's state, filled by the core."""
        out = np.empty(self.size, dtype=np.uint8)
        state.rl_encode(seat, prefix[0] if prefix else -1, prefix[1] if len(prefix) > 1 else -1, out)
        return out

    @staticmethod
    def native_mask(state, prefix: Sequence[int], out: np.ndarray | None = None) -> np.ndarray:
        """:meth:`mask` of a native core's state (its legal actions), filled by the core (in ``out``, an
        int8 array of NUM_ACTIONS entries, if given)."""
        if out is None:
            out = np.empty(NUM_ACTIONS, dtype=np.int8)
        state.rl_mask(prefix[0] if prefix else -1, prefix[1] if len(prefix) > 1 else -1, out)
        return out

    @staticmethod
    def native_play(state, prefix: Sequence[int], index: int) -> int:
        """Play ``index`` after ``prefix`` on a native core's state if it is allowed: the engine action it
        completed, -1 for a pick (nothing played), -2 if it is not allowed or forced draws wait
        (nothing changed)."""
        return state.rl_play(prefix[0] if prefix else -1, prefix[1] if len(prefix) > 1 else -1, index)

    def encoder(self, seat: int) -> KingdomEncoder:
        """An encoder of ``seat``'s observations that keeps the last one and updates only what changed
        (for the environments, which observe one game step by step)."""
        return KingdomEncoder(self, seat)

    def tail(self, state, seat: int, prefix: Sequence[int], cards: bytes) -> bytearray:
        """The parts after the board (``cards`` to ``phase``), filled byte by byte."""
        n = self.num_players
        out = bytearray(self.size - self.board_size)
        out[: len(CARDS)] = cards
        at = len(CARDS)
        over = state.is_over()
        to_move = state.current_player
        hand, held = state.hand, state.held
        loc_kind = state.board.loc_kind
        tiles_at = at + n * 5
        for k in range(n):
            q = (seat + k) % n
            t = hand[q]
            if t >= 0 and (k == 0 or (q == to_move and not over)):
                out[at + 5 * k + t] = 1
            h = held[q]
            if h:
                used, new = state.used[q], state.new[q]
                row = tiles_at + 24 * k
                for x in bits(h):
                    b = BIT[x]
                    out[row + 3 * loc_kind[x] + (1 if used & b else 2 if new & b else 0)] += 1
        at = tiles_at + 24 * n
        supply = state.supply
        for k in range(n):
            out[at + k] = supply[(seat + k) % n]
        at += n
        for c in state.discard:
            out[at + c] += 1
        for c in state.removed:
            out[at + 5 + c] += 1
        at += 10
        turn = state.turn
        out[at : at + 6] = bytes(
            (
                state.built,
                state.final_round,
                len(state.deck),
                to_move == seat and not over,
                turn if turn < 255 else 255,
                (state.start_player - seat) % n,
            )
        )
        at += 6
        if not prefix:
            out[at + PHASE_ACTION] = 1
        else:
            out[at + self.phase(prefix)] = 1
            out[at + len(PHASES) + prefix[0] - TILE0] = 1
        return out

    def encode_reference(self, state, seat: int, prefix: Sequence[int]) -> np.ndarray:
        """:meth:`encode` written plainly with numpy (slower): the definition the fast encoder is tested
        against (tests/rl/test_fast_encoding.py)."""
        n = self.num_players
        board = state.board
        out = np.empty(self.size, dtype=np.uint8)
        static, locations, cards = _StaticPlanes.get(board, state.cards)
        out[:_STATIC_SIZE] = static
        left = out[_STATIC_SIZE : _STATIC_SIZE + 400]
        left[:] = 0
        left[locations] = state.left
        own = state.own
        src = prefix[1] if len(prefix) == 2 and prefix[0] - TILE0 in TWO_HEX_KINDS else -1
        dyn = [own[(seat + k) % n] for k in range(n)]
        dyn.append(BIT[src] if src >= 0 else 0)
        buf = b"".join(m.to_bytes(50, "little") for m in dyn)
        at = _STATIC_SIZE + 400
        out[at : self.board_size] = np.unpackbits(np.frombuffer(buf, dtype=np.uint8), bitorder="little")
        rest = out[self.board_size :]
        rest[:] = 0
        rest[: len(CARDS)] = cards
        at = len(CARDS)
        over = state.is_over()
        to_move = state.current_player
        hand, held = state.hand, state.held
        loc_kind = board.loc_kind
        tiles_at = at + n * 5
        for k in range(n):
            q = (seat + k) % n
            t = hand[q]
            if t >= 0 and (q == seat or (q == to_move and not over)):
                rest[at + 5 * k + t] = 1
            h = held[q]
            if h:
                used, new = state.used[q], state.new[q]
                row = tiles_at + 24 * k
                for x in bits(h):
                    b = BIT[x]
                    rest[row + 3 * loc_kind[x] + (1 if used & b else 2 if new & b else 0)] += 1
        at = tiles_at + 24 * n
        supply = state.supply
        rest[at : at + n] = [supply[(seat + k) % n] for k in range(n)]
        at += n
        for c in state.discard:
            rest[at + c] += 1
        for c in state.removed:
            rest[at + 5 + c] += 1
        at += 10
        rest[at : at + 6] = (
            state.built,
            state.final_round,
            len(state.deck),
            to_move == seat and not over,
            min(state.turn, 255),
            (state.start_player - seat) % n,
        )
        at += 6
        if not prefix:
            rest[at + PHASE_ACTION] = 1
        else:
            rest[at + self.phase(prefix)] = 1
            rest[at + len(PHASES) + prefix[0] - TILE0] = 1
        return out

    # -- setups and drawing ------------------------------------------------------------------
    def new_state(self, setup: Any, seed: int, core: str | None = None):
        """The initial state of ``setup`` (None or "random": drawn from ``seed``; "first"; a setup dict)
        on ``core``: "native" or "python", or None for the core ``BUILDERS_CORE`` asks for. A native
        state is made directly on the core (no Python state made and converted)."""
        from builders.kingdom import native
        from builders.kingdom import setup as kb_setup
        from builders.kingdom.game import KingdomBuilder

        if setup is None or setup == "random":
            s = kb_setup.random_setup(self.num_players, seed)  # normalized as drawn
            if core == "native":
                return native.start_state(s)
            return kb_setup.start_state(s) if core == "python" else KingdomBuilder().new_state(s)
        if setup == "first":
            s = kb_setup.first_game_setup(self.num_players)
        elif isinstance(setup, dict):
            s = dict(setup)
            s["players"] = self.num_players
        else:
            raise ValueError(f"setup must be None, 'random', 'first' or a setup dict, not {setup!r}")
        if "deck" not in s:
            s["seed"] = seed
        if core == "native":
            return native.new_state(s)
        return kb_setup.new_state(s) if core == "python" else KingdomBuilder().new_state(s)

    @staticmethod
    def _public_view(state) -> dict:
        """What everyone may see: the view of the seat to move (whose card is public), or the
        whole position once the game is over."""
        return state.observation(state.current_player) if not state.is_over() else state.to_json()

    @classmethod
    def render(cls, state) -> str:
        from builders.kingdom.render import render_terminal_text

        return render_terminal_text(cls._public_view(state))

    @classmethod
    def render_rgb(cls, state) -> np.ndarray:
        """The SVG picture of the public view as an (H, W, 3) uint8 array (drawn with CairoSVG)."""
        import io

        import cairosvg
        from PIL import Image

        from builders.kingdom.render import render_svg

        png = cairosvg.svg2png(bytestring=render_svg(cls._public_view(state)).encode())
        return np.asarray(Image.open(io.BytesIO(png)).convert("RGB"))

    @staticmethod
    def score_margins(state) -> list[float]:
        scores = state.result().scores
        return [float(s - max(x for q, x in enumerate(scores) if q != p)) for p, s in enumerate(scores)]


def index_table() -> list[tuple[str, str]]:
    """(index range, meaning) rows for the docs."""
    return [
        ("0-399", "hex R,C = index // 20, index % 20"),
        *((str(TILE0 + k), f"tile {name}") for k, name in enumerate(SECTION_NAMES)),
        (str(END_INDEX), "end"),
    ]


assert VERBS[1:9] == SECTION_NAMES
