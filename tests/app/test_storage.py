"""Event sourcing: moves are append-only, snapshots speed up loading, a reload equals the live state."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

from sqlalchemy import func, select

from app.play.live import LiveTables
from app.storage.db import make_engine, sessionmaker
from app.storage.models import GameTable, MoveRecord, Snapshot, utcnow
from tests.support.play import play_one, started_table
from tests.support.tinygame import ENGINE as TALLY


def count(url: str, model, code: str) -> int:
    async def run() -> int:
        engine = make_engine(url)
        async with sessionmaker(engine)() as s:
            table_id = await s.scalar(select(GameTable.id).where(GameTable.code == code))
            n = await s.scalar(select(func.count()).select_from(model).where(model.table_id == table_id))
        await engine.dispose()
        return int(n or 0)

    return asyncio.run(run())


def load_fresh(url: str, code: str):
    async def run():
        engine = make_engine(url)
        live = await LiveTables(sessionmaker(engine), {"tally": TALLY}).by_code(code)
        await engine.dispose()
        return live

    return asyncio.run(run())


def test_every_move_is_stored_once_and_snapshots_are_taken(db_url):
    from fastapi.testclient import TestClient

    from app.main import create_app
    from tests.conftest import make_settings

    with TestClient(create_app(make_settings(db_url, snapshot_every=4))) as client:
        t = started_table(client, ("Ada", "Bob", "Cy"), target=51)
        for _ in range(9):
            play_one(client, t)
        live_view = client.get(f"/api/seats/{t['tokens'][0]}").json()["view"]
    assert count(db_url, MoveRecord, t["code"]) == 9
    assert count(db_url, Snapshot, t["code"]) == 2  # after moves 4 and 8
    fresh = load_fresh(db_url, t["code"])
    assert fresh.seq == 9 and len(fresh.log) == 9
    seat = next(p.seat for p in fresh.players if p.name == "Ada")
    assert TALLY.view(fresh.state, seat) == live_view


def test_a_snapshot_gives_the_same_state_as_a_full_replay(db_url):
    from fastapi.testclient import TestClient

    from app.main import create_app
    from tests.conftest import make_settings

    with TestClient(create_app(make_settings(db_url, snapshot_every=3))) as client:
        t = started_table(client, ("Ada", "Bob"), target=51)
        for _ in range(7):
            play_one(client, t)
    from_snapshot = load_fresh(db_url, t["code"])
    replayed = TALLY.new_game(2, int(from_snapshot.seed, 16), from_snapshot.options)

    async def moves():
        engine = make_engine(db_url)
        async with sessionmaker(engine)() as s:
            rows = (await s.execute(select(MoveRecord.seat, MoveRecord.move).where(
                MoveRecord.table_id == from_snapshot.id).order_by(MoveRecord.seq))).all()
        await engine.dispose()
        return rows

    for seat, move in asyncio.run(moves()):
        TALLY.play(replayed, seat, move)
    assert TALLY.encode(replayed) == TALLY.encode(from_snapshot.state)


def test_the_stored_time_is_utc_without_a_zone_to_the_microsecond() -> None:
    before = datetime.now(UTC).replace(tzinfo=None)
    stamp = utcnow()
    after = datetime.now(UTC).replace(tzinfo=None)
    assert stamp.tzinfo is None
    assert before - timedelta(milliseconds=1) <= stamp <= after + timedelta(milliseconds=1)
    assert len({utcnow().microsecond for _ in range(50)}) > 1  # not truncated to the second
