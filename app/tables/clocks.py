"""The clock keeper: brings each clocked table's stored clocks up to its stored moves, shows them
to every connection, and plays a seat's move when its time runs out.

The ``clocks`` row is the truth, written after each move with a guard (``seq`` only grows), so a
restarted server, or another server process, reads the clocks where they stood; moves stored
that the row does not hold yet are charged from their stored moments (``clock_rules.advance``),
a take-back returning the clocks to the point it returns to, and a time-out's move (its stored
log line says so, app/play/takeback.py) spending its seat's time.

A time-out is a move like any other: the keeper chooses it (a pass or the first listed move, or
a bot's choice from the server's bot pool, app/tables/bot_pool.py, as for a bot holding a seat) and
plays it through the mover, so it is stored before it is shown and the published record
verifies. A seat a bot holds runs no clock (clock_rules.hand_over): the keeper stops it when it
sees the seat change hands and starts it again when the player takes the seat back.

Every server process runs a keeper; when two notice the same time-out, the journal stores one
move at that seq and the other is refused as stale, so a time-out is played exactly once.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
import weakref
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import orjson
from sqlalchemy import Text, cast, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.play.hub import Connection, Hub
from app.play.live import LiveTable, LiveTables
from app.play.mover import MovePlayer
from app.play.takeback import TAKE_BACK_KEY, is_take_back, offers_take_backs, timed_out
from app.server import background
from app.server.errors import ApiError
from app.storage.models import GameTable, MoveRecord, TableClock, utcnow
from app.tables import clock_rules as rules
from app.tables.bot_pool import BotPool, plays_bots
from app.tables.clock_rules import ClockSettings

log = logging.getLogger("parlour.clocks")
PASS_TYPES = ("pass", "skip", "decline", "end_turn", "done")
KNOWN_LIMIT = 50_000  # tables remembered as clocked or not (an id and a small dict each)


@dataclass
class Clock:
    settings: ClockSettings
    state: dict[str, Any]
    seq: int  # the stored move the state is at (-1: the game has not begun)


async def store_settings(s: AsyncSession, table_id: int, settings: ClockSettings | None) -> None:
    """At founding, inside the founding transaction: the clock chosen, not yet running."""
    if settings is not None:
        s.add(TableClock(table_id=table_id, settings=settings.as_json(), seq=-1, state={}, due_at=None))


def timeout_move(legal: list[Any]) -> Any:
    """"Pass / first listed safe move": a pass where the game offers one, else the first move."""
    for move in legal:
        if isinstance(move, dict) and move.get("type") in PASS_TYPES:
            return move
    return legal[0]


def bot_held(live: LiveTable) -> set[int]:
    """The seats a bot plays now (added as bots, or handed to one)."""
    return {p.seat for p in live.players if p.seat is not None and p.bot is not None}


def clock_stands(live: LiveTable, clock: Clock) -> bool:
    """Does the clock stand as the table does (its move, and the bots' seats while it is played)?"""
    return clock.seq == live.seq and (live.status != "playing" or rules.held_by_bots(clock.state) == bot_held(live))


class ClockKeeper:
    def __init__(self, tables: LiveTables, hub: Hub, mover: MovePlayer, bots: BotPool, poll_seconds: float = 1.0,
                 now: Callable[[], datetime] = utcnow, think_seconds: float = 0.9) -> None:
        self.tables = tables
        self.hub = hub
        self.mover = mover
        self.bots = bots
        self.think_seconds = think_seconds
        self.poll_seconds = poll_seconds
        self.now = now  # injectable: tests move time on without sleeping
        self._known: OrderedDict[int, Clock | None] = OrderedDict()
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        self._expiring: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        self._tasks: set[asyncio.Task[Any]] = set()
        self._loop: asyncio.Task[None] | None = None
        self._wake = asyncio.Event()
        self.played = 0  # time-outs this process played
        hub.listeners.shown.append(self._on_change)

    # -- running -------------------------------------------------------------------------------

    async def start(self) -> None:
        self._loop = asyncio.create_task(self._run())

    async def stop(self) -> None:
        await background.stop(self._loop)
        for task in list(self._tasks):
            task.cancel()
        if self._tasks:
            await asyncio.wait(set(self._tasks), timeout=5)

    async def _run(self) -> None:
        while True:
            try:
                await self.sweep()
            except asyncio.CancelledError:
                raise
            except Exception:  # the keeper never dies
                log.exception("the clock keeper's sweep failed")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), timeout=self.poll_seconds)
            self._wake.clear()

    async def sweep(self) -> int:
        """Play every time-out that is due; return how many were played here."""
        async with self.tables.sessions() as s:
            ids = (await s.scalars(select(TableClock.table_id).where(TableClock.due_at <= self.now())
                                   .order_by(TableClock.due_at).limit(100))).all()
        played = 0
        for table_id in ids:
            for _ in range(16):  # a simultaneous decision: each overdue seat in turn
                if not await self.expire(table_id):
                    break
                played += 1
        return played

    # -- keeping the clocks --------------------------------------------------------------------

    def _background(self, coro: Any) -> None:
        task = asyncio.create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _on_change(self, live: LiveTable, conn: Connection | None) -> None:
        """The hub's hook: a table changed (conn None), or a connection opened."""
        if live.status == "gathering" or (live.id in self._known and self._known[live.id] is None):
            return
        clock = self._known.get(live.id)
        if clock is not None and clock_stands(live, clock):
            message = self.message(live, clock)
            if conn is not None:
                conn.send(message)
            return
        self._background(self.refresh(live.id))

    def _remember(self, table_id: int, clock: Clock | None) -> None:
        self._known[table_id] = clock
        self._known.move_to_end(table_id)
        while len(self._known) > KNOWN_LIMIT:
            self._known.popitem(last=False)

    def kept(self) -> int:
        """The tables whose clocks this process keeps in memory now."""
        return sum(1 for clock in self._known.values() if clock is not None)

    async def clock(self, table_id: int) -> Clock | None:
        """The table's clocks at its current stored move (None: the table has no clock)."""
        return await self.refresh(table_id, announce=False)

    async def refresh(self, table_id: int, announce: bool = True) -> Clock | None:
        lock = self._locks.get(table_id)
        if lock is None:  # one refresh of a table at a time here; gone when nobody holds it
            lock = self._locks[table_id] = asyncio.Lock()
        async with lock:
            clock = await self._refresh(table_id)
        if clock is not None and announce:
            live = self.tables.cached(table_id)
            if live is not None and live.showable:
                self.hub.publish(table_id, self.message(live, clock))
        return clock

    async def _refresh(self, table_id: int) -> Clock | None:
        known = self._known.get(table_id)
        live = await self.tables.get(table_id)
        if live is None or live.status == "gathering" or not live.showable:
            return known
        if known is not None and clock_stands(live, known):
            return known
        held = bot_held(live)
        async with self.tables.sessions() as s:
            row = await s.get(TableClock, table_id)
            if row is None:
                self._remember(table_id, None)
                return None
            settings = ClockSettings.from_json(row.settings)
            seq, state = row.seq, dict(row.state)
            target = live.seq
            if seq < target or (seq < 0 and live.status != "gathering"):
                if seq < 0:
                    started = await s.scalar(select(GameTable.started_at).where(GameTable.id == table_id))
                    seats = [p.seat for p in live.players if p.seat is not None]
                    first = await self._first_awaited(live) if target > 0 else list(live.awaiting)
                    state = rules.begin(settings, seats, first, started or self.now(), held)
                    seq = 0
                moves = (await s.execute(
                    select(MoveRecord.seq, MoveRecord.seat, MoveRecord.created_at, MoveRecord.move,
                           cast(MoveRecord.events, Text).label("events"))  # as stored: see timed_out
                    .where(MoveRecord.table_id == table_id, MoveRecord.seq > seq, MoveRecord.seq <= target)
                    .order_by(MoveRecord.seq))).all()
                if moves and moves[-1].seq == target:
                    awaiting = live.awaiting if live.status == "playing" else []
                    for seat in sorted(held - rules.held_by_bots(state)):
                        # a seat that went to a bot before these moves were charged: its clock
                        # stopped by its bot's first move at the latest (no increment for that one)
                        bot_moved = next((m.created_at for m in moves if m.seat == seat), None)
                        if bot_moved is not None:
                            state = rules.hand_over(settings, state, rules.held_by_bots(state) | {seat}, (), bot_moved)
                    state = rules.advance(settings, state, [(m.seq, m.seat, m.created_at) for m in moves],
                                          awaiting, flagged={m.seq: m.seat for m in moves if timed_out(m.events)},
                                          taken_back={m.seq: m.move[TAKE_BACK_KEY] for m in moves
                                                      if is_take_back(m.move)},
                                          points=offers_take_backs(live.engine))
                    seq = target
                elif target == 0:
                    seq = 0
            handed = seq == target and live.status == "playing" and rules.held_by_bots(state) != held
            if handed:  # a seat changed hands since the clocks were written: stop or restart its clock
                state = rules.hand_over(settings, state, held, live.awaiting, self.now())
            if seq > row.seq or handed:
                due = rules.due(settings, state) if live.status == "playing" else None
                newer = TableClock.seq < seq if seq > row.seq else TableClock.seq == seq
                res = await s.execute(update(TableClock).where(TableClock.table_id == table_id, newer)
                                      .values(seq=seq, state=state, due_at=due))
                await s.commit()
                if res.rowcount != 1:  # another process wrote a newer state: take it
                    await s.refresh(row)
                    seq, state = row.seq, dict(row.state)
                else:
                    self._wake.set()
        # The take-back points stay in the row: what is remembered here only shows and times out.
        clock = Clock(settings, {k: v for k, v in state.items() if k != "points"}, seq)
        self._remember(table_id, clock)
        return clock

    async def _first_awaited(self, live: LiveTable) -> list[int]:
        """The seats awaited at the start (a table whose clock row missed the start)."""
        from app.play.live import new_state

        return sorted(live.engine.to_act(new_state(live)))

    def message(self, live: LiveTable, clock: Clock) -> dict[str, Any]:
        return {"type": "clock", "seq": clock.seq, "clock": self.public(live, clock)}

    def public(self, live: LiveTable, clock: Clock) -> dict[str, Any]:
        seats = [p.seat for p in live.players if p.seat is not None]
        shown = rules.public(clock.settings, clock.state, seats, self.now())
        if live.status == "finished":
            for seat in shown["seats"]:
                seat["running"] = False
        return shown

    # -- time-outs -----------------------------------------------------------------------------

    async def expire(self, table_id: int) -> bool:
        """Play one overdue seat's move, if one is overdue now; True if this process played it.
        One time-out of a table at a time here: the keeper's loop and a second caller never both
        ask a bot for the same seat (and the one refused never drops the other's time-out mark)."""
        lock = self._expiring.get(table_id)
        if lock is None:
            lock = self._expiring[table_id] = asyncio.Lock()
        async with lock:
            return await self._expire(table_id)

    async def _expire(self, table_id: int) -> bool:
        clock = await self.refresh(table_id)
        if clock is None:
            return False
        now = self.now()
        async with self.tables.hold(table_id) as live:
            if live is None or live.status != "playing" or clock.seq != live.seq or not live.showable:
                return False
            bots = bot_held(live)  # a bot answers by itself: its seat is never timed out
            overdue = [s for s in live.awaiting if s not in bots
                       and (end := rules.seat_due(clock.settings, clock.state, s)) is not None and end <= now]
            if not overdue:
                return False
            seat, seq, engine = overdue[0], live.seq, live.engine
            legal = engine.legal_moves(live.state, seat)
            player = next((p for p in live.players if p.seat == seat), None)
            if not legal or player is None:
                return False
            level = clock.settings.on_timeout.removeprefix("bot_")
            game = live.game
            encoded = orjson.dumps(engine.encode(live.state)) if level != "pass" and plays_bots(engine) else None
        move = await self._choose(game, encoded, seat, level, legal)
        try:  # stored marked as a time-out's: it spends the seat's time, and is never taken back
            await self.mover.play(live, player, seq, move, timeout=True)
        except ApiError as err:  # another process played it, or a move or a take-back came first
            log.info("time-out of seat %s at table %s, seq %s, not played: %s", seat, table_id, seq, err.error)
            return False
        self.played += 1
        log.info("clock: time-out played for seat %s of table %s at seq %s (%s)", seat, table_id, seq + 1,
                 clock.settings.on_timeout)
        await self.refresh(table_id)
        return True

    async def _choose(self, game: str, encoded: bytes | None, seat: int, level: str, legal: list[Any]) -> Any:
        """The time-out's move: a bot's, from the bot pool like any bot's decision (a worker
        process searches the seat's determinization, bounded in wall time), where the game has
        bots; else, or if the bot fails, a pass or the first listed move."""
        if encoded is None:
            return timeout_move(legal)
        try:
            move = await self.bots.decide("clock", game, seat, level, time.monotonic() + self.think_seconds,
                                          lambda: encoded)
        except Exception:
            log.exception("the bot could not choose a time-out move; passing instead")
            return timeout_move(legal)
        return move if move in legal else timeout_move(legal)
