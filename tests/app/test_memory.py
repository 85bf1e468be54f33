"""Freed memory goes back to the system: a server that has hosted thousands of finished tables
holds what is live, not its busiest hour (app/server/memory.py, the sweeper in app/parlour.py)."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import pytest

from app.parlour import Parlour
from app.server import memory
from tests.conftest import make_settings

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's malloc_trim is Linux's")


def rss_anon_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("RssAnon:"):
            return int(line.split()[1]) / 1024
    raise AssertionError("no RssAnon in /proc/self/status")


def test_trimming_hands_back_the_pages_freed_between_blocks_still_in_use() -> None:
    assert memory.can_trim()
    blocks = [bytearray(1000) for _ in range(60_000)]  # ~60 MB from malloc, not Python's arenas
    kept = blocks[::50]  # one block in fifty stays: the freed ones lie between them, not at the top
    del blocks
    before = rss_anon_mb()
    took = memory.trim()
    after = rss_anon_mb()
    assert kept and took > 0
    assert before - after > 25, f"RssAnon {before:.1f} MB before the trim, {after:.1f} MB after"


async def test_the_sweeper_trims_every_memory_trim_seconds_and_never_when_it_is_zero(sqlite_url, monkeypatch) -> None:
    calls: list[float] = []
    monkeypatch.setattr(memory, "trim", lambda: calls.append(1) or 0.0)
    for every, expect_some in ((0.1, True), (0.0, False)):
        calls.clear()
        p = Parlour(make_settings(sqlite_url, memory_trim_seconds=every, table_idle_seconds=0.2,
                                  finished_idle_seconds=0.2))
        await p.start()
        try:
            await asyncio.sleep(0.6)
        finally:
            await p.stop()
        assert bool(calls) is expect_some, (every, calls)
