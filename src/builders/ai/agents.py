"""Agent specifications: ``name[:key=value[:key=value...]]`` strings, parsed and turned into agents.

=========  ====================================================================================
name       options
=========  ====================================================================================
random     (none)
greedy     ``noise`` (Gaussian error on each value, in units of the game's win scale; default 0)
mcts       ``time`` (seconds per decision, default 1), ``iters`` (iterations per decision; with
           ``iters`` alone there is no time limit), ``c`` (exploration, default 0.5),
           ``rollout`` (random playout actions before the evaluation, default 0),
           ``scale`` (logistic scale of the evaluation, in points), ``widen`` (progressive
           widening, default 2; 0 tries every action once before any twice)
=========  ====================================================================================

A list of agents is written with commas: ``mcts:time=0.2,greedy``. A comma-separated item that is
only ``key=value`` adds an option to the agent before it, so ``mcts:time=0.2,c=0.7,greedy`` is the
same as ``mcts:time=0.2:c=0.7,greedy``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from builders.ai.greedy import GreedyAgent
from builders.ai.mcts import MCTSAgent
from builders.core.agents import Agent, RandomAgent

#: per agent name: option -> (type, keyword of the constructor)
OPTIONS: dict[str, dict[str, tuple[type, str]]] = {
    "random": {},
    "greedy": {"noise": (float, "noise")},
    "mcts": {"time": (float, "time_limit"), "iters": (int, "iterations"), "c": (float, "c"),
             "rollout": (int, "rollout"), "scale": (float, "scale"), "widen": (float, "widen")},
}


@dataclass(frozen=True)
class AgentSpec:
    """An agent kind with its options; ``label`` is its canonical text (``mcts:time=0.2``)."""

    kind: str
    options: dict[str, Any] = field(default_factory=dict)

    @property
    def label(self) -> str:
        if not self.options:
            return self.kind
        return self.kind + "".join(f":{k}={v:g}" if isinstance(v, float) else f":{k}={v}"
                                   for k, v in self.options.items())

    def make(self, seed: int | None = None) -> Agent:
        """A fresh agent of this spec, seeded with ``seed``."""
        kwargs = {OPTIONS[self.kind][k][1]: v for k, v in self.options.items()}
        if self.kind == "random":
            agent: Any = RandomAgent(seed)
        elif self.kind == "greedy":
            agent = GreedyAgent(seed, **kwargs)
        else:
            if "iterations" in kwargs and "time_limit" not in kwargs:
                kwargs["time_limit"] = None
            agent = MCTSAgent(seed, **kwargs)
        agent.name = self.label
        return agent


def _value(kind: str, key: str, text: str) -> Any:
    typ = OPTIONS[kind][key][0]
    try:
        value = typ(text)
    except ValueError:
        raise ValueError(f"option {key} of {kind} must be {'a whole number' if typ is int else 'a number'}, "
                         f"not {text!r}") from None
    if key in ("time", "iters", "c", "scale") and value <= 0:
        raise ValueError(f"option {key} of {kind} must be positive, not {text}")
    if key in ("noise", "rollout", "widen") and value < 0:
        raise ValueError(f"option {key} of {kind} must not be negative, not {text}")
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
