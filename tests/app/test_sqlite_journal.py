"""SQLite's journal writes a batch on the event loop when the write lock is free, waits for a
held lock on its own thread (never on the loop), and keeps the WAL small with checkpoints of its
own, outside the commits made on the loop (app/play/journal.py)."""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
import time
from collections.abc import AsyncIterator
from pathlib import Path

from sqlalchemy.engine import make_url

from app.play.journal import MoveWrite, SqliteJournal
from app.play.notify import Notifier
from tests.app.test_journal_support import make_table_rows


def database_file(url: str) -> str:
    path = make_url(url).database
    assert path
    return path


def stored_seqs(url: str, table_id: int) -> list[int]:
    with sqlite3.connect(database_file(url)) as conn:
        return [row[0] for row in conn.execute("SELECT seq FROM moves WHERE table_id = ? ORDER BY seq", (table_id,))]


async def test_a_batch_is_written_on_the_loop_when_the_write_lock_is_free(sqlite_url):
    (table,) = await make_table_rows(sqlite_url, 1)
    journal = SqliteJournal(sqlite_url, Notifier())
    await journal.start()
    try:
        for seq in range(1, 6):
            assert await journal.append(MoveWrite(table, seq, 0, '{"type":"pass"}', "[]"))
        assert not await journal.append(MoveWrite(table, 3, 0, '{"type":"pass"}', "[]"))  # seq 3 is taken
    finally:
        await journal.stop()
    assert journal.on_loop == journal.batches >= 1
    assert stored_seqs(sqlite_url, table) == [1, 2, 3, 4, 5]


@contextlib.asynccontextmanager
async def journal_beside_another_connection(url: str) -> AsyncIterator[tuple[SqliteJournal, int, sqlite3.Connection]]:
    """A running journal, one table's row, and another connection to the same database (a chat
    line, another process) that may take the write lock."""
    (table,) = await make_table_rows(url, 1)
    journal = SqliteJournal(url, Notifier())
    await journal.start()
    other = sqlite3.connect(database_file(url), isolation_level=None, check_same_thread=False)
    try:
        yield journal, table, other
    finally:
        other.close()
        await journal.stop()


async def test_a_lone_move_with_the_write_lock_free_is_committed_on_the_loop_when_its_pass_ends(sqlite_url):
    async with journal_beside_another_connection(sqlite_url) as (journal, table, other):
        ticked = asyncio.Event()
        asyncio.get_running_loop().call_later(0.001, ticked.set)
        assert await journal.append(MoveWrite(table, 1, 0, '{"type":"pass"}', "[]"))
        assert not ticked.is_set()  # no timer had its turn: the move waited one pass, not for the thread
        assert journal.batches == journal.on_loop == 1
        # with the lock held elsewhere, the move is queued for the journal's task instead
        other.execute("BEGIN IMMEDIATE")
        queued = asyncio.create_task(journal.append(MoveWrite(table, 2, 0, '{"type":"pass"}', "[]")))
        await asyncio.sleep(0.05)
        assert not queued.done()
        other.execute("COMMIT")
        assert await asyncio.wait_for(queued, 10)
    assert journal.batches == 2 and journal.on_loop == 1  # the queued one went by the thread
    assert stored_seqs(sqlite_url, table) == [1, 2]


async def test_a_write_lock_held_elsewhere_is_waited_for_on_the_journals_thread_while_the_loop_goes_on(sqlite_url):
    async with journal_beside_another_connection(sqlite_url) as (journal, table, other):
        other.execute("BEGIN IMMEDIATE")  # another connection (a chat line, another process) writes
        ticks = 0

        async def ticking() -> None:
            nonlocal ticks
            while True:
                await asyncio.sleep(0.01)
                ticks += 1

        ticker = asyncio.create_task(ticking())
        appended = asyncio.create_task(journal.append(MoveWrite(table, 1, 0, '{"type":"pass"}', "[]")))
        await asyncio.sleep(0.5)
        assert not appended.done()  # waiting for the lock ...
        assert ticks >= 20, ticks  # ... not on the loop
        other.execute("COMMIT")
        assert await asyncio.wait_for(appended, 10)
        ticker.cancel()
    assert journal.on_loop == 0 and journal.batches == 1
    assert stored_seqs(sqlite_url, table) == [1]


ASK = "INSERT INTO hints_asked (table_id, seat, seq, created_at) VALUES (?, ?, ?, '2026-12-02 00:00:00')"
LINE = "INSERT INTO seat_changes (table_id, seq, seat, text, created_at) VALUES (?, ?, ?, ?, '2026-12-02 00:00:00')"


def asks_and_lines(url: str, table_id: int) -> tuple[int, int]:
    with sqlite3.connect(database_file(url)) as conn:
        asks = conn.execute("SELECT count(*) FROM hints_asked WHERE table_id = ?", (table_id,)).fetchone()[0]
        lines = conn.execute("SELECT count(*) FROM seat_changes WHERE table_id = ?", (table_id,)).fetchone()[0]
    return asks, lines


async def test_rows_beside_the_moves_are_stored_together_once_on_the_loop_a_unique_key_refusing_them_all(sqlite_url):
    async with journal_beside_another_connection(sqlite_url) as (journal, table, _):
        rows = [(ASK, (table, 0, 7)), (LINE, (table, 7, 0, "Ada asked for a hint."))]
        assert await journal.insert_once(rows) is True
        # the same ask again: its unique key refuses it, and the line with it (one transaction)
        assert await journal.insert_once(rows) is False
        line_first = [(LINE, (table, 8, 0, "Ada asked for a hint.")), (ASK, (table, 0, 7))]
        assert await journal.insert_once(line_first) is False  # the ask refused after the line: both undone
    assert asks_and_lines(sqlite_url, table) == (1, 1)


