"""A notification that arrives while this process is loading the table it names.

The load read the database before the other process committed; the notification, handled
while the load is still reading, finds nothing in the cache to drop. Unless the load is then
done again, the copy it caches is the one from before the change, and stays there until the
next change (seen once: a join and a start racing on two processes, the other process still saying
"gathering" 10 s after the start).
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from sqlalchemy import insert

from app.play.hub import Hub
from app.play.live import LiveTable, LiveTables
from app.play.notify import Notifier
from app.storage.db import make_engine, sessionmaker
from app.storage.models import Player
from app.tables.rooms import Rooms
from tests.support.tinygame import ENGINE

pytestmark = pytest.mark.pg


class HeldLoads(LiveTables):
    """Each load, once it has read the database, waits for ``go`` before it is cached: the
    window in which another process commits and its notification is handled here."""

    def __init__(self, *args: Any, **kw: Any) -> None:
        super().__init__(*args, **kw)
        self.read = asyncio.Event()
        self.go = asyncio.Event()

    async def _load(self, table_id: int) -> LiveTable | None:
        loaded = await super()._load(table_id)
        self.read.set()
        await self.go.wait()
        return loaded


async def seat_bob(tables: LiveTables, table_id: int) -> None:
    async with tables.sessions() as s, s.begin():
        await s.execute(insert(Player).values(table_id=table_id, token_hash="b" * 64, name="Bob", joined=1,
                                              is_founder=False))


def test_a_join_notified_while_the_table_loads_is_not_lost(postgres_url: str) -> None:
    async def scenario() -> list[str]:
        db = make_engine(postgres_url)
        tables = HeldLoads(sessionmaker(db), {ENGINE.id: ENGINE})
        hub = Hub(tables, Notifier())
        try:
            tables.go.set()
            ticket = await Rooms(tables, Notifier(), hub).found(ENGINE.id, "Ada", None)
            tables.forget(ticket.table_id)
            tables.go.clear()
            tables.read.clear()
            loading = asyncio.create_task(tables.get(ticket.table_id))
            await tables.read.wait()  # the load has read the table: still gathering
            await seat_bob(tables, ticket.table_id)  # Bob joins through another process
            await hub.on_notification({"p": "elsewhere", "t": ticket.table_id, "k": "lobby"})
            tables.go.set()
            await loading
            cached = await tables.get(ticket.table_id)
            assert cached is not None
            return [p.name for p in cached.players]
        finally:
            await db.dispose()

    assert asyncio.run(scenario()) == ["Ada", "Bob"]


def test_a_reload_during_another_load_does_not_take_that_loads_older_copy(postgres_url: str) -> None:
    async def scenario() -> list[str]:
        db = make_engine(postgres_url)
        tables = HeldLoads(sessionmaker(db), {ENGINE.id: ENGINE})
        try:
            tables.go.set()
            ticket = await Rooms(tables, Notifier(), Hub(tables, Notifier())).found(ENGINE.id, "Ada", None)
            old = await tables.get(ticket.table_id)
            assert old is not None
            tables.forget(ticket.table_id)
            tables.go.clear()
            tables.read.clear()
            reading = asyncio.create_task(tables.get(ticket.table_id))  # a request's load, reading
            await tables.read.wait()
            await seat_bob(tables, ticket.table_id)  # Bob joins here …
            reloading = asyncio.create_task(tables.reload(old))  # … and rebuilds it from the database
            for _ in range(3):  # it runs (no I/O) until it awaits the load in flight
                await asyncio.sleep(0)
            tables.go.set()
            await reading
            fresh = await reloading
            assert fresh is not None
            return [p.name for p in fresh.players]
        finally:
            await db.dispose()

    assert asyncio.run(scenario()) == ["Ada", "Bob"]
