"""SIGTERM, as a rolling restart sends it: the process stops taking sockets, finishes the move
in hand, answers it, closes its sockets with 1012 (the page reconnects: behind a proxy, to a
replica that stays) and exits within a bound. Real server processes on one PostgreSQL; a move is
held "in flight" by locking the moves table, so the signal lands while it is being stored."""

from __future__ import annotations

import asyncio
import contextlib
import signal
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import httpx
import orjson
import psycopg
import pytest
import websockets
from websockets.exceptions import ConnectionClosed

from tests.support.play import awaited_token, moves_of, started_table
from tests.support.server import ServerProcess

pytestmark = pytest.mark.pg

EXIT_BOUND = 10.0  # seconds from SIGTERM to exit: what a container is given before SIGKILL
IDLE_CLOSE_BOUND = 1.0  # seconds for an idle socket to be told to reconnect


def plain_dsn(url: str) -> str:
    return url.replace("postgresql+psycopg://", "postgresql://", 1)


@contextmanager
def moves_locked(url: str) -> Iterator[psycopg.Connection[Any]]:
    """Hold every insert into the moves table until the block ends (the lock's commit)."""
    with psycopg.connect(plain_dsn(url)) as conn:
        conn.execute("LOCK TABLE moves IN EXCLUSIVE MODE")
        yield conn
        conn.commit()


def wait_for_blocked_insert(url: str, timeout: float = 10) -> None:
    deadline = time.monotonic() + timeout
    with psycopg.connect(plain_dsn(url), autocommit=True) as conn:
        while time.monotonic() < deadline:
            row = conn.execute("SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' "
                               "AND query LIKE 'INSERT INTO moves%'").fetchone()
            if row and row[0]:
                return
            time.sleep(0.02)
    raise AssertionError("the move never reached the database")


def stored_seqs(url: str, code: str) -> list[int]:
    with psycopg.connect(plain_dsn(url)) as conn:
        rows = conn.execute("SELECT m.seq FROM moves m JOIN tables t ON t.id = m.table_id WHERE t.code = %s "
                            "ORDER BY m.seq", (code,)).fetchall()
    return [r[0] for r in rows]


async def next_message(ws: Any, timeout: float = 10) -> dict[str, Any]:
    return dict(orjson.loads(await asyncio.wait_for(ws.recv(), timeout)))


async def view_at(ws: Any, seq: int, timeout: float = 10) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while True:
        msg = await next_message(ws, deadline - time.monotonic())
        if msg["type"] == "view" and msg["seq"] >= seq:
            return msg


async def messages_until_closed(ws: Any, timeout: float = 15) -> tuple[list[dict[str, Any]], int | None, float]:
    """Every message until the server closes the socket; the close code, and when it came."""
    seen: list[dict[str, Any]] = []
    deadline = time.monotonic() + timeout
    try:
        while True:
            seen.append(await next_message(ws, deadline - time.monotonic()))
    except ConnectionClosed as closed:
        return seen, closed.rcvd.code if closed.rcvd else None, time.monotonic()


def refuses_connections(server: ServerProcess) -> bool:
    try:
        httpx.get(f"{server.base}/healthz", timeout=1)
    except httpx.ConnectError:
        return True
    return False


