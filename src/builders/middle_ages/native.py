"""The Builders: Middle Ages on the native core: :class:`NativeMiddleAgesState`, a ``GameState``
that is the C++ module ``builders_native``'s state (built from ``native/``).

It plays exactly like :class:`~builders.middle_ages.state.MiddleAgesState`: the same actions in the
same order, the same draws, scores, records and error messages. ``legal_actions``, ``apply``,
``is_over``, ``copy`` and ``current_player`` are the core's own; the rest (error messages, JSON
positions and observations, the fields the bots read: ``coins``, ``crew``, ``sites``, ...) comes from
a Python ``MiddleAgesState`` made from it on demand and kept until the next action (read-only).
"""

from __future__ import annotations

from typing import Any

from builders.core.games import CoreError, native_wanted
from builders.core.rng import Rng
from builders.core.state import Chance, GameState, Result, winners_of
from builders.middle_ages import cards as _cards
from builders.middle_ages.cards import IDS, INDEX
from builders.middle_ages.notation import bad_draw, parse
from builders.middle_ages.state import MiddleAgesState

try:  # the native module is optional: without it the Python engine plays
    import builders_native as _native
except ImportError:  # pragma: no cover - depends on the install
    _native = None

if _native is not None:
    _native.ma_tables(
        list(_cards.COST),
        list(_cards.PROD),
        list(_cards.REQ),
        list(_cards.REWARD),
        list(_cards.VP),
        list(_cards.MACHINES),
    )

_CHANCE = [Chance(card) for card in IDS]
#: the text of each action code named so far (see NativeMiddleAgesState.action_to_string)
_TEXTS: dict[int, str] = {}
#: the fields of MiddleAgesState that the native state keeps (see MAState.fields)
FIELDS = (
    "num_players",
    "start",
    "cur",
    "actions",
    "over",
    "final_round",
    "turn",
    "coins",
    "vp",
    "crew",
    "sites",
    "done",
    "placed",
    "progress",
    "sent",
    "touched",
    "brow",
    "wrow",
    "bdeck",
    "wdeck",
    "unrecruited",
)


def available() -> bool:
    """Whether the native module ``builders_native`` is installed."""
    return _native is not None


def _encode_history(history: list) -> list[int]:
    return [-(INDEX[e] + 1) if isinstance(e, Chance) else e for e in history]


def from_python(st: MiddleAgesState) -> NativeMiddleAgesState:
    """The native state of a Python ``MiddleAgesState`` (history and forced draws included)."""
    if _native is None:
        raise CoreError("the native core is not built (make native)")
    n = NativeMiddleAgesState()
    n.meta = st._setup
    n.set_fields({name: getattr(st, name) for name in FIELDS})
    n.set_history(_encode_history(st.history))
    n.forced = list(st.forced)
    return n


#: the cards random_setup draws from: the building deck, the apprentices, the other workers
_DRAWN = (
    list(_cards.BUILDING_DECK),
    list(_cards.APPRENTICES),
    [w for w in _cards.WORKERS if w not in _cards.APPRENTICES],
)


def random_start(players: int, seed: int) -> NativeMiddleAgesState:
    """The native start of ``setup.random_setup(players, seed)`` (``seed`` an integer from 0 to
    2**64 - 1), drawn and dealt by the core: the same setup and state, without a Python state."""
    if _native is None:
        raise CoreError("the native core is not built (make native)")
    n = NativeMiddleAgesState()
    buildings, workers, apprentices = n.random_start(players, seed, *_DRAWN)
    n.meta = {
        "players": players,
        "start_player": 0,
        "buildings": [IDS[c] for c in buildings],
        "workers": [IDS[c] for c in workers],
        "apprentices": [IDS[c] for c in apprentices],
        "seed": seed,
    }
    return n


