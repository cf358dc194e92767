"""How The Builders: Middle Ages is shown (see :mod:`builders.core.view`): the deal of a new game,
each seat's view, the costs of the legal actions and the words of the public log."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from builders.core.errors import InvalidSetup
from builders.core.messages import Message, msg
from builders.core.view import GameView
from builders.middle_ages.cards import COST
from builders.middle_ages.codes import ACTION_PRICE, BUY, COIN_GAIN, COINS, END, OPEN, SEND, send_parts
from builders.middle_ages.scoring import breakdown
from builders.middle_ages.setup import random_setup
from builders.middle_ages.state import MiddleAgesState


def _other_cost(a: int) -> dict[str, int]:
    """The cost of an action that sends no worker (made once per code, kept in ``_COSTS``)."""
    if a == END:
        cost = {"actions": 0, "coins": 0}
    elif a == BUY:
        cost = {"actions": -1, "coins": ACTION_PRICE}
    elif a < OPEN:
        k = a - COINS
        cost = {"actions": k, "coins": -COIN_GAIN[k]}
    else:
        cost = {"actions": 1, "coins": 0}
    _COSTS[a] = cost
    return cost


_COSTS: dict[int, dict[str, int]] = {}
#: (worker card, workers already sent to the site this turn) -> the cost of sending it
_SEND_COSTS: dict[tuple[int, int], dict[str, int]] = {}


class MiddleAgesView(GameView[MiddleAgesState, int]):
    def setup(
        self,
        players: int,
        seed: int,
        mode: str = "random",
        sections: Sequence[Sequence[Any]] | None = None,
        cards: Sequence[str] | None = None,
    ) -> dict[str, Any]:
        if mode != "random" or sections is not None or cards is not None:
            raise InvalidSetup(msg("The Builders: Middle Ages takes only a seed in its setup"))
        return random_setup(players, seed)

    def observe(self, state: MiddleAgesState, seat: int | None) -> dict[str, Any]:
        return state.observation(seat)

    def seat_view(self, state: MiddleAgesState, seat: int, public: dict[str, Any]) -> dict[str, Any]:
        # every seat knows what a spectator knows (rules.md "Information"): only the seat differs
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < state.num_players:
            raise ValueError(f"seat must be from 0 to {state.num_players - 1}, not {seat!r}")
        return {**public, "seat": seat}

    def score_parts(self, state: MiddleAgesState) -> list[dict[str, int]]:
        native = getattr(state, "score_breakdown", None)  # the native core's, made there
        return native() if native is not None else [breakdown(state, seat) for seat in range(state.num_players)]

    def replay(self, fixed: dict[str, Any], final_shared: dict[str, Any]) -> dict[str, Any]:
        # the replay JSON carries these keys for every game; this game has no map and no scored hexes
        return {"board": None, "scoring_hexes": None}

    def legal_costs(self, state: MiddleAgesState, actions: Sequence[int]) -> dict[str, dict[str, int]]:
        """What each legal action costs: actions and coins (a negative cost is a gain). The cost
        objects are shared between calls (the view is encoded at once, never changed)."""
        sent = state.sent  # on the native core read with the observations' fields (no Python copy)
        text = state.action_to_string
        out = {}
        for a in actions:
            if a >= SEND:
                worker, site = send_parts(a)
                key = (worker, sent[site])
                cost = _SEND_COSTS.get(key)
                if cost is None:
                    cost = _SEND_COSTS[key] = {"actions": sent[site] + 1, "coins": COST[worker]}
            else:
                cost = _COSTS[a] if a in _COSTS else _other_cost(a)
            out[text(a)] = cost
        return out

    def log_message(self, after: MiddleAgesState, action: str, chance: Sequence[str]) -> Message:
        """Every draw of this game is public: the cards that came into a row are named."""
        verb, _, rest = action.partition(" ")
        if verb == "open":
            words = msg("opened {card}", card=rest)
        elif verb == "recruit":
            words = msg("recruited {card}", card=rest)
        elif verb == "send":
            worker, _, site = rest.partition(" ")
            words = msg("sent {worker} to {site}", worker=worker, site=site)
        elif verb == "coins":
            gain = COIN_GAIN[int(rest)]
            words = (
                msg("took {coins} coins for 1 action", coins=gain)
                if rest == "1"
                else msg("took {coins} coins for {actions} actions", coins=gain, actions=int(rest))
            )
        elif verb == "buy":
            words = msg("bought an action for {coins} coins", coins=ACTION_PRICE)
        else:
            words = msg("ended the turn")
        if chance and verb == "recruit":
            return msg("{action}; {cards} came into the worker row", action=words, cards=list(chance))
        if chance:
            return msg("{action}; {cards} came into the building row", action=words, cards=list(chance))
        return words


VIEW = MiddleAgesView()
