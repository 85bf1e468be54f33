"""What a hint's ask costs the event loop (issue 31: a hint never delays another table).

    .venv/bin/python bench/hint_loop.py                     # London (4 seats) and A Game of Thrones (6)
    .venv/bin/python bench/hint_loop.py --game london --asks 40

A table allowing hints is played to mid-game by random legal moves (through the API), every seat
and one spectator hold a websocket open, then the awaited seat asks for a hint at each of
``--asks`` decisions (a move played between them). Measured is the CPU time of the thread that
runs the event loop — what other tables wait behind — from the ask until its answer, the worker's
search excluded (it runs in another process; the loop idles meanwhile). A third of the decisions
time the ask through its HTTP route ("http": the request, the seat's lookup, the answer's JSON),
a third the ask itself ("ask"), a third its parts one by one: the state encoded for the worker, the
labels, and the ask stored and told to the table (``Hints._record``). On SQLite; the websockets
are the test client's (in-memory queues), so a socket's own write is not in the figure.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import orjson

from app.server.config import Settings

GAMES = {"london": ("engines.london:ENGINE", 4, 300), "game_of_thrones": ("engines.game_of_thrones:ENGINE", 6, 150)}


def cpu_ms(fn: Callable[[], Any]) -> tuple[float, Any]:
    started = time.thread_time()
    out = fn()
    return (time.thread_time() - started) * 1000, out


async def acpu_ms(coro: Any) -> tuple[float, Any]:
    """The loop thread's CPU while ``coro`` runs (nothing else runs on this loop meanwhile but
    what the coroutine sets off: the connections' sends)."""
    started = time.thread_time()
    out = await coro
    await asyncio.sleep(0)  # the sends it queued
    await asyncio.sleep(0)
    return (time.thread_time() - started) * 1000, out


async def _thread_id() -> int:
    return threading.get_ident()


async def _warm(pool: Any) -> None:
    await asyncio.wrap_future(pool.warm().submit(int))


def summary(ms: list[float]) -> str:
    if not ms:
        return "—"
    q = statistics.quantiles(ms, n=10) if len(ms) > 1 else [ms[0]] * 9
    return f"median {statistics.median(ms):.2f} ms (p10 {q[0]:.2f}, p90 {q[-1]:.2f}, n {len(ms)})"


