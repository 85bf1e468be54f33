"""A private PostgreSQL server on loopback, in a temporary folder: for tests and benchmarks alike."""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

from tests.support.server import free_port


def installed() -> bool:
    return bool(list(Path("/usr/lib/postgresql").glob("*/bin/initdb")))


class PrivatePostgres:
    """Started on construction, gone after ``stop()``. ``fsync=False`` for tests (speed, and
    nothing to keep); benchmarks keep it on, as a host would."""

    def __init__(self, port: int | None = None, fsync: bool = True, dbname: str = "parlour") -> None:
        bins = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"))
        if not bins:
            raise RuntimeError("PostgreSQL is not installed (the README's test command installs it)")
        self.bin = bins[-1].parent
        self.port = port or free_port()
        self.dir = Path(tempfile.mkdtemp())
        self.dir.chmod(0o755)
        (self.dir / "pg").mkdir()
        self.as_pg: list[str] = []
        if os.geteuid() == 0:  # PostgreSQL refuses to run as root
            shutil.chown(self.dir / "pg", "postgres", "postgres")
            self.as_pg = ["runuser", "-u", "postgres", "--"]
        data = self.dir / "pg" / "data"
        self._run(str(self.bin / "initdb"), "-D", str(data), "-U", "postgres", "--auth=trust", "-E", "UTF8",
                  "--no-locale")
        settings = f"-p {self.port} -k {self.dir / 'pg'} -c listen_addresses=127.0.0.1 -c max_connections=300"
        if not fsync:
            settings += " -c fsync=off"
        self._run(str(self.bin / "pg_ctl"), "-D", str(data), "-l", str(self.dir / "pg" / "log"), "-w", "-o",
                  settings, "start")
        self._run(str(self.bin / "createdb"), "-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres", dbname)
        self.url = f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/{dbname}"

    def _run(self, *args: str) -> None:
        subprocess.run([*self.as_pg, *args], check=True, stdout=subprocess.DEVNULL)

    def stop(self) -> None:
        with contextlib.suppress(Exception):
            self._run(str(self.bin / "pg_ctl"), "-D", str(self.dir / "pg" / "data"), "-m", "fast", "-w", "stop")
        shutil.rmtree(self.dir, ignore_errors=True)
