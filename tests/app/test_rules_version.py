"""A host's database from before rules versions: its tables stay dealt under rules version 1.

The files in tests/app/data/rules_v1/ were made by the code of that time (see make.py there): a
SQLite database with a running London and Tower of London table, and a finished record of each.
Whatever rules version the engines reach, these games must play on to their end exactly as they
were dealt, and every record, old or new, must verify."""

from __future__ import annotations

import json
import random
import shutil
import sqlite3
from pathlib import Path

import httpx

from app.features.record import verify_record
from engines.registry import BUILTIN, load_engines

DATA = Path(__file__).parent / "data" / "rules_v1"


def play_to_the_end(client: httpx.Client, code: str, by_seat: dict[str, str], rng: random.Random) -> int:
    played = 0
    while played < 5000:
        info = client.get(f"/api/tables/{code}").json()
        if info["status"] != "playing":
            return played
        seat = rng.choice(info["awaiting"])
        legal = client.get(f"/api/seats/{by_seat[str(seat)]}/moves").json()
        r = client.post(f"/api/seats/{by_seat[str(seat)]}/moves",
                        json={"seq": legal["seq"], "move": rng.choice(legal["moves"])})
        assert r.status_code == 200, r.text
        played += 1
    raise AssertionError("the game did not end in 5000 moves")


def test_tables_dealt_before_rules_versions_play_to_their_end_and_every_record_verifies(tmp_path, server_factory):
    db = tmp_path / "parlour.db"
    shutil.copy(DATA / "parlour.db", db)
    running = json.loads((DATA / "running.json").read_text())
    server = server_factory(f"sqlite+aiosqlite:///{db}", engines="")
    with sqlite3.connect(db) as conn:  # the server migrated the old database on its way up
        assert conn.execute("SELECT version_num FROM alembic_version").fetchone()[0] >= "0002"
        assert {v for (v,) in conn.execute("SELECT rules_version FROM tables")} == {1}
    engines = load_engines(BUILTIN)
    rng = random.Random(11)
    with httpx.Client(base_url=server.base, timeout=30) as client:
        for table in running:
            assert client.get(f"/api/tables/{table['code']}").json()["seq"] == table["seq"]
            assert play_to_the_end(client, table["code"], table["by_seat"], rng) > 0
            record = client.get(f"/api/tables/{table['code']}/record").json()
            assert record["rules_version"] == 1
            assert verify_record(record, engines) == [], table["game"]
    for path in sorted(DATA.glob("*.record.json")):
        old = json.loads(path.read_text())
        assert "rules_version" not in old  # published before versions: read as version 1
        assert verify_record(old, engines) == [], path.name
