"""Monte Carlo tree search over determinizations (single-observer information-set MCTS).

Each iteration draws a determinization of the position from what the deciding seat may know
(``state.resample_hidden(seat, rng)``, never the true hidden cards), walks down one shared tree of
actions with UCT, adds one node and scores it with the game's evaluation
(``builders.ai.evaluate.win_values``), after an optional short random playout, or with the true result
when the game ends inside the search. Because different determinizations allow different actions (an
opponent's terrain card, the card drawn into a row), a child's exploration term counts the iterations
in which it was available rather than its parent's visits.

With progressive widening a node gets its children best first, by the evaluation of the position
right after each action, and only as its visits grow; with a budget of one iteration the agent plays
greedy's move.

The search is sequential and single-threaded; the budget is a time limit (``time_limit`` seconds),
an iteration count (``iterations``), or both (the first reached stops the search). With an iteration
budget and a seed, the agent is deterministic.
"""

from __future__ import annotations

import math
import random
import time

from builders.ai.evaluate import win_values
from builders.core.rng import Rng
from builders.core.state import Action, GameState


#: per game: exploration constant, evaluation scale (points), progressive widening
DEFAULTS = {
    "kingdom": {"c": 0.3, "scale": 4.0, "widen": 2.0},
    "middle-ages": {"c": 0.5, "scale": 2.5, "widen": 2.0},
}


class Node:
    __slots__ = ("children", "visits", "avail", "value", "player", "priors")

    def __init__(self, player: int):
        self.children: dict[Action, Node] = {}
        #: per action tried from here: the evaluation (per-seat win values) right after it
        self.priors: dict[Action, list[float]] | None = None
        self.visits = 0
        self.avail = 0
        self.value = 0.0
        #: the seat that chose the action leading here (its rewards are summed in ``value``)
        self.player = player


class MCTSAgent:
    """UCT over determinizations with truncated playouts and an evaluation at the cut.

    - ``time_limit``: seconds per decision (None: no time limit; then ``iterations`` is needed);
    - ``iterations``: at most this many iterations per decision;
    - ``c``: the UCT exploration constant (rewards are in [0, 1]; None: the game's default);
    - ``rollout``: the number of random playout actions after the new node before the evaluation;
    - ``scale``: the logistic scale of the evaluation, in points (None: the game's default);
    - ``widen``: progressive widening: a node visited ``n`` times has at most ``1 + widen * sqrt(n)``
      children, added best first by the evaluation right after each action (0: every legal action
      is tried once, in random order, before any is tried twice; None: the game's default).

    The games' defaults (``DEFAULTS``) come from short tuning matches against greedy (docs/ai.md).

    ``last_stats`` holds the iterations, the time, the simulations per second and the root visits of
    the last decision.
    """

    def __init__(self, seed: int | None = None, time_limit: float | None = 1.0, iterations: int | None = None,
                 c: float | None = None, rollout: int = 0, scale: float | None = None,
                 widen: float | None = None, name: str | None = None):
        if time_limit is None and iterations is None:
            raise ValueError("mcts needs a time limit or an iteration budget")
        if time_limit is not None and time_limit <= 0:
            raise ValueError(f"time limit must be positive, not {time_limit}")
        if iterations is not None and iterations < 1:
            raise ValueError(f"iterations must be at least 1, not {iterations}")
        self.seed = seed
        self.time_limit = time_limit
        self.iterations = iterations
        self.c = c
        self.rollout = int(rollout)
        self.scale = scale
        self.widen = widen
        self.random = random.Random(seed)
        self.rng = Rng(self.random.getrandbits(64))
        self.name = name or "mcts"
        self.last_stats: dict[str, float] = {}
        #: the tree of the last decision (for inspection)
        self.last_root: Node | None = None

    # -- the search ---------------------------------------------------------------------------
    def act(self, state: GameState) -> Action:
        defaults = DEFAULTS.get(state.GAME, DEFAULTS["middle-ages"])
        self._c = defaults["c"] if self.c is None else float(self.c)
        self._scale = defaults["scale"] if self.scale is None else float(self.scale)
        self._widen = defaults["widen"] if self.widen is None else float(self.widen)
        legal = state.legal_actions()
        if len(legal) == 1:
            self.last_stats = {"iterations": 0, "seconds": 0.0, "sims_per_s": 0.0}
            self.last_root = None
            return legal[0]
        seat = state.current_player
        root = Node(-1)
        start = time.perf_counter()
        deadline = start + self.time_limit if self.time_limit is not None else math.inf
        budget = self.iterations if self.iterations is not None else 1 << 62
        n = 0
        while n < budget:
            if n and time.perf_counter() >= deadline:
                break
            self._iterate(state.resample_hidden(seat, self.rng), root)
            n += 1
        elapsed = time.perf_counter() - start
        best_action, best_visits, best_value = legal[0], -1, -1.0
        for a in legal:
            child = root.children.get(a)
            if child is None:
                continue
            mean = child.value / child.visits if child.visits else 0.0
            if child.visits > best_visits or (child.visits == best_visits and mean > best_value):
                best_action, best_visits, best_value = a, child.visits, mean
        self.last_root = root
        self.last_stats = {
            "iterations": n,
            "seconds": elapsed,
            "sims_per_s": n / elapsed if elapsed > 0 else 0.0,
            "root_children": len(root.children),
            "best_visits": best_visits,
            "best_value": best_value,
        }
        return best_action

    def _iterate(self, det: GameState, root: Node) -> None:
        node = root
        path = []
        c = self._c
        log = math.log
        sqrt = math.sqrt
        widen = self._widen
        rewards = None
        while not det.is_over():
            acts = det.legal_actions()
            children = node.children
            p = det.current_player
            if widen:
                allowed = 1 + int(widen * sqrt(node.visits))
                expand = len(children) < allowed and len(children) < len(acts)
            else:
                expand = len(children) < len(acts)
            if expand or not any(b in children for b in acts):
                untried = [a for a in acts if a not in children]
                expand = bool(untried)
            if expand:
                if widen:
                    priors = node.priors
                    if priors is None:
                        priors = node.priors = {}
                    best_a, best_v = None, -1.0
                    for a in untried:
                        pv = priors.get(a)
                        if pv is None:
                            child_state = det.copy()
                            child_state.apply(a)
                            pv = priors[a] = win_values(child_state, self._scale)
                        if pv[p] > best_v:
                            best_a, best_v = a, pv[p]
                    a = best_a
                else:
                    a = untried[self.rng.randbelow(len(untried))] if len(untried) > 1 else untried[0]
                for b in acts:
                    ch = children.get(b)
                    if ch is not None:
                        ch.avail += 1
                child = children[a] = Node(p)
                child.avail = 1
                det.apply(a)
                path.append(child)
                if widen and not self.rollout:
                    rewards = node.priors[a]  # type: ignore[index]
                break
            best = None
            best_score = -math.inf
            for b in acts:
                ch = children.get(b)
                if ch is None:
                    continue
                ch.avail += 1
                score = ch.value / ch.visits + c * sqrt(log(ch.avail) / ch.visits)
                if score > best_score:
                    best, best_score, best_action = ch, score, b
            det.apply(best_action)
            path.append(best)
            node = best
        if rewards is None:
            rewards = self._leaf(det)
        root.visits += 1
        for nd in path:
            nd.visits += 1
            nd.value += rewards[nd.player]

    def _leaf(self, det: GameState) -> list[float]:
        rng = self.rng
        for _ in range(self.rollout):
            if det.is_over():
                break
            acts = det.legal_actions()
            det.apply(acts[rng.randbelow(len(acts))])
        return win_values(det, self._scale)
