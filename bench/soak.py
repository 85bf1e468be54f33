"""Memory over a server's lifetime: the soak, what a live table costs, reloading, idle sockets.

    .venv/bin/python bench/soak.py soak --games 5000      # every hosted game, full speed
    .venv/bin/python bench/soak.py table-cost             # one live table of each game at its largest
    .venv/bin/python bench/soak.py reload                 # loading a table again: snapshot + replay
    .venv/bin/python bench/soak.py idle --tables 10000    # tables with one idle socket each: RSS
    .venv/bin/python bench/soak.py table-cost --quick     # (and reload --quick): seconds; the suite runs them

soak: for each game, a real server (`parlour serve`, SQLite, its default settings, pinned to
core 0) and the Node load client (pinned to core 1) playing random legal moves without think
time on ``--tables`` tables at once, each finished game replaced by a new table, until
``--games`` games have finished (or ``--minutes`` have passed). Reports the server's RSS and
the tables in its memory after the first 200 games, every ``--every`` games and at least every
``--interval`` seconds, to stdout and to ``--progress``; fetches every finished game's record as
it finishes and replays it (`parlour verify`'s check): nothing may be lost. The games run one
after another. A Game of Thrones is played with the client's "progress" moves (``POLICIES``).

table-cost: plays seeded random games in this process and builds the live table move by move
as the server does (``LiveTable.follow``), measuring it with tracemalloc: its largest size, and
the state and the log apart. Also what the log cost as the lists of dicts kept before.

reload: a table at the end of a long game in a SQLite database (played through the server's own
mover, in this process), dropped from the cache and loaded again, timed.

idle: founds ``--tables`` two-seat tables over HTTP, opens one websocket to each, and reports
the server's RSS before and with the sockets open (and Python objects per socket).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import queue
import random
import resource
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import orjson

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from app.features.record import verify_record  # noqa: E402
from app.play.live import LiveTable, PlayerInfo, encode_events, new_state  # noqa: E402
from engines.base import Engine, new_game, rules_version  # noqa: E402
from engines.registry import BUILTIN, load_engines  # noqa: E402
from tests.support.server import ServerProcess  # noqa: E402

NODE_CLIENT = ROOT / "bench" / "node"
TRACE_HOOK = ROOT / "bench" / "tracemalloc_hook"
NAMES = ("Ada", "Bob", "Cy", "Di", "Ed", "Flo")
GAME_OF_THRONES = "engines.game_of_thrones:ENGINE"
POLICIES = {"game_of_thrones": "progress"}
"""The load client's move policy for a game soaked with other than random legal moves: a random
A Game of Thrones game at six seats is about 4,600 moves (orders placed and taken back, march
steps undone); "progress" (bench/node/load_client.mjs, pickMove) plays full games by the rules
in about 360 moves at three seats. A soak measures memory against history: which legal moves
are played does not matter, as long as the games are whole."""


def hosted(extra: tuple[str, ...] = ()) -> dict[str, Engine]:
    return load_engines(tuple(dict.fromkeys(BUILTIN + extra)))


def random_game(engine: Engine, seats: int, seed: int) -> list[tuple[int, int, Any, bytes]]:
    """A whole game of random legal moves: (seq, seat, move, events as stored)."""
    rnd = random.Random(seed)
    state = new_game(engine, seats, seed, {})
    moves: list[tuple[int, int, Any, bytes]] = []
    while engine.result(state) is None:
        seat = min(engine.to_act(state))
        move = rnd.choice(engine.legal_moves(state, seat))
        events = engine.play(state, seat, move)
        moves.append((len(moves) + 1, seat, move, orjson.dumps(encode_events(events))))
    return moves


def bare_table(engine: Engine, seats: int, seed: int) -> LiveTable:
    players = [PlayerInfo(i + 1, NAMES[i], i, i, i == 0, f"{seed:x}-{i}") for i in range(seats)]
    live = LiveTable(id=seed, code="SOAK00", game=engine.id, engine=engine, options={}, status="playing",
                     seed=f"{seed:032x}", seed_hash="-", players=players, rules_version=rules_version(engine))
    live.state = new_state(live)
    live.settle()
    return live


# -- what a live table costs ---------------------------------------------------------------------

def grown(engine: Engine, seats: int, seed: int, game: list[tuple[int, int, Any, bytes]], cut: int) -> LiveTable:
    """The live table after the first ``cut`` moves, built as the server loads one."""
    live = bare_table(engine, seats, 1000 * seats + seed)
    live.follow(game[:cut])
    return live


def traced(build: Any) -> tuple[Any, int]:
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        obj = build()
        gc.collect()
        return obj, tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()


def table_cost(engines: dict[str, Engine], seeds: int, cuts_per_game: int, quick: bool = False) -> list[dict[str, Any]]:
    rows = []
    for gid, engine in engines.items():
        for seats in [engine.min_seats] if quick else sorted({engine.min_seats, engine.max_seats}):
            largest: dict[str, Any] = {"size": 0}
            for seed in range(1, seeds + 1):
                game = random_game(engine, seats, 1000 * seats + seed)
                cuts = sorted({*range(0, len(game) + 1, max(1, len(game) // cuts_per_game)), len(game)})
                for cut in cuts:
                    live, size = traced(lambda e=engine, n=seats, s=seed, g=game, c=cut: grown(e, n, s, g, c))
                    if size > largest["size"]:
                        _, state = traced(lambda e=engine, t=live: e.decode(orjson.loads(orjson.dumps(
                            e.encode(t.state)))))
                        _, log = traced(lambda g=game, c=cut: [orjson.loads(m[3]) for m in g[:c]])
                        live.measure_state()
                        largest = {"size": size, "seq": cut, "moves": len(game), "state": state,
                                   "log": live.log.nbytes, "old_log": log,
                                   "state_json": len(orjson.dumps(engine.encode(live.state))),
                                   "estimate": live.memory_estimate()}
                    del live
            row = {"game": gid, "seats": seats, "games": seeds, **largest}
            rows.append(row)
            print(f"{gid:18} {seats}p  largest {row['size'] / 1024:6.1f} KB at move {row['seq']} of "
                  f"{row['moves']}: state {row['state'] / 1024:5.1f} KB (JSON {row['state_json'] / 1024:4.1f} KB), "
                  f"log {row['log'] / 1024:5.1f} KB (as lists of dicts: {row['old_log'] / 1024:5.1f} KB); "
                  f"the cache's estimate {row['estimate'] / 1024:6.1f} KB", flush=True)
    return rows


# -- loading a table again -----------------------------------------------------------------------

async def reload_times(engines_paths: tuple[str, ...], repeats: int, seats_of: dict[str, int],
                       snapshot_every: int) -> list[dict[str, Any]]:
    from app.parlour import Parlour
    from app.server.config import Settings
    from app.storage.db import migrate
    from app.storage.tokens import hash_token

    tmp = Path(tempfile.mkdtemp())
    url = f"sqlite+aiosqlite:///{tmp / 'reload.db'}"
    rows = []
    try:
        migrate(url)
        parlour = Parlour(Settings(database_url=url, engines=engines_paths, public_url=None,
                                   snapshot_every=snapshot_every))
        await parlour.start()
        try:
            for gid, engine in parlour.engines.items():
                seats = seats_of.get(gid, engine.max_seats)
                ticket = await parlour.rooms.found(gid, NAMES[0], {})
                tokens = [ticket.token]
                for name in NAMES[1:seats]:
                    tokens.append((await parlour.rooms.join(ticket.table_id, name)).token)
                await parlour.rooms.start(hash_token(tokens[0]))
                live = await parlour.tables.get(ticket.table_id)
                assert live is not None
                by_seat = {p.seat: p for p in live.players}
                rnd = random.Random(7)
                started = time.perf_counter()
                while True:
                    live = await parlour.tables.get(ticket.table_id)
                    assert live is not None
                    if not live.awaiting:
                        break
                    seat = live.awaiting[0]
                    move = rnd.choice(engine.legal_moves(live.state, seat))
                    await parlour.mover.play(live, by_seat[seat], live.seq, move)
                played = time.perf_counter() - started
                times = []
                for _ in range(repeats):
                    parlour.tables.forget(ticket.table_id)
                    t0 = time.perf_counter()
                    again = await parlour.tables.get(ticket.table_id)
                    times.append(time.perf_counter() - t0)
                assert again is not None and again.seq == live.seq and len(again.log) == live.seq
                row = {"game": gid, "seats": seats, "moves": live.seq, "status": again.status,
                       "replayed": live.seq % snapshot_every,
                       "reload_ms_median": round(1000 * statistics.median(times), 1),
                       "reload_ms_max": round(1000 * max(times), 1), "repeats": repeats,
                       "played_s": round(played, 1)}
                rows.append(row)
                print(f"{gid:18} {seats}p  {row['moves']} moves ({row['status']}; {row['replayed']} replayed after the "
                      f"newest snapshot): reload median {row['reload_ms_median']} ms, max {row['reload_ms_max']} ms "
                      f"over {repeats}", flush=True)
        finally:
            await parlour.stop()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return rows


# -- the soak ------------------------------------------------------------------------------------

class Progress:
    """Progress lines to stdout and, when given, appended to a file as they come (a soak runs
    for hours in the background: the file says how far it got whatever happens after)."""

    def __init__(self, path: str | None) -> None:
        self.path = Path(path) if path else None
        if self.path:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        self.lock = threading.Lock()

    def __call__(self, line: str) -> None:
        line = f"{time.strftime('%Y-%m-%d %H:%M:%S')} {line}"
        with self.lock:
            print(line, flush=True)
            if self.path:
                with open(self.path, "a", encoding="utf-8") as fh:
                    fh.write(line + "\n")


class Verifier(threading.Thread):
    """Every finished game's published record, fetched and replayed (`parlour verify`'s check)
    as the games finish: the table is then still in the server's memory, so fetching its
    record costs the server little, and a run cut short has verified what it played. Each
    problem is said as it is found (``say``); a fetch that fails is tried again ``attempts``
    times in all before the record counts as lost (a starved server can be slow to answer)."""

    def __init__(self, base: str, engines: dict[str, Engine], say: Callable[[str], None] = print,
                 attempts: int = 3, timeout: float = 120) -> None:
        super().__init__(name="verifier", daemon=True)
        self.base = base
        self.engines = engines
        self.say = say
        self.attempts = attempts
        self.timeout = timeout
        self.todo: queue.SimpleQueue[tuple[str, int] | None] = queue.SimpleQueue()
        self.verified = 0
        self.problems: list[str] = []

    def fetch(self, c: httpx.Client, code: str) -> Any:
        for attempt in range(1, self.attempts + 1):
            try:
                r = c.get(f"/api/tables/{code}/record")
                if r.status_code < 500 and r.status_code != 429:
                    return r.json()
                why = f"HTTP {r.status_code} {r.text[:200]}"
            except (httpx.HTTPError, ValueError) as exc:
                why = repr(exc)
            if attempt == self.attempts:
                raise RuntimeError(f"{self.attempts} attempts, the last: {why}")
            self.say(f"the record of {code} could not be fetched ({why}); trying again")
            time.sleep(2 ** attempt)

    def run(self) -> None:
        with httpx.Client(base_url=self.base, timeout=self.timeout) as c:
            while (item := self.todo.get()) is not None:
                code, seq = item
                try:
                    found = record_problems(self.fetch(c, code), seq, self.engines)
                except Exception as exc:  # a record that cannot be fetched is a record lost
                    found = [f"the record could not be fetched: {exc}"]
                if found:
                    self.problems += [f"{code}: {p}" for p in found]
                    self.say(f"PROBLEM with the record of {code} ({seq} moves): {'; '.join(found)}")
                else:
                    self.verified += 1


def record_problems(record: dict[str, Any], seq: int, engines: dict[str, Engine]) -> list[str]:
    """What is wrong with one finished game's published record: it must replay to its result
    and final position, with every one of the ``seq`` moves the players saw stored."""
    if "moves" not in record:
        return [f"no record: {str(record)[:200]}"]
    found = verify_record(record, engines)
    if len(record["moves"]) != seq:
        found.append(f"{len(record['moves'])} moves stored, {seq} seen")
    return found


def start_tracing(server: ServerProcess, traces: Path, timeout: float = 60) -> None:
    assert server.proc is not None
    server.proc.send_signal(signal.SIGUSR2)
    deadline = time.monotonic() + timeout
    while not (traces / "tracing").exists():
        if time.monotonic() > deadline:
            raise RuntimeError(f"the server did not start tracing in {timeout:.0f} s")
        time.sleep(0.2)


def rss_parts(server: ServerProcess) -> dict[str, float]:
    """The server's resident memory of its own (heap, arenas, stacks) and of mapped files (the
    code of Python and its libraries, paged in as it first runs)."""
    assert server.proc is not None
    parts = {}
    for line in Path(f"/proc/{server.proc.pid}/status").read_text().splitlines():
        if line.startswith(("RssAnon:", "RssFile:")):
            parts["rss_" + line[3:7].lower() + "_mb"] = round(int(line.split()[1]) / 1024, 1)
    return parts


def probe(server: ServerProcess, traces: Path, timeout: float = 300) -> dict[str, Any]:
    """What the server's allocators hold now (SIGUSR1, bench/tracemalloc_hook): Python's blocks
    and tracked objects, malloc's bytes in use and free but kept; and, when tracing, the path of
    the tracemalloc snapshot written with them."""
    target = traces / f"{len(list(traces.glob('*.json'))):03d}"
    assert server.proc is not None
    server.proc.send_signal(signal.SIGUSR1)
    deadline = time.monotonic() + timeout
    while not target.with_suffix(".json").exists():
        if time.monotonic() > deadline:
            raise RuntimeError(f"the server answered no probe in {timeout:.0f} s")
        time.sleep(0.1)
    found: dict[str, Any] = json.loads(target.with_suffix(".json").read_text())
    return {**found, "snapshot": str(target.with_suffix(".snap"))}


def traced_growth(before: Path, after: Path, top: int) -> str:
    """The allocation sites that grew most between two snapshots, with their call stacks."""
    ignore = [tracemalloc.Filter(False, tracemalloc.__file__),
              tracemalloc.Filter(False, "<frozen importlib._bootstrap>")]
    old = tracemalloc.Snapshot.load(str(before)).filter_traces(ignore)
    new = tracemalloc.Snapshot.load(str(after)).filter_traces(ignore)
    total = sum(s.size for s in new.statistics("filename")) - sum(s.size for s in old.statistics("filename"))
    lines = [f"  all traced memory: {total / 2**20:+.2f} MB"]
    for stat in new.compare_to(old, "traceback")[:top]:
        lines.append(f"  {stat.size_diff / 1024:+9.1f} KB {stat.count_diff:+7d} blocks  "
                     + " <- ".join(f"{Path(f.filename).name}:{f.lineno}" for f in reversed(stat.traceback[-6:])))
    return "\n".join(lines)


class ClientFailed(RuntimeError):
    pass


def follow_client(cmd: list[str], errors_path: Path, on_finished: Callable[[str, int], None],
                  deadline: float | None = None) -> dict[str, Any]:
    """Run the load client until it ends, handing each "FINISHED code seq" line to
    ``on_finished``; at ``deadline`` (perf_counter) it is asked to end (SIGTERM), and does so
    with its figures. Returns its figures; raises ClientFailed, with the client's own words on
    why, when it ends any other way: a soak never ends silently."""
    # The client's errors go to a file: a pipe nobody reads could fill and stall it.
    with open(errors_path, "w", encoding="utf-8") as errors:
        client = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=errors, text=True)
    assert client.stdout is not None
    result: dict[str, Any] = {}
    finished = 0
    asked_to_stop = False
    try:
        for line in client.stdout:
            if line.startswith("FINISHED "):
                _, code, seq = line.split()
                finished += 1
                on_finished(code, int(seq))
            elif line.startswith("{"):
                result = json.loads(line)
            if deadline is not None and time.perf_counter() > deadline:
                deadline, asked_to_stop = None, True
                client.send_signal(signal.SIGTERM)
        client.wait()
    finally:
        if client.poll() is None:
            client.kill()
            client.wait()
    if client.returncode != 0 or not result:
        why = errors_path.read_text(errors="replace").strip()[-2000:] or "it said nothing"
        raise ClientFailed(f"the load client ended after {finished} finished games without its figures "
                           f"(exit code {client.returncode}): {why}")
    return {**result, "asked_to_stop": asked_to_stop}


def soak_one(gid: str, engines: dict[str, Engine], paths: tuple[str, ...], a: argparse.Namespace, tmp: Path,
             say: Progress) -> dict[str, Any]:
    engine = engines[gid]
    seats = a.seats or engine.max_seats
    policy = a.policy or POLICIES.get(gid, "random")
    traces = tmp / f"{gid}.traces"
    trace_env = {}
    if a.probe or a.trace:  # the server tells what its allocators hold on SIGUSR1 (bench/tracemalloc_hook)
        traces.mkdir()
        trace_env = {"SOAK_TRACE_DIR": str(traces), **({"SOAK_TRACE_FRAMES": "8"} if a.trace else {}),
                     "PYTHONPATH": os.pathsep.join([str(TRACE_HOOK), os.environ.get("PYTHONPATH", "")])}
    server = ServerProcess(f"sqlite+aiosqlite:///{tmp / (gid + '.db')}", tmp / f"{gid}.log", engines=",".join(paths),
                           core=None if a.no_pin else 0, quiet=True, extra_env=trace_env)
    try:
        server.start()
        if not (NODE_CLIENT / "node_modules" / "ws").exists():
            subprocess.run(["npm", "install", "--no-audit", "--no-fund", "--silent"], cwd=NODE_CLIENT, check=True)
        cmd = ["node", str(NODE_CLIENT / "load_client.mjs"), "--urls", server.base, "--tables", str(a.tables),
               "--seats", str(seats), "--think", "0", "--game", gid, "--duration", "0", "--warmup", "0",
               "--games", str(a.games), "--stall", str(a.stall), "--policy", policy]
        if not a.no_pin and shutil.which("taskset"):
            cmd = ["taskset", "-c", "1", *cmd]
        rss_start = server.rss_mb()
        if a.trace:
            start_tracing(server, traces)
        verifier = Verifier(server.base, engines, lambda line: say(f"{gid}: {line}"))
        verifier.start()
        finished: list[tuple[str, int]] = []
        samples: list[dict[str, Any]] = []
        t0 = time.perf_counter()
        deadline = t0 + 60 * a.minutes if a.minutes else None

        def sample(label: str) -> dict[str, Any]:
            stats = httpx.get(f"{server.base}/api/stats", timeout=60).json()
            s = time.perf_counter() - t0
            row = {"games": len(finished), "moves_stored": stats["commits"]["moves"], "s": round(s, 1),
                   "rss_mb": round(server.rss_mb(), 1), **rss_parts(server),
                   "tables_in_memory": stats["tables_in_memory"], "cache_mb": stats["cache"]["estimated_mb"],
                   "verified": verifier.verified,
                   "problems": len(verifier.problems)}
            held = ""
            if a.probe or a.trace:
                row.update(probe(server, traces))
                held = (f" (Python {row['python_blocks']} blocks, {row['gc_objects']} objects; malloc "
                        f"{row.get('malloc_in_use', 0) / 2**20:.1f} MB in use, "
                        f"{row.get('malloc_free_kept', 0) / 2**20:.1f} MB free but kept)")
            samples.append(row)
            say(f"{gid}: {label}{row['games']} games, {row['moves_stored']} moves stored "
                f"({row['moves_stored'] / max(s, 1e-9):.0f} moves/s), server RSS {row['rss_mb']} MB (anonymous "
                f"{row.get('rss_anon_mb')}, files {row.get('rss_file_mb')}){held}, "
                f"{row['tables_in_memory']} tables in memory (estimate {row['cache_mb']} MB), records verified "
                f"{row['verified']}, problems {row['problems']}, {row['s']} s")
            return row

        say(f"{gid}: soak of {a.games} games on {a.tables} tables of {seats} seats, {policy} moves; server RSS at "
            f"start {rss_start:.1f} MB")
        last_sample = time.perf_counter()
        at_200: dict[str, Any] | None = None

        def on_finished(code: str, seq: int) -> None:
            nonlocal last_sample, at_200
            finished.append((code, seq))
            verifier.todo.put((code, seq))
            n = len(finished)
            if n == 200:
                at_200 = sample("after the first ")
                last_sample = time.perf_counter()
            elif n % a.every == 0 or n == a.games or time.perf_counter() - last_sample > a.interval:
                sample("")
                last_sample = time.perf_counter()

        try:
            result = follow_client(cmd, tmp / f"{gid}.client.err", on_finished, deadline)
        except ClientFailed as exc:
            log = server.log_text().strip()[-1500:] or "(empty)"
            raise RuntimeError(f"{gid}: {exc}\nthe server's log ends:\n{log}") from None
        stopped = f"stopped at the time limit ({a.minutes:g} min)" if result["asked_to_stop"] else None
        end = sample("at the end: ")
        if a.trace and at_200 is not None:
            say(f"{gid}: what Python holds more at the end than after 200 games (tracemalloc, top 25):\n"
                + traced_growth(Path(at_200["snapshot"]), Path(end["snapshot"]), 25))
        verifier.todo.put(None)
        verifier.join()
        after = sample("records verified: ")
        rested = None
        if a.rest > 0:  # the server left alone: finished tables leave memory, freed pages go back
            time.sleep(a.rest)
            rested = sample(f"after {a.rest:g} s at rest: ")
        moves = sum(seq for _, seq in finished)
        row = {"game": gid, "seats": seats, "policy": policy, "tables": a.tables, "games": len(finished),
               "target_games": a.games,
               "stopped": stopped, "moves": moves, "moves_stored": end["moves_stored"],
               "moves_s": round(end["moves_stored"] / end["s"], 1), "round_trips_s": result.get("moves_s"),
               "errors": result.get("errors"), "error_kinds": result.get("error_kinds"),
               "stale_retries": result.get("stale_retries"), "rss_mb_start": round(rss_start, 1),
               "rss_mb_after_200": at_200["rss_mb"] if at_200 else None, "rss_mb_end": end["rss_mb"],
               "rss_mb_max": max(s["rss_mb"] for s in samples),
               "rss_mb_after_verifying": after["rss_mb"], "tables_in_memory_end": end["tables_in_memory"],
               "rss_mb_rested": rested["rss_mb"] if rested else None,
               "tables_in_memory_rested": rested["tables_in_memory"] if rested else None,
               "samples": samples, "verified": verifier.verified, "problems": verifier.problems[:20],
               "seconds": end["s"]}
        growth = round(row["rss_mb_end"] - at_200["rss_mb"], 1) if at_200 else None
        row["rss_growth_mb"] = growth
        if rested and at_200:
            row["rss_growth_rested_mb"] = round(rested["rss_mb"] - at_200["rss_mb"], 1)
        say(f"{gid}: DONE {row['games']} games{' (' + stopped + ')' if stopped else ''}, {moves} moves "
            f"({row['moves_s']} moves/s stored), server RSS at start {row['rss_mb_start']} MB, after 200 games "
            f"{row['rss_mb_after_200']} MB, at the end {row['rss_mb_end']} MB (growth {growth} MB)"
            + (f", after {a.rest:g} s at rest {row['rss_mb_rested']} MB (growth {row.get('rss_growth_rested_mb')} MB)"
               if rested else "") + ", records "
            f"verified {row['verified']}/{row['games']}, problems {len(verifier.problems)}, client errors "
            f"{row['errors']} {row['error_kinds'] or ''}")
        return row
    finally:
        server.stop()


# -- idle sockets --------------------------------------------------------------------------------

async def idle_sockets(a: argparse.Namespace, tmp: Path) -> dict[str, Any]:
    import websockets

    server = ServerProcess(f"sqlite+aiosqlite:///{tmp / 'idle.db'}", tmp / "idle.log", engines="",
                           core=None if a.no_pin else 0, quiet=True,
                           extra_env={"KEEPALIVE_SECONDS": "0"}).start()
    try:
        rss_idle = server.rss_mb()
        sem = asyncio.Semaphore(32)
        tokens: list[str] = []
        async with httpx.AsyncClient(base_url=server.base, timeout=120,
                                     limits=httpx.Limits(max_connections=32)) as http:
            async def found_one() -> None:
                async with sem:
                    r = await http.post("/api/tables", json={"game": a.game, "name": "Ada", "options": {}})
                    r.raise_for_status()
                    ticket = r.json()
                    (await http.post(f"/api/tables/{ticket['code']}/join", json={"name": "Bob"})).raise_for_status()
                    (await http.post(f"/api/seats/{ticket['seat_token']}/start")).raise_for_status()
                    tokens.append(ticket["seat_token"])

            t0 = time.perf_counter()
            await asyncio.gather(*(found_one() for _ in range(a.tables)))
            setup_s = time.perf_counter() - t0
        rss_tables = server.rss_mb()
        socks = []

        async def open_one(i: int, token: str) -> None:
            # From many loopback addresses: the server takes at most 64 sockets per address.
            local = f"127.0.{1 + i // 50 // 250}.{1 + i // 50 % 250}"
            async with sem:
                ws = await websockets.connect(f"ws://127.0.0.1:{server.port}/ws/seats/{token}",
                                              ping_interval=None, max_size=2**22, local_addr=(local, 0))
                while orjson.loads(await ws.recv())["type"] != "view":
                    pass
                socks.append(ws)

        t0 = time.perf_counter()
        await asyncio.gather(*(open_one(i, t) for i, t in enumerate(tokens)))
        connect_s = time.perf_counter() - t0
        await asyncio.sleep(a.settle)
        rss_open = server.rss_mb()
        stats = httpx.get(f"{server.base}/api/stats").json()
        for ws in socks:
            await ws.close()
        row = {"game": a.game, "tables": a.tables, "sockets": len(socks), "rss_mb_started": round(rss_idle, 1),
               "rss_mb_tables": round(rss_tables, 1), "rss_mb_sockets_open": round(rss_open, 1),
               "kb_per_table_and_socket": round(1024 * (rss_open - rss_idle) / a.tables, 1),
               "connections": stats["connections"], "cache": stats["cache"],
               "setup_s": round(setup_s, 1), "connect_s": round(connect_s, 1)}
        print(f"{a.tables} {a.game} tables, {len(socks)} idle sockets: server RSS {row['rss_mb_started']} MB started, "
              f"{row['rss_mb_tables']} MB after founding them, {row['rss_mb_sockets_open']} MB with the sockets open "
              f"({row['kb_per_table_and_socket']} KB per table and socket); cache {stats['cache']}", flush=True)
        return row
    finally:
        server.stop()


def main(argv: list[str] | None = None) -> list[dict[str, Any]]:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("mode", choices=("soak", "table-cost", "reload", "idle"))
    p.add_argument("--games", type=int, default=5000, help="soak: finished games per hosted game")
    p.add_argument("--only", default="", help="comma-separated game ids (default: every hosted game)")
    p.add_argument("--tables", type=int, default=20, help="soak: tables at once; idle: tables")
    p.add_argument("--seats", type=int, default=0, help="soak: seats per table (default: the game's most)")
    p.add_argument("--every", type=int, default=500, help="soak: report RSS every N games")
    p.add_argument("--interval", type=float, default=300, help="soak: and at least every N s (at a game's end)")
    p.add_argument("--minutes", type=float, default=0, help="soak: stop each game's run after this long (0: never)")
    p.add_argument("--policy", choices=("random", "progress"),
                   help="soak: the client's moves (default: random, progress for A Game of Thrones)")
    p.add_argument("--stall", type=float, default=120, help="soak: a table without a new view this long fails the run")
    p.add_argument("--rest", type=float, default=0,
                   help="soak: after the run, leave the server alone this long and measure once more")
    p.add_argument("--progress", help="soak: append progress lines to this file as they come")
    p.add_argument("--probe", action="store_true",
                   help="soak: with each RSS sample, what the server's Python and malloc hold (cheap)")
    p.add_argument("--trace", action="store_true",
                   help="soak: the server under tracemalloc (much slower): what it holds more at the end than at 200")
    p.add_argument("--game", default="london", help="idle: the game")
    p.add_argument("--settle", type=float, default=5, help="idle: seconds with the sockets open before measuring")
    p.add_argument("--seeds", type=int, default=3, help="table-cost: games per game and seat count")
    p.add_argument("--repeats", type=int, default=20, help="reload: loads timed per table")
    p.add_argument("--got", action="store_true", help="also A Game of Thrones, hosted through PARLOUR_ENGINES")
    p.add_argument("--no-pin", action="store_true")
    p.add_argument("--quick", action="store_true", help="seconds, small (table-cost, reload)")
    p.add_argument("--out", help="append the figures as JSON lines to this file")
    a = p.parse_args(argv)
    extra = (GAME_OF_THRONES,) if a.got else ()
    engines = hosted(extra)
    wanted = [g for g in a.only.split(",") if g] or list(engines)
    rows: list[dict[str, Any]] = []
    if a.mode == "table-cost":
        seeds, cuts = (1, 2) if a.quick else (a.seeds, 20)
        rows = table_cost({g: engines[g] for g in wanted}, seeds, cuts, a.quick)
    elif a.mode == "reload":
        paths = tuple(p for p in BUILTIN + extra if load_engines((p,)).keys() & set(wanted))
        rows = asyncio.run(reload_times(paths, 2 if a.quick else a.repeats, {"london": 4}, 50))
    else:
        _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(max(4 * a.tables, 4096), hard), hard))
        tmp = Path(tempfile.mkdtemp())
        try:
            if a.mode == "idle":
                rows = [asyncio.run(idle_sockets(a, tmp))]
            else:
                return soak_all(wanted, engines, tuple(dict.fromkeys(BUILTIN + extra)), a, tmp)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
    for row in rows:
        write_row(a, row)
    return rows


def write_row(a: argparse.Namespace, row: dict[str, Any]) -> None:
    if a.out:
        with open(a.out, "a", encoding="utf-8") as fh:
            fh.write(json.dumps({"mode": a.mode, "date": time.strftime("%Y-%m-%d"), **row}) + "\n")


def soak_all(wanted: list[str], engines: dict[str, Engine], paths: tuple[str, ...], a: argparse.Namespace,
             tmp: Path) -> list[dict[str, Any]]:
    """The games one after another; each one's figures kept as soon as it ends, and a game that
    fails says why and does not stop the next (the run still fails at the end)."""
    say = Progress(a.progress)
    rows, failed = [], []
    for gid in wanted:
        try:
            row = soak_one(gid, engines, paths, a, tmp, say)
        except Exception as exc:
            say(f"{gid}: FAILED: {exc}")
            failed.append(gid)
            continue
        write_row(a, row)
        rows.append(row)
    if failed:
        raise SystemExit(f"the soak failed on {', '.join(failed)}")
    return rows


if __name__ == "__main__":
    os.environ.setdefault("PYTHONHASHSEED", "0")
    main()
