"""The server's parts, wired once per process."""

from __future__ import annotations

import asyncio
import gc
import logging
import sys
import time
from typing import Annotated, Any

from fastapi import Depends, Request
from starlette.requests import HTTPConnection

from app.features.diplomacy import PrivateChats
from app.features.hints import Hints
from app.features.push import Pusher
from app.features.rematch import Rematcher
from app.features.replays import Replays
from app.play.hub import Hub
from app.play.journal import make_journal
from app.play.live import LiveTable, LiveTables, PlayerInfo
from app.play.mover import MovePlayer
from app.play.notify import Notifier, PostgresNotifier
from app.server import background, memory
from app.server.config import Settings, is_postgres
from app.server.errors import ApiError, not_found
from app.server.guard import CodeBrake
from app.server.logs import note_table
from app.server.metrics import CollectorPauses, LoopLag
from app.storage.db import make_engine, sessionmaker
from app.storage.tokens import hash_token, normalize_code
from app.tables.bot_pool import BotPool
from app.tables.bot_seats import BotSeats
from app.tables.clocks import ClockKeeper
from app.tables.rooms import Rooms
from engines.registry import Engines, load_engines

SWITCH_INTERVAL = 0.0005  # seconds a thread waits for the interpreter lock before it is handed over
log = logging.getLogger("parlour")


class Parlour:
    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.engines: Engines = load_engines(settings.engines)
        self.db = make_engine(settings.database_url, settings.db_busy_seconds)
        self.sessions = sessionmaker(self.db)
        self.notifier: Notifier = (PostgresNotifier(settings.database_url)
                                   if is_postgres(settings.database_url) else Notifier())
        self.tables = LiveTables(self.sessions, self.engines, idle_seconds=settings.table_idle_seconds,
                               finished_idle_seconds=settings.finished_idle_seconds,
                               cache_bytes=int(settings.cache_mb * 2**20))
        self._sweeper: asyncio.Task[None] | None = None
        self.loop_lag = LoopLag()
        self.collector = CollectorPauses()
        self.hub = Hub(self.tables, self.notifier, sockets_per_seat=settings.sockets_per_seat,
                       sockets_per_address=settings.sockets_per_address)
        self.private_chats = PrivateChats(self.tables, self.hub, self.notifier, settings.chat_max_chars)
        self.rooms = Rooms(self.tables, self.notifier, self.hub)
        self.journal = make_journal(settings.database_url, self.notifier)
        self.mover = MovePlayer(self.tables, self.hub, self.journal, settings.snapshot_every)
        self.code_brake = CodeBrake(settings.failed_lookups_per_minute)
        # One pool of bot workers for every bot decision: bots holding seats and clocks' time-outs.
        self.bot_pool = BotPool(settings.engines, workers=settings.bot_workers, queue=settings.bot_queue)
        self.bots = BotSeats(self.tables, self.hub, self.mover, self.notifier, self.bot_pool,
                             database_url=settings.database_url, delay=settings.bot_delay_seconds,
                             think_seconds=settings.bot_think_seconds)
        self.clocks = ClockKeeper(self.tables, self.hub, self.mover, self.bot_pool,
                                  poll_seconds=settings.clock_poll_seconds, think_seconds=settings.bot_think_seconds)
        self.hints = Hints(self.tables, self.hub, self.notifier, self.bot_pool, self.journal,
                           think_seconds=settings.bot_think_seconds)
        self.pusher = Pusher(self.tables, self.hub, settings)
        self.rematches = Rematcher(self.tables, self.rooms, self.hub, self.notifier)  # play again
        self.replays = Replays(self.sessions)  # the books of finished games watched lately

    async def start(self) -> None:
        memory.limit_arenas()  # before the journal's thread
        await self.journal.start()
        await self.notifier.start(self.hub.on_notification)
        await self.clocks.start()
        # The modules and data loaded so far live as long as the process: keep them out of the
        # cyclic collector's way, and let it run less often (its full passes over thousands of
        # connections were the round trip's p99 spikes).
        gc.collect()
        gc.freeze()
        gc.set_threshold(20_000, 20, 50)
        # The journal's thread (app/play/journal.py) takes the interpreter lock back after each
        # SQLite call; while the event loop is busy building views it waited up to the default
        # switch interval (5 ms) each time, and every move of the batch waited with it.
        sys.setswitchinterval(SWITCH_INTERVAL)
        self._sweeper = asyncio.create_task(self._sweep())
        self.loop_lag.start()
        self.collector.start()
        self.bots.start()

    def sweep_every(self) -> float:
        """Often enough that a table goes within about a quarter of its idle time past it."""
        soonest = min(self.settings.table_idle_seconds, self.settings.finished_idle_seconds)
        return min(10.0, max(0.05, soonest / 4))

    async def _sweep(self) -> None:
        """Drop the tables not in use from memory, now and then (LiveTables.sweep), and hand
        what they held back to the system (app/server/memory.py)."""
        every = self.settings.memory_trim_seconds
        trimmed = time.monotonic()
        while True:
            await asyncio.sleep(self.sweep_every())
            try:
                self.tables.sweep()
                if every > 0 and memory.can_trim() and time.monotonic() - trimmed >= every:
                    trimmed = time.monotonic()
                    await asyncio.to_thread(memory.trim)
            except Exception:  # never let the sweeper die
                log.exception("sweeping the table cache failed")

    async def stop(self) -> None:
        await self.loop_lag.stop()
        self.collector.stop()
        await background.stop(self._sweeper)
        await self.bots.stop()
        await self.clocks.stop()
        self.bot_pool.stop()
        await self.hub.drain()
        await self.pusher.stop()
        await self.notifier.stop()
        await self.journal.stop()
        await self.db.dispose()

    def public_base(self, conn: HTTPConnection) -> str:
        if self.settings.public_url:
            return self.settings.public_url.rstrip("/")
        return str(conn.base_url).rstrip("/")

    async def seat(self, token: str, client: str | None = None) -> tuple[LiveTable, PlayerInfo] | None:
        """The table and player of a seat token. A client that holds a seat has reached its table:
        the code brake never keeps it from it."""
        if not 8 <= len(token) <= 128:
            return None
        found = await self.tables.by_token_hash(hash_token(token))
        if found is not None:
            note_table(found[0].code)
            if client is not None:
                self.code_brake.reached(client, found[0].code)
        return found

    async def find_table(self, client: str, raw_code: str) -> LiveTable:
        """The table with this code (404), braking the guessing of codes (429): see CodeBrake."""
        code = normalize_code(raw_code)
        live = await self.tables.by_code(code) if code else None
        brake = self.code_brake
        wait = brake.retry_after(client)
        if live is None:
            brake.missed(client)
        elif not wait or brake.knows(client, live.code):
            brake.reached(client, live.code)
            note_table(live.code)
            return live
        if wait:
            raise ApiError(429, "too_many_attempts",
                           f"Too many unknown codes from your address; try again in {wait} s.", retry_after=wait)
        raise not_found("table")


async def get_parlour(conn: HTTPConnection) -> Parlour:
    # async, though it awaits nothing: FastAPI runs a plain function dependency on a worker
    # thread, a hop out of the loop and back for every request (and up to 40 threads' memory).
    parlour: Parlour = conn.app.state.parlour
    return parlour


def client_id(request: Request) -> str:
    return request.client.host if request.client else "unknown"


ParlourDep = Annotated[Parlour, Depends(get_parlour)]
JSON = dict[str, Any]
