"""Monte Carlo tree search over determinizations (single-observer information-set MCTS).

Each iteration draws a determinization of the position from what the deciding seat may know
(``state.resample_hidden(seat, rng)``, never the true hidden cards), walks down one shared tree of
actions with UCT, adds one node and scores it with the game's evaluation
(``builders.ai.evaluate.win_values``), after an optional short random playout, or with the true result
when the game ends inside the search. Because different determinizations allow different actions (an
opponent's terrain card, the card drawn into a row), a child's exploration term counts the iterations
in which it was available rather than its parent's visits.

With progressive widening a node gets its children best first, and only as its visits grow. How
"best" is judged is the ``prior``:

- ``full``: by the evaluation of the position right after each action (a copy, the action and the
  whole evaluation, for every legal action of the node); that evaluation is also the new leaf's
  value. Accurate and slow where positions have many actions.
- ``fast``: the root still orders its actions by the full evaluation (so a budget of one iteration
  plays greedy's move), but deeper nodes order theirs by the game's cheap move heuristic
  (``builders.ai.evaluate.move_values``) and only the new leaf is evaluated. Games without a
  heuristic use ``full``.

Where the game says what, besides the actions leading to a node, decides its legal actions
(``evaluate.decision_key``: in a game of cards, the cards in view that decide the actions), a node keeps
its legal actions and their order per key, so that later iterations through it do not generate them
again.

The budget is a time limit per decision (``time_limit``), an iteration count (``iterations``), or a
time for the seat's whole turn (``turn_time``: split across the decisions of the turn by
``builders.ai.budget``; single-choice decisions are played at once, a decision stops early when the
most visited action can no longer be overtaken, and the time left over goes to the rest of the
turn). With ``reuse``, the subtree under the action played is kept for the seat's next decision of
the same turn. With an iteration budget and a seed, the agent is deterministic.

Handed a native state, the iterations run inside the native core (``builders.ai.mcts_native``), in
blocks between the looks at the clock: the same tree, visits and values as on the Python state, many
times faster (docs/native.md, "The search inside the core").
"""

from __future__ import annotations

import math
import random
import time
from typing import Any

from builders.ai import mcts_native
from builders.ai.budget import turn_share
from builders.ai.evaluate import decision_key, move_values, win_values
from builders.ai.kit import kit
from builders.core.games import on_python
from builders.core.rng import Rng
from builders.core.state import Action, Chance, GameState

PRIORS = ("full", "fast", "own")
#: ``wall``: budgets in elapsed time (what a person waits); ``cpu``: in the process's CPU time (the
#: same search on a busy machine: for matches between agents)
CLOCKS = {"wall": time.perf_counter, "cpu": time.process_time}
#: the share of a turn's time the decisions plan to use (the rest covers the last clock check, the
#: moves without search and a busy machine)
TURN_MARGIN = 0.97
#: how often (iterations) a time-limited search looks at the clock and at an early stop
CHECK_EVERY = 16


class Node:
    __slots__ = ("children", "visits", "avail", "value", "player", "priors", "legal")

    def __init__(self, player: int):
        self.children: dict[Action, Node] = {}
        #: per action tried from here (``full`` priors): the evaluation (per-seat win values) right after it
        self.priors: dict[Action, list[float]] | None = None
        #: per decision key: the legal actions, best first by the move heuristic (``fast`` priors)
        self.legal: dict | None = None
        self.visits = 0
        self.avail = 0
        self.value = 0.0
        #: the seat that chose the action leading here (its rewards are summed in ``value``)
        self.player = player

    def mean(self) -> float:
        return self.value / self.visits if self.visits else 0.0


def _player_actions(state: GameState) -> int:
    return sum(1 for e in state.history if not isinstance(e, Chance))


