"""The wrapper the PettingZoo environments come in: PettingZoo's ``OrderEnforcingWrapper``, made cheaper.

PettingZoo's wrapper reaches every attribute of the environment through ``__getattr__`` (two levels of
it, and a set built on each read), and the AEC loop reads ``agent_selection``, ``agents``,
``terminations`` and the others several times a step. Here they are properties with the same check
(AttributeError before the first reset); ``last()`` and ``step()`` go straight to the environment once
it has been reset, and ``agent_iter()`` reads the environment's own attributes.
"""

from __future__ import annotations

from typing import Any

from pettingzoo.utils.wrappers import OrderEnforcingWrapper
from pettingzoo.utils.wrappers.order_enforcing import AECOrderEnforcingIterable, AECOrderEnforcingIterator


def _before_reset(name: str) -> AttributeError:
    return AttributeError(f"{name} cannot be accessed before reset")


class OrderEnforcing(OrderEnforcingWrapper):
    """``OrderEnforcingWrapper`` with the attributes read at every step as properties."""

    @property
    def agent_selection(self) -> str:
        if not self._has_reset:
            raise _before_reset("agent_selection")
        return self.env.agent_selection

    @property
    def agents(self) -> list[str]:
        if not self._has_reset:
            raise _before_reset("agents")
        return self.env.agents

    @property
    def rewards(self) -> dict[str, float]:
        if not self._has_reset:
            raise _before_reset("rewards")
        return self.env.rewards

    @property
    def terminations(self) -> dict[str, bool]:
        if not self._has_reset:
            raise _before_reset("terminations")
        return self.env.terminations

    @property
    def truncations(self) -> dict[str, bool]:
        if not self._has_reset:
            raise _before_reset("truncations")
        return self.env.truncations

    @property
    def infos(self) -> dict[str, dict]:
        if not self._has_reset:
            raise _before_reset("infos")
        return self.env.infos

    @property
    def _cumulative_rewards(self) -> dict[str, float]:
        return self.env._cumulative_rewards

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        if not self._has_reset:
            raise _before_reset("agent_selection")
        return self.env.last(observe)

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        super().reset(seed=seed, options=options)
        # reset once, always reset: from now on last() is the environment's own
        self.__dict__["last"] = self.env.last

    def step(self, action: Any) -> None:
        env = self.env
        if self._has_reset and env.agents:  # the common case: what PettingZoo's wrapper does, in one call
            self._has_updated = True
            env.step(action)
        else:
            super().step(action)

    def agent_iter(self, max_iter: int = 2**63) -> AECOrderEnforcingIterable:
        if not self._has_reset:
            super().agent_iter(max_iter)  # PettingZoo's error
        return _Iterable(self, max_iter)


class _Iterable(AECOrderEnforcingIterable):
    def __iter__(self) -> _Iterator:
        return _Iterator(self.env, self.max_iter)


class _Iterator(AECOrderEnforcingIterator):
    """PettingZoo's order-enforcing iterator, reading the wrapped environment's attributes directly."""

    def __init__(self, env: OrderEnforcing, max_iter: int):
        super().__init__(env, max_iter)
        self._inner = env.env

    def __next__(self) -> str:
        wrapper = self.env
        env = self._inner
        if not env.agents or self.iters_til_term <= 0:
            raise StopIteration
        self.iters_til_term -= 1
        assert wrapper._has_updated, "need to call step() or reset() in a loop over `agent_iter`"
        wrapper._has_updated = False
        return env.agent_selection
