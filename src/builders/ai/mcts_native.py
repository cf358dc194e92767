"""The search's tree inside the native core, for :class:`builders.ai.mcts.MCTSAgent` handed a native
state: the core's ``KBSearch`` and ``MASearch`` (native/src/mcts.hpp) draw the determinizations, walk
and grow the tree, value the leaves and back them up, a block of iterations a call, with the same
choices, visits and values as the Python search (tests/native/test_search.py).

The core searches with the game's own evaluation; the game's AI kit says with which weights it can
(``AiKit.native_search``: an agent with other weights searches on the Python engine) and what the
core's tree takes besides the search's settings.
"""

from __future__ import annotations

from typing import Any

from builders.ai.kit import kit
from builders.core.state import GameState


def supported(state: GameState, weights: Any) -> bool:
    """Whether the core can search ``state`` for an agent with these evaluation ``weights`` (the
    kit's settings object, or None)."""
    if getattr(state, "mcts_tree", None) is None:
        return False
    own = kit(state.GAME).native_search
    return own is not None and own(weights) is not None


def new_tree(
    state: GameState,
    c: float,
    scale: float,
    widen: float,
    top: int,
    fast: bool,
    own: int,
    rollout: int,
    finish: int,
    weights: Any,
) -> Any:
    """A new, empty tree of the core for ``state``'s game with the search's settings (``own``: the
    seat whose decisions the full evaluation orders, or -1; ``weights``: see ``supported``)."""
    args = (float(c), float(scale), float(widen), int(top or 0), bool(fast), int(own), int(rollout), int(finish))
    extra = kit(state.GAME).native_search
    if extra is None or (found := extra(weights)) is None:
        raise ValueError(f"the native core cannot search {state.GAME} with these weights")
    return state.mcts_tree(*args, *found)


class NativeNode:
    """A node of a native search tree, read as a ``builders.ai.mcts.Node`` is (``children``,
    ``visits``, ``avail``, ``value``, ``player``, ``priors``, ``mean()``): a live view, whose numbers
    are the tree's as it grows."""

    __slots__ = ("tree", "id")

    def __init__(self, tree: Any, id: int):
        self.tree = tree
        self.id = id

    @property
    def children(self) -> dict[Any, NativeNode]:
        """The node's children by action, in the order added (new views at each read)."""
        tree = self.tree
        return {action: NativeNode(tree, child) for action, child in tree.children_of(self.id)}

    player = property(lambda self: self.tree.node(self.id)[0], doc="The seat that chose the action leading here.")
    visits = property(lambda self: self.tree.node(self.id)[1])
    avail = property(lambda self: self.tree.node(self.id)[2])
    value = property(lambda self: self.tree.node(self.id)[3])

    @property
    def priors(self) -> dict[Any, list[float]] | None:
        """Per action tried from here (full priors): the win values right after it; None: none."""
        found: dict[Any, list[float]] | None = self.tree.priors_of(self.id)
        return found

    def mean(self) -> float:
        _, visits, _, value = self.tree.node(self.id)
        return float(value / visits) if visits else 0.0
