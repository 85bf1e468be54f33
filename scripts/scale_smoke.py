"""Checks a running `docker compose up --scale parlour=N` as a host's players would meet it
(scripts/docker-scale.sh runs it): websockets through the proxy, spread over the replicas, a move
made through one replica shown at once to seats connected to others, and a rolling restart of
every replica (`docker restart`, i.e. SIGTERM) under play that loses no move.

    python scripts/scale_smoke.py PROXY_URL STATS_TOKEN CONTAINER=ADDRESS ...

With `upgrade` (scripts/docker-scale.sh upgrade), the zero-downtime upgrade rehearsed under play:
the Node load client (bench/node/load_client.mjs) plays tables through the proxy while
scripts/docker-upgrade.sh replaces the replicas by the new image one at a time; then the moves
stored (read in the database's container) are checked against those the players were answered,
and the proxy's access log is read for any answer that was not 2xx (or 101, a websocket's).

    python scripts/scale_smoke.py upgrade PROXY_URL
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import threading
import time
import urllib.request
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import websockets
from websockets.exceptions import ConnectionClosed, InvalidHandshake


def call(base: str, method: str, path: str, body: Any = None, token: str | None = None) -> Any:
    headers = {"content-type": "application/json"}
    if token:
        headers["authorization"] = f"Bearer {token}"
    req = urllib.request.Request(base + path, method=method, headers=headers,
                                 data=None if body is None else json.dumps(body).encode())
    with urllib.request.urlopen(req, timeout=15) as r:
        raw = r.read()
    return json.loads(raw) if raw[:1] in (b"{", b"[") else raw.decode()


def choices(msg: dict[str, Any]) -> list[Any]:
    prompt = msg["view"].get("prompt") if isinstance(msg.get("view"), dict) else None
    if isinstance(prompt, dict) and isinstance(prompt.get("choices"), list):
        return [c["move"] for c in prompt["choices"]]
    return list(msg.get("moves", []))


def table(base: str) -> dict[str, Any]:
    founded = call(base, "POST", "/api/tables", {"game": "london", "name": "Ada", "options": {}})
    bea = call(base, "POST", f"/api/tables/{founded['code']}/join", {"name": "Bea"})
    call(base, "POST", f"/api/seats/{founded['seat_token']}/start")
    return {"code": founded["code"], "tokens": [founded["seat_token"], bea["seat_token"]]}


def sockets_per_replica(replicas: dict[str, str], token: str) -> dict[str, int]:
    out = {}
    for name, address in replicas.items():
        text = call(f"http://{address}", "GET", "/metrics", token=token)
        line = next(ln for ln in text.splitlines() if ln.startswith("parlour_sockets "))
        out[name] = int(float(line.split()[1]))
    return out


async def view_at(ws: Any, seq: int, timeout: float = 10) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while True:
        msg = json.loads(await asyncio.wait_for(ws.recv(), deadline - time.monotonic()))
        if msg["type"] == "view" and msg["seq"] >= seq:
            return dict(msg)


async def spread(proxy: str, replicas: dict[str, str], token: str) -> None:
    t = table(f"http://{proxy}")
    host = {"origin": f"http://{proxy}"}
    socks = [await websockets.connect(f"ws://{proxy}/ws/watch/{t['code']}", additional_headers=host)
             for _ in range(3 * len(replicas))]
    for ws in socks:
        await view_at(ws, 0)
    counts = sockets_per_replica(replicas, token)
    print(f"{len(socks)} websockets through the proxy, per replica: {counts}")
    assert all(counts.values()), "a replica took none of the sockets"
    for ws in socks:
        await ws.close()


async def across(replicas: dict[str, str]) -> None:
    """Seat 1 on the first replica, seat 2 on the second, the move posted to the last."""
    names = list(replicas)
    t = table(f"http://{replicas[names[0]]}")
    a = await websockets.connect(f"ws://{replicas[names[0]]}/ws/seats/{t['tokens'][0]}")
    b = await websockets.connect(f"ws://{replicas[names[1]]}/ws/seats/{t['tokens'][1]}")
    first = [await view_at(a, 0), await view_at(b, 0)]
    mover = next(i for i in (0, 1) if choices(first[i]))
    seq = first[mover]["seq"]
    sent = time.perf_counter()
    call(f"http://{replicas[names[-1]]}", "POST", f"/api/seats/{t['tokens'][mover]}/moves",
         {"seq": seq, "move": choices(first[mover])[0]})
    await view_at(a, seq + 1)
    await view_at(b, seq + 1)
    print(f"a move posted to {names[-1]} reached sockets on {names[0]} and {names[1]} "
          f"in {1000 * (time.perf_counter() - sent):.1f} ms")
    await a.close()
    await b.close()


class Seat:
    def __init__(self, proxy: str, token: str) -> None:
        self.url = f"ws://{proxy}/ws/seats/{token}"
        self.origin = {"origin": f"http://{proxy}"}
        self.closes: list[int | None] = []
        self.gaps: list[float] = []
        self.moves = 0
        self.seq = 0

    async def play(self, until: float) -> None:
        lost: float | None = None
        while time.monotonic() < until:
            try:
                async with websockets.connect(self.url, additional_headers=self.origin, open_timeout=5) as ws:
                    asked = None
                    while time.monotonic() < until:
                        try:
                            msg = json.loads(await asyncio.wait_for(ws.recv(), 0.5))
                        except TimeoutError:
                            continue
                        if msg["type"] != "view":
                            continue
                        if lost is not None:
                            self.gaps.append(time.monotonic() - lost)
                            lost = None
                        self.seq = max(self.seq, msg["seq"])
                        options = choices(msg)
                        if options and msg["status"] == "playing" and asked != msg["seq"]:
                            await asyncio.sleep(0.2)
                            asked = msg["seq"]
                            await ws.send(json.dumps({"type": "move", "seq": msg["seq"], "move": options[0]}))
                            self.moves += 1
            except ConnectionClosed as closed:
                self.closes.append(closed.rcvd.code if closed.rcvd else None)
            except (OSError, TimeoutError, InvalidHandshake):
                self.closes.append(None)
            if lost is None:
                lost = time.monotonic()
            await asyncio.sleep(0.3)


async def rolling_restart(proxy: str, replicas: dict[str, str]) -> None:
    t = table(f"http://{proxy}")
    seats = [Seat(proxy, tok) for tok in t["tokens"]]
    until = time.monotonic() + 20 * len(replicas) + 10
    playing = [asyncio.create_task(s.play(until)) for s in seats]
    await asyncio.sleep(3)
    for name in replicas:
        before = max(s.seq for s in seats)
        took = time.monotonic()
        await asyncio.to_thread(subprocess.run, ["docker", "restart", name], check=True, capture_output=True)
        print(f"restarted {name} in {time.monotonic() - took:.1f} s (the table went {before} -> "
              f"{max(s.seq for s in seats)} meanwhile)")
        await asyncio.sleep(8)  # healthy again before the next
    await asyncio.gather(*playing)
    stored = call(f"http://{proxy}", "GET", f"/api/tables/{t['code']}")["seq"]
    closes = [c for s in seats for c in s.closes]
    gaps = [g for s in seats for g in s.gaps]
    print(f"rolling restart of {len(replicas)} replicas under play: {stored} moves stored, "
          f"{sum(s.moves for s in seats)} sent; sockets closed with {closes}; "
          f"back after at most {max(gaps, default=0):.2f} s")
    assert stored >= max(s.seq for s in seats) and stored > 10


async def main(proxy_url: str, token: str, pairs: list[str]) -> None:
    proxy = proxy_url.split("://", 1)[1].rstrip("/")
    replicas = dict(p.split("=", 1) for p in pairs)
    await spread(proxy, replicas, token)
    await across(replicas)
    await rolling_restart(proxy, replicas)
    print("scale smoke: all good")


ROOT = Path(__file__).resolve().parent.parent
NODE_CLIENT = ROOT / "bench" / "node"
TABLES, SEATS = 12, 4
"""12 tables of London, 48 sockets: through the proxy every socket comes from one address (the
proxy's), and a replica takes at most 64 sockets per address, so all of them fit on one."""


def compose(*args: str) -> str:
    return subprocess.run(["docker", "compose", *args], check=True, capture_output=True, text=True).stdout


def stored_moves(since: datetime, until: datetime) -> tuple[dict[str, tuple[int, int, int]], int]:
    """Per table code: rows, distinct seqs, the last seq; and the moves stored between the two times."""
    def psql(sql: str) -> str:
        return compose("exec", "-T", "db", "psql", "-U", "parlour", "-d", "parlour", "-At", "-F", " ", "-c", sql)

    rows = {}
    for line in psql("SELECT t.code, COUNT(m.id), COUNT(DISTINCT m.seq), COALESCE(MAX(m.seq), 0) "
                     "FROM tables t LEFT JOIN moves m ON m.table_id = t.id GROUP BY t.id, t.code").splitlines():
        code, count, distinct, top = line.split()
        rows[code] = (int(count), int(distinct), int(top))
    stamp = "%Y-%m-%d %H:%M:%S.%f"
    during = int(psql(f"SELECT COUNT(*) FROM moves WHERE created_at BETWEEN '{since.strftime(stamp)}' "
                      f"AND '{until.strftime(stamp)}'").strip())
    return rows, during


def proxy_statuses(since: datetime) -> tuple[Counter[int], int]:
    """The statuses of the proxy's answers (its access log, JSON lines) since then, and the
    websockets it passed (logged when they close, with the status 101, or 0 in Caddy 2.6)."""
    out = compose("logs", "--no-log-prefix", "--since", since.strftime("%Y-%m-%dT%H:%M:%S.%fZ"), "proxy")
    seen: Counter[int] = Counter()
    sockets = 0
    for line in out.splitlines():
        start = line.find("{")  # compose may put a terminal control sequence before each line
        if start >= 0 and '"status"' in line:
            entry = json.loads(line[start:])
            if "request" not in entry:
                continue
            if entry["request"].get("uri", "").startswith("/ws/") and entry["status"] in (0, 101):
                sockets += 1
            else:
                seen[int(entry["status"])] += 1
    return seen, sockets


def upgrade(proxy_url: str) -> None:
    if not (NODE_CLIENT / "node_modules" / "ws").exists():
        subprocess.run(["npm", "install", "--no-audit", "--no-fund", "--silent"], cwd=NODE_CLIENT, check=True)
    began = datetime.now(UTC).replace(tzinfo=None)
    client = subprocess.Popen(
        ["node", str(NODE_CLIENT / "load_client.mjs"), "--urls", proxy_url.rstrip("/"), "--tables", str(TABLES),
         "--seats", str(SEATS), "--think", "500", "--game", "london", "--duration", "3600", "--warmup", "3",
         "--stall", "60"], stdout=subprocess.PIPE, text=True)
    assert client.stdout is not None
    lines: list[str] = []
    windowed = threading.Event()

    def read() -> None:
        assert client.stdout is not None
        for line in client.stdout:
            lines.append(line.strip())
            if line.strip() == "WINDOW_START":
                windowed.set()

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    if not windowed.wait(120):
        client.kill()
        raise SystemExit("the load client did not get its tables going through the proxy")
    time.sleep(5)
    print(f"{TABLES} tables of London ({TABLES * SEATS} sockets) playing through the proxy; upgrading")
    sys.stdout.flush()
    t0 = datetime.now(UTC).replace(tzinfo=None)
    rolled = subprocess.run(["bash", str(ROOT / "scripts" / "docker-upgrade.sh")], env={**os.environ, "BUILD": "0"})
    t1 = datetime.now(UTC).replace(tzinfo=None)
    time.sleep(5)
    client.send_signal(signal.SIGTERM)  # the client ends its window, drains and prints its figures
    client.wait(60)
    reader.join(10)
    if rolled.returncode != 0:
        raise SystemExit("the upgrade failed")
    result = next((json.loads(ln) for ln in reversed(lines) if ln.startswith("{")), None)
    if client.returncode != 0 or result is None:
        raise SystemExit(f"the load client failed (exit {client.returncode})")
    seen: dict[str, int] = result["seen"]
    rows, during = stored_moves(t0, t1)
    stored = sum(rows.get(code, (0, 0, 0))[1] for code in seen)
    answered = sum(seen.values())
    lost = sum(max(0, a - rows.get(code, (0, 0, 0))[1]) for code, a in seen.items())
    unanswered = sum(max(0, rows.get(code, (0, 0, 0))[1] - a) for code, a in seen.items())
    doubled = sum(rows.get(code, (0, 0, 0))[0] - rows.get(code, (0, 0, 0))[1] for code in seen)
    gaps = sum(rows.get(code, (0, 0, 0))[2] - rows.get(code, (0, 0, 0))[1] for code in seen)
    statuses, sockets = proxy_statuses(began)
    odd = {k: v for k, v in sorted(statuses.items()) if not 200 <= k < 300}
    errors = result["error_kinds"]
    print(f"upgrade under play ({(t1 - t0).total_seconds():.1f} s, {during} moves stored meanwhile): "
          f"{len(seen)} tables, {stored} moves stored, {answered} answered; lost {lost}, doubled {doubled}, "
          f"gaps {gaps}, stored but never answered {unanswered}")
    print(f"sockets dropped {result['drops']} {result['drop_codes']}, reconnected {result['reconnects']} "
          f"(failed attempts {result['failed_connects']}), open again after p50 {result['open_p50_ms']} / max "
          f"{result['open_max_ms']} ms, back with a view after p50 {result['back_p50_ms']} / "
          f"max {result['back_max_ms']} ms; stale answers {result['stale_retries']}; client errors {errors or 'none'}")
    print(f"the proxy's answers since the load began: {dict(sorted(statuses.items()))} and {sockets} websockets; "
          f"not 2xx: "
          f"{odd or 'none'}; round trip ms p50 {result['rtt_p50_ms']} p99 {result['rtt_p99_ms']} "
          f"max {result['rtt_max_ms']}")
    assert stored == answered and (lost, doubled, gaps) == (0, 0, 0), "moves lost or doubled in the upgrade"
    assert result["reconnects"] >= result["drops"], "a dropped socket did not come back"
    assert not odd and not errors, "the players met errors in the upgrade"


if __name__ == "__main__":
    if sys.argv[1] == "upgrade":
        upgrade(sys.argv[2])
    else:
        asyncio.run(main(sys.argv[1], sys.argv[2], sys.argv[3:]))
