"""How The Builders: Middle Ages is shown (see :mod:`builders.core.view`): the deal of a new game,
each seat's view, the costs of the legal actions and the words of the public log."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from builders.core.errors import InvalidSetup
from builders.core.view import GameView
from builders.middle_ages.cards import COST
from builders.middle_ages.codes import ACTION_PRICE, BUY, COIN_GAIN, COINS, END, OPEN, SEND, send_parts
from builders.middle_ages.scoring import breakdown
from builders.middle_ages.setup import random_setup
from builders.middle_ages.state import MiddleAgesState


class MiddleAgesView(GameView[MiddleAgesState, int]):
    def setup(self, players: int, seed: int, mode: str = "random",
              sections: Sequence[Sequence[Any]] | None = None,
              cards: Sequence[str] | None = None) -> dict[str, Any]:
        if mode != "random" or sections is not None or cards is not None:
            raise InvalidSetup("The Builders: Middle Ages takes only a seed in its setup")
        return random_setup(players, seed)

    def observe(self, state: MiddleAgesState, seat: int | None) -> dict[str, Any]:
        if seat is not None:
            return state.observation(seat)
        obs = state.observation(0)
        obs["seat"] = None
        return obs

    def score_parts(self, state: MiddleAgesState) -> list[dict[str, int]]:
        return [breakdown(state, seat) for seat in range(state.num_players)]

    def replay(self, fixed: dict[str, Any], final_shared: dict[str, Any]) -> dict[str, Any]:
        # the replay JSON carries these keys for every game; this game has no map and no scored hexes
        return {"board": None, "scoring_hexes": None}

    def legal_costs(self, state: MiddleAgesState, actions: Sequence[int]) -> dict[str, dict[str, int]]:
        """What each legal action costs: actions and coins (a negative cost is a gain)."""
        out = {}
        for a in actions:
            if a == END:
                cost = {"actions": 0, "coins": 0}
            elif a == BUY:
                cost = {"actions": -1, "coins": ACTION_PRICE}
            elif a < OPEN:
                k = a - COINS
                cost = {"actions": k, "coins": -COIN_GAIN[k]}
            elif a < SEND:
                cost = {"actions": 1, "coins": 0}
            else:
                worker, site = send_parts(a)
                cost = {"actions": state.sent[site] + 1, "coins": COST[worker]}
            out[state.action_to_string(a)] = cost
        return out

    def log_text(self, after: MiddleAgesState, action: str, chance: Sequence[str]) -> str:
        """Every draw of this game is public: the cards that came into a row are named."""
        verb, _, rest = action.partition(" ")
        if verb == "open":
            words = f"opened {rest}"
        elif verb == "recruit":
            words = f"recruited {rest}"
        elif verb == "send":
            worker, _, site = rest.partition(" ")
            words = f"sent {worker} to {site}"
        elif verb == "coins":
            words = f"took {COIN_GAIN[int(rest)]} coins for {rest} action{'s' if rest != '1' else ''}"
        elif verb == "buy":
            words = f"bought an action for {ACTION_PRICE} coins"
        else:
            words = "ended the turn"
        if chance:
            row = "worker" if verb == "recruit" else "building"
            words += f"; {', '.join(chance)} came into the {row} row"
        return words


VIEW = MiddleAgesView()
