"""Both games as OpenSpiel Python games (``import builders.rl.openspiel`` registers them).

``pyspiel.load_game("python_builders_kingdom", {"players": 2, "seed": 7})`` and
``pyspiel.load_game("python_builders_middle_ages", {"players": 3})``. Player actions use the same
indices as the other environments (Kingdom Builder's tile picks are decision nodes of the same
player). Every card draw is a chance node whose outcomes are the cards that can come, with their
probabilities:

* Kingdom Builder: a terrain card (outcome 0-4, grass, canyon, desert, flower, forest) drawn from
  the deck, or from the discard pile reshuffled when the deck is empty (rules.md, "A turn").
* The Builders: the worker that refills the worker row (outcome = card index 0-41, drawn from the
  worker deck); when a building or machine is taken, the row is refilled with the visible top of the
  building deck and the chance node draws the new top (card index 42-83) from the cards below it
  (rules.md, "Information": the top of the building deck is public).

The game parameter ``seed`` draws the setup (map, cards, first hands and rows; the deck orders are
never used: every later draw is a chance node). Information states are what the seat has seen (its
observation, see :meth:`GameState.observation`) after the public list of the players' actions;
``resample_from_infostate`` (used by IS-MCTS) redraws what the seat cannot see.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import numpy as np
import pyspiel

from builders.core.rng import Rng
from builders.core.state import Chance
from builders.rl.base import MAX_ROUNDS, Match, make_codec, win_rewards
from builders.rl.encoding import ENCODING_VERSION

KINGDOM = "python_builders_kingdom"
MIDDLE_AGES = "python_builders_middle_ages"
_TERRAINS = ("grass", "canyon", "desert", "flower", "forest")
NO_INFO_TENSOR = ("these games provide no information-state tensor (provides_information_state_tensor is False): "
                  "use observation_tensor() or information_state_string()")




def kingdom_max_length(players: int) -> int:
    """The most player decisions (indices, picks included) a Kingdom Builder game can have, from the rules.

    Every turn builds 3 settlements of the 40 of the supply (fewer only with fewer left: a card with no
    free hex is replaced), so a seat has at most 14 turns. A settlement costs at most 2 indices (a
    tile's build: the tile, then the hex); a seat holds at most 6 move tiles (2 locations of each of
    the 3 move kinds), each used once a turn for 3 indices; and a turn ends with one index. So a seat
    plays at most 40 * 2 + 14 * (6 * 3 + 1) = 346 indices."""
    return players * (40 * 2 + 14 * (6 * 3 + 1))


def middle_ages_max_length(players: int, max_rounds: int) -> int:
    """The most player decisions of a Builders game cut after ``max_rounds`` rounds.

    The rules alone set no bound (seats that only take coins never end the game), hence the cut. In
    T turns a seat has 3T free actions and P bought ones; every decision but "end" (one a turn) and
    "buy" (one per bought action) spends at least one action, so it makes at most 4T + 2P decisions.
    A bought action costs 5 coins; coins come from the 10 at the start, from actions (at most 2 an
    action: coins 3 gives 6) and from completed buildings (B in all): 5P <= 10 + 2(3T + P) + B, so
    3P <= 10 + 6T + B. Over all seats (sum of T = the turns of the game, B shared): at most
    8 turns + (20 n + 2 B) / 3."""
    from builders.middle_ages.cards import REWARD

    return 8 * max_rounds * players + (20 * players + 2 * sum(REWARD)) // 3


def _game_type(short: str, long: str, params: dict, zero_sum: bool = False) -> pyspiel.GameType:
    return pyspiel.GameType(
        short_name=short,
        long_name=long,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM if zero_sum else pyspiel.GameType.Utility.CONSTANT_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=4,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=params,
    )


_TYPES = {
    "kingdom": _game_type(KINGDOM, "Kingdom Builder (builders)", {"players": 2, "seed": 0, "utility": "win"}),
    "middle-ages": _game_type(MIDDLE_AGES, "The Builders: Middle Ages (builders)",
                              {"players": 2, "seed": 0, "utility": "win", "max_rounds": MAX_ROUNDS}),
}


class BuildersGame(pyspiel.Game):
    """One of the two games; ``params``: players (2-4), seed (the setup), utility ("win": 1 for a sole
    winner, 1/k for k tied winners, 0 for the others, constant sum 1; "zero-sum": the rewards of the
    other environments' ``reward="zero-sum"``), and for The Builders max_rounds (the game is cut after
    that many rounds, its leader in VP winning)."""

    game_name = "kingdom"

    def __init__(self, params: dict | None = None):
        params = dict(params or {})
        players = int(params.get("players", 2))
        self.setup_seed = int(params.get("seed", 0))
        self.utility = str(params.get("utility", "win"))
        if self.utility not in ("win", "zero-sum"):
            raise ValueError(f"utility must be 'win' or 'zero-sum', not {self.utility!r}")
        self.codec = make_codec(self.game_name, players)
        self.players = players
        self.observation_size = self.codec.size
        kingdom = self.game_name == "kingdom"
        given = {"players": players, "seed": self.setup_seed, "utility": self.utility}
        if kingdom:
            self.max_turns = None
            length = kingdom_max_length(players)
        else:
            max_rounds = int(params.get("max_rounds", MAX_ROUNDS))
            if max_rounds < 1:
                raise ValueError(f"max_rounds must be at least 1, not {max_rounds}")
            given["max_rounds"] = max_rounds
            self.max_turns = max_rounds * players
            length = middle_ages_max_length(players, max_rounds)
        zero_sum = self.utility == "zero-sum"
        info = pyspiel.GameInfo(
            num_distinct_actions=self.codec.num_actions,
            max_chance_outcomes=5 if kingdom else 84,
            num_players=players,
            min_utility=-1.0 / (players - 1) if zero_sum else 0.0,
            max_utility=1.0,
            utility_sum=0.0 if zero_sum else 1.0,
            max_game_length=length,
        )
        game_type = _TYPES[self.game_name]
        if zero_sum:
            game_type = _game_type(game_type.short_name, game_type.long_name, game_type.parameter_specification,
                                   zero_sum=True)
        super().__init__(game_type, info, given)
        self.encoding_version = ENCODING_VERSION

    def __deepcopy__(self, memo) -> BuildersGame:
        return self  # a game never changes

    def new_initial_state(self) -> BuildersState:
        state = self.codec.new_state(None, self.setup_seed)
        return BuildersState(self, Match(self.codec, state))

    def make_py_observer(self, iig_obs_type=None, params=None) -> Observer:
        perfect_recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        return Observer(self, perfect_recall)


class KingdomGame(BuildersGame):
    game_name = "kingdom"


class MiddleAgesGame(BuildersGame):
    game_name = "middle-ages"


class BuildersState(pyspiel.State):
    """A game position: a player's decision, or a chance node drawing a card."""

    def __init__(self, game: BuildersGame, match: Match):
        super().__init__(game)
        self._g = game
        self.match = match
        #: a chance node: the engine action waiting for its draws, and the cards drawn so far
        self.pending: Any = None
        self.drawn: list[int] = []
        #: the public record: player indices played (picks included)
        self.public: list[int] = []

    # -- the decision -----------------------------------------------------------------------
    def _cut(self) -> bool:
        """Whether The Builders' game is cut here (max_rounds reached between two turns)."""
        cap = self._g.max_turns
        return cap is not None and self.match.state.turn >= cap and self.pending is None \
            and not self.match.prefix

    def _over(self) -> bool:
        return self.match.is_over() or self._cut()

    def current_player(self) -> int:
        if self._over():
            return pyspiel.PlayerId.TERMINAL
        if self.pending is not None:
            return pyspiel.PlayerId.CHANCE
        return self.match.current_player

    def _legal_actions(self, player: int) -> list[int]:
        return self.match.legal_indices()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        pool = self._pool()
        total = sum(pool.values())
        return [(c, n / total) for c, n in sorted(pool.items())]

    def _apply_action(self, action: int) -> None:
        if self.pending is not None:
            self._apply_chance(int(action))
            return
        m = self.match
        index = m.check(action)
        self.public.append(index)
        m.prefix.append(index)
        if m.codec.needs_more(m.prefix):
            m._mask = None
            return
        engine_action = m._engine_action(m.prefix)
        m.prefix = []
        m._legal = None
        m._mask = None
        if self._draws(engine_action):
            self.pending = engine_action
            self.drawn = []
        else:
            m.state.apply(engine_action)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            if self._g.game_name == "kingdom":
                return f"draw {_TERRAINS[action]}"
            from builders.middle_ages.cards import IDS

            return f"draw {IDS[action]}"
        return self.match.codec.describe(action, self.match.prefix)

    def is_terminal(self) -> bool:
        return self._over()

    def returns(self) -> list[float]:
        if not self._over():
            return [0.0] * self._g.players
        st = self.match.state
        if st.is_over():
            winners = st.result().winners
        else:  # cut: the leaders in VP win
            best = max(st.vp)
            winners = [p for p, v in enumerate(st.vp) if v == best]
        return win_rewards(self._g.players, winners, "share" if self._g.utility == "win" else "zero-sum")

    def __str__(self) -> str:
        """The whole position as compact JSON (every hidden card included: for debugging)."""
        return json.dumps(self.match.state.to_json(), separators=(",", ":"))

    # -- chance -----------------------------------------------------------------------------
    def _draws(self, engine_action) -> int:
        """How many chance draws ``engine_action`` makes (0 if none), found on a copy."""
        if self._g.game_name == "middle-ages":
            from builders.middle_ages.rules import OPEN, RECRUIT, SEND

            st = self.match.state
            if RECRUIT <= engine_action < SEND:
                return 1 if st.wdeck else 0
            if OPEN <= engine_action < RECRUIT:
                return 1 if len(st.bdeck) >= 2 else 0  # the new top, when one is left below the visible one
            return 0
        probe = self.match.state.copy()
        before = len(probe.history)
        probe.apply(engine_action)
        return sum(isinstance(e, Chance) for e in probe.history[before:])

    def _pool(self) -> Counter:
        st = self.match.state
        if self._g.game_name == "middle-ages":
            from builders.middle_ages.rules import RECRUIT

            if self.pending >= RECRUIT:
                return Counter(st.wdeck)
            return Counter(st.bdeck[:-1])  # the new top, from below the visible one
        # Kingdom Builder: replay the draws so far on the counts
        deck = Counter(st.deck)
        discard = Counter(st.discard)
        if self.pending == _kb_end() and st.hand[st.current_player] >= 0:
            discard[st.hand[st.current_player]] += 1
        for c in self.drawn:
            if not sum(deck.values()):
                deck, discard = discard, Counter()
            deck[c] -= 1
            deck = +deck
        return +(deck if sum(deck.values()) else discard)

    def _apply_chance(self, outcome: int) -> None:
        if outcome not in self._pool():
            raise ValueError(f"chance outcome {outcome} cannot be drawn now")
        st = self.match.state
        if self._g.game_name == "middle-ages":
            from builders.middle_ages.cards import IDS
            from builders.middle_ages.rules import RECRUIT

            if self.pending >= RECRUIT:
                st.forced = [IDS[outcome]]
                st.apply(self.pending)
            else:
                st.forced = [IDS[st.bdeck[-1]]]
                st.apply(self.pending)
                deck = st.bdeck
                deck.remove(outcome)
                deck.append(outcome)
            self.pending = None
            self.match._legal = None
            self.match._mask = None
            return
        self.drawn.append(outcome)
        if self._draws_with(self.drawn) > len(self.drawn):
            return  # another card is drawn in the same action
        st.forced = [_TERRAINS[c] for c in self.drawn]
        st.apply(self.pending)
        st.forced = []
        self.pending = None
        self.drawn = []
        self.match._legal = None
        self.match._mask = None

    def _draws_with(self, drawn: list[int]) -> int:
        probe = self.match.state.copy()
        probe.forced = [_TERRAINS[c] for c in drawn]
        before = len(probe.history)
        probe.apply(self.pending)
        return sum(isinstance(e, Chance) for e in probe.history[before:])

    # -- information ------------------------------------------------------------------------
    def information_state_string(self, player: int | None = None) -> str:
        player = self.current_player() if player is None else player
        return _info_string(self, player, perfect_recall=True)

    def observation_string(self, player: int | None = None) -> str:
        player = self.current_player() if player is None else player
        return _info_string(self, player, perfect_recall=False)

    def observation_tensor(self, player: int | None = None) -> np.ndarray:
        """The flat observation of ``player`` as a float32 array (what the game's observer gives, without
        pyspiel's conversion of it to a list of floats: as fast as the environments' encoder)."""
        player = self._check_player(self.current_player() if player is None else player)
        m = self.match
        return m.codec.encode(m.state, player, m.prefix).astype(np.float32)

    def information_state_tensor(self, player: int | None = None):
        raise pyspiel.SpielError(NO_INFO_TENSOR)

    def _check_player(self, player: int) -> int:
        if not 0 <= player < self._g.players:
            raise pyspiel.SpielError(f"player {player} is not a seat of this game (0-{self._g.players - 1})")
        return player

    def resample_from_infostate(self, player_id: int, probability_sampler=None) -> BuildersState:
        """A state ``player_id`` cannot tell from this one, its hidden cards drawn anew."""
        try:
            seed = int(probability_sampler() * 2**53)
        except TypeError:
            seed = int(np.random.randint(2**31))
        match = Match(self.match.codec, self.match.state.resample_hidden(player_id, Rng(seed)))
        match.prefix = list(self.match.prefix)
        other = BuildersState(self._g, match)
        other.pending = self.pending
        other.drawn = list(self.drawn)
        other.public = list(self.public)
        return other

    def __deepcopy__(self, memo) -> BuildersState:
        return self.clone()

    def clone(self) -> BuildersState:
        other = BuildersState(self._g, self.match.copy())
        other.pending = self.pending
        other.drawn = list(self.drawn)
        other.public = list(self.public)
        return other


