"""The game/state protocol that both engines implement and everything else (agents, records,
tournaments, the server) is written against.

A *game* (:class:`Game`) makes setups and initial states. A *state* (:class:`GameState`) is one
position with its whole history. Decisions are made by one seat at a time (``current_player``);
chance (card draws, reshuffles) happens inside :meth:`GameState.apply` and its outcomes are
appended to :attr:`GameState.history` as :class:`Chance` entries, so a game replays exactly from its
record on any machine, whatever random generator made it.

Actions are engine-native values (small ints or tuples: cheap to make and compare); they are turned
into notation with :meth:`GameState.action_to_string` and back with :meth:`GameState.parse_action`.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, TypeVar

from builders.core.errors import IllegalAction
from builders.core.rng import Rng

Action = Hashable
#: the type of a game's actions (both engines use ints)
A = TypeVar("A", bound=Hashable)


class Chance(str):
    """A chance outcome (for example ``"grass"`` for a drawn terrain card) in a state's history."""

    __slots__ = ()

    def __repr__(self) -> str:
        return f"Chance({str.__repr__(self)})"


@dataclass(frozen=True)
class Result:
    """The outcome of a finished game: per-seat totals, the breakdown of each total, the winners.

    ``breakdown[seat]`` maps a source of points (a scoring card, castles, buildings, coins, ...) to
    the points it gave; its values add up to ``scores[seat]``. ``winners`` holds every seat that
    shares the win.
    """

    scores: tuple[int, ...]
    breakdown: tuple[dict[str, int], ...]
    winners: tuple[int, ...]
    extra: dict[str, Any] = field(default_factory=dict)

    def returns(self) -> list[float]:
        """1 for a sole winner, 1/k for each of k tied winners, 0 for the others."""
        share = 1.0 / len(self.winners)
        return [share if seat in self.winners else 0.0 for seat in range(len(self.scores))]

    def to_json(self, breakdown_key: str = "breakdown") -> dict[str, Any]:
        return {
            "players": [
                {"seat": seat, breakdown_key: dict(self.breakdown[seat]), "total": self.scores[seat]}
                for seat in range(len(self.scores))
            ],
            "winners": list(self.winners),
        }


def winners_of(keys: Sequence[Any]) -> tuple[int, ...]:
    """The seats whose key (a score, or a tuple of score and tie-breaks) is the highest."""
    best = max(keys)
    return tuple(seat for seat, key in enumerate(keys) if key == best)