async def test_rows_beside_the_moves_wait_for_a_lock_held_elsewhere_on_the_journals_thread(sqlite_url):
    async with journal_beside_another_connection(sqlite_url) as (journal, table, other):
        other.execute("BEGIN IMMEDIATE")
        stored = asyncio.create_task(journal.insert_once([(ASK, (table, 1, 3))]))
        await asyncio.sleep(0.3)
        assert not stored.done()  # waiting on the thread, the loop free
        other.execute("COMMIT")
        assert await asyncio.wait_for(stored, 10) is True
    assert asks_and_lines(sqlite_url, table) == (1, 0)


async def test_the_wal_is_checkpointed_on_the_journals_thread_and_starts_over_at_its_limit(sqlite_url):
    tables = await make_table_rows(sqlite_url, 10)
    journal = SqliteJournal(sqlite_url, Notifier())
    journal.CHECKPOINT_EVERY, journal.WAL_RESTART_FRAMES = 64, 512  # 2 MB of 4 KB pages
    await journal.start()
    events = '[{"text":"' + "x" * 2000 + '"}]'  # about a page a move
    wal = Path(database_file(sqlite_url) + "-wal")
    largest = 0
    try:
        for seq in range(1, 1801):
            await asyncio.gather(*(journal.append(MoveWrite(t, seq, 0, '{"type":"pass"}', events)) for t in tables))
            largest = max(largest, wal.stat().st_size)
            if seq % 10 == 0:  # a checkpoint on the thread meanwhile is let finish: how many moves
                # this loop, busier than a server's ever is, writes during one depends on how fast the
                # disk syncs (a fixed pause made the test fail on a machine whose disk syncs slowly)
                for _ in range(500):
                    await asyncio.sleep(0.01)
                    if not journal._checkpointing:
                        break
    finally:
        await journal.stop()
    # 18,000 moves of ~2 KB wrote ~36 MB: without checkpoints the WAL would hold all of it, and
    # without writers pausing at the limit it would never start over (the limit is 2 MB; the
    # moves written while the background checkpoint reaches it come on top)
    assert largest < 10 * 2**20, f"the WAL grew to {largest / 2**20:.1f} MB"
    # moves went on being written on the loop during the background checkpoints
    assert journal.on_loop >= journal.batches * 0.8, (journal.on_loop, journal.batches)
    assert all(stored_seqs(sqlite_url, t) == list(range(1, 1801)) for t in tables)


def test_a_commit_on_the_loop_is_quick(tmp_path):
    """The reason to write on the loop at all: an SQLite commit in WAL mode without fsync takes
    well under a millisecond (median of 200)."""
    conn = sqlite3.connect(tmp_path / "quick.db", isolation_level=None)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=NORMAL")
    conn.execute("CREATE TABLE moves (seq INTEGER PRIMARY KEY, move TEXT)")
    took = []
    for seq in range(200):
        started = time.perf_counter()
        conn.execute("BEGIN IMMEDIATE")
        conn.execute("INSERT INTO moves VALUES (?, ?)", (seq, '{"type":"pass"}'))
        conn.execute("COMMIT")
        took.append(time.perf_counter() - started)
    assert sorted(took)[100] < 0.002


async def test_the_moves_of_one_pass_of_the_loop_are_committed_together(sqlite_url):
    tables = await make_table_rows(sqlite_url, 6)
    journal = SqliteJournal(sqlite_url, Notifier())
    await journal.start()
    try:
        # six tables' moves handled in one pass, as a saturated loop does: one commit
        stored = await asyncio.gather(*(journal.append(MoveWrite(t, 1, 0, '{"type":"pass"}', "[]"))
                                        for t in tables))
        assert stored == [True] * 6
        assert (journal.batches, journal.moves, journal.on_loop) == (1, 6, 1)
        # a taken seq among them is refused alone; the others are stored
        taken = await asyncio.gather(journal.append(MoveWrite(tables[1], 2, 0, '{"type":"pass"}', "[]")),
                                     journal.append(MoveWrite(tables[2], 1, 0, '{"type":"pass"}', "[]")),
                                     journal.append(MoveWrite(tables[3], 2, 0, '{"type":"pass"}', "[]")))
        assert taken == [True, False, True]
        assert (journal.batches, journal.moves) == (2, 9)
    finally:
        await journal.stop()
    assert [stored_seqs(sqlite_url, t) for t in tables] == [[1], [1, 2], [1], [1, 2], [1], [1]]


async def test_moves_gathered_in_a_pass_wait_on_the_thread_when_another_connection_holds_the_lock(sqlite_url):
    async with journal_beside_another_connection(sqlite_url) as (journal, table, other):
        gathered = asyncio.ensure_future(journal.append(MoveWrite(table, 1, 0, '{"type":"pass"}', "[]")))
        other.execute("BEGIN IMMEDIATE")  # before the pass ends, the lock is taken elsewhere
        await asyncio.sleep(0.3)
        assert not gathered.done()
        other.execute("COMMIT")
        assert await asyncio.wait_for(gathered, 10)
        assert journal.on_loop == 0 and journal.batches == 1  # it went by the thread
    assert stored_seqs(sqlite_url, table) == [1]


async def test_moves_gathered_when_the_journal_stops_are_stored_and_answered(sqlite_url):
    (table,) = await make_table_rows(sqlite_url, 1)
    journal = SqliteJournal(sqlite_url, Notifier())
    await journal.start()
    appended = asyncio.ensure_future(journal.append(MoveWrite(table, 1, 0, '{"type":"pass"}', "[]")))
    await asyncio.sleep(0)  # gathered; its pass has not ended
    await journal.stop()
    assert appended.done() and appended.result() is True
    assert stored_seqs(sqlite_url, table) == [1]
