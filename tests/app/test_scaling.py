"""Several server processes on one PostgreSQL, each on its own loopback address as separate
hosts would be: tables founded through each, players spread over all of them, moves from any
process reaching every socket (LISTEN/NOTIFY), one process killed with SIGKILL in the middle of
play, and moves whose news is larger than a notification may carry."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import httpx
import orjson
import psycopg
import pytest
import websockets
from websockets.exceptions import ConnectionClosed, InvalidHandshake

from app.features.record import verify_record
from app.play.notify import CHANNEL
from engines.registry import load_engines
from tests.conftest import reset_postgres
from tests.support.play import moves_of
from tests.support.server import ServerProcess
from tests.support.wordy import LINE_BYTES

pytestmark = pytest.mark.pg

HOSTS = ("127.0.0.1", "127.0.0.2", "127.0.0.3")
ENGINES = "tests.support.tinygame:ENGINE,tests.support.wordy:ENGINE"
NOTIFY_LIMIT = 8000  # bytes: PostgreSQL refuses a longer payload
THINK = 0.1  # seconds a player waits before each move: games long enough to be cut in the middle
RECONNECT_BOUND = 5.0  # seconds from the kill to every cut-off seat being back, shown the table


@pytest.fixture(scope="module")
def three_servers(postgres_server: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[list[ServerProcess]]:
    """Shared by this module's tests, each on tables of its own; the kill comes last."""
    from app.storage.db import migrate

    reset_postgres(postgres_server)
    migrate(postgres_server)
    logs = tmp_path_factory.mktemp("scaling")
    servers = [ServerProcess(postgres_server, logs / f"server{i}.log", engines=ENGINES, host=host)
               for i, host in enumerate(HOSTS)]
    try:
        for s in servers:
            s.start()
        yield servers
    finally:
        for s in servers:
            s.stop()


def seated_table(base: str, names: tuple[str, ...], game: str = "tally", **options: Any) -> dict[str, Any]:
    """Founded through ``base``; each later player joins through the same process."""
    with httpx.Client(base_url=base, timeout=30) as c:
        founded = c.post("/api/tables", json={"game": game, "name": names[0], "options": options}).json()
        tokens = [founded["seat_token"]] + [
            c.post(f"/api/tables/{founded['code']}/join", json={"name": n}).json()["seat_token"] for n in names[1:]]
        assert c.post(f"/api/seats/{tokens[0]}/start").status_code == 200
        seats = {tok: c.get(f"/api/seats/{tok}").json()["seat"] for tok in tokens}
    return {"code": founded["code"], "tokens": tokens, "seats": seats}


@dataclass
class Player:
    """A page's socket: plays its first legal move whenever it is awaited, and when its socket
    drops, reconnects to the next address (as the page does through a proxy)."""

    code: str
    token: str
    seat: int
    addresses: list[str]
    first: int
    pending: tuple[int, Any] | None = None  # (the seq it was sent at, the move): not yet answered
    answered: dict[int, Any] = field(default_factory=dict)  # seq sent at -> move, seen stored
    sent: dict[int, Any] = field(default_factory=dict)  # seq sent at -> move, every send
    reconnects: int = 0
    back_at: list[float] = field(default_factory=list)  # when a view came after each reconnect
    finished: bool = False
    newest: int = 0

    async def play(self, deadline: float) -> None:
        i = self.first
        while not self.finished and time.monotonic() < deadline:
            address = self.addresses[i % len(self.addresses)]
            try:
                async with websockets.connect(f"ws://{address}/ws/seats/{self.token}", open_timeout=3,
                                              close_timeout=1) as ws:
                    await self.on_socket(ws, reconnected=i != self.first)
            except (ConnectionClosed, OSError, TimeoutError, InvalidHandshake):
                pass
            if not self.finished:
                self.reconnects += 1
                i += 1
                await asyncio.sleep(0.05)

    async def on_socket(self, ws: Any, reconnected: bool) -> None:
        asked: int | None = None  # the seq this socket sent a move at
        async for raw in ws:
            msg = orjson.loads(raw)
            if msg["type"] != "view":
                continue
            if reconnected:
                self.back_at.append(time.monotonic())
                reconnected = False
            seq = msg["seq"]
            self.newest = max(self.newest, seq)
            if self.pending is not None and seq > self.pending[0]:
                # Only this seat was awaited at that seq: the move stored there is the one it sent.
                self.answered[self.pending[0]] = self.pending[1]
                self.pending = None
            if msg["status"] == "finished":
                self.finished = True
                return
            choices = moves_of(msg)
            if choices and asked != seq:
                await asyncio.sleep(THINK)
                self.pending, asked = (seq, choices[0]), seq
                self.sent[seq] = choices[0]
                await ws.send(orjson.dumps({"type": "move", "seq": seq, "move": choices[0]}).decode())


