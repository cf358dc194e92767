"""The native core's tests build their reference positions on the Python engine: BUILDERS_CORE is
"python" in every test unless the test sets it itself (the default core is the native one)."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _python_engine_unless_asked(monkeypatch):
    monkeypatch.setenv("BUILDERS_CORE", "python")