class GameState(ABC, Generic[A]):
    """One position of a game, with its history; ``A`` is the type of its actions.

    Engines subclass this (``GameState[int]``). ``apply`` raises
    :class:`~builders.core.errors.IllegalAction` (and changes nothing) for an action that is not
    legal. ``copy`` is cheap and independent: applying to the copy never changes the original.
    """

    #: the registry name of the game ("kingdom", "middle-ages")
    GAME: ClassVar[str]
    #: the record format this engine writes (see Game.record_formats for the ones it reads)
    RECORD_FORMAT: ClassVar[int] = 1

    num_players: int
    #: player actions (engine-native) and Chance outcomes, in the order they happened
    history: list[A | Chance]
    #: chance outcomes that the next draws must produce (set by replay; consumed by the engine)
    forced: list[str]
    #: the state's own random generator, used for draws that are not forced
    rng: Rng

    # -- the decision --------------------------------------------------------------------------
    @property
    @abstractmethod
    def current_player(self) -> int:
        """The seat to decide now (meaningless once the game is over)."""

    @abstractmethod
    def legal_actions(self) -> list[A]:
        """Every legal action of the current decision, in a fixed (deterministic) order."""

    @abstractmethod
    def apply(self, action: A) -> None:
        """Play ``action`` for the current player; draws cards as the rules say."""

    def is_legal(self, action: A) -> bool:
        return action in self.legal_actions()

    @abstractmethod
    def copy(self) -> GameState[A]:
        """An independent copy (history included)."""

    @abstractmethod
    def is_over(self) -> bool: ...

    @abstractmethod
    def result(self) -> Result:
        """The final result; raises ValueError if the game is not over."""

    def returns(self) -> list[float]:
        return self.result().returns()

    # -- notation ------------------------------------------------------------------------------
    @abstractmethod
    def action_to_string(self, action: A) -> str: ...

    @abstractmethod
    def parse_action(self, text: str) -> A:
        """Parse ``text`` and check that it is legal now; raise IllegalAction saying why not."""

    def apply_string(self, text: str) -> A:
        action = self.parse_action(text)
        self.apply(action)
        return action

    # -- information ---------------------------------------------------------------------------
    @property
    @abstractmethod
    def setup(self) -> dict[str, Any]:
        """The JSON setup this game started from (``Game.new_state(setup)`` recreates it)."""

    @abstractmethod
    def to_json(self) -> dict[str, Any]:
        """The full position as JSON (nothing hidden)."""

    @abstractmethod
    def observation(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may know, as JSON (None: a spectator, who sees no hidden card), built from
        what that seat may see (never the full position with fields blanked after the fact)."""

    @abstractmethod
    def resample_hidden(self, seat: int, rng: Rng) -> GameState[A]:
        """A copy of this state in which everything hidden from ``seat`` is drawn anew at random,
        consistently with what ``seat`` has seen (for agents that search over determinizations)."""

    # -- records -------------------------------------------------------------------------------
    def history_strings(self) -> list[Any]:
        """The history in record form: notation strings and ``{"chance": outcome}`` objects."""
        out: list[Any] = []
        for entry in self.history:
            if isinstance(entry, Chance):
                out.append({"chance": str(entry)})
            else:
                out.append(self.action_to_string(entry))
        return out

    def player_actions(self) -> list[A]:
        return [entry for entry in self.history if not isinstance(entry, Chance)]

    def to_record(self) -> dict[str, Any]:
        record: dict[str, Any] = {
            "game": self.GAME,
            "format": self.record_format,
            "setup": self.setup,
            "history": self.history_strings(),
        }
        if self.is_over():
            record["result"] = self.result().to_json()
        return record

    @property
    def record_format(self) -> int:
        """The record format of the rules this state follows (an engine that still replays older
        formats under their own rules says which one a replayed game goes on in)."""
        return self.RECORD_FORMAT

    def take_forced(self) -> str | None:
        """For engines: the next forced chance outcome, or None to draw at random."""
        if self.forced:
            return self.forced.pop(0)
        return None


class Game(ABC):
    """A game definition: makes setups and initial states."""

    name: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]

    @abstractmethod
    def random_setup(self, players: int, seed: int | str) -> dict[str, Any]:
        """A complete, explicit setup drawn from ``seed`` (the same on every machine)."""

    #: the record formats this game can replay; a record's own format decides how it replays
    record_formats: ClassVar[tuple[int, ...]] = (1,)

    @abstractmethod
    def new_state(self, setup: Mapping[str, Any]) -> GameState[Any]:
        """The initial state of ``setup``; raises InvalidSetup saying what is wrong."""

    def state_for_record(self, setup: Mapping[str, Any], record_format: int) -> GameState[Any]:
        """The initial state for replaying a record written in ``record_format``.

        Engines whose rules changed between formats override this to replay older records under
        the rules they were written with. Callers check ``record_format in record_formats`` first.
        """
        return self.new_state(setup)


def public_history(history: list[A | Chance]) -> list[A | Chance]:
    """The history without its chance outcomes: what a determinized copy keeps of its past, so that
    no drawn card (another seat's hand, a deck order) shows through it."""
    return [entry for entry in history if not isinstance(entry, Chance)]


def check_not_over(state: GameState[Any]) -> None:
    if state.is_over():
        raise IllegalAction("the game is over")
