"""How Kingdom Builder is shown (see :mod:`builders.core.view`): the deal of a new game from a
request, each seat's view, the map, the scored hexes at the end and the words of the public log."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from builders.core.errors import InvalidSetup
from builders.core.messages import Message, msg, word
from builders.core.view import GameView
from builders.kingdom.data import TERRAINS, location_kind_at, map_rows
from builders.kingdom.dump import seat_observation
from builders.kingdom.setup import first_game_setup, random_setup
from builders.kingdom.state import KingdomState

#: the tiles that move a settlement (the others build one)
_MOVING_TILES = {"barn", "harbor", "paddock"}


class KingdomView(GameView[KingdomState, int]):
    """Kingdom Builder's view (of a KingdomState, or of a NativeKingdomState, which has its fields)."""

    def setup(
        self,
        players: int,
        seed: int,
        mode: str = "random",
        sections: Sequence[Sequence[Any]] | None = None,
        cards: Sequence[str] | None = None,
    ) -> dict[str, Any]:
        dealt = random_setup(players, seed)
        if mode == "random":
            if sections is not None or cards is not None:
                raise InvalidSetup(msg("sections and cards are chosen in the custom setup mode only"))
            return dealt
        if mode == "first":
            if sections is not None or cards is not None:
                raise InvalidSetup(
                    msg("the first game has its own sections and cards: use the custom mode to choose them")
                )
            setup = first_game_setup(players)
        elif mode == "custom":
            if sections is None or cards is None:
                raise InvalidSetup(msg("the custom setup needs 4 sections and 3 cards"))
            setup = {
                "players": players,
                "sections": [[name, turned] for name, turned in sections],
                "cards": list(cards),
                "start_player": 0,
            }
        else:
            raise InvalidSetup(msg("the setup mode is first, random or custom, not {mode!r}", mode=mode))
        # the terrain deck is shuffled from the seed in every mode
        setup["deck"] = dealt["deck"]
        setup["seed"] = dealt["seed"]
        return setup

    def observe(self, state: KingdomState, seat: int | None) -> dict[str, Any]:
        # a spectator sees the terrain card of the player to move only (it is shown on the table)
        return state.observation(seat)

    def seat_view(self, state: KingdomState, seat: int, public: dict[str, Any]) -> dict[str, Any]:
        return seat_observation(state, seat, public)

    def score_parts(self, state: KingdomState) -> list[dict[str, int]]:
        return state.score_breakdown()

    def fixed(self, state: KingdomState) -> dict[str, Any]:
        """The map: its rows of terrain letters and the kind of each location."""
        sections = [tuple(s) for s in state.setup["sections"]]
        rows = list(map_rows(sections))
        locations = [
            {"at": [r, c], "kind": location_kind_at(sections, r, c)}
            for r, row in enumerate(rows)
            for c, letter in enumerate(row)
            if letter == "L"
        ]
        return {"board": {"rows": rows, "locations": locations}}

    def shared(self, state: KingdomState, fixed: dict[str, Any]) -> dict[str, Any]:
        out = dict(fixed)
        if state.is_over():
            out["scoring_hexes"] = scoring_hexes(state)
        return out

    def replay(self, fixed: dict[str, Any], final_shared: dict[str, Any]) -> dict[str, Any]:
        return {"board": fixed["board"], "scoring_hexes": final_shared.get("scoring_hexes")}

    def log_message(self, after: KingdomState, action: str, chance: Sequence[str]) -> Message:
        """The card drawn at the end of a turn stays hidden (it is shown when its owner's next turn
        starts); a replacement card drawn during a turn is public."""
        verb, _, rest = action.partition(" ")
        if verb == "end":
            if not after.is_over():
                q = after.current_player
                if after.hand[q] >= 0:
                    return msg(
                        "ended the turn; seat {next} plays {terrain}",
                        next=q,
                        terrain=TERRAIN_WORDS[TERRAINS[after.hand[q]]],
                    )
            return msg("ended the turn")
        if verb == "build":
            words = msg("built a settlement on {hex}", hex=rest)
        elif verb in _MOVING_TILES:
            src, _, dst = rest.partition(">")
            words = msg(
                "used the {tile}: moved a settlement from {src} to {dst}", tile=TILE_WORDS[verb], src=src, dst=dst
            )
        else:
            words = msg("used the {tile}: built a settlement on {hex}", tile=TILE_WORDS[verb], hex=rest)
        if chance:
            return msg(
                "{action}; no free hex of the played terrain: drew {cards}",
                action=words,
                cards=[TERRAIN_WORDS[card] for card in chance],
            )
        return words


#: the terrains and location tiles as the log names them, each a word to translate (written out so
#: that Babel finds them)
TERRAIN_WORDS = {
    w.key: w
    for w in (
        word("terrain", "grass"),
        word("terrain", "canyon"),
        word("terrain", "desert"),
        word("terrain", "flower"),
        word("terrain", "forest"),
    )
}
TILE_WORDS = {
    w.key: w
    for w in (
        word("tile", "oracle"),
        word("tile", "farm"),
        word("tile", "oasis"),
        word("tile", "tower"),
        word("tile", "tavern"),
        word("tile", "barn"),
        word("tile", "harbor"),
        word("tile", "paddock"),
    )
}


def scoring_hexes(state: KingdomState) -> dict[str, dict[str, list[list[int]]]]:
    """Per seat (as a string) and per scoring card (castles included), the hexes that scored."""
    return {
        str(seat): {card: [list(h) for h in state.scoring_hexes(seat, card)] for card in ("castles", *state.cards)}
        for seat in range(state.num_players)
    }


VIEW = KingdomView()
