"""A real `parlour serve` in its own process on loopback: for tests and benchmarks alike."""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[2]
TALLY = "tests.support.tinygame:ENGINE"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class ServerProcess:
    """Started with ``start()``; ``kill()`` and ``start()`` again keep the port and database.

    ``engines`` is PARLOUR_ENGINES ("" hosts every built-in game); ``core`` pins the process to
    one CPU core; ``quiet`` turns off the access log (benchmarks).
    """

    def __init__(self, url: str, log_path: Path, port: int | None = None, engines: str = TALLY,
                 extra_env: dict[str, str] | None = None, core: int | None = None, quiet: bool = False,
                 host: str = "127.0.0.1") -> None:
        self.db_url = url
        self.host = host  # any 127.x.y.z: several processes as several hosts would be
        self.port = port or free_port()
        self.log_path = log_path
        self.engines = engines
        self.extra_env = extra_env or {}
        self.core = core
        self.quiet = quiet
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def base(self) -> str:
        return f"http://{self.host}:{self.port}"

    @property
    def address(self) -> str:
        return f"{self.host}:{self.port}"

    def start(self, timeout: float = 60) -> ServerProcess:
        env = {**os.environ, "DATABASE_URL": self.db_url, "PARLOUR_ENGINES": self.engines,
               "PYTHONUNBUFFERED": "1", **self.extra_env}
        env.pop("PUBLIC_URL", None)
        cmd = [sys.executable, "-m", "app.cli", "serve", "--host", self.host, "--port", str(self.port)]
        if self.quiet:
            cmd += ["--no-access-log", "--log-level", "warning"]
        if self.core is not None and shutil.which("taskset"):
            cmd = ["taskset", "-c", str(self.core), *cmd]  # taskset execs: the pid stays the server's
        log = open(self.log_path, "ab")  # noqa: SIM115 -- handed to the child process
        self.proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited: {self.log_path.read_text()[-3000:]}")
            try:
                if httpx.get(f"{self.base}/healthz", timeout=1).status_code == 200:
                    return self
            except httpx.HTTPError:
                time.sleep(0.1)
        raise RuntimeError(f"server did not start in {timeout:.0f} s")

    def kill(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)

    def log_text(self) -> str:
        return self.log_path.read_text(errors="replace")

    def cpu_seconds(self) -> float:
        assert self.proc is not None
        fields = Path(f"/proc/{self.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def rss_mb(self) -> float:
        assert self.proc is not None
        for line in Path(f"/proc/{self.proc.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
        return 0.0


@contextlib.contextmanager
def sqlite_server(folder: Path, engines: str = TALLY) -> Iterator[ServerProcess]:
    """A real server on a fresh SQLite database in ``folder`` (``parlour serve`` migrates it on
    its way up), stopped afterwards: for a module of tests sharing one server."""
    server = ServerProcess(f"sqlite+aiosqlite:///{folder / 'parlour.db'}", folder / "server.log", engines=engines)
    server.start()
    try:
        yield server
    finally:
        server.stop()