async def first_view(ws: Any, seq: int, timeout: float = 10) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while True:
        msg = orjson.loads(await asyncio.wait_for(ws.recv(), deadline - time.monotonic()))
        if msg["type"] == "view" and msg["seq"] >= seq:
            return dict(msg)


def test_a_move_whose_news_exceeds_a_notification_still_reaches_every_process(
        three_servers: list[ServerProcess], postgres_server: str) -> None:
    a, b, c = three_servers
    t = seated_table(a.base, ("Ada", "Bob"), game="wordy", target=51)
    mover = next(tok for tok in t["tokens"] if t["seats"][tok] == 0)
    other = next(tok for tok in t["tokens"] if tok != mover)
    notes: list[str] = []

    async def scenario() -> tuple[dict[str, Any], dict[str, Any]]:
        listener = await psycopg.AsyncConnection.connect(
            postgres_server.replace("postgresql+psycopg://", "postgresql://", 1), autocommit=True)
        await listener.execute(f"LISTEN {CHANNEL}")
        async with websockets.connect(f"ws://{a.address}/ws/seats/{mover}") as on_a, \
                websockets.connect(f"ws://{b.address}/ws/seats/{other}") as on_b, \
                websockets.connect(f"ws://{c.address}/ws/watch/{t['code']}") as on_c:
            first = await first_view(on_a, 0)
            await first_view(on_b, 0)
            await first_view(on_c, 0)
            await on_a.send(orjson.dumps({"type": "move", "seq": 0, "move": moves_of(first)[0]}).decode())
            seen_b, seen_c = await first_view(on_b, 1), await first_view(on_c, 1)
        async for note in listener.notifies(timeout=2):
            notes.append(note.payload)
        await listener.close()
        return seen_b, seen_c

    seen_b, seen_c = asyncio.run(scenario())
    for seen in (seen_b, seen_c):
        assert seen["seq"] == 1
        assert max(len(line["text"]) for line in seen["log"]) >= LINE_BYTES, "the long line never arrived"
    moves = [orjson.loads(n) for n in notes if orjson.loads(n).get("k") == "moves"]
    assert len(moves) == 1 and moves[0]["seq"] == 1 and "m" not in moves[0], "the move was not sent by reference"
    assert all(len(n.encode()) < NOTIFY_LIMIT for n in notes)


def test_a_process_killed_mid_game_loses_and_doubles_no_move_and_its_seats_play_on_elsewhere(
        three_servers: list[ServerProcess], postgres_server: str) -> None:
    servers = three_servers
    addresses = [s.address for s in servers]
    tables = [seated_table(servers[k % 3].base, ("Ada", "Bob", "Cy"), target=51) for k in range(6)]
    players = [Player(t["code"], tok, t["seats"][tok], addresses, first=(k + p) % 3)
               for k, t in enumerate(tables) for p, tok in enumerate(t["tokens"])]
    victim = servers[1]
    cut_off = [p for p in players if p.first == 1]

    async def scenario() -> float:
        deadline = time.monotonic() + 120
        playing = [asyncio.create_task(p.play(deadline)) for p in players]
        while min(max(p.newest for p in players if p.code == t["code"]) for t in tables) < 3:
            assert time.monotonic() < deadline, "the games never got going"
            await asyncio.sleep(0.01)
        victim.kill()  # SIGKILL: no shutdown, sockets cut, moves in flight wherever they were
        killed = time.monotonic()
        await asyncio.gather(*playing)
        return killed

    killed = asyncio.run(scenario())
    assert all(p.finished for p in players), [(p.code, p.seat, p.newest) for p in players if not p.finished]
    assert all(p.reconnects >= 1 for p in cut_off), "a seat on the killed process never reconnected"
    back = max(p.back_at[0] - killed for p in cut_off)
    print(f"{len(cut_off)} seats cut off by the kill, all back within {back:.2f} s")
    assert back < RECONNECT_BOUND
    engines = load_engines(ENGINES.split(","))
    survivor = servers[0].base
    for t in tables:
        record = httpx.get(f"{survivor}/api/tables/{t['code']}/record").json()
        assert [m["seq"] for m in record["moves"]] == list(range(1, len(record["moves"]) + 1))
        assert verify_record(record, engines) == [], "the stored game does not replay to its result"
        stored = {m["seq"]: (m["seat"], m["move"]) for m in record["moves"]}
        seated = {p.seat: p for p in players if p.code == t["code"]}
        for p in seated.values():
            for seq, move in p.answered.items():
                assert stored[seq + 1] == (p.seat, move), f"an answered move of seat {p.seat} was lost"
        for seq, (seat, move) in stored.items():  # each stored once, where its seat sent it
            assert seated[seat].sent.get(seq - 1) == move, f"move {seq} of seat {seat} was never sent there"
