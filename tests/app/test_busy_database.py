"""A database whose write lock is held past the wait answers 503 "busy" with nothing changed,
never a 500: seen when a starved server's SQLite lock was held for longer than its timeout."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from fastapi.testclient import TestClient

from app.main import create_app
from tests.conftest import make_settings


def test_a_write_that_cannot_get_the_sqlite_lock_is_answered_busy_and_changes_nothing(
        sqlite_url: str, tmp_path: Path) -> None:
    path = tmp_path / "parlour.db"
    url = sqlite_url
    with TestClient(create_app(make_settings(url, db_busy_seconds=0.2)), base_url="http://testserver") as c:
        assert c.post("/api/tables", json={"game": "tally", "name": "Ada"}).status_code == 201
        holder = sqlite3.connect(path, isolation_level=None)
        holder.execute("BEGIN EXCLUSIVE")
        try:
            r = c.post("/api/tables", json={"game": "tally", "name": "Bea"})
        finally:
            holder.execute("ROLLBACK")
            holder.close()
        assert r.status_code == 503, r.text
        assert r.json()["error"] == "busy"
        assert r.headers["retry-after"] == "1"
        count = sqlite3.connect(path).execute("SELECT count(*) FROM tables").fetchone()[0]
        assert count == 1
        # Once the lock is free the same request goes through.
        assert c.post("/api/tables", json={"game": "tally", "name": "Bea"}).status_code == 201
