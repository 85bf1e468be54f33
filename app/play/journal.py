"""The move journal: appends accepted moves to the database with group commit.

Moves that arrive while a commit is in flight are written together in the next transaction,
so under load one commit carries many moves, and an idle server commits each move at once
(no artificial delay); SQLite's journal also gathers the moves of one pass of the event loop
(see ``SqliteJournal``). A move's sender is answered, and its views are sent, only after the
commit that holds it. The journal talks to the database driver directly: the hot path has
no ORM and exactly one transaction per batch.

``append`` answers False when the (table, seq) slot is already taken — another server
process stored a move there first.

One bad write never fails its batch: everything is encoded before it is queued (a move that
cannot be encoded is refused before it touches the game), and when a batch's transaction fails
anyway, its writes are retried one per transaction, so only the failing one fails. A batch is
written in (table, seq) order: two processes inserting the same moves lock them in the same
order and never deadlock.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import queue
import sqlite3
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import orjson
from sqlalchemy.engine import make_url

from app.play.notify import CHANNEL, Notifier
from app.server import background
from app.server.config import async_url, is_postgres
from app.server.metrics import RecentTimes, now
from app.storage.models import utcnow

log = logging.getLogger("parlour.journal")


def dumps(value: Any) -> str:
    return orjson.dumps(value).decode()


@dataclass
class MoveWrite:
    """One accepted move, already encoded as JSON text (so writing it cannot fail on encoding)."""

    table_id: int
    seq: int
    seat: int
    move: str  # the canonical move
    events: str
    snapshot: str | None = None  # engine state after the move, now and then
    result: str | None = None  # set on the move that ends the game
    created_at: datetime = field(default_factory=utcnow)
    parsed: list[dict[str, Any]] | None = None  # ``events`` before encoding, for the live log

    def carried(self) -> str:
        """The move as another process applies it: [seq, seat, move, events]."""
        return f"[{self.seq},{self.seat},{self.move},{self.events}]"


class Journal:
    def __init__(self, notifier: Notifier) -> None:
        self.notifier = notifier
        self._queue: asyncio.Queue[tuple[MoveWrite, asyncio.Future[bool]]] = asyncio.Queue()
        self._task: asyncio.Task[None] | None = None
        self.batches = 0
        self.moves = 0
        self.on_loop = 0  # batches written on the event loop itself (SQLite, when its lock was free)
        self.write_times = RecentTimes()  # a batch's transaction, from its start to its commit
        self._writing = False  # a batch is being written

    async def start(self) -> None:
        await self._open()
        self._task = asyncio.create_task(self._run())

    async def stop(self) -> None:
        await background.stop(self._task)
        await self._close()

    async def append(self, write: MoveWrite) -> bool:
        fut: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        self._queue.put_nowait((write, fut))
        return await fut

    async def insert_once(self, rows: Sequence[tuple[str, tuple[Any, ...]]]) -> bool | None:
        """Rows beside a table's moves (a line of its log, a count) stored together in one short
        transaction the way a move is, so that they never hold the database's write lock across
        the loop's other work while moves wait for it. True: stored; False: a unique key found
        them there already (nothing stored). None: this journal stores no such rows, the caller's
        own session does (PostgreSQL's row locks hold no other table's moves back)."""
        return None

    async def _run(self) -> None:
        while True:
            batch = [await self._queue.get()]
            while not self._queue.empty():
                batch.append(self._queue.get_nowait())
            self._writing = True
            try:
                await self._commit(batch)
            except Exception as exc:  # never let the journal's loop die: answer, and go on
                log.exception("the journal failed on a batch")
                for _, fut in batch:
                    _settle(fut, None, exc)
            finally:
                self._writing = False

    async def _commit(self, batch: list[tuple[MoveWrite, asyncio.Future[bool]]]) -> None:
        batch.sort(key=lambda item: (item[0].table_id, item[0].seq))
        try:
            started = now()
            stored = await self._write_retrying([w for w, _ in batch])
            took = now() - started
        except Exception as exc:
            if len(batch) == 1:
                log.exception("writing a move failed")
                _settle(batch[0][1], None, exc)
                return
            # Isolate the failing write: each again in a transaction of its own.
            log.warning("writing %d moves together failed (%s); writing them one by one", len(batch), exc)
            for item in batch:
                await self._commit([item])
            return
        self._wrote(len(batch), took)
        for (_, fut), ok in zip(batch, stored, strict=True):
            _settle(fut, ok, None)

    def _wrote(self, moves: int, seconds: float) -> None:
        """One transaction stored ``moves`` moves in ``seconds``, queued or at once."""
        self.write_times.record(seconds)
        self.batches += 1
        self.moves += moves

    async def _write_retrying(self, batch: list[MoveWrite]) -> list[bool]:
        """A transaction that failed for a passing reason (a deadlock, a connection dropped by a
        restarted database) is tried again, a few times: nothing of it was stored."""
        for attempt in range(3):
            try:
                return await self._write(batch)
            except Exception as exc:
                if attempt == 2 or not self._transient(exc):
                    raise
                log.warning("a commit failed (%s); trying again", exc)
                await asyncio.sleep(0.05 * (attempt + 1))
        raise AssertionError("unreachable")

    def _transient(self, exc: Exception) -> bool:
        return False

    async def _open(self) -> None:
        raise NotImplementedError

    async def _close(self) -> None:
        raise NotImplementedError

    async def _write(self, batch: list[MoveWrite]) -> list[bool]:
        raise NotImplementedError


class SqliteJournal(Journal):
    """A batch is written on the event loop itself, when the database's write lock is free at
    once: an SQLite commit in WAL mode without fsync costs tens of microseconds, less than the
    hop to a thread and back, whose thread then waited for the interpreter lock behind the loop
    at every call (a move's commit p99 8 ms under load). When another connection holds the lock
    (a chat line, a join, another process), the batch goes to the journal's thread, which waits
    for it there and never on the loop.

    The moves of one pass of the loop (its ready callbacks, run one after the other) are gathered
    and committed together when the pass ends, by a callback queued behind them: a saturated
    loop handles many tables' moves in one pass (ten tables playing flat out: eight to ten), and
    an SQLite commit's locks and WAL frames cost about as much as its rows (57 µs for a move
    alone, 25 µs a move eight together, on the moves table). A lone move waits one pass, not a
    hop to the journal's task and back (which had added ~10 ms to the round trip's p99 under
    load); at 100 tables flat out the round trip's p99 fell from 144 to 81 ms with it (docs/PERFORMANCE.md).

    The WAL is checkpointed on that thread, never inside a move's commit: every
    ``CHECKPOINT_EVERY`` moves a PASSIVE checkpoint copies the WAL's pages into the database and
    syncs it while moves go on being written (SQLite's own automatic checkpoint ran inside the
    commit that crossed 1,000 pages, and every move of the batch waited for its fsync: the
    commit's p99 was 20 ms under load). Writers that go on leave each such checkpoint a few pages
    short, so the WAL never starts over; once it holds ``WAL_RESTART_FRAMES`` pages, writers
    pause for one more checkpoint, short since nearly everything is copied, and the next write
    starts the WAL over."""

    CHECKPOINT_EVERY = 256  # moves written between two background checkpoints
    WAL_RESTART_FRAMES = 8192  # pages (32 MB) the WAL may hold before writers pause for it to start over

    INSERT_MOVE = ("INSERT INTO moves (table_id, seq, seat, move, events, created_at) VALUES (?, ?, ?, ?, ?, ?) "
                   "ON CONFLICT (table_id, seq) DO NOTHING")
    INSERT_SNAPSHOT = ("INSERT INTO snapshots (table_id, seq, state) VALUES (?, ?, ?) "
                       "ON CONFLICT (table_id, seq) DO NOTHING")
    FINISH = "UPDATE tables SET status = 'finished', seq = ?, result = ?, finished_at = ? WHERE id = ?"

    def __init__(self, url: str, notifier: Notifier) -> None:
        super().__init__(notifier)
        self.path = make_url(async_url(url)).database or ":memory:"
        # A thread of its own with a plain queue, not an executor: a batch's hand-off is one
        # put and one call_soon_threadsafe, without the executor's futures, locks and chaining.
        self._calls: queue.SimpleQueue[tuple[Callable[..., Any], tuple[Any, ...], asyncio.Future[Any]] | None] = (
            queue.SimpleQueue())
        self._thread: threading.Thread | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._conn: sqlite3.Connection | None = None  # the thread's, waiting for the lock as long as needed
        self._fast: sqlite3.Connection | None = None  # the loop's, never waiting
        self._since_checkpoint = 0
        self._checkpointing = False  # a checkpoint is on the thread
        self._pausing = False  # and writers wait for it there
        self._gathered: list[tuple[MoveWrite, asyncio.Future[bool]]] = []  # this pass's moves

    def _serve(self) -> None:
        """The journal's thread: runs what it is handed, in order, and answers on the loop."""
        loop = self._loop
        assert loop is not None
        while (call := self._calls.get()) is not None:
            fn, args, fut = call
            try:
                result = fn(*args)
            except BaseException as exc:  # handed back to the awaiting coroutine
                loop.call_soon_threadsafe(_settle, fut, None, exc)
            else:
                loop.call_soon_threadsafe(_settle, fut, result, None)

    def _call(self, fn: Callable[..., Any], *args: Any) -> asyncio.Future[Any]:
        assert self._loop is not None
        fut = self._loop.create_future()
        self._calls.put((fn, args, fut))
        return fut

    def _connect(self, busy_ms: int, autocheckpoint: bool) -> sqlite3.Connection:
        conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=NORMAL")
        conn.execute(f"PRAGMA busy_timeout={busy_ms}")
        if not autocheckpoint:
            conn.execute("PRAGMA wal_autocheckpoint=0")
        return conn

    async def _open(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._thread = threading.Thread(target=self._serve, name="journal", daemon=True)
        self._thread.start()
        self._conn = await self._call(self._connect, 30000, True)
        if self.path != ":memory:":  # (an in-memory database is one connection's own)
            self._fast = self._connect(0, False)

    async def append(self, write: MoveWrite) -> bool:
        if self._fast is None or self._pausing or self._writing or not self._queue.empty():
            return await super().append(write)
        if not self._gathered:  # the first move of this pass: the pass's end commits them all
            asyncio.get_running_loop().call_soon(self._end_pass)
        fut: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        self._gathered.append((write, fut))
        return await fut

    def _end_pass(self) -> None:
        """The loop's pass is over: its gathered moves are committed together, on the loop when
        the write lock is free at once; otherwise (or when that commit fails) they go to the
        journal's task, which waits for the lock on the thread, retries and isolates a failure."""
        batch, self._gathered = self._gathered, []
        if not batch:
            return
        if self._fast is not None and not self._pausing and not self._writing and self._queue.empty():
            batch.sort(key=lambda item: (item[0].table_id, item[0].seq))
            started = now()
            try:
                stored = self._write_on(self._fast, [w for w, _ in batch])
            except Exception as exc:
                if not self._transient(exc):
                    log.warning("writing %d gathered moves failed (%s); the journal's task retries them",
                                len(batch), exc)
            else:
                self._wrote_on_loop(len(batch))
                self._wrote(len(batch), now() - started)
                for (_, fut), ok in zip(batch, stored, strict=True):
                    _settle(fut, ok, None)
                return
        for item in batch:
            self._queue.put_nowait(item)

    async def stop(self) -> None:
        self._end_pass()  # nothing gathered is left unanswered
        await super().stop()

    async def _close(self) -> None:
        if self._thread is None:
            return
        if self._fast is not None:
            self._fast.close()
            self._fast = None
        if self._conn is not None:
            await self._call(self._conn.close)
        self._calls.put(None)
        await asyncio.get_running_loop().run_in_executor(None, self._thread.join)

    async def insert_once(self, rows: Sequence[tuple[str, tuple[Any, ...]]]) -> bool | None:
        """On the loop when the write lock is free (a few inserts, no waiting), else on the
        journal's thread behind the moves it is writing."""
        if self._fast is not None and not self._pausing:
            try:
                return self._insert_on(self._fast, rows)
            except sqlite3.OperationalError as exc:
                if not self._transient(exc):
                    raise
        stored: bool = await self._call(self._insert_on, self._conn, rows)
        return stored

    @staticmethod
    def _insert_on(conn: sqlite3.Connection | None, rows: Sequence[tuple[str, tuple[Any, ...]]]) -> bool:
        assert conn is not None
        conn.execute("BEGIN IMMEDIATE")
        try:
            for sql, params in rows:
                conn.execute(sql, params)
            conn.execute("COMMIT")
        except sqlite3.IntegrityError:
            conn.execute("ROLLBACK")
            return False
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        return True

    def _wrote_on_loop(self, moves: int) -> None:
        self.on_loop += 1
        self._since_checkpoint += moves
        if self._since_checkpoint >= self.CHECKPOINT_EVERY and not self._checkpointing:
            self._checkpoint_later()

    async def _write(self, batch: list[MoveWrite]) -> list[bool]:
        if self._fast is not None and not self._pausing:
            try:
                stored = self._write_on(self._fast, batch)
            except sqlite3.OperationalError as exc:
                if not self._transient(exc):
                    raise
            else:
                self._wrote_on_loop(len(batch))
                return stored
        thread_stored: list[bool] = await self._call(self._write_on, self._conn, batch)
        return thread_stored

    def _checkpoint_later(self, pause: bool = False) -> None:
        """Copy the WAL's pages into the database on the journal's thread, as far as no reader
        needs them (PASSIVE); with ``pause``, the batches that come meanwhile queue behind it on
        the thread, so that it copies everything and the next write starts the WAL over."""
        assert self._conn is not None
        self._since_checkpoint = 0
        self._checkpointing = True
        self._pausing = pause
        done = self._call(self._checkpoint_now, self._conn)

        def settled(fut: asyncio.Future[tuple[int, int, int]]) -> None:
            self._checkpointing = self._pausing = False
            if fut.cancelled():
                return
            if fut.exception() is not None:
                log.warning("checkpointing the WAL failed: %s", fut.exception())
                return
            _busy, frames, _copied = fut.result()
            if not pause and frames >= self.WAL_RESTART_FRAMES:
                self._checkpoint_later(pause=True)

        done.add_done_callback(settled)

    @staticmethod
    def _checkpoint_now(conn: sqlite3.Connection) -> tuple[int, int, int]:
        # fetched to the end: a statement left open would hold a read of the WAL, which then
        # could never start over
        busy, frames, copied = conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
        return busy, frames, copied

    def _transient(self, exc: Exception) -> bool:
        return isinstance(exc, sqlite3.OperationalError) and "locked" in str(exc)

    def _write_on(self, conn: sqlite3.Connection | None, batch: list[MoveWrite]) -> list[bool]:
        assert conn is not None
        stored: list[bool] = []
        conn.execute("BEGIN IMMEDIATE")
        try:
            for w in batch:
                stamp = w.created_at.isoformat(sep=" ")
                cur = conn.execute(self.INSERT_MOVE, (w.table_id, w.seq, w.seat, w.move, w.events, stamp))
                ok = cur.rowcount == 1
                stored.append(ok)
                if not ok:
                    continue
                if w.snapshot is not None:
                    conn.execute(self.INSERT_SNAPSHOT, (w.table_id, w.seq, w.snapshot))
                if w.result is not None:
                    conn.execute(self.FINISH, (w.seq, w.result, stamp, w.table_id))
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        return stored


class PostgresJournal(Journal):
    """One psycopg connection; a batch is one transaction, NOTIFY included (sent at commit)."""

    INSERT_MOVE = ("INSERT INTO moves (table_id, seq, seat, move, events, created_at) "
                   "VALUES (%s, %s, %s, %s::json, %s::json, %s) ON CONFLICT (table_id, seq) DO NOTHING")
    INSERT_SNAPSHOT = ("INSERT INTO snapshots (table_id, seq, state) VALUES (%s, %s, %s::json) "
                       "ON CONFLICT (table_id, seq) DO NOTHING")
    FINISH = ("UPDATE tables SET status = 'finished', seq = %s, result = %s::json, finished_at = %s "
              "WHERE id = %s")

    def __init__(self, url: str, notifier: Notifier) -> None:
        super().__init__(notifier)
        self.dsn = async_url(url).replace("postgresql+psycopg://", "postgresql://", 1)
        self._conn: Any = None

    async def _open(self) -> None:
        import psycopg

        self._conn = await psycopg.AsyncConnection.connect(self.dsn)

    async def _close(self) -> None:
        if self._conn is not None:
            with contextlib.suppress(Exception):
                await self._conn.close()

    def _transient(self, exc: Exception) -> bool:
        import psycopg

        # A dropped connection, a deadlock or a serialization failure (both TransactionRollback).
        return isinstance(exc, psycopg.OperationalError)

    async def _write(self, batch: list[MoveWrite]) -> list[bool]:
        import psycopg

        if self._conn is None or self._conn.closed:
            self._conn = await psycopg.AsyncConnection.connect(self.dsn)
        conn = self._conn
        stored: list[bool] = []
        carried: dict[int, list[MoveWrite]] = {}
        try:
            async with conn.transaction(), conn.cursor() as cur:
                for w in batch:
                    await cur.execute(self.INSERT_MOVE, (w.table_id, w.seq, w.seat, w.move, w.events,
                                                         w.created_at))
                    ok = cur.rowcount == 1
                    stored.append(ok)
                    if not ok:
                        continue
                    carried.setdefault(w.table_id, []).append(w)
                    if w.snapshot is not None:
                        await cur.execute(self.INSERT_SNAPSHOT, (w.table_id, w.seq, w.snapshot))
                    if w.result is not None:
                        await cur.execute(self.FINISH, (w.seq, w.result, w.created_at, w.table_id))
                for table_id, writes in carried.items():
                    # The moves ride along, so other processes apply them without reading them
                    # back; past NOTIFY's 8000-byte limit they read them from the table instead.
                    note = dumps({"p": self.notifier.process_id, "t": table_id, "k": "moves",
                                  "seq": writes[-1].seq})
                    payload = note[:-1] + ',"m":[' + ",".join(w.carried() for w in writes) + "]}"
                    if len(payload.encode()) > 7900:
                        payload = note
                    await cur.execute("SELECT pg_notify(%s, %s)", (CHANNEL, payload))
        except psycopg.OperationalError:
            if conn.broken:  # a restarted database: connect again for the next try
                with contextlib.suppress(Exception):
                    await conn.close()
            raise
        return stored


def _settle(fut: asyncio.Future[Any], result: Any, exc: BaseException | None) -> None:
    """Answer an awaited call: a move's writer, or a call handed to the journal's thread."""
    if fut.done():  # its awaiter was cancelled
        return
    if exc is not None:
        fut.set_exception(exc)
    else:
        fut.set_result(result)


def make_journal(url: str, notifier: Notifier) -> Journal:
    return PostgresJournal(url, notifier) if is_postgres(url) else SqliteJournal(url, notifier)
