"""Agent specifications: ``name[:key=value[:key=value...]]`` strings, parsed and turned into agents.

=========  ====================================================================================
name       options
=========  ====================================================================================
random     (none)
greedy     ``noise`` (Gaussian error on each value, in units of the game's win scale; default 0)
mcts       ``time`` (seconds per decision, default 1), ``iters`` (iterations per decision; with
           ``iters`` alone there is no time limit), ``turn`` (seconds per whole turn, split
           across its decisions; replaces the default ``time``), ``c`` (exploration),
           ``rollout`` (random playout actions before the evaluation, default 0),
           ``scale`` (logistic scale of the evaluation, in points), ``widen`` (progressive
           widening, default 2; 0 tries every action once before any twice), ``prior``
           (``full``, the default, or ``fast``: how widening orders actions), ``reuse`` (1: keep
           the subtree of the action played for the next decision of the turn; default 0),
           ``clock`` (``wall``, the default, or ``cpu``: time budgets in the process's CPU time,
           for matches on a busy machine), ``finish`` (at most this many actions of the leaf's
           player, best by the move heuristic, before the evaluation; default 0), ``top`` (the
           root tries only this many actions, best by the evaluation; default 0: all)
plan       the game's turn planner (its AI kit's ``planner``, see :mod:`builders.ai.kit`), with the
           options the kit names (``planner_options``; the docstring of each game's kit module
           says what they do): of ``turn`` (seconds a turn, default 2), ``beam``, ``plans``,
           ``reply``, ``depth``, ``clock`` (``wall``, ``cpu`` or ``count``: time counted in
           positions evaluated, so that a game is played the same on every run and machine),
           ``ahead``, ``block``, ``rollouts``, ``finalists``, ``rbeam``, ``samples``,
           ``staffed`` and ``horizon``; a game without a planner takes ``turn`` only (the
           search plays it)
easy,      the bot levels of ``make_bot``; hard and expert are the game's planner with the level's
medium,    settings and take its options
hard,
expert
=========  ====================================================================================

``mcts`` with its defaults is the search as it was before the fast move ordering and turn budgets.

A list of agents is written with commas: ``mcts:time=0.2,greedy``. A comma-separated item that is
only ``key=value`` adds an option to the agent before it, so ``mcts:time=0.2,c=0.7,greedy`` is the
same as ``mcts:time=0.2:c=0.7,greedy``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from builders.ai.factory import EASY_NOISE, TURN_TIME, make_planner
from builders.ai.greedy import GreedyAgent
from builders.ai.mcts import PRIORS, MCTSAgent
from builders.ai.kit import kit
from builders.ai.planner import PLANNER_CLOCKS
from builders.core.agents import Agent, RandomAgent

#: per agent name: option -> (type, keyword of the constructor)
OPTIONS: dict[str, dict[str, tuple[type, str]]] = {
    "random": {},
    "greedy": {"noise": (float, "noise")},
    "mcts": {
        "time": (float, "time_limit"),
        "iters": (int, "iterations"),
        "turn": (float, "turn_time"),
        "c": (float, "c"),
        "rollout": (int, "rollout"),
        "scale": (float, "scale"),
        "widen": (float, "widen"),
        "prior": (str, "prior"),
        "reuse": (int, "reuse"),
        "clock": (str, "clock"),
        "finish": (int, "finish"),
        "top": (int, "top"),
    },
}
OPTIONS["plan"] = {
    "turn": (float, "turn_time"),
    "beam": (int, "beam"),
    "plans": (int, "plans"),
    "reply": (int, "reply"),
    "ahead": (float, "ahead"),
    "block": (float, "block"),
    "depth": (int, "depth"),
    "samples": (int, "samples"),
    "clock": (str, "clock"),
    "rollouts": (int, "rollouts"),
    "finalists": (int, "finalists"),
    "rbeam": (int, "roll_beam"),
    "staffed": (float, "staffed"),
    "horizon": (float, "horizon"),
}
#: the agents that plan whole turns (the planner of the game they play)
PLANNERS = ("plan", "hard", "expert")
CLOCK_NAMES = ("wall", "cpu")
OPTIONS.update({"easy": {}, "medium": {}, "hard": dict(OPTIONS["plan"]), "expert": dict(OPTIONS["plan"])})


@dataclass(frozen=True)
class AgentSpec:
    """An agent kind with its options; ``label`` is its canonical text (``mcts:time=0.2``)."""

    kind: str
    options: dict[str, Any] = field(default_factory=dict)

    @property
    def label(self) -> str:
        if not self.options:
            return self.kind
        return self.kind + "".join(
            f":{k}={v:g}" if isinstance(v, float) else f":{k}={v}" for k, v in self.options.items()
        )

    def make(self, seed: int | None = None, game: str | None = None, settings: Any = None) -> Agent:
        """A fresh agent of this spec for ``game``, seeded with ``seed``. The planner (``plan``, and
        the hard and expert levels) differs by game: without ``game`` it becomes its game's planner
        at its first decision. ``settings``: the agent's own weights of ``game``'s evaluation (names
        -> values, or the game's settings object: its kit's ``weights``), for the agents that value
        positions by it (greedy, easy, medium and the game's planner). ValueError for an option or a
        setting the game's agent does not take."""
        self.check(game)
        kwargs = {OPTIONS[self.kind][k][1]: v for k, v in self.options.items()}
        if settings:
            if game is None:
                raise ValueError("settings of an agent need its game")
            weights = kit(game).weights
            if weights is None or self.kind == "random":
                raise ValueError(f"agent {self.kind} of {game} takes no settings")
            weights(settings)  # ValueError naming what is wrong
            kwargs["weights"] = settings
        if self.kind in PLANNERS and game is None:
            agent: Any = LevelAgent(self, seed)
        elif self.kind in PLANNERS:
            level = "expert" if self.kind == "expert" else "hard"
            turn = kwargs.pop("turn_time", TURN_TIME[level])
            agent = make_planner(seed, level, turn, game, **kwargs)
        elif self.kind == "random":
            agent = RandomAgent(seed)
        elif self.kind == "greedy":
            agent = GreedyAgent(seed, **kwargs)
        elif self.kind == "easy":
            agent = GreedyAgent(seed, noise=EASY_NOISE, **kwargs)
        elif self.kind == "medium":
            agent = GreedyAgent(seed, **kwargs)
        else:
            if ("iterations" in kwargs or "turn_time" in kwargs) and "time_limit" not in kwargs:
                kwargs["time_limit"] = None
            agent = MCTSAgent(seed, **kwargs)
        agent.name = self.label
        return agent

    def check(self, game: str | None) -> None:
        """ValueError if this spec cannot play ``game`` (None: any game) with its options: each
        game's planner takes the options its AI kit names (``planner_options``, checked by its
        ``check_planner``); a game without a planner (the search plays its hard and expert levels)
        takes only ``turn``."""
        if self.kind not in PLANNERS or game is None:
            return
        found = kit(game)
        own = found.planner_options if found.planner is not None else ("turn",)
        owner = found.options_owner or f"{game}'s"
        for key in self.options:
            if key not in own:
                raise ValueError(f"option {key} of {self.kind} is not one of {owner} (options there: {', '.join(own)})")
        if found.check_planner is not None:
            found.check_planner(self.kind, self.options)


class LevelAgent:
    """A planner (``plan``, hard, expert) of a spec made without its game: the game's planner is
    made at the first decision."""

    def __init__(self, spec: AgentSpec, seed: int | None):
        self.spec = spec
        self.seed = seed
        self.name = spec.label
        self.agent: Any = None
        self.last_stats: dict[str, float] = {}

    @property
    def turn_time(self) -> float:
        return self.spec.options.get("turn", TURN_TIME["expert" if self.spec.kind == "expert" else "hard"])

    def act(self, state):
        if self.agent is None:
            self.agent = self.spec.make(self.seed, state.GAME)
        action = self.agent.act(state)
        self.last_stats = self.agent.last_stats
        return action


def _value(kind: str, key: str, text: str) -> Any:
    typ = OPTIONS[kind][key][0]
    if key == "prior":
        if text not in PRIORS:
            raise ValueError(f"option prior of {kind} must be one of {', '.join(PRIORS)}, not {text!r}")
        return text
    if key == "clock":
        names = PLANNER_CLOCKS if kind in PLANNERS else CLOCK_NAMES
        if text not in names:
            raise ValueError(f"option clock of {kind} must be one of {', '.join(names)}, not {text!r}")
        return text
    try:
        value = typ(text)
    except ValueError:
        raise ValueError(
            f"option {key} of {kind} must be {'a whole number' if typ is int else 'a number'}, not {text!r}"
        ) from None
    if key in ("time", "iters", "turn", "c", "scale", "beam", "reply", "samples", "rbeam") and not value > 0:
        raise ValueError(f"option {key} of {kind} must be positive, not {text}")
    if key in ("time", "turn") and value > 600:
        raise ValueError(f"option {key} of {kind} must be at most 600 seconds, not {text}")
    if key == "reuse" and value not in (0, 1):
        raise ValueError(f"option reuse of {kind} must be 0 or 1, not {text}")
    if key == "depth" and value not in (1, 2, 3):
        raise ValueError(f"option depth of {kind} must be 1, 2 or 3, not {text}")
    if key in ("noise", "rollout", "widen", "finish", "top", "plans", "rollouts") and value < 0:
        raise ValueError(f"option {key} of {kind} must not be negative, not {text}")
    if key == "finalists" and value < 2:
        raise ValueError(f"option finalists of {kind} must be at least 2, not {text}")
    if key in ("ahead", "block") and not 0 <= value <= 10:
        raise ValueError(f"option {key} of {kind} must be from 0 to 10, not {text}")
    if key == "staffed" and not 0 <= value <= 1:
        raise ValueError(f"option staffed of {kind} must be from 0 to 1, not {text}")
    if key == "horizon" and not 0 <= value <= 50:
        raise ValueError(f"option horizon of {kind} must be from 0 to 50, not {text}")
    return value


def parse_agent(text: str) -> AgentSpec:
    """One spec, ``name[:key=value...]``; ValueError saying what is wrong."""
    parts = [p.strip() for p in text.strip().split(":")]
    kind = parts[0].lower()
    if kind not in OPTIONS:
        raise ValueError(f"unknown agent {parts[0]!r} (choose from {', '.join(OPTIONS)})")
    options: dict[str, Any] = {}
    for part in parts[1:]:
        key, eq, val = part.partition("=")
        key = key.strip().lower()
        if not eq or not key or not val.strip():
            raise ValueError(f"agent option {part!r} must be key=value")
        if key not in OPTIONS[kind]:
            known = ", ".join(OPTIONS[kind]) or "none"
            raise ValueError(f"unknown option {key!r} for agent {kind} (options: {known})")
        options[key] = _value(kind, key, val.strip())
    return AgentSpec(kind, options)


def parse_agents(text: str) -> list[AgentSpec]:
    """A comma-separated list of specs (see the module docstring)."""
    items: list[str] = []
    for raw in text.split(","):
        item = raw.strip()
        if not item:
            raise ValueError(f"empty agent in {text!r}")
        if "=" in item and ":" not in item and items:
            items[-1] += ":" + item
        else:
            items.append(item)
    return [parse_agent(item) for item in items]