class NativeMiddleAgesState(_native.MAState if _native is not None else object):  # type: ignore[misc]
    """A position of The Builders: Middle Ages on the native core, with the protocol of
    ``MiddleAgesState`` (registered as a ``GameState``)."""

    GAME = "middle-ages"
    RECORD_FORMAT = 1
    __slots__ = ()

    _setup = property(lambda self: self.meta)

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        """Pickled as its Python state and made native again when unpickled: positions cross to
        worker processes (bots, hints, analyses) so."""
        return (from_python, (self.to_python(),))

    def to_python(self) -> MiddleAgesState:
        """This position as a Python ``MiddleAgesState`` (a new, independent one)."""
        st = MiddleAgesState.__new__(MiddleAgesState)
        for name, value in self.fields().items():
            setattr(st, name, value)
        st._setup = self.meta
        st.rng = Rng(self.meta.get("seed", 0))
        st.history = self.history[:]
        st.forced = list(self.forced)
        return st

    def _python(self) -> MiddleAgesState:
        py = self.cache
        if py is None or type(py) is _Fields:
            py = self.cache = self.to_python()
        return py

    def _seen(self) -> MiddleAgesState | _Fields:
        """The position's fields, read from the core once a version (its Python state when it was
        made): what the observations and the fields' reads share."""
        py = self.cache
        if py is None:
            py = self.cache = _Fields(self.fields(), self.meta)
        return py

    def _apply_slow(self, action: Any) -> None:
        """``apply`` of an action with a pending forced draw, or of one that is not legal."""
        if self.forced and self.is_legal(action):
            name = self.forced[0]
            card = INDEX.get(name, -1) if isinstance(name, str) else -1
            status = self.apply_forced(action, card)
            if status == 1:
                self.forced.pop(0)
            if status >= 0:
                return
            raise bad_draw(name, building=status == -1)
        self._python()._refuse(action)

    @property
    def history(self) -> list:
        """The history (actions and Chance entries); one list per position (do not change it)."""
        hist = self.hist
        if hist is None:
            hist = self.hist = [e if e >= 0 else _CHANCE[-e - 1] for e in self.history_codes]
        return hist

    @history.setter
    def history(self, value: list) -> None:
        self.set_history(_encode_history(value))

    @property
    def num_players(self) -> int:
        return self.meta["players"]

    @property
    def rng(self) -> Rng:
        return Rng(self.meta.get("seed", 0))

    @property
    def record_format(self) -> int:
        return self.RECORD_FORMAT

    # -- results ------------------------------------------------------------------------------
    def score_breakdown(self) -> list[dict[str, int]]:
        """``{"buildings", "machines", "coins"}`` VP of each seat now (scoring.breakdown)."""
        return [dict(zip(("buildings", "machines", "coins"), self.breakdown(seat))) for seat in range(self.num_players)]

    def result(self) -> Result:
        if not self.is_over():
            raise ValueError("the game is not over")
        parts = tuple(self.score_breakdown())
        scores = tuple(sum(b.values()) for b in parts)
        coins = self.coins
        keys = [(scores[p], parts[p]["buildings"] + parts[p]["machines"], coins[p]) for p in range(len(parts))]
        return Result(scores, parts, winners_of(keys))

    returns = GameState.returns

    # -- notation and records -----------------------------------------------------------------
    def action_to_string(self, action: Any) -> str:
        """``MiddleAgesState.action_to_string``, each code's text made once (there are a few hundred)."""
        if type(action) is int:
            text = _TEXTS.get(action)
            if text is None:
                text = _TEXTS[action] = MiddleAgesState.action_to_string(self, action)
            return text
        return MiddleAgesState.action_to_string(self, action)

    apply_string = GameState.apply_string
    history_strings = GameState.history_strings
    player_actions = GameState.player_actions
    take_forced = GameState.take_forced
    to_record = GameState.to_record

    def parse_action(self, text: str) -> int:
        """A legal action is checked by the core; the Python state says why another is not."""
        action = parse(text)
        if self.is_legal(action):
            return action
        return self._python().parse_action(text)

    # -- information --------------------------------------------------------------------------
    setup = MiddleAgesState.setup

    def to_json(self) -> dict[str, Any]:
        return self._python().to_json()

    def observation(self, seat: int | None) -> dict[str, Any]:
        """``MiddleAgesState.observation`` read from the core's fields (no Python state is made; the
        fields are read once a version for every seat's observation)."""
        return self._seen().observation(seat)

    def resample_hidden(self, seat: int, rng: Rng) -> NativeMiddleAgesState:
        """As ``MiddleAgesState.resample_hidden``, made in the native core (``resample``; a seat out of
        range gets the Python engine's error)."""
        if type(seat) is not int or not 0 <= seat < self.num_players:
            return from_python(self.to_python().resample_hidden(seat, rng))
        other, rng.state = self.resample(seat, rng.state)
        return other

    def __repr__(self) -> str:
        return f"<NativeMiddleAgesState {self.num_players} players, seat {self.current_player}>"


