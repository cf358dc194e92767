"""The environments' option ``core``: which engine the games run on ("auto", "python", "native")."""

from __future__ import annotations

import gymnasium as gym
import pytest

import builders.rl as rl
from builders.core.games import CoreError
from builders.kingdom.state import KingdomState
from builders.middle_ages.state import MiddleAgesState
from builders.rl.base import check_core
from builders.rl.kit import rl_kit

PYTHON_STATES = {"kingdom": KingdomState, "middle-ages": MiddleAgesState}


@pytest.mark.parametrize("game", ["kingdom", "middle-ages"])
def test_a_core_that_is_no_core_is_refused(game: str) -> None:
    for bad in ("gpu", "", None, "Native"):
        with pytest.raises(ValueError, match=f"^core must be 'auto', 'python' or 'native', not {bad!r}$"):
            rl.env(game, 2, core=bad)
        with pytest.raises(ValueError, match=f"^core must be 'auto', 'python' or 'native', not {bad!r}$"):
            rl.SoloEnv(game, core=bad)


@pytest.mark.parametrize("game", ["kingdom", "middle-ages"])
def test_python_runs_the_python_engine_whatever_builders_core_says(game: str, monkeypatch) -> None:
    for setting in ("python", "native", ""):
        monkeypatch.setenv("BUILDERS_CORE", setting)
        if setting == "native" and rl_kit(game).to_native is None:
            continue  # the engine itself refuses BUILDERS_CORE=native without the native core
        env = rl.env(game, 3, core="python")
        env.reset(seed=4)
        assert env.unwrapped.core == "python"
        assert type(env.unwrapped.game_state) is PYTHON_STATES[game]
        solo = rl.SoloEnv(game, core="python")
        solo.reset(seed=4)
        assert type(solo.match.state) is PYTHON_STATES[game]


@pytest.mark.parametrize("game", ["kingdom", "middle-ages"])
def test_auto_honours_builders_core_python_and_else_takes_the_native_core_when_built(game: str, monkeypatch) -> None:
    monkeypatch.setenv("BUILDERS_CORE", "python")
    assert check_core(game, "auto") == "python"
    env = gym.make(rl_kit(game).solo_id)
    env.reset(seed=1)
    assert type(env.unwrapped.match.state) is PYTHON_STATES[game]
    monkeypatch.delenv("BUILDERS_CORE")
    built = rl_kit(game).to_native is not None
    assert check_core(game, "auto") == ("native" if built else "python")
    env = rl.env(game, 2)
    env.reset(seed=1)
    assert env.unwrapped.core == check_core(game, "auto")
    assert (type(env.unwrapped.game_state) is PYTHON_STATES[game]) == (not built)
    if built:
        assert check_core(game, "native") == "native"
    else:
        with pytest.raises(CoreError, match=r"^core='native', but the native core is not built \(make native\)$"):
            rl.env(game, 2, core="native")
