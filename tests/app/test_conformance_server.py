"""Conformance, part 5: a whole game of every hosted engine at every player count through the
real server path — a `parlour serve` process, HTTP and websockets, the MovePlayer, the journal, the
hub — and `parlour verify` passes on its published record. (Parts 1–4 are engine-level:
tests/engines/test_conformance.py.)"""

from __future__ import annotations

import asyncio
import random
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import orjson
import pytest
import websockets

from engines.registry import BUILTIN, load_engines
from tests.support.server import ROOT, ServerProcess, sqlite_server

ENGINES = load_engines(BUILTIN)
SEAT_COUNTS = {"game_of_thrones": (4,)}
"""Seat counts played through the server where not every one is: a random A Game of Thrones
takes thousands of moves, so one count goes through the server and the engine-level suite
(tests/engines/test_conformance.py) covers all four."""
CASES = [(gid, n) for gid, e in sorted(ENGINES.items())
         for n in SEAT_COUNTS.get(gid, range(e.min_seats, e.max_seats + 1))]
NAMES = ["Ada", "Bob", "Cy", "Dee", "Eve", "Fay"]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    with sqlite_server(tmp_path_factory.mktemp("conformance"), engines="") as proc:
        yield proc


def start_table(c: httpx.Client, game: str, seats: int) -> tuple[str, dict[int, str]]:
    r = c.post("/api/tables", json={"game": game, "name": NAMES[0], "options": {}})
    assert r.status_code == 201, r.text
    code, tokens = r.json()["code"], [r.json()["seat_token"]]
    for name in NAMES[1:seats]:
        r = c.post(f"/api/tables/{code}/join", json={"name": name})
        assert r.status_code == 201, r.text
        tokens.append(r.json()["seat_token"])
    assert c.post(f"/api/seats/{tokens[0]}/start").status_code == 200
    return code, {c.get(f"/api/seats/{t}").json()["seat"]: t for t in tokens}


async def next_view(ws: Any, seq: int) -> dict[str, Any]:
    """The first view message at or after ``seq`` (earlier ones are skipped)."""
    while True:
        msg = orjson.loads(await asyncio.wait_for(ws.recv(), 10))
        if msg["type"] == "view" and msg["seq"] >= seq:
            return dict(msg)


async def play_whole_game(base: str, code: str, by_seat: dict[int, str], seed: int) -> int:
    """Random listed moves to the end: even ones sent over the seat's websocket, odd ones posted
    over HTTP. Every socket must see every seq's view."""
    rng = random.Random(seed)
    ws_base = base.replace("http://", "ws://")
    sockets = {s: await websockets.connect(f"{ws_base}/ws/seats/{t}", max_size=2**22) for s, t in by_seat.items()}
    try:
        async with httpx.AsyncClient(base_url=base, timeout=30) as c:
            played = 0
            while True:
                table = (await c.get(f"/api/tables/{code}")).json()
                if table["status"] != "playing":
                    assert table["status"] == "finished"
                    return played
                seat = rng.choice(sorted(table["awaiting"]))
                legal = (await c.get(f"/api/seats/{by_seat[seat]}/moves")).json()
                assert legal["seq"] == table["seq"] and legal["moves"], legal
                move = rng.choice(legal["moves"])
                if played % 2 == 0:
                    await sockets[seat].send(orjson.dumps({"type": "move", "seq": legal["seq"], "move": move}).decode())
                else:
                    r = await c.post(f"/api/seats/{by_seat[seat]}/moves", json={"seq": legal["seq"], "move": move})
                    assert r.status_code == 200, r.text
                for ws in sockets.values():  # every seat is told, at once
                    assert (await next_view(ws, legal["seq"] + 1))["seq"] == legal["seq"] + 1
                played += 1
    finally:
        for ws in sockets.values():
            await ws.close()


@pytest.mark.parametrize(("game", "seats"), CASES, ids=[f"{g}-{n}p" for g, n in CASES])
def test_a_whole_game_through_the_server_verifies(server: ServerProcess, game: str, seats: int, tmp_path: Path):
    with httpx.Client(base_url=server.base, timeout=30) as c:
        code, by_seat = start_table(c, game, seats)
        played = asyncio.run(play_whole_game(server.base, code, by_seat, seed=seats))
        record = c.get(f"/api/tables/{code}/record")
        assert record.status_code == 200, record.text
        assert len(record.json()["moves"]) == played > 0
        assert record.json()["result"] is not None
    check = subprocess.run([sys.executable, "-m", "app.cli", "verify", f"{server.base}/api/tables/{code}/record"],
                           cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert check.returncode == 0, check.stdout + check.stderr
