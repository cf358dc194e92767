"""The optional parts of the package (its extras) and the one line a command says when one is missing.

The base install is the engines, the bots and the command line; ``builders serve``, ``builders db``
and ``builders worker`` need the server extra, ``builders tournament --plot`` the plot extra and the
research commands the rl extra. Nothing here imports them: it only looks for them.
"""

from __future__ import annotations

import importlib.util

from builders.commands._errors import fail

#: the name of the distribution on package indexes (the import package is ``builders``)
DISTRIBUTION = "builders-games"

#: extra -> (what needs it, modules that must be importable)
EXTRAS = {
    "server": (
        "the web server",
        (
            "fastapi",
            "uvicorn",
            "sqlalchemy",
            "alembic",
            "redis",
            "arq",
            "orjson",
            "platformdirs",
            "prometheus_client",
            "pwdlib",
            "openskill",
        ),
    ),
    "plot": ("plots", ("matplotlib",)),
    "rl": ("the research kit", ("numpy", "gymnasium", "pettingzoo", "pyspiel")),
    "rl-train": ("a PPO policy", ("sb3_contrib", "torch")),
}


def missing(extra: str) -> list[str]:
    """The modules of ``extra`` that cannot be imported here."""
    return [m for m in EXTRAS[extra][1] if importlib.util.find_spec(m) is None]


def need(extra: str) -> None:
    """Exit with one line naming the extra to install when a module of ``extra`` is missing."""
    if missing(extra):
        fail(f"{EXTRAS[extra][0]} needs the {extra} extra: pip install '{DISTRIBUTION}[{extra}]'")
