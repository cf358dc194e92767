"""A tiny game for testing the core without either engine.

Two players alternately add 1 or 2 to a counter; after every action a card (a letter from a 6-card
deck "aabbcc") is drawn as a chance outcome. The game ends when the counter reaches 6; the player who
made the last move scores 1. The deck order comes from the state's Rng, unless replay forces draws.
"""

from __future__ import annotations

from builders.core.errors import IllegalAction, InvalidSetup
from builders.core.rng import Rng
from builders.core.state import Chance, Game, GameState, Result, winners_of

TARGET = 6


class ToyState(GameState):
    GAME = "toy"

    def __init__(self, setup: dict):
        self._setup = dict(setup)
        self.num_players = 2
        self.history = []
        self.forced = []
        self.rng = Rng(setup.get("seed", 0))
        self.counter = 0
        self.to_move = 0
        self.deck = list("aabbcc")
        self.rng.shuffle(self.deck)
        self.drawn: list[str] = []
        self.last = None

    @property
    def current_player(self) -> int:
        return self.to_move

    def legal_actions(self):
        return [] if self.is_over() else [n for n in (1, 2) if self.counter + n <= TARGET]

    def apply(self, action):
        if action not in self.legal_actions():
            raise IllegalAction(f"cannot add {action} to {self.counter}")
        forced = self.take_forced()
        if forced is not None:
            if forced not in self.deck:
                raise IllegalAction(f"no card {forced!r} is left in the deck")
            self.deck.remove(forced)
            card = forced
        else:
            card = self.deck.pop()
        self.counter += action
        self.last = self.to_move
        self.to_move = 1 - self.to_move
        self.drawn.append(card)
        self.history.append(action)
        self.history.append(Chance(card))

    def copy(self):
        other = ToyState.__new__(ToyState)
        other.__dict__.update(self.__dict__)
        other.history = list(self.history)
        other.forced = []
        other.rng = self.rng.copy()
        other.deck = list(self.deck)
        other.drawn = list(self.drawn)
        return other

    def is_over(self):
        return self.counter >= TARGET

    def result(self):
        if not self.is_over():
            raise ValueError("the game is not over")
        scores = tuple(int(seat == self.last) for seat in range(2))
        return Result(scores, tuple({"last move": s} for s in scores), winners_of(scores))

    def action_to_string(self, action):
        return f"add {action}"

    def parse_action(self, text):
        parts = text.split()
        if len(parts) != 2 or parts[0] != "add" or parts[1] not in ("1", "2"):
            raise IllegalAction(f"{text!r} is not an action (expected add 1 or add 2)")
        action = int(parts[1])
        if action not in self.legal_actions():
            raise IllegalAction(f"cannot add {action} to {self.counter}")
        return action

    @property
    def setup(self):
        return dict(self._setup)

    def to_json(self):
        return {"counter": self.counter, "to_move": self.to_move, "drawn": list(self.drawn)}

    def observation(self, seat):
        return self.to_json()

    def resample_hidden(self, seat, rng):
        other = self.copy()
        rng.shuffle(other.deck)
        return other


class ToyGame(Game):
    name = "toy"
    title = "Toy"
    min_players = 2
    max_players = 2

    def random_setup(self, players, seed):
        if players != 2:
            raise InvalidSetup("the toy game has 2 players")
        return {"players": 2, "seed": seed}

    def new_state(self, setup):
        return ToyState(setup)
