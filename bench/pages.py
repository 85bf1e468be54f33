"""Measures, in a real Chromium against a real server on loopback, how long a player waits from
opening a seat's address to a drawn board whose prompt can be clicked — for every game, on a
390×844 phone and a 1366×768 laptop, with a cold cache (a new browser profile) and a warm one
(the same page opened again).

    .venv/bin/python bench/pages.py [--runs 5] [--games london …] [--write]

"Drawn and clickable" is the page's own mark (table.js sets ``parlourMetrics.firstView`` when the
first view has been rendered, prompt included), read as milliseconds since the navigation began;
beside it the moment the HTML arrived and the bytes fetched. Each figure is the median of the runs
with their spread (min–max). ``--write`` puts the table into docs/PERFORMANCE.md between its
markers. A benchmark, not a test: the figures move with the machine's load.
"""

from __future__ import annotations

import argparse
import datetime
import shutil
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

import httpx
from playwright.sync_api import Browser, sync_playwright

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.doc_block import write_block  # noqa: E402
from tests.browser.look import context_args  # noqa: E402
from tests.browser.scenes import Table  # noqa: E402
from tests.conftest import CHROMIUM_ARGS  # noqa: E402
from tests.support.server import ServerProcess  # noqa: E402

GAMES = {"london": ("Ada", "Bea"), "tower_of_london": ("Ada", "Bea", "Cyril"),
         "towers_of_babylon": ("Ada", "Bea"), "game_of_thrones": ("Ada", "Bea", "Cyril")}
SIZES = ("phone", "laptop")

DRAWN = "() => window.parlourMetrics && window.parlourMetrics.firstView !== null"
TIMES = """() => {
  const nav = performance.getEntriesByType("navigation")[0];
  const bytes = performance.getEntriesByType("resource").reduce((n, r) => n + (r.transferSize || 0), 0)
    + (nav ? nav.transferSize : 0);
  return { drawn: window.parlourMetrics.firstView, html: nav ? nav.responseEnd : null, bytes };
}"""


def open_once(browser: Browser, url: str, size: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """One cold opening in a fresh profile, then a warm one in the same profile."""
    ctx = browser.new_context(**context_args(size))
    try:
        page = ctx.new_page()
        found = []
        for _ in range(2):
            page.goto(url)
            page.wait_for_function(DRAWN, timeout=30_000)
            found.append(page.evaluate(TIMES))
        return found[0], found[1]
    finally:
        ctx.close()


def spread(values: list[float]) -> str:
    return f"{statistics.median(values):.0f} ({min(values):.0f}–{max(values):.0f})"


def measure(runs: int, games: list[str], browser: Browser | None = None) -> list[dict[str, Any]]:
    """The figures of each game at each size; in ``browser`` when given (a test's), else in a
    Chromium of its own."""
    if browser is None:
        with sync_playwright() as pw:
            own = pw.chromium.launch(executable_path=shutil.which("chromium"), args=CHROMIUM_ARGS, headless=True)
            try:
                return measure(runs, games, own)
            finally:
                own.close()
    rows: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as folder:
        server = ServerProcess(f"sqlite+aiosqlite:///{Path(folder) / 'pages.db'}", Path(folder) / "server.log",
                               engines="", quiet=True)
        server.start()
        try:
            with httpx.Client(base_url=server.base, timeout=30) as api:
                for game in games:
                    table = Table(api, game, GAMES[game])
                    url = server.base + table.seat_url(table.awaiting()[0])
                    for size in SIZES:
                        cold: list[dict[str, Any]] = []
                        warm: list[dict[str, Any]] = []
                        for _ in range(runs):
                            c, w = open_once(browser, url, size)
                            cold.append(c)
                            warm.append(w)
                        rows.append({"game": game, "size": size, "cold": cold, "warm": warm})
                        print(f"{game:18} {size:6} cold {spread([r['drawn'] for r in cold])} ms, "
                              f"warm {spread([r['drawn'] for r in warm])} ms", flush=True)
        finally:
            server.stop()
    return rows


def table(rows: list[dict[str, Any]], runs: int) -> str:
    today = datetime.date.today().isoformat()
    out = [f"Seat page opened to a drawn, clickable board (`bench/pages.py --runs {runs}`, {today}): "
           "milliseconds since the navigation began, median (min–max); KB fetched on the cold opening.", "",
           "| game | size | cold: HTML | cold: drawn | warm: drawn | KB cold |",
           "| --- | --- | --- | --- | --- | --- |"]
    for r in rows:
        cold, warm = r["cold"], r["warm"]
        kb = statistics.median(c["bytes"] for c in cold) / 1024
        out.append(f"| {r['game']} | {r['size']} | {spread([c['html'] for c in cold])} | "
                   f"{spread([c['drawn'] for c in cold])} | {spread([w['drawn'] for w in warm])} | {kb:.0f} |")
    return "\n".join(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5, help="openings per game and size (default 5)")
    parser.add_argument("--games", nargs="+", choices=list(GAMES), default=list(GAMES))
    parser.add_argument("--write", action="store_true", help="put the table into docs/PERFORMANCE.md")
    args = parser.parse_args()
    text = table(measure(args.runs, args.games), args.runs)
    print()
    print(text)
    if args.write:
        write_block("pages", text, "Pages: opening a seat (`bench/pages.py`)")


if __name__ == "__main__":
    main()
