"""Throwaway PostgreSQL and Redis servers for the tests: each in a temporary folder, on a free port of
127.0.0.1, started by the test session and stopped at its end (never a system-wide service).

PostgreSQL refuses to run as root: when the tests run as root (as in CI), the cluster belongs to the
``nobody`` user. Debian's packages are used (``make test`` installs them when missing).
"""

from __future__ import annotations

import glob
import os
import shutil
import signal
import socket
import subprocess
import time
from pathlib import Path

from tests.server.helpers import free_port


def _pg_bin(name: str) -> str:
    found = shutil.which(name)
    if found:
        return found
    candidates = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    if not candidates:
        raise RuntimeError(f"PostgreSQL's {name} is missing: run `make test` (it installs Debian's postgresql)")
    return candidates[-1]


def _wait_port(port: int, proc: subprocess.Popen, what: str, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"{what} exited with {proc.returncode}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"{what} did not start")


class Postgres:
    """A PostgreSQL cluster of its own; :meth:`new_database` gives each test a fresh database."""

    def __init__(self, folder: Path, fsync: bool = False):
        self.folder = folder
        self.fsync = fsync  # off for tests (nothing to keep), on for benchmarks
        self.port = free_port()
        self.proc: subprocess.Popen | None = None
        self.user_kwargs: dict = {}
        self._count = 0

    def start(self) -> Postgres:
        data = self.folder / "data"
        self.folder.mkdir(parents=True, exist_ok=True)
        if os.geteuid() == 0:
            self.user_kwargs = {"user": "nobody", "group": "nogroup"}
            os.chmod(self.folder, 0o777)  # a folder of its own right under /tmp (see the fixture)
        subprocess.run(
            [_pg_bin("initdb"), "-D", str(data), "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync"],
            check=True,
            capture_output=True,
            **self.user_kwargs,
        )
        return self.resume()

    def resume(self) -> Postgres:
        """Start the server (again, after :meth:`halt`) on the same data and port."""
        self.proc = subprocess.Popen(
            [
                _pg_bin("postgres"),
                "-D",
                str(self.folder / "data"),
                "-p",
                str(self.port),
                "-h",
                "127.0.0.1",
                "-k",
                str(self.folder),
                "-c",
                f"fsync={'on' if self.fsync else 'off'}",
                "-c",
                "max_connections=200",
                "-c",
                "shared_buffers=32MB",
            ],
            stdout=subprocess.DEVNULL,
            stderr=open(self.folder / "postgres.log", "ab"),
            **self.user_kwargs,
        )
        _wait_port(self.port, self.proc, "PostgreSQL")
        deadline = time.monotonic() + 30
        while True:  # the port opens a little before connections are accepted
            try:
                self.execute("SELECT 1")
                return self
            except Exception:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)

    def halt(self) -> None:
        """Stop the server at once (a fast shutdown: every connection is cut), keeping its data."""
        assert self.proc is not None
        self.proc.send_signal(signal.SIGINT)
        self.proc.wait(timeout=30)

    def url(self, database: str = "postgres") -> str:
        return f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/{database}"

    def execute(self, sql: str, database: str = "postgres") -> None:
        import psycopg

        with psycopg.connect(
            f"host=127.0.0.1 port={self.port} user=postgres dbname={database}", autocommit=True
        ) as conn:
            conn.execute(sql)

    def new_database(self) -> str:
        """The URL of a new, empty database."""
        self._count += 1
        name = f"t{os.getpid()}_{self._count}"
        self.execute(f"CREATE DATABASE {name}")
        return self.url(name)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            # a fast shutdown: a smart one (SIGTERM) would wait for the pools tests left open
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)
        shutil.rmtree(self.folder, ignore_errors=True)


class Redis:
    """``redis-server`` with no persistence, on a free port."""

    def __init__(self, folder: Path):
        self.folder = folder
        self.port = free_port()
        self.proc: subprocess.Popen | None = None

    def start(self) -> Redis:
        exe = shutil.which("redis-server")
        if exe is None:
            raise RuntimeError("redis-server is missing: run `make test` (it installs Debian's redis-server)")
        self.folder.mkdir(parents=True, exist_ok=True)
        return self.resume(exe)

    def kill(self) -> None:
        """SIGKILL the server (its data is lost: nothing is persisted)."""
        assert self.proc is not None
        self.proc.kill()
        self.proc.wait(timeout=10)

    def resume(self, exe: str | None = None) -> Redis:
        """Start the server (again, after :meth:`kill`) on the same port."""
        exe = exe or shutil.which("redis-server") or "redis-server"
        self.proc = subprocess.Popen(
            [
                exe,
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                str(self.folder),
                "--protected-mode",
                "yes",
            ],
            stdout=open(self.folder / "redis.log", "ab"),
            stderr=subprocess.STDOUT,
        )
        _wait_port(self.port, self.proc, "redis-server")
        return self

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)
        shutil.rmtree(self.folder, ignore_errors=True)