class _Fields:
    """A position's fields as a ``MiddleAgesState`` reads them for its JSON (the observation only)."""

    GAME = MiddleAgesState.GAME
    _json = MiddleAgesState._json
    observation = MiddleAgesState.observation

    def __init__(self, fields: dict[str, Any], setup: dict[str, Any]):
        self.__dict__.update(fields)
        self._setup = setup


def _read_field(name: str) -> property:
    def read(self: NativeMiddleAgesState) -> Any:
        return getattr(self._seen(), name)

    read.__doc__ = f"``MiddleAgesState.{name}`` of this position (read it, do not change it)."
    return property(read)


#: the fields the core reads itself (its own properties)
_CORE_FIELDS = ("turn", "coins")
for _name in FIELDS[1:]:
    if _name not in _CORE_FIELDS:
        setattr(NativeMiddleAgesState, _name, _read_field(_name))

GameState.register(NativeMiddleAgesState)


class MiddleAgesBatch:
    """``size`` games of The Builders stepped together inside the native core, for learning: numpy
    arrays in and out, one index per engine action (``codes[index]`` is the engine action of an index:
    ``[builders.rl.middle_ages.index_to_action(i) for i in range(NUM_ACTIONS)]`` for the research kit's
    encoding). The games start from the random setups of seeds ``seed``, ``seed + 1``, ... (``pool``
    of them, taken in turn: game ``i`` starts from the ``i``-th, a game that ends starts again from
    the next one not yet taken, going round the pool). ``masks`` (size x len(codes), uint8) are the
    legal indices now; :meth:`step` returns ``(masks, rewards, dones, to_move)``, ``rewards[i]`` every
    seat's return on the step game ``i`` ended (1 for a sole winner, 1/k for k tied ones), else zeros."""

    def __init__(
        self, size: int, codes: list[int], players: int = 2, seed: int = 0, pick_seed: int = 0, pool: int | None = None
    ):
        import numpy as np

        from builders.middle_ages.setup import check_setup, random_setup

        if _native is None:
            raise CoreError("the native core is not built (make native)")
        starts = [
            from_python(MiddleAgesState(check_setup(random_setup(players, seed + k)))) for k in range(pool or 4 * size)
        ]
        self.players = players
        self._b = _native.MABatch(starts, list(codes), pick_seed, size)
        self.masks = np.zeros((size, len(codes)), dtype=np.uint8)
        self.rewards = np.zeros((size, players), dtype=np.float32)
        self.dones = np.zeros(size, dtype=np.uint8)
        self.to_move = np.zeros(size, dtype=np.int32)
        self._actions = np.zeros(size, dtype=np.int64)
        self._setups = [s.meta for s in starts]
        self._b.masks(self.masks)

    def step(self, actions):
        """Play ``actions[i]`` (an index allowed by ``masks[i]``) in every game; ValueError naming the
        first game whose index is not allowed (nothing is played then)."""
        import numpy as np

        self._b.step(np.ascontiguousarray(actions, dtype=np.int64), self.masks, self.rewards, self.dones, self.to_move)
        return self.masks, self.rewards, self.dones, self.to_move

    def sample(self):
        """A uniform random legal index for every game (drawn inside the core)."""
        self._b.sample(self._actions)
        return self._actions

    def fields(self, i: int) -> dict[str, Any]:
        """The fields of game ``i``'s position, as MiddleAgesState names them."""
        return self._b.state(i).fields()


def select(state: MiddleAgesState) -> GameState:
    """``state`` on the core ``BUILDERS_CORE`` asks for (see builders.kingdom.native.select)."""
    return from_python(state) if native_wanted(_native is not None) else state
