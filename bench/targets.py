"""Every figure the performance targets are stated in, side by side with the peer, several
times over, from one command; ``--write`` puts the table into docs/PERFORMANCE.md.

    .venv/bin/python bench/targets.py --peer-harness DIR --workdir DIR [--repeat 3] [--write]

Each configuration runs the peer's harness and ours in turn (which goes first alternates from
run to run, so neither always meets the machine as the other left it); each pair gives a ratio
ours / peer. The table gives each side's median with its spread (min–max) and the median and
spread of the ratios of the pairs: on a shared machine a ratio within one pair means more than
a ratio of medians. Then A Game of Thrones at 500 tables (3,000 sockets) beside London at 750
tables (the same 3,000 sockets and think time), ours only: the peer hosts no A Game of Thrones.
"""

from __future__ import annotations

import argparse
import datetime
import statistics
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench import load  # noqa: E402
from bench.doc_block import write_block  # noqa: E402
from bench.side_by_side import run_peer  # noqa: E402

SIDE_BY_SIDE = [  # what the targets name: saturation at 10 and 100 tables, memory at 100 and 1,000
    ("10 tables, think 0 (saturation)", 10, 0.0),
    ("100 tables, think 0 (saturation)", 100, 0.0),
    ("1,000 tables / 4,000 sockets, think 5 s", 1000, 5000.0),
]
FIGURES = [("moves_s", "moves/s", "{:,.0f}"), ("rtt_p99_ms", "RTT p99 ms", "{:.1f}"),
           ("server_cpu_pct", "server CPU %", "{:.0f}"), ("server_rss_mb_after_setup", "RSS after set-up MB", "{:.1f}"),
           ("server_rss_mb_peak", "RSS peak MB", "{:.1f}")]
GAME_PAIR = [("A Game of Thrones, 500 tables × 6", "game_of_thrones", 500),
             ("London, 750 tables × 4", "london", 750)]
GAME_THINK_MS = 3400.0  # A Game of Thrones' own load runs above use it


def settled(warmup: float, think: float) -> float:
    """A warm-up long enough for the tables to be thinking steadily, as ``bench/load.py`` takes
    by default (three think times): our client starts the tables spread over one think time
    after all are set up, so a window opening 3 s after that counted 10 % fewer moves at 1,000
    tables thinking 5 s; the peer is given the same warm-up."""
    return max(warmup, 3 * think / 1000)


def ours(tables: int, think: float, duration: float, warmup: float, game: str = "london") -> dict[str, Any]:
    return load.main(["--client", "node", "--game", game, "--tables", str(tables), "--think", str(think),
                      "--duration", str(duration), "--warmup", str(settled(warmup, think))])


def spread(values: list[float], shape: str) -> str:
    if len(values) == 1:
        return shape.format(values[0])
    return f"{shape.format(statistics.median(values))} ({shape.format(min(values))}–{shape.format(max(values))})"


def side_by_side(harness: Path, workdir: Path, repeat: int, duration: float, warmup: float,
                 say: Callable[[str], None], only: list[int]) -> list[str]:
    rows = []
    for label, tables, think in SIDE_BY_SIDE:
        if tables not in only:
            continue
        peers: list[dict[str, Any]] = []
        mine: list[dict[str, Any]] = []
        for run in range(repeat):
            say(f"{label}: run {run + 1} of {repeat}")
            if run % 2 == 0:
                peers.append(run_peer(harness, workdir, tables, think, duration, settled(warmup, think)))
                mine.append(ours(tables, think, duration, warmup))
            else:
                mine.append(ours(tables, think, duration, warmup))
                peers.append(run_peer(harness, workdir, tables, think, duration, settled(warmup, think)))
        for key, name, shape in FIGURES:
            p = [float(r[key]) for r in peers]
            o = [float(r[key]) for r in mine]
            ratios = [b / a for a, b in zip(p, o, strict=True) if a]
            rows.append(f"| {label} | {name} | {spread(p, shape)} | {spread(o, shape)} | "
                        f"{spread(ratios, '{:.2f}') if ratios else '—'} |")
        errors = sum(int(r.get("errors") or 0) for r in mine)
        rows.append(f"| {label} | errors (ours) | | {errors} | |")
    return rows


def games(repeat: int, duration: float, warmup: float, say: Callable[[str], None]) -> list[str]:
    got: dict[str, list[dict[str, Any]]] = {game: [] for _, game, _ in GAME_PAIR}
    for run in range(repeat):
        for label, game, tables in GAME_PAIR if run % 2 == 0 else reversed(GAME_PAIR):
            say(f"{label}: run {run + 1} of {repeat}")
            got[game].append(ours(tables, GAME_THINK_MS, duration, warmup, game))
    rows = []
    for label, game, _ in GAME_PAIR:
        r = got[game]
        rows.append(f"| {label} | {spread([x['moves_s'] for x in r], '{:,.0f}')} | "
                    f"{spread([x['rtt_p99_ms'] for x in r], '{:.2f}')} | "
                    f"{spread([x['server_cpu_pct'] for x in r], '{:.0f}')} | "
                    f"{spread([x['server_rss_mb_after_setup'] for x in r], '{:.1f}')} |")
    got_p99 = [g["rtt_p99_ms"] / lo["rtt_p99_ms"]
               for g, lo in zip(got["game_of_thrones"], got["london"], strict=True) if lo["rtt_p99_ms"]]
    rows.append(f"| ratio A Game of Thrones / London, RTT p99 | | {spread(got_p99, '{:.2f}')} | | |")
    return rows


def document(side: list[str], game_rows: list[str], repeat: int, duration: float) -> str:
    today = datetime.date.today().isoformat()
    return "\n".join([
        f"Side by side with the peer (`bench/targets.py --repeat {repeat}`, {today}, {duration:g} s windows; London, "
        "SQLite, every move stored before it is shown; the peer is boardgame.io 0.50.2 keeping its games in "
        "memory; the Node load client for both): each side's median (min–max), and the median (min–max) of "
        "the ratios ours / peer of the runs taken in pairs.", "",
        "| configuration | figure | peer | ours | ours / peer |", "| --- | --- | --- | --- | --- |", *side, "",
        f"A Game of Thrones beside London at the same 3,000 sockets (ours only, think {GAME_THINK_MS / 1000:g} s):",
        "", "| tables | moves/s | RTT p99 ms | server CPU % | RSS after set-up MB |",
        "| --- | --- | --- | --- | --- |", *game_rows])


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--peer-harness", required=True, type=Path)
    p.add_argument("--workdir", type=Path, required=True, help="scratch folder for the peer (npm install once)")
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--duration", type=float, default=20)
    p.add_argument("--warmup", type=float, default=3)
    p.add_argument("--no-games", action="store_true", help="leave out A Game of Thrones beside London")
    p.add_argument("--tables", type=int, nargs="*", default=[label[1] for label in SIDE_BY_SIDE],
                   help="the side-by-side configurations to run, by their tables (none: only the games)")
    p.add_argument("--write", action="store_true", help="put the table into docs/PERFORMANCE.md")
    a = p.parse_args()

    def say(text: str) -> None:
        print(f"== {text}", flush=True)

    side = side_by_side(a.peer_harness.resolve(), a.workdir, a.repeat, a.duration, a.warmup, say, a.tables)
    game_rows = [] if a.no_games else games(a.repeat, a.duration, a.warmup, say)
    text = document(side, game_rows, a.repeat, a.duration)
    print()
    print(text)
    if a.write:
        write_block("targets", text, "The targets side by side (`bench/targets.py`)")


if __name__ == "__main__":
    main()
