"""Load benchmark of the whole server, in the shape of the boardgame.io peer's harness.

Starts the real server (`parlour serve`, one uvicorn worker, access log off) as a separate
process pinned to core 0, then drives N tables with real websocket clients — one per seat —
from this process pinned to core 1. Every awaited seat plays a random legal move after a think
time uniform in [0.5, 1.5] × think. Round trip = a move sent until every seat of that table
holds the new view. A finished game is replaced by a new table (found + joins + start over
REST), as the peer's harness does.

    .venv/bin/python bench/load.py --tables 100 --think 500 --duration 30
    .venv/bin/python bench/load.py --db postgres --processes 2 --tables 100 --think 500
    .venv/bin/python bench/load.py --quick        # a few seconds; the test suite runs this
    .venv/bin/python bench/load.py --tables 900 --bot-tables 100 --think 5000   # bots beside humans
    .venv/bin/python bench/load.py --client node --game game_of_thrones --tables 500 --think 2500
    .venv/bin/python bench/load.py --db postgres --processes 3 --kill-one-after 10   # a process killed

A game's own seat count and engine come from GAMES below (A Game of Thrones: 6 seats, its
engine hosted even where the server's default list does not name it).

Prints tables, connections, offered and achieved moves/s, round trip p50/p95/p99/max, server
CPU and RSS (after setup and peak), and errors; --out FILE appends the figures as one JSON line.

A socket the server closes (or a connection cut) does not end the run: the seat reconnects, to
the next process when there are several, and plays on from the view the new socket is sent.
Drops (by close code), reconnects and the time from a drop to the new socket and to the seat's
next view are printed, and after the window (and a drain: no new moves, every seat back) the
moves stored per table are read from the database and checked against the seq each table's
players were shown: none lost, none doubled, no gap. ``--kill-one-after SECONDS`` stops the last
process that far into the window (``--kill-signal kill``: -9, a crash; ``term``: a graceful stop).

With the Node client a canary (bench/host_canary.py) watches the machine's own speed in the
window: the host's slow spells (a virtual machine's processors running many times slower for
tens of milliseconds, unseen from inside) are printed with the round trips away from them,
beside the round trips, never instead of them.

``--bot-tables N`` adds N tables where one seat is a client like the others and every other seat
a bot (``--bot-level``, seated in the waiting room): the round trips measured are the human
tables' only, so a run with and without them shows what the bots cost everyone else. The
server's own bot figures (moves played, time from ask to answer) are printed beside.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import os
import random
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import orjson
import websockets

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.host_canary import Canary, outside  # noqa: E402
from tests.support.play import moves_of  # noqa: E402
from tests.support.postgres import PrivatePostgres  # noqa: E402
from tests.support.server import ServerProcess as Server  # noqa: E402

NAMES = ("Ada", "Bob", "Cy", "Di", "Ed", "Flo")
GAMES: dict[str, tuple[int, str | None]] = {
    "london": (4, None),
    "game_of_thrones": (6, "engines.game_of_thrones:ENGINE"),
    "relay": (4, "bench.floor_game:ENGINE"),
    "relay_padded": (4, "bench.floor_game:PADDED"),
}
"""A game's seats at the benchmark's tables and the engine path the server must host (None: a
game the server hosts by default)."""


# -- the load ------------------------------------------------------------------------------------

@dataclass
class Stats:
    measuring: bool = False
    moves_sent: int = 0
    moves_done: int = 0
    rtts: list[float] = field(default_factory=list)
    errors: dict[str, int] = field(default_factory=dict)
    stale: int = 0
    games_finished: int = 0
    bot_table_moves: int = 0  # moves the bot tables' human seats saw stored (any seat's)
    hint_table_moves: int = 0  # moves stored at the hint tables (any seat's)
    hints: list[float] = field(default_factory=list)  # s from a hint's ask to its answer
    hint_errors: dict[str, int] = field(default_factory=dict)
    hint_hows: dict[str, int] = field(default_factory=dict)  # searched, forced, only sensible, the game's rule
    hint_playouts: list[int] = field(default_factory=list)  # the searches' iterations
    moves_sent_all: int = 0  # every move sent, in the window or not
    drops: int = 0  # open sockets the server closed, or whose connection was cut
    drop_codes: dict[int, int] = field(default_factory=dict)
    reconnects: int = 0
    failed_connects: int = 0  # connection attempts that failed (a process gone, a handshake refused)
    back: list[float] = field(default_factory=list)  # s from a drop to the seat's next view
    reopened: list[float] = field(default_factory=list)  # s from a drop to the new socket's opening

    def error(self, kind: str) -> None:
        self.errors[kind] = self.errors.get(kind, 0) + 1


FINAL_CLOSES = (4403, 4404)  # origin refused, no such seat: reconnecting cannot help
RESTART = 1012  # the server is going away: reconnect at once, elsewhere
TRY_AGAIN_LATER = 1013


def reconnect_wait(code: int | None, tries: int) -> float:
    """As the page (static/js/table.js), only quicker: at once after a restart's 1012, half a
    second after 1013, otherwise 50 ms doubling up to 2 s."""
    if code == RESTART and tries == 0:
        return 0.0
    if code == TRY_AGAIN_LATER:
        return 0.5
    return min(2.0, 0.05 * 2 ** tries) + random.uniform(0, 0.02)


class Table:
    """A table's seats, one socket each. A socket that closes is opened again, to the next
    process when there are several, and the seat plays on from the view the server sends a new
    socket: a move in flight at the drop was either stored (the view says so) or not (the seat
    plays again at the same seq), never lost or doubled."""

    def __init__(self, bench: Bench, slot: int) -> None:
        self.bench = bench
        self.slot = slot
        self.code = ""
        self.tokens: list[str] = []
        self.socks: list[Any] = []
        self.seen: list[int] = []
        self.sent_at: dict[int, float] = {}
        self.done = asyncio.Event()
        self.abandoned = False  # a socket was closed for good (4404, 4403): a new table instead
        self.latest: list[tuple[int, list[dict[str, Any]]]] = []
        self.pending: list[asyncio.Task[None] | None] = []
        self.up: list[bool] = []
        self.at: list[int] = []  # the process each seat's socket uses
        self.down_at: list[float] = []  # since when each seat has been away (0: it is not)
        self.helpers: set[asyncio.Task[None]] = set()
        self.http: list[httpx.AsyncClient] = []
        self.with_bots = bench.args.tables <= slot < bench.args.tables + bench.args.bot_tables
        # every seat a client and the first asks the good bot for a hint before each of its moves
        self.with_hints = slot >= bench.args.tables + bench.args.bot_tables
        self.apart = self.with_bots or self.with_hints  # tables beside the measured ones: not measured

    def kick(self) -> None:
        """Play is allowed now: seats already holding their first view start thinking."""
        for i, (seq, moves) in enumerate(self.latest):
            if moves and self.pending[i] is None:
                self.pending[i] = asyncio.create_task(self.move(i, seq, moves))

    async def create(self, http: list[httpx.AsyncClient]) -> None:
        b = self.bench
        found = await b.post(http, "/api/tables", {"game": b.game, "name": NAMES[0], "options": {},
                                                   **({"hints": True} if self.with_hints else {})})
        self.http = http
        self.code = found["code"]
        self.tokens = [found["seat_token"]]
        for _ in range(b.seats - 1 if self.with_bots else 0):
            await b.post(http, f"/api/seats/{self.tokens[0]}/bots", {"level": b.args.bot_level})
        for i in range(1, 1 if self.with_bots else b.seats):
            joined = await b.post(http, f"/api/tables/{found['code']}/join", {"name": NAMES[i]})
            self.tokens.append(joined["seat_token"])
        await b.post(http, f"/api/seats/{self.tokens[0]}/start", None)

    async def open(self, i: int) -> None:
        """One attempt at seat i's socket, on the process it uses now."""
        b = self.bench
        server = b.servers[self.at[i]]
        # from many loopback addresses: the server takes at most 64 sockets per address
        n = b.sockets_opened
        b.sockets_opened += 1
        local = f"127.0.{1 + n // 50 // 250 % 250}.{1 + n // 50 % 250}"
        self.socks[i] = await websockets.connect(f"ws://{server.host}:{server.port}/ws/seats/{self.tokens[i]}",
                                                 max_size=2**22, ping_interval=None, local_addr=(local, 0),
                                                 open_timeout=5, close_timeout=1)
        self.up[i] = True

    async def connect(self) -> None:
        b = self.bench
        k = len(self.tokens)
        self.socks = [None] * k
        self.up = [False] * k
        self.down_at = [0.0] * k
        self.at = [i * len(b.servers) // k for i in range(k)]  # seats split across processes
        for i in range(k):
            for tries in range(8):
                try:
                    await self.open(i)
                    break
                except (OSError, TimeoutError, websockets.WebSocketException):
                    if tries == 7:
                        raise
                    b.stats.failed_connects += 1
                    self.at[i] = (self.at[i] + 1) % len(b.servers)
                    await asyncio.sleep(reconnect_wait(None, tries))
        self.seen = [-1] * k
        self.latest = [(-1, [])] * k
        self.pending = [None] * k

    async def run(self) -> None:
        await asyncio.gather(*(self.reader(i) for i in range(len(self.socks))))

    def settled(self) -> bool:
        return all(self.up)

    async def reader(self, i: int) -> None:
        b = self.bench
        while True:
            sock = self.socks[i]
            try:
                async for raw in sock:
                    if self.on_message(i, orjson.loads(raw)):
                        return  # finished
                code = sock.close_code
            except websockets.ConnectionClosed as exc:
                code = exc.rcvd.code if exc.rcvd else None
            if b.stopping or self.done.is_set():
                return
            if not await self.reconnect(i, code):
                return

    async def reconnect(self, i: int, code: int | None) -> bool:
        """Seat i's socket closed: counted, and opened again (False: closed for good)."""
        b = self.bench
        self.up[i] = False
        old = self.pending[i]
        if old is not None and not old.done():
            old.cancel()
        self.pending[i] = None
        self.sent_at.clear()  # a round trip across a drop is not the server's: none timed until all are back
        if code in FINAL_CLOSES:
            b.stats.error(f"closed_{code}")
            self.abandoned = True
            self.done.set()
            return False
        b.stats.drops += 1
        b.stats.drop_codes[code or 1006] = b.stats.drop_codes.get(code or 1006, 0) + 1
        self.down_at[i] = time.perf_counter()
        tries = 0
        while not b.stopping:
            self.at[i] = (self.at[i] + 1) % len(b.servers)
            await asyncio.sleep(reconnect_wait(code, tries))
            tries += 1
            try:
                await self.open(i)
            except (OSError, TimeoutError, websockets.WebSocketException) as exc:
                b.stats.failed_connects += 1
                if isinstance(exc, websockets.InvalidStatus):
                    b.stats.error(f"handshake_{exc.response.status_code}")
                code = None
                continue
            b.stats.reconnects += 1
            b.stats.reopened.append(time.perf_counter() - self.down_at[i])
            helper = asyncio.create_task(self.sync_if_silent(i, self.socks[i]))
            self.helpers.add(helper)
            helper.add_done_callback(self.helpers.discard)
            return True
        return False

    async def sync_if_silent(self, i: int, sock: Any) -> None:
        """The server sends a new socket its view at once; if none came in 2 s, the seat asks."""
        await asyncio.sleep(2)
        if self.socks[i] is sock and self.down_at[i]:
            with contextlib.suppress(websockets.ConnectionClosed):
                await sock.send('{"type":"sync"}')

    def on_message(self, i: int, msg: dict[str, Any]) -> bool:
        """True once the game is finished."""
        b = self.bench
        kind = msg["type"]
        if kind == "view":
            seq = msg["seq"]
            now = time.perf_counter()
            if self.down_at[i]:
                b.stats.back.append(now - self.down_at[i])
                self.down_at[i] = 0.0
            if not self.with_bots:  # the bots' tables play on by themselves: not drained, not checked
                b.last_view_at = now
                if b.seen.get(self.code, -1) < seq:
                    b.seen[self.code] = seq
            if self.apart and b.stats.measuring and self.seen[i] >= 0 and i == 0:
                moved = max(0, seq - self.seen[i])
                if self.with_bots:
                    b.stats.bot_table_moves += moved
                else:
                    b.stats.hint_table_moves += moved
            self.seen[i] = seq
            if self.apart:
                self.sent_at.clear()
            elif seq in self.sent_at and all(s >= seq for s in self.seen):
                sent = self.sent_at.pop(seq)
                if b.stats.measuring:
                    b.stats.rtts.append(now - sent)
                    b.stats.moves_done += 1
            if msg["status"] == "finished":
                if i == 0:
                    b.stats.games_finished += 1
                    self.done.set()
                return True
            moves = moves_of(msg)
            self.latest[i] = (seq, moves)
            old = self.pending[i]
            if old is not None and not old.done():
                old.cancel()
            self.pending[i] = None
            if moves and b.playing.is_set() and not b.draining:
                self.pending[i] = asyncio.create_task(self.move(i, seq, moves))
        elif kind == "error":
            if msg["error"] == "stale":
                b.stats.stale += 1
            else:
                b.stats.error(msg["error"])
        return False

    async def move(self, i: int, seq: int, moves: list[dict[str, Any]]) -> None:
        b = self.bench
        if b.think:
            await asyncio.sleep(b.think * random.uniform(0.5, 1.5))
        if b.stopping or b.draining or not self.up[i]:
            return  # away: the view a new socket brings says what to play, at which seq
        if self.with_hints and i == 0 and not b.args.hints_unasked:
            await self.ask_hint()
        if all(self.up):
            self.sent_at.setdefault(seq + 1, time.perf_counter())
        if b.stats.measuring:
            b.stats.moves_sent += 1
        b.stats.moves_sent_all += 1
        with contextlib.suppress(websockets.ConnectionClosed):  # the reader sees the drop
            await self.socks[i].send(orjson.dumps({"type": "move", "seq": seq, "move": random.choice(moves)}).decode())

    async def ask_hint(self) -> None:
        """The seat's page pressing Hint: the answer waited for (as a player reads it) before the move."""
        b = self.bench
        asked = time.perf_counter()
        try:
            r = await self.http[self.at[0]].post(f"/api/seats/{self.tokens[0]}/hint")
        except httpx.TransportError:
            kind = "network"
        else:
            kind = "" if r.status_code == 200 else f"http_{r.status_code}"
        if b.stats.measuring:
            if kind:
                b.stats.hint_errors[kind] = b.stats.hint_errors.get(kind, 0) + 1
            else:
                b.stats.hints.append(time.perf_counter() - asked)
                hint = r.json()
                how = str(hint.get("how"))
                if how == "search":
                    b.stats.hint_playouts.append(int(hint.get("iterations") or 0))
                b.stats.hint_hows[how] = b.stats.hint_hows.get(how, 0) + 1

    async def close(self) -> None:
        for s in self.socks:
            if s is not None:
                with contextlib.suppress(Exception):
                    await s.close()


class Bench:
    def __init__(self, args: argparse.Namespace, servers: list[Server]) -> None:
        self.args = args
        self.game = args.game
        self.seats = args.seats
        self.think = args.think / 1000
        self.servers = servers
        self.stats = Stats()
        self.playing = asyncio.Event()
        self.stopping = False
        self.tables: dict[int, Table] = {}
        self.sockets_opened = 0
        self.draining = False
        self.last_view_at = 0.0
        self.seen: dict[str, int] = {}  # each table's last seq seen by any of its seats
        self.killed: dict[str, Any] | None = None

    async def post(self, http: list[httpx.AsyncClient], path: str, body: Any) -> Any:
        """POST, tried again (up to 5 times, 50 ms doubling) at the next process when one fails
        or answers 5xx: a process that is gone does not stop the run."""
        for attempt in range(6):
            client = http[attempt % len(http)]
            try:
                r = await client.post(path, json=body)
            except httpx.TransportError:
                self.stats.error("http_network")
            else:
                if r.status_code < 500:
                    r.raise_for_status()
                    return r.json()
                self.stats.error(f"http_{r.status_code}")
            if attempt == 5:
                raise httpx.HTTPError(f"{path}: no process answered")
            await asyncio.sleep(0.05 * 2 ** attempt)
        raise AssertionError("unreachable")

    async def lifecycle(self, slot: int, http: list[httpx.AsyncClient], sem: asyncio.Semaphore,
                        ready: asyncio.Event | None) -> None:
        """One table slot: set up, play, and when the game ends start a new table."""
        while not self.stopping:
            table = Table(self, slot)
            self.tables[slot] = table
            async with sem:
                try:
                    await table.create(http)
                    await table.connect()
                except (httpx.HTTPError, OSError, websockets.WebSocketException) as exc:
                    # A table that could not be set up is counted, not waited for forever.
                    self.stats.error(f"setup {type(exc).__name__}")
                    if ready is not None:
                        ready.set()
                    return
            if ready is not None:
                ready.set()
                ready = None
            runner = asyncio.create_task(table.run())
            done = asyncio.create_task(table.done.wait())
            await asyncio.wait({runner, done}, return_when=asyncio.FIRST_COMPLETED)
            await table.close()
            runner.cancel()
            done.cancel()
            if not table.done.is_set():
                return

    async def run(self) -> dict[str, Any]:
        a = self.args
        limits = httpx.Limits(max_connections=64)
        http = [httpx.AsyncClient(base_url=s.base, limits=limits, timeout=60) for s in self.servers]
        sem = asyncio.Semaphore(32)
        t0 = time.perf_counter()
        readies = [asyncio.Event() for _ in range(a.tables)]
        readies += [asyncio.Event() for _ in range(a.bot_tables + a.hint_tables)]
        tasks = [asyncio.create_task(self.lifecycle(i, http, sem, readies[i]))
                 for i in range(a.tables + a.bot_tables + a.hint_tables)]
        await asyncio.gather(*(r.wait() for r in readies))
        setup_s = time.perf_counter() - t0
        meter = Meter(self.servers)
        rss_setup = meter.rss()
        # The client's own collector, as the server's (app/parlour.py): thousands of sockets and
        # tables set up are kept out of its passes, so its pauses are not counted as round trips.
        gc.collect()
        gc.freeze()
        gc.set_threshold(20_000, 20, 50)
        self.playing.set()
        for table in list(self.tables.values()):
            table.kick()
        await asyncio.sleep(a.warmup)
        profiler = None
        if a.profile:
            profiler = subprocess.Popen(
                [py_spy(), "record", "--pid", str(self.servers[0].proc.pid), "--duration", str(int(a.duration)),
                 "--format", "speedscope" if a.profile.endswith(".json") else "flamegraph",
                 "--output", a.profile, "--rate", "200"],
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for c in http:
            await c.post("/api/stats/reset")
        cpu0 = meter.cpu()
        client0 = resource.getrusage(resource.RUSAGE_SELF)
        w0 = time.perf_counter()
        self.stats.measuring = True
        kill_at = None if a.kill_one_after is None else w0 + a.kill_one_after
        peak = rss_setup
        end = w0 + a.duration
        while time.perf_counter() < end:
            wake = end if kill_at is None or self.killed else min(end, kill_at)
            await asyncio.sleep(max(0.0, min(1.0, wake - time.perf_counter())))
            if kill_at is not None and not self.killed and time.perf_counter() >= kill_at:
                self.killed = await asyncio.to_thread(kill_one, self.servers, a.kill_signal)
            peak = max(peak, meter.rss())
        self.stats.measuring = False
        window = time.perf_counter() - w0
        if profiler is not None:
            profiler.wait(30)
        cpu = meter.cpu() - cpu0
        client1 = resource.getrusage(resource.RUSAGE_SELF)
        client_cpu = (client1.ru_utime - client0.ru_utime) + (client1.ru_stime - client0.ru_stime)
        server_stats = [(await c.get("/api/stats")).json() for c, s in zip(http, self.servers, strict=True) if alive(s)]
        # The drain: no new moves; once every seat is connected and no view has come for 300 ms
        # (10 s at most), each table's last seq seen is what its players were shown stored.
        self.draining = True
        drain_end = time.perf_counter() + 10
        while time.perf_counter() < drain_end and (
                any(not t.settled() for t in self.tables.values())
                or time.perf_counter() - self.last_view_at < 0.3):
            await asyncio.sleep(0.05)
        self.stopping = True
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        for c in http:
            await c.aclose()
        rt = sorted(x * 1000 for x in self.stats.rtts)

        def pct(p: float) -> float:
            return round(rt[min(len(rt) - 1, int(p / 100 * len(rt)))], 2) if rt else float("nan")

        offered = "max" if not a.think else round(a.tables / self.think, 1)
        return {
            "label": a.label or f"{a.db}_p{a.processes}_N{a.tables}_think{a.think}",
            "game": self.game, "db": a.db, "processes": a.processes, "tables": a.tables,
            "connections": a.tables * self.seats, "think_ms": a.think, "offered_moves_s": offered,
            "moves_s": round(self.stats.moves_done / window, 1),
            "rtt_p50_ms": pct(50), "rtt_p95_ms": pct(95), "rtt_p99_ms": pct(99),
            "rtt_max_ms": round(rt[-1], 2) if rt else None,
            "errors": sum(self.stats.errors.values()), "error_kinds": self.stats.errors,
            "stale_retries": self.stats.stale,
            "games_finished": self.stats.games_finished,
            "server_cpu_pct": round(100 * cpu / window, 1),
            "client_cpu_pct": round(100 * client_cpu / window, 1),
            "server_rss_mb_after_setup": round(rss_setup, 1), "server_rss_mb_peak": round(peak, 1),
            "setup_s": round(setup_s, 1), "window_s": round(window, 1),
            "server_move_ms": server_stats[0]["moves"], "server_commits": server_stats[0]["commits"],
            "server_loop_lag": server_stats[0].get("loop_lag"),
            "server_collector": server_stats[0].get("collector"),
            **({"bot_tables": a.bot_tables, "bot_level": a.bot_level,
                "bot_table_moves_s": round(self.stats.bot_table_moves / window, 1),
                "bots": server_stats[0].get("bots")} if a.bot_tables else {}),
            **({"hint_tables": a.hint_tables, "hint_table_moves_s": round(self.stats.hint_table_moves / window, 1),
                "hints_answered": len(self.stats.hints), "hint_errors": self.stats.hint_errors,
                "hint_hows": self.stats.hint_hows,
                "hint_search_iterations_p50": sorted(self.stats.hint_playouts)[len(self.stats.hint_playouts) // 2]
                if self.stats.hint_playouts else None,
                **ms_figures([x * 1000 for x in self.stats.hints], "hint")} if a.hint_tables else {}),
            "moves_sent": self.stats.moves_sent_all, "drops": self.stats.drops,
            "drop_codes": {str(k): v for k, v in self.stats.drop_codes.items()},
            "reconnects": self.stats.reconnects, "failed_connects": self.stats.failed_connects,
            **back_figures([x * 1000 for x in self.stats.reopened], "open"),
            **back_figures([x * 1000 for x in self.stats.back]),
            "seen": self.seen,
            **({"killed": self.killed} if self.killed else {}),
        }


def ms_figures(ms: list[float], name: str) -> dict[str, float | None]:
    """p50, p99 and max of these milliseconds, named after what they time."""
    b = sorted(ms)
    if not b:
        return {f"{name}_p50_ms": None, f"{name}_p99_ms": None, f"{name}_max_ms": None}
    p99 = b[min(len(b) - 1, int(0.99 * len(b)))]
    return {f"{name}_p50_ms": round(b[len(b) // 2], 1), f"{name}_p99_ms": round(p99, 1),
            f"{name}_max_ms": round(b[-1], 1)}


def back_figures(ms: list[float], name: str = "back") -> dict[str, float | None]:
    """From a drop to the new socket's opening ("open": what the next process took) or to the
    seat's next view ("back": how long a player saw "reconnecting")."""
    b = sorted(ms)
    if not b:
        return {f"{name}_p50_ms": None, f"{name}_max_ms": None}
    return {f"{name}_p50_ms": round(b[len(b) // 2], 1), f"{name}_max_ms": round(b[-1], 1)}


def alive(server: Server) -> bool:
    return server.proc is not None and server.proc.poll() is None


class Meter:
    """The server processes' CPU and RSS summed, a process that is gone (--kill-one-after)
    counting for its last CPU seen and no memory."""

    def __init__(self, servers: list[Server]) -> None:
        self.servers = servers
        self.last_cpu: dict[int, float] = {}

    def cpu(self) -> float:
        for i, s in enumerate(self.servers):
            with contextlib.suppress(OSError, AssertionError):
                self.last_cpu[i] = s.cpu_seconds()
        return sum(self.last_cpu.values())

    def rss(self) -> float:
        total = 0.0
        for s in self.servers:
            with contextlib.suppress(OSError, AssertionError):
                total += s.rss_mb()
        return total


def kill_one(servers: list[Server], how: str) -> dict[str, Any]:
    """The last process, killed (SIGKILL: sockets cut, moves in flight wherever they were) or
    stopped (SIGTERM: the server's graceful shutdown, its sockets closed with 1012)."""
    victim = servers[-1]
    t0 = time.perf_counter()
    if how == "kill":
        victim.kill()
    else:
        victim.stop()
    print(f"load: process {len(servers) - 1} ({victim.address}) {'killed (-9)' if how == 'kill' else 'sent SIGTERM'}; "
          f"gone after {1000 * (time.perf_counter() - t0):.0f} ms", file=sys.stderr)
    return {"process": len(servers) - 1, "signal": how, "exit_ms": round(1000 * (time.perf_counter() - t0))}


NODE_CLIENT = Path(__file__).resolve().parent / "node"
NODE_GC = ["--max-semi-space-size=32", "--initial-old-space-size=256"]
"""The load client's collector given room: with its default young generation (a few MB) and an
old generation sized to the little it keeps, at 200 moves/s of six 8 KB views (A Game of
Thrones) Node collected the old generation every second or two, pausing the client up to tens
of milliseconds, and those pauses were counted as the server's round trips."""


def py_spy() -> str:
    """py-spy beside this interpreter (a virtual environment's bin), else on the PATH."""
    here = Path(sys.executable).parent / "py-spy"
    return str(here) if here.exists() else "py-spy"


def run_node_client(a: argparse.Namespace, servers: list[Server]) -> dict[str, Any]:
    """The same load from the Node client (bench/node/load_client.mjs) pinned to core 1."""
    import threading

    if not (NODE_CLIENT / "node_modules" / "ws").exists():
        subprocess.run(["npm", "install", "--no-audit", "--no-fund", "--silent"], cwd=NODE_CLIENT, check=True)
    rtts = Path(tempfile.mkdtemp()) / "rtts.txt"
    cmd = ["node", *NODE_GC, *a.node_option, str(NODE_CLIENT / "load_client.mjs"),
           "--urls", ",".join(s.base for s in servers), "--tables", str(a.tables), "--seats", str(a.seats),
           "--think", str(a.think), "--game", a.game,
           "--duration", str(a.duration), "--warmup", str(a.warmup), "--timeline", "1" if a.timeline else "0",
           "--rtts", str(rtts)]
    if not a.no_pin and shutil.which("taskset"):
        cmd = ["taskset", "-c", "1", *cmd]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    sampling = threading.Event()
    peak = [0.0]
    rss_setup = 0.0
    meter = Meter(servers)
    killed: dict[str, Any] = {}
    killer = None
    if a.kill_one_after is not None:
        killer = threading.Timer(a.kill_one_after, lambda: killed.update(kill_one(servers, a.kill_signal)))

    def sample() -> None:
        while not sampling.wait(1.0):
            peak[0] = max(peak[0], meter.rss())

    sampler = threading.Thread(target=sample, daemon=True)
    canary = Canary()
    result: dict[str, Any] = {}
    for line in proc.stdout:
        line = line.strip()
        if line == "WINDOW_START":
            for s in servers:
                httpx.post(f"{s.base}/api/stats/reset", timeout=60)
            rss_setup = meter.rss()
            peak[0] = rss_setup
            if a.profile:
                subprocess.Popen([py_spy(), "record", "--pid", str(servers[0].proc.pid), "--duration",
                                  str(int(a.duration)), "--format", "speedscope", "--output", a.profile,
                                  "--rate", "200"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            cpu0 = meter.cpu()
            w0 = time.perf_counter()
            sampler.start()
            canary.start()
            if killer is not None:
                killer.start()
        elif line == "WINDOW_END":
            cpu = meter.cpu() - cpu0
            window = time.perf_counter() - w0
            sampling.set()
            canary.stop()
            stats = httpx.get(f"{servers[0].base}/api/stats", timeout=60).json()
        elif line.startswith("{"):
            result = json.loads(line)
        elif line:  # anything else the client says (--node-option=--trace-gc, say) is shown
            print(line, file=sys.stderr)
    proc.wait()
    if killer is not None:
        killer.cancel()
        killer.join()
    if proc.returncode != 0 or not result:
        raise RuntimeError("the Node load client failed")
    if killed:
        result["killed"] = killed
    result.update(host_figures(canary, rtts))
    shutil.rmtree(rtts.parent, ignore_errors=True)
    offered = "max" if not a.think else round(a.tables / (a.think / 1000), 1)
    return {
        "label": a.label or f"{a.db}_p{a.processes}_N{a.tables}_think{a.think:g}_node",
        "game": a.game, "db": a.db, "processes": a.processes, "tables": a.tables,
        "connections": a.tables * a.seats, "think_ms": a.think, "offered_moves_s": offered, **result,
        "server_cpu_pct": round(100 * cpu / window, 1),
        "server_rss_mb_after_setup": round(rss_setup, 1), "server_rss_mb_peak": round(peak[0], 1),
        "server_move_ms": stats["moves"], "server_commits": stats["commits"], "client": "node",
        "server_loop_lag": stats.get("loop_lag"),
        "server_collector": stats.get("collector"),
    }


def host_figures(canary: Canary, rtts: Path) -> dict[str, Any]:
    """The host's slow spells in the window (bench/host_canary.py) and the round trips away from
    them: beside the round trips, never instead of them."""
    found: dict[str, Any] = dict(canary.summary())
    if not rtts.exists():
        return found
    times = [(float(sent), float(ms)) for sent, ms in (line.split() for line in rtts.read_text().splitlines() if line)]
    kept = sorted(outside(times, canary.spells()))
    if kept:
        def pct(q: float) -> float:
            return round(kept[min(len(kept) - 1, int(q * len(kept)))], 2)
        found.update(rtt_outside_spells={"moves": len(kept), "of": len(times), "p50_ms": pct(0.5),
                                         "p95_ms": pct(0.95), "p99_ms": pct(0.99), "max_ms": round(kept[-1], 2)})
    return found


def main(argv: list[str] | None = None) -> dict[str, Any]:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--game", default="london")
    p.add_argument("--seats", type=int, default=None, help="seats per table (default: the game's own, see GAMES)")
    p.add_argument("--tables", type=int, default=100)
    p.add_argument("--think", type=float, default=500, help="ms; 0 = as fast as possible")
    p.add_argument("--duration", type=float, default=30)
    p.add_argument("--warmup", type=float, default=None,
                   help="s of play before the window (default: 3, or three think times if longer, so that "
                        "the tables' first moves are no longer bunched)")
    p.add_argument("--db", choices=("sqlite", "postgres"), default="sqlite")
    p.add_argument("--database-url", help="use this (empty, migrated by the server) database instead")
    p.add_argument("--processes", type=int, default=1)
    p.add_argument("--engines", default=None, help="PARLOUR_ENGINES for the server")
    p.add_argument("--label")
    p.add_argument("--out")
    p.add_argument("--quick", action="store_true", help="a few seconds, small")
    p.add_argument("--client", choices=("python", "node"), default="python",
                   help="the load client: this script, or the Node one (as fast as the peer's)")
    p.add_argument("--no-pin", action="store_true")
    p.add_argument("--bot-tables", type=int, default=0,
                   help="also this many tables of one client seat and bots in every other seat (not measured)")
    p.add_argument("--bot-level", choices=("easy", "good"), default="good")
    p.add_argument("--hints-unasked", action="store_true",
                   help="the control for --hint-tables: the same tables, their hints never asked for")
    p.add_argument("--hint-tables", type=int, default=0,
                   help="also this many tables (hints allowed) whose first seat asks for a hint before each of "
                        "its moves (not measured): a run with and without them shows what hints cost everyone else")
    p.add_argument("--node-option", action="append", default=[],
                   help="an option for node itself, e.g. --node-option=--trace-gc (its lines go to stderr)")
    p.add_argument("--timeline", action="store_true",
                   help="print the moves done and the slowest round trip of every second (Node client)")
    p.add_argument("--profile", help="py-spy the (first) server during the window into this file (.svg/.json)")
    p.add_argument("--kill-one-after", type=float, metavar="SECONDS",
                   help="this long into the window, stop the last server process (--kill-signal): its sockets "
                        "reconnect to the others; drops, reconnects and the stored moves' check are reported")
    p.add_argument("--kill-signal", choices=("kill", "term"), default="kill",
                   help="kill: SIGKILL (-9, a crash); term: SIGTERM (a graceful stop, sockets closed with 1012)")
    a = p.parse_args(argv)
    seats, engine_path = GAMES.get(a.game, (4, None))
    if a.seats is None:
        a.seats = seats
    if a.warmup is None:
        a.warmup = max(3.0, 3 * a.think / 1000)
    if a.quick:
        a.tables, a.think, a.duration, a.warmup = min(a.tables, 10), 50, 2, 0.5
    if (a.bot_tables or a.hint_tables) and a.client != "python":
        p.error("--bot-tables and --hint-tables need the Python client")
    if a.db == "sqlite" and a.processes != 1:
        p.error("several processes need --db postgres")
    if a.kill_one_after is not None and a.processes < 2:
        p.error("--kill-one-after needs --processes 2 or more")
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(20000, hard), hard))
    if a.client == "python" and not a.no_pin and hasattr(os, "sched_setaffinity") and (os.cpu_count() or 1) > 1:
        os.sched_setaffinity(0, {1})
    tmp = Path(tempfile.mkdtemp())
    pg = None
    servers: list[Server] = []
    try:
        if a.database_url:
            db_url = a.database_url
        elif a.db == "postgres":
            pg = PrivatePostgres()
            db_url = pg.url
        else:
            db_url = f"sqlite+aiosqlite:///{tmp / 'bench.db'}"
        engines = a.engines or os.environ.get("PARLOUR_ENGINES") or ""
        if engine_path and not a.engines:
            # the game is hosted beside the default ones (or beside those the environment names)
            from engines.registry import BUILTIN
            hosted = [e for e in engines.split(",") if e] or list(BUILTIN)
            engines = ",".join(dict.fromkeys([*hosted, engine_path]))
        for i in range(a.processes):
            servers.append(Server(db_url, tmp / f"server{i}.log", engines=engines,
                                  core=None if a.no_pin else 0, quiet=True,
                                  extra_env={} if a.no_pin else {"BOT_CPUS": "1"}).start(timeout=300))
        result = run_node_client(a, servers) if a.client == "node" else asyncio.run(Bench(a, servers).run())
        result["moves_check"] = check_moves(db_url, result.pop("seen", None) or {})
    finally:
        for s in servers:
            s.stop()
        if pg is not None:
            pg.stop()
        shutil.rmtree(tmp, ignore_errors=True)
    print_result(result)
    if a.out:
        with open(a.out, "a", encoding="utf-8") as fh:
            fh.write(json.dumps(result) + "\n")
    return result


def check_moves(db_url: str, seen: dict[str, int]) -> dict[str, int]:
    """The moves stored for every table the client played, against what its players were shown
    (each table's last seq seen, after the drain): a table's seqs must be 1..n with none twice,
    and n the seq its players saw. lost: moves shown stored and not there; unanswered: stored and never
    shown; doubled: rows sharing a seq; gaps: seqs missing below the last."""
    from sqlalchemy import create_engine, text

    engine = create_engine(db_url.replace("sqlite+aiosqlite:", "sqlite:", 1))
    try:
        with engine.connect() as conn:
            rows = {r[0]: r[1:] for r in conn.execute(text(
                "SELECT t.code, COUNT(m.id), COUNT(DISTINCT m.seq), MAX(m.seq) "
                "FROM tables t LEFT JOIN moves m ON m.table_id = t.id GROUP BY t.id, t.code"))}
    finally:
        engine.dispose()
    out = {"tables": 0, "moves_stored": 0, "moves_answered": 0, "lost": 0, "unanswered": 0, "doubled": 0, "gaps": 0}
    for code, answered in seen.items():
        count, distinct, high = rows.get(code, (0, 0, None))
        top = high or 0
        out["tables"] += 1
        out["moves_stored"] += distinct
        out["moves_answered"] += answered
        out["lost"] += max(0, answered - distinct)
        out["unanswered"] += max(0, distinct - answered)
        out["doubled"] += count - distinct
        out["gaps"] += top - distinct
    return out


def print_result(r: dict[str, Any]) -> None:
    print(f"{r['label']}: {r['tables']} tables of {r['game']}, {r['connections']} connections, "
          f"{r['db']} × {r['processes']} process(es)")
    print(f"  offered {r['offered_moves_s']} moves/s, achieved {r['moves_s']} moves/s "
          f"({r['games_finished']} games finished)")
    print(f"  round trip ms: p50 {r['rtt_p50_ms']} p95 {r['rtt_p95_ms']} p99 {r['rtt_p99_ms']} max {r['rtt_max_ms']}")
    print(f"  server CPU {r['server_cpu_pct']}%  RSS {r['server_rss_mb_after_setup']} MB after setup, "
          f"{r['server_rss_mb_peak']} MB peak  (setup {r['setup_s']} s)")
    mv, cm = r["server_move_ms"], r["server_commits"]
    print(f"  server time per move (received → stored → views queued) ms: p50 {mv.get('p50_ms')} "
          f"p99 {mv.get('p99_ms')}; {cm['moves_per_commit']} moves per commit")
    write, lag = cm.get("write") or {}, r.get("server_loop_lag") or {}
    if write.get("recent"):
        print(f"    a commit's transaction p50 / p99 / max ms: {write['p50_ms']} / {write['p99_ms']} / "
              f"{write['max_ms']}; "
              f"{cm.get('on_loop')} of {cm.get('batches')} batches written on the loop")
    if lag.get("recent"):
        print(f"    the event loop's lateness (a timer every 20 ms) p50 / p99 / max ms: {lag['p50_ms']} / "
              f"{lag['p99_ms']} / {lag['max_ms']}")
    for gen, t in (r.get("server_collector") or {}).items():
        if t.get("recent"):
            print(f"    the collector's {gen} passes: {t['recent']}, p50 / max ms {t['p50_ms']} / {t['max_ms']}")
    if mv.get("parts"):
        print("    of which, p50 / p99 / max ms: " + ", ".join(
            f"{name} {t['p50_ms']} / {t['p99_ms']} / {t['max_ms']}" for name, t in mv["parts"].items()))
    print(f"  errors {r['errors']} {r['error_kinds'] or ''}  stale retries {r['stale_retries']}  "
          f"(load client CPU {r['client_cpu_pct']}%)")
    if r.get("client_late_p99_ms") is not None:
        print(f"  the load client's own lateness (a timer every 10 ms, in every round trip it measures) "
              f"p99 / max ms: {r['client_late_p99_ms']} / {r['client_late_max_ms']}")
    if r.get("host_spells") is not None:
        print(f"  the host's slow spells (bench/host_canary.py): {r['host_spells']}, {r['host_slowed_pct']} % of the "
              f"window, the longest {r['host_spell_max_ms']} ms, at worst {r['host_worst_x']} × slower")
        away = r.get("rtt_outside_spells")
        if away:
            print(f"    round trips away from them ({away['moves']} of {away['of']}) ms: p50 {away['p50_ms']} "
                  f"p95 {away['p95_ms']} p99 {away['p99_ms']} max {away['max_ms']}")
    if r.get("drops") or r.get("reconnects") or r.get("killed"):
        killed = r.get("killed") or {}
        print(f"  sockets dropped {r['drops']} {r.get('drop_codes') or ''}, reconnected {r['reconnects']} "
              f"(failed attempts {r.get('failed_connects')}), open again after p50 {r.get('open_p50_ms')} / max "
              f"{r.get('open_max_ms')} ms, back with a view after p50 {r.get('back_p50_ms')} / max "
              f"{r.get('back_max_ms')} ms"
              + (f"; process {killed['process']} {'killed (-9)' if killed['signal'] == 'kill' else 'sent SIGTERM'}"
                 if killed else ""))
    check = r.get("moves_check")
    if check:
        print(f"  stored moves checked on {check['tables']} tables: {check['moves_stored']} stored, "
              f"{check['moves_answered']} answered; lost {check['lost']}, doubled {check['doubled']}, "
              f"gaps {check['gaps']}, stored but never answered {check['unanswered']}")
    if r.get("timeline"):
        print("  second by second (moves done, slowest round trip ms): "
              + " ".join(f"{n}/{ms:g}" for n, ms in r["timeline"]))
    if r.get("bot_tables"):
        bots = r["bots"] or {}
        print(f"  beside them {r['bot_tables']} tables with {r['bot_level']} bots: {r['bot_table_moves_s']} moves/s; "
              f"the server's bots played {bots.get('played')} (refused {bots.get('refused')}, failed "
              f"{bots.get('failed')}), ask → answer ms {bots.get('thinking')}")
    if r.get("hint_tables"):
        print(f"  beside them {r['hint_tables']} tables asking a hint before each of a seat's moves: "
              f"{r['hint_table_moves_s']} moves/s; {r['hints_answered']} hints answered, ask → answer ms p50 "
              f"{r['hint_p50_ms']} p99 {r['hint_p99_ms']} max {r['hint_max_ms']} ({r['hint_hows']}, a search's "
              f"iterations p50 {r['hint_search_iterations_p50']}); "
              f"refused {r['hint_errors'] or 0}")


if __name__ == "__main__":
    main()
