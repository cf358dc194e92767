"""How Pig is shown (its plugin's ``view``): everything is public."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from builders.core.errors import InvalidSetup
from builders.core.view import GameView
from tests.thirdgame.game import PigState, check_setup


class PigView(GameView[PigState, int]):
    def setup(
        self,
        players: int,
        seed: int,
        mode: str = "random",
        sections: Sequence[Sequence[Any]] | None = None,
        cards: Sequence[str] | None = None,
        target: int = 20,
    ) -> dict[str, Any]:
        if mode != "random" or sections is not None or cards is not None:
            raise InvalidSetup("Pig takes only a seed and a target in its setup")
        return check_setup({"players": players, "target": target, "seed": seed})

    def observe(self, state: PigState, seat: int | None) -> dict[str, Any]:
        return {**state.to_json(), "seat": seat}

    def score_parts(self, state: PigState) -> list[dict[str, int]]:
        return [{"banked": b} for b in state.banked]

    def log_text(self, after: PigState, action: str, chance: Sequence[str]) -> str:
        if action == "hold":
            return "holds"
        return f"rolls {chance[0]}" + (": the turn is lost" if chance and chance[0] == "1" else "")


VIEW = PigView()
