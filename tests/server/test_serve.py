"""The ``serve`` command and ``python -m builders.server``: options and errors."""

from __future__ import annotations

import subprocess
import sys

import typer
from typer.testing import CliRunner

from builders.commands.serve import serve
from builders.server.run import address
from tests.server.helpers import ROOT


def test_serve_command_options():
    app = typer.Typer()
    app.command("serve")(serve)
    app.command("other")(lambda: None)
    result = CliRunner().invoke(app, ["serve", "--help"])
    assert result.exit_code == 0
    for option in ("--host", "--port", "--db"):
        assert option in result.output
    result = CliRunner().invoke(app, ["serve", "--port", "0"])
    assert result.exit_code != 0


def test_address():
    assert address("127.0.0.1", 8000) == "http://127.0.0.1:8000/"
    assert address("::1", 9000) == "http://[::1]:9000/"


def test_module_refuses_bad_options():
    for args in (["--port", "70000"], ["--bot-delay", "-1"], ["--bot-mode", "fast"], ["--bot-workers", "0"]):
        proc = subprocess.run(
            [sys.executable, "-m", "builders.server", *args],
            capture_output=True,
            text=True,
            timeout=60,
            env={"PYTHONPATH": str(ROOT / "src"), "PATH": ""},
        )
        assert proc.returncode == 2 and "error" in proc.stderr


def test_database_urls(tmp_path):
    from builders.server.store import Store, database_url

    assert database_url("sqlite:///x.db") == "sqlite:///x.db"
    assert database_url(str(tmp_path / "g.sqlite3")) == f"sqlite:///{tmp_path / 'g.sqlite3'}"
    store = Store(str(tmp_path / "g.sqlite3"))
    assert store.counts() == {"games": 0, "actions": 0}
    store.close()
    assert (tmp_path / "g.sqlite3").exists()
