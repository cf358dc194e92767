"""The package as users install it: the wheel built from this tree, installed with the rl extra into a
fresh virtual environment, has the research kit and not the web server; the command line of a base
install says in one line which extra the server needs."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import tomllib
import venv
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SERVER_MODULES = (
    "fastapi",
    "uvicorn",
    "sqlalchemy",
    "alembic",
    "psycopg",
    "redis",
    "arq",
    "argon2",
    "prometheus_client",
    "openskill",
    "matplotlib",
)


def _pyproject() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())


def test_the_distribution_has_a_name_of_its_own_and_a_lean_base() -> None:
    project = _pyproject()["project"]
    assert project["name"] == "builders-games"
    assert [d.split(">")[0] for d in project["dependencies"]] == ["typer", "rich"]
    extras = project["optional-dependencies"]
    rl = " ".join(extras["rl"])
    assert not [
        m
        for m in (
            "fastapi",
            "uvicorn",
            "sqlalchemy",
            "alembic",
            "psycopg",
            "redis",
            "arq",
            "pwdlib",
            "prometheus",
            "openskill",
            "matplotlib",
        )
        if m in rl
    ]
    assert "fastapi>=0.110" in extras["server"]


def test_the_command_line_imports_no_server_module() -> None:
    code = (
        f"import sys, builders.cli; print(sorted({{m.split('.')[0] for m in sys.modules}} & set({SERVER_MODULES!r})))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def _run(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        list(args),
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=900,
        env={**os.environ, "PIP_DISABLE_PIP_VERSION_CHECK": "1"},
    )


def test_the_wheel_with_the_rl_extra_in_a_fresh_venv(tmp_path: Path) -> None:
    dist = tmp_path / "dist"
    built = _run(sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir", str(dist), str(ROOT))
    assert built.returncode == 0, built.stderr[-2000:]
    wheels = list(dist.glob("builders_games-*.whl"))
    assert len(wheels) == 1, wheels
    # the web client ships whole: the shared files and every game's own web files (its plugin's web_dir)
    shipped = set(zipfile.ZipFile(wheels[0]).namelist())
    src = ROOT / "src"
    own = [*(src / "builders").glob("*/web/*.js"), *(src / "builders").glob("*/web/*.css")]
    web = [*(src / "builders" / "web" / "static").rglob("*.*"), *own]
    assert len([p for p in web if p.parent.name == "web"]) >= 11
    assert {p.name for p in own if p.suffix == ".css"} == {"kingdom.css", "middle_ages.css"}  # each game's styles
    missing = sorted(p.relative_to(src).as_posix() for p in web if p.relative_to(src).as_posix() not in shipped)
    assert not missing, f"the wheel misses {missing}"
    env = tmp_path / "venv"
    # a venv without pip of its own (ensurepip takes seconds): this pip installs into it (--python)
    venv.create(env, with_pip=False)
    python = env / "bin" / "python"
    # no .pyc written at install (numpy's alone take seconds): Python compiles what the script imports
    installed = _run(
        sys.executable, "-m", "pip", "--python", str(python), "install", "--quiet", "--no-compile", f"{wheels[0]}[rl]"
    )
    assert installed.returncode == 0, installed.stderr[-2000:]
    script = textwrap.dedent("""
        import importlib.util
        import gymnasium
        import numpy as np
        import builders.rl
        from builders.rl import kingdom_env, middle_ages_env

        for env_id in (builders.rl.KINGDOM_SOLO, builders.rl.MIDDLE_AGES_SOLO):
            env = gymnasium.make(env_id)
            obs, info = env.reset(seed=1)
            for _ in range(5):
                legal = np.flatnonzero(obs["action_mask"])
                obs, reward, terminated, truncated, info = env.step(int(legal[0]))
            print(env_id, "ok")
        aec = middle_ages_env()
        aec.reset(seed=2)
        obs, *_ = aec.last()
        aec.step(int(np.flatnonzero(obs["action_mask"])[0]))
        print("aec ok")
        print("fastapi", importlib.util.find_spec("fastapi") is not None)
    """)
    ran = _run(str(python), "-c", script, cwd=tmp_path)
    assert ran.returncode == 0, ran.stderr[-2000:]
    assert ran.stdout.splitlines() == [
        "builders.rl.KingdomSolo-v0 ok",
        "builders.rl.MiddleAgesSolo-v0 ok",
        "aec ok",
        "fastapi False",
    ]
    served = _run(str(env / "bin" / "builders"), "serve", cwd=tmp_path)
    assert served.returncode == 2
    assert served.stderr == ("error: the web server needs the server extra: pip install 'builders-games[server]'\n")
