"""`parlour backup` and `parlour restore`: a backup taken while a real server is playing moves
restores to a server whose games play on to their end and verify; a database holding games is
never overwritten unasked. On SQLite (the online backup API) and PostgreSQL (pg_dump and
pg_restore, as found on this machine)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import create_engine, text

from app.features.record import verify_record
from app.server.config import sync_url
from app.storage import backup as backups
from engines.registry import load_engines
from tests.conftest import make_settings
from tests.support.play import found, join
from tests.support.server import ROOT, TALLY


def cli(url: str, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "DATABASE_URL": url, "PARLOUR_ENGINES": TALLY}
    return subprocess.run([sys.executable, "-m", "app.cli", *args], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=120)


def other_postgres_database(server_url: str, name: str) -> str:
    """A new, empty database beside the test database on the same PostgreSQL server."""
    admin = create_engine(sync_url(server_url), isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
        conn.execute(text(f"CREATE DATABASE {name}"))
    admin.dispose()
    return server_url.rsplit("/", 1)[0] + f"/{name}"


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.pg)])
def live_and_empty(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[str, str]]:
    """A migrated database for the server, and an empty one to restore into."""
    if request.param == "sqlite":
        yield request.getfixturevalue("sqlite_url"), f"sqlite+aiosqlite:///{tmp_path / 'restored' / 'parlour.db'}"
        return
    live = request.getfixturevalue("postgres_url")
    yield live, other_postgres_database(live, "parlour_restored")


class Players(threading.Thread):
    """Plays moves on several tables through a real server, founding a new table whenever one
    ends, until told to stop; knows each table's last seq."""

    def __init__(self, base: str, tables: int = 4) -> None:
        super().__init__(daemon=True)
        self.client = httpx.Client(base_url=base, timeout=30)
        self.tables = [self.found() for _ in range(tables)]
        self.every: list[dict[str, Any]] = list(self.tables)
        self.seq: dict[str, int] = {t["code"]: 0 for t in self.tables}
        self.moves = 0
        self.stopping = threading.Event()
        self.error: BaseException | None = None

    def found(self) -> dict[str, Any]:
        c = self.client
        ada = found(c, "Ada", target=51)
        bob = join(c, ada["code"], "Bob")
        assert c.post(f"/api/seats/{ada['seat_token']}/start").status_code == 200
        tokens = [ada["seat_token"], bob["seat_token"]]
        return {"code": ada["code"], "tokens": tokens,
                "by_seat": {c.get(f"/api/seats/{tok}").json()["seat"]: tok for tok in tokens}}

    def run(self) -> None:
        try:
            while not self.stopping.is_set():
                for i, table in enumerate(self.tables):
                    if not play_one_if_playing(self.client, table):
                        self.tables[i] = self.found()
                        self.every.append(self.tables[i])
                        self.seq[self.tables[i]["code"]] = 0
                        continue
                    self.seq[table["code"]] += 1
                    self.moves += 1
        except BaseException as exc:
            self.error = exc

    def wait_for(self, moves: int, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        while self.moves < moves and self.error is None:
            assert time.monotonic() < deadline, f"only {self.moves} moves played in {timeout} s"
            time.sleep(0.02)
        assert self.error is None, self.error

    def stop(self) -> None:
        self.stopping.set()
        self.join(30)
        self.client.close()
        assert self.error is None, self.error


def play_one_if_playing(c: httpx.Client, table: dict[str, Any]) -> bool:
    """One move at the table (False: it has ended)."""
    seat = c.get(f"/api/seats/{table['tokens'][0]}").json()
    if seat["status"] == "finished":
        return False
    token = table["by_seat"][seat["awaiting"][0]]
    moves = c.get(f"/api/seats/{token}/moves").json()
    r = c.post(f"/api/seats/{token}/moves", json={"seq": moves["seq"], "move": moves["moves"][0]})
    assert r.status_code == 200, r.text
    return True


def test_a_backup_taken_under_load_restores_to_a_server_whose_games_play_on_and_verify(
        live_and_empty: tuple[str, str], server_factory: Any, tmp_path: Path) -> None:
    live_url, empty_url = live_and_empty
    server = server_factory(live_url)
    players = Players(server.base)
    players.start()
    players.wait_for(120)  # some games ended, others half-way
    before = dict(players.seq)
    moves_before = players.moves
    started = time.perf_counter()
    made = cli(live_url, "backup", str(tmp_path / "parlour.backup"))
    took = time.perf_counter() - started
    after = dict(players.seq)
    moves_during = players.moves - moves_before
    players.wait_for(players.moves + 20)  # and the server plays on after it
    players.stop()
    server.stop()
    assert made.returncode == 0, made.stderr
    assert moves_during > 0  # the server was playing while the backup was taken
    print(f"\nbackup under load: {made.stdout.strip()} ({took:.2f} s with the command's start; "
          f"{moves_during} moves played meanwhile)")

    restored = cli(empty_url, "restore", str(tmp_path / "parlour.backup"))
    assert restored.returncode == 0, restored.stderr
    engines = load_engines((TALLY,))
    again = server_factory(empty_url)
    with httpx.Client(base_url=again.base, timeout=30) as c:
        for table in players.every:
            code = table["code"]
            if code not in before:  # founded while the backup ran (or after): maybe in it, maybe not
                continue
            summary = c.get(f"/api/tables/{code}").json()
            # the backup is one moment of the database: every table as it stood then
            assert before[code] <= summary["seq"] <= after[code], (code, before[code], summary, after[code])
            while play_one_if_playing(c, table):
                pass
            record = c.get(f"/api/tables/{code}/record").json()
            assert verify_record(record, engines) == [], code
        (tmp_path / "record.json").write_text(json.dumps(record))
        found(c)  # and new tables are founded beside them (PostgreSQL: its sequences came back too)
    verified = cli(empty_url, "verify", str(tmp_path / "record.json"))
    assert verified.returncode == 0 and verified.stdout.startswith("OK"), verified.stdout + verified.stderr


def tables_in(url: str) -> int:
    held = backups.games_held(url)
    assert held is not None
    return held


def test_restore_refuses_a_database_that_holds_games_unless_forced(db_url: str, tmp_path: Path) -> None:
    from fastapi.testclient import TestClient

    from app.main import create_app

    with TestClient(create_app(make_settings(db_url))) as c:
        found(c)
    made = backups.backup(db_url, tmp_path / "one-table.backup")
    assert made.path.stat().st_size > 0
    with TestClient(create_app(make_settings(db_url))) as c:
        found(c)
    assert tables_in(db_url) == 2

    refused = cli(db_url, "restore", str(tmp_path / "one-table.backup"))
    assert refused.returncode == 2 and "--force" in refused.stderr
    assert tables_in(db_url) == 2  # untouched

    forced = cli(db_url, "restore", "--force", str(tmp_path / "one-table.backup"))
    assert forced.returncode == 0, forced.stderr
    assert tables_in(db_url) == 1


def test_a_backup_never_replaces_a_file_unless_forced(sqlite_url: str, tmp_path: Path) -> None:
    (tmp_path / "taken.backup").write_text("something else")
    refused = cli(sqlite_url, "backup", str(tmp_path / "taken.backup"))
    assert refused.returncode == 2 and "--force" in refused.stderr
    assert (tmp_path / "taken.backup").read_text() == "something else"
    assert cli(sqlite_url, "backup", "--force", str(tmp_path / "taken.backup")).returncode == 0
    assert tables_in(f"sqlite:///{tmp_path / 'taken.backup'}") == 0


def test_a_backup_is_never_written_over_its_own_database(sqlite_url: str) -> None:
    with pytest.raises(backups.Refused):
        backups.backup(sqlite_url, backups.sqlite_path(sqlite_url), force=True)
    assert tables_in(sqlite_url) == 0


def test_restore_refuses_a_file_that_is_not_a_backup(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("not a database")
    done = cli(f"sqlite+aiosqlite:///{tmp_path / 'parlour.db'}", "restore", str(tmp_path / "notes.txt"))
    assert done.returncode == 1 and "not a Parlour database backup" in done.stderr


def test_without_pg_dump_the_backup_says_how_to_make_one(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(backups, "pg_tool", lambda name: None)
    with pytest.raises(backups.BackupError, match=r"pg_dump is not installed here.*README"):
        backups.backup("postgresql+psycopg://parlour:secret@db/parlour", tmp_path / "parlour.backup")
    assert not list(tmp_path.iterdir())  # no part left behind


def test_the_password_goes_to_pg_dump_in_its_environment_not_its_command_line() -> None:
    conninfo, env = backups.libpq("postgresql+psycopg://parlour:s3cret@db:5432/parlour?sslmode=require")
    assert "s3cret" not in conninfo and env["PGPASSWORD"] == "s3cret"
    assert conninfo == "postgresql://parlour@db:5432/parlour?sslmode=require"
