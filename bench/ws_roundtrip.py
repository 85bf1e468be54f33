"""Measures, on a real server over loopback: the time from "found" to a joined seat over HTTP,
and the websocket round trip of a move (sent → every seat of the table has the new view).

    .venv/bin/python bench/ws_roundtrip.py [--moves 1000] [--database-url URL]

Starts `parlour serve` on a fresh SQLite file (or the given database) hosting the platform's
small test game, and prints median and p99 figures.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

import httpx
import orjson
import websockets

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.support.play import moves_of  # noqa: E402
from tests.support.server import ServerProcess  # noqa: E402


def pct(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(p / 100 * len(values)))]


async def found_to_seat(base: str, n: int) -> list[float]:
    times = []
    async with httpx.AsyncClient(base_url=base) as c:
        for _ in range(n):
            t0 = time.perf_counter()
            r = await c.post("/api/tables", json={"game": "tally", "name": "Ada"})
            code = r.json()["code"]
            r = await c.post(f"/api/tables/{code}/join", json={"name": "Bob"})
            assert r.status_code == 201
            times.append(time.perf_counter() - t0)
    return times


async def _until_view(sock, latest: list[dict], i: int, seq: int) -> dict:  # type: ignore[no-untyped-def]
    while latest[i].get("seq", -1) < seq:
        msg = orjson.loads(await sock.recv())
        if msg["type"] == "view":
            latest[i] = msg
        elif msg["type"] == "error":
            raise RuntimeError(msg)
    return latest[i]


async def roundtrips(base: str, port: int, moves: int) -> list[float]:
    async with httpx.AsyncClient(base_url=base) as c:
        times: list[float] = []
        while len(times) < moves:
            r = (await c.post("/api/tables", json={"game": "tally", "name": "Ada",
                                                   "options": {"target": 51}})).json()
            tokens = [r["seat_token"],
                      (await c.post(f"/api/tables/{r['code']}/join", json={"name": "Bob"})).json()["seat_token"]]
            await c.post(f"/api/seats/{tokens[0]}/start")
            socks = [await websockets.connect(f"ws://127.0.0.1:{port}/ws/seats/{t}") for t in tokens]
            latest: list[dict] = [{}, {}]

            def until_view(i: int, seq: int, socks=socks, latest=latest):  # type: ignore[no-untyped-def]
                return _until_view(socks[i], latest, i, seq)

            await asyncio.gather(until_view(0, 0), until_view(1, 0))
            while len(times) < moves:
                mover = next((i for i in (0, 1) if moves_of(latest[i])), None)
                if mover is None:
                    break  # the game ended
                seq = latest[mover]["seq"]
                move = moves_of(latest[mover])[0]
                t0 = time.perf_counter()
                await socks[mover].send(orjson.dumps({"type": "move", "seq": seq, "move": move}).decode())
                await asyncio.gather(until_view(0, seq + 1), until_view(1, seq + 1))
                times.append(time.perf_counter() - t0)
            for s in socks:
                await s.close()
    return times


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--moves", type=int, default=1000)
    parser.add_argument("--tables", type=int, default=200, help="found→seat samples")
    parser.add_argument("--database-url")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        url = args.database_url or f"sqlite+aiosqlite:///{tmp}/bench.db"
        server = ServerProcess(url, Path(tmp) / "server.log", engines="tests.support.tinygame:ENGINE",
                               extra_env={"PYTHONOPTIMIZE": os.environ.get("PYTHONOPTIMIZE", "")})
        server.start()
        try:
            seat = asyncio.run(found_to_seat(server.base, args.tables))
            rt = asyncio.run(roundtrips(server.base, server.port, args.moves))
        finally:
            server.stop()
    ms = lambda xs: [x * 1000 for x in xs]  # noqa: E731
    seat, rt = ms(seat), ms(rt)
    print(f"found → joined seat over HTTP ({len(seat)} tables): median {statistics.median(seat):.2f} ms, "
          f"p99 {pct(seat, 99):.2f} ms")
    print(f"move round trip over the websocket ({len(rt)} moves, 2 seats): median {statistics.median(rt):.2f} ms, "
          f"p99 {pct(rt, 99):.2f} ms, max {max(rt):.2f} ms")


if __name__ == "__main__":
    main()