class MCTSAgent:
    """UCT over determinizations with truncated playouts and an evaluation at the cut.

    - ``time_limit``: seconds per decision (None: no time limit per decision);
    - ``iterations``: at most this many iterations per decision;
    - ``turn_time``: seconds for the seat's whole turn, split across its decisions (see the module
      docstring); with ``time_limit`` too, a decision also stops at ``time_limit``;
    - ``c``: the UCT exploration constant (rewards are in [0, 1]; None: the game's default);
    - ``rollout``: the number of random playout actions after the new node before the evaluation;
    - ``finish``: at most this many actions of the player to move at the new node, each the best by
      the game's move heuristic, played before the evaluation (they stop at the end of that
      player's turn, or when no action gains anything by the heuristic): leaves are then judged
      at a more uniform point of the turn (0: none; games without a move heuristic ignore it);
    - ``scale``: the logistic scale of the evaluation, in points (None: the game's default);
    - ``widen``: progressive widening: a node visited ``n`` times has at most ``1 + widen * sqrt(n)``
      children, added best first (0: every legal action is tried once, in random order, before any
      is tried twice; None: the game's default);
    - ``prior``: how widening orders the actions, ``full`` or ``fast`` (module docstring);
    - ``reuse``: keep the subtree of the action played for the next decision of the same turn;
    - ``top``: a new root tries only this many actions, the best by the full evaluation (0: all;
      None: the game's default, its AI kit's ``search``): the search then chooses
      among the moves the one-ply evaluation ranks highest. A root kept from the decision before
      (``reuse``) keeps the children it grew there and adds none beyond ``top``;
    - ``clock``: ``wall`` (elapsed time, the default) or ``cpu`` (the process's CPU time, so that
      matches on a busy machine measure the agent as it plays on an idle one).

    The games' defaults (``DEFAULTS``) come from short tuning matches against greedy (docs/ai.md).

    ``last_stats`` holds the iterations, the time, the simulations per second, the root visits and
    the best action's value (the seat's estimated win chance) of the last decision.
    """

    def __init__(
        self,
        seed: int | None = None,
        time_limit: float | None = 1.0,
        iterations: int | None = None,
        c: float | None = None,
        rollout: int = 0,
        scale: float | None = None,
        widen: float | None = None,
        name: str | None = None,
        turn_time: float | None = None,
        prior: str = "full",
        reuse: bool = False,
        clock: str = "wall",
        finish: int = 0,
        top: int | None = 0,
        weights: Any = None,
    ):
        if time_limit is None and iterations is None and turn_time is None:
            raise ValueError("mcts needs a time limit or an iteration budget")
        if time_limit is not None and not time_limit > 0:
            raise ValueError(f"time limit must be positive, not {time_limit}")
        if turn_time is not None and not turn_time > 0:
            raise ValueError(f"turn time must be positive, not {turn_time}")
        if iterations is not None and iterations < 1:
            raise ValueError(f"iterations must be at least 1, not {iterations}")
        if clock not in CLOCKS:
            raise ValueError(f"clock must be one of {', '.join(CLOCKS)}, not {clock!r}")
        if prior not in PRIORS:
            raise ValueError(f"prior must be one of {', '.join(PRIORS)}, not {prior!r}")
        self.seed = seed
        self.time_limit = time_limit
        self.iterations = iterations
        self.turn_time = turn_time
        self.c = c
        self.rollout = int(rollout)
        if finish < 0:
            raise ValueError(f"finish must not be negative, not {finish}")
        self.finish = int(finish)
        if top is not None and top < 0:
            raise ValueError(f"top must not be negative, not {top}")
        self.top = None if top is None else int(top)
        #: the agent's own settings of the evaluation and move heuristic (names -> values, or the
        #: game's settings object: its kit's ``weights``; checked at the first decision)
        self.weights = weights
        self._w: Any = None
        self.scale = scale
        self.widen = widen
        self.prior = prior
        self.reuse = bool(reuse)
        self.clock = clock
        self._now = CLOCKS[clock]
        self.random = random.Random(seed)
        self.rng = Rng(self.random.getrandbits(64))
        self.name = name or "mcts"
        self.last_stats: dict[str, float] = {}
        #: the tree of the last decision (for inspection; searched inside the native core, a
        #: ``mcts_native.NativeNode``, a view of the core's tree ``last_tree``)
        self.last_root: Any = None
        #: the native core's tree of the last decision (None: the search ran on the Python engine)
        self.last_tree: Any = None
        #: (seat, player actions after this agent's last action, its deadline for the turn)
        self._turn: tuple[int, int, float] | None = None
        #: (seat, player actions after the last action, the action, its subtree)
        self._kept: tuple[int, int, Action, Node] | None = None

    def __getstate__(self) -> dict[str, Any]:
        """Pickled without a tree of the native core (it stays in this process): the last decision's
        tree and a subtree kept from it are dropped."""
        state = self.__dict__.copy()
        if state["last_tree"] is not None or isinstance(state["last_root"], mcts_native.NativeNode):
            state["last_tree"] = state["last_root"] = None
        if state["_kept"] is not None and isinstance(state["_kept"][3], mcts_native.NativeNode):
            state["_kept"] = None
        return state

    # -- the decision -------------------------------------------------------------------------
    def _setup(self, state: GameState) -> None:
        defaults = kit(state.GAME).search
        self._c = defaults["c"] if self.c is None else float(self.c)
        self._scale = defaults["scale"] if self.scale is None else float(self.scale)
        self._widen = defaults["widen"] if self.widen is None else float(self.widen)
        self._top = defaults["top"] if self.top is None else self.top
        own = kit(state.GAME).weights
        if self.weights and own is None:
            raise ValueError(f"{state.GAME}'s evaluation has no weights of an agent's own")
        self._w = own(self.weights) if self.weights else None
        self._fast = self.prior in ("fast", "own") and move_values(state, []) is not None
        #: ``own``: the searching seat's own decisions are ordered by the full evaluation
        self._own = self.prior == "own"
        self._seat = state.current_player

    def _time_for(self, state: GameState, seat: int, done: int, now: float) -> float | None:
        """The seconds this decision may take (None: no time limit); see builders.ai.budget."""
        limit = self.time_limit
        if self.turn_time is None:
            return limit
        this, rest, total = turn_share(state)
        turn = self._turn
        if turn is not None and turn[0] == seat and turn[1] == done:
            deadline = turn[2]
            t = max(0.0, deadline - now) * (this / rest if rest > 0 else 1.0)
        else:
            deadline = now + self.turn_time * TURN_MARGIN * min(1.0, rest / total)
            t = self.turn_time * TURN_MARGIN * this / total
        self._turn = (seat, done + 1, deadline)
        return t if limit is None else min(t, limit)

    def act(self, state: GameState) -> Action:
        self._setup(state)
        legal = state.legal_actions()
        seat = state.current_player
        start = self._now()
        done = _player_actions(state) if (self.turn_time is not None or self.reuse) else 0
        seconds = self._time_for(state, seat, done, start)
        if len(legal) == 1:
            self.last_stats = {"iterations": 0, "seconds": 0.0, "sims_per_s": 0.0}
            self.last_root = self.last_tree = None
            self._kept = None
            return legal[0]
        kept = self._kept
        if not (self.reuse and kept is not None and kept[0] == seat and kept[1] == done):
            kept = None
        deadline = start + seconds if seconds is not None else math.inf
        budget = self.iterations if self.iterations is not None else 1 << 62
        early = self.turn_time is not None
        root: Any
        if mcts_native.supported(state, self._w):
            root = kept[3] if kept is not None and isinstance(kept[3], mcts_native.NativeNode) else None
            if root is None or not root.tree.reroot(kept[2]):
                tree = self._new_tree(state)
                root = mcts_native.NativeNode(tree, tree.root)
            self.last_tree = root.tree
            n = self._search(state, seat, root, budget, deadline, early)
        else:
            self.last_tree = None
            root = kept[3] if kept is not None and isinstance(kept[3], Node) else Node(-1)
            root.priors = None  # the root orders its actions by the full evaluation
            n = self._search(state, seat, root, budget, deadline, early)
        elapsed = self._now() - start
        best_action, best = self._best(root, legal)
        self.last_root = root
        self.last_stats = {
            "iterations": n,
            "seconds": elapsed,
            "sims_per_s": n / elapsed if elapsed > 0 else 0.0,
            "root_children": len(root.children),
            "best_visits": best.visits if best else -1,
            "best_value": best.mean() if best else -1.0,
        }
        self._kept = None
        if self.reuse and best is not None:
            self._kept = (seat, done + 1, best_action, best)  # a native tree is rerooted at the next decision
        return best_action

    def _new_tree(self, state: GameState) -> Any:
        """A new tree of the native core with this agent's settings (``mcts_native``)."""
        own = self._seat if self._own else -1
        return mcts_native.new_tree(
            state, self._c, self._scale, self._widen, self._top, self._fast, own, self.rollout, self.finish, self._w
        )

    @staticmethod
    def _best(root: Node, legal: list[Action]) -> tuple[Action, Node | None]:
        """The most visited legal child (ties: the higher mean, then legal order)."""
        best_action, best, best_visits, best_value = legal[0], None, -1, -1.0
        children = root.children
        for a in legal:
            child = children.get(a)
            if child is None:
                continue
            mean = child.mean()
            if child.visits > best_visits or (child.visits == best_visits and mean > best_value):
                best_action, best, best_visits, best_value = a, child, child.visits, mean
        return best_action, best

    def _search(
        self,
        state: GameState,
        seat: int,
        root: Any,
        budget: int,
        deadline: float,
        early: bool = False,
        first: Action | None = None,
    ) -> int:
        """Run iterations from ``state`` for ``seat`` into ``root`` until the budget or the deadline;
        with ``first``, every iteration starts with that action (it must be legal) and ``root`` is
        that action's node (its value counts the rewards of its ``player``). Returns the number of
        iterations. A ``mcts_native.NativeNode`` root is searched inside the native core, the same
        iterations in blocks of ``CHECK_EVERY`` between the looks at the clock."""
        n = 0
        self._seat = seat
        clock = self._now
        timed = deadline != math.inf
        rng = self.rng
        native = isinstance(root, mcts_native.NativeNode)
        if native:
            run, code = root.tree.run, -1 if first is None else first

            def step(k: int) -> None:
                rng.state = run(state, seat, k, rng.state, code)

        else:
            iterate = self._iterate
            # the determinizations on the Python engine: the tree's reads of positions are cheaper there
            resample = on_python(state).resample_hidden

            def step(k: int) -> None:
                det = resample(seat, rng)
                if first is not None:
                    det.apply(first)
                    root.value += iterate(det, root)[root.player]
                else:
                    iterate(det, root)

        block = CHECK_EVERY if native else 1
        while n < budget:
            if n % CHECK_EVERY == 0 and n:
                if timed:
                    now = clock()
                    if now >= deadline:
                        break
                    if early and self._settled(root, n, (deadline - now) * n / max(1e-9, now - self._t0)):
                        break
            elif n == 0:
                self._t0 = clock()
            k = min(block, budget - n)
            step(k)
            n += k
        return n

    @staticmethod
    def _settled(root: Any, n: int, more: float) -> bool:
        """Whether the most visited child stays the most visited whatever the next ``more``
        iterations do."""
        if isinstance(root, mcts_native.NativeNode):
            top, second = root.tree.top_two()
            return bool(top - second > more)
        top = second = 0
        for ch in root.children.values():
            v = ch.visits
            if v > top:
                top, second = v, top
            elif v > second:
                second = v
        return top - second > more

    def _iterate(self, det: GameState, root: Node) -> list[float]:
        node = root
        path = []
        c = self._c
        log = math.log
        sqrt = math.sqrt
        widen = self._widen
        fast = self._fast
        own = self._seat if self._own else -1
        rewards = None
        apply = getattr(det, "apply_unchecked", det.apply)
        while not det.is_over():
            children = node.children
            p = det.current_player
            key = decision_key(det)
            aset = None
            heuristic = False
            if key is not None:
                legal = node.legal
                if legal is None:
                    legal = node.legal = {}
                cached = legal.get(key)
                full = node is root or p == own
                if cached is None:
                    acts = det.legal_actions()
                    if fast and widen and not full and len(acts) > 1:
                        vals = move_values(det, acts, self._w)
                        acts = [a for _, _, a in sorted(zip([-v for v in vals], range(len(acts)), acts))]
                    cached = legal[key] = (acts, frozenset(acts))
                acts, aset = cached
                heuristic = fast and not full
            else:
                acts = det.legal_actions()
            nch = len(children)
            if widen:
                expand = nch < 1 + int(widen * sqrt(node.visits)) and nch < len(acts)
            else:
                expand = nch < len(acts)
            if expand and node is root and self._top and nch >= self._top:
                expand = False
            if not expand:
                if aset is not None:
                    expand = not any(b in aset for b in children)
                else:
                    expand = not any(b in children for b in acts)
            a = None
            if expand:
                prior_value = None
                if widen and heuristic:
                    for b in acts:
                        if b not in children:
                            a = b
                            break
                else:
                    untried = [b for b in acts if b not in children]
                    if not untried:
                        pass
                    elif not widen:
                        a = untried[self.rng.randbelow(len(untried))] if len(untried) > 1 else untried[0]
                    else:
                        priors = node.priors
                        if priors is None:
                            priors = node.priors = {}
                        best_v = -1.0
                        for b in untried:
                            pv = priors.get(b)
                            if pv is None:
                                child_state = det.copy()
                                child_state.apply(b)
                                pv = priors[b] = win_values(child_state, self._scale, self._w)
                            if pv[p] > best_v:
                                a, best_v, prior_value = b, pv[p], pv
            if a is not None:
                if aset is not None:
                    for b, ch in children.items():
                        if b in aset:
                            ch.avail += 1
                else:
                    for b in acts:
                        ch = children.get(b)
                        if ch is not None:
                            ch.avail += 1
                child = children[a] = Node(p)
                child.avail = 1
                apply(a)
                path.append(child)
                if prior_value is not None and not self.rollout and not self.finish:
                    rewards = prior_value
                break
            best = None
            best_score = -math.inf
            if aset is not None:
                for b, ch in children.items():
                    if b not in aset:
                        continue
                    ch.avail += 1
                    score = ch.value / ch.visits + c * sqrt(log(ch.avail) / ch.visits)
                    if score > best_score:
                        best, best_score, best_action = ch, score, b
            else:
                for b in acts:
                    ch = children.get(b)
                    if ch is None:
                        continue
                    ch.avail += 1
                    score = ch.value / ch.visits + c * sqrt(log(ch.avail) / ch.visits)
                    if score > best_score:
                        best, best_score, best_action = ch, score, b
            apply(best_action)
            path.append(best)
            node = best
        if rewards is None:
            rewards = self._leaf(det)
        root.visits += 1
        for nd in path:
            nd.visits += 1
            nd.value += rewards[nd.player]
        return rewards

    def _leaf(self, det: GameState) -> list[float]:
        rng = self.rng
        if self.finish and self._fast:
            p = det.current_player
            apply = getattr(det, "apply_unchecked", det.apply)
            for _ in range(self.finish):
                if det.is_over() or det.current_player != p:
                    break
                acts = det.legal_actions()
                vals = move_values(det, acts, self._w)
                best = max(range(len(acts)), key=vals.__getitem__)
                if vals[best] <= 0:
                    break
                apply(acts[best])
        for _ in range(self.rollout):
            if det.is_over():
                break
            acts = det.legal_actions()
            det.apply(acts[rng.randbelow(len(acts))])
        return win_values(det, self._scale, self._w)

    # -- analysis -----------------------------------------------------------------------------
    def evaluate_actions(
        self,
        state: GameState,
        iterations: int,
        played: Action | None = None,
        min_share: float = 0.25,
        also: tuple[Action, ...] = (),
    ) -> tuple[Action, Node, Node | None]:
        """Search ``state`` for its player to move with ``iterations`` iterations; return the most
        visited action, its node, and the node of ``played``, which gets at least ``min_share`` of
        the iterations (extra iterations that start with it) so that its value is measured too.
        The actions of ``also`` get the same share, after ``played``: their nodes are in
        ``last_root.children``."""
        self._setup(state)
        seat = state.current_player
        legal = state.legal_actions()
        root: Any = Node(-1)
        self.last_tree = None
        if mcts_native.supported(state, self._w):
            tree = self.last_tree = self._new_tree(state)
            root = mcts_native.NativeNode(tree, tree.root)
        self._search(state, seat, root, iterations, math.inf)
        best_action, best = self._best(root, legal)
        node = None
        for i, action in enumerate((played, *also)):
            if action is None:
                continue
            if self.last_tree is not None:
                self.last_tree.add_child(action, seat)
            elif action not in root.children:
                root.children[action] = Node(seat)
            child = root.children[action]
            need = int(iterations * min_share) - child.visits
            if need > 0:
                self._search(state, seat, child, need, math.inf, first=action)
            if i == 0:
                node = child
        self.last_root = root
        assert best is not None
        return best_action, best, node