def run(game: str, asks: int, seed: int) -> dict[str, list[float]]:
    from fastapi.testclient import TestClient

    from app.features import hints as hints_module
    from app.main import create_app
    from app.storage.db import migrate

    path, seats, moves = GAMES[game]
    rng = random.Random(seed)
    parts = ("http", "ask", "encode", "labels", "record", "rebuild", "resend", "sent_bytes")
    figures: dict[str, list[float]] = {part: [] for part in parts}
    with tempfile.TemporaryDirectory() as tmp, ExitStack() as stack:
        url = f"sqlite+aiosqlite:///{Path(tmp) / 'hints.db'}"
        migrate(url)
        settings = Settings(database_url=url, public_url=None,
                            engines=(path,), bot_think_seconds=0.05, clock_poll_seconds=3600)
        c = stack.enter_context(TestClient(create_app(settings), base_url="http://testserver"))
        parlour: Any = getattr(c.app, "state").parlour  # noqa: B009 -- typed as a bare ASGI app
        portal = c.portal
        assert portal is not None
        founded = c.post("/api/tables", json={"game": game, "name": "Ada", "hints": True}).json()
        tokens = [founded["seat_token"]]
        for name in ("Bob", "Cyd", "Dot", "Eve", "Fay")[:seats - 1]:
            tokens.append(c.post(f"/api/tables/{founded['code']}/join", json={"name": name}).json()["seat_token"])
        assert c.post(f"/api/seats/{tokens[0]}/start").status_code == 200
        by_seat = {c.get(f"/api/seats/{t}").json()["seat"]: t for t in tokens}

        def play_one() -> bool:
            awaiting = c.get(f"/api/tables/{founded['code']}").json()["awaiting"]
            if not awaiting:
                return False
            token = by_seat[rng.choice(awaiting)]
            legal = c.get(f"/api/seats/{token}/moves").json()
            r = c.post(f"/api/seats/{token}/moves", json={"seq": legal["seq"], "move": rng.choice(legal["moves"])})
            return bool(r.status_code == 200)

        for _ in range(moves):
            if not play_one():
                break
        origin = {"origin": "http://testserver"}
        sockets = [stack.enter_context(c.websocket_connect(f"/ws/seats/{t}", headers=origin)) for t in tokens]
        sockets.append(stack.enter_context(c.websocket_connect(f"/ws/watch/{founded['code']}", headers=origin)))

        def sent() -> Iterator[int]:
            """Bytes every connection here was sent since last asked (read off the test client's queues)."""
            import anyio

            for ws in sockets:
                while True:  # what the app sent this socket, not yet read
                    try:
                        item = ws._send_rx.receive_nowait()
                    except anyio.WouldBlock:
                        break
                    if isinstance(item, dict) and item.get("text"):
                        yield len(item["text"].encode())

        async def measure(whole: bool) -> None:
            live = next(t for t in (parlour.tables.cached(i) for i in parlour.tables.cached_ids())
                        if t is not None and t.code == founded["code"])
            seat = live.awaiting[0]
            player = next(p for p in live.players if p.seat == seat)
            if whole:
                ms, _ = await acpu_ms(parlour.hints.ask(live, player))
                figures["ask"].append(ms)
                return
            ms, _ = cpu_ms(lambda: orjson.dumps(live.engine.encode(live.state)))
            figures["encode"].append(ms)
            ms, _ = cpu_ms(lambda: hints_module._labels(live, seat))
            figures["labels"].append(ms)
            ms, _ = await acpu_ms(parlour.hints._record(live.id, player, live.seq))
            figures["record"].append(ms)
            # what the record did before it only told the table the new line: a whole rebuild
            # from the database, and every connection sent its whole view and log again
            async with parlour.tables.hold(live.id) as held:
                ms, fresh = await acpu_ms(parlour.tables.reload(held))
                figures["rebuild"].append(ms)
            parlour.hub.resend_logs(live.id)
            ms, _ = cpu_ms(lambda: parlour.hub.table_changed(fresh))
            figures["resend"].append(ms)

        # the bot workers started and loaded before the first ask (a first ask would time their start)
        portal.call(_warm, parlour.bot_pool)
        loop_clock = time.pthread_getcpuclockid(portal.call(_thread_id))
        for i in range(asks):
            list(sent())
            if i % 3 == 2:  # the ask as a page makes it: the request, its route, the answer's JSON
                awaiting = c.get(f"/api/tables/{founded['code']}").json()["awaiting"]
                started = time.clock_gettime(loop_clock)
                r = c.post(f"/api/seats/{by_seat[awaiting[0]]}/hint")
                figures["http"].append((time.clock_gettime(loop_clock) - started) * 1000)
                assert r.status_code == 200, r.text
            else:
                portal.call(measure, i % 3 == 0)
            time.sleep(0.02)  # the connections' drains
            if i % 3 != 1:
                figures["sent_bytes"].append(float(sum(sent())))
            if not play_one():
                break
    return figures


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--game", choices=[*GAMES, "both"], default="both")
    p.add_argument("--asks", type=int, default=45)
    p.add_argument("--seed", type=int, default=31)
    a = p.parse_args(argv)
    for game in GAMES if a.game == "both" else (a.game,):
        f = run(game, a.asks, a.seed)
        print(f"{game} ({GAMES[game][1]} seats + a spectator, after {GAMES[game][2]} moves): loop CPU per ask")
        for part in ("http", "ask", "encode", "labels", "record", "rebuild", "resend"):
            print(f"  {part:7} {summary(f[part])}")
        print(f"  sent to the table's connections per ask: median {statistics.median(f['sent_bytes']) / 1024:.1f} KB")


if __name__ == "__main__":
    main()
