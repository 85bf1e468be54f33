"""Checks a running `docker compose up --scale parlour=N` as a host's players would meet it
(scripts/docker-scale.sh runs it): websockets through the proxy, spread over the replicas, a move
made through one replica shown at once to seats connected to others, and a rolling restart of
every replica (`docker restart`, i.e. SIGTERM) under play that loses no move.

    python scripts/scale_smoke.py PROXY_URL STATS_TOKEN CONTAINER=ADDRESS ...
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import time
import urllib.request
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


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2], sys.argv[3:]))
