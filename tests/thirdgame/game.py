"""Pig, a dice race for 2 to 4 players: the game the tests register as a third plugin.

On a turn the player rolls a die as often as they like: each roll adds its pips to the turn's total,
but a 1 loses the turn's total and ends the turn. ``hold`` banks the turn's total and ends the turn
(only after a roll: a turn starts with one). The first to reach ``target`` points (20 by default)
wins at once (a roll that reaches it banks the pot); a game that reaches ``MAX_TURNS`` turns ends there, the highest bank winning (shared
on equal banks). The rolls are chance outcomes drawn from the state's generator, so a record replays
exactly; nothing is hidden, but the rolls to come are unknown (``resample_hidden`` draws them anew).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from builders.core.errors import IllegalAction, InvalidSetup
from builders.core.rng import Rng
from builders.core.state import Chance, Game, GameState, Result, check_not_over, winners_of

HOLD, ROLL = 0, 1
NAMES = ("hold", "roll")
MAX_TURNS = 200
TARGETS = range(10, 51)


def check_setup(setup: Mapping[str, Any]) -> dict[str, Any]:
    """``setup`` checked: players 2 to 4, a target of 10 to 50, a seed (InvalidSetup saying what is wrong)."""
    players, target, seed = setup.get("players"), setup.get("target", 20), setup.get("seed", 0)
    if isinstance(players, bool) or players not in (2, 3, 4):
        raise InvalidSetup(f"Pig has 2 to 4 players, not {players!r}")
    if isinstance(target, bool) or target not in TARGETS:
        raise InvalidSetup(f"the target of Pig is 10 to 50 points, not {target!r}")
    if isinstance(seed, bool) or not isinstance(seed, (int, str)):
        raise InvalidSetup(f"the seed must be a number or a text, not {seed!r}")
    return {"players": players, "target": target, "seed": seed}


class PigState(GameState[int]):
    GAME = "pig"

    def __init__(self, setup: Mapping[str, Any]):
        self._setup = check_setup(setup)
        self.num_players = self._setup["players"]
        self.target = self._setup["target"]
        self.history: list[int | Chance] = []
        self.forced: list[str] = []
        self.rng = Rng(self._setup["seed"])
        self.banked = [0] * self.num_players
        self.pot = 0
        self.rolled = False
        self.to_move = 0
        self.turn = 0
        self.last_roll: int | None = None

    @property
    def current_player(self) -> int:
        return self.to_move

    def legal_actions(self) -> list[int]:
        if self.is_over():
            return []
        return [HOLD, ROLL] if self.rolled else [ROLL]

    def _next_seat(self) -> None:
        self.pot, self.rolled = 0, False
        self.to_move = (self.to_move + 1) % self.num_players
        self.turn += 1

    def apply(self, action: int) -> None:
        check_not_over(self)
        if action not in self.legal_actions():
            raise IllegalAction("a turn starts with a roll" if action == HOLD else f"no action {action!r} in Pig")
        if action == HOLD:
            self.history.append(HOLD)
            self.banked[self.to_move] += self.pot
            if self.banked[self.to_move] < self.target:
                self._next_seat()
            return
        forced = self.take_forced()
        if forced is not None and forced not in ("1", "2", "3", "4", "5", "6"):
            raise IllegalAction(f"a die shows 1 to 6, not {forced!r}")
        pips = int(forced) if forced is not None else 1 + self.rng.randbelow(6)
        self.history.append(ROLL)
        self.history.append(Chance(str(pips)))
        self.last_roll = pips
        if pips == 1:
            self._next_seat()
        else:
            self.pot += pips
            self.rolled = True
            if self.banked[self.to_move] + self.pot >= self.target:  # the target reached: banked at once
                self.banked[self.to_move] += self.pot
                self.pot = 0

    def copy(self) -> PigState:
        other = PigState.__new__(PigState)
        other.__dict__.update(self.__dict__)
        other.history = list(self.history)
        other.forced = []
        other.rng = self.rng.copy()
        other.banked = list(self.banked)
        return other

    def is_over(self) -> bool:
        return max(self.banked) >= self.target or self.turn >= MAX_TURNS

    def result(self) -> Result:
        if not self.is_over():
            raise ValueError("the game is not over")
        scores = tuple(self.banked)
        return Result(scores, tuple({"banked": s} for s in scores), winners_of(scores))

    def action_to_string(self, action: int) -> str:
        return NAMES[action]

    def parse_action(self, text: str) -> int:
        if text not in NAMES:
            raise IllegalAction(f"{text!r} is not an action of Pig (hold or roll)")
        action = NAMES.index(text)
        if action not in self.legal_actions():
            raise IllegalAction("the game is over" if self.is_over() else "a turn starts with a roll")
        return action

    @property
    def setup(self) -> dict[str, Any]:
        return dict(self._setup)

    def to_json(self) -> dict[str, Any]:
        return {
            "banked": list(self.banked),
            "pot": self.pot,
            "to_move": self.to_move,
            "turn": self.turn,
            "target": self.target,
            "last_roll": self.last_roll,
            "rolled": self.rolled,
        }

    def observation(self, seat: int) -> dict[str, Any]:
        return {**self.to_json(), "seat": seat}

    def resample_hidden(self, seat: int, rng: Rng) -> PigState:
        """A copy whose rolls to come are drawn from ``rng`` (nothing else is hidden)."""
        other = self.copy()
        other.rng = Rng(rng.next64())
        return other


class Pig(Game):
    name = "pig"
    title = "Pig"
    min_players = 2
    max_players = 4

    def random_setup(self, players: int, seed: int | str) -> dict[str, Any]:
        return check_setup({"players": players, "target": 20, "seed": seed})

    def new_state(self, setup: Mapping[str, Any]) -> PigState:
        return PigState(setup)
