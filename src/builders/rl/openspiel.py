"""Every game whose RL kit has OpenSpiel parts, as an OpenSpiel Python game (``import
builders.rl.openspiel`` registers them as ``python_builders_<game>``, the game's name with ``-`` as
``_``: :func:`short_name`), loaded as ``pyspiel.load_game(short_name(game), {"players": 2, "seed":
7})`` (docs/rl.md names them). Player actions use the same
indices as the other environments (picks of several indices are decision nodes of the same player).
Every card draw is a chance node whose outcomes are the cards that can come, with their
probabilities: what they are is the game's (its RL kit's ``spiel``, :class:`builders.rl.kit.SpielParts`).

The game parameter ``seed`` draws the setup (map, cards, first hands and rows; the deck orders are
never used: every later draw is a chance node); a game whose rules set no bound on its length takes
``max_rounds`` too (it is cut after that many rounds). Information states are what the seat has
seen (its observation, see :meth:`GameState.observation`) after the public list of the players'
actions; ``resample_from_infostate`` (used by IS-MCTS) redraws what the seat cannot see.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import numpy as np
import pyspiel

from builders.core.games import on_python
from builders.core.rng import Rng
from builders.rl.base import MAX_ROUNDS, Match, make_codec, win_rewards
from builders.rl.encoding import ENCODING_VERSION
from builders.rl.kit import rl_games, rl_kit

NO_INFO_TENSOR = (
    "these games provide no information-state tensor (provides_information_state_tensor is False): "
    "use observation_tensor() or information_state_string()"
)


def short_name(game: str) -> str:
    """The OpenSpiel name of ``game`` (``python_builders_`` and its name, ``-`` as ``_``)."""
    return "python_builders_" + game.replace("-", "_")


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


def _type_of(game: str) -> pyspiel.GameType:
    kit = rl_kit(game)
    params: dict[str, Any] = {"players": 2, "seed": 0, "utility": "win"}
    if not kit.bounded:
        params["max_rounds"] = MAX_ROUNDS
    return _game_type(short_name(game), kit.spiel.long_name, params)


class BuildersGame(pyspiel.Game):
    """One game (``game_name``, set by the subclass :func:`register` makes for it); ``params``:
    players (2-4), seed (the setup), utility ("win": 1 for a sole winner, 1/k for k tied winners, 0 for
    the others, constant sum 1; "zero-sum": the rewards of the other environments'
    ``reward="zero-sum"``), and for a game whose rules set no bound on its length max_rounds (the
    game is cut after that many rounds, the kit's ``cut_winners`` winning)."""

    game_name: str

    def __init__(self, params: dict | None = None):
        params = dict(params or {})
        players = int(params.get("players", 2))
        self.setup_seed = int(params.get("seed", 0))
        self.utility = str(params.get("utility", "win"))
        if self.utility not in ("win", "zero-sum"):
            raise ValueError(f"utility must be 'win' or 'zero-sum', not {self.utility!r}")
        self.codec = make_codec(self.game_name, players)
        kit = rl_kit(self.game_name)
        self.spiel = kit.spiel
        self.players = players
        self.observation_size = self.codec.size
        given = {"players": players, "seed": self.setup_seed, "utility": self.utility}
        if kit.bounded:
            self.max_turns = None
        else:
            max_rounds = int(params.get("max_rounds", MAX_ROUNDS))
            if max_rounds < 1:
                raise ValueError(f"max_rounds must be at least 1, not {max_rounds}")
            given["max_rounds"] = max_rounds
            self.max_turns = max_rounds * players
        length = self.spiel.max_length(players, given)
        zero_sum = self.utility == "zero-sum"
        info = pyspiel.GameInfo(
            num_distinct_actions=self.codec.num_actions,
            max_chance_outcomes=self.spiel.max_chance_outcomes,
            num_players=players,
            min_utility=-1.0 / (players - 1) if zero_sum else 0.0,
            max_utility=1.0,
            utility_sum=0.0 if zero_sum else 1.0,
            max_game_length=length,
        )
        game_type = _type_of(self.game_name)
        if zero_sum:
            game_type = _game_type(
                game_type.short_name, game_type.long_name, game_type.parameter_specification, zero_sum=True
            )
        super().__init__(game_type, info, given)
        self.encoding_version = ENCODING_VERSION

    def __deepcopy__(self, memo) -> BuildersGame:
        return self  # a game never changes

    def new_initial_state(self) -> BuildersState:
        # on the Python engine: the chance nodes reorder the engine's hidden decks in place
        state = on_python(self.codec.new_state(None, self.setup_seed))
        return BuildersState(self, Match(self.codec, state))

    def make_py_observer(self, iig_obs_type=None, params=None) -> Observer:
        perfect_recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        return Observer(self, perfect_recall)


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
        """Whether the game is cut here (max_rounds reached between two turns)."""
        cap = self._g.max_turns
        return cap is not None and self.match.state.turn >= cap and self.pending is None and not self.match.prefix

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
            return self._g.spiel.outcome_string(action)
        return self.match.codec.describe(action, self.match.prefix)

    def is_terminal(self) -> bool:
        return self._over()

    def returns(self) -> list[float]:
        if not self._over():
            return [0.0] * self._g.players
        st = self.match.state
        if st.is_over():
            winners = st.result().winners
        else:  # cut: the game's kit says who wins
            winners = self._g.spiel.cut_winners(st)
        return win_rewards(self._g.players, winners, "share" if self._g.utility == "win" else "zero-sum")

    def __str__(self) -> str:
        """The whole position as compact JSON (every hidden card included: for debugging)."""
        return json.dumps(self.match.state.to_json(), separators=(",", ":"))

    # -- chance -----------------------------------------------------------------------------
    def _draws(self, engine_action) -> int:
        """How many chance draws ``engine_action`` makes (0 if none)."""
        return self._g.spiel.draws(self.match.state, engine_action)

    def _pool(self) -> Counter:
        return self._g.spiel.pool(self.match.state, self.pending, self.drawn)

    def _apply_chance(self, outcome: int) -> None:
        if outcome not in self._pool():
            raise ValueError(f"chance outcome {outcome} cannot be drawn now")
        self.drawn.append(outcome)
        if not self._g.spiel.apply_chance(self.match.state, self.pending, self.drawn):
            return  # another card is drawn in the same action
        self.pending = None
        self.drawn = []
        self.match._legal = None
        self.match._mask = None

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


#: the OpenSpiel game class of each game registered, by game
GAMES: dict[str, type[BuildersGame]] = {}


def register() -> None:
    """Register with pyspiel every game whose RL kit has OpenSpiel parts (done on import)."""
    registered = set(pyspiel.registered_names())
    for game in rl_games():
        if rl_kit(game).spiel is None:
            continue
        cls = GAMES.setdefault(
            game, type(f"BuildersGame_{game.replace('-', '_')}", (BuildersGame,), {"game_name": game})
        )
        if short_name(game) not in registered:
            pyspiel.register_game(_type_of(game), cls)


register()
