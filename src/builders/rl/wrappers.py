"""The wrapper the PettingZoo environments come in: PettingZoo's ``OrderEnforcingWrapper``, made cheaper.

PettingZoo's wrapper reaches every attribute of the environment through ``__getattr__`` (two levels of
it, and a set built on each read), and the AEC loop reads ``agent_selection``, ``agents``,
``terminations`` and the others several times a step. Here they are properties with the same check
(AttributeError before the first reset) and ``last()`` goes straight to the environment.
"""

from __future__ import annotations

from typing import Any

from pettingzoo.utils.wrappers import OrderEnforcingWrapper


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
