"""Runs the peer's harness (boardgame.io 0.50.2's server, its own load client) and ours in
turn, with the same tables, think time and window, and prints the ratios ours / peer.

    .venv/bin/python bench/side_by_side.py --peer-harness DIR [--tables 100 --think 500 --duration 30]

DIR is the peer's harness folder (game.js, server.js, load.js, bench.sh). It is copied to a
scratch folder (kept with --workdir so `npm install` runs once), as its README asks.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench import load  # noqa: E402


def run_peer(harness: Path, workdir: Path, tables: int, think: float, duration: float, warmup: float) -> dict[str, Any]:
    if not (workdir / "node_modules").exists():
        shutil.copytree(harness, workdir, dirs_exist_ok=True, ignore=shutil.ignore_patterns("node_modules", "logs"))
        subprocess.run(["npm", "install", "--no-audit", "--no-fund"], cwd=workdir, check=True)
    label = f"peer_N{tables}_think{int(think)}"
    results = workdir / "results.jsonl"
    subprocess.run(["bash", "bench.sh", str(tables), str(int(think)), str(int(duration)), str(int(warmup)), label],
                   cwd=workdir, check=True)
    rows = [json.loads(line) for line in results.read_text().splitlines() if line.strip()]
    row = [r for r in rows if r["label"] == label][-1]
    rtt = row["rtt_all4_ms"]
    return {"moves_s": row["moves_s"], "rtt_p50_ms": rtt["p50"], "rtt_p95_ms": rtt["p95"], "rtt_p99_ms": rtt["p99"],
            "rtt_max_ms": rtt["max"], "server_cpu_pct": row["server_cpu_pct"],
            "server_rss_mb_after_setup": row["server_rss_mb_idle_after_setup"],
            "server_rss_mb_peak": row["server_rss_mb_peak"],
            "errors": sum(row.get("errors_in_window", {}).values())}


FIGURES = [("moves_s", "moves/s"), ("rtt_p50_ms", "RTT p50 ms"), ("rtt_p95_ms", "RTT p95 ms"),
           ("rtt_p99_ms", "RTT p99 ms"), ("rtt_max_ms", "RTT max ms"), ("server_cpu_pct", "server CPU %"),
           ("server_rss_mb_after_setup", "RSS after setup MB"), ("server_rss_mb_peak", "RSS peak MB"),
           ("errors", "errors")]


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--peer-harness", required=True, type=Path)
    p.add_argument("--workdir", type=Path, help="scratch folder for the peer (default: a new temporary one)")
    p.add_argument("--tables", type=int, default=100)
    p.add_argument("--think", type=float, default=500)
    p.add_argument("--duration", type=float, default=30)
    p.add_argument("--warmup", type=float, default=3)
    p.add_argument("--db", choices=("sqlite", "postgres"), default="sqlite")
    a = p.parse_args()
    workdir = a.workdir or Path(tempfile.mkdtemp(prefix="peer-"))
    peer = run_peer(a.peer_harness.resolve(), workdir, a.tables, a.think, a.duration, a.warmup)
    ours = load.main(["--client", "node", "--tables", str(a.tables), "--think", str(a.think),
                      "--duration", str(a.duration), "--warmup", str(a.warmup), "--db", a.db])
    print(f"\nside by side: {a.tables} tables × 4 seats, think {a.think:g} ms, {a.duration:g} s window, ours on {a.db}")
    print(f"{'figure':22} {'peer':>10} {'ours':>10} {'ours/peer':>10}")
    for key, label in FIGURES:
        pv, ov = peer.get(key), ours.get(key)
        ratio = f"{ov / pv:.2f}" if isinstance(pv, int | float) and isinstance(ov, int | float) and pv else "—"
        print(f"{label:22} {pv!s:>10} {ov!s:>10} {ratio:>10}")


if __name__ == "__main__":
    main()
