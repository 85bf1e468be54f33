"""Giving freed memory back to the system.

A long-running server frees what a finished table held, but glibc's malloc keeps freed pages in
its arenas (one per thread that ever allocated: the event loop, the journal's, each SQLite
connection's) for reuse; after hours of tables coming and going the process's RSS records its
busiest moment rather than what is live. ``malloc_trim`` hands the free pages at the top and
middle of every arena back. Elsewhere (another C library, another system) there is nothing to do.

Fewer arenas to begin with: glibc gives a thread that meets another in the allocator an arena of
its own, up to eight per core, and pages freed in one arena serve no other. The server's threads
allocate little, yet each arena they touch keeps its pages: with two arenas a server holding 300
tables and 1,200 sockets was resident in 110–111 MB against 114–115 MB (docs/PERFORMANCE.md).
A host's own ``MALLOC_ARENA_MAX`` wins.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import logging
import os
import sys
import time
from collections.abc import Callable

log = logging.getLogger("parlour")

M_ARENA_MAX = -8  # glibc's mallopt parameter (malloc.h)
ARENAS = 2


def limit_arenas(most: int = ARENAS) -> bool:
    """Limits the arenas glibc makes from now on (call it before the process starts threads);
    True when the C library took the limit."""
    if not sys.platform.startswith("linux") or "MALLOC_ARENA_MAX" in os.environ:
        return False
    try:
        mallopt = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6").mallopt  # absent from musl
    except (OSError, AttributeError):
        return False
    return bool(mallopt(M_ARENA_MAX, most))


def _find_trim() -> Callable[[int], int] | None:
    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        trim = libc.malloc_trim  # absent from musl
    except (OSError, AttributeError):
        return None
    trim.argtypes = [ctypes.c_size_t]
    trim.restype = ctypes.c_int
    return trim


_TRIM = _find_trim()


def can_trim() -> bool:
    return _TRIM is not None


def trim() -> float:
    """Give malloc's free pages back to the system; the seconds it took (0 where it cannot).
    ctypes lets go of the interpreter lock during the call: run it in a thread and the event
    loop goes on meanwhile."""
    if _TRIM is None:
        return 0.0
    started = time.perf_counter()
    _TRIM(0)
    took = time.perf_counter() - started
    log.debug("malloc_trim took %.1f ms", took * 1000)
    return took