def _kb_end() -> int:
    from builders.kingdom.notation import END

    return END


def _info_string(state: BuildersState, player: int, perfect_recall: bool) -> str:
    st = state.match.state
    view = st.observation(player)
    parts = {"seat": player, "view": view, "picks": state.match.prefix, "chance": state.pending is not None}
    if perfect_recall:
        parts["public"] = state.public
    return json.dumps(parts, sort_keys=True, separators=(",", ":"))


class Observer:
    """OpenSpiel observer: the flat observation of a seat (the environments' ``"observation"`` vector, as
    float32) and the strings. There is no information-state tensor (the game type says so): an
    observer asked for one with perfect recall has strings only, and its tensor raises."""

    def __init__(self, game: BuildersGame, perfect_recall: bool):
        self.game = game
        self.perfect_recall = perfect_recall
        self.tensor = None if perfect_recall else np.zeros(game.observation_size, np.float32)
        self.dict = {} if perfect_recall else {"observation": self.tensor}

    def set_from(self, state: BuildersState, player: int) -> None:
        if self.perfect_recall:
            raise pyspiel.SpielError(NO_INFO_TENSOR)
        m = state.match
        self.tensor[:] = m.codec.encode(m.state, player, m.prefix)

    def string_from(self, state: BuildersState, player: int) -> str:
        return _info_string(state, player, self.perfect_recall)


def register() -> None:
    """Register both games with pyspiel (done on import)."""
    registered = set(pyspiel.registered_names())
    if KINGDOM not in registered:
        pyspiel.register_game(_TYPES["kingdom"], KingdomGame)
    if MIDDLE_AGES not in registered:
        pyspiel.register_game(_TYPES["middle-ages"], MiddleAgesGame)


register()
