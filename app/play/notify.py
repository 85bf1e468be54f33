"""Telling other server processes that a table changed (PostgreSQL LISTEN/NOTIFY).

One process on SQLite needs nothing: the hub pushes in-process. Several processes on one
PostgreSQL send "table T changed (kind)" inside the very transaction that stored the change, so a
notification is delivered exactly when the change is visible, and never for a rolled-back one.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import uuid
from collections.abc import Awaitable, Callable
from typing import Any

import orjson
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncSession

log = logging.getLogger("parlour.notify")
CHANNEL = "parlour"
Handler = Callable[[dict[str, Any]], Awaitable[None]]


class Notifier:
    """In-process: nothing to tell anyone."""

    process_id = uuid.uuid4().hex[:12]

    async def in_transaction(self, session: AsyncSession, table_id: int, kind: str, **extra: Any) -> None:
        return None

    async def send(self, table_id: int, kind: str, **extra: Any) -> None:
        return None

    async def start(self, handler: Handler) -> None:
        return None

    async def stop(self) -> None:
        return None


class PostgresNotifier(Notifier):
    def __init__(self, dsn: str) -> None:
        self.dsn = dsn.replace("postgresql+psycopg://", "postgresql://", 1)
        self._task: asyncio.Task[None] | None = None
        self._send_conn: Any = None
        self._send_lock = asyncio.Lock()
        self._closed = False
        self.ready = asyncio.Event()

    def _payload(self, table_id: int, kind: str, extra: dict[str, Any]) -> str:
        return orjson.dumps({"p": self.process_id, "t": table_id, "k": kind, **extra}).decode()

    async def in_transaction(self, session: AsyncSession, table_id: int, kind: str, **extra: Any) -> None:
        await session.execute(text("SELECT pg_notify(:c, :p)"),
                              {"c": CHANNEL, "p": self._payload(table_id, kind, extra)})

    async def send(self, table_id: int, kind: str, **extra: Any) -> None:
        """Outside any transaction (presence): best effort, never blocks a shutdown."""
        import psycopg

        if self._closed:
            return
        async with self._send_lock:
            if self._closed:
                return
            if self._send_conn is None or self._send_conn.closed or self._send_conn.broken:
                self._send_conn = await psycopg.AsyncConnection.connect(self.dsn, autocommit=True)
            await self._send_conn.execute("SELECT pg_notify(%s, %s)",
                                          (CHANNEL, self._payload(table_id, kind, extra)))

    async def start(self, handler: Handler) -> None:
        self._task = asyncio.create_task(self._listen(handler))
        await asyncio.wait_for(self.ready.wait(), timeout=10)

    async def _listen(self, handler: Handler) -> None:
        import psycopg

        while True:
            try:
                async with await psycopg.AsyncConnection.connect(self.dsn, autocommit=True) as conn:
                    await conn.execute(f"LISTEN {CHANNEL}")
                    if self.ready.is_set():  # a reconnect: notifications may have been missed
                        await handler({"k": "resync"})
                    self.ready.set()
                    async for note in conn.notifies():
                        try:
                            payload = orjson.loads(note.payload)
                        except orjson.JSONDecodeError:
                            continue
                        if payload.get("p") == self.process_id:
                            continue
                        try:
                            await handler(payload)
                        except Exception:
                            log.exception("handling a notification failed")
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("LISTEN connection lost; reconnecting")
                await asyncio.sleep(0.5)

    async def stop(self) -> None:
        self._closed = True
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
        async with self._send_lock:  # let a send in flight finish first
            if self._send_conn is not None:
                with contextlib.suppress(Exception):
                    await self._send_conn.close()