def test_sigterm_finishes_the_move_in_flight_answers_it_then_closes_with_1012(postgres_url, server_factory):
    a = server_factory(postgres_url)
    b = server_factory(postgres_url)
    with httpx.Client(base_url=a.base) as c:
        t = started_table(c, ("Ada", "Bob"), target=51)
        mover, seq = awaited_token(c, t)
    other = next(tok for tok in t["tokens"] if tok != mover)

    async def scenario() -> dict[str, Any]:
        figures: dict[str, Any] = {}
        async with websockets.connect(f"ws://127.0.0.1:{a.port}/ws/seats/{mover}") as on_a, \
                websockets.connect(f"ws://127.0.0.1:{a.port}/ws/watch/{t['code']}") as watcher, \
                websockets.connect(f"ws://127.0.0.1:{b.port}/ws/seats/{other}") as on_b:
            move = moves_of(await view_at(on_a, seq))[0]
            await view_at(watcher, seq)
            await view_at(on_b, seq)
            with moves_locked(postgres_url):
                await on_a.send(orjson.dumps({"type": "move", "seq": seq, "move": move}).decode())
                await asyncio.to_thread(wait_for_blocked_insert, postgres_url)
                a.proc.send_signal(signal.SIGTERM)
                termed = time.monotonic()
                # An idle socket is told at once; the one whose move is being stored is not.
                _, watch_code, watch_closed = await messages_until_closed(watcher, 5)
                figures["idle_closed_after"] = watch_closed - termed
                assert watch_code == 1012
                await asyncio.sleep(0.5)
                assert refuses_connections(a), "a stopping process still takes connections"
                early: list[dict[str, Any]] = []  # who is connected changed: said, but no close yet
                with contextlib.suppress(TimeoutError):
                    while True:
                        early.append(await next_message(on_a, 0.3))
            released = time.monotonic()
            seen, code, closed_at = await messages_until_closed(on_a)
            seen = early + seen
            figures["closed_after_release"] = closed_at - released
            views = [m for m in seen if m["type"] == "view"]
            assert views and views[-1]["seq"] == seq + 1, f"the move's answer never came before the close: {seen}"
            assert code == 1012, f"closed with {code}, not 'service restart'"
            assert (await view_at(on_b, seq + 1))["seq"] == seq + 1  # the other process was told too
        await asyncio.to_thread(a.proc.wait, EXIT_BOUND)
        figures["exit_after_term"] = time.monotonic() - termed
        figures["exit_after_release"] = time.monotonic() - released
        # The page reconnects (to a replica that stays) and plays on.
        async with websockets.connect(f"ws://127.0.0.1:{b.port}/ws/seats/{mover}") as again, \
                websockets.connect(f"ws://127.0.0.1:{b.port}/ws/seats/{other}") as on_b2:
            assert (await view_at(again, seq + 1))["seq"] == seq + 1
            nxt = moves_of(await view_at(on_b2, seq + 1))[0]
            await on_b2.send(orjson.dumps({"type": "move", "seq": seq + 1, "move": nxt}).decode())
            assert (await view_at(again, seq + 2))["seq"] == seq + 2
        return figures

    figures = asyncio.run(scenario())
    print("shutdown figures:", {k: round(v, 3) for k, v in figures.items()})
    assert figures["idle_closed_after"] < IDLE_CLOSE_BOUND
    assert figures["exit_after_term"] < EXIT_BOUND
    assert stored_seqs(postgres_url, t["code"]) == list(range(1, seq + 3)), "a move lost or stored twice"


def test_sigterm_exits_within_its_bound_when_a_move_never_finishes_and_stores_none_of_it(postgres_url,
                                                                                        server_factory):
    a = server_factory(postgres_url)
    with httpx.Client(base_url=a.base) as c:
        t = started_table(c, ("Ada", "Bob"), target=51)
        mover, seq = awaited_token(c, t)

    async def scenario() -> tuple[float, int | None, float]:
        async with websockets.connect(f"ws://127.0.0.1:{a.port}/ws/seats/{mover}") as on_a:
            move = moves_of(await view_at(on_a, seq))[0]
            with moves_locked(postgres_url):
                await on_a.send(orjson.dumps({"type": "move", "seq": seq, "move": move}).decode())
                await asyncio.to_thread(wait_for_blocked_insert, postgres_url)
                a.proc.send_signal(signal.SIGTERM)
                termed = time.monotonic()
                _, code, closed_at = await messages_until_closed(on_a)
                await asyncio.to_thread(a.proc.wait, EXIT_BOUND + 5)
                return closed_at - termed, code, time.monotonic() - termed

    closed_after, code, exited_after = asyncio.run(scenario())
    print(f"stuck move: closed with {code} after {closed_after:.2f} s, process gone after {exited_after:.2f} s")
    assert code == 1012
    assert exited_after < EXIT_BOUND
    assert stored_seqs(postgres_url, t["code"]) == list(range(1, seq + 1)), "half a move was stored"
