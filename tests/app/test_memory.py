"""Freed memory goes back to the system: a server that has hosted thousands of finished tables
holds what is live, not its busiest hour (app/server/memory.py, the sweeper in app/parlour.py)."""

from __future__ import annotations

import asyncio
import os
import subprocess
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


ARENAS_SEEN = """
import ctypes, ctypes.util, sys, threading
from app.server import memory
if sys.argv[1] == "limited":
    assert memory.limit_arenas(2)
started = threading.Barrier(8)
def allocate():
    started.wait()  # all at once: each thread meets the others in the allocator
    kept = [bytearray(2000) for _ in range(2000)]
    started.wait()
threads = [threading.Thread(target=allocate) for _ in range(8)]
for t in threads: t.start()
for t in threads: t.join()
ctypes.CDLL(ctypes.util.find_library("c")).malloc_stats()  # one "Arena N:" per arena, on stderr
"""


@pytest.mark.parametrize(("how", "most"), [("limited", 2), ("as_glibc_does", 99)])
def test_the_server_keeps_two_malloc_arenas_where_glibc_would_give_each_thread_its_own(how: str, most: int) -> None:
    env = {k: v for k, v in os.environ.items() if k != "MALLOC_ARENA_MAX"}
    done = subprocess.run([sys.executable, "-c", ARENAS_SEEN, how], capture_output=True, text=True, env=env,
                          cwd=Path(__file__).resolve().parents[2], check=True)
    arenas = done.stderr.count("Arena ")
    if how == "limited":
        assert 1 <= arenas <= most, done.stderr
    else:
        assert arenas > 2, done.stderr  # the control: unlimited, the eight threads took arenas of their own


def test_a_hosts_own_malloc_arena_max_is_left_as_it_is(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MALLOC_ARENA_MAX", "4")
    assert not memory.limit_arenas()
