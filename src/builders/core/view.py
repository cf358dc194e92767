"""How a game is shown: the one interface between a game package and whatever presents it.

The server (and any other front end) knows no game. Everything it sends that depends on the game,
the deal of a new game from a request, what one seat may see, the score table, the costs of the legal
actions, the words of the public log, comes from the game's :class:`GameView`. Each game's plugin
(:mod:`builders.core.plugins`) names one instance of its view; :func:`get_view` finds it from the
game's name, so a new game is shown by writing its package and its plugin, with no change to the
server.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from functools import cache
from typing import Any, Generic, TypeVar

from builders.core.messages import Message, msg
from builders.core.plugins import plugin
from builders.core.state import A, GameState

#: the state type a view shows
S = TypeVar("S", bound="GameState[Any]")


class GameView(ABC, Generic[S, A]):
    """The presentation of one game, whose states are ``S`` and actions ``A``. Every method is pure:
    it reads the state and changes nothing.

    A view never shows one seat what another seat keeps secret: :meth:`observe` of a seat is that
    seat's own observation, and of a spectator (``None``) one with every hidden card hidden.
    """

    @abstractmethod
    def setup(
        self,
        players: int,
        seed: int,
        mode: str = "random",
        sections: Sequence[Sequence[Any]] | None = None,
        cards: Sequence[str] | None = None,
    ) -> dict[str, Any]:
        """The engine setup of a new game for ``players`` seats, dealt from ``seed``.

        ``mode`` is ``"random"`` (everything dealt from the seed), ``"first"`` (the game's
        suggested first setup) or ``"custom"`` (``sections`` and ``cards`` chosen); a game that has
        no such choices refuses them. Refusals raise :class:`~builders.core.errors.InvalidSetup`
        with one sentence saying what was wrong."""

    @abstractmethod
    def observe(self, state: S, seat: int | None) -> dict[str, Any]:
        """What ``seat`` sees of ``state`` (``None``: a spectator, who sees no hidden card)."""

    def seat_view(self, state: S, seat: int, public: dict[str, Any]) -> dict[str, Any]:
        """``observe(state, seat)``, given ``public``, which is ``observe(state, None)``: a game whose
        seats see more than a spectator in a few places only adds them to it (the server makes the
        spectator's observation once per change and every seat's from it). The result may share
        parts with ``public``: neither is changed afterwards."""
        return self.observe(state, seat)

    @abstractmethod
    def score_parts(self, state: S) -> list[dict[str, int]]:
        """Per seat, the points of each source so far (the values add up to the seat's score)."""

    def fixed(self, state: S) -> dict[str, Any]:
        """The parts of every view that never change during a game (made once per game)."""
        return {}

    def shared(self, state: S, fixed: dict[str, Any]) -> dict[str, Any]:
        """The game's parts of the view that every seat and spectator shares, besides the log, the
        scores and the seats; ``fixed`` is what :meth:`fixed` made for this game."""
        return dict(fixed)

    def replay(self, fixed: dict[str, Any], final_shared: dict[str, Any]) -> dict[str, Any]:
        """The game's parts of a replay view (of any position of a finished game); ``final_shared``
        is what :meth:`shared` gives for the final position."""
        return dict(final_shared)

    def legal_costs(self, state: S, actions: Sequence[A]) -> dict[str, dict[str, int]] | None:
        """What each of the legal ``actions`` costs, by its notation (None: the game shows no costs)."""
        return None

    def log_message(self, after: S, action: str, chance: Sequence[str]) -> Message:
        """The public log words for ``action`` (in notation) from the state after it, as a message to
        translate (:mod:`builders.core.messages`); ``chance`` are the outcomes the action drew. Only
        public facts. A game that overrides only :meth:`log_text` has its words in English alone."""
        return msg("{text}", text=self.log_text(after, action, chance))

    def log_text(self, after: S, action: str, chance: Sequence[str]) -> str:
        """The public log words in English (a game overrides this or :meth:`log_message`)."""
        if type(self).log_message is GameView.log_message:
            raise NotImplementedError(f"{type(self).__name__} has neither log_message nor log_text")
        return str(self.log_message(after, action, chance))


@cache
def get_view(name: str) -> GameView[Any, Any]:
    """The view of the game registered as ``name`` (raises RecordError for an unknown game)."""
    view: object = plugin(name).load("view")
    if not isinstance(view, GameView):
        raise TypeError(f"the view of {name} ({plugin(name).view}) is not a GameView")
    return view
