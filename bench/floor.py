"""The server's floor under a saturated move, beside the peer: what a move costs when the game's
own rules cost next to nothing.

    .venv/bin/python bench/floor.py --peer-harness DIR --workdir DIR [--tables 10] [--repeat 3] [--write]

Each round runs, in turn (the order turns by one each round, so that none always meets the
machine as another left it): the peer's harness (boardgame.io 0.50.2, its games in memory), our
server playing London, and our server playing Relay (bench/floor_game.py: pass the baton, a view
of a few numbers) and Relay with London-sized views (about 3 KB). Every one at saturation (think
0) with the Node load client, every move of ours stored before it is shown. A move's server
cost is the server's processor time over the window divided by the moves: what "moves/s" means
once the server's core is full. The table gives each one's median (min–max) over the rounds, its
ratio to the peer's moves/s taken round by round, and the server time a move may cost for 1.5 ×
the peer's moves per second of processor time in that round (the peer's cost a move ÷ 1.5).
"""

from __future__ import annotations

import argparse
import datetime
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench import load  # noqa: E402
from bench.doc_block import write_block  # noqa: E402
from bench.side_by_side import run_peer  # noqa: E402
from bench.targets import spread  # noqa: E402

SERVERS = [("peer", "the peer (boardgame.io), its own game"), ("london", "ours, London"),
           ("relay", "ours, Relay (views of a few numbers)"), ("relay_padded", "ours, Relay (views of about 3 KB)")]
TARGET = 1.5  # issue 29: half again the peer's moves per second


def run(server: str, harness: Path, workdir: Path, tables: int, duration: float, warmup: float) -> dict[str, Any]:
    if server == "peer":
        return run_peer(harness, workdir, tables, 0.0, duration, warmup)
    return load.main(["--client", "node", "--game", server, "--tables", str(tables), "--think", "0",
                      "--duration", str(duration), "--warmup", str(warmup)])


def us_per_move(result: dict[str, Any]) -> float:
    """The server's processor time per move, µs."""
    return 1e6 * float(result["server_cpu_pct"]) / 100 / float(result["moves_s"])


def rounds(harness: Path, workdir: Path, tables: int, repeat: int, duration: float, warmup: float,
           say: Callable[[str], None]) -> dict[str, list[dict[str, Any]]]:
    got: dict[str, list[dict[str, Any]]] = {name: [] for name, _ in SERVERS}
    for n in range(repeat):
        order = SERVERS[n % len(SERVERS):] + SERVERS[:n % len(SERVERS)]
        for name, _ in order:
            say(f"round {n + 1} of {repeat}: {name}")
            got[name].append(run(name, harness, workdir, tables, duration, warmup))
    return got


def document(got: dict[str, list[dict[str, Any]]], tables: int, repeat: int, duration: float) -> str:
    peers = got["peer"]
    allowed = [us_per_move(p) / TARGET for p in peers]
    rows = []
    for name, label in SERVERS:
        runs = got[name]
        ratios = [float(r["moves_s"]) / float(p["moves_s"]) for r, p in zip(runs, peers, strict=True)]
        errors = sum(int(r.get("errors") or 0) for r in runs)
        rows.append(f"| {label} | {spread([float(r['moves_s']) for r in runs], '{:,.0f}')} | "
                    f"{spread([float(r['server_cpu_pct']) for r in runs], '{:.0f}')} | "
                    f"{spread([us_per_move(r) for r in runs], '{:.0f}')} | "
                    f"{spread(ratios, '{:.2f}')} | {errors} |")
    today = datetime.date.today().isoformat()
    return "\n".join([
        f"The floor beside the peer (`bench/floor.py --tables {tables} --repeat {repeat}`, {today}, "
        f"{duration:g} s windows, think 0, the Node load client for all; ours on SQLite, every move stored "
        "before it is shown): each one's median (min–max) over the rounds; the ratio is taken round by round.",
        "", "| server, game | moves/s | server CPU % | server µs a move | moves/s ÷ the peer's | errors |",
        "| --- | --- | --- | --- | --- | --- |", *rows, "",
        f"For {TARGET:g} × the peer's moves per second of server processor time (its throughput per core), "
        f"a move may cost our server the peer's cost a move ÷ {TARGET:g}: {spread(allowed, '{:.0f}')} µs "
        "(round by round).",
    ])


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--peer-harness", required=True, type=Path)
    p.add_argument("--workdir", type=Path, required=True, help="scratch folder for the peer (npm install once)")
    p.add_argument("--tables", type=int, default=10)
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--duration", type=float, default=15)
    p.add_argument("--warmup", type=float, default=3)
    p.add_argument("--write", action="store_true", help="put the table into docs/PERFORMANCE.md")
    a = p.parse_args()

    def say(text: str) -> None:
        print(f"== {text}", flush=True)

    got = rounds(a.peer_harness.resolve(), a.workdir, a.tables, a.repeat, a.duration, a.warmup, say)
    text = document(got, a.tables, a.repeat, a.duration)
    print()
    print(text)
    if a.write:
        write_block(f"floor-{a.tables}", text, f"The floor beside the peer, {a.tables} tables (`bench/floor.py`)")


if __name__ == "__main__":
    main()
